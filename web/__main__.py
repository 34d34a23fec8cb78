"""`python -m web`: serve the playground on 127.0.0.1 unless told otherwise."""

import argparse

from web import create_app


def parse_args(argv=None):
    """Command-line options: where to listen and what to serve."""
    parser = argparse.ArgumentParser(prog="python -m web", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default: 127.0.0.1, this machine only)")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--static-dir", default=None, help="directory to serve (default: the repository's static/)")
    return parser.parse_args(argv)


def main(argv=None):
    """Run the dev server."""
    args = parse_args(argv)
    create_app(args.static_dir).run(host=args.host, port=args.port)


if __name__ == "__main__":
    main()
