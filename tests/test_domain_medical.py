"""Behaviour of the built-in medical domain (inpatient records): configs, schema, documents and QRA."""

from __future__ import annotations

import datetime as dt
import random
import re
from collections import Counter
from functools import cache

import pytest
import yaml
from faker.providers.person.zh_CN import Provider as ZhNames

from dragonforge.documents import write_document
from dragonforge.domains._common import format_money
from dragonforge.domains.medical import (
    CONDITIONS, CONDITIONS_BY_KEY, ROUTINE_CHILD_LABS, ROUTINE_LABS, make_config,
)
from dragonforge.models import DEFAULT_QUESTION_MIX, DomainSchema, QueryType
from dragonforge.pipeline import configs_stage, documents_stage, qra_stage
from dragonforge.qra import load_qra_templates
from dragonforge.resources import resource_dir
from dragonforge.text import language_problem

LANGUAGES = ("en", "zh")
SEEDS = range(200)
FEMALE_ONLY = {"fibroids", "ectopic", "preeclampsia", "breast_cancer"}
MALE_ONLY = {"bph"}
PAEDIATRIC = {"mpp", "kawasaki"}
SIDED = {"pneumothorax", "hip_fracture", "disc", "ectopic", "ureteral_stone", "lung_cancer", "breast_cancer", "mpp"}
CROSSED = {"stroke", "ich"}  # the lesion is on the side opposite the weak limbs


@cache
def configs(language: str):
    return [make_config(doc_id=s, language=language, seed=s) for s in SEEDS]


@cache
def documents(language: str):
    return [write_document(c, seed=7) for c in configs(language)]


def value(config, key: str):
    return config.facts[key].value


def day(config, key: str) -> dt.date:
    return dt.date.fromisoformat(config.facts[key].value)


def indexed(config, prefix: str, field: str) -> list:
    out, i = [], 0
    while f"{prefix}.{i}.{field}" in config.facts:
        out.append(config.facts[f"{prefix}.{i}.{field}"])
        i += 1
    return out


def condition(config):
    return CONDITIONS_BY_KEY[config.extras["condition"]]


def schema(language: str) -> DomainSchema:
    path = resource_dir("schemas") / f"medical.{language}.yaml"
    return DomainSchema.model_validate(yaml.safe_load(path.read_text(encoding="utf-8")))


def slot_of(key: str) -> str:
    return re.sub(r"\.\d+\.", "[].", key)


# --- the catalogue ---------------------------------------------------------------------------


def test_catalogue_spans_the_major_specialties_with_at_least_nineteen_conditions():
    assert len(CONDITIONS) >= 19
    categories = {c.category for c in CONDITIONS}
    assert {"cardiology", "respiratory", "digestive", "endocrine", "neurology", "orthopedics", "gynecology",
            "obstetrics", "urology", "oncology", "infectious disease", "pediatrics"} <= categories
    assert len({c.diagnosis for c in CONDITIONS}) == len(CONDITIONS)


def test_every_condition_lab_range_lies_wholly_on_one_side_of_its_reference():
    for cond in CONDITIONS:
        for lab in cond.labs + ROUTINE_LABS + ROUTINE_CHILD_LABS:
            for ref_lo, ref_hi in filter(None, (lab.ref, lab.female_ref)):
                lo, hi = (lab.female_value or lab.value) if (ref_lo, ref_hi) == lab.female_ref else lab.value
                assert hi < ref_lo or lo > ref_hi or ref_lo <= lo <= hi <= ref_hi, (cond.key, lab.name[0])


def test_the_diagnostic_lab_is_abnormal_for_every_condition_but_disc_herniation():
    for cond in CONDITIONS:
        lab = cond.labs[0]
        normal = lab.ref[0] <= lab.value[0] and lab.value[1] <= lab.ref[1]
        assert normal == (cond.key == "disc"), cond.key


# --- configs ---------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_sex_and_age_fit_the_condition(language):
    for c in configs(language):
        cond, sex, age = condition(c), c.extras["he"], value(c, "age")
        assert cond.age[0] <= age <= cond.age[1]
        if cond.key in FEMALE_ONLY:
            assert sex == "she", cond.key
        if cond.key in MALE_ONLY:
            assert sex == "he", cond.key
        if cond.key in PAEDIATRIC:
            assert age < 14 and c.extras["is_child"]
        if cond.key in ("ectopic", "preeclampsia"):
            assert 18 <= age <= 45
        assert c.facts["gender"].text == {("en", "he"): "male", ("en", "she"): "female",
                                           ("zh", "he"): "男", ("zh", "she"): "女"}[(language, sex)]


def test_chinese_given_names_match_the_patient_sex():
    for c in configs("zh"):
        given = value(c, "patient_name")[1:]
        names = ZhNames.first_names_male if c.extras["he"] == "he" else ZhNames.first_names_female
        assert given in names or given[1:] in names, value(c, "patient_name")


@pytest.mark.parametrize("language", LANGUAGES)
def test_dates_follow_the_course_of_a_stay(language):
    for c in configs(language):
        admission, discharge = day(c, "admission_date"), day(c, "discharge_date")
        procedure, followup = day(c, "procedure.date"), day(c, "followup.date")
        assert admission <= procedure < discharge < followup
        assert value(c, "length_of_stay") == (discharge - admission).days >= 2
        studies = [dt.date.fromisoformat(f.value) for f in indexed(c, "imaging", "date")]
        assert len(set(studies)) == len(studies)
        for when, after in zip(studies, c.extras["imaging_after"]):
            assert (procedure < when < discharge) if after else (admission <= when <= procedure)


@pytest.mark.parametrize("language", LANGUAGES)
def test_hospital_and_postoperative_days_fall_within_the_stay(language):
    pattern = (r"(hospital|postoperative) day (\d+)" if language == "en" else r"(入院|术后)第(\d+)天")
    for c in configs(language):
        stay = value(c, "length_of_stay")
        offset = (day(c, "procedure.date") - day(c, "admission_date")).days
        for kind, n in re.findall(pattern, value(c, "hospital_course")):
            limit = stay if kind in ("hospital", "入院") else stay - offset
            assert 1 <= int(n) <= limit, (value(c, "hospital_course"), stay)


@pytest.mark.parametrize("language", LANGUAGES)
def test_costs_add_up_and_are_written_exactly(language):
    for c in configs(language):
        parts = [value(c, f"cost.{k}") for k in ("bed_nursing", "medication", "examination", "procedure")]
        assert value(c, "cost.total") == sum(parts)
        for key in ("total", "bed_nursing", "medication", "examination", "procedure"):
            fact = c.facts[f"cost.{key}"]
            assert fact.text == format_money(fact.value, language)
            if language == "zh":
                assert fact.value % 100 == 0


@pytest.mark.parametrize("language", LANGUAGES)
def test_lab_flags_agree_with_the_value_and_its_reference_range(language):
    words = {"en": ("above", "below", "within"), "zh": ("高于", "低于", "在参考范围内")}[language]
    for c in configs(language):
        results = indexed(c, "labs", "result")
        assert len(results) >= 4 and len(set(f.text for f in indexed(c, "labs", "name"))) == len(results)
        for i, (result, flag) in enumerate(zip(results, c.extras["lab_flags"])):
            lo, hi = (float(x) for x in re.findall(r"\d+(?:\.\d+)?", c.facts[f"labs.{i}.reference_range"].text)[:2])
            expected = words[0] if result.value > hi else words[1] if result.value < lo else words[2]
            assert expected in flag, (result.text, c.facts[f"labs.{i}.reference_range"].text, flag)
            if i >= 3:  # routine panel
                assert lo <= result.value <= hi


@pytest.mark.parametrize("language", LANGUAGES)
def test_vital_signs_fit_the_condition(language):
    for c in configs(language):
        key = c.extras["condition"]
        temp, hr = value(c, "vitals.temperature"), value(c, "vitals.heart_rate")
        if key in ("cap", "liver_abscess", "mpp", "kawasaki"):
            assert temp >= 38.0
        if key in ("af", "ulcer_bleed", "dka", "graves", "ectopic"):
            assert hr > 100
        if key in ("preeclampsia", "ich"):
            assert value(c, "vitals.blood_pressure") >= 160
        if key == "copd":
            assert value(c, "vitals.oxygen_saturation") < 90
        if not c.extras["is_child"]:
            assert 36.0 <= temp <= 40.0 and 40 <= hr <= 150


def test_left_and_right_are_consistent_within_a_record():
    for c in configs("en"):
        key = c.extras["condition"]
        if key in SIDED:
            words = {w for f in c.facts.values() for w in re.findall(r"\b(left|right)\b", f.text)
                     if f.key not in ("past_history", "family_history")}
            assert len(words) == 1, (key, words)
        if key in CROSSED:
            weak = set(re.findall(r"\b(left|right)\b", value(c, "chief_complaint")))
            lesion = set(re.findall(r"\b(left|right)\b", c.facts["imaging.0.finding"].text
                                    + c.facts[f"imaging.{len(indexed(c, 'imaging', 'name')) - 1}.finding"].text))
            assert len(weak) == 1 and len(lesion) == 1 and weak != lesion


def test_an_allergy_never_names_a_drug_class_the_record_prescribes():
    beta_lactams = {m.name[0] for cond in CONDITIONS for m in cond.meds if m.beta_lactam}
    for c in configs("en"):
        if "penicillin" in value(c, "allergies"):
            assert not {f.value for f in indexed(c, "medications", "name")} & beta_lactams


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_people_of_a_record_are_distinct(language):
    for c in configs(language):
        people = [value(c, k) for k in ("patient_name", "attending_physician", "procedure.operator")]
        assert len(set(people)) == 3
        assert c.entity == f"{value(c, 'hospital')}_{value(c, 'patient_name')}"


def test_facts_are_written_in_the_language_of_the_record():
    for c in configs("en"):
        for f in c.facts.values():
            assert language_problem(f.text, "en") is None, f.text
    for c in configs("zh"):
        for f in c.facts.values():
            assert len(re.findall(r"[A-Za-z]{2,}", f.text)) <= 3, f.text


def test_same_seed_gives_the_same_config_and_different_seeds_differ():
    state = random.getstate()
    for language in LANGUAGES:
        assert make_config(3, language, 1234) == make_config(3, language, 1234)
        assert make_config(3, language, 1234).facts != make_config(3, language, 1235).facts
    assert random.getstate() == state, "make_config must not touch the global random state"
    assert len({c.entity for c in configs("en")}) > 190
    assert len({c.extras["condition"] for c in configs("en")}) == len(CONDITIONS)


# --- schema ----------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_schema_slots_match_config_fact_keys_and_kinds(language):
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
    assert spec.domain == "medical" and spec.language == language and spec.source == "builtin"


def test_both_schemas_have_the_same_sections_and_slots():
    en, zh = schema("en"), schema("zh")
    assert [s.name for s in en.sections] == [s.name for s in zh.sections]
    assert en.slot_names() == zh.slot_names()
    for spec in (en, zh):
        assert all(slot.description and slot.examples for s in spec.sections for slot in s.slots)


# --- documents -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_documents_are_of_record_length_and_in_their_language(language):
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
    for c, doc in zip(configs(language), documents(language)):
        stated = Counter(key for s in doc.sentences for key in s.facts)
        for key in c.facts:
            assert 1 <= stated[key] <= 2, (key, stated[key])


@pytest.mark.parametrize("language", LANGUAGES)
def test_sections_come_in_the_order_of_an_inpatient_record(language):
    order = ["patient_information", "medical_history", "examination", "diagnosis", "treatment",
             "hospital_course", "discharge"]
    for doc in documents(language)[:50]:
        sections = list(dict.fromkeys(s.section for s in doc.sentences))
        assert sections == order


def test_english_documents_avoid_abbreviations_with_periods():
    for doc in documents("en"):
        assert not re.search(r"\b(Dr|Mr|Ms|Mrs|No|St|vs|etc|approx|Inc|Co)\.", doc.content)
        assert not re.search(r"\b[a-z]\.[a-z]\.", doc.content)


@pytest.mark.parametrize("language", LANGUAGES)
def test_unanswerable_terms_never_appear_in_documents(language):
    corpus = "\n".join(d.content for d in documents(language))
    for t in load_qra_templates("medical", language).templates:
        for term in t.absent:
            assert term not in corpus, (t.id, term)


# --- QRA -------------------------------------------------------------------------------------


def test_qra_templates_offer_enough_candidates_of_every_type():
    minimum = {"factual": 25, "multi_hop": 10, "summary": 6, "integration": 5,
               "comparison": 4, "time_sequence": 3, "unanswerable": 5}
    for language in LANGUAGES:
        counts = Counter(t.type for t in load_qra_templates("medical", language).templates)
        for kind, n in minimum.items():
            assert counts[kind] >= n, (language, kind, counts[kind])
        for t in load_qra_templates("medical", language).templates:
            if t.type in ("comparison", "time_sequence"):
                assert t.compare in configs(language)[0].facts


@pytest.mark.parametrize("language", LANGUAGES)
def test_qra_stage_yields_all_seven_types_with_few_rejections(language):
    cfgs = configs_stage("medical", language, list(range(6)), seed=11)
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
            assert 3 <= len(q.keypoints) <= 6
        if q.query_type is QueryType.FACTUAL:
            assert len(q.keypoints) <= 3
        if q.query_type.multi_document:
            assert {r.doc_id for r in q.references} == set(q.doc_ids)
        for fact in q.facts:
            assert fact.text in q.answer


@pytest.mark.parametrize("language", LANGUAGES)
def test_questions_do_not_repeat_or_give_away_the_answer_in_a_larger_build(language):
    cfgs = configs_stage("medical", language, list(range(10)), seed=5)
    docs = documents_stage(cfgs, seed=5)
    result = qra_stage(cfgs, docs, total=400, mix=DEFAULT_QUESTION_MIX, seed=5)
    questions = [q.question for q in result.qras]
    assert len(questions) == len(set(questions))
    assert len(result.qras) >= 380
    for q in result.qras:
        if q.query_type in (QueryType.FACTUAL, QueryType.COMPARISON, QueryType.TIME_SEQUENCE):
            asked = [f for f in q.facts if not f.key.endswith(".name")]
            assert not any(f.text in q.question for f in asked), q.question


def test_comparison_and_time_sequence_answers_follow_the_canonical_values():
    cfgs = configs_stage("medical", "en", list(range(8)), seed=3)
    docs = documents_stage(cfgs, seed=3)
    result = qra_stage(cfgs, docs, total=200, mix={"comparison": 0.5, "time_sequence": 0.5}, seed=3)
    templates = {t.id: t for t in load_qra_templates("medical", "en").templates}
    assert result.qras
    for q in result.qras:
        t = templates[q.template]
        winner, loser = (f for f in q.facts if f.key == t.compare)
        assert (winner.value > loser.value) == (t.pick == "max")
