"""Atomic file writes: a file either has its complete new content or its old one."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dragonforge.errors import OutputConflictError


@contextlib.contextmanager
def exclusive_lock(directory: Path, what: str):
    """Hold ``directory/.dragonforge/lock`` for the duration: two runs writing into one
    directory would interleave their files."""
    import fcntl

    state = directory / ".dragonforge"
    state.mkdir(parents=True, exist_ok=True)
    with (state / "lock").open("a+") as fh:
        try:
            fcntl.flock(fh, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            fh.seek(0)
            holder = fh.read().strip() or "another process"
            raise OutputConflictError(f"{directory} is being written by {holder}; wait for it to finish") from None
        fh.seek(0)
        fh.truncate()
        fh.write(f"{what} (pid {os.getpid()})")
        fh.flush()
        try:
            yield
        finally:
            fcntl.flock(fh, fcntl.LOCK_UN)


@functools.cache
def _file_mode() -> int:
    """The mode a new file gets here, as for any Unix tool: 0666 less the umask (read from
    /proc where it can be, as setting the umask to read it is not thread-safe)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return 0o666 & ~int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return 0o666 & ~mask


def write_bytes_atomic(path: Path, data: bytes) -> None:
    """``path`` holds ``data`` or what it held before, never a part; its mode follows the umask
    (mkstemp's temporary file is 0600, which would keep a shared benchmark from the team)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, _file_mode())
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def write_text_atomic(path: Path, text: str) -> None:
    write_bytes_atomic(path, text.encode("utf-8"))


def dumps_record(record: BaseModel | dict[str, Any]) -> str:
    data = record.model_dump(mode="json", exclude_none=False) if isinstance(record, BaseModel) else record
    return json.dumps(data, ensure_ascii=False, separators=(", ", ": "))


def jsonl_bytes(records: Iterable[BaseModel | dict[str, Any]]) -> bytes:
    return "".join(dumps_record(r) + "\n" for r in records).encode("utf-8")


def write_jsonl_atomic(path: Path, records: Iterable[BaseModel | dict[str, Any]]) -> int:
    data = jsonl_bytes(records)
    write_bytes_atomic(path, data)
    return data.count(b"\n")


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_jsonl(path: Path) -> list[tuple[int, Any]]:
    """(line number, parsed object) pairs; a line that is not JSON raises ValueError naming it."""
    out = []
    with path.open(encoding="utf-8") as fh:
        for lineno, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                out.append((lineno, json.loads(line)))
            except json.JSONDecodeError as exc:
                raise ValueError(f"{path.name} line {lineno}: not valid JSON ({exc.msg})") from None
    return out
