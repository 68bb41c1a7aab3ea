"""Worker processes for CPU-bound stages, and keeping every child tied to the command's life.

Workers come from a fork server that has already imported the pipeline, so each starts in
milliseconds. A command killed with SIGKILL cannot clean up after itself, so the children
clean up after it: every worker watches the command's process (a pidfd, readable once it has
ended) and exits with it; the fork server and multiprocessing's resource tracker exit once
the last process holding their pipes is gone.
"""

from __future__ import annotations

import ctypes
import multiprocessing
import os
import select
import signal
import subprocess
import sys
import threading
from concurrent.futures import ProcessPoolExecutor

_PR_SET_PDEATHSIG = 1
_PRELOAD = ["dragonforge.builder"]


def die_with_parent() -> None:
    """Ask the kernel to SIGTERM this process when its parent dies (Linux; elsewhere nothing)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
    except (OSError, AttributeError):
        return
    if os.getppid() == 1:  # the parent died before the request was made
        os._exit(1)


def exit_with(pid: int) -> None:
    """End this process as soon as process ``pid`` has ended (a worker's initializer: its real
    parent is the fork server, so the command is watched directly)."""
    try:
        fd = os.pidfd_open(pid)
    except ProcessLookupError:  # the command ended before this worker started
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd (old kernel, not Linux): the parent-death signal
        die_with_parent()
        return

    def watch() -> None:
        select.select([fd], [], [])
        os._exit(1)

    threading.Thread(target=watch, name="exit-with-command", daemon=True).start()


def _context(preload: list[str] | None) -> multiprocessing.context.BaseContext:
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    context = multiprocessing.get_context(method)
    if method == "forkserver":
        context.set_forkserver_preload(preload or _PRELOAD)
    return context


def worker_pool(workers: int | None = None, preload: list[str] | None = None) -> ProcessPoolExecutor:
    """Processes for CPU-bound stages: one per core unless ``workers`` says otherwise. The fork
    server imports ``preload`` once (the first pool of a process, or :func:`start_fork_server`,
    decides it)."""
    n = workers or max(1, min(os.cpu_count() or 1, 8))
    return ProcessPoolExecutor(max_workers=n, mp_context=_context(preload), initializer=exit_with,
                               initargs=(os.getpid(),))


def start_fork_server(preload: list[str]) -> bool:
    """Start the fork server now, so that it imports ``preload`` while this process does other
    work (reading its inputs) instead of when the first worker is needed; True if started."""
    if _context(preload).get_start_method() != "forkserver":
        return False
    from multiprocessing import forkserver

    forkserver.ensure_running()
    return True


def stop_fork_server() -> None:
    """Stop a fork server that will not be needed (the command is about to fail): it would hold
    the command's stdout and stderr open until its imports finish. multiprocessing has no public
    call for it (its private fields are used, carefully); without them the server still exits
    once its imports are done."""
    from multiprocessing import forkserver

    server = getattr(forkserver, "_forkserver", None)
    pid = getattr(server, "_forkserver_pid", None)
    if server is None or pid is None:
        return
    try:
        os.kill(pid, signal.SIGKILL)  # it may be busy importing: stopping it politely would wait for that
        server._stop()  # reaps it and forgets it
    except (OSError, AttributeError):
        pass


def watch_over(pid: int) -> subprocess.Popen[bytes]:
    """A tiny watchdog that terminates process ``pid`` once this process is gone, however it
    ended (SIGKILL included): it waits for its stdin to close, which happens only when every
    holder of the pipe's write end, this process, has exited."""
    code = ("import os,signal,sys,time\n"
            "pid=int(sys.argv[1])\n"
            "try:\n fd=os.pidfd_open(pid)\nexcept OSError:\n sys.exit(0)\n"
            "sys.stdin.buffer.read()\n"
            "for sig in (signal.SIGTERM, signal.SIGKILL):\n"
            " try:\n  signal.pidfd_send_signal(fd, sig)\n except OSError:\n  break\n"
            " for _ in range(50):\n"
            "  try:\n   os.kill(pid, 0)\n  except OSError:\n   sys.exit(0)\n"
            "  time.sleep(0.1)\n")
    return subprocess.Popen([sys.executable, "-I", "-S", "-c", code, str(pid)], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, close_fds=True,
                            start_new_session=True)
