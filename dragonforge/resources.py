"""Where the project's readable resources live: schemas, templates, prompts, seeds.

In a source checkout (the usual, editable install) they are the top-level folders; a
built wheel carries copies under ``dragonforge/_resources``.
"""

from __future__ import annotations

import hashlib
import os
from functools import cache
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_CHECKOUT = _PACKAGE.parent


@cache
def resource_dir(name: str) -> Path:
    for base in (_CHECKOUT / name, _PACKAGE / "_resources" / name):
        if base.is_dir():
            return base
    raise FileNotFoundError(f"dragonforge resource folder {name!r} is missing from the installation")


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def resource_hashes(*names: str) -> dict[str, str]:
    """Content hash of every file under the named resource folders, keyed by relative path."""
    hashes: dict[str, str] = {}
    for name in names:
        root = resource_dir(name)
        for path in sorted(root.rglob("*")):
            if path.is_file() and not path.name.startswith("."):
                hashes[f"{name}/{path.relative_to(root).as_posix()}"] = file_hash(path)
    return hashes


def user_cache_dir(name: str) -> Path | None:
    """``name`` under the user's dragonforge cache (``$DRAGONFORGE_CACHE_DIR``, else
    ``$XDG_CACHE_HOME/dragonforge`` or ``~/.cache/dragonforge``), created; None when
    ``DRAGONFORGE_CACHE_DIR=off`` or it cannot be used. What is kept there (compiled templates,
    a parsed dictionary) only saves time: without it everything is recomputed."""
    base = os.environ.get("DRAGONFORGE_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache"), "dragonforge")
    if base == "off":
        return None
    directory = Path(base) / name
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
    except OSError:
        return None
    return directory if os.access(directory, os.R_OK | os.W_OK | os.X_OK) else None
