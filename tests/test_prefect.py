"""The Prefect path end to end, with the real engine: the same bytes as the in-process path (an
ephemeral server per command), resuming across paths (a Prefect server the commands are pointed
at, as a team runs one), and no process left behind when a command is killed."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

DATA_FILES = ("documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl",
              "documents.parquet", "queries.parquet", "README.md")
BUILD = ["build", "--docs", "3", "--queries-per-doc", "6", "--seed", "4", "-q"]


def _env(home: Path, api: str | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(home)
    if api:
        env["PREFECT_API_URL"] = api
    return env


def _cli(*args: str, cwd: Path, home: Path, api: str | None = None, timeout: int = 300) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dragonforge.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=_env(home, api), timeout=timeout)


def _descendants(pid: int) -> set[int]:
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(entry.name))
    found, todo = set(), [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _wait(predicate, what: str, timeout: float = 120.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def _same_files(a: Path, b: Path) -> None:
    for name in DATA_FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


@pytest.fixture(scope="module")
def in_process(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("in-process")
    proc = _cli(*BUILD, "--out", str(tmp / "bench"), cwd=tmp, home=tmp / "prefect")
    assert proc.returncode == 0 and "(in-process)" in proc.stdout, proc.stderr[-2000:]
    assert not (tmp / "prefect").exists()  # Prefect was not even imported
    return tmp / "bench"


def test_the_prefect_flow_writes_the_same_bytes_as_the_in_process_build(in_process, tmp_path, prefect_home):
    out = tmp_path / "bench"
    proc = _cli(*BUILD, "--out", str(out), "--prefect", cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "(Prefect, ephemeral server at http://127.0.0.1:" in proc.stdout
    _same_files(in_process, out)
    check = _cli("validate", str(out), cwd=tmp_path, home=prefect_home)
    assert check.returncode == 0, check.stdout


RESUMED = ["build", "--docs", "20", "--queries-per-doc", "4", "--seed", "9", "--workers", "2", "-q"]


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("fresh")
    proc = _cli(*RESUMED, "--out", str(tmp / "bench"), "--no-prefect", cwd=tmp, home=tmp / "prefect")
    assert proc.returncode == 0, proc.stderr[-2000:]
    return tmp / "bench"


@pytest.mark.parametrize("first,second", [("--prefect", "--no-prefect"), ("--no-prefect", "--prefect")])
def test_a_build_killed_on_one_path_is_finished_by_the_other_with_the_same_bytes(first, second, fresh, tmp_path,
                                                                                  prefect_api):
    """The configured-API path: PREFECT_API_URL names a running server, which `--no-prefect` ignores."""
    out = tmp_path / "bench"
    home = tmp_path / "prefect"
    cmd = [sys.executable, "-m", "dragonforge.cli", *RESUMED, "--out", str(out), first]
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=_env(home, prefect_api.url), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    store = out / ".dragonforge" / "resume.sqlite"

    def some_stage_finished() -> bool:
        assert proc.poll() is None, "the build finished before it could be killed"
        try:
            with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
                return db.execute("SELECT count(*) FROM results").fetchone()[0] >= 1
        except sqlite3.Error:
            return False

    _wait(some_stage_finished, "a finished stage")
    proc.kill()
    proc.wait()
    assert not (out / "manifest.json").exists()
    finished = _cli(*RESUMED, "--out", str(out), second, cwd=tmp_path, home=home, api=prefect_api.url)
    assert finished.returncode == 0, finished.stderr[-2000:]
    path = "(Prefect API at " + prefect_api.url if second == "--prefect" else "(in-process)"
    assert path in finished.stdout, finished.stdout
    _same_files(fresh, out)


class _SlowRAG(BaseHTTPRequestHandler):
    def do_POST(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        time.sleep(0.5)
        body = json.dumps({"answer": "Unable to answer", "contexts": []}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture()
def slow_rag():
    server = ThreadingHTTPServer(("127.0.0.1", 0), _SlowRAG)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rag"
    server.shutdown()
    server.server_close()


@pytest.mark.parametrize("name,sig", [("build", signal.SIGKILL), ("evaluate", signal.SIGKILL),
                                      ("build", signal.SIGTERM)])
def test_a_killed_prefect_build_or_evaluation_leaves_no_process_behind(name, sig, in_process, tmp_path,
                                                                       prefect_home, slow_rag):
    out = tmp_path / name
    args = {"build": ["build", "--docs", "100", "--workers", "2"],
            "evaluate": ["evaluate", str(in_process), "--system", slow_rag, "--concurrency", "1"]}[name]
    proc = subprocess.Popen([sys.executable, "-m", "dragonforge.cli", *args, "--out", str(out), "--prefect", "-q"],
                            cwd=tmp_path, env=_env(prefect_home), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    seen: set[int] = set()

    def working() -> bool:
        assert proc.poll() is None, f"{name} ended before it could be killed: {proc.stderr.read()[-2000:]}"
        seen.update(_descendants(proc.pid))
        # the ephemeral server is up and the run has started writing
        return bool(seen) and (out / ".dragonforge" / "resume.sqlite").exists()

    _wait(working, f"{name} to start working")
    time.sleep(0.5)
    seen.update(_descendants(proc.pid))  # the server, its watchdog, the fork server and workers
    assert len(seen) >= 2
    proc.send_signal(sig)
    proc.wait(timeout=60)
    if sig == signal.SIGTERM:
        assert proc.returncode == 130, proc.stderr.read()[-2000:]
    _wait(lambda: not any(_alive(p) for p in seen), f"every child of {name} to end", timeout=20)


def test_a_configured_prefect_api_is_found_in_the_environment_or_the_active_profile(tmp_path, monkeypatch):
    from dragonforge.flows._env import configured_api_url

    for name in ("PREFECT_API_URL", "PREFECT_PROFILE"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PREFECT_HOME", str(tmp_path))
    assert configured_api_url() is None
    (tmp_path / "profiles.toml").write_text('active = "team"\n[profiles.team]\n'
                                            'PREFECT_API_URL = "http://prefect.internal:4200/api"\n'
                                            '[profiles.local]\n')
    assert configured_api_url() == "http://prefect.internal:4200/api"
    monkeypatch.setenv("PREFECT_PROFILE", "local")
    assert configured_api_url() is None
    monkeypatch.setenv("PREFECT_API_URL", "http://127.0.0.1:4200/api")
    assert configured_api_url() == "http://127.0.0.1:4200/api"
    (tmp_path / "profiles.toml").write_text("not [toml")
    monkeypatch.delenv("PREFECT_API_URL")
    assert configured_api_url() is None
