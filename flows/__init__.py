"""The project's Prefect flows, kept here by the repository layout. They live in the package,
``dragonforge.flows``, so an installed dragonforge has them; this folder only points there
(``from flows import build_benchmark`` works in a checkout) and is not installed."""

from dragonforge.flows.build import build_benchmark
from dragonforge.flows.evaluate import evaluate_flow

__all__ = ["build_benchmark", "evaluate_flow"]
