"""The Flask dev server: files, MIME types, pre-compressed assets, security headers, refusals."""

import gzip

import pytest

import web
from web.__main__ import parse_args

WASM = b"\0asm" + bytes(range(256)) * 64


@pytest.fixture
def site(tmp_path):
    """A small built site: the page, a Pyodide dir with a .gz sibling, one file of each served type."""
    static = tmp_path / "static"
    (static / "pyodide").mkdir(parents=True)
    (static / "index.html").write_text("<!doctype html><title>playground</title>")
    (static / "main.js").write_text("export const x = 1;")
    (static / "mod.mjs").write_text("export const y = 2;")
    (static / "style.css").write_text("body{}")
    (static / "pyodide" / "pyodide.asm.wasm").write_bytes(WASM)
    (static / "pyodide" / "pyodide.asm.wasm.gz").write_bytes(gzip.compress(WASM))
    (static / "pyodide" / "pyodide-lock.json").write_text("{}")
    (static / "pyodide" / "engine-0.1.0-py3-none-any.whl").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    (static / "pyodide" / "python_stdlib.zip").write_bytes(b"PK\x05\x06" + b"\0" * 18)
    (tmp_path / "secret.txt").write_text("TOP SECRET")
    (static / ".hidden").write_text("TOP SECRET")
    return static


@pytest.fixture
def client(site):
    return web.create_app(site).test_client()


def test_index_is_served_at_root(client):
    response = client.get("/")
    assert response.status_code == 200
    assert response.mimetype == "text/html"
    assert b"<title>playground</title>" in response.data


@pytest.mark.parametrize("path, mimetype", [
    ("/pyodide/pyodide.asm.wasm", "application/wasm"),
    ("/mod.mjs", "text/javascript"),
    ("/main.js", "text/javascript"),
    ("/style.css", "text/css"),
    ("/pyodide/pyodide-lock.json", "application/json"),
    ("/pyodide/engine-0.1.0-py3-none-any.whl", "application/zip"),
    ("/pyodide/python_stdlib.zip", "application/zip"),
])
def test_mime_types(client, path, mimetype):
    response = client.get(path)
    assert response.status_code == 200
    assert response.mimetype == mimetype


@pytest.mark.parametrize("path", ["/", "/main.js", "/pyodide/pyodide.asm.wasm", "/missing.js", "/../secret.txt"])
def test_security_headers_on_every_response(client, path):
    headers = client.get(path).headers
    assert headers["Cross-Origin-Opener-Policy"] == "same-origin"
    assert headers["Cross-Origin-Embedder-Policy"] == "require-corp"
    assert headers["Cross-Origin-Resource-Policy"] == "same-origin"
    assert headers["X-Content-Type-Options"] == "nosniff"
    assert headers["Referrer-Policy"] == "no-referrer"
    csp = dict(d.strip().split(" ", 1) for d in headers["Content-Security-Policy"].split(";"))
    assert csp["default-src"] == "'self'"
    assert csp["script-src"] == "'self' 'wasm-unsafe-eval' 'unsafe-eval'"
    assert csp["connect-src"] == "'self'"
    assert "unsafe-inline" not in csp["script-src"]


def test_gzip_sibling_served_when_accepted(client):
    response = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip, deflate, br"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert response.mimetype == "application/wasm"
    assert "Accept-Encoding" in response.headers["Vary"]
    assert gzip.decompress(response.data) == WASM


@pytest.mark.parametrize("accept", [None, "identity", "gzip;q=0"])
def test_raw_file_when_gzip_not_accepted(client, accept):
    headers = {"Accept-Encoding": accept} if accept else {}
    response = client.get("/pyodide/pyodide.asm.wasm", headers=headers)
    assert "Content-Encoding" not in response.headers
    assert "Accept-Encoding" in response.headers["Vary"]
    assert response.data == WASM


def test_warm_reload_revalidates_with_etag(client):
    first = client.get("/main.js")
    assert first.headers["Cache-Control"] == "no-cache"
    assert first.headers["ETag"]
    again = client.get("/main.js", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304
    assert again.data == b""


def test_compressed_and_raw_have_different_etags(client):
    raw = client.get("/pyodide/pyodide.asm.wasm")
    packed = client.get("/pyodide/pyodide.asm.wasm", headers={"Accept-Encoding": "gzip"})
    assert raw.headers["ETag"] != packed.headers["ETag"]


@pytest.mark.parametrize("path", [
    "/../secret.txt", "/%2e%2e/secret.txt", "/pyodide/../../secret.txt", "/pyodide/..%2f..%2fsecret.txt",
    "/..%5csecret.txt", "/.hidden", "/%2ehidden", "/pyodide/%00", "//etc/passwd", "/static/../../secret.txt",
])
def test_path_traversal_and_hidden_files_refused(client, path):
    response = client.get(path)
    assert 400 <= response.status_code < 500
    assert b"TOP SECRET" not in response.data
    assert b"root:" not in response.data


@pytest.mark.parametrize("method", ["post", "put", "delete", "patch"])
def test_only_reading_methods(client, method):
    response = getattr(client, method)("/", data="print('hi')")
    assert response.status_code == 405
    assert b"Traceback" not in response.data


def test_routes_only_read_files():
    for rule in web.create_app().url_map.iter_rules():
        assert rule.methods <= {"GET", "HEAD", "OPTIONS"}, rule


def test_errors_are_plain_4xx(client):
    response = client.get("/missing.js")
    assert response.status_code == 404
    assert response.mimetype == "text/plain"
    assert b"<" not in response.data


def test_bad_range_is_a_4xx(client):
    response = client.get("/main.js", headers={"Range": "bytes=9999-"})
    assert response.status_code == 416


def test_internal_error_shows_no_stack_trace(site, monkeypatch):
    def explode(*args, **kwargs):
        raise RuntimeError("secret detail of the server")

    monkeypatch.setattr(web, "send_file", explode)
    for debug in (False, True):
        app = web.create_app(site)
        app.debug = debug
        response = app.test_client().get("/main.js")
        assert response.status_code == 500
        assert b"secret detail" not in response.data
        assert b"Traceback" not in response.data


def test_missing_build_says_what_to_run(tmp_path):
    (tmp_path / "index.html").write_text("page")
    response = web.create_app(tmp_path).test_client().get("/pyodide/pyodide.mjs")
    assert response.status_code == 404
    assert b"python build.py" in response.data


def test_binds_loopback_by_default():
    assert parse_args([]).host == "127.0.0.1"
    assert parse_args(["--host", "0.0.0.0"]).host == "0.0.0.0"


def test_flask_cli_finds_the_app_factory():
    from flask.cli import ScriptInfo

    app = ScriptInfo(app_import_path="web").load_app()
    assert app.name == "web"
