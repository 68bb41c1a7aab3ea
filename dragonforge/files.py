"""Atomic file writes: a file either has its complete new content or its old one."""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from dragonforge.errors import OutputConflictError


def make_out_dir(out: Path, option: str = "--out") -> None:
    """Create ``out`` (and its parents) and make sure a file can be written in it, or raise
    InputError in one line: a dangling or looping symbolic link, a read-only file system, a
    place such as /proc where nothing can be created. Nothing is left behind on failure."""
    from dragonforge.errors import InputError

    if out.is_symlink() and not out.exists():
        raise InputError(f"{option} {out} is a symbolic link to {os.readlink(out)}, which does not exist "
                         f"(or loops); choose another directory")
    created = [d for d in (out, *out.parents) if not d.exists() and not d.is_symlink()]  # deepest first
    try:
        out.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out, prefix=".dragonforge-probe-")
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        verb = "write in" if out.is_dir() else "create"
        for made in created:
            with contextlib.suppress(OSError):
                made.rmdir()
        raise InputError(f"cannot {verb} {option} {out}: {exc.strerror or exc}") from None


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


# The longest line any JSONL input or state file may have (a DRAGONBall query line is a few kB;
# a prediction with its retrieved chunks some tens of kB). A longer one is refused, unread.
MAX_LINE_BYTES = 16 * 1024 * 1024
# Deeper JSON than this is no DRAGONBall record (they nest five levels) and could exhaust the
# stack of the code that reads it further.
MAX_DEPTH = 64
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json(data: bytes | str) -> Any:
    """One JSON value, or ValueError saying in a few words why it is not one (bad syntax, a
    number past Python's 4,300 digits, nesting past ``MAX_DEPTH``, a lone surrogate escape
    that no UTF-8 file can hold)."""
    raw = data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data
    try:
        value = json.loads(raw)
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno}, column {exc.colno}" if exc.lineno > 1 else f"column {exc.colno}"
        raise ValueError(f"not JSON ({exc.msg} at {where})") from None
    except RecursionError:
        raise ValueError(f"not JSON (nested more than {MAX_DEPTH} levels deep)") from None
    except ValueError as exc:
        text = str(exc)
        if "digits" in text:
            text = "a number with more digits than any id or count has"
        raise ValueError(f"not JSON ({text})") from None
    if raw.count(b"[") + raw.count(b"{") > MAX_DEPTH or _SURROGATE_ESCAPE.search(raw):
        check_value(value)
    return value


def check_value(value: Any) -> None:
    """ValueError when a parsed JSON value nests past ``MAX_DEPTH`` or holds a lone surrogate."""
    if _depth(value) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} levels deep")
    if _has_lone_surrogate(value):
        raise ValueError("holds a lone surrogate escape (\\ud800-\\udfff without its pair), which is not text")


def mentions(path: Path, needle: bytes, block: int = 1 << 20) -> bool:
    """Whether ``path`` holds ``needle``, read a block at a time (never the whole file at once)."""
    tail = b""
    with path.open("rb") as fh:
        while chunk := fh.read(block):
            if needle in tail + chunk:
                return True
            tail = chunk[-len(needle):]
    return False


def _depth(value: Any) -> int:
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, depth = todo.pop()
        if isinstance(item, (dict, list)):
            deepest = max(deepest, depth)
            if depth > MAX_DEPTH:
                return depth
            todo.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    todo = [value]
    while todo:
        item = todo.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return True
        elif isinstance(item, dict):
            todo.extend(item.keys())
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
    return False


def iter_jsonl(path: Path, *, name: str | None = None, skip_bad: bool = False,
               problems: list[str] | None = None) -> Iterator[tuple[int, Any]]:
    """(line number, value) for each non-blank line of a JSONL file. Lines end at "\\n" only
    (U+2028 and U+0085 are text inside JSON strings). A bad line raises ValueError naming the
    file and the line; with ``problems``, "line N: why" is added there instead and reading goes
    on; with ``skip_bad`` (our own append-only logs, whose last line a full disk or a kill may
    have torn) it is passed over."""
    label = name or path.name

    def bad(lineno: int, why: str) -> None:
        if problems is not None:
            problems.append(f"line {lineno}: {why}")
        elif not skip_bad:
            raise ValueError(f"{label} line {lineno}: {why}")

    with path.open("rb") as fh:
        lineno = 0
        while raw := fh.readline(MAX_LINE_BYTES + 1):
            lineno += 1
            if len(raw) > MAX_LINE_BYTES:
                bad(lineno, f"longer than {MAX_LINE_BYTES >> 20} MiB")
                while raw and not raw.endswith(b"\n"):
                    raw = fh.readline(MAX_LINE_BYTES + 1)
                continue
            if not raw.strip():
                continue
            try:
                value = parse_json(raw)
            except ValueError as exc:
                bad(lineno, str(exc))
                continue
            yield lineno, value


def read_jsonl(path: Path, *, skip_bad: bool = False) -> list[tuple[int, Any]]:
    """(line number, parsed object) pairs; a line that is not JSON raises ValueError naming it."""
    return list(iter_jsonl(path, skip_bad=skip_bad))


def read_text_file(path: Path, limit: int, noun: str, hint: str = "") -> str:
    """A small UTF-8 text file a user gave (a seed, a genre pack file): anything else is one
    ``InputError`` line naming ``noun`` and the path."""
    from dragonforge.errors import InputError

    if not path.exists():
        raise InputError(f"{noun} {path} does not exist")
    if path.is_dir():
        raise InputError(f"{noun} {path} is a directory; pass the files inside it")
    if not path.is_file():
        raise InputError(f"{noun} {path} is not a regular file (a device, a pipe or a socket)")
    try:
        if path.stat().st_size > limit:
            size = f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"
            raise InputError(f"{noun} {path} is larger than {size}{'; ' + hint if hint else ''}")
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{noun} {path} is not UTF-8 text") from None
    except OSError as exc:
        raise InputError(f"{noun} {path} cannot be read: {exc.strerror or exc}") from None
