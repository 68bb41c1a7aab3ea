"""What a stored result depends on, as a hash: the code that made it and the content of its inputs.

Keys are computed the same way whatever runs the stages (in-process or Prefect) and wherever
dragonforge is installed: the code fingerprint hashes the package's own ``.py`` files where
they are (a checkout, an editable install or a wheel in site-packages) together with every
template, schema and prompt, so a changed stage function or template never reuses a result.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dragonforge import __version__
from dragonforge.resources import resource_hashes

_PACKAGE = Path(__file__).resolve().parent


@cache
def code_fingerprint() -> str:
    """sha256 over the package's Python sources and its resource files (templates, schemas, prompts)."""
    h = hashlib.sha256(f"dragonforge {__version__}".encode())
    for path in sorted(_PACKAGE.rglob("*.py")):
        if "_resources" in path.relative_to(_PACKAGE).parts:
            continue
        h.update(path.relative_to(_PACKAGE).as_posix().encode() + b"\0")
        h.update(path.read_bytes())
    for name, digest in sorted(resource_hashes("templates", "schemas", "prompts").items()):
        h.update(f"{name}={digest}\0".encode())
    return h.hexdigest()


def _plain(value: Any) -> Any:
    """JSON-ready form of a stage input: models by their fields, dataclasses and tuples as lists."""
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if hasattr(value, "__dataclass_fields__"):
        return {name: _plain(getattr(value, name)) for name in value.__dataclass_fields__}
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def content_key(stage: str, *inputs: Any) -> str:
    """Key of a stage result: the stage's name, the code fingerprint and the content of every input."""
    h = hashlib.sha256(f"{stage}\0{code_fingerprint()}\0".encode())
    for value in inputs:
        h.update(json.dumps(_plain(value), sort_keys=True, ensure_ascii=False, separators=(",", ":")).encode())
        h.update(b"\0")
    return h.hexdigest()
