"""Finished stage results of a run, kept as data so an interrupted run resumes.

One SQLite file per output directory (``.dragonforge/resume.sqlite``), one row per result:
its content key (:func:`dragonforge.fingerprint.content_key`), the stage, and the result as
JSON. Rows are read back by validating the JSON into the stage's declared type; nothing in
the file is ever executed, imported or unpickled. A row that does not validate (a damaged or
hand-edited file, a result written by other code) is treated as missing and recomputed.
"""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path
from typing import Any, TypeVar

from pydantic import TypeAdapter, ValidationError

T = TypeVar("T")

_SCHEMA = "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, stage TEXT NOT NULL, data TEXT NOT NULL)"


def damaged(exc: sqlite3.Error) -> bool:
    """The file is not a database, or a damaged one (not a full disk or a lock: those pass)."""
    return primary_code(exc) in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)


def primary_code(exc: sqlite3.Error) -> int | None:
    """SQLite's primary result code (Python reports the extended one, e.g. SQLITE_CORRUPT_INDEX)."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


class Recovering:
    """A SQLite file of state that can be made again: when it turns out damaged (a torn write,
    garbage appended), ``_recover`` replaces it and the statement runs on the new one, so a
    damaged file never blocks a rerun."""

    path: Path
    _db: sqlite3.Connection

    def _recover(self) -> sqlite3.Connection:
        raise NotImplementedError

    def _execute(self, sql: str, args: tuple) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, args)
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):
                raise
            self._db.close()
            self._db = self._recover()
            return self._db.execute(sql, args)


def _open(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    try:
        # WAL with NORMAL sync: a row committed is kept through a crash of this process.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        db.execute(_SCHEMA)
    except sqlite3.DatabaseError:
        db.close()
        raise
    return db


class ResumeStore(Recovering):
    """Stage results by content key. Safe to share between threads of one process."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = _open(path)
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):
                raise
            self._db = self._recover()
        self.hits = 0
        self.misses = 0
        self._closed = False

    def get(self, key: str, adapter: TypeAdapter[T]) -> T | None:
        """The result kept under ``key``, or None when there is none that validates."""
        found = self._read(key, adapter)
        if found is None:
            self.misses += 1
            return None
        self.hits += 1
        return found[1]

    def get_raw(self, key: str, adapter: TypeAdapter[Any]) -> bytes | None:
        """The stored JSON of ``key``, once it has been checked to validate as ``adapter``'s type."""
        found = self._read(key, adapter)
        return None if found is None else found[0].encode()

    def _recover(self) -> sqlite3.Connection:
        """It held only results that can be made again: started afresh."""
        for suffix in ("", "-wal", "-shm"):
            Path(f"{self.path}{suffix}").unlink(missing_ok=True)
        return _open(self.path)

    def _read(self, key: str, adapter: TypeAdapter[T]) -> tuple[str, T] | None:
        with self._lock:
            if self._closed:
                return None
            row = self._execute("SELECT data FROM results WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return row[0], adapter.validate_json(row[0])
        except ValidationError:
            return None

    def put(self, key: str, stage: str, adapter: TypeAdapter[Any], value: Any) -> None:
        self.put_raw(key, stage, adapter.dump_json(value))

    def put_raw(self, key: str, stage: str, data: bytes) -> None:
        """Keep ``data``, the JSON of a result of ``stage``."""
        text = data.decode()
        with self._lock:
            if self._closed:  # a worker finished after the run was abandoned: nothing to keep it for
                return
            self._execute("INSERT OR REPLACE INTO results (key, stage, data) VALUES (?, ?, ?)", (key, stage, text))

    def close(self) -> None:
        with self._lock:
            self._closed = True
            self._db.close()

    def __enter__(self) -> ResumeStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
