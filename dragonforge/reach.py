"""One cheap probe of an endpoint before any work starts: can a TCP connection be opened?"""

from __future__ import annotations

import socket
from urllib.parse import urlsplit

from dragonforge.errors import InputError

PROBE_TIMEOUT_S = 1.0


def check_reachable(url: str, flag: str, timeout_s: float = PROBE_TIMEOUT_S) -> None:
    """Raise a one-line :class:`InputError` naming ``flag`` when nothing answers at ``url``'s
    host and port. No request is sent: an endpoint that only takes POST, or wants a key, passes."""
    parts = urlsplit(url)
    host = parts.hostname
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
    except ValueError:
        raise InputError(f"{flag} {url!r} has an invalid port") from None
    if not host:
        raise InputError(f"{flag} {url!r} is not an http(s) URL")
    try:
        socket.create_connection((host, port), timeout=timeout_s).close()
    except socket.gaierror:
        raise InputError(f"{flag}: cannot reach {host}:{port} (no such host)") from None
    except TimeoutError:
        raise InputError(f"{flag}: cannot reach {host}:{port} (no answer within {timeout_s:g}s)") from None
    except OSError as exc:
        raise InputError(f"{flag}: cannot reach {host}:{port} ({exc.strerror or exc})") from None
