"""Credentials inside a URL (``https://user:secret@host/v1``) stay in this process.

The command line takes them out of every URL it is given (``--base-url``,
``--embedding-base-url``, an HTTP ``--system``) before the URL goes anywhere else; settings,
configs, manifests, scores, logs, progress lines and Prefect's parameters only ever hold the
URL without them. The HTTP clients put them back when they connect (:func:`with_credentials`),
where they work as HTTP basic auth, as they would have in the URL itself.
"""

from __future__ import annotations

import base64
from urllib.parse import unquote, urlsplit, urlunsplit

from dragonforge.errors import InputError

_CREDENTIALS: dict[str, str] = {}  # public URL -> the same URL with its credentials
_SECRETS: set[str] = set()  # what must never be shown: passwords and their basic-auth tokens


def public(url: str) -> str:
    """``url`` without ``user:password@``."""
    parts = urlsplit(url)
    if "@" not in parts.netloc:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=host))


def register(url: str, option: str = "the URL") -> str:
    """The public form of ``url``; its credentials are kept for :func:`with_credentials`.
    InputError when ``url`` does not parse, or when the same endpoint was given other
    credentials already (for another option)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 (raises ValueError for a port that is not a number)
    except ValueError as exc:
        raise InputError(f"{option} {public_or_raw(url)!r} is not a valid URL ({exc})") from None
    shown = public(url)
    if shown == url:
        return url
    if _CREDENTIALS.get(shown, url) != url:
        raise InputError(f"{option} {shown} was given other credentials than another option for the same URL")
    _CREDENTIALS[shown] = url
    user, password = unquote(parts.username or ""), unquote(parts.password or "")
    token = base64.b64encode(f"{user}:{password}".encode()).decode()
    _SECRETS.update(s for s in (parts.password, password, token) if s)
    return shown


def public_or_raw(url: str) -> str:
    try:
        return public(url)
    except ValueError:
        return url.rpartition("@")[2]


def redact(text: str) -> str:
    """``text`` with every registered password (and its basic-auth token) replaced by ***."""
    for secret in _SECRETS:
        text = text.replace(secret, "***")
    return text


def with_credentials(url: str) -> str:
    """The URL to connect to: ``url`` with the credentials registered for it, if any."""
    return _CREDENTIALS.get(url, url)
