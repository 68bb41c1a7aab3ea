"""Behaviour only the built-in ``law`` domain (first-instance criminal judgments) has; checks every
domain shares are in test_domains.py."""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter

import pytest

import test_domains
from dragonforge.domains.law import CHARGES, add_months, age_on
from dragonforge.models import LANGUAGES

# Article of the Criminal Law each charge must cite (English token, Chinese text).
ARTICLE = {
    "theft": ("264", "第二百六十四条"),
    "fraud": ("266", "第二百六十六条"),
    "injury": ("234", "第二百三十四条"),
    "robbery": ("263", "第二百六十三条"),
    "drunk_driving": ("133-1", "第一百三十三条之一"),
    "traffic": ("133", "第一百三十三条"),
    "embezzlement": ("382", "第三百八十二条"),
    "bribery": ("385", "第三百八十五条"),
    "drugs": ("347", "第三百四十七条"),
    "smuggling": ("153", "第一百五十三条"),
    "quarrels": ("293", "第二百九十三条"),
    "illegal_business": ("225", "第二百二十五条"),
}


def all_configs():
    return [c for lang in LANGUAGES for c in test_domains.configs("law", lang)]


def day(cfg, key: str) -> dt.date:
    return dt.date.fromisoformat(cfg.facts[key].value)


def defendants(cfg) -> list[str]:
    return sorted({k.split(".")[1] for k in cfg.facts if k.startswith("defendants.")})


# --- configs -------------------------------------------------------------------------------


def test_case_dates_are_strictly_ordered_from_crime_to_judgment():
    for cfg in all_configs():
        crime, indictment = day(cfg, "crime_date"), day(cfg, "indictment_date")
        assert indictment < day(cfg, "hearing_date") < day(cfg, "judgment_date")
        for i in defendants(cfg):
            detention = day(cfg, f"defendants.{i}.detention_date")
            custody_key = f"defendants.{i}.arrest_date" if f"defendants.{i}.arrest_date" in cfg.facts else f"defendants.{i}.bail_date"
            assert crime < detention < day(cfg, custody_key) < indictment, cfg.doc_id
            if f"defendants.{i}.release_date" in cfg.facts:
                assert day(cfg, f"defendants.{i}.release_date") < crime


def test_custodial_term_runs_from_detention_and_outlasts_the_judgment():
    for cfg in all_configs():
        for i in defendants(cfg):
            k = f"defendants.{i}."
            custodial = k + "arrest_date" in cfg.facts
            assert custodial != (k + "bail_date" in cfg.facts)  # held in custody or on bail, never both
            assert custodial == (k + "term_start" in cfg.facts) == (k + "term_end" in cfg.facts)
            assert custodial != (k + "probation" in cfg.facts)  # bail goes with a suspended sentence
            if custodial:
                start = day(cfg, k + "term_start")
                assert start == day(cfg, k + "detention_date")
                end = day(cfg, k + "term_end")
                assert end == add_months(start, cfg.facts[k + "term"].value) - dt.timedelta(days=1)
                assert end > day(cfg, "judgment_date")


def test_age_is_computed_at_the_crime_date_and_adult():
    for cfg in all_configs():
        for i in defendants(cfg):
            age = cfg.facts[f"defendants.{i}.age"].value
            assert age == age_on(day(cfg, f"defendants.{i}.birth_date"), day(cfg, "crime_date"))
            assert 18 <= age <= 65
            assert str(age) in cfg.facts[f"defendants.{i}.age"].text


def test_every_charge_cites_its_own_article_of_the_criminal_law():
    seen = Counter()
    for cfg in all_configs():
        charge_id = cfg.extras["charge_id"]
        seen[charge_id] += 1
        en_token, zh_text = ARTICLE[charge_id]
        article = cfg.facts["charge_article"].text
        if cfg.language == "en":
            assert re.search(rf"\b{re.escape(en_token)}(?![-\d])", article), (charge_id, article)
            assert cfg.facts["charge"].text == CHARGES[charge_id][0]
        else:
            assert article.startswith(zh_text), article
            assert ("之一" in article) == (charge_id == "drunk_driving"), article
            assert cfg.facts["charge"].text == CHARGES[charge_id][1]
        cited = cfg.facts["articles_cited"].text
        assert (en_token in cited) if cfg.language == "en" else cited.startswith(article)
    assert set(seen) == set(CHARGES) and len(CHARGES) >= 10


def test_sentences_respect_the_statutory_penalty_rules():
    for cfg in all_configs():
        charge_id, ids = cfg.extras["charge_id"], defendants(cfg)
        for i in ids:
            k = f"defendants.{i}."
            months = cfg.facts[k + "term"].value
            if charge_id == "drunk_driving":  # criminal detention, one to six months
                assert cfg.facts[k + "sentence_type"].text in ("criminal detention", "拘役") and 1 <= months <= 6
            else:
                assert cfg.facts[k + "sentence_type"].text in ("fixed-term imprisonment", "有期徒刑") and 6 <= months <= 180
            if k + "probation" in cfg.facts:  # suspended: three years or less, never a recidivist
                assert months <= 36 and k + "recidivism" not in cfg.facts
                assert cfg.facts[k + "probation"].value >= months
            if k + "recidivism" in cfg.facts:
                gap = day(cfg, "crime_date") - day(cfg, k + "release_date")
                assert gap < dt.timedelta(days=5 * 365)
            has_fine = k + "fine" in cfg.facts
            assert has_fine == (charge_id not in ("injury", "traffic", "quarrels"))
            if charge_id == "smuggling":  # one to five times the duties evaded
                assert cfg.facts[k + "fine"].value >= cfg.facts["amount_involved"].value
            if charge_id == "illegal_business":  # one to five times the illegal gains
                assert cfg.facts[k + "fine"].value >= cfg.facts["illegal_gains"].value
        if len(ids) == 2:  # the accessory is punished less than the principal
            assert cfg.facts["defendants.0.role"].text in ("principal", "主犯")
            assert cfg.facts["defendants.1.term"].value < cfg.facts["defendants.0.term"].value
            if "defendants.0.fine" in cfg.facts:
                assert cfg.facts["defendants.1.fine"].value < cfg.facts["defendants.0.fine"].value


def test_narrative_facts_fit_the_charge():
    needs = {
        "theft": {"victim", "stolen_items", "amount_involved", "method"},
        "fraud": {"victim", "amount_involved", "method"},
        "injury": {"victim", "injury_grade", "weapon"},
        "robbery": {"victim", "weapon", "stolen_items", "amount_involved"},
        "drunk_driving": {"blood_alcohol", "vehicle"},
        "traffic": {"victim", "vehicle", "liability"},
        "embezzlement": {"amount_involved", "method"},
        "bribery": {"amount_involved", "briber", "briber_company", "favour"},
        "drugs": {"drug_type", "drug_weight", "buyer", "amount_involved"},
        "smuggling": {"goods", "amount_involved"},
        "quarrels": {"victim", "injury_grade", "weapon"},
        "illegal_business": {"goods", "amount_involved", "illegal_gains"},
    }
    for cfg in all_configs():
        charge_id = cfg.extras["charge_id"]
        assert needs[charge_id] <= set(cfg.facts), charge_id
        if "blood_alcohol" in cfg.facts:
            assert cfg.facts["blood_alcohol"].value >= 80  # the drunk-driving threshold
        if "restitution" in cfg.facts and cfg.extras["restitution_kind"] != "compensation":
            assert cfg.facts["restitution"].value <= cfg.facts["amount_involved"].value


def test_court_level_decides_procuratorate_appeal_court_and_case_number():
    for cfg in all_configs():
        level, court = cfg.facts["court_level"].value, cfg.facts["court_name"].text
        city, appeal = cfg.facts["city"].text, cfg.facts["appeal_court"].text
        assert cfg.entity == court and city in court and city in cfg.facts["procuratorate"].text
        assert ("Intermediate" in court or "中级" in court) == (level == "intermediate")
        assert ("Higher" in appeal or "高级" in appeal) == (level == "intermediate")
        year = str(day(cfg, "indictment_date").year)
        number = cfg.facts["case_number"].text
        if cfg.language == "en":
            assert re.fullmatch(rf"\({year}\) [A-Z]{{2}}\d{{2}}(\d{{2}})? Xing Chu No \d+", number), number
        else:
            assert re.fullmatch(rf"（{year}）[\u4e00-\u9fff]\d{{2}}(\d{{2}})?刑初\d+号", number), number


# --- schema --------------------------------------------------------------------------------


def test_schema_sections_follow_a_judgment():
    for language in LANGUAGES:
        sections = [s.name for s in test_domains.schema("law", language).sections]
        assert sections == ["court", "facts", "evidence", "opinion", "verdict"]


# --- documents -----------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_judgment_opens_with_its_court(language):
    for doc in test_domains.documents("law", language):
        assert doc.content.startswith(doc.entity) or doc.entity in doc.content.split("\n")[0]


@pytest.mark.parametrize("language", LANGUAGES)
def test_documents_state_every_core_fact_and_cite_articles_by_number(language):
    core = {"court_name", "case_number", "charge", "charge_article", "articles_cited", "crime_date",
            "judgment_date", "appeal_court", "defendants.0.term"}
    for cfg, doc in zip(test_domains.configs("law", language), test_domains.documents("law", language)):
        stated = {key for s in doc.sentences for key in s.facts}
        assert core <= stated
        assert cfg.facts["charge_article"].text in doc.content
