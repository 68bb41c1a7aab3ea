"""Behaviour only the built-in medical domain (inpatient records) has; checks every domain shares are
in test_domains.py."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from faker.providers.person.zh_CN import Provider as ZhNames

import test_domains
from dragonforge.domains._common import format_money
from dragonforge.domains.medical import CONDITIONS, CONDITIONS_BY_KEY, ROUTINE_CHILD_LABS, ROUTINE_LABS
from dragonforge.models import LANGUAGES, QueryType

FEMALE_ONLY = {"fibroids", "ectopic", "preeclampsia", "breast_cancer"}
MALE_ONLY = {"bph"}
PAEDIATRIC = {"mpp", "kawasaki"}
SIDED = {"pneumothorax", "hip_fracture", "disc", "ectopic", "ureteral_stone", "lung_cancer", "breast_cancer", "mpp"}
CROSSED = {"stroke", "ich"}  # the lesion is on the side opposite the weak limbs


def configs(language: str):
    return test_domains.configs("medical", language)


def documents(language: str):
    return test_domains.documents("medical", language)


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
def test_a_record_names_its_patient_physician_and_operator_and_is_about_the_patient(language):
    for c in configs(language):
        people = {k for k, f in c.facts.items() if f.kind == "person"}
        assert people == {"patient_name", "attending_physician", "procedure.operator"}
        assert c.entity == f"{value(c, 'hospital')}_{value(c, 'patient_name')}"


def test_two_hundred_seeds_cover_every_condition():
    assert len({c.extras["condition"] for c in configs("en")}) == len(CONDITIONS)


# --- documents -------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_sections_come_in_the_order_of_an_inpatient_record(language):
    order = ["patient_information", "medical_history", "examination", "diagnosis", "treatment",
             "hospital_course", "discharge"]
    for doc in documents(language)[:50]:
        sections = list(dict.fromkeys(s.section for s in doc.sentences))
        assert sections == order


# --- QRA -------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
def test_questions_do_not_give_away_the_asked_value(language):
    for q in test_domains.larger_build("medical", language).qras:
        if q.query_type in (QueryType.FACTUAL, QueryType.COMPARISON, QueryType.TIME_SEQUENCE):
            asked = [f for f in q.facts if not f.key.endswith(".name")]
            assert not any(f.text in q.question for f in asked), q.question
