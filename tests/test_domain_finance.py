"""Behaviour only the built-in finance domain has; checks every domain shares are in test_domains.py."""

from __future__ import annotations

import datetime as dt

import pytest

import test_domains
from dragonforge.domains._common import format_money
from dragonforge.domains.finance import EVENT_TYPES, INDUSTRIES
from dragonforge.models import LANGUAGES


def configs(language: str):
    return test_domains.configs("finance", language)


def documents(language: str):
    return test_domains.documents("finance", language)


def values(config, prefix: str, field: str) -> list:
    out, i = [], 0
    while f"{prefix}.{i}.{field}" in config.facts:
        out.append(config.facts[f"{prefix}.{i}.{field}"].value)
        i += 1
    return out


def value(config, key: str):
    return config.facts[key].value


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
def test_a_report_is_about_its_company(language):
    for c in configs(language):
        assert c.entity == value(c, "company_name")


def test_the_same_twenty_industries_exist_in_both_languages():
    assert len({i.code for i in INDUSTRIES}) == len({i.en for i in INDUSTRIES}) == len({i.zh for i in INDUSTRIES}) == 20
    seen = {lang: {value(c, "industry") for c in configs(lang)} for lang in LANGUAGES}
    assert seen["en"] == seen["zh"] == {i.code for i in INDUSTRIES}
    for industry in INDUSTRIES:
        assert industry.gross_margin[0] - industry.rd_ratio[1] >= 0.06, industry.code


# --- documents -------------------------------------------------------------------------------


def test_major_events_appear_in_date_order_in_the_document():
    for c, doc in zip(configs("en")[:50], documents("en")[:50]):
        positions = [doc.content.index(c.facts[f"events.{i}.date"].text)
                     for i in range(len(values(c, "events", "date")))]
        assert positions == sorted(positions)
