"""Prefect settings for an offline, quiet run, and the engine's lifetime. Import before ``prefect``."""

from __future__ import annotations

import contextlib
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path


def configured_api_url() -> str | None:
    """The Prefect API the user configured: ``PREFECT_API_URL``, or the active profile's in
    ``$PREFECT_HOME/profiles.toml`` (``~/.prefect`` by default). Read without importing Prefect."""
    if os.environ.get("PREFECT_API_URL"):
        return os.environ["PREFECT_API_URL"]
    home = Path(os.environ.get("PREFECT_HOME") or Path.home() / ".prefect")
    try:
        data = tomllib.loads((home / "profiles.toml").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    active = os.environ.get("PREFECT_PROFILE") or data.get("active") or "ephemeral"
    profile = data.get("profiles", {}).get(active, {})
    url = profile.get("PREFECT_API_URL") if isinstance(profile, dict) else None
    return url if isinstance(url, str) and url else None


def configure_prefect(verbose: bool = False) -> None:
    """No telemetry, quiet logs; a configured API is used as it is, otherwise an ephemeral
    server keeps its state under ``./.prefect`` unless the user set ``PREFECT_HOME``."""
    url = configured_api_url()
    if url:
        os.environ["PREFECT_API_URL"] = url
    defaults = {
        "PREFECT_HOME": str(Path.cwd() / ".prefect"),
        "PREFECT_SERVER_ANALYTICS_ENABLED": "false",
        "PREFECT_CLOUD_ENABLE_ORCHESTRATION_TELEMETRY": "false",
        "PREFECT_TELEMETRY_ENABLE_RESOURCE_METRICS": "false",
        "PREFECT_LOGGING_LEVEL": "INFO" if verbose else "CRITICAL",
        "PREFECT_LOGGING_LOG_PRINTS": "false",
        "PREFECT_UI_ENABLED": "false",
        # The ephemeral server's start-up runs migrations; a loaded 2-core machine needs longer
        # than Prefect's default 20 s.
        "PREFECT_SERVER_EPHEMERAL_STARTUP_TIMEOUT_SECONDS": "120",
    }
    for key, value in defaults.items():
        os.environ.setdefault(key, value)


@contextlib.contextmanager
def prefect_engine(verbose: bool = False) -> Iterator[str]:
    """The Prefect API for this command, as words for the user: the configured one, or an
    ephemeral server started here that does not outlive the command, even one killed with
    SIGKILL (a watchdog ends it once this process is gone)."""
    configure_prefect(verbose)
    url = os.environ.get("PREFECT_API_URL")
    if url:
        yield f"Prefect API at {url}"
        return
    from prefect.server.api.server import SubprocessASGIServer

    from dragonforge.workers import watch_over

    watchdogs = []

    class WatchedServer(SubprocessASGIServer):
        """Prefect's ephemeral server, each process of it watched from the moment it starts."""

        def _run_uvicorn_command(self):
            process = super()._run_uvicorn_command()
            watchdogs.append(watch_over(process.pid))
            return process

    # Registered as the instance Prefect's own clients use in ephemeral mode (one per port).
    server = WatchedServer()
    try:
        server.start()
        yield f"Prefect, ephemeral server at {server.api_url}"
    finally:
        server.stop()
        for watchdog in watchdogs:
            if watchdog.stdin is not None:  # always: watch_over opens it as a pipe
                watchdog.stdin.close()
            with contextlib.suppress(Exception):
                watchdog.wait(timeout=10)
