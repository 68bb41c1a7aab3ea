"""Stage 2 (rules): one config generator per built-in domain.

Each module ``dragonforge.domains.<domain>`` exposes
``make_config(doc_id: int, language: str, seed: int) -> Config``: Faker and a seeded RNG
fill every slot of the domain's schema with one internally consistent set of facts.
"""

from __future__ import annotations

from dragonforge.models import Config, Language
from dragonforge.registry import get_pack
from dragonforge.rng import derive_seed


def make_config(domain: str, language: Language, doc_id: int, index: int, seed: int) -> Config:
    """The ``index``-th config of a domain and language; its facts depend on the build seed
    and the index only, not on which other domains are built alongside."""
    return get_pack(domain).make_config(language, doc_id, derive_seed(seed, "config", domain, language, index))


def make_configs(domain: str, language: Language, doc_ids: list[int], seed: int,
                 first_index: int = 0) -> list[Config]:
    return [make_config(domain, language, doc_id, first_index + i, seed)
            for i, doc_id in enumerate(doc_ids)]
