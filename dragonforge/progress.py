"""Progress the user can see: bars on a terminal, one line per step in a log file."""

from __future__ import annotations

import sys
import threading
import time
from typing import TYPE_CHECKING, Protocol, TextIO

if TYPE_CHECKING:
    from rich.progress import TaskID


class Progress(Protocol):
    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str, n: int = 1) -> None: ...
    def note(self, message: str) -> None: ...
    def close(self) -> None: ...


class NullProgress:
    def start(self, stage: str, total: int) -> None: ...
    def advance(self, stage: str, n: int = 1) -> None: ...
    def note(self, message: str) -> None: ...
    def close(self) -> None: ...


class LineProgress:
    """Plain lines for nightly builds whose output goes to a log: `stage 40/100 (3.2s)`."""

    def __init__(self, stream: TextIO = sys.stderr):
        self._stream = stream
        self._lock = threading.Lock()
        self._totals: dict[str, int] = {}
        self._done: dict[str, int] = {}
        self._t0 = time.perf_counter()

    def start(self, stage: str, total: int) -> None:
        with self._lock:
            self._totals[stage] = total
            self._done[stage] = 0

    def advance(self, stage: str, n: int = 1) -> None:
        with self._lock:
            self._done[stage] = self._done.get(stage, 0) + n
            done, total = self._done[stage], self._totals.get(stage, 0)
            print(f"{stage:<22} {done}/{total}  ({time.perf_counter() - self._t0:.1f}s)", file=self._stream, flush=True)

    def note(self, message: str) -> None:
        with self._lock:
            print(message, file=self._stream, flush=True)

    def close(self) -> None: ...


class BarProgress:
    """rich progress bars on an interactive terminal."""

    def __init__(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        self._progress = RichProgress(TextColumn("{task.description:<22}"), BarColumn(), MofNCompleteColumn(),
                                      TimeElapsedColumn(), console=Console(stderr=True), transient=False)
        self._tasks: dict[str, TaskID] = {}
        self._lock = threading.Lock()
        self._progress.start()

    def start(self, stage: str, total: int) -> None:
        with self._lock:
            self._tasks[stage] = self._progress.add_task(stage, total=total)

    def advance(self, stage: str, n: int = 1) -> None:
        with self._lock:
            self._progress.advance(self._tasks[stage], n)

    def note(self, message: str) -> None:
        self._progress.console.print(message)

    def close(self) -> None:
        self._progress.stop()


def make_progress(quiet: bool = False) -> Progress:
    if quiet:
        return NullProgress()
    return BarProgress() if sys.stderr.isatty() else LineProgress()
