"""Stage 2 (rules): one config generator per built-in domain.

Each module ``dragonforge.domains.<domain>`` exposes
``make_config(doc_id: int, language: str, seed: int) -> Config``: Faker and a seeded RNG
fill every slot of the domain's schema with one internally consistent set of facts.
"""

from __future__ import annotations

from importlib import import_module

from dragonforge.models import DOMAINS, Config
from dragonforge.rng import derive_seed


def make_config(domain: str, language: str, doc_id: int, index: int, seed: int) -> Config:
    """The ``index``-th config of a domain and language; its facts depend on the build seed
    and the index only, not on which other domains are built alongside."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    module = import_module(f"dragonforge.domains.{domain}")
    return module.make_config(doc_id=doc_id, language=language,
                              seed=derive_seed(seed, "config", domain, language, index))


def make_configs(domain: str, language: str, doc_ids: list[int], seed: int,
                 first_index: int = 0) -> list[Config]:
    return [make_config(domain, language, doc_id, first_index + i, seed)
            for i, doc_id in enumerate(doc_ids)]
