"""Flask dev server for the playground: serves static/ with the headers Pyodide needs and never runs client input."""

import mimetypes
from pathlib import Path

from flask import Flask, Response, request, send_file
from werkzeug.exceptions import HTTPException, NotFound
from werkzeug.security import safe_join

STATIC_DIR = Path(__file__).resolve().parent.parent / "static"

MIME_TYPES = {
    ".html": "text/html",
    ".js": "text/javascript",
    ".mjs": "text/javascript",
    ".css": "text/css",
    ".json": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".gz": "application/gzip",
}

# Same-origin only: nothing is fetched from or sent to another host. 'wasm-unsafe-eval' lets Pyodide and viz.js
# compile WebAssembly; 'unsafe-eval' keeps browser automation working (Playwright's wait_for_function evaluates its
# predicate with eval; teachers' and testers' scripts drive the page that way) and opens no network path;
# inline styles are allowed because CodeMirror and Graphviz's SVG set style attributes; data:/blob: images serve
# PNG/SVG export.
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self' 'wasm-unsafe-eval' 'unsafe-eval'",
    "worker-src 'self'",
    "connect-src 'self'",
    "img-src 'self' data: blob:",
    "style-src 'self' 'unsafe-inline'",
    "font-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
])

SECURITY_HEADERS = {
    # COOP + COEP make the page cross-origin isolated, so SharedArrayBuffer can interrupt runaway Python.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

MISSING_BUILD = "static/pyodide is missing: run `python build.py` (or ./dev serve) to build the site first.\n"


def mime_type(path):
    """The Content-Type for a file, by its suffix."""
    return MIME_TYPES.get(path.suffix) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def resolve(static_dir, subpath):
    """The file under static_dir that subpath names, or None; refuses traversal, hidden files and odd bytes."""
    if "\x00" in subpath or "\\" in subpath or any(part.startswith(".") for part in subpath.split("/")):
        return None
    joined = safe_join(str(static_dir), subpath)
    if joined is None:
        return None
    path = Path(joined)
    if path.is_dir():
        path = path / "index.html"
    return path if path.is_file() else None


def plain(text, status):
    """A short text/plain response (errors never carry a stack trace)."""
    return Response(text, status=status, mimetype="text/plain")


def create_app(static_dir=None):
    """The Flask app serving static_dir (default: the repository's static/) at `/`."""
    static_dir = Path(static_dir or STATIC_DIR).resolve()
    app = Flask(__name__, static_folder=None)

    @app.get("/", defaults={"subpath": ""})
    @app.get("/<path:subpath>")
    def serve(subpath):
        path = resolve(static_dir, subpath)
        if path is None:
            if not (static_dir / "pyodide").is_dir():
                return plain(MISSING_BUILD, 404)
            raise NotFound()
        gz = path.with_name(path.name + ".gz")
        compressed = gz.is_file() and request.accept_encodings["gzip"] > 0
        response = send_file(gz if compressed else path, mimetype=mime_type(path), conditional=True, etag=True,
                             max_age=None)
        response.headers.pop("Content-Disposition", None)
        if compressed:
            response.headers["Content-Encoding"] = "gzip"
        if gz.is_file():
            response.vary.add("Accept-Encoding")
        # Revalidate on every load: cheap 304s on a warm reload, never a stale engine after a rebuild.
        response.headers["Cache-Control"] = "no-cache"
        return response

    @app.errorhandler(HTTPException)
    def http_error(error):
        return plain(f"{error.code} {error.name}\n", error.code)

    @app.errorhandler(Exception)
    def internal_error(error):
        app.logger.exception("internal error")
        return plain("500 Internal Server Error\n", 500)

    @app.after_request
    def security_headers(response):
        for name, value in SECURITY_HEADERS.items():
            response.headers.setdefault(name, value)
        return response

    if not (static_dir / "pyodide").is_dir():
        app.logger.warning(MISSING_BUILD.strip())
    return app
