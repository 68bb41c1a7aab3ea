"""Credentials inside a URL (``https://user:secret@host/v1``) stay in this process.

The command line takes them out of every URL it is given (``--base-url``,
``--embedding-base-url``, an HTTP ``--system``) before the URL goes anywhere else; settings,
configs, manifests, scores, logs, progress lines and Prefect's parameters only ever hold the
URL without them. The HTTP clients put them back when they connect (:func:`with_credentials`),
where they work as HTTP basic auth, as they would have in the URL itself.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

_CREDENTIALS: dict[str, str] = {}  # public URL -> the same URL with its credentials


def public(url: str) -> str:
    """``url`` without ``user:password@``."""
    parts = urlsplit(url)
    if parts.username is None and parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=host))


def register(url: str) -> str:
    """The public form of ``url``; its credentials are kept for :func:`with_credentials`."""
    shown = public(url)
    if shown != url:
        _CREDENTIALS[shown] = url
    return shown


def with_credentials(url: str) -> str:
    """The URL to connect to: ``url`` with the credentials registered for it, if any."""
    return _CREDENTIALS.get(url, url)
