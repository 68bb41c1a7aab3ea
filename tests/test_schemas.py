"""Stage 1: the built-in schemas load (induction from seeds: tests/test_induce.py)."""

from __future__ import annotations

import pytest

from dragonforge.models import DOMAINS, LANGUAGES
from dragonforge.schemas import load_builtin_schema


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_builtin_schemas_load_for_every_domain_and_language(domain, language):
    schema = load_builtin_schema(domain, language)
    assert schema.domain == domain and schema.language == language
    assert len(schema.sections) >= 4 and len(schema.slot_names()) >= 20
