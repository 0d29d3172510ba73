"""The options of `flowdrop-lsp doctor [PATH]` and what they mean once checked (no aiohttp here:
`entry.py` builds its parser from this module whatever the command).

Listening anywhere but a loopback address needs a bearer token (`--token-file`): the routes
read a site's workflows and answer what they hold, to whoever asks."""

from __future__ import annotations

import argparse
import ipaddress
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8490


class OptionsError(Exception):
    """Options that cannot run (exit 2, the message on stderr)."""


@dataclass(frozen=True)
class DoctorOptions:
    site: Path
    host: str
    port: int
    token: str | None
    allowed_origins: frozenset[str]


def add_doctor_arguments(doctor: argparse.ArgumentParser) -> None:
    doctor.add_argument(
        "path",
        nargs="?",
        default=".",
        metavar="PATH",
        help="the site: its root, its config/sync, or any folder `check` accepts (default: .)",
    )
    doctor.add_argument(
        "--host",
        default=DEFAULT_HOST,
        help=f"the address to listen on (default {DEFAULT_HOST}; any address that is not a "
        "loopback one needs --token-file)",
    )
    doctor.add_argument(
        "--port",
        type=int,
        default=DEFAULT_PORT,
        help=f"the port to listen on (default {DEFAULT_PORT}; 0: any free port, printed on the "
        "first line)",
    )
    doctor.add_argument(
        "--token-file",
        metavar="FILE",
        help="require `Authorization: Bearer <token>` on every request, the token read from FILE "
        "(surrounding whitespace stripped)",
    )
    doctor.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="a page origin allowed to call the routes from a browser (CORS), e.g. "
        "https://cms.example.org; repeatable",
    )


def is_loopback(host: str) -> bool:
    """A loopback address (127.0.0.0/8, ::1). A name, even `localhost`, is not: it may resolve
    to anything."""
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def origin_of(text: str) -> str:
    """`text` as a browser spells an origin (`scheme://host[:port]`, lowercase, no path)."""
    value = text.strip().rstrip("/")
    parts = urlsplit(value)
    if (
        parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise OptionsError(
            f"--allow-origin {text!r}: an origin is scheme://host[:port] "
            "(http or https, no path), e.g. https://cms.example.org"
        )
    return value.lower()


def read_token(path: str) -> str:
    try:
        token = Path(path).read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError) as error:
        raise OptionsError(f"--token-file {path}: cannot read it ({error})") from error
    if not token:
        raise OptionsError(f"--token-file {path}: the file holds no token")
    if not all("!" <= character <= "~" for character in token):
        # It travels in a header: one word of visible ASCII.
        raise OptionsError(f"--token-file {path}: a token is one word of visible ASCII characters")
    return token


def options_from(args: argparse.Namespace) -> DoctorOptions:
    site = Path(args.path)
    if not site.is_dir():
        raise OptionsError(f"{args.path}: not a folder (PATH is a site's folder)")
    if not 0 <= args.port <= 65535:
        raise OptionsError(f"--port {args.port}: a port is 0 to 65535")
    token = read_token(args.token_file) if args.token_file is not None else None
    if token is None and not is_loopback(args.host):
        raise OptionsError(
            f"--host {args.host} is not a loopback address: give --token-file FILE, so that "
            "only who holds the token is answered"
        )
    return DoctorOptions(
        site=site,
        host=args.host,
        port=args.port,
        token=token,
        allowed_origins=frozenset(origin_of(origin) for origin in args.allow_origin),
    )
