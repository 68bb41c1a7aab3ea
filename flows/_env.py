"""Prefect settings for an offline, serverless, quiet run. Import before ``prefect``."""

from __future__ import annotations

import os
from pathlib import Path


def configure_prefect(verbose: bool = False) -> None:
    """Ephemeral mode with no telemetry; state under ``./.prefect`` unless the user set
    ``PREFECT_HOME`` (or any of these settings) already."""
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
