"""Behaviour of the built-in finance domain: configs, schema, documents and QRA."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from functools import cache

import pytest
import yaml

from dragonforge.documents import write_document
from dragonforge.domains._common import format_money
from dragonforge.domains.finance import EVENT_TYPES, INDUSTRIES, make_config
from dragonforge.models import DEFAULT_QUESTION_MIX, DomainSchema, QueryType
from dragonforge.pipeline import configs_stage, documents_stage, qra_stage
from dragonforge.qra import load_qra_templates
from dragonforge.resources import resource_dir
from dragonforge.text import cjk_count, language_problem

LANGUAGES = ("en", "zh")
SEEDS = range(200)


@cache
def configs(language: str):
    return [make_config(doc_id=s, language=language, seed=s) for s in SEEDS]


@cache
def documents(language: str):
    return [write_document(c, seed=7) for c in configs(language)]


def values(config, prefix: str, field: str) -> list:
    out, i = [], 0
    while f"{prefix}.{i}.{field}" in config.facts:
        out.append(config.facts[f"{prefix}.{i}.{field}"].value)
        i += 1
    return out


def value(config, key: str):
    return config.facts[key].value


def schema(language: str) -> DomainSchema:
    path = resource_dir("schemas") / f"finance.{language}.yaml"
    return DomainSchema.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def slot_of(key: str) -> str:
    return re.sub(r"\.\d+\.", "[].", key)


# --- configs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_income_statement_adds_up(language):
    for c in configs(language):
        assert value(c, "revenue") - value(c, "operating_costs") - value(c, "operating_expenses") == value(c, "total_profit")
        assert value(c, "total_profit") - value(c, "income_tax") == value(c, "net_profit")
        assert value(c, "net_profit") > 0 and value(c, "income_tax") > 0
        assert value(c, "gross_margin") == round((value(c, "revenue") - value(c, "operating_costs")) / value(c, "revenue") * 100, 2)
        growth = (value(c, "revenue") - value(c, "prior_revenue")) / value(c, "prior_revenue") * 100
        assert value(c, "revenue_growth") == round(growth, 2)


@pytest.mark.parametrize("language", LANGUAGES)
def test_balance_sheet_balances_and_ratios_follow_from_it(language):
    for c in configs(language):
        assert value(c, "total_liabilities") + value(c, "owners_equity") == value(c, "total_assets")
        assert value(c, "debt_ratio") == round(value(c, "total_liabilities") / value(c, "total_assets") * 100, 2)
        assert value(c, "rd_ratio") == round(value(c, "rd_investment") / value(c, "revenue") * 100, 2)
        assert value(c, "payout_ratio") == round(value(c, "dividend") / value(c, "net_profit") * 100, 2)
        assert value(c, "rd_investment") < value(c, "operating_expenses")


@pytest.mark.parametrize("language", LANGUAGES)
def test_segment_revenues_sum_to_revenue_largest_first(language):
    for c in configs(language):
        parts = values(c, "segments", "revenue")
        assert 2 <= len(parts) <= 4
        assert sum(parts) == value(c, "revenue")
        assert parts == sorted(parts, reverse=True) and len(set(parts)) == len(parts)
        assert round(sum(values(c, "segments", "share")), 1) == 100.0
        assert len(set(values(c, "segments", "name"))) == len(parts)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_amount_is_written_exactly_at_its_precision(language):
    for c in configs(language):
        for fact in c.facts.values():
            if fact.kind == "money":
                assert fact.text == format_money(fact.value, language)
                assert fact.value == int(fact.value) > 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_event_dates_are_in_report_order_within_the_report_year(language):
    for c in configs(language):
        year = int(value(c, "report_year"))
        days = [dt.date.fromisoformat(d) for d in values(c, "events", "date")]
        assert 4 <= len(days) <= 7
        assert all(a < b for a, b in zip(days, days[1:]))
        assert all(d.year == year for d in days)
        assert days[0].month <= 3, "the first event falls in the first quarter"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_report_has_an_acquisition_a_financing_and_a_major_contract(language):
    for c in configs(language):
        kinds = values(c, "events", "type")
        assert len(set(kinds)) == len(kinds)
        assert {"acquisition", "financing", "major_contract"} <= set(kinds) <= set(EVENT_TYPES)
        for i, kind in enumerate(kinds):
            assert (f"events.{i}.counterparty" in c.facts) == (kind != "product_launch")


@pytest.mark.parametrize("language", LANGUAGES)
def test_governance_dates_and_counts_are_consistent(language):
    for c in configs(language):
        year = int(value(c, "report_year"))
        agm = dt.date.fromisoformat(value(c, "agm.date"))
        egms = [dt.date.fromisoformat(d) for d in values(c, "egms", "date")]
        assert agm.year == year and all(d.year == year for d in egms)
        assert all(a < b for a, b in zip(egms, egms[1:])) and agm not in egms
        assert value(c, "shareholder_meetings") == 1 + len(egms)
        assert dt.date.fromisoformat(value(c, "exec_change.date")).year == year
        assert dt.date.fromisoformat(value(c, "report_date")).year == year + 1
        assert int(value(c, "founded_year")) < year
        assert 0 < value(c, "independent_directors") < value(c, "board_size")
        if language == "zh":
            assert value(c, "independent_directors") * 3 >= value(c, "board_size")


@pytest.mark.parametrize("language", LANGUAGES)
def test_people_and_organisations_within_a_report_are_distinct(language):
    for c in configs(language):
        people = [f.text for f in c.facts.values() if f.kind == "person"]
        orgs = [f.text for f in c.facts.values() if f.kind == "organisation" and f.key != "stock_exchange"]
        assert len(set(people)) == len(people)
        assert len(set(orgs)) == len(orgs)
        assert c.entity == value(c, "company_name")


def test_the_same_twenty_industries_exist_in_both_languages():
    assert len({i.code for i in INDUSTRIES}) == len({i.en for i in INDUSTRIES}) == len({i.zh for i in INDUSTRIES}) == 20
    seen = {lang: {value(c, "industry") for c in configs(lang)} for lang in LANGUAGES}
    assert seen["en"] == seen["zh"] == {i.code for i in INDUSTRIES}
    for industry in INDUSTRIES:
        assert industry.gross_margin[0] - industry.rd_ratio[1] >= 0.06, industry.code


def test_facts_are_written_in_the_document_language():
    for c in configs("en"):
        assert all(cjk_count(f.text) == 0 for f in c.facts.values())
    for c in configs("zh"):
        assert all(not re.search(r"[A-Za-z]{2,}", f.text) for f in c.facts.values())


def test_same_seed_gives_the_same_config_and_different_seeds_differ():
    for language in LANGUAGES:
        assert make_config(3, language, 1234) == make_config(3, language, 1234)
        assert make_config(3, language, 1234).facts != make_config(3, language, 1235).facts
    names = {value(c, "company_name") for c in configs("en")}
    assert len(names) > 190


# --- schema ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_schema_slots_match_config_fact_keys(language):
    spec = schema(language)
    slots = [slot.name for section in spec.sections for slot in section.slots]
    assert len(slots) == len(set(slots))
    kinds = {slot.name: slot.kind for section in spec.sections for slot in section.slots}
    produced = set()
    for c in configs(language):
        for key, fact in c.facts.items():
            slot = slot_of(key)
            assert slot in kinds, f"{key} has no schema slot"
            assert kinds[slot] == fact.kind, key
            produced.add(slot)
    assert produced == set(slots), f"slots never produced: {set(slots) - produced}"
    assert spec.domain == "finance" and spec.language == language


def test_both_schemas_have_the_same_sections_and_slots():
    en, zh = schema("en"), schema("zh")
    assert [s.name for s in en.sections] == [s.name for s in zh.sections]
    assert en.slot_names() == zh.slot_names()


# --- documents -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_documents_are_of_report_length_and_in_their_language(language):
    for doc in documents(language):
        assert 2000 <= len(doc.content) <= 6000, (doc.doc_id, len(doc.content))
        assert language_problem(doc.content, language) is None


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_sentence_holds_an_internal_terminator(language):
    internal = re.compile(r"[.!?](?=\s)" if language == "en" else r"[。！？]")
    for doc in documents(language):
        for s in doc.sentences:
            assert "\n" not in s.text
            assert s.text[-1] in (".?!" if language == "en" else "。！？"), s.text
            assert not internal.search(s.text[:-1]), s.text


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_fact_is_stated_by_one_or_two_sentences(language):
    for c, doc in zip(configs(language)[:50], documents(language)[:50]):
        stated = Counter(key for s in doc.sentences for key in s.facts)
        for key in c.facts:
            assert 1 <= stated[key] <= 2, (key, stated[key])


def test_english_documents_avoid_abbreviations_with_periods():
    for doc in documents("en"):
        assert not re.search(r"\b(Inc|Co|Corp|Dr|Mr|Ms|Mrs|No|Ltd|Jr|St)\.", doc.content)


def test_major_events_appear_in_date_order_in_the_document():
    for c, doc in zip(configs("en")[:50], documents("en")[:50]):
        positions = [doc.content.index(c.facts[f"events.{i}.date"].text)
                     for i in range(len(values(c, "events", "date")))]
        assert positions == sorted(positions)


@pytest.mark.parametrize("language", LANGUAGES)
def test_unanswerable_terms_never_appear_in_documents(language):
    corpus = "\n".join(d.content for d in documents(language))
    for t in load_qra_templates("finance", language).templates:
        for term in t.absent:
            assert term not in corpus, (t.id, term)


# --- QRA -------------------------------------------------------------------------------------


def test_qra_templates_offer_enough_candidates_of_every_type():
    minimum = {"factual": 25, "multi_hop": 8, "summary": 4, "integration": 5,
               "comparison": 4, "time_sequence": 3, "unanswerable": 5}
    for language in LANGUAGES:
        counts = Counter(t.type for t in load_qra_templates("finance", language).templates)
        for kind, n in minimum.items():
            assert counts[kind] >= n, (language, kind, counts[kind])


@pytest.mark.parametrize("language", LANGUAGES)
def test_qra_stage_yields_all_seven_types_with_few_rejections(language):
    cfgs = configs_stage("finance", language, list(range(6)), seed=11)
    docs = documents_stage(cfgs, seed=11)
    result = qra_stage(cfgs, docs, total=60, mix=DEFAULT_QUESTION_MIX, seed=11)
    reasons = Counter(r.reason for r in result.rejections)
    print(language, "rejections:", dict(reasons))
    assert {q.query_type for q in result.qras} == set(QueryType)
    assert len(result.rejections) < 0.1 * (len(result.qras) + len(result.rejections))
    assert len(result.qras) >= 54
    for q in result.qras:
        assert language_problem(q.question, language) is None
        assert language_problem(q.answer, language) is None
        assert 1 <= len(q.keypoints) <= 8
        if q.query_type is QueryType.SUMMARY:
            assert len(q.keypoints) >= 3
        if q.query_type.multi_document:
            assert {r.doc_id for r in q.references} == set(q.doc_ids)


@pytest.mark.parametrize("language", LANGUAGES)
def test_questions_do_not_repeat_in_a_larger_build(language):
    cfgs = configs_stage("finance", language, list(range(8)), seed=5)
    docs = documents_stage(cfgs, seed=5)
    result = qra_stage(cfgs, docs, total=240, mix=DEFAULT_QUESTION_MIX, seed=5)
    questions = [q.question for q in result.qras]
    assert len(questions) == len(set(questions))
    assert len(result.qras) >= 220
