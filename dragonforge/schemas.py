"""Stage 1: domain schemas, as a benchmark ships them (``schemas/<domain>.<language>.yaml``).

Induction from seed documents lives in :mod:`dragonforge.induce`; it writes genre packs.
"""

from __future__ import annotations

from functools import cache

import yaml

from dragonforge.errors import InputError
from dragonforge.models import DomainSchema
from dragonforge.resources import resource_dir


@cache
def load_builtin_schema(domain: str, language: str) -> DomainSchema:
    path = resource_dir("schemas") / f"{domain}.{language}.yaml"
    if not path.exists():
        raise InputError(f"no built-in schema for {domain}/{language}")
    from dragonforge.templating import parse_yaml

    return DomainSchema.model_validate(parse_yaml(path.read_text(encoding="utf-8")))


def dump_schema(schema: DomainSchema) -> str:
    return yaml.safe_dump(schema.model_dump(mode="json"), allow_unicode=True, sort_keys=False, width=100)

