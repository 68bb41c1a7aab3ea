"""Where the project's readable resources live: schemas, templates, prompts, seeds.

In a source checkout (the usual, editable install) they are the top-level folders; a
built wheel carries copies under ``dragonforge/_resources``.
"""

from __future__ import annotations

import hashlib
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
