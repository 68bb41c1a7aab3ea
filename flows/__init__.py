"""Prefect flows: thin orchestration over the Prefect-free ``dragonforge`` library."""
