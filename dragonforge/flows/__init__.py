"""Prefect flows: thin orchestration over the Prefect-free library (``dragonforge.builder``,
``dragonforge.evaluator``). They add what Prefect is for: run and task state, retries where a
retry can help, artifacts and the UI. Import :mod:`dragonforge.flows._env` settings first."""
