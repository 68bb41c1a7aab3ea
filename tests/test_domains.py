"""Behaviour every built-in domain shares: configs, schema, documents and QRA.

Each check runs for every domain × language. Configs and documents are generated once per
domain and language (cached here) and reused by the domain-specific test files.
"""

from __future__ import annotations

import random
import re
from collections import Counter
from functools import cache
from importlib import import_module
from itertools import product

import pytest

from dragonforge.documents import write_document
from dragonforge.models import DEFAULT_QUESTION_MIX, DOMAINS, LANGUAGES, Config, Document, DomainSchema, QueryType
from dragonforge.pipeline import QRAResult, qra_stage
from dragonforge.qra import QRATemplate, load_qra_templates
from dragonforge.schemas import load_builtin_schema
from dragonforge.text import language_problem

SEEDS = range(200)

EACH_DOMAIN_AND_LANGUAGE = pytest.mark.parametrize(("domain", "language"), list(product(DOMAINS, LANGUAGES)))
EACH_DOMAIN = pytest.mark.parametrize("domain", DOMAINS)

# What tells two documents of a domain apart besides the entity: one court hears many cases.
SUBJECT_KEYS = {"finance": (), "law": ("defendants.0.name",), "medical": ()}
# Facts a document may state more often than twice: a judgment's verdict names the charge
# once for each of up to two defendants.
EXTRA_STATEMENTS = {("law", "charge"): 1}
# Latin-letter runs a Chinese fact may hold (medical terms such as CT or HbA1c stay in Latin).
LATIN_RUNS_IN_A_CHINESE_FACT = {"finance": 0, "law": 0, "medical": 3}
# Compared facts that only some cases have (not every charge carries a fine or an amount).
OPTIONAL_COMPARED_FACTS = {"law": {"defendants.0.fine", "amount_involved"}}
# Slots only the Chinese schema has: a Chinese judgment records each defendant's ethnicity.
CHINESE_ONLY_SLOTS = {"law": {"defendants[].ethnicity"}}
# Most keypoints of a summary answer: a finance event summary lists up to seven events.
SUMMARY_KEYPOINTS_MAX = {"finance": 7, "law": 6, "medical": 6}
# How many of the configs get a written document checked (kept per domain for the suite's speed).
DOCUMENTS = {"finance": 200, "law": 40, "medical": 200}
PERIOD_ABBREVIATION = re.compile(r"\b(Inc|Co|Corp|Ltd|Dr|Mr|Ms|Mrs|Jr|Sr|No|St|Apt|vs|etc|approx)\.")


# --- shared data -----------------------------------------------------------------------------


def generator(domain: str):
    return import_module(f"dragonforge.domains.{domain}").make_config


@cache
def configs(domain: str, language: str) -> tuple[Config, ...]:
    make = generator(domain)
    return tuple(make(doc_id=s, language=language, seed=s) for s in SEEDS)


@cache
def documents(domain: str, language: str) -> tuple[Document, ...]:
    return tuple(write_document(c, seed=7) for c in configs(domain, language)[:DOCUMENTS[domain]])


def qra_build(domain: str, language: str, n_documents: int, total: int, seed: int,
              mix: dict[str, float] = DEFAULT_QUESTION_MIX) -> QRAResult:
    """QRA stage over the first ``n_documents`` shared documents."""
    cfgs, docs = configs(domain, language)[:n_documents], documents(domain, language)[:n_documents]
    return qra_stage(list(cfgs), list(docs), total=total, mix=mix, seed=seed)


@cache
def larger_build(domain: str, language: str) -> QRAResult:
    """Forty questions asked for per document, over ten documents."""
    return qra_build(domain, language, 10, total=400, seed=5)


@cache
def qra_templates(domain: str, language: str) -> tuple[QRATemplate, ...]:
    return tuple(load_qra_templates(domain, language).templates)


def schema(domain: str, language: str) -> DomainSchema:
    return load_builtin_schema(domain, language)


def slot_of(key: str) -> str:
    return re.sub(r"\.\d+\.", "[].", key)


# --- configs ---------------------------------------------------------------------------------


@EACH_DOMAIN_AND_LANGUAGE
def test_same_seed_gives_the_same_config_and_different_seeds_differ(domain, language):
    make, state = generator(domain), random.getstate()
    first = make(doc_id=3, language=language, seed=1234)
    make(doc_id=4, language=language, seed=99)  # other draws in between must not matter
    assert make(doc_id=3, language=language, seed=1234) == first
    assert make(doc_id=3, language=language, seed=1235).facts != first.facts
    assert random.getstate() == state, "make_config must not touch the global random state"
    subjects = {(c.entity, *(c.facts[k].text for k in SUBJECT_KEYS[domain])) for c in configs(domain, language)}
    assert len(subjects) > 190


@EACH_DOMAIN_AND_LANGUAGE
def test_facts_are_written_in_the_document_language(domain, language):
    for c in configs(domain, language):
        assert c.domain == domain and c.language == language
        for fact in c.facts.values():
            if language == "en":
                assert language_problem(fact.text, "en") is None, fact
                assert not PERIOD_ABBREVIATION.search(fact.text), fact
            else:
                assert len(re.findall(r"[A-Za-z]+", fact.text)) <= LATIN_RUNS_IN_A_CHINESE_FACT[domain], fact


@EACH_DOMAIN_AND_LANGUAGE
def test_people_and_organisations_named_in_a_document_are_distinct(domain, language):
    for c in configs(domain, language):
        for kind in ("person", "organisation"):
            names = [f.text for f in c.facts.values() if f.kind == kind]
            assert len(set(names)) == len(names), (c.doc_id, kind, names)


# --- schema ----------------------------------------------------------------------------------


@EACH_DOMAIN_AND_LANGUAGE
def test_schema_slots_match_config_fact_keys_and_kinds(domain, language):
    spec = schema(domain, language)
    assert spec.domain == domain and spec.language == language and spec.source == "builtin"
    slots = [slot.name for section in spec.sections for slot in section.slots]
    assert len(slots) == len(set(slots))
    kinds = {slot.name: slot.kind for section in spec.sections for slot in section.slots}
    produced = set()
    for c in configs(domain, language):
        for key, fact in c.facts.items():
            slot = slot_of(key)
            assert slot in kinds, f"{key} has no schema slot"
            assert kinds[slot] == fact.kind, key
            produced.add(slot)
    assert produced == set(slots), f"slots never produced: {set(slots) - produced}"


@EACH_DOMAIN
def test_both_schemas_have_the_same_sections_and_described_slots(domain):
    en, zh = schema(domain, "en"), schema(domain, "zh")
    assert [s.name for s in en.sections] == [s.name for s in zh.sections]
    assert en.slot_names() == zh.slot_names() - CHINESE_ONLY_SLOTS.get(domain, set())
    assert CHINESE_ONLY_SLOTS.get(domain, set()) <= zh.slot_names()
    for spec in (en, zh):
        assert all(slot.description and slot.examples for s in spec.sections for slot in s.slots)


# --- documents -------------------------------------------------------------------------------


@EACH_DOMAIN_AND_LANGUAGE
def test_documents_are_2000_to_6000_characters_long_and_in_their_language(domain, language):
    for doc in documents(domain, language):
        assert 2000 <= len(doc.content) <= 6000, (doc.doc_id, len(doc.content))
        assert language_problem(doc.content, language) is None


@EACH_DOMAIN
def test_english_documents_avoid_abbreviations_with_periods(domain):
    for doc in documents(domain, "en"):
        assert not PERIOD_ABBREVIATION.search(doc.content), doc.doc_id
        assert not re.search(r"\b[a-z]\.[a-z]\.", doc.content), doc.doc_id


@EACH_DOMAIN_AND_LANGUAGE
def test_every_sentence_is_one_sentence(domain, language):
    terminators = ".?!" if language == "en" else "。！？"
    internal = re.compile(r"[.!?](?=\s|$)" if language == "en" else r"[。！？]")
    for doc in documents(domain, language):
        for s in doc.sentences:
            assert "\n" not in s.text
            assert s.text[-1] in terminators, s.text
            assert not internal.search(s.text[:-1]), s.text


@EACH_DOMAIN_AND_LANGUAGE
def test_every_fact_is_stated_by_one_or_two_sentences(domain, language):
    for c, doc in zip(configs(domain, language), documents(domain, language)):
        stated = Counter(key for s in doc.sentences for key in s.facts)
        for key in c.facts:
            assert 1 <= stated[key] <= 2 + EXTRA_STATEMENTS.get((domain, key), 0), (c.doc_id, key, stated[key])


@EACH_DOMAIN_AND_LANGUAGE
def test_unanswerable_terms_never_appear_in_documents(domain, language):
    corpus = "\n".join(d.content for d in documents(domain, language))
    for t in qra_templates(domain, language):
        for term in t.absent:
            assert term not in corpus, (t.id, term)


# --- QRA -------------------------------------------------------------------------------------


@EACH_DOMAIN_AND_LANGUAGE
def test_qra_templates_offer_enough_candidates_of_every_type(domain, language):
    minimum = {"factual": 25, "multi_hop": 10, "summary": 6, "integration": 5,
               "comparison": 4, "time_sequence": 3, "unanswerable": 5}
    counts = Counter(t.type for t in qra_templates(domain, language))
    for kind, n in minimum.items():
        assert counts[kind] >= n, (kind, counts[kind])


@EACH_DOMAIN_AND_LANGUAGE
def test_comparison_templates_compare_a_fact_every_document_has(domain, language):
    optional = OPTIONAL_COMPARED_FACTS.get(domain, set())
    cfgs = configs(domain, language)
    for t in qra_templates(domain, language):
        if t.type in ("comparison", "time_sequence"):
            having = sum(t.compare in c.facts for c in cfgs)
            assert having == len(cfgs) or (t.compare in optional and having > 0), (t.id, t.compare, having)


@EACH_DOMAIN_AND_LANGUAGE
def test_qra_stage_yields_all_seven_types_with_few_rejections(domain, language):
    result = qra_build(domain, language, 6, total=60, seed=11)
    print(domain, language, "rejections:", dict(Counter(r.reason for r in result.rejections)))
    assert {q.query_type for q in result.qras} == set(QueryType)
    assert len(result.rejections) < 0.1 * (len(result.qras) + len(result.rejections))
    assert len(result.qras) >= 55
    for q in result.qras:
        assert language_problem(q.question, language) is None
        assert language_problem(q.answer, language) is None
        assert 1 <= len(q.keypoints) <= 8
        if q.query_type is QueryType.SUMMARY:
            assert 3 <= len(q.keypoints) <= SUMMARY_KEYPOINTS_MAX[domain]
        if q.query_type is QueryType.FACTUAL:
            assert len(q.keypoints) <= 3
        if q.query_type.multi_document:
            assert {r.doc_id for r in q.references} == set(q.doc_ids)
        for fact in q.facts:
            assert fact.text in q.answer


@EACH_DOMAIN_AND_LANGUAGE
def test_questions_do_not_repeat_in_a_larger_build(domain, language):
    result = larger_build(domain, language)
    questions = [q.question for q in result.qras]
    assert len(questions) == len(set(questions))
    assert len(result.qras) >= 380


@EACH_DOMAIN_AND_LANGUAGE
def test_comparison_and_time_sequence_answers_follow_the_canonical_values(domain, language):
    result = qra_build(domain, language, 8, total=200, seed=3, mix={"comparison": 0.5, "time_sequence": 0.5})
    templates = {t.id: t for t in qra_templates(domain, language)}
    assert result.qras
    for q in result.qras:
        t = templates[q.template]
        winner, loser = (f for f in q.facts if f.key == t.compare)
        assert (winner.value > loser.value) == (t.pick == "max")
