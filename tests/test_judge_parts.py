"""Each part of the judge package on its own (dragonforge/judge/*): invented examples, one module at a time.
tests/test_judge.py checks the whole judge through judge_keypoints."""

from __future__ import annotations

import pytest

from dragonforge.judge import extract_values, judge_keypoints
from dragonforge.judge.abbreviations import expand
from dragonforge.judge.analysis import _analyse
from dragonforge.judge.refusal import _concludes_declining, _judge_unanswerable, is_refusal
from dragonforge.judge.substitution import _same_class
from dragonforge.judge.values import Value, _close, _convert, _same_value, cn_to_number, en_number_words
from dragonforge.judge.words import _frame_tokens, _stem


def label(answer: str, keypoint: str, language: str, keypoints: list[str] | None = None) -> str:
    kps = keypoints or [keypoint]
    return judge_keypoints(answer, kps, language)[kps.index(keypoint)].label


def values(text: str, language: str) -> list[Value]:
    return list(_analyse(text, language).values)


# --- values: extraction and normalisation ------------------------------------------------------------


@pytest.mark.parametrize("numeral, number", [("贰亿叁仟肆佰万", 234_000_000), ("四十一点二", 41.2), ("二〇二一", 2021),
                                             ("两千零七", 2007), ("玖拾捌", 98)])
def test_chinese_numerals_are_read_by_cn2an_including_financial_capitals(numeral, number):
    assert cn_to_number(numeral) == number


def test_a_tie_in_rounding_goes_half_up():
    assert _close(4.5, 5.0, 0.05, 0.5)  # 4.5 rounds to 5
    assert not _close(5.5, 5.0, 0.05, 0.5)  # 5.5 rounds to 6, not 5
    assert _close(12.34, 12.3, 0.005, 0.05)


@pytest.mark.parametrize("a, b, language", [("39.2 °C", "102.6 °F", "en"), ("0.25 mg", "250 µg", "en"),
                                            ("体温三十九点二摄氏度", "体温39.2℃", "zh"), ("1 kg", "1000 g", "en")])
def test_measurements_in_other_units_are_the_same_value(a, b, language):
    (va,), (vb,) = values(a, language), values(b, language)
    assert _same_value(va, vb) and _same_value(vb, va)


def test_a_measurement_converts_only_within_its_dimension():
    (temp,), (mass,) = values("39.2 °C", "en"), values("12 mg", "en")
    assert _convert(temp, "mg") is None and _convert(mass, "c") is None
    assert _convert(temp, "f") == pytest.approx((102.56, 0.09))


def test_people_are_people_whatever_the_counting_word():
    (a,), (b,) = values("312 employees", "en"), values("312 people", "en")
    assert _same_value(a, b)
    (c,), (d,) = values("共有员工57名", "zh"), values("57人", "zh")
    assert _same_value(c, d)


@pytest.mark.parametrize("text, iso", [("Admitted 17/04/2021.", "2021-04-17"), ("Seen on 04/17/2021.", "2021-04-17"),
                                       ("Signed 09.11.2020.", "2020-11-09")])
def test_numeric_dates_are_read_day_or_month_first_as_only_they_can_be(text, iso):
    assert [v.value for v in values(text, "en") if v.kind == "date"] == [iso]


def test_a_number_that_labels_a_kind_is_not_an_amount_or_an_age():
    assert values("2型糖尿病", "zh") == []  # (no value at all: the number names the kind)
    (age,) = values("患者54岁", "zh")
    assert age.unit == "age"
    assert label("Type 2 diabetes since 2015.", "The patient is 61 years old.", "en") == "Irrelevant"


def test_abbreviated_durations_are_durations():
    (v,) = values("smoker x 20 yrs", "en")
    assert (v.kind, v.value, v.unit) == ("duration", 240.0, "months")


# --- abbreviations -----------------------------------------------------------------------------------


def test_abbreviations_are_written_out_in_the_texts_language():
    assert expand("PMH: COPD, CKD; NKDA.", "en") == "past medical history: chronic obstructive pulmonary disease, " \
                                                     "chronic kidney disease; no known drug allergies."
    assert expand("既往史：无HTN、DM。", "zh") == "既往史：无高血压、糖尿病。"
    assert expand("T 38.1, BP 120/80", "en") == "temperature 38.1, blood pressure 120/80"
    assert expand("The HTNX gene and a BPM of 120", "en") == "The HTNX gene and a BPM of 120"  # whole words only


def test_an_abbreviated_answer_states_the_written_out_keypoint():
    assert label("PMH: CKD x 6 yrs.", "She has had chronic kidney disease for 6 years.", "en") == "Relevant"
    assert label("既往史：CHD 8年。", "既往冠心病病史8年。", "zh") == "Relevant"


# --- words ----------------------------------------------------------------------------------------------


def test_a_chinese_class_head_makes_one_word_with_its_noun():
    words = [w for _, w in _frame_tokens("被告人犯组织卖淫罪", "zh")]
    assert words[-1].endswith("罪") and len(words[-1]) >= 3


# --- refusal ------------------------------------------------------------------------------------------


def test_an_answer_that_ends_by_declining_is_a_refusal_of_an_unanswerable_question():
    context_then_decline = "The filing lists the firm's auditors and its 2022 revenue of $8.1 million, but it does " \
                           "not mention any bond issue, so that cannot be determined."
    assert not is_refusal(context_then_decline, "en")  # it asserts a value
    assert _concludes_declining(context_then_decline, "en")
    assert _judge_unanswerable("Unable to answer", context_then_decline, "en").label == "Relevant"
    guess = "The filing does not give the amount, but the bond issue was probably about $40 million."
    assert _judge_unanswerable("Unable to answer", guess, "en").label == "Wrong"
    after = "The report does not state it exactly, but the firm issued $40 million of bonds."
    assert not _concludes_declining(after, "en")


# --- substitution -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("a, b", [("组织卖淫罪", "非法拘禁罪"), ("肺结核病", "糖尿病"), ("metoprolol", "atenolol"),
                                  ("左侧", "右侧")])
def test_members_of_one_class(a, b):
    assert _same_class(a, b, "zh" if "\u4e00" <= a[0] <= "\u9fff" else "en")


@pytest.mark.parametrize("a, b", [("卖淫罪", "组织卖淫罪"), ("physician", "clinician"), ("诊断", "治疗")])
def test_not_members_of_one_class(a, b):
    assert not _same_class(a, b, "zh" if "\u4e00" <= a[0] <= "\u9fff" else "en")


def test_each_party_of_a_keypoint_of_several_is_held_to_it():
    kp = "被告人韩松、邱月犯非法拘禁罪。"
    assert label("韩松犯非法拘禁罪，邱月犯敲诈勒索罪。", kp, "zh") == "Wrong"
    assert label("韩松、邱月均犯非法拘禁罪。", kp, "zh") == "Relevant"


def test_a_swap_between_parties_is_wrong_for_both():
    kps = ["被告人韩松犯非法拘禁罪。", "被告人邱月犯敲诈勒索罪。"]
    answer = "被告人韩松犯敲诈勒索罪，被告人邱月犯非法拘禁罪。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]


# --- polarity -----------------------------------------------------------------------------------------


def test_a_word_of_the_keypoint_negated_in_the_answer_is_a_denial():
    kp = "On examination she was pale, sweating and confused."
    assert label("On examination she was pale and sweating but not confused.", kp, "en") == "Wrong"
    assert label("On examination she was pale, sweating and confused.", kp, "en") == "Relevant"
    # a negation of another phrase does not reach the keypoint's word
    assert label("She had no rash and was pale, sweating and confused.", kp, "en") == "Relevant"


def test_a_denial_said_with_another_verb_agrees_with_a_denying_keypoint():
    kp = "Mr. Ellis has no known drug allergies."
    assert label("Mr. Ellis denies any drug allergies.", kp, "en") == "Relevant"


# --- parties and the slot rule (core) -------------------------------------------------------------------


def test_a_value_in_the_keypoints_slot_contradicts_it():
    kps = ["Alder Mining invested $41.3 million in exploration.", "Birch Energy invested $12.6 million in exploration."]
    answer = "Alder Mining put $14.3 million into exploration, and Birch Energy $12.6 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]


def test_competing_keypoints_share_the_answers_values_by_their_words():
    kps = ["立案日期为2021年6月4日。", "宣判日期为2021年9月20日。"]
    answer = "本案于2021年6月14日立案，2021年9月2日宣判。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]


def test_a_date_said_of_another_party_does_not_date_the_keypoints_event():
    kps = ["Ferro Ltd held its AGM on May 3, 2022 for fiscal 2021.", "Gant plc held its AGM on June 9, 2023."]
    answer = "Ferro Ltd held its annual general meeting for fiscal 2021 on May 13, 2022; Gant plc on June 9, 2023."
    assert judge_keypoints(answer, kps, "en")[0].label == "Wrong"


def test_another_quantity_of_the_same_kind_is_not_the_keypoints_value():
    assert label("Operating income was $9.4 million.", "Net income was $6.1 million.", "en") == "Irrelevant"


def test_what_the_keypoint_says_of_one_party_said_of_another_is_a_swap():
    kps = ["Dana Whitfield was diagnosed with sarcoidosis.", "Omar Lindqvist was diagnosed with lupus nephritis."]
    answer = "Dana Whitfield was diagnosed with lupus nephritis, and Omar Lindqvist was diagnosed with sarcoidosis."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    same = "Dana Whitfield was found to have sarcoidosis; Omar Lindqvist was diagnosed with lupus nephritis."
    assert [lab.label for lab in judge_keypoints(same, kps, "en")] == ["Relevant", "Relevant"]


def test_a_value_said_of_its_party_in_other_words_is_no_swap():
    kps = ["Kestrel Foods invested $3.4 million in research.", "Pine Labs invested $9.9 million in research."]
    answer = "Pine Labs invested $9.9 million in research, while Kestrel Foods spent $3.4 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_an_item_the_keypoint_denies_must_not_be_affirmed():
    kp = "既往史：否认哮喘、结核、肝炎病史。"
    assert label("既往有哮喘病史5年，否认结核、肝炎病史。", kp, "zh") == "Wrong"
    assert label("既往体健，无哮喘、结核及肝炎病史。", kp, "zh") == "Relevant"
    assert label("既往史：否认哮喘、结核、肝炎病史。", kp, "zh") == "Relevant"  # "既往史：" alone is a label
    assert label("对青霉素和头孢均不过敏。", "否认青霉素及头孢过敏史。", "zh") == "Relevant"  # 不过敏 is a denial


@pytest.mark.parametrize("a, b, language", [("$41.6M", "$41.6 million", "en"), ("US$3.2B", "3.2 billion US dollars", "en"),
                                            ("第二百三十四条", "第234条", "zh")])
def test_scale_letters_and_chinese_article_numbers_are_read(a, b, language):
    (va,), (vb,) = values(a, language), values(b, language)
    assert _same_value(va, vb)


def test_a_bare_letter_after_a_number_is_not_a_scale_without_a_currency():
    assert [v.value for v in values("a corridor 5 m wide", "en")] == [5.0]


def test_dosing_shorthand_is_written_out():
    assert expand("amoxicillin 500 mg tid, ceftriaxone 2 g ivgtt q24h", "en") == \
        "amoxicillin 500 mg three times daily, ceftriaxone 2 g intravenous drip every 24 hours"
    assert expand("a takeover bid for the firm", "en") == "a takeover bid for the firm"
    assert expand("头孢曲松 2g ivgtt qd", "zh") == "头孢曲松 2g 静脉滴注 每日1次"


def test_names_are_not_read_into_fixed_names_or_determiners():
    from dragonforge.judge.analysis import _analyse

    assert [e.name for e in _analyse("依据《中华人民共和国刑法》第二百六十三条", "zh").entities] == []
    assert [e.name for e in _analyse("Each Harlow Mills employee got 12 hours of training.", "en").entities] == \
        ["Harlow Mills"]
    assert [e.name for e in _analyse("So Ann Park left first. Thus Kent Group won.", "en").entities] == \
        ["Ann Park", "Kent Group"]


def test_a_charge_given_in_a_sentence_about_the_keypoints_party_alone_is_a_substitution():
    answer = "该被告人是邵明，法院认定其犯敲诈勒索罪，依据《中华人民共和国刑法》第二百七十四条定罪。"
    assert label(answer, "被告人邵明犯诈骗罪。", "zh") == "Wrong"
    assert label("该被告人是邵明，法院认定其犯诈骗罪。", "被告人邵明犯诈骗罪。", "zh") == "Relevant"


def test_a_terse_not_stated_declines():
    assert is_refusal("Not stated in the judgment.", "en")


def test_an_off_topic_answer_to_an_unanswerable_question_is_irrelevant_a_made_up_one_wrong():
    question = "What was Harold Finch's blood type?"
    off = judge_keypoints("Harold Finch was born in 1971 and worked as a welder.", ["Unable to answer"], "en",
                          unanswerable=True, question=question)
    made_up = judge_keypoints("Harold Finch's blood type was O negative.", ["Unable to answer"], "en",
                              unanswerable=True, question=question)
    assert [off[0].label, made_up[0].label] == ["Irrelevant", "Wrong"]
    without = judge_keypoints("Harold Finch was born in 1971 and worked as a welder.", ["Unable to answer"], "en",
                              unanswerable=True)
    assert without[0].label == "Wrong"  # without the question, asserting facts is Wrong


def test_a_refusal_with_words_between_still_declines():
    assert is_refusal("I don't have sentencing information for either defendant, so I can't say.", "en")
    assert is_refusal("I don't know. None of the documents mention the size of the site.", "en")
    assert is_refusal("None of the retrieved passages gives the floor area.", "en")
    assert not is_refusal("None of the directors is independent.", "en")


@pytest.mark.parametrize("a, b, language", [("每12小时1次", "一天两次", "zh"), ("every 8 hours", "three times daily", "en"),
                                            ("500 mg tid", "every 8 hours", "en")])
def test_dosing_frequencies_are_times_a_day(a, b, language):
    va = [v for v in values(expand(a, language), language) if v.unit == "per day"]
    vb = [v for v in values(expand(b, language), language) if v.unit == "per day"]
    assert va and vb and _same_value(va[0], vb[0])


def test_another_frequency_contradicts_the_keypoints():
    assert label("头孢曲松2g，静脉滴注，每日1次。", "给药途径为静脉滴注，频次为每12小时1次。", "zh") == "Wrong"


# --- the keypoint's own value said otherwise (substitution._value_swap) --------------------------------------


def _facts(kind: str, text: str) -> list[list[dict]]:
    return [[{"doc_id": 1, "key": "slot", "kind": kind, "text": text, "value": text, "unit": None}]]


@pytest.mark.parametrize("keypoint, fact, answer, language", [
    ("The new role was Chief Marketing Officer.", "Chief Marketing Officer",
     "Halden Corp named a Chief Legal Officer in May.", "en"),
    ("She received continuous epidural morphine infusion.", "continuous epidural morphine infusion",
     "She received a continuous intrathecal morphine infusion.", "en"),
    ("最终诊断为急性化脓性阑尾炎。", "急性化脓性阑尾炎", "诊断为急性坏疽性阑尾炎。", "zh"),
    ("聘任其为首席运营官。", "首席运营官", "公司聘任其为首席法务官。", "zh"),
    ("给药方式为静脉注射。", "静脉注射", "该药采用肌内注射。", "zh"),
])
def test_the_keypoints_value_with_one_word_swapped_is_wrong(keypoint, fact, answer, language):
    lab = judge_keypoints(answer, [keypoint], language, keypoint_facts=_facts("category", fact))[0]
    assert lab.label == "Wrong" and fact in lab.reason


@pytest.mark.parametrize("keypoint, fact, answer, language", [
    # the same value in other words: an abbreviation, a shortened modifier, a negation left to polarity
    ("She received continuous intravenous morphine infusion.", "continuous intravenous morphine infusion",
     "She received continuous IV morphine infusion.", "en"),
    ("The new role was Chief Marketing Officer.", "Chief Marketing Officer",
     "Halden Corp named its Chief Marketing Officer in May.", "en"),
    ("既往史：否认糖尿病、冠心病病史。", "否认糖尿病、冠心病病史", "既往没有糖尿病、冠心病病史。", "zh"),
])
def test_the_keypoints_value_said_in_other_words_is_no_swap(keypoint, fact, answer, language):
    lab = judge_keypoints(answer, [keypoint], language, keypoint_facts=_facts("text", fact))[0]
    assert lab.label != "Wrong", lab.reason


def test_a_plain_label_value_keypoint_is_checked_on_its_value_side():
    assert label("Arden Bank filled its Chief Audit Officer post.", "The post filled was Chief Risk Officer.",
                 "en") == "Wrong"
    assert label("The prosecution came first.", "The prosecution was filed first.", "en") != "Wrong"  # a verb


def test_a_title_after_a_persons_name_is_not_part_of_the_name():
    kps = ["Lena Varga succeeded Tom Reyes.", "The role was Chief Operating Officer."]
    answer = "Varga Systems Inc named Lena Varga Chief Operating Officer, succeeding Tom Reyes."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_a_term_said_of_the_same_party_in_other_words_is_its_answer():
    kps = ["Ivo Brandt was sentenced to 2 years and 3 months.", "Nora Quist was sentenced to 6 years."]
    answer = "Ivo Brandt got 3 years and 2 months for arson, while Nora Quist got 6 years for robbery."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]


def test_a_range_of_dates_given_otherwise_is_wrong():
    kp = "刑期自2018年3月2日起至2019年9月1日止。"
    answer = "被告人刑期自2018年3月9日羁押之日起至2019年9月8日止。"
    assert label(answer, kp, "zh") == "Wrong"


def test_a_frequency_is_not_a_rival_of_a_dose():
    kps = ["阿莫西林的剂量为0.5g。", "给药途径为静脉滴注，频次为每8小时1次。"]
    answer = "阿莫西林静脉滴注，每6小时1次。"  # no dose: the frequency is the answer's only value of its kind
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Irrelevant", "Wrong"]


def test_a_rounding_moves_a_value_by_a_fifth_at_most():
    assert not _same_value(Value("count", 0.5, "0.5g", (0, 4), "g", 0.05), Value("count", 1.0, "1g", (0, 2), "g", 0.5))
    assert _same_value(Value("money", 5.4e6, "$5.4 million", (0, 12), "USD", 5e4),
                       Value("money", 5e6, "$5 million", (0, 10), "USD", 5e5))


def test_appointing_verbs_introduce_a_chinese_name():
    assert [e.name for e in _analyse("董事会聘任韩立为总经理。", "zh").entities] == ["韩立"]


def test_snowball_stems_make_tenses_one_word():
    assert _stem("succeeded") == _stem("succeed") and _stem("businesses") == _stem("business")


def test_parallel_pieces_with_their_subjects_exchanged_are_wrong():
    kp_en = "In the family history, his brother had asthma and his sister had eczema."
    assert label("Family history: his sister had asthma and his brother had eczema.", kp_en, "en") == "Wrong"
    assert label("Family history: his brother had asthma and his sister had eczema.", kp_en, "en") == "Relevant"
    kp_zh = "家族史：外祖父患痛风，外祖母患骨质疏松。"
    assert label("家族史：外祖母患痛风，外祖父患骨质疏松。", kp_zh, "zh") == "Wrong"
    assert label("外祖父有痛风，外祖母有骨质疏松。", kp_zh, "zh") == "Relevant"
    # a list is not a set of pieces: its items may come in any grouping
    assert label("主诉：头晕、乏力伴心悸3天。近日头晕乏力，伴心悸。", "主诉为头晕、乏力伴心悸3天。", "zh") == "Relevant"


def test_a_relation_said_the_other_way_round_is_wrong():
    kp = "Dora Kell replaced Ian Moss."
    assert label("Ian Moss replaced Dora Kell as treasurer.", kp, "en") == "Wrong"
    assert label("Ian Moss was replaced by Dora Kell as treasurer.", kp, "en") == "Relevant"
    assert label("Dora Kell replaced Ian Moss as treasurer.", kp, "en") == "Relevant"


def test_a_number_replaced_in_the_keypoints_list_is_wrong():
    kp = "The ruling applies Articles 234, 61, 45 and 47 of the Criminal Law."
    assert label("The ruling applies Articles 232, 61, 45 and 47 of the Criminal Law.", kp, "en") == "Wrong"
    assert label("The ruling applies Articles 61, 45 and 47 of the Criminal Law.", kp, "en") == "Irrelevant"


def test_a_procedure_for_another_procedure_is_wrong():
    kp = "患者于2022年5月6日接受腹腔镜胆囊切除术。"
    facts = [[{"doc_id": 1, "key": "procedure.name", "kind": "text", "text": "腹腔镜胆囊切除术", "value": "腹腔镜胆囊切除术",
               "unit": None}]]
    assert judge_keypoints("2022年5月6日行经皮胆囊穿刺引流术。", [kp], "zh", keypoint_facts=facts)[0].label == "Wrong"
    assert judge_keypoints("2022年5月6日行腹腔镜胆囊切除术。", [kp], "zh", keypoint_facts=facts)[0].label == "Relevant"


def test_what_the_question_already_says_is_not_asked_of_the_answer():
    kp = "持续右上腹痛系急性胆囊炎所致。"
    answer = "诊断：急性胆囊炎。"
    assert judge_keypoints(answer, [kp], "zh")[0].label == "Irrelevant"  # without the question: half its words
    assert judge_keypoints(answer, [kp], "zh", question="患者持续右上腹痛的原因是什么？")[0].label == "Relevant"
    kp = "出生于1975年4月2日的被告人是邹明。"
    facts = [[{"doc_id": 1, "key": "defendant", "kind": "person", "text": "邹明", "value": "邹明", "unit": None}]]
    asked = "出生于1975年4月2日的被告人是谁？"
    assert judge_keypoints("被告人：邹明", [kp], "zh", keypoint_facts=facts, question=asked)[0].label == "Relevant"
    assert judge_keypoints("被告人：邹明", [kp], "zh", keypoint_facts=facts)[0].label == "Irrelevant"


def test_a_fact_that_is_not_in_the_documents_is_declined_and_a_declined_comparison_is_no_answer():
    assert is_refusal("The filing date for Omar Reed is not in the documents.", "en")
    assert not is_refusal("He was not found to have surrendered voluntarily.", "en")
    kp = "Lars Heed was the younger patient."
    answer = "Mia Stone's record gives her age as 71, but I could not find Lars Heed's age, so I can't say who was younger."
    assert label(answer, kp, "en") == "Irrelevant"


def test_a_date_named_by_the_keypoints_event_word_is_that_events_date():
    kp = "1969年4月3日出生于江西省九江市。"
    assert label("被告人柯某，男，1996年4月3日出生，初中文化。", kp, "zh") == "Wrong"
    assert label("被告人柯某，男，1969年4月3日出生，初中文化。", kp, "zh") == "Relevant"
    assert label("Born on 8 May 1981 in Leeds, he worked as a welder.", "He was born on May 8, 1971.", "en") == "Wrong"


def test_a_denial_said_as_the_keypoint_says_it_is_no_flip():
    assert label("被告人柳某作案时年满三十周岁，无前科，系坦白。", "被告人柳某无前科。", "zh") == "Relevant"
    kp = "Examination revealed a soft, non-tender abdomen and no masses on deep palpation."
    assert label("He was alert, and examination revealed a soft, non-tender abdomen and no masses on deep palpation.",
                 kp, "en") == "Relevant"


def test_a_keypoint_whose_value_is_a_party_is_stated_by_naming_it():
    assert label("Rowan Tools bought a 40% stake in Pell Castings Ltd.", "The counterparty was Pell Castings Ltd.",
                 "en") == "Relevant"
    assert label("该手术由钟晓梅主刀完成。", "负责该手术的医师为钟晓梅。", "zh") == "Relevant"


def test_routes_labs_procedures_and_chinese_short_forms_are_written_out():
    assert expand("Ceftriaxone 1 g IV qd.", "en") == "Ceftriaxone 1 g intravenously once daily."
    assert expand("stage IV disease", "en") == "stage IV disease"  # a Roman numeral, not a route
    assert expand("continuous IV insulin", "en") == "continuous intravenous insulin"
    assert expand("血沉（ESR）12 mm/h", "zh") == "红细胞沉降率（红细胞沉降率）12 mm/h"
    assert expand("阵发性房颤", "zh") == "阵发性心房颤动" and expand("心房颤动", "zh") == "心房颤动"
    assert expand("Dx: CABG", "en") == "diagnosis: coronary artery bypass grafting"


def test_english_number_words_are_read_by_text2num():
    assert en_number_words("equity financing of seventy-nine point four three million dollars") == \
        "equity financing of 79.43 million dollars"
    assert en_number_words("Reed: twenty-three. Lee: 1.2 million") == "Reed: 23. Lee: 1.2 million"
    assert en_number_words("one of the two") == "one of the two"
    assert label("Pearson: thirty-eight; Reed: twenty-three.", "Reed was 23 years old.", "en") == "Relevant"


def test_a_person_is_named_by_initial_and_surname():
    kps = ["Arden Mills is chaired by Paula Ferris.", "Its CEO is Dean Holt."]
    answer = "| Company | Chair | CEO |\n|---|---|---|\n| Arden Mills | P. Ferris | D. Holt |"
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_a_figure_said_under_another_keypoints_label_is_wrong():
    kps = ["The buyback on May 4, 2021 involved $12.6 million.", "The bond issue on June 9, 2021 involved $40.2 million."]
    answer = "Events of 2021: May 4 - a bond issue of $12.6 million; June 9 - a buyback of $40.2 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    right = "Events of 2021: May 4 - a buyback of $12.6 million; June 9 - a bond issue of $40.2 million."
    assert [lab.label for lab in judge_keypoints(right, kps, "en")] == ["Relevant", "Relevant"]


def test_a_value_beside_the_keypoints_own_word_or_with_its_digits_is_its_answer():
    kps = ["Hale was convicted of arson.", "A fine of $7,500 was imposed."]
    answer = "Hale was found guilty of arson and given a suspended term together with a fine of $2,150."
    assert judge_keypoints(answer, kps, "en")[1].label == "Wrong"
    assert label("The deal, signed in May, is valued at $218.46 billion.", "The contract is worth $218.46 million.",
                 "en") == "Wrong"
    # another member of the keypoint's kind holds the value: it is that member's, not a rival
    kps = ["仓储物流板块收入占比41.2%。", "冷链配送板块实现收入2.3亿元，占比12.5%。"]
    answer = "该公司2021年仓储物流板块收入占比41.2%，为最主要的业务板块。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Irrelevant"]


def test_a_role_named_by_a_copula_is_no_relation_to_reverse_and_generic_qualifiers_are_no_kind():
    assert label("At Lorne Foods the chair is Ada Vine.", "Lorne Foods is chaired by Ada Vine.", "en") == "Relevant"
    facts = [[{"doc_id": 1, "key": "event.type", "kind": "category", "text": "major contract", "value": "major contract",
               "unit": None}]]
    kp = "The major contract on May 2, 2021 involved $12.4 million."
    answer = "On May 2, 2021 the company signed a $12.4 million supply contract."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"


def test_what_the_question_names_and_a_labelling_year_need_not_be_repeated():
    facts = [[{"doc_id": 1, "key": "lawyer", "kind": "person", "text": "Hugo Tran", "value": "Hugo Tran", "unit": None},
              {"doc_id": 1, "key": "client", "kind": "person", "text": "Ella Park", "value": "Ella Park", "unit": None}]]
    kp, asked = "Hugo Tran defended Ella Park.", "Whom did Hugo Tran defend, and what was the sentence?"
    answer = "His client was Ella Park, who received a suspended sentence."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts, question=asked)[0].label == "Relevant"
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Irrelevant"
    kp = "华源股份有限公司于2021年5月18日召开2020年年度股东大会。"
    assert label("华源股份于二〇二一年五月十八日召开年度股东大会。", kp, "zh") == "Relevant"
    assert label("华源股份于2021年5月18日召开2019年年度股东大会。", kp, "zh") == "Wrong"


def test_a_district_authority_is_named_without_its_city():
    kp = "南通市崇川区人民检察院于2022年3月4日提起公诉。"
    facts = [[{"doc_id": 1, "key": "prosecutor", "kind": "organisation", "text": "南通市崇川区人民检察院",
               "value": "南通市崇川区人民检察院", "unit": None}]]
    assert judge_keypoints("2022年3月4日崇川区检察院起诉。", [kp], "zh", keypoint_facts=facts)[0].label == "Relevant"


def test_another_member_of_a_closed_legal_class_is_wrong():
    assert label("Rita Cole was convicted of fraud.", "Rita Cole was convicted of embezzlement.", "en") == "Wrong"
    assert label("Rita Cole was convicted of embezzlement.", "Rita Cole was convicted of embezzlement.",
                 "en") == "Relevant"
    kp = "The sentence was fixed-term imprisonment of 2 years and 1 month."
    assert label("She got 2 years and 1 month of criminal detention.", kp, "en") == "Wrong"
    assert label("被告人判处拘役三个月。", "被告人被判处有期徒刑三个月。", "zh") == "Wrong"
    assert label("被告人被判处有期徒刑三个月，缓刑六个月。", "被告人被判处有期徒刑三个月。", "zh") == "Relevant"



def test_another_member_of_a_closed_class_of_the_genres_records_is_wrong():
    kp = "Cefuroxime 1.5 g was given intravenously twice daily."
    assert label("She took cefuroxime 1.5 g by mouth twice daily.", kp, "en") == "Wrong"
    assert label("Cefuroxime 1.5 g IV bid.", kp, "en") == "Relevant"
    assert label("被告人文化程度为高中。", "被告人文化程度为初中。", "zh") == "Wrong"
    assert label("被告人初中文化。", "被告人文化程度为初中。", "zh") == "Relevant"
    kp = "The auditor issued an unqualified opinion."
    assert label("The auditor issued a qualified opinion.", kp, "en") == "Wrong"
    assert label("审计机构出具了保留意见。", "审计机构出具了标准无保留意见。", "zh") == "Wrong"
    assert label("审计机构出具了无保留意见的审计报告。", "审计机构出具了标准无保留意见。", "zh") == "Relevant"


def test_the_value_beside_the_keypoints_other_value_is_its_answer():
    kp = "The acquisition on September 9, 2021 involved $41.2 million."
    assert label("The company bought a 60% stake in Orin Ltd on October 2, 2021 ($41.2 million).", kp, "en") == "Wrong"
    assert label("The company bought a 60% stake in Orin Ltd on September 9, 2021 ($41.2 million).", kp,
                 "en") == "Relevant"
    assert label("The drug was tamsulosin, 0.4 mg once daily.", "The dose was 5 mg, given orally once daily.",
                 "en") == "Wrong"


def test_an_ambiguous_numeric_date_is_read_as_the_texts_other_dates_are_written():
    dates = [v.value for v in _analyse("17/03/2020 - a loan; 06/12/2020 - a contract", "en").values if v.kind == "date"]
    assert dates == ["2020-03-17", "2020-12-06"]
    assert [v.value for v in _analyse("06/12/2020 - a contract", "en").values if v.kind == "date"] == ["2020-06-12"]


def test_two_values_the_keypoint_pairs_paired_otherwise_by_the_answer_are_wrong():
    kps = ["The buyback on May 4, 2021 involved $12.6 million.", "The bond issue on June 9, 2021 involved $40.2 million."]
    answer = "A buyback on May 4, 2021 worth $40.2 million; a bond issue on June 9, 2021 raising $12.6 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    table = "2021-05-04 buyback, $12.6M\n2021-06-09 bond issue, $40.2M"
    assert [lab.label for lab in judge_keypoints(table, kps, "en")] == ["Relevant", "Relevant"]


def test_another_person_in_the_keypoints_role_is_a_substitution():
    facts = [[{"doc_id": 1, "key": "surgeon", "kind": "person", "text": "Lena Moss", "value": "Lena Moss", "unit": None}]]
    kp = "Doctor Lena Moss was in charge of the operation."
    answer = "She had a lumpectomy on May 2, 2022, performed by Doctor Ivan Bell."
    lab = judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0]
    assert (lab.label, lab.reason) == ("Wrong", "answer names Ivan Bell where keypoint names Lena Moss")
    assert judge_keypoints("She had a lumpectomy on May 2, 2022.", [kp], "en", keypoint_facts=facts)[0].label \
        == "Irrelevant"


def test_a_reading_on_the_other_side_of_its_reference_range_is_wrong():
    kp = "血钾为3.1mmol/L，低于参考范围。"
    assert label("血钾3.1 mmol/L，在正常范围内；血钠138 mmol/L，正常。", kp, "zh") == "Wrong"
    assert label("血钾3.1 mmol/L，偏低；血钠138 mmol/L，正常。", kp, "zh") == "Relevant"
    kp = "Serum potassium was 5.9 mmol/L, above the reference range."
    assert label("Potassium 5.9 mmol/L (within the normal range); sodium 139 mmol/L.", kp, "en") == "Wrong"
    assert label("Potassium 5.9 mmol/L (elevated); sodium 139 mmol/L, normal.", kp, "en") == "Relevant"


def test_how_an_amount_is_said_is_no_label_of_its_own():
    kps = ["The agreement is worth $61.7 million.", "It covers warehouse automation services."]
    answer = "Orlo Inc signed a warehouse automation agreement. The agreement is valued at $16.7 million."
    assert judge_keypoints(answer, kps, "en")[0].label == "Wrong"


def test_another_date_of_the_party_is_wrong_unless_its_words_name_another_event():
    kps = ["The offence of Dana Voss was committed on March 3, 2021.", "Dana Voss was sentenced on May 9, 2022."]
    crash = "Dana Voss caused the collision on March 8, 2021, and was sentenced on May 9, 2022."
    assert [lab.label for lab in judge_keypoints(crash, kps, "en")] == ["Wrong", "Relevant"]
    born = "Dana Voss, born on June 8, 1990, was sentenced on May 9, 2022."
    assert [lab.label for lab in judge_keypoints(born, kps, "en")] == ["Irrelevant", "Relevant"]
    kps = ["被告人许亮于2020年4月2日作案。", "法院于2021年1月5日作出判决。"]
    assert judge_keypoints("许亮的犯罪时间为2020年5月12日，法院于2021年1月5日判决。", kps, "zh")[0].label == "Wrong"
    assert judge_keypoints("许亮于2020年5月12日被刑事拘留，法院于2021年1月5日判决。", kps, "zh")[0].label == "Irrelevant"


def test_two_parties_the_answer_pairs_the_other_way_are_swapped():
    kps = ["检察员江晓梅在被告人罗刚一案中出庭。", "检察员韩冬在被告人孟凡一案中出庭。"]
    crossed = "罗刚案：检察员韩冬出庭；孟凡案：检察员江晓梅出庭。"
    assert [lab.label for lab in judge_keypoints(crossed, kps, "zh")] == ["Wrong", "Wrong"]
    right = "罗刚案：检察员江晓梅出庭；孟凡案：检察员韩冬出庭。"
    assert [lab.label for lab in judge_keypoints(right, kps, "zh")] == ["Relevant", "Relevant"]
    kp = "The Chief Executive Officer of Vale Foods Group is Nora Pike."
    crossed = "Omar Reid chairs Vale Foods Group, where Jon Hale serves as CEO; Birch Mills Group is chaired by Ada Cole, " \
              "with Nora Pike as CEO."
    assert label(crossed, kp, "en") == "Wrong"
    assert label("Vale Foods Group is led by CEO Nora Pike; Birch Mills Group by CEO Jon Hale.", kp, "en") == "Relevant"


def test_a_person_named_in_another_role_and_never_in_the_keypoints_is_wrong():
    kp = "Birch Mills Group is chaired by Ada Cole."
    assert label("Birch Mills Group: Chairman Jon Hale, CEO Ada Cole.", kp, "en") == "Wrong"
    assert label("Birch Mills Group: Chairman Ada Cole, CEO Jon Hale.", kp, "en") == "Relevant"
    assert label("Ada Cole is both chair and CEO of Birch Mills Group.", kp, "en") == "Relevant"
    kp = "张云为被告人秦旭辩护。"
    assert label("张云是秦旭的辩护人，秦旭被判处有期徒刑5年2个月。", kp, "zh") == "Relevant"
    assert label("被害人秦旭由张云代理。", kp, "zh") == "Wrong"


def test_a_date_of_the_keypoints_event_said_otherwise_is_wrong():
    kps = ["Omar Reid was placed in criminal detention on March 4, 2021.", "Judgment was delivered on June 1, 2021."]
    answer = "Omar Reid was detained on March 9, 2021 and prosecuted on April 2, 2021; he was sentenced on May 20, 2021."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    answer = "Omar Reid was detained on March 4, 2021 and prosecuted on April 2, 2021; judgment came on June 1, 2021."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_another_person_in_the_keypoints_role_in_its_partys_stretch_is_wrong():
    kps = ["Birch Mills Group is chaired by Ada Cole.", "Vale Foods Group is chaired by Omar Reid."]
    answer = "- Birch Mills Group (Nasdaq: BMG): Chairman Jon Hale; CEO Ada Cole.\n- Vale Foods Group: Chair: Omar Reid."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]
    answer = "Birch Mills Group's chief executive is Jon Hale; Vale Foods Group is chaired by Omar Reid."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Irrelevant", "Relevant"]
    kp = "The defendant detained on May 2, 2022 is Rosa Vane."
    assert label("The defendant is Tom Ashe, whose term ends on May 1, 2030.", kp, "en") == "Wrong"


def test_a_pronoun_opening_a_sentence_stands_for_the_last_named_subject():
    kp = "The term of Rosa Vane ends on May 8, 2030."
    answer = ("The court convicted Rosa Vane of fraud after she took $36,100 from Tom Ashe. She was detained on "
              "October 9, 2022; with custody deducted, her term runs from October 9, 2022 until May 8, 2030.")
    assert label(answer, kp, "en") == "Relevant"


def test_a_case_numbers_label_is_no_party():
    from dragonforge.judge.analysis import _analyse

    names = [e.name for e in _analyse("In case (2023) NE0708 Xing Chu No 657, Rosa Vane was convicted.", "en").entities]
    assert names == ["Rosa Vane"]


def test_the_answers_one_date_is_its_answer_to_a_keypoint_of_no_party():
    kps = ["The offence took place on April 22, 2020.", "The amount of bribes accepted was $79,800."]
    answer = "Cal Dunn was found guilty of taking bribes: on August 7, 2020 he accepted $79,800 from Kerri Sand."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]
    answer = "Cal Dunn, born on August 7, 1970, accepted $79,800 from Kerri Sand."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Irrelevant", "Relevant"]
    assert label("From June 26, 2021 to August 14, 2021 is 48 days.", "49 days passed between the two.", "en") == "Wrong"


def test_a_year_the_keypoint_names_alone_leaves_the_answers_full_date_to_its_date():
    kps = ["Orin Group held its First Extraordinary General Meeting of 2020 on April 28, 2020.",
           "Vale Foods Group held its First Extraordinary General Meeting of 2022 on January 25, 2022."]
    answer = "Orin Group's first EGM was on April 16, 2020 and Vale's on May 21, 2022, so Orin was first."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    answer = "Orin Group's first EGM was on April 28, 2020 and Vale's on January 25, 2022, so Orin was first."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_a_label_the_answer_fills_with_another_value_is_wrong():
    assert label("公司成立于1986年，总部位于江苏省无锡市，主营机械。", "总部位于河南省郑州市。", "zh") == "Wrong"
    assert label("公司总部位于河南省郑州市。", "总部位于河南省郑州市。", "zh") == "Relevant"
    kp = "所属行业为制造业，主营业务为工业机械的研发和销售。"
    assert label("该公司所属行业为化工，主营精细化学品。", kp, "zh") == "Wrong"
    assert label("该事项相关方为润恒农村商业银行股份有限公司。", "相关方为鼎盛能源有限公司。", "zh") == "Wrong"
    assert label("辩护人为四川弘德律师事务所律师。", "辩护人为萧丽丽。", "zh") == "Irrelevant"  # no name given
    assert label("被告人郭帆的辩护人为律师李伟。", "被告人葛志强的辩护人为赵娜。", "zh") == "Irrelevant"  # another's


def test_a_term_in_chinese_numeral_days_is_a_duration():
    assert label("上诉期限为五日。", "上诉期限为十日。", "zh") == "Wrong"
    assert label("不服本判决的，可在接到判决书的第二日起十日内上诉。", "上诉期限为十日。", "zh") == "Relevant"
    values = [(v.kind, v.value) for v in extract_values("二〇二一年五月十日，每日一次", "zh")]
    assert ("duration", 10.0) not in values


def test_a_term_with_bu_inside_is_no_negation_and_a_denied_list_is_denied():
    kp = "伴有尿不尽感及尿后滴沥。"
    assert label("病程中伴有尿不尽感及尿后滴沥。", kp, "zh") == "Relevant"
    assert label("患者主诉排尿费力3年，无尿不尽感及尿后滴沥。", kp, "zh") == "Wrong"


def test_a_value_said_of_several_together_is_no_partys_value():
    kps = ["曾国住院5天。", "曹华住院6天。"]
    assert [lab.label for lab in judge_keypoints("两人合计住院11天。", kps, "zh")] == ["Irrelevant", "Irrelevant"]
    assert [lab.label for lab in judge_keypoints("曾国住院4天，曹华住院6天。", kps, "zh")] == ["Wrong", "Relevant"]


def test_the_other_side_of_a_clause_is_not_whom_it_is_about():
    kps = ["The first major event of Orin Group was its litigation on February 3, 2022.",
           "The first major event of Orin Group involved $28.74 million."]
    answer = ("- **Orin Group (FY2022):** on 3 February 2022 the company became involved in litigation with Curtis "
              "Partners over a product claim, with $28.74 million at stake.")
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")][0] == "Relevant"
    kps = ["Orin Group held its first EGM on April 28, 2020.", "Vale Foods Group held its first EGM on May 23, 2022."]
    answer = "Vale Foods Group's first EGM was held on May 23, 2022, so Orin Group met first."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Irrelevant", "Relevant"]


def test_another_drug_in_the_keypoints_place_is_wrong():
    kps = ["He received levofloxacin 0.5 g.", "He received tamsulosin 0.2 mg."]
    answer = "He was given tamsulosin 0.2 mg and metformin 0.5 g."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]
    answer = "He was given tamsulosin 0.2 mg."  # partial: levofloxacin is left out, nothing stands in its place
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Irrelevant", "Relevant"]
    kp, question = "The drug was flurbiprofen axetil.", "Which drug was used for his postoperative analgesia?"
    for answer, expected in [("Postoperative analgesia was acetaminophen 500 mg orally as needed.", "Wrong"),
                             ("The summary lists cefuroxime but does not mention an analgesic.", "Irrelevant")]:
        assert judge_keypoints(answer, [kp], "en", question=question)[0].label == expected
    assert label("患者术后予头孢曲松抗感染治疗。", "术后予头孢呋辛抗感染治疗。", "zh") != "Relevant"


def test_the_facts_lead_words_filled_otherwise_are_wrong():
    facts = [[{"doc_id": 1, "key": "diagnosis", "kind": "category", "text": "acute calculous cholecystitis",
               "value": "acute calculous cholecystitis", "unit": None}]]
    kp = "Kara Hale was diagnosed with acute calculous cholecystitis."
    for answer, expected in [("Kara Hale was diagnosed with acute pancreatitis.", "Wrong"),
                             ("Kara Hale was diagnosed with acute cholecystitis due to gallstones (calculous).", "Relevant"),
                             ("Kara Hale's diagnosis is not given in the record.", "Irrelevant")]:
        assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == expected
    facts = [[{"doc_id": 1, "key": "diagnosis", "kind": "category", "text": "2型糖尿病", "value": "2型糖尿病",
               "unit": None}]]
    kp = "刘斌的诊断为2型糖尿病。"
    assert judge_keypoints("刘斌的诊断为甲状腺功能亢进症。", [kp], "zh", keypoint_facts=facts)[0].label == "Wrong"
    assert judge_keypoints("刘斌的诊断在资料中未明确。", [kp], "zh", keypoint_facts=facts)[0].label == "Irrelevant"


def test_a_value_under_the_other_keypoints_own_label_is_not_this_ones():
    kps = ["全年召开董事会会议9次。", "全年召开股东大会2次。"]
    answer = "2021年度，公司共召开董事会会议2次、股东大会9次。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "2021年度，公司共召开董事会会议9次、股东大会2次。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]


def test_chinese_short_forms_of_legal_terms_are_written_out():
    assert label("周成以贩卖毒品罪获刑二年二个月。", "被判处有期徒刑二年二个月。", "zh") == "Relevant"
    assert label("辩护人：萧丽丽（四川明诚律所）", "辩护人系四川明诚律师事务所律师。", "zh") == "Relevant"


def test_the_other_end_of_a_ranking_and_a_ruled_out_finding_are_wrong():
    kp = "The smallest segment of Orin Motors was auto parts."
    assert label("Auto parts was the largest segment of Orin Motors, at $590 million.", kp, "en") == "Wrong"
    assert label("Auto parts was Orin Motors' smallest segment.", kp, "en") == "Relevant"
    assert label("收入最多的板块是汽车零部件。", "收入最少的板块是汽车零部件。", "zh") == "Wrong"
    kp = "Kara Hale was diagnosed with acute calculous cholecystitis."
    assert label("Kara Hale's workup ruled out acute calculous cholecystitis.", kp, "en") == "Wrong"


def test_short_names_of_companies_courts_and_exchanges():
    kp = "安明文化传媒股份有限公司的资产负债率更低。"
    assert label("安明文化传媒资产负债率25.55%，金泰化工31.32%，安明更低。", kp, "zh") == "Relevant"
    assert label("上诉法院：泉州市中院。", "上诉法院为福建省泉州市中级人民法院。", "zh") == "Relevant"
    assert label("公司在深交所上市，股票代码000640。", "股票在深圳证券交易所上市，证券代码为000640。", "zh") == "Relevant"


def test_a_sale_for_an_acquisition_is_wrong_and_the_answers_one_term_needs_no_label():
    kp = "2022年1月22日的收购事项内容为80%股权。"
    assert label("2022年1月22日，公司将其持有的鼎盛能源有限公司80%股权出售。", kp, "zh") == "Wrong"
    kp = "49 days passed between the two."
    answer = "The prosecution was filed on June 26, 2021 and the judgment was made on August 14, 2021, 49 days later."
    assert judge_keypoints(answer, [kp], "en", question="How many days passed between the filing and the judgment?"
                           )[0].label == "Relevant"


def test_another_code_in_the_keypoints_place_is_wrong():
    kp = "Its ticker symbol is STRH."
    assert label("The company trades on the NYSE under the symbol STRX.", kp, "en") == "Wrong"
    assert label("The company trades on the NYSE under the symbol STRH.", kp, "en") == "Relevant"
    assert label("公司股票在深交所上市，证券代码为601887。", "证券代码为000640。", "zh") == "Wrong"


def test_unanswerable_questions_refusals_that_open_and_guesses():
    kp, q = "Unable to answer", "What was the market capitalization of Orin Group at the end of 2021?"
    for answer, expected in [
            ("Unable to answer: the 2021 report gives total assets ($28.78 billion) but no share price.", "Relevant"),
            ("Approximately $3.41 billion, based on the report.", "Wrong"),
            ("The market capitalization is not stated, but with net profit of $451.39 million it would have been "
             "around $9 billion.", "Wrong")]:
        assert judge_keypoints(answer, [kp], "en", unanswerable=True, question=q)[0].label == expected
    assert judge_keypoints("病历未直接写明，但推测为O型血。", ["无法回答"], "zh", unanswerable=True,
                           question="韩建国是什么血型？")[0].label == "Wrong"


def test_irregular_verbs_and_event_nouns_are_one_word():
    assert _stem("underwent") == _stem("undergo") and _stem("sold") == _stem("sell")
    assert _stem("detention") == _stem("detained") and _stem("admission") == _stem("admitted")
    kp = "Juan Ortiz underwent transurethral resection of the prostate on April 26, 2024."
    assert label("Juan Ortiz was managed conservatively and did not undergo surgery.", kp, "en") == "Wrong"
    kp = "The defendant detained on October 9, 2022 is Carl Cherry."
    question = "When does the term of the defendant placed in criminal detention on October 9, 2022 end?"
    assert judge_keypoints("That is Carl Cherry; his sentence runs until 9 October 2029.", [kp], "en",
                           question=question)[0].label == "Relevant"


def test_the_answers_one_amount_on_the_keypoints_topic_is_its_answer():
    kps = ["The zinc segment generated $794.46 million.", "The zinc segment accounted for 58.8% of operating revenue."]
    answer = "The zinc business contributed $968.05 million, which was 58.8% of revenue."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]
    kps = ["The first major event of Orin Group was its litigation on January 16, 2023.",
           "The first major event of Orin Group involved $53.49 million."]
    answer = "For Orin Group, the first event was a major contract with Mill Holdings signed on February 8, 2023, " \
             "worth $720.32 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    kp = "Vale Group reported operating revenue of $2.11 billion."
    answer = "Orin Group had the larger revenue at $2.11 billion, compared with Vale Group's $168.37 million."
    assert label(answer, kp, "en") == "Wrong"


def test_a_reading_said_on_the_other_side_of_its_range_without_its_value_is_wrong():
    kps = ["血糖为8.5mmol/L，高于参考范围。", "凝血酶原时间为12.9秒，在参考范围内。"]
    answer = "患者的血糖在正常范围内，凝血酶原时间延长。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "患者血糖偏高，凝血酶原时间正常。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] != ["Wrong", "Wrong"]


def test_chinese_comparisons_of_speed_and_with_bracketed_values():
    kp = "梁金凤的心率更快。"
    assert label("梁金凤（114次/分）的心率比权淑华（93次/分）慢。", kp, "zh") == "Wrong"
    assert label("梁金凤（114次/分）的心率比权淑华（93次/分）快。", kp, "zh") == "Relevant"


def test_days_against_hours_acquitted_against_convicted_and_a_seeming_guess():
    kps = ["The chief complaint was severe upper abdominal pain.", "The complaint had lasted 25 hours."]
    answer = "The chief complaint was severe upper abdominal pain radiating to the back for 14 days."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Wrong"]
    answer = "The chief complaint was severe upper abdominal pain for about 25 hours."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]
    assert label("Kingsley & Sanchez Law Firm's client, Charles Cox, was acquitted of the fraud charge.",
                 "Charles Cox was convicted of fraud.", "en") == "Wrong"
    answer = "It seems the appeal was dismissed, although the document does not say so explicitly."
    assert judge_keypoints(answer, ["Unable to answer"], "en", unanswerable=True)[0].label == "Wrong"


def test_a_keypoints_small_value_said_of_something_else_is_wrong():
    kp = "Eric Dunn's chief complaint was pain in the right upper abdomen for 2 days."
    assert label("Eric Dunn: fever and nausea for 2 days.", kp, "en") == "Wrong"
    assert label("Eric Dunn had right upper abdominal pain for 2 days.", kp, "en") == "Relevant"
    kp = "Timothy Patel was sentenced to fixed-term imprisonment of 11 years."
    assert label("The court convicted Timothy Patel of embezzlement and gave him 11 years in prison.", kp,
                 "en") == "Relevant"


def test_precision_guards_measures_places_firms_agents_and_term_ends():
    kp = "John Bond was placed in criminal detention on May 25, 2019."
    assert label("John Bond was sentenced to 1 year and 8 months of fixed-term imprisonment.", kp, "en") != "Wrong"
    assert label("证券代码605760；总部：吉林长春。", "润宁文教股份有限公司总部位于吉林省长春市。", "zh") != "Wrong"
    assert label("审计机构远中会计师事务所出具了标准无保留意见。", "远中会计师事务所（特殊普通合伙）出具了标准无保留意见的审计报告。",
                 "zh") == "Relevant"
    kp = "Juan Ortiz underwent transurethral resection of the prostate on April 26, 2024."
    answer = ("Juan Ortiz was admitted on April 23, 2024. His operation, transurethral resection of the prostate, was "
              "performed on April 26, 2024 by Doctor Ken Marsh.")
    assert label(answer, kp, "en") == "Relevant"
    assert label("梁军的刑期自2020年12月9日起算。", "刑期至2028年10月13日届满。", "zh") == "Irrelevant"


def test_kin_offences_vitamins_and_companies_in_the_keypoints_place():
    kp = "In the family history, his mother has coronary heart disease."
    assert label("His father has coronary heart disease.", kp, "en") == "Wrong"
    assert label("His father has hypertension.", kp, "en") != "Wrong"  # says nothing of the heart disease
    assert label("The court found Cal Dunn guilty of abuse of power.", "The crime was taking bribes.", "en") == "Wrong"
    assert judge_keypoints("She was given mecobalamin to support nerve repair.", ["The drug was dexamethasone."], "en",
                           question="Which drug was given?")[0].label == "Wrong"
    kp, q = "证券代码605760对应润宁文教股份有限公司。", "证券代码605760对应哪家公司？"
    assert judge_keypoints("证券代码605760对应的是信海金融服务股份有限公司。", [kp], "zh", question=q)[0].label == "Wrong"


def test_years_against_days_are_different_lengths():
    kps = ["Eric Dunn's chief complaint was pain in the right upper abdomen for 2 days.",
           "Carl Ray's chief complaint was frequent urination at night for 2 years."]
    answer = "Eric Dunn had right upper abdominal pain for 2 years, and Carl Ray had frequent urination at night for 2 days."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]


def test_a_dose_against_a_dose_not_against_a_frequency():
    kps = ["The dose of levofloxacin was 0.5 g.", "It was given intravenously once daily."]
    answer = "She was given levofloxacin 0.2 mg intravenously once a day."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]


def test_a_label_after_its_party_and_upper_for_lower():
    kp = "润宁文教股份有限公司总部位于吉林省长春市。"
    assert label("证券代码605760对应的是信海金融服务股份有限公司，总部位于云南省昆明市。", kp, "zh") == "Wrong"
    kp = "向丹的诊断为慢性阻塞性肺疾病急性加重期。"
    assert label("孙雷被诊断为肺腺癌，向丹的诊断在资料中未找到。", kp, "zh") == "Irrelevant"
    kp = "The chief complaint was severe upper abdominal pain."
    assert label("Roughly 25 hours of severe lower abdominal pain.", kp, "en") == "Wrong"


def test_a_markdown_table_row_owns_its_values():
    kps = ["The zinc segment generated $794.46 million.", "The zinc segment accounted for 58.8% of operating revenue."]
    swapped = "| Segment | Revenue | Share |\n|---|---|---|\n| Zinc | $555.54M | 41.2% |\n| Mining services | $794.46M | 58.8% |"
    assert [lab.label for lab in judge_keypoints(swapped, kps, "en")] == ["Wrong", "Wrong"]
    right = "| Segment | Revenue | Share |\n|---|---|---|\n| Zinc | $794.46M | 58.8% |\n| Mining services | $555.54M | 41.2% |"
    assert [lab.label for lab in judge_keypoints(right, kps, "en")] == ["Relevant", "Relevant"]


def test_last_years_figure_against_this_years():
    kps = ["上年同期营业收入为147.95亿元。", "2018年度营业收入为182.26亿元。"]
    swapped = "2018年度营业收入为147.95亿元，上年同期为182.26亿元。"
    assert [lab.label for lab in judge_keypoints(swapped, kps, "zh")] == ["Wrong", "Wrong"]
    assert judge_keypoints("达明软件2018年营业收入182.26亿元。", kps, "zh")[0].label == "Irrelevant"
    kp = "Revenue in the previous year was $319.28 million."
    answer = "Revenue for the year reached $2.95 billion, compared with $2.8 billion in the prior year."
    assert label(answer, kp, "en") == "Wrong"
    assert label("碳排放强度较上年下降了百分之二点八。", "远开建工股份有限公司碳排放强度下降2.8%。", "zh") == "Relevant"


def test_exchanged_values_paraphrased_clauses_and_a_status_beside_another_reading():
    kp = "The ultrasound showed an enlarged prostate of about 55 mL, with a post-void residual of 160 mL."
    assert label("The ultrasound showed an enlarged prostate of about 160 mL, with a post-void residual of 55 mL.",
                 kp, "en") == "Wrong"
    assert label("US: enlarged prostate ~55 mL, PVR 160 mL.", kp, "en") == "Relevant"
    kp = "The maximum urinary flow rate was 7.2 mL/s, below the reference range."
    assert label("Tests showed a low maximum urinary flow rate of 7.2 mL/s and a raised PSA of 4.6 ng/mL.", kp,
                 "en") == "Relevant"
    kp = "该事项的结果是该合同标志着公司成功开拓新的客户群体。"
    assert label("公司表示这份合同意味着其成功拓展了新的客户群体。", kp, "zh") != "Wrong"


def test_a_drugs_dose_route_and_frequency_belong_to_that_drug():
    kps = ["使用头孢呋辛，剂量1.5g，静脉滴注，每日2次。", "使用氟比洛芬酯，剂量50mg，静脉注射，每日2次。"]
    answer = "用药：头孢呋辛1.5g ivgtt bid；氟比洛芬酯50mg iv qd。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Wrong"]
    answer = "术后予头孢呋辛1.5g静滴每日2次。"  # partial: the other drug is not named
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")][1] == "Irrelevant"
    assert judge_keypoints("病历中没有责任护士的信息。", ["无法回答"], "zh", unanswerable=True)[0].label == "Relevant"


def test_audit_opinions_drug_offences_and_a_drug_named_as_the_drug():
    assert label("审计意见为带强调事项段的无保留意见。", "审计意见类型为标准无保留意见。", "zh") == "Wrong"
    assert label("审计机构出具了标准无保留意见。", "审计意见类型为标准无保留意见。", "zh") == "Relevant"
    assert label("He was convicted of illegal possession of drugs.", "The crime was drug trafficking.", "en") == "Wrong"
    assert judge_keypoints("He was given aspirin 100 mg orally once daily.", ["The drug was butylphthalide injection."],
                           "en", question="Which drug was given to improve collateral circulation?")[0].label == "Wrong"


def test_a_firm_the_question_asks_for_named_otherwise_or_named_right():
    kp = "华信会计师事务所（特殊普通合伙）负责审计星河科技股份有限公司的年度财务报表。"
    facts = [[{"doc_id": 1, "key": "auditor", "kind": "organisation", "text": "华信会计师事务所（特殊普通合伙）",
               "value": "华信会计师事务所（特殊普通合伙）"}]]
    question = "星河科技股份有限公司的年度审计机构是哪家？"

    def judged(answer: str) -> str:
        return judge_keypoints(answer, [kp], "zh", keypoint_facts=facts, question=question)[0].label

    assert judged("年度审计机构为远达会计师事务所（特殊普通合伙）。") == "Wrong"
    assert judged("负责审计的是华信会计师事务所（特殊普通合伙）。") == "Relevant"
    assert judged("审计意见为标准无保留意见。") == "Irrelevant"


def test_a_gap_between_two_values_is_no_reading_of_either_and_jiebas_split_labels_still_match():
    kps = ["张明入院时63岁。", "李强入院时48岁。"]
    got = judge_keypoints("张明入院时63岁，李强51岁，张明比李强大12岁。", kps, "zh")
    assert [lab.label for lab in got] == ["Relevant", "Wrong"]
    got = judge_keypoints("张明入院时63岁，张明比李强大15岁。", kps, "zh")
    assert got[1].label == "Irrelevant"  # the gap says nothing of 李强's own age
    kps = ["红细胞沉降率检测结果为12mm/h。", "参考范围为0～20mm/h，结果在参考范围内。"]
    assert judge_keypoints("张明入院时63岁，李强51岁。", ["李强入院时48岁。"], "zh")[0].label == "Wrong"
    got = judge_keypoints("患者的红细胞沉降率为8mm/h，参考范围0～20mm/h，在参考范围内。", kps, "zh")
    assert got[0].label == "Wrong"
    kp = "Follow-up falls 8 days after discharge."
    assert label("He left on May 2 and is due back on May 11, 9 days later.", kp, "en") == "Wrong"


def test_a_value_ends_before_the_line_break_so_each_list_item_is_its_own_sentence():
    text = "R&D spending:\n- Alpha Corp: USD 40,500,000\n- Beta Inc: USD 61,200,000\n\nAlpha spent less."
    assert [v.text for v in values(text, "en")] == ["USD 40,500,000", "USD 61,200,000"]
    kps = ["Alpha Corp spent $40.5 million on research and development.",
           "Beta Inc spent $75.3 million on research and development."]
    assert [lab.label for lab in judge_keypoints(text, kps, "en")] == ["Relevant", "Wrong"]


def test_the_one_amount_a_how_much_question_gets_and_the_figure_beside_the_keypoints_own_date():
    kps = ["1. 该收购事项的相关方为远景能源有限公司。", "2. 涉及金额3.18亿元。"]
    question = "2021年5月9日，华北电力股份有限公司的收购事项的相关方是谁，金额是多少？"
    got = judge_keypoints("华北电力以4.26亿元收购了远景能源有限公司。", kps, "zh", question=question)
    assert [lab.label for lab in got] == ["Relevant", "Wrong"]
    got = judge_keypoints("华北电力收购了远景能源有限公司，金额未披露。", kps, "zh", question=question)
    assert got[1].label == "Irrelevant"
    kps = ["The financing on May 4, 2021 involved $41.2 million.",
           "The acquisition on September 9, 2021 involved $63.8 million."]
    answer = "In 2021 the group raised $41.2 million on May 4 and bought a 60% stake in a rival on September 9 for " \
             "$95.1 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Wrong"]


def test_a_dated_procedure_said_as_another_procedure_on_that_date():
    kp = "2. Mark Olsen underwent laparoscopic cholecystectomy on March 4, 2023."
    facts = [[{"doc_id": 1, "key": "procedure.name", "kind": "text", "text": "laparoscopic cholecystectomy",
               "value": "laparoscopic cholecystectomy"},
              {"doc_id": 1, "key": "procedure.date", "kind": "date", "text": "March 4, 2023", "value": "2023-03-04"}]]

    def judged(answer: str) -> str:
        return judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label

    assert judged("Mark Olsen had an endoscopic retrograde cholangiopancreatography on March 4, 2023.") == "Wrong"
    assert judged("On March 4, 2023 Mark Olsen underwent a laparoscopic cholecystectomy.") == "Relevant"


def test_a_date_said_as_another_events_date_and_events_named_after_a_chinese_date():
    kps = ["法院于2022年3月2日公开开庭审理。", "法院于2022年3月25日作出判决。"]
    answer = "2021年11月8日刑事拘留，2022年1月10日提起公诉，2022年3月25日开庭审理，2022年3月2日作出判决。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "2022年1月10日，某区人民检察院提起公诉；2022年3月2日，法院公开开庭审理；2022年3月25日，法院作出判决。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]
    kp = "The public hearing was held on May 6, 2021."
    assert label("The court heard the case and gave judgment on May 6, 2021.", kp, "en") == "Relevant"


def test_a_street_named_after_a_preposition_is_a_place_not_a_party():
    from dragonforge.judge.entities import _entity_en
    assert _entity_en("Robinson Harbors", after_number=True) is None
    assert _entity_en("Robinson Harbors") is not None  # two capitalised words alone may be a person
    kps = ["The offence of Tom Baker was committed on June 3, 2023.", "The offence of Ann Cole was committed on May 1, 2022."]
    answer = "Tom Baker: offence on June 9, 2023 at the square on Robinson Harbors. Ann Cole: offence on May 1, 2022 " \
             "at the corner of Vargas Vista and Lynn Manor."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Relevant"]


def test_a_person_with_a_rarer_surname_is_still_a_party():
    kps = ["1. 祁红的住院总费用为3.15万元。", "2. 呼晓梅的住院总费用为7.42万元。"]
    answer = "呼晓梅的住院总费用较低，为3.15万元；祁红为7.42万元。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]


@pytest.mark.parametrize("text, language, minutes", [("19时40分许", "zh", 1180), ("晚上7点40分左右", "zh", 1180),
                                                     ("晚九时四十分", "zh", 1300), ("下午3点半", "zh", 930),
                                                     ("at about 10:50 pm", "en", 1370), ("at 22:50", "en", 1370)])
def test_a_time_of_day_is_read_as_minutes_after_midnight(text, language, minutes):
    got = [v for v in values(text, language) if v.unit == "time of day"]
    assert [v.value for v in got] == [minutes]


def test_a_time_of_day_said_otherwise_and_a_duration_in_other_units():
    kp = "案发时间为21时15分许。"
    assert label("案发时间为当晚9点15分左右。", kp, "zh") == "Relevant"
    assert label("案发时间为上午9时15分许。", kp, "zh") == "Wrong"
    kp = "The complaint had lasted 30 hours."
    assert label("Her chief complaint was back pain that had lasted 6 months.", kp, "en") == "Wrong"


def test_a_chinese_semicolon_ends_what_is_said_of_one_party():
    kps = ["1. 华星物流股份有限公司所属行业为交通运输。", "2. 远达通信股份有限公司所属行业为电信。"]
    answer = "华星物流股份有限公司总部位于湖北省武汉市，所属行业为电信；远达通信股份有限公司总部位于江苏省南京市，所属行业为交通运输。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "华星物流股份有限公司所属行业为交通运输；远达通信股份有限公司所属行业为电信。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]


def test_a_count_of_a_named_thing_and_a_share_of_the_whole_after_a_pronoun():
    assert [(v.value, v.unit) for v in values("It had 7 directors and 265 Walters Dam.", "en")][:1] == [(7, "n:director")]
    assert label("The board had 7 directors and met 8 times.", "The board met 7 times.", "en") == "Wrong"
    assert label("It held 3 general meetings.", "The company held 3 shareholders' meetings.", "en") == "Relevant"
    kp = "The retail segment accounted for 52.4% of operating revenue."
    answer = "Retail was the largest business line. It brought in about $300 million, around 31.8% of the group's " \
             "$1.2 billion in operating revenue."
    assert label(answer, kp, "en") == "Wrong"


def test_a_comparison_keypoint_needs_the_answer_to_compare():
    kps = ["1. 甲的罚金为人民币20万元。", "2. 乙的罚金为人民币35万元。", "3. 乙的罚金更多。"]
    assert judge_keypoints("甲：20万元；乙：35万元。", kps, "zh")[2].label == "Irrelevant"
    assert judge_keypoints("甲的罚金为20万元，乙为35万元，乙的罚金略多。", kps, "zh")[2].label == "Relevant"
    assert judge_keypoints("乙被判罚金35万元，多于甲。", kps, "zh")[2].label == "Relevant"
    kp = "Adams Group donated more."
    assert label("Adams Group gave $5 million and Bell Corp $1.3 million, so Adams Group gave about 3.8 times as "
                 "much.", kp, "en") == "Relevant"
    assert label("Adams Group gave $5 million. I couldn't find Bell Corp's figure, so I can't say which gave more.",
                 kp, "en") == "Irrelevant"
    assert label("I couldn't find Bell Corp's figure, so I can't be certain, but Adams Group probably gave more.",
                 kp, "en") == "Relevant"


def test_hours_for_days_grams_per_decilitre_an_age_said_of_its_party_and_a_chinese_not_confirmed():
    assert label("陈某：黑便48小时。", "陈某的主诉为解黑便2天。", "zh") == "Relevant"
    assert label("血清白蛋白为4.44 g/dL。", "血清白蛋白检测结果为44.4g/L。", "zh") == "Relevant"
    kps = ["1. 被告人刘某作案时54周岁。", "2. 被告人吴某作案时36周岁。"]
    got = judge_keypoints("据记载，刘某案发时应为55周岁，吴某为36周岁。", kps, "zh")
    assert [lab.label for lab in got] == ["Wrong", "Relevant"]
    assert label("吴某的主诉似乎是胸痛；陈某的主诉我没能在资料中确认。", "陈某的主诉为解黑便2天。", "zh") == "Irrelevant"


def test_offences_given_each_to_the_other_party_and_more_offence_names():
    kps = ["John Reed was convicted of picking quarrels and provoking trouble.",
           "Dan Moss was convicted of causing a traffic accident."]
    answer = "John Reed received 1 year for causing a traffic accident, and Dan Moss 2 years for picking quarrels " \
             "and provoking trouble."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    answer = "John Reed: 1 year for intentional injury. Dan Moss: 2 years for dangerous driving."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]


def test_a_place_fact_said_as_another_place_in_its_frame():
    def place(kp: str, text: str, answer: str, language: str) -> str:
        facts = [[{"doc_id": 1, "key": "headquarters", "kind": "place", "text": text, "value": text}]]
        return judge_keypoints(answer, [kp], language, keypoint_facts=facts)[0].label

    kp = "It is headquartered in Austin, Texas."
    assert place(kp, "Austin, Texas", "Founded in 2001 and based in Dallas, Texas, it is a chemicals maker.", "en") == "Wrong"
    assert place(kp, "Austin, Texas", "Its head office is in Austin, TX.", "en") != "Wrong"
    assert place(kp, "Austin, Texas", "It makes chemicals and is listed on the Nasdaq.", "en") == "Irrelevant"
    kp = "华光电信股份有限公司总部位于湖北省武汉市。"
    assert place(kp, "湖北省武汉市", "华光电信的总部设在湖北宜昌，所处行业为电信。", "zh") == "Wrong"
    assert place(kp, "湖北省武汉市", "华光电信总部在湖北武汉。", "zh") == "Relevant"
    assert place(kp, "湖北省武汉市", "抱歉，现有资料中没有这家公司的总部及行业信息。", "zh") == "Irrelevant"


def test_surrender_for_confession_and_no_record_said_with_meiyou():
    assert label("被告人作案后主动投案，构成自首。", "被告人王某系坦白。", "zh") == "Wrong"
    assert label("王某归案后如实供述自己的罪行。", "被告人王某系坦白。", "zh") != "Wrong"
    assert label("王某有前科，系累犯。", "被告人王某系坦白。", "zh") != "Wrong"
    assert label("法院注意到王某没有前科。", "被告人王某无前科。", "zh") != "Wrong"
    assert label("He turned himself in to the police.", "The defendant made a truthful confession.", "en") == "Wrong"


def test_an_organisation_in_a_firms_place_and_a_person_by_whom_it_was_done():
    kp = "Hale and Ortiz LLP audited the financial statements of Brook Media Holdings."
    facts = [[{"doc_id": 1, "key": "auditor", "kind": "organisation", "text": "Hale and Ortiz LLP",
               "value": "Hale and Ortiz LLP"}]]
    question = "Who audited Brook Media Holdings, and what opinion was issued?"

    def judged(answer: str) -> str:
        return judge_keypoints(answer, [kp], "en", keypoint_facts=facts, question=question)[0].label

    assert judged("The financial statements were audited by Owen Price, the director who chairs the audit "
                  "committee.") == "Wrong"
    assert judged("The statements were audited by Grant Securities, which issued a clean opinion.") == "Wrong"
    assert judged("Prosecutor Owen Price represented the prosecution.") != "Wrong"
    assert judged("The auditor issued an unqualified opinion.") == "Irrelevant"


def test_the_keypoints_topic_denied_outright():
    assert label("According to the record, she was not given levofloxacin; she took tamsulosin 0.2 mg.",
                 "The dose of levofloxacin was 0.5 g.", "en") == "Wrong"
    assert label("患者未接受手术，经保守治疗后好转出院。", "随后于2021年5月3日接受了胸腔镜下肺大疱切除术。", "zh") == "Wrong"
    assert label("法院判处其有期徒刑十个月，未适用缓刑。", "缓刑考验期为一年三个月。", "zh") == "Wrong"
    assert label("The case was tried in a closed, non-public hearing on May 2, 2020.",
                 "The public hearing was held on May 2, 2020.", "en") == "Wrong"
    assert label("会计师事务所出具的并非标准无保留意见，而是保留意见。", "审计意见类型为标准无保留意见。", "zh") == "Wrong"
    assert label("报告期内公司主营业务未发生重大变化。", "2022年3月15日发生诉讼事项，涉及金额974.35万元。", "zh") != "Wrong"


def test_a_total_said_as_a_total_and_nothing_recorded_is_a_refusal():
    kps = ["Ann Lee stayed 12 days.", "Bo Chen stayed 11 days.", "Together they spent 23 days in hospital."]
    got = judge_keypoints("Ann Lee stayed 12 days and Bo Chen 11 days; combined, 23 days.", kps, "en")
    assert [lab.label for lab in got] == ["Relevant", "Relevant", "Relevant"]
    assert label("She was discharged on May 2. No follow-up date is recorded in the passages provided.",
                 "The follow-up visit is on May 10, 2022.", "en") == "Irrelevant"


def test_days_after_discharge_a_month_as_thirty_days_and_not_retrieved():
    kp = "复诊时间为出院后33天。"
    assert label("郑某2022年6月26日出院，2022年7月29日复诊，相隔32天。", kp, "zh") == "Wrong"
    assert label("主诉：左乳无痛性肿物；病程约30天。", "症状持续1个月。", "zh") == "Relevant"
    assert label("病程约45天。", "症状持续1个月。", "zh") != "Relevant"
    assert [v.text for v in values("出院后第三十三天复诊", "zh")] != ["十三天"]
    assert label("某公司年度股东大会的召开时间未能检索到。", "某公司于2022年5月21日召开年度股东大会。", "zh") == "Irrelevant"


def test_the_figure_beside_the_date_another_keypoint_gives_the_same_event():
    kps = ["1. The first major event of Lane Foods was its acquisition on March 16, 2018.",
           "2. The first major event of Lane Foods involved $15.21 million."]
    answer = "Lane Foods began the year with an acquisition on March 16, 2018, for roughly $12.1 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Wrong"]
    kps = ["使用头孢呋辛，剂量1.5g，静脉滴注，每日2次。"]
    assert judge_keypoints("2022年2月18日术后予氨溴索30mg静注bid化痰。", kps, "zh")[0].label == "Irrelevant"


def test_the_keypoints_value_given_to_a_party_only_the_answer_names():
    assert label("The largest shareholder is Ruth Park, the chair of the board, who holds 36.48% of the shares.",
                 "Adams Capital holds 36.48% of the shares.", "en") == "Wrong"
    kps = ["1. Lane Mining had 7,848 employees.", "2. Kerr Resorts had 2,232 employees."]
    answer = "Kerr Resorts employed more people, with 7,848 employees, compared with 2,232 at Lane Mining."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]


def test_another_currency_and_outside_the_reference_range():
    assert label("双方于2019年3月25日签约，计划投入2.21亿美元。", "计划投入2.21亿元。", "zh") == "Wrong"
    assert label("双方签约，计划投入2.21亿元人民币。", "计划投入2.21亿元。", "zh") == "Relevant"
    assert label("红细胞沉降率为9mm/h，超出参考范围（0～20mm/h）。", "参考范围为0～20mm/h，结果在参考范围内。", "zh") == "Wrong"


def test_a_type_numbered_otherwise():
    assert label("诊断为慢性阻塞性肺疾病急性加重期伴Ⅰ型呼吸衰竭。", "诊断为慢性阻塞性肺疾病急性加重期伴Ⅱ型呼吸衰竭。", "zh") == "Wrong"
    assert label("诊断为2型糖尿病。", "诊断为2型糖尿病。", "zh") == "Relevant"


def test_a_bare_year_must_name_the_keypoints_event():
    kp = "Lane Foods was founded in 1994."
    assert label("Lane Foods is chaired by Ann Lee. In 2020 its revenue rose 31% to $2.2 billion.", kp, "en") == \
        "Irrelevant"
    assert label("Lane Foods was established in 1990 and is based in Austin.", kp, "en") == "Wrong"
    assert label("这家公司创立于1990年，总部设在长春。", "润宁文教股份有限公司成立于2012年。", "zh") == "Wrong"


def test_the_next_readings_status_is_not_this_ones_and_nothing_highlighted_is_a_refusal():
    kp = "The D-dimer result was 1.82 mg/L, above the reference range."
    assert label("His D-dimer was elevated at 1.82 mg/L, his hemoglobin was low at 83 g/L.", kp, "en") == "Relevant"
    assert label("The D-dimer was 1.82 mg/L. No other results are highlighted in the record.",
                 "The serum albumin result was 31.4 g/L, below the reference range.", "en") == "Irrelevant"


def test_the_prison_term_found_as_the_probation():
    assert label("林某被判处有期徒刑一年三个月，缓刑一年。", "被告人林某被判处有期徒刑一年。", "zh") == "Wrong"
    assert label("林某被判处有期徒刑一年，缓刑一年三个月。", "被告人林某被判处有期徒刑一年。", "zh") == "Relevant"
    kp = "The sentence was suspended with probation of 2 years and 11 months."
    assert label("He got 2 years and 11 months of fixed-term imprisonment, suspended with a probation period of 1 year "
                 "and 5 months.", kp, "en") == "Wrong"


def test_a_day_numbered_is_no_length():
    assert [(v.kind, v.unit) for v in values("postoperative day 2", "en")] == [("count", "day")]
    assert label("She was probably discharged on January 23 (postoperative day 2), after a stay of 2 days.",
                 "The stay lasted 5 days.", "en") == "Wrong"


def test_a_reading_written_without_its_unit():
    assert label("C反应蛋白检测值为91.9，高于参考范围。", "C反应蛋白检测结果为44.1mg/L。", "zh") == "Wrong"
    assert label("C反应蛋白检测值为44.1，高于参考范围。", "C反应蛋白检测结果为44.1mg/L。", "zh") == "Relevant"


def test_a_clause_naming_no_one_is_about_the_party_before_it_and_a_victim_named_before_a_sum():
    kps = ["2. 华远网络股份有限公司获得标准无保留意见的审计报告。", "4. 宁丰金融服务股份有限公司获得带强调事项段的无保留意见的审计报告。"]
    answer = "华远网络股份有限公司的年度审计机构为康达会计师事务所（特殊普通合伙），出具了标准无保留意见的审计报告。"
    assert judge_keypoints(answer, kps, "zh")[1].label != "Wrong"
    kp = "被告人夏某作案时22周岁。"
    assert label("法院考虑了夏某赔偿被害人王琳3.4万元并取得谅解的情况，夏某案发时22周岁。", kp, "zh") == "Relevant"
    assert label("抱歉，检索到的文档中没有这两家公司审计机构及审计意见的相关信息。", kps[0], "zh") == "Irrelevant"
    assert label("家族史：母亲患高血压，父亲患2型糖尿病。", "家族史：父亲患高血压，母亲患2型糖尿病。", "zh") == "Wrong"


def test_an_opinion_said_with_a_longer_member_and_opinions_swapped_between_two_companies():
    kp = "The auditor Reed and Hale LLP issued an unqualified opinion."
    assert label("Reed and Hale LLP issued an unqualified opinion with an emphasis of matter paragraph.", kp, "en") == \
        "Wrong"
    assert label("Reed and Hale LLP issued an unqualified opinion.", kp, "en") == "Relevant"
    kps = ["2. 华远网络股份有限公司获得标准无保留意见的审计报告。", "4. 宁丰金融服务股份有限公司获得带强调事项段的无保留意见的审计报告。"]
    answer = "华远网络（审计机构：金华会计师事务所）获得的是带强调事项段的无保留意见；宁丰金融服务（审计机构：达宏会计师事务所）获得的是标准无保留意见。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]


def test_a_frequency_clause_belongs_to_the_drug_before_it_and_more_chinese_drug_stems():
    kps = ["使用甲泼尼龙，剂量40mg，静脉滴注，每日1次。", "使用哌拉西林他唑巴坦，剂量4.5g，静脉滴注，每8小时1次。"]
    answer = "甲泼尼龙40mg口服，每日1次；哌拉西林他唑巴坦4.5g静脉滴注，每12小时1次。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "予甲泼尼龙40mg静脉滴注（每日1次）及哌拉西林他唑巴坦4.5g静脉滴注（每8小时1次）。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]


def test_wu_inside_a_term_is_no_negation():
    kp = "2024年3月22日接受经口鼻面罩无创正压通气治疗。"
    assert label("主要治疗：2024年3月22日起行经口鼻面罩无创正压通气；甲泼尼龙40mg口服。", kp, "zh") == "Relevant"
    assert label("提供的资料中没有陈某的治疗记录，无法概述。", kp, "zh") == "Irrelevant"
    assert label("主诉为发现左乳疼痛性肿块。", "主诉为发现左乳腺无痛性肿块。", "zh") == "Wrong"


def test_a_chinese_term_with_a_longer_part_said_otherwise_before_its_head():
    kp, facts = "该案起因为合同纠纷。", _facts("text", "合同纠纷")
    for answer, want in [("该案系交通事故纠纷，涉案金额120万元。", "Wrong"), ("该案为合同纠纷，涉案金额120万元。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == want
    kp, facts = "院外情况：伤后由救护车送入我院。", _facts("text", "伤后由救护车送入我院")
    assert judge_keypoints("院外诊治：伤后由家属陪同转入我院。", [kp], "zh", keypoint_facts=facts)[0].label == "Wrong"
    # a term is looked for at each word's start, the longer part may not open inside a word, nor be a generic word
    assert judge_keypoints("王某犯运输毒品罪，判处有期徒刑三年。", ["被告人王某犯贩卖毒品罪。"], "zh",
                           keypoint_facts=_facts("category", "贩卖毒品罪"))[0].label == "Wrong"
    assert label("公司营业收入按业务板块构成如下。", "收入最少的是物业管理板块。", "zh") != "Wrong"


def test_another_person_or_firm_in_a_labelled_role_of_the_company_the_question_leaves_unnamed():
    kps = ["Tom Reed is Chief Executive Officer of Kent Mining Group.",
           "The audit committee of Kent Mining Group is chaired by Ada Cole."]
    facts = [[{"doc_id": 1, "key": "ceo", "kind": "person", "text": "Tom Reed", "value": "Tom Reed", "unit": None},
              {"doc_id": 1, "key": "company_name", "kind": "organisation", "text": "Kent Mining Group",
               "value": "Kent Mining Group", "unit": None}],
             [{"doc_id": 1, "key": "audit_committee_chair", "kind": "person", "text": "Ada Cole", "value": "Ada Cole",
               "unit": None}]]
    asked = "Who chairs the audit committee of the company whose Chief Executive Officer is Tom Reed?"
    got = judge_keypoints("Audit committee chair: Nora Bell.", kps, "en", keypoint_facts=facts, question=asked)
    assert [lab.label for lab in got] == ["Irrelevant", "Wrong"]
    got = judge_keypoints("Audit committee chair: Ada Cole.", kps, "en", keypoint_facts=facts, question=asked)
    assert got[1].label == "Relevant"
    # the role said of another company of the query, in the same sentence as this one, is no stand-in
    kps = ["The Chief Executive Officer of Kent Mining Group is Ada Cole.",
           "The Chief Executive Officer of Lark Foods Group is Ivy Fox."]
    answer = "Kent Mining Group's chair is Ben Hall, and Lark Foods Group's chief executive is Kim Orr."
    facts = [[{"doc_id": 1, "key": "ceo", "kind": "person", "text": "Ada Cole", "value": "Ada Cole", "unit": None}],
             [{"doc_id": 2, "key": "ceo", "kind": "person", "text": "Ivy Fox", "value": "Ivy Fox", "unit": None}]]
    assert judge_keypoints(answer, kps, "en", keypoint_facts=facts)[0].label == "Irrelevant"
    kp, facts = "The auditor Cole and Finch LLP issued an unqualified opinion.", _facts("organisation", "Cole and Finch LLP")
    answer = "The board had 8 directors. The statements were audited by Baker Securities, which issued an unqualified opinion."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"


def test_the_one_amount_said_of_a_party_answers_a_slot_whose_label_is_the_questions():
    asked = "What did Kent Mining Group and Lark Foods Group each disclose as their first major event of the year?"
    kps = ["The first major event of Kent Mining Group was its acquisition on March 3, 2020.",
           "The first major event of Kent Mining Group involved $12.5 million.",
           "The first major event of Lark Foods Group was its financing on May 9, 2021.",
           "The first major event of Lark Foods Group involved $88.1 million."]
    answer = ("Kent Mining Group: a bond issue of $40.2 million on June 1, 2020. "
              "Lark Foods Group: a financing raising $88.1 million on May 9, 2021.")
    got = [lab.label for lab in judge_keypoints(answer, kps, "en", question=asked)]
    assert got == ["Wrong", "Wrong", "Relevant", "Relevant"]
    # a keypoint that labels its value itself ("净利润为X") is not answered by another figure of the party
    asked = "远山股份有限公司的净利润比青禾股份有限公司高还是低？"
    kps = ["1. 远山股份有限公司净利润为7,225万元。", "2. 青禾股份有限公司净利润为1.3亿元。"]
    answer = "远山股份营业收入10.75亿元，高于青禾股份的8.64亿元。"
    assert judge_keypoints(answer, kps, "zh", question=asked)[0].label == "Irrelevant"


def test_wu_li_is_weakness_and_a_negation_is_read_past_the_window_that_finds_it():
    kp = "突发头晕伴左侧肢体无力系急性脑梗死所致。"
    assert label("患者最终诊断为急性脑梗死，予溶栓治疗。", kp, "zh") != "Wrong"
    assert label("患者因“突发左侧肢体无力2小时”入院。资料中没有其家族史。", "患者主诉为突发左侧肢体无力2小时。", "zh") == "Relevant"
    assert label("患者无头晕，左侧肢体无力。", "伴有头晕。", "zh") == "Wrong"


def test_a_value_the_question_gives_said_otherwise_for_its_own_event_is_wrong():
    asked = "Which judge presided at the hearing that the Kent District court held on May 15, 2021?"
    kps = ["1. The hearing was held on May 15, 2021.", "2. Ada Cole presided over it."]
    facts = [[{"doc_id": 1, "key": "hearing_date", "kind": "date", "text": "May 15, 2021", "value": "2021-05-15",
               "unit": None}],
             [{"doc_id": 1, "key": "presiding_judge", "kind": "person", "text": "Ada Cole", "value": "Ada Cole",
               "unit": None}]]
    got = judge_keypoints("At the hearing held on May 27, 2021, Ada Cole presided.", kps, "en", keypoint_facts=facts,
                          question=asked)
    assert [lab.label for lab in got] == ["Wrong", "Relevant"]
    # another event's date is no answer about the question's
    got = judge_keypoints("Ada Cole presided; the judgment followed on June 3, 2021.", kps, "en", keypoint_facts=facts,
                          question=asked)
    assert got[0].label != "Wrong" and got[1].label == "Relevant"


def test_not_beyond_the_range_is_within_it_and_a_status_said_of_both_readings_is_each_ones():
    kps = ["1. 血尿酸为520μmol/L，高于参考范围。", "2. 血肌酐为130μmol/L，高于参考范围。"]
    for answer in ["血尿酸为520μmol/L，高于参考范围；血肌酐130μmol/L和血钾4.1mmol/L均未超出参考范围。",
                   "血尿酸520μmol/L（高于参考范围），血肌酐130μmol/L未超出参考范围。",
                   "患者血尿酸为520μmol/L，高于参考范围；血肌酐130μmol/L和尿素7.1mmol/L都在参考范围内。"]:
        assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Wrong"]
    answer = "血尿酸520μmol/L和血肌酐130μmol/L均高于参考范围。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]
    assert label("心电图提示V5、V6导联ST段压低1.5mm。", "心电图提示V5、V6导联ST段抬高1.5mm。", "zh") == "Wrong"


def test_a_negated_comparative_says_the_other_way_round():
    kps = ["1. Kent Mining Group's net profit was $12.1 million.", "2. Lark Foods Group's net profit was $9.4 million.",
           "3. Kent Mining Group's net profit was higher."]
    answer = "Kent Mining Group's net profit was not higher than Lark Foods Group's."
    assert judge_keypoints(answer, kps, "en")[2].label == "Wrong"
    answer = "Lark Foods Group's net profit was not higher than Kent Mining Group's."
    asked = "Which company had the higher net profit, Kent Mining Group or Lark Foods Group?"
    assert judge_keypoints(answer, kps, "en", question=asked)[2].label == "Relevant"
    kps = ["1. 远山股份有限公司的净利润为1.2亿元。", "2. 青禾股份有限公司的净利润为0.9亿元。", "3. 远山股份有限公司的净利润更高。"]
    assert judge_keypoints("远山股份的净利润并不高于青禾股份。", kps, "zh")[2].label == "Wrong"
    assert judge_keypoints("青禾股份的净利润不比远山股份高。", kps, "zh")[2].label == "Relevant"


def test_a_role_no_one_held_denies_the_keypoints_person_in_it():
    kp = "People's assessor Nora Bell sat on the panel."
    facts = _facts("person", "Nora Bell")
    answer = "Professional judges heard the case. No people's assessor took part."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "Professional judges heard the case; the documents do not name a people's assessor."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Irrelevant"
    kp = "辩护人为周敏。"
    assert judge_keypoints("被告人未委托辩护人，当庭认罪。", [kp], "zh", keypoint_facts=_facts("person", "周敏"))[0].label == "Wrong"


def test_the_party_a_comparison_is_made_with_is_not_its_subject_and_a_winner_may_follow():
    kps = ["1. 王芳入院时心率为102次/分。", "2. 李强入院时心率为88次/分。", "3. 王芳的心率更快。"]
    answer = "李强入院时心率为88次/分，比王芳的102次/分要慢，所以两人中心率较快的是王芳。"
    assert judge_keypoints(answer, kps, "zh")[2].label == "Relevant"
    answer = "王芳入院时心率为102次/分，比李强的88次/分要慢，所以两人中心率较快的是李强。"
    assert judge_keypoints(answer, kps, "zh")[2].label == "Wrong"


def test_a_total_belongs_to_the_keypoint_that_gives_the_total():
    kps = ["1. Ann Park stayed 9 days.", "2. Joe Lin stayed 6 days.", "3. Together they spent 15 days in hospital."]
    answer = "Ann Park spent 9 days in hospital and Joe Lin spent 6 days, 15 days in total."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant", "Relevant"]
    answer = "Ann Park stayed 9 days and Joe Lin 6 days, so 9 + 6 = 16 days in total."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant", "Wrong"]
    kps = ["1. 曾华住院5天。", "2. 曹军住院6天。", "3. 两人合计住院11天。"]
    answer = "曾华住院6天，曹军住院5天，两人合计住院11天。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong", "Relevant"]


def test_two_people_opening_a_joint_figure_is_who_not_a_count_to_state():
    kps = ["1. 曾华住院5天。", "2. 曹军住院6天。", "3. 两人合计住院11天。"]
    assert judge_keypoints("曾华住院5天，曹军住院6天，合计十一天。", kps, "zh")[2].label == "Relevant"
    assert label("该公司有三人受到处分。", "该公司有两人受到处分。", "zh") == "Wrong"  # a count that is the fact


def test_a_dated_procedure_said_otherwise_before_a_bracket_and_no_before_a_longer_name():
    kp = "1. She underwent laparoscopic appendectomy on May 3, 2022."
    facts = [[{"doc_id": 1, "key": "procedure.name", "kind": "text", "text": "laparoscopic appendectomy",
               "value": "laparoscopic appendectomy", "unit": None},
              {"doc_id": 1, "key": "procedure.date", "kind": "date", "text": "May 3, 2022", "value": "2022-05-03",
               "unit": None}]]
    answer = "She had gallbladder surgery (open cholecystectomy) on May 3, 2022, then cefazolin 1 g."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "She underwent laparoscopic appendectomy (keyhole) on May 3, 2022."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"
    kp = "The transesophageal echocardiography showed no thrombus in the left atrial appendage."
    assert label("TEE: no LAA thrombus.", kp, "en") == "Relevant"
    assert label("The TEE showed no left atrial appendage thrombus.", kp, "en") == "Relevant"
    assert label("TEE: a left atrial appendage thrombus.", kp, "en") == "Wrong"


def test_a_persons_occupation_said_otherwise_beside_their_age():
    kp = "1. Ada Cole is a retired nurse aged 71 years."
    facts = [[{"doc_id": 1, "key": "occupation", "kind": "category", "text": "retired nurse", "value": "retired nurse",
               "unit": None},
              {"doc_id": 1, "key": "age", "kind": "count", "text": "71 years", "value": 71, "unit": None}]]
    assert judge_keypoints("Ada Cole is a retired welder aged 71.", [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    assert judge_keypoints("Ada Cole, 71, is a retired nurse.", [kp], "en", keypoint_facts=facts)[0].label == "Relevant"


def test_a_number_that_names_a_kind_is_no_value_and_a_party_named_only_in_a_refusal_is_not_the_subject():
    assert [v.text for v in values("The diagnosis was type 2 diabetes; a 12-lead ECG was normal.", "en")] == []
    assert [v.text for v in values("诊断为2型糖尿病，12导联心电图正常，空腹血糖9.1mmol/L。", "zh")] == ["9.1mmol/L"]
    kps = ["1. 王芳的诊断为2型糖尿病合并糖尿病肾病。", "2. 李强的诊断为2型糖尿病合并糖尿病足。"]
    answer = "王芳诊断为2型糖尿病合并糖尿病肾病；李强诊断为2型糖尿病合并糖尿病视网膜病变。"
    assert judge_keypoints(answer, kps, "zh")[0].label == "Relevant"
    answer = "李强被诊断为2型糖尿病合并糖尿病足，资料中没有找到王芳的诊断。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Irrelevant", "Relevant"]


def test_the_keypoints_own_term_ruled_out_for_its_party_is_wrong():
    kps = ["1. 王芳的诊断为社区获得性肺炎。", "2. 李强的诊断为急性胆囊炎。"]
    answer = "王芳诊断为社区获得性肺炎；李强虽有腹痛，但已排除急性胆囊炎。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Wrong"]
    answer = "王芳诊断为社区获得性肺炎，已排除肺结核；李强诊断为急性胆囊炎，已排除急性胰腺炎。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]
    kp = "已鉴别并排除急性胰腺炎。"  # a keypoint that weighs differentials is left to the other checks
    assert label("诊断时已排除急性胰腺炎及消化道穿孔。", kp, "zh") == "Relevant"


def test_another_category_after_is_a_for_the_keypoints_person():
    kp, facts = "1. Ada Cole is a sales manager.", _facts("category", "sales manager")
    for answer, want in [("Ada Cole is a retired engineer living in Port Dale.", "Wrong"),
                         ("She appears to be an architect living in Port Dale.", "Wrong"),
                         ("Ada Cole is a woman aged 52 living in Port Dale.", "Irrelevant"),
                         ("Ada Cole, 52, is a sales manager.", "Relevant")]:
        assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == want, answer


def test_two_parties_paired_otherwise_by_a_name_colon_layout():
    kps = ["1. 金石会计师事务所为远山股份有限公司的审计机构。", "2. 华信会计师事务所为青禾股份有限公司的审计机构。"]
    facts = [_facts("organisation", "金石会计师事务所")[0], _facts("organisation", "华信会计师事务所")[0]]
    answer = "远山股份：华信会计师事务所，标准无保留意见；青禾股份：金石会计师事务所，标准无保留意见。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh", keypoint_facts=facts)] == ["Wrong", "Wrong"]
    answer = "远山股份：金石会计师事务所，标准无保留意见；青禾股份：华信会计师事务所，标准无保留意见。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh", keypoint_facts=facts)] == ["Relevant", "Relevant"]


def test_a_prior_conviction_denied_and_not_enough_to_mitigate():
    kp = "1. 被告人王某曾于2016年3月因犯诈骗罪被判处有期徒刑一年。"
    assert label("判决书记载被告人王某无前科，系初犯。", kp, "zh") == "Wrong"
    assert label("被告人王某曾于2016年3月因诈骗罪被判处有期徒刑一年，系累犯。", kp, "zh") == "Relevant"
    kp = "1. Tom Reed was previously sentenced to one year for fraud in 2016."
    assert label("Tom Reed has no prior criminal record.", kp, "en") == "Wrong"
    assert label("法院认为上述情节不足以对其从轻处罚。", "上述情节可以从轻处罚。", "zh") == "Wrong"


def test_no_finding_found_denies_it_and_normal_sized_is_the_opposite_of_enlarged():
    kp = "It found an inflamed appendix containing a faecalith."
    assert label("At operation the appendix looked normal, with no faecalith found.", kp, "en") == "Wrong"
    assert label("No information was found about the operative findings.", kp, "en") == "Irrelevant"
    kp = "The echocardiogram showed an enlarged left ventricle of 61 mm."
    assert label("The echocardiogram showed a normal-sized left ventricle.", kp, "en") == "Wrong"


def test_the_company_a_deal_is_made_for_is_its_other_side():
    kps = ["1. The first major event of Kent Mining Group was its acquisition on March 3, 2020.",
           "2. The first major event of Kent Mining Group involved $12.5 million."]
    answer = "Kent Mining Group: acquisition of Birch Metals Company on March 3, 2020, for $12.5 million."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]
    answer = "In 2020 Kent Mining Group bought a 60% stake in Birch Metals Company for $12.5 million on March 3, 2020."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Relevant"]


def test_a_comparison_is_between_parties_of_its_subjects_kind_and_read_in_its_own_clause():
    kps = ["1. 远山股份有限公司的毛利率为41.2%。", "2. 青禾股份有限公司的毛利率为22.7%。", "3. 远山股份有限公司的毛利率更高。"]
    answer = "远山股份毛利率41.2%，青禾股份毛利率22.7%。尽管青禾股份收入规模更大，但远山股份的毛利率明显更高。"
    assert judge_keypoints(answer, kps, "zh")[2].label == "Relevant"
    kps = ["1. Ann Park was 76.", "2. Joe Lin was 29.", "3. Ann Park was the older patient."]
    answer = ("Ann Park, 76, was admitted to Birchwood Community Hospital after a fall. Joe Lin, 29, was admitted "
              "elsewhere. So Birchwood Community Hospital's patient, Ann Park, was older.")
    assert judge_keypoints(answer, kps, "en")[2].label == "Relevant"


def test_the_one_date_of_an_answer_to_a_when_question_answers_its_date_slot():
    asked = "Who replaced Ada Cole at Kent Mining Group, and on what date did the change take effect?"
    kps = ["1. Tom Reed succeeded Ada Cole.", "2. The change took effect on June 28, 2019."]
    answer = "Tom Reed took over from Ada Cole as chief engineer on June 22, 2019."
    assert judge_keypoints(answer, kps, "en", question=asked)[1].label == "Wrong"
    answer = "Tom Reed took over from Ada Cole as chief engineer on June 28, 2019."
    assert judge_keypoints(answer, kps, "en", question=asked)[1].label == "Relevant"


def test_a_date_said_as_another_event_leaves_the_answers_other_date_for_the_slot_and_a_share_asked_for():
    kps = ["1. She was discharged on March 2, 2022.", "2. The follow-up visit is on March 9, 2022."]
    answer = "She was discharged on March 2, 2022 and should come back a week later, on March 12, 2022."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Relevant", "Wrong"]
    asked = "Which segment was the smallest, and what share of the total did it account for?"
    kps = ["1. The smallest segment was logistics.", "2. It accounted for 12.4% of the total."]
    answer = "The smallest segment was logistics, at $0.8 billion, or 18.9% of revenue."
    assert judge_keypoints(answer, kps, "en", question=asked)[1].label == "Wrong"


def test_more_lab_units_are_read_and_a_status_word_is_no_label_of_its_own():
    got = [(v.text, v.unit) for v in values("TSH 2.06 mIU/L, NT-proBNP 1,128 pg/mL, K 4.4 mEq/L (3.5-5.3 mEq/L)", "en")]
    assert got == [("2.06 mIU/L", "miu/l"), ("1,128 pg/mL", "pg/ml"), ("4.4 mEq/L", "mmol/l"), ("3.5-5.3 mEq/L", "mmol/l")]
    kps = ["1. The TSH result was 1.9 mIU/L.", "2. The serum potassium result was 3.1 mmol/L."]
    answer = "TSH was 3.1 mIU/L and potassium 1.9 mmol/L."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]
    assert label("Serum potassium 3.1 mEq/L.", kps[1], "en") == "Relevant"
    kp = "The total prostate-specific antigen result was 2.48 ng/mL."
    assert label("Uroflowmetry showed a peak flow of 9.1 mL/s and a raised PSA of 6.2 ng/mL.", kp, "en") == "Wrong"


def test_an_exchange_named_by_a_build_fact_is_the_value_not_the_party():
    kp = "4. It is listed on the Nasdaq under the ticker KMGX."
    facts = [[{"doc_id": 1, "key": "stock_exchange", "kind": "organisation", "text": "Nasdaq", "value": "Nasdaq",
               "unit": None},
              {"doc_id": 1, "key": "stock_code", "kind": "text", "text": "KMGX", "value": "KMGX", "unit": None}]]
    kps = ["1. Kent Mining Group was founded in 1994.", kp]
    answer = "Kent Mining Group is a mining company listed on the New York Stock Exchange."
    assert judge_keypoints(answer, kps, "en", keypoint_facts=[[], facts[0]])[1].label == "Wrong"


def test_the_other_side_of_the_same_body_part_is_wrong():
    assert label("患者摔倒时左膝部着地，左膝部疼痛。", "患者摔倒时右膝部着地。", "zh") == "Wrong"
    assert label("患者摔倒时右膝部着地，左手擦伤。", "患者摔倒时右膝部着地。", "zh") == "Relevant"
    kp = "1. He underwent drainage of the right pleural space on May 3, 2022."
    assert label("He underwent drainage of the left pleural space on May 3, 2022.", kp, "en") == "Wrong"
    assert label("He underwent drainage of the right pleural space on May 3, 2022; his left arm was fine.", kp,
                 "en") == "Relevant"


def test_values_said_respectively_belong_to_the_parties_in_order():
    kps = ["1. 远山股份有限公司碳排放强度下降9.5%。", "2. 青禾股份有限公司碳排放强度下降12%。"]
    answer = "远山股份与青禾股份的碳排放强度分别下降了12%和9.5%。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "远山股份与青禾股份的碳排放强度分别下降了9.5%和12%。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]
    kps = ["1. Kent Mining Group earned $12.1 million.", "2. Lark Foods Group earned $9.4 million."]
    answer = "Kent Mining Group and Lark Foods Group earned $9.4 million and $12.1 million, respectively."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Wrong", "Wrong"]


def test_a_value_said_as_the_other_bound_is_wrong():
    kp = "It was based on chest pain lasting more than 30 minutes."
    assert label("It was based on chest pain lasting less than 30 minutes.", kp, "en") == "Wrong"
    assert label("It was based on chest pain that lasted over 30 minutes.", kp, "en") == "Relevant"
    assert label("胸痛持续不足30分钟。", "胸痛持续超过30分钟。", "zh") == "Wrong"
    assert label("胸痛持续30分钟以上。", "胸痛持续超过30分钟。", "zh") == "Relevant"


def test_a_relation_said_with_another_verb_of_it_the_other_way_round():
    kp = "1. Tom Reed succeeded Ada Cole."
    assert label("Ada Cole replaced Tom Reed as chief engineer.", kp, "en") == "Wrong"
    assert label("Ada Cole was replaced by Tom Reed as chief engineer.", kp, "en") == "Relevant"


def test_another_person_in_a_relation_said_with_a_synonym_verb_and_do_not_identify_declines():
    kp = "1. Ada Cole defended Tom Reed."
    facts = [[{"doc_id": 1, "key": "lawyer", "kind": "person", "text": "Ada Cole", "value": "Ada Cole", "unit": None},
              {"doc_id": 1, "key": "client", "kind": "person", "text": "Tom Reed", "value": "Tom Reed", "unit": None}]]
    answer = "Ada Cole represented Joe Lin, who was convicted of theft."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    assert is_refusal("The documents do not identify which client Ada Cole represented.", "en")


def test_a_date_said_of_two_events_at_once_dates_the_keypoints_too():
    kp = "4. 法院于2021年9月26日作出判决。"
    answer = "检察院于2021年7月22日提起公诉，法院于2021年8月29日公开开庭审理并当庭作出判决。"
    assert label(answer, kp, "zh") == "Wrong"
    answer = "2021-08-29 公开开庭 → 2021-09-26 作出判决"
    assert label(answer, "3. 法院于2021年8月29日公开开庭审理。", "zh") == "Relevant"


def test_an_investigating_body_in_the_prosecutors_place_is_a_stand_in():
    kp = "2. 南湖市人民检察院于2022年3月8日提起公诉。"
    facts = [[{"doc_id": 1, "key": "procuratorate", "kind": "organisation", "text": "南湖市人民检察院",
               "value": "南湖市人民检察院", "unit": None},
              {"doc_id": 1, "key": "prosecution_date", "kind": "date", "text": "2022年3月8日", "value": "2022-03-08",
               "unit": None}]]
    answer = "2022年3月8日由南湖海关缉私局提起公诉。"
    assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == "Wrong"


def test_another_value_under_the_build_facts_own_field_label():
    kp = "1. Ada Cole is a sales manager."
    facts = [[{"doc_id": 1, "key": "occupation", "kind": "category", "text": "sales manager", "value": "sales manager",
               "unit": None}]]
    answer = "Name: Ada Cole | Age: 52 | Occupation: retired engineer"
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "Name: Ada Cole | Age: 52 | Occupation: sales manager"
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"


def test_more_chinese_drug_stems():
    kp = "出院医嘱：每日规律吸入噻托溴铵，坚持家庭氧疗每日15小时以上。"
    assert label("出院医嘱每日规律吸入布地奈德，坚持家庭氧疗每日15小时以上。", kp, "zh") == "Wrong"
    assert label("出院后每日吸入噻托溴铵，家庭氧疗每日15小时以上。", kp, "zh") == "Relevant"


def test_more_english_drug_names():
    kp = "He was advised to inhale tiotropium daily and use home oxygen for 15 hours a day."
    assert label("He was advised to inhale salmeterol daily and use home oxygen for 15 hours a day.", kp, "en") == "Wrong"


def test_a_day_said_by_reference_to_the_date_before_it():
    assert [(v.text, v.value) for v in values("2021年8月29日开庭审理；同日作出判决，次日送达。", "zh")] == [
        ("2021年8月29日", "2021-08-29"), ("同日", "2021-08-29"), ("次日", "2021-08-30")]
    assert [v.value for v in values("She was admitted on May 3, 2022 and operated on the next day.", "en")] == [
        "2022-05-03", "2022-05-04"]
    kp = "4. 法院于2021年9月26日作出判决。"
    assert label("二〇二一年八月二十九日开庭审理；同日作出判决。", kp, "zh") == "Wrong"
    assert label("患者入院当天即行手术。", "患者于入院当天接受手术。", "zh") == "Relevant"  # (no date to refer to)


def test_whole_years_in_brackets_after_a_name_are_an_age():
    got = [(v.kind, v.value, v.unit) for v in values("Joe Lin was younger (31 years) than Ann Park (70 years).", "en")]
    assert got == [("count", 31.0, "age"), ("count", 70.0, "age")]
    assert values("He had smoked for 20 years (since 2003).", "en")[0].kind == "duration"
    kps = ["1. Ann Park was 31 years old.", "2. Joe Lin was 70 years old.", "3. Ann Park was the younger patient."]
    answer = "Joe Lin was younger (31 years) than Ann Park (70 years)."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")][:2] == ["Wrong", "Wrong"]


def test_a_word_between_a_number_and_its_time_unit_keeps_it_a_duration():
    assert [(v.kind, v.value, v.unit) for v in values("Staff averaged 36 training hours.", "en")] == [
        ("duration", 36.0, "hours")]
    kp = "2. Employees of Kent Mining Group averaged 36 training hours."
    answer = "Kent Mining Group employed 1,792 people; the passages do not give training hours."
    assert label(answer, kp, "en") == "Irrelevant"


def test_a_status_that_heads_a_list_is_each_items():
    kp = "1. The ferritin result was 640 ng/mL, above the reference range."
    assert label("All laboratory values were within normal limits: ferritin 640 ng/mL, TSH 2.1 mIU/L.", kp, "en") == "Wrong"
    assert label("Laboratory values: ferritin 640 ng/mL (high), TSH 2.1 mIU/L.", kp, "en") == "Relevant"
    assert label("化验结果均在正常范围内：铁蛋白640ng/mL，TSH 2.1mIU/L。", "铁蛋白为640ng/mL，高于参考范围。", "zh") == "Wrong"


def test_another_lettered_subtype_of_the_same_term():
    assert label("肌钙蛋白T为2.5ng/mL，高于参考范围。", "肌钙蛋白I为2.5ng/mL，高于参考范围。", "zh") == "Wrong"
    assert label("肌钙蛋白I为2.5ng/mL，高于参考范围。", "肌钙蛋白I为2.5ng/mL，高于参考范围。", "zh") == "Relevant"
    assert label("He tested positive for hepatitis C antibodies.", "He tested positive for hepatitis B surface antigen.",
                 "en") == "Wrong"


def test_a_build_fact_that_names_an_organisation_is_one_whatever_its_words():
    kps = ["1. The largest shareholder of Acme Foods Inc is Brightwater Capital, holding 41.5%.",
           "2. The largest shareholder of Orbit Media Holdings is Lakeside Investment Group, holding 22.1%."]
    facts = [[{"kind": "organisation", "key": "largest_shareholder", "text": "Brightwater Capital"},
              {"kind": "percent", "key": "largest_shareholder_stake", "text": "41.5%"}],
             [{"kind": "organisation", "key": "largest_shareholder", "text": "Lakeside Investment Group"},
              {"kind": "percent", "key": "largest_shareholder_stake", "text": "22.1%"}]]

    def first(answer: str) -> str:
        return judge_keypoints(answer, kps, "en", keypoint_facts=facts)[0].label

    assert first("The largest shareholder of Acme Foods Inc is Delta Beverages Company, with 41.5% of the shares.") == "Wrong"
    assert first("The largest shareholder of Acme Foods Inc is Brightwater Capital, with 41.5% of the shares.") == "Relevant"
    # a company's holder may be a person; the other company's holder, named after it, is not a stand-in
    assert first("The largest shareholder is Mary Stone, the board chair, who holds 41.5% of the shares.") == "Wrong"
    assert first("For Orbit Media Holdings, the largest shareholder is Kelly Entertainment Limited.") == "Irrelevant"


def test_a_bracketed_item_number_of_a_law_is_a_value():
    kp = "被告人甲的定罪依据为刑法第三百八十二条第一款、第三百八十三条第一款第（三）项。"
    assert label("甲适用刑法第三百八十二条第一款、第三百八十三条第一款第（二）项。", kp, "zh") == "Wrong"
    assert label("甲适用刑法第382条第1款、第383条第1款第(3)项。", kp, "zh") == "Relevant"


def test_nightly_and_mealtime_doses_are_frequencies():
    assert [(v.value, v.unit) for v in values("每晚1次", "zh")] == [(1.0, "per day")]
    assert [(v.value, v.unit) for v in values("Take it once nightly.", "en")] == [(1.0, "per day")]
    assert [(v.value, v.unit) for v in values("三餐前皮下注射", "zh")] == [(3.0, "per day")]
    kp = "使用坦索罗辛缓释胶囊，剂量0.2mg，口服，每晚1次。"
    assert label("术后予坦索罗辛缓释胶囊0.2mg口服，每日3次。", kp, "zh") == "Wrong"
    assert label("术后予坦索罗辛缓释胶囊0.2mg口服，每日1次（睡前）。", kp, "zh") == "Relevant"
    kp = "It was given subcutaneously before each of the three main meals."
    assert label("Insulin aspart was injected subcutaneously once at bedtime.", kp, "en") == "Wrong"
    assert label("Insulin aspart was injected subcutaneously three times a day, before meals.", kp, "en") == "Relevant"


def test_more_drug_stems_name_drugs():
    kp = "使用双氯芬酸钠栓，剂量50mg，纳肛，必要时。"
    assert label("术后予吲哚美辛栓50mg纳肛止痛（必要时）。", kp, "zh") == "Wrong"
    assert label("术后予双氯芬酸钠栓50mg纳肛止痛（必要时）。", kp, "zh") == "Relevant"
    kp = "Diclofenac sodium suppository 50 mg was given rectally as needed."
    assert label("Indomethacin suppository 50 mg was given rectally as needed.", kp, "en") == "Wrong"


def test_a_verb_before_a_short_drug_name_is_not_part_of_it():
    kps = ["1. 使用头孢曲松，剂量2g，静脉滴注，每日1次。", "2. 使用甲硝唑，剂量0.5g，静脉滴注，每8小时1次。"]
    answer = "予头孢曲松2g静脉滴注每日1次、甲硝唑0.5g静脉滴注每8小时1次抗感染。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]
    assert label("予替硝唑0.5g静脉滴注每8小时1次。", kps[1], "zh", kps) == "Wrong"


def test_a_partys_own_total_beside_the_joint_one_is_its_value():
    kps = ["1. 王丽住院12天。", "2. 李娟住院6天。", "3. 两人合计住院18天。"]
    asked = "某医院的王丽和另一医院的李娟合计住院多少天？"
    answer = "王丽9月13日入院、9月25日出院，共住院13天；李娟住院6天；两人合计19天。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh", question=asked)] == ["Wrong", "Relevant", "Wrong"]
    answer = "王丽住院12天，李娟住院6天，共住院18天。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh", question=asked)] == ["Relevant", "Relevant",
                                                                                         "Relevant"]


def test_a_finding_not_seen_is_denied_to_the_end_of_its_phrase():
    kp = "12导联心电图检查结果提示Ⅱ、Ⅲ、aVF导联ST段抬高3.2mm。"
    assert label("12导联心电图示窦性心律，未见明显ST段抬高。", kp, "zh") == "Wrong"
    assert label("心电图示Ⅱ、Ⅲ、aVF导联ST段抬高3.2mm，未见病理性Q波。", kp, "zh") == "Relevant"
    # the records not showing it is no denial
    assert label("出院记录中未见该患者的心电图检查结果，无法回答。", kp, "zh") == "Irrelevant"


def test_an_agent_noun_says_its_verb_for_a_denial():
    kp = "阎明辩护的被告人是邓军。"
    assert label("阎明并未担任邓军的辩护人，邓军由值班律师提供法律帮助。", kp, "zh") == "Wrong"
    assert label("阎明担任邓军的辩护人。", kp, "zh") == "Relevant"
    assert label("公司董事会共11人，其中4人为非独立董事。", "董事会由11名董事组成，其中独立董事4名。", "zh") == "Wrong"


def test_a_role_said_by_its_verb_or_after_a_copula():
    kp = "Carl Hanson defended Danny Jones."
    assert label("Carl Hanson was the prosecutor in the case against Danny Jones.", kp, "en") == "Wrong"
    assert label("Carl Hanson was the defence lawyer for Danny Jones.", kp, "en") == "Relevant"
    kp = "阎明辩护的被告人是邓军。"
    assert label("阎明是本案合议庭的审判员，审理的是被告人邓军一案。", kp, "zh") == "Wrong"
    assert label("阎明是邓军的辩护人。", kp, "zh") == "Relevant"
    # 为被告人NAME辩护: the one defended, not the counsel
    assert label("单红的委托人为被告人董杨。", "单红为被告人徐勇辩护。", "zh") == "Wrong"


def test_a_status_said_before_the_range_is_the_readings():
    kps = ["1. The neutrophil percentage result was 91.2%.",
           "2. The reference range is 40-75%, so the result is above the reference range."]
    got = judge_keypoints("The neutrophil percentage was 91.2%, within the reference range of 40-75%.", kps, "en")
    assert [lab.label for lab in got] == ["Relevant", "Wrong"]
    got = judge_keypoints("The neutrophil percentage was 91.2%, above the reference range of 40-75%.", kps, "en")
    assert [lab.label for lab in got] == ["Relevant", "Relevant"]
    # the status of the reading before it, across a clause, is not this range's
    kp = "凝血酶原时间为12.9秒，在参考范围内。"
    assert label("白细胞计数11.2×10⁹/L，高于参考范围；凝血酶原时间12.9秒，在11～14秒的参考范围内。", kp, "zh") == "Relevant"


def test_a_drug_is_one_however_much_of_the_text_before_it_is_read_with_it():
    kp = "使用泼尼松，剂量30mg，口服，每日1次。"
    assert label("出院带药包括泼尼松30mg口服每日1次。", kp, "zh") == "Relevant"
    assert label("出院带药包括泼尼松60mg口服每日1次。", kp, "zh") == "Wrong"
    assert label("He received hydrocortisone 2 mg/kg.", "He received methylprednisolone 2 mg/kg.", "en") == "Wrong"


def test_a_comparative_after_bu_shi_is_negated():
    kps = ["1. 华瑞投资控股股份有限公司于2021年4月16日审议通过年度报告。", "2. 宏达商业股份有限公司于2022年3月23日审议通过年度报告。",
           "3. 华瑞投资控股股份有限公司审议通过得更早。"]
    answer = "华瑞投资控股于2021年4月16日、宏达商业于2022年3月23日审议通过年度报告，因此华瑞投资控股并不是更早的一家。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")][2] == "Wrong"
    answer = "华瑞投资控股于2021年4月16日、宏达商业于2022年3月23日审议通过年度报告，因此华瑞投资控股是更早的一家。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")][2] == "Relevant"


def test_a_courts_place_after_of_is_part_of_its_name():
    kp = "1. The offence of May 3, 2019 was tried by the Oakview District People's Court of Port Hale."
    facts = [[{"kind": "date", "key": "crime_date", "text": "May 3, 2019"},
              {"kind": "organisation", "key": "court_name", "text": "Oakview District People's Court of Port Hale"}]]

    def judged(answer: str) -> str:
        return judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label

    assert judged("The offence of May 3, 2019 was tried by the Intermediate People's Court of Port Hale.") == "Wrong"
    assert judged("The offence of May 3, 2019 was tried by the Oakview District People's Court of Port Hale.") == "Relevant"


def test_a_figure_said_under_another_members_name():
    kp = "精密零部件板块实现收入1.86亿元，占比46.5%。"
    assert label("工业机械板块实现收入1.86亿元，占比46.5%；售后服务板块收入1.73亿元。", kp, "zh") == "Wrong"
    assert label("精密零部件板块实现收入1.86亿元，占比46.5%。", kp, "zh") == "Relevant"
    assert label("零部件板块收入1.86亿元（46.5%）。", kp, "zh") == "Relevant"
    kp = "The vaccines segment generated $390.13 million, or 20.6% of revenue."
    assert label("The diagnostics segment generated $390.13 million (20.6%).", kp, "en") == "Wrong"
    assert label("The vaccines segment brought in $390.13 million, 20.6% of the total.", kp, "en") == "Relevant"


def test_a_value_in_a_clause_that_names_the_keypoints_counterparty_is_its():
    kp = "1. The asset restructuring with Taylor Holdings took place on April 2, 2022."
    answer = "Winters Digital Inc carried out its asset restructuring with Taylor Holdings on January 30, 2022."
    assert label(answer, kp, "en") == "Wrong"
    answer = "Winters Digital Inc carried out its asset restructuring with Taylor Holdings on April 2, 2022."
    assert label(answer, kp, "en") == "Relevant"


def test_more_negated_comparatives():
    kps = ["1. 华瑞运输股份有限公司于2018年7月4日召开临时股东大会。", "2. 博达环境股份有限公司于2020年2月10日召开临时股东大会。",
           "3. 华瑞运输股份有限公司召开得更早。"]
    answer = "华瑞运输（2018年7月4日召开临时股东大会）并未早于博达环境（2020年2月10日召开临时股东大会）。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")][2] == "Wrong"
    kps = ["1. Vanessa Ford was discharged on January 7, 2022.", "2. Jesus Fried was discharged on September 20, 2023.",
           "3. Vanessa Ford left hospital first."]
    answer = ("Vanessa Ford, discharged on January 7, 2022, did not leave hospital before Jesus Fried, who was "
              "discharged on September 20, 2023.")
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")][2] == "Wrong"


def test_a_hedged_round_figure_is_rounded_at_its_last_nonzero_digit():
    kp = "The value of the stolen property was $3,110."
    assert label("The value of the stolen property was roughly $3,100.", kp, "en") == "Relevant"
    assert label("The value of the stolen property was $3,100.", kp, "en") == "Wrong"
    assert label("融资金额大约3,300万元。", "涉及金额3,302.88万元。", "zh") == "Relevant"
    assert label("融资金额大约3,500万元。", "涉及金额3,302.88万元。", "zh") == "Wrong"
    # a figure of tens is as written, hedged or not
    assert label("He appears to have been about 40 at the time.", "He was 39 years old at the time.", "en") == "Wrong"


def test_a_blood_counts_unit_is_one_however_written():
    assert [(v.value, v.unit) for v in values("血小板计数为283×10⁹/L", "zh")] == [(283.0, "10^9/l")]
    assert [(v.value, v.unit) for v in values("PLT 283 G/L", "en")] == [(283.0, "10^9/l")]
    assert [(v.value, v.unit) for v in values("Hb 120 g/L", "en")] == [(120.0, "g/l")]
    kp = "参考范围为125～350×10⁹/L，结果在参考范围内。"
    assert label("PLT：283 G/L（参考值125–350 G/L），在正常范围内。", kp, "zh") == "Relevant"
    assert label("血小板计数为303×10⁹/L。", kp, "zh") == "Irrelevant"


def test_a_negated_comparison_denies_the_comparison_not_the_readings():
    kps = ["1. 张桂英入院时心率为142次/分。", "2. 谭建国入院时心率为74次/分。", "3. 张桂英的心率更快。"]
    got = [lab.label for lab in judge_keypoints("两位患者中，张桂英入院时的心率没有谭建国快。", kps, "zh")]
    assert got == ["Irrelevant", "Irrelevant", "Wrong"]
    got = [lab.label for lab in judge_keypoints("张桂英入院时心率142次/分，比谭建国快。", kps, "zh")]
    assert got == ["Relevant", "Irrelevant", "Relevant"]
    kp = "华成文化传媒股份有限公司于2020年11月14日召开2020年第一次临时股东大会。"
    assert label("华成文化传媒召开第一次临时股东大会的时间并不晚于盛达生物医药。", kp, "zh") == "Irrelevant"


def test_british_spellings_are_read_as_american():
    assert expand("acute ischaemic stroke with oedema; Haemoglobin low; the offence", "en") == \
        "acute ischemic stroke with edema; Hemoglobin low; the offense"
    assert label("Her condition was an acute ischaemic stroke.", "The diagnosis was acute ischemic stroke.", "en") == "Relevant"


def test_wu_gu_is_no_negation_and_after_a_stay_is_no_order():
    kp = "案发地点为芜湖市鸠江区黎路365号吉星火锅店。"
    assert label("李阳饮酒后在芜湖市鸠江区黎路365号吉星火锅店无故挑衅。", kp, "zh") == "Relevant"
    kps = ["1. Tom Hale was discharged on January 19, 2023.", "2. Ann Ross was discharged on March 2, 2023.",
           "3. Tom Hale left hospital first."]
    answer = "Tom Hale was discharged on January 19, 2023 after an 11-day stay."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")][2] == "Irrelevant"


def test_another_department_in_the_keypoints_frame():
    kp = ["1. 韩秀英在呼吸与危重症医学科住院。", "2. 韩秀英的主治医师为殷楠。"]
    facts = [[{"kind": "organisation", "key": "department", "text": "呼吸与危重症医学科"}],
             [{"kind": "person", "key": "attending", "text": "殷楠"}]]

    def judged(answer: str) -> str:
        return judge_keypoints(answer, kp, "zh", keypoint_facts=facts)[0].label

    assert judged("韩秀英在急诊内科住院，主治医师为殷楠。") == "Wrong"
    assert judged("韩秀英收入呼吸与危重症医学科住院。") == "Relevant"
    assert judged("韩秀英的主治医师是徐红。") == "Irrelevant"  # (a name alone leads to no slot)
    facts = [[{"kind": "organisation", "key": "department", "text": "神经内科"}]]
    assert judge_keypoints("王帅由内分泌科收治，主治医师为王晨。", ["1. 收治科室为神经内科。"], "zh",
                           keypoint_facts=facts)[0].label == "Wrong"


def test_a_clause_that_says_all_of_the_keypoint_speaks_for_it():
    kp = "其中独立董事5名。"
    assert label("天永旅游董事会由11名董事组成，但其中没有独立董事。", kp, "zh") == "Wrong"
    assert label("天永旅游董事会共11名董事，其中非独立董事5名。", kp, "zh") == "Wrong"
    assert label("天永旅游董事会共11名董事，其中独立董事5名。", kp, "zh") == "Relevant"


def test_a_negated_verb_governs_its_object():
    kp = "The auditor Martin and Gomez LLP issued an unqualified opinion."
    answer = "Its auditor, Martin and Gomez LLP, declined to give an unqualified opinion on the financial statements."
    assert label(answer, kp, "en") == "Wrong"
    answer = "Its auditor, Martin and Gomez LLP, gave an unqualified opinion on the financial statements."
    assert label(answer, kp, "en") == "Relevant"


def test_a_name_after_a_role_word_is_a_name_though_also_a_word():
    assert [e.name for e in _analyse("被告人李俊犯危险驾驶罪。", "zh").entities] == ["李俊"]
    kps = ["1. 被告人曾淑英犯非法经营罪。", "2. 被告人李俊犯危险驾驶罪。"]
    answer = "曾淑英犯危险驾驶罪；李俊犯非法经营罪。"
    assert [lab.label for lab in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]


def test_acquitted_of_a_crime_denies_it():
    assert label("The court acquitted both of them of theft because they repaid the victim.", "The crime was theft.",
                 "en") == "Wrong"
    assert label("The court convicted both of them of theft.", "The crime was theft.", "en") == "Relevant"


def test_a_passive_denial_after_its_subject():
    kp = "Deborah Tan underwent intravenous thrombolysis with alteplase."
    answer = ("Deborah Tan had an acute ischemic stroke, but thrombolysis with alteplase was not given because she "
              "arrived 4 hours after symptom onset.")
    assert label(answer, kp, "en") == "Wrong"
    assert label("Deborah Tan was given intravenous thrombolysis with alteplase.", kp, "en") == "Relevant"


def test_a_label_of_another_partys_clause_is_that_partys():
    kps = ["1. 韩秀英的主治医师为殷楠。", "2. 张秀芝的主治医师为李荣。"]
    got = [lab.label for lab in judge_keypoints("韩秀英在急诊内科住院，主治医师为殷楠。", kps, "zh")]
    assert got == ["Relevant", "Irrelevant"]
    got = [lab.label for lab in judge_keypoints("张秀芝在乳腺外科住院，主治医师为王芳。", kps, "zh")]
    assert got == ["Irrelevant", "Wrong"]


def test_a_role_said_after_wei_and_another_defendant_of_the_query_is_no_stand_in():
    kps = ["1. 被告人严明作案时39周岁。", "2. 被告人李琳作案时45周岁。", "3. 被告人严明更年轻。"]
    got = [lab.label for lab in judge_keypoints("被告人李琳案发时45周岁，已达刑事责任年龄。", kps, "zh")]
    assert got == ["Irrelevant", "Relevant", "Irrelevant"]


def test_a_share_said_of_another_whole():
    kp = "That was 1.2% of the revenue of Davis Financial Corporation."
    assert label("Davis Financial Corporation's R&D spending was 1.2% of its total assets.", kp, "en") == "Wrong"
    assert label("Davis Financial Corporation's R&D spending was 1.2% of its revenue.", kp, "en") == "Relevant"
    kp = "线上零售板块收入占营业收入的27.7%。"
    assert label("线上零售板块收入6.92亿元，相当于公司营业成本的27.7%。", kp, "zh") == "Wrong"
    assert label("线上零售板块收入6.92亿元，占营业收入的27.7%。", kp, "zh") == "Relevant"


def test_chao_chu_le_the_range_is_above_it():
    kp = "参考范围为125～350×10⁹/L，结果在参考范围内。"
    assert label("患者的血小板计数超出了参考范围。", kp, "zh") == "Wrong"
    assert label("患者的血小板计数没有超出参考范围。", kp, "zh") != "Wrong"  # (a status said by a negation)


def test_a_motion_rejected_is_not_passed():
    kp = "会议审议通过了使用闲置自有资金进行现金管理的议案。"
    assert label("会议否决了使用闲置自有资金进行现金管理的议案，该议案未获通过。", kp, "zh") == "Wrong"
    assert label("会议审议通过了使用闲置自有资金进行现金管理的议案。", kp, "zh") == "Relevant"
    kp = "The meeting passed the proposal on cash management."
    assert label("The meeting rejected the proposal on cash management.", kp, "en") == "Wrong"


def test_a_value_not_reached_is_denied():
    kp = "Danny Jonas was 50 years old at the time of the offence."
    assert label("Danny Jonas had not yet turned 50 at the time of the offence.", kp, "en") == "Wrong"
    assert label("Danny Jonas had turned 50 at the time of the offence.", kp, "en") == "Relevant"
    assert label("秦海英于2024年4月3日入院，并未住满9天。", "共住院9天。", "zh") == "Wrong"
    assert label("秦海英于2024年4月3日入院，共住院9天。", "共住院9天。", "zh") == "Relevant"


def test_enlarged_and_shrunk_are_directions():
    kp = "The repeat liver ultrasound showed an abscess cavity that had shrunk to 3.0 cm."
    assert label("The repeat ultrasound showed that the abscess cavity had enlarged to 3.0 cm.", kp, "en") == "Wrong"
    assert label("The repeat ultrasound showed that the abscess cavity had shrunk to 3.0 cm.", kp, "en") == "Relevant"


def test_cut_and_reduce_are_directions():
    kp = "Carter Foods Corporation cut its water use intensity by 12.5%."
    for answer in ["Carter Foods Corporation saw its water use intensity rise by 12.5%.",
                   "Carter Foods Corporation's water use intensity increased 12.5% year on year."]:
        assert label(answer, kp, "en") == "Wrong", answer
    for answer in ["Carter Foods Corporation reduced its water use intensity by 12.5%.",
                   "Carter Foods Corporation lowered its water use intensity by 12.5%."]:
        assert label(answer, kp, "en") == "Relevant", answer
    assert label("Its energy intensity rose 3.1%.", "The company raised its energy intensity by 3.1%.", "en") \
        == "Relevant"


def test_a_time_of_day_after_a_denied_date_is_denied_too():
    kp = "案发时间为21时30分许。"
    facts = [[{"doc_id": 1, "key": "time", "kind": "text", "text": "21时30分许", "value": "21时30分许", "unit": None}]]
    for answer, expected in [("王强的抢劫行为并不是在2021年3月5日晚上21时30分许发生的，实际作案是在次日凌晨。", "Wrong"),
                             ("王强于2021年3月5日晚上21时30分许实施抢劫，并不是在次日凌晨。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == expected, answer


def test_one_listed_finding_denied_word_for_word_is_a_denial():
    kp = "胸部CT提示右肺下叶实变，少量胸腔积液，纵隔淋巴结肿大约12mm。"
    assert label("胸部CT示右肺下叶实变，未见胸腔积液，纵隔淋巴结肿大约12mm。", kp, "zh") == "Wrong"
    assert label("胸部CT示右肺下叶实变伴少量胸腔积液，纵隔淋巴结肿大约12mm。", kp, "zh") == "Relevant"
    # a finding the keypoint itself denies is no clash when the answer denies it too
    assert label("胸部CT未见胸腔积液，纵隔淋巴结肿大约12mm。", "胸部CT无胸腔积液，纵隔淋巴结肿大约12mm。", "zh") == "Relevant"


def test_a_keypoint_term_that_is_a_comparative_can_be_denied():
    kp = "Her confession and remorse allowed a lighter sentence."
    for answer in ["The court found that her confession and remorse did not justify any lighter sentence.",
                   "Her confession and remorse did not allow a lighter sentence."]:
        assert label(answer, kp, "en") == "Wrong", answer
    assert label("Her confession and remorse allowed a lighter sentence.", kp, "en") == "Relevant"
    # an ordinal in the keypoint is no comparative of its own: "did not meet first" denies no meeting
    kp = "Baker Foods Group held its First Extraordinary General Meeting of 2021 on March 2, 2021."
    assert label("Baker Foods Group did not meet first; its extraordinary general meeting came later.", kp, "en") \
        != "Wrong"


def test_a_bound_the_keypoint_value_breaks_is_wrong_and_one_it_keeps_is_not():
    kp = "资产负债率为56.3%。"
    assert label("公司资产负债率不足五成。", kp, "zh") == "Wrong"
    assert label("公司资产负债率不足50%。", kp, "zh") == "Wrong"
    assert label("公司资产负债率不足六成。", kp, "zh") != "Wrong"
    assert label("公司资产负债率不超过60%。", kp, "zh") != "Wrong"
    assert label("公司资产负债率约五成半。", kp, "zh") == "Relevant"
    kp = "The hotel segment accounted for 34.6% of operating revenue."
    assert label("The hotel segment brought in less than a third of operating revenue.", kp, "en") == "Wrong"
    assert label("The hotel segment brought in more than a third of operating revenue.", kp, "en") != "Wrong"
    assert label("The hotel segment brought in less than 40% of operating revenue.", kp, "en") != "Wrong"
    # "adds up to" is a total, not a bound; a bound against the keypoint's own bound is another value
    assert label("Ann Lee stayed 12 days and Bo Chen 12 days as well, which adds up to 24 days.",
                 "Together they spent 23 days in hospital.", "en") == "Wrong"
    assert label("Urine ketones cleared within 48 hours.", "Urine ketones cleared within 18 hours.", "en") == "Wrong"
    assert label("两人合计住院时间不超过两周。", "两人合计住院17天。", "zh") == "Wrong"
    # a strict bound at the value itself breaks it; an inclusive one does not
    kp = "Employees received an average of 42 hours of training."
    assert label("Employees averaged under 42 hours of training.", kp, "en") == "Wrong"
    assert label("Employees averaged up to 42 hours of training.", kp, "en") != "Wrong"


def test_values_exchanged_between_labels_said_with_total_words():
    kp = "负债总额为3.12亿元，所有者权益为6.75亿元。"
    assert label("报告期末负债合计6.75亿元，所有者权益3.12亿元。", kp, "zh") == "Wrong"
    assert label("报告期末负债合计3.12亿元，所有者权益6.75亿元。", kp, "zh") == "Relevant"


def _diagnoses_judge(question: str, patients: list[tuple[str, str]], language: str = "en"):
    """A judge of answers to a two-patient diagnosis question: each patient's keypoint with its category fact."""
    template = "{n}. {name}的诊断为{dx}。" if language == "zh" else "{n}. {name} was diagnosed with {dx}."
    kps = [template.format(n=n, name=name, dx=dx) for n, (name, dx) in enumerate(patients, 1)]
    facts = [_facts("category", dx)[0] for _, dx in patients]

    def judged(answer: str) -> list[str]:
        return [x.label for x in judge_keypoints(answer, kps, language, keypoint_facts=facts, question=question)]
    return judged


def test_a_category_said_of_the_other_party_the_question_names_is_wrong():
    judged = _diagnoses_judge("What were the diagnoses of Ann Keller at Northside Hospital and of Tom Ruiz at Lakeview "
                              "Clinic?", [("Ann Keller", "acute appendicitis"), ("Tom Ruiz", "gastric ulcer")])
    assert judged("Ann Keller was diagnosed with gastric ulcer and Tom Ruiz with acute appendicitis.") == ["Wrong"] * 2
    assert judged("Ann Keller was diagnosed with acute appendicitis and Tom Ruiz with gastric ulcer.") == ["Relevant"] * 2
    # a shared subject gives the category to both
    assert judged("Ann Keller and Tom Ruiz were both diagnosed with acute appendicitis.")[0] != "Wrong"
    # a category each party's keypoint has (the sentence type) is no one's own
    question = "被告人李强和被告人周敏的刑罚分别是什么？"
    kps = ["1. 被告人李强被判处有期徒刑三年。", "2. 被告人周敏被判处有期徒刑一年。"]
    facts = [_facts("category", "有期徒刑")[0], _facts("category", "有期徒刑")[0]]
    labels = [x.label for x in judge_keypoints("李强犯盗窃罪；周敏被判处有期徒刑一年。", kps, "zh", keypoint_facts=facts,
                                               question=question)]
    assert labels[0] != "Wrong"


def test_a_finding_ruled_out_after_its_name_is_denied():
    kp = "Mark Hale was diagnosed with acute pancreatitis."
    for answer in ["Acute pancreatitis was ruled out for Mark Hale.", "For Mark Hale, acute pancreatitis was ruled out."]:
        assert label(answer, kp, "en") == "Wrong", answer
    assert label("Mark Hale was diagnosed with acute pancreatitis; gallstones were ruled out.", kp, "en") == "Relevant"


def test_a_drug_named_with_its_salt_and_form_is_swapped_for_another():
    kp = "所用药物为盐酸贝那普利片。"
    question = "为控制血压给患者使用了什么药物？"
    for answer, expected in [("控制血压用的是厄贝沙坦片，150mg口服。", "Wrong"), ("降压使用了尼可地尔。", "Wrong"),
                             ("控制血压用的是盐酸贝那普利片，10mg口服。", "Relevant")]:
        got = judge_keypoints(answer, [kp], "zh", keypoint_facts=_facts("category", "盐酸贝那普利片"),
                              question=question)[0].label
        assert got == expected, answer
    assert judge_keypoints("Tom Reed was started on nicorandil.", ["The drug given was ramipril."], "en",
                           question="Which drug was Tom Reed given?")[0].label == "Wrong"


def test_a_name_inside_an_appositive_does_not_take_the_value():
    question = "What sentence did the court give the person who robbed Dana Price?"
    kps = ["1. The robbery of Dana Price was committed by Owen Marsh.",
           "2. Owen Marsh was sentenced to fixed-term imprisonment of 3 years and 2 months."]
    for answer, expected in [
            ("Owen Marsh (the defendant in the Dana Price case) was sentenced to 3 years and 8 months in prison.", "Wrong"),
            ("Owen Marsh, the man who robbed Dana Price, was sentenced to 3 years and 2 months in prison.", "Relevant")]:
        assert judge_keypoints(answer, kps, "en", question=question)[1].label == expected, answer


def test_a_range_gives_the_end_of_a_term():
    kps = ["1. The term starts on March 3, 2021.", "2. The term ends on September 2, 2023."]
    for answer, expected in [("From March 3, 2021 through September 2, 2024.", "Wrong"),
                             ("The term runs from March 3, 2021 to September 2, 2023.", "Relevant"),
                             ("His sentence began on March 3, 2021 and runs until May 1, 2024.", "Wrong")]:
        assert judge_keypoints(answer, kps, "en")[1].label == expected, answer
    # another party's range is not this party's term
    question = "When does the term of Lee Park end?"
    answer = "Lee Park's term ends on September 2, 2023; Ana Cruz serves from March 3, 2021 to May 1, 2024."
    assert judge_keypoints(answer, ["Lee Park's term ends on September 2, 2023."], "en",
                           question=question)[0].label == "Relevant"
    assert judge_keypoints("Ana Cruz serves from March 3, 2021 to May 1, 2024.",
                           ["Lee Park's term ends on September 2, 2023."], "en", question=question)[0].label != "Wrong"


def test_a_hedge_opening_the_answer_is_no_part_of_the_name_after_it():
    kps = ["1. Total assets of Reed Mining Holdings were $1.3 billion.",
           "2. Total assets of Lane Foods Inc were $3.14 billion."]
    answer = "Probably Reed Mining Holdings — its total assets seem to be about $1.08 billion, versus $3.14 billion."
    assert judge_keypoints(answer, kps, "en")[0].label == "Wrong"
    answer = "Likely Reed Mining Holdings: its total assets were $1.3 billion."
    assert judge_keypoints(answer, kps, "en")[0].label == "Relevant"


def test_a_share_said_as_a_change_on_the_year_before_is_another_measure():
    assert label("乳制品板块实现收入3.2亿元，同比增长21.4%。", "乳制品板块收入占营业收入的21.4%。", "zh") == "Wrong"
    assert label("乳制品板块收入3.2亿元，占营业收入的21.4%。", "乳制品板块收入占营业收入的21.4%。", "zh") == "Relevant"
    kp = "The dairy segment's revenue grew 21.4% year on year."
    assert label("The dairy segment made up 21.4% of revenue.", kp, "en") == "Wrong"
    assert label("The dairy segment's revenue rose by 21.4% from the prior year.", kp, "en") == "Relevant"


def test_the_questions_date_given_otherwise_for_the_same_event_is_judged_by_value():
    question = "华信电子股份有限公司在2019年6月12日的新产品发布事项产生了什么影响？"
    kp = "2019年6月12日的新产品发布事项涉及“星河”智能网关。"
    facts = [[{"doc_id": 1, "key": "date", "kind": "date", "text": "2019年6月12日", "value": "2019-06-12", "unit": None},
              {"doc_id": 1, "key": "product", "kind": "text", "text": "“星河”智能网关", "value": "“星河”智能网关",
               "unit": None}]]
    for answer, expected in [("公司于2019年6月28日发布“星河”智能网关，带动了区域销售。", "Wrong"),
                             ("公司于6月12日发布“星河”智能网关，带动了区域销售。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts, question=question)[0].label == expected, answer


def test_a_chinese_diagnosis_said_as_another_disease_is_wrong():
    judged = _diagnoses_judge("市第二医院的王芳和县人民医院的李涛分别被诊断为什么疾病？",
                              [("王芳", "急性化脓性胆管炎"), ("李涛", "左侧股骨颈骨折")], "zh")
    assert judged("王芳患的是慢性萎缩性胃炎，李涛是腰椎间盘突出症。") == ["Wrong", "Wrong"]
    assert judged("王芳诊断为急性化脓性胆管炎，李涛诊断为左侧股骨颈骨折。") == ["Relevant", "Relevant"]
    # the same disease said otherwise, a history, a past diagnosis or a relative's: no other diagnosis
    assert judged("王芳诊断为化脓性胆管炎（急性）。")[0] != "Wrong"
    assert judged("王芳既往患有高血压病10年。")[0] != "Wrong"
    assert judged("王芳既往诊断为慢性胃炎，此次为胆管急性化脓性炎症。")[0] != "Wrong"
    assert judged("王芳之母诊断为乳腺癌；王芳本人为胆管急性化脓性炎症。")[0] != "Wrong"


def test_a_chinese_occupation_said_as_another_is_wrong():
    kp = "1. 孟凯年龄45岁，职业为出租车司机。"
    facts = [[{"doc_id": 1, "key": "occupation", "kind": "category", "text": "出租车司机", "value": "出租车司机",
               "unit": None}]]
    for answer, expected in [("孟凯，45岁，厨师。既往体健。", "Wrong"), ("孟凯，45岁，系退休教师。", "Wrong"),
                             ("孟凯，45岁，出租车司机。", "Relevant"), ("孟凯，45岁，司机。", "Relevant"),
                             ("孟凯，45岁，出租车司机，主治医生为何敏。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == expected, answer
    # a relative's job, a former one, or the same job in another word is no other occupation
    for answer in ["孟凯开出租车为生，其妻系教师。", "孟凯曾系工厂工人，后从事出租车运营。", "孟凯，45岁，系出租车驾驶员。"]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label != "Wrong", answer


def test_control_said_well_or_poorly_are_opposites_but_a_negative_prefix_alone_is_not():
    # a word and its negative prefix are no pair to trust: "poorly controlled" is "uncontrolled", "未能规律服药" is
    # "服药不规律", and "regular" may be said of something else
    for answer, kp, language in [("Ms. Park's blood pressure was poorly controlled.",
                                  "Ms. Park's blood pressure was uncontrolled.", "en"),
                                 ("Mr. Ode had an irregular heart rhythm; his breathing was regular.",
                                  "Mr. Ode had an irregular heart rhythm.", "en"),
                                 ("患者未能规律服药。", "患者服药不规律。", "zh")]:
        assert label(answer, kp, language) != "Wrong", answer
    kp = "既往高血压病史10年，血压控制不佳。"
    assert label("既往高血压病史10年，血压控制良好。", kp, "zh") == "Wrong"
    assert label("有10年高血压病史，血压控制不佳。", kp, "zh") == "Relevant"


def test_a_chinese_company_is_named_by_its_two_character_brand():
    kps = ["1. 鑫澜环境科技股份有限公司环保投入2.36亿元。", "2. 卓岚传媒股份有限公司环保投入1,875.2万元。"]
    labels = [x.label for x in judge_keypoints("鑫澜环保投入1,875.2万元；卓岚环保投入2.36亿元。", kps, "zh")]
    assert labels == ["Wrong", "Wrong"]
    labels = [x.label for x in judge_keypoints("鑫澜环保投入2.36亿元；卓岚环保投入1,875.2万元。", kps, "zh")]
    assert labels == ["Relevant", "Relevant"]
    # the party after 比 is the one compared with, not the one said to be higher
    kps = ["1. 宁川金融服务股份有限公司净利润为2.7亿元。", "2. 沃博电信股份有限公司净利润为6,410万元。",
           "3. 宁川金融服务股份有限公司的净利润更高。"]
    assert judge_keypoints("宁川的净利润约2.7亿元，应该比沃博更高一些。", kps, "zh")[2].label == "Relevant"


def test_an_elliptical_second_half_carries_the_first_halfs_words():
    kps = ["1. Nora Quinn stayed 7 days.", "2. Ivan Petrov stayed 12 days.", "3. Together they spent 19 days in hospital."]
    labels = [x.label for x in judge_keypoints("Nora Quinn stayed 7 days and Ivan Petrov 9 days, 16 days in total.",
                                               kps, "en")]
    assert labels == ["Relevant", "Wrong", "Wrong"]
    labels = [x.label for x in judge_keypoints("Nora Quinn stayed 7 days and Ivan Petrov 12 days, 19 days in total.",
                                               kps, "en")]
    assert labels == ["Relevant", "Relevant", "Relevant"]
    kps = ["1. 华远电子股份有限公司资产负债率为31.5%。", "2. 明泰化工股份有限公司资产负债率为42.8%。"]
    labels = [x.label for x in judge_keypoints("华远电子的资产负债率约为31.5%，明泰化工大约是28.6%。", kps, "zh")]
    assert labels == ["Relevant", "Wrong"]


def test_an_operation_named_by_its_act_is_swapped_for_another():
    kp = "Omar Reyes underwent transurethral resection of the bladder tumour."
    for answer in ["Omar Reyes had a radical cystectomy for the bladder tumour.",
                   "Omar Reyes was treated with transurethral ablation of the bladder tumour."]:
        assert label(answer, kp, "en") == "Wrong", answer
    assert label("Omar Reyes underwent transurethral resection of the bladder tumour (TURBT).", kp, "en") == "Relevant"
    assert label("Mr. Holt underwent total hip arthroplasty.", "Mr. Holt underwent hip replacement.", "en") != "Wrong"


def test_the_time_of_day_of_a_dose_is_a_closed_pair():
    # a keypoint that names both times contradicts neither; a time the answer says to avoid is no time given
    assert label("Metformin 500 mg twice daily (morning and night).",
                 "Metformin 500 mg is taken twice daily, morning and evening.", "en") != "Wrong"
    assert label("左甲状腺素钠每天早晨空腹服用，避免睡前服用。", "左甲状腺素钠每日早晨空腹服用。", "zh") != "Wrong"
    kp = "It was given orally once nightly."
    assert label("Simvastatin 20 mg, taken orally once daily in the morning.", kp, "en") == "Wrong"
    assert label("Simvastatin 20 mg, taken orally once at night.", kp, "en") != "Wrong"
    assert label("阿托伐他汀每日早晨口服。", "阿托伐他汀每晚睡前口服。", "zh") == "Wrong"
    assert label("阿托伐他汀每晚睡前口服。", "阿托伐他汀每晚睡前口服。", "zh") == "Relevant"


def test_a_count_of_what_an_unanswerable_question_asks_is_an_answer():
    for answer, q, language in [("大约在60项左右，其中发明专利约占一半。", "华远电子2022年度新获授权专利多少项？", "zh"),
                                ("Around 60 new patents, about half of them inventions.",
                                 "How many patents did Reed Electronics obtain in 2022?", "en")]:
        kp = "无法回答" if language == "zh" else "Unable to answer"
        assert judge_keypoints(answer, [kp], language, unanswerable=True, question=q)[0].label == "Wrong", answer
    # a count of something else answers nothing
    assert judge_keypoints("公司2022年末在职员工1200人，全年开展员工培训与安全生产演练。", ["无法回答"], "zh", unanswerable=True,
                           question="华远电子2022年度新获授权专利多少项？")[0].label != "Wrong"


def test_the_lobes_of_a_lung_are_a_closed_class():
    kp = "胸部CT提示左肺上叶见2.1cm结节，边缘毛刺。"
    assert label("胸部CT示左肺下叶约2.1cm结节，边缘毛刺。", kp, "zh") == "Wrong"
    assert label("胸部CT示左肺上叶约2.1cm结节，边缘毛刺。", kp, "zh") == "Relevant"


def test_a_reading_said_in_range_beside_high_ones_is_not_made_high():
    kp = "白细胞计数为6.4×10⁹/L，在参考范围内。"
    assert label("癌胚抗原8.1ng/mL，高于参考范围；白细胞计数6.4×10⁹/L，正常。", kp, "zh") == "Relevant"
    assert label("白细胞计数6.4×10⁹/L，高于参考范围。", kp, "zh") == "Wrong"


def test_a_clause_saying_the_record_leaves_it_out_or_that_it_is_unsure_denies_nothing():
    kp = "给药途径为口服，频次为每日3次。"
    for answer in ["剂量为每次0.2g，病历中未写明给药途径和频次。", "剂量应该是0.2g左右，具体给药途径和频次我不太确定。"]:
        assert label(answer, kp, "zh") != "Wrong", answer
    assert label("剂量为每次0.2g，静脉滴注，每日3次。", kp, "zh") == "Wrong"


def test_the_keypoints_person_named_in_the_role_later_in_the_answer_holds_it():
    kp = "审判员为李敏。"
    answer = "由审判员周强担任审判长，审判员李敏、人民陪审员陈红参加合议庭。"
    assert label(answer, kp, "zh") == "Relevant"
    assert label("由审判员周强担任审判长，审判员赵刚、人民陪审员陈红参加合议庭。", kp, "zh") == "Wrong"


def test_chinese_metric_unit_names_convert():
    kp = "阿莫西林的剂量为0.5g。"
    assert label("阿莫西林每次500毫克口服。", kp, "zh") == "Relevant"
    assert label("阿莫西林每次250毫克口服。", kp, "zh") == "Wrong"


def test_a_ratio_written_as_a_decimal_is_a_percentage():
    kps = ["1. The debt-to-asset ratio of Lane Foods Inc was 41.27%.", "2. The debt-to-asset ratio of Reed Mining Corp was 35.02%."]
    labels = [x.label for x in judge_keypoints("Debt-to-asset ratios: Lane Foods Inc 0.4127; Reed Mining Corp 0.2913.",
                                               kps, "en")]
    assert labels == ["Relevant", "Wrong"]
    assert _same_value(values("41.27%", "en")[0], values("0.4127", "en")[0])
    assert not _same_value(values("41.27%", "en")[0], values("0.5", "en")[0])  # (one place: no ratio written out)


def test_a_stock_exchange_named_by_its_abbreviation_is_named():
    kp = "It is listed on the New York Stock Exchange under the ticker BRKX."
    facts = [[{"doc_id": 1, "key": "exchange", "kind": "organisation", "text": "New York Stock Exchange",
               "value": "New York Stock Exchange", "unit": None},
              {"doc_id": 1, "key": "ticker", "kind": "text", "text": "BRKX", "value": "BRKX", "unit": None}]]
    assert judge_keypoints("Its shares trade on the NYSE (ticker: BRKX).", [kp], "en",
                           keypoint_facts=facts)[0].label == "Relevant"


def test_not_recognising_a_gain_is_a_denial_not_a_refusal():
    kp = "该事项的结果是公司因本次处置确认了一次性资产处置收益。"
    assert label("本次处置产生了亏损，公司并未确认资产处置收益。", kp, "zh") == "Wrong"
    assert label("资料中未能确认该事项的结果。", kp, "zh") == "Irrelevant"


def test_no_operation_denies_an_operation_named_by_its_act():
    kp = "Omar Reyes underwent transurethral resection of the bladder tumour."
    assert label("Omar Reyes had no operation; he was treated with intravesical chemotherapy.", kp, "en") == "Wrong"


def test_an_english_diagnosis_said_as_another_disease_is_wrong():
    judged = _diagnoses_judge("What were the diagnoses of Mia Long at Northside Hospital and of Paul Ortiz at Lakeview "
                              "Clinic?", [("Mia Long", "acute cholecystitis"), ("Paul Ortiz", "atrial flutter")])
    assert judged("Mia Long was diagnosed with appendicitis, and Paul Ortiz with heart failure.")[0] == "Wrong"
    assert judged("Mia Long: acute cholecystitis. Paul Ortiz: pulmonary embolism.") == ["Relevant", "Wrong"]
    assert judged("Mia Long was diagnosed with acute cholecystitis and Paul Ortiz with atrial flutter.") == \
        ["Relevant", "Relevant"]
    # a history or another condition is no diagnosis ("had" says either), nor is a general or stone word for it
    for answer in ["Mia Long had a history of hypertension.", "Mia Long had a stroke in 2019; this time she was "
                   "diagnosed with acute cholecystitis.", "Mia Long had diabetes and was diagnosed with acute "
                   "cholecystitis."]:
        assert judged(answer)[0] != "Wrong", answer


def test_none_of_them_being_one_says_there_are_none():
    kp = "董事会由9名董事组成，其中独立董事3名。"
    assert label("公司董事会共9名董事，但均非独立董事。", kp, "zh") == "Wrong"
    assert label("公司董事会共9名董事，其中非独立董事6名、独立董事3名。", kp, "zh") == "Relevant"


def test_amount_grades_and_surrender_forms_are_closed_class_members():
    assert label("The court graded the amount as relatively large.", "The court found a huge amount.", "en") == "Wrong"
    assert label("The court found the amount huge.", "The court found a huge amount.", "en") != "Wrong"
    kp = "Adrian Jonas made a truthful confession, which allows a lighter punishment."
    assert label("In mitigation, Adrian Jonas voluntarily surrendered to the police.", kp, "en") == "Wrong"


def test_a_prior_conviction_said_where_the_keypoint_says_none():
    kp = "Ruben Cole has no previous criminal record."
    assert label("The court considered that Ruben Cole had one prior conviction.", kp, "en") == "Wrong"
    assert label("Ruben Cole had prior convictions as a repeat offender.", kp, "en") == "Wrong"
    assert label("Ruben Cole has no prior convictions.", kp, "en") != "Wrong"


def test_a_life_sentence_is_no_term_of_years():
    kps = ["1. Ronald Andres was sentenced to 1 year and 7 months.", "2. John Carpen was sentenced to 11 years and 6 months."]
    answer = "John Carpen, tried by an intermediate court, was sentenced to life imprisonment, so Ronald Andres' term was shorter."
    assert [lab.label for lab in judge_keypoints(answer, kps, "en")] == ["Irrelevant", "Wrong"]
    assert label("James Garza was sentenced to 4 months of criminal detention.", "James Garza was sentenced to 4 months.",
                 "en") == "Relevant"


def test_meeting_kinds_and_thrombolytics():
    kp = "宁兴生物科技股份有限公司于2018年5月12日召开2018年第一次临时股东大会。"
    assert label("宁兴生物科技于2018年5月12日召开的是2017年年度股东大会。", kp, "zh") == "Wrong"
    assert label("宁兴生物科技于2018年5月12日召开了2018年第一次临时股东大会。", kp, "zh") == "Relevant"
    kp = "Debra Torre underwent intravenous thrombolysis with alteplase."
    assert label("Debra Torre was given intravenous thrombolysis with tenecteplase.", kp, "en") == "Wrong"


def test_another_set_of_ecg_leads():
    kp = "12导联心电图检查结果提示Ⅱ、Ⅲ、aVF导联ST段抬高3.2mm。"
    assert label("12导联心电图提示V1～V4导联ST段抬高3.2mm。", kp, "zh") == "Wrong"
    assert label("心电图提示II、III、aVF导联ST段抬高3.2mm。", kp, "zh") == "Relevant"
    kp = "The ECG showed ST elevation of 3.2 mm in leads II, III and aVF."
    assert label("The ECG showed ST elevation of 3.2 mm in leads V1-V4.", kp, "en") == "Wrong"
    assert label("The ECG showed 3.2 mm ST elevation in the inferior leads II, III, aVF.", kp, "en") == "Relevant"


def test_a_short_verb_a_few_words_after_the_name_leads_to_the_slot():
    facts = [[{"kind": "category", "key": "charge", "text": "贩卖毒品罪"}]]
    kp = ["3. 被告人陈建华犯贩卖毒品罪。"]
    assert judge_keypoints("陈建华被认定犯非法持有毒品罪。", kp, "zh", keypoint_facts=facts)[0].label == "Wrong"
    assert judge_keypoints("陈建华被认定犯贩卖毒品罪。", kp, "zh", keypoint_facts=facts)[0].label == "Relevant"


def test_review_cases_stay_as_people_read_them():
    # the keypoint's own denial said back is no denial of it
    assert label("被告人作案时未满18周岁。", "被告人作案时未满18周岁。", "zh") == "Relevant"
    assert label("She hadn't yet turned 50 at the time.", "She was 50 years old at the time.", "en") == "Wrong"
    # distinct drugs stay distinct; a name before a drug is not part of it
    assert label("She was given ofloxacin 500 mg once daily.", "She was given levofloxacin 500 mg once daily.", "en") == "Wrong"
    assert label("予泼尼龙40mg每日一次。", "予甲泼尼龙40mg每日一次。", "zh") != "Relevant"
    assert label("医院给予郑秀英泼尼松片20mg口服。", "泼尼松片的剂量为20mg。", "zh") == "Relevant"
    # a negation governs its own verb's object only
    assert label("He never missed a dose of warfarin.", "He was taking warfarin.", "en") != "Wrong"
    assert label("医生未见异常后予阿司匹林100mg每日一次。", "予阿司匹林100mg每日一次。", "zh") == "Relevant"
    assert label("Li Ming was sentenced to 15 years in prison, avoiding the death penalty.",
                 "Li Ming was sentenced to 15 years.", "en") == "Relevant"
    # 签约 is no hedge; 没有出现 is a denial, not a comparison; "normal range" is no status
    assert label("公司与客户签约1,300万元。", "公司与客户签约1,340万元。", "zh") == "Wrong"
    assert label("术后没有出现早搏。", "术后出现早搏。", "zh") == "Wrong"
    assert label("WBC was 12.5 x10^9/L (normal range 4-10).", "WBC was 12.5 x10^9/L, above the reference range.",
                 "en") != "Wrong"
    # a fact is read as its keypoint is
    facts = [[{"kind": "organisation", "key": "hospital", "text": "Brightwater Medical Centre"}]]
    kp = ["She was admitted to Brightwater Medical Centre."]
    assert judge_keypoints(kp[0], kp, "en", keypoint_facts=facts)[0].label == "Relevant"
    assert judge_keypoints("Each apartment unit sold for $300,000.", ["Each housing unit sold for $300,000."],
                           "en")[0].label != "Wrong"


def test_a_charge_not_found_is_denied():
    kp = "被告人詹明犯受贿罪。"
    assert label("厦门中院没有认定詹明犯受贿罪，宣告其无罪。", kp, "zh") == "Wrong"
    assert label("法院认为詹明的行为不构成受贿罪。", kp, "zh") == "Wrong"
    assert label("法院认定詹明犯受贿罪。", kp, "zh") == "Relevant"


def test_another_kind_of_contract_or_dispute():
    kp = "合同内容为城市综合体开发建设合同。"
    assert label("公司签订的是一份工程施工合同，金额3亿元。", kp, "zh") == "Wrong"
    assert label("公司与对方签订了五年期联合研发战略合作协议。", kp, "zh") == "Wrong"  # 协议 is a contract too
    assert label("公司签订了城市综合体开发建设合同。", kp, "zh") == "Relevant"
    assert label("公司签订了一份重大合同，金额3亿元。", kp, "zh") == "Irrelevant"  # a contract, kind not said
    assert label("该诉讼为借款合同纠纷。", "该诉讼涉及买卖合同纠纷。", "zh") == "Wrong"
    assert label("这是一起劳动争议，双方已达成调解。", "该诉讼涉及产品责任纠纷。", "zh") == "Wrong"
    assert label("该公司已进入诉讼程序。", "该诉讼涉及产品责任纠纷。", "zh") == "Irrelevant"  # 诉讼程序 is no kind
    assert label("该诉讼并非劳动争议。", "该诉讼涉及产品责任纠纷。", "zh") == "Irrelevant"
    kp = "The litigation with Gray Ltd concerned a contract dispute."
    assert label("The suit with Gray Ltd was a trademark infringement case.", kp, "en") == "Wrong"
    assert label("In this case, Gray Ltd lost.", kp, "en") == "Irrelevant"
    assert label("It was not a patent case.", kp, "en") == "Irrelevant"
    kp = "The company signed an equipment leasing contract."
    assert label("The company signed a cloud services agreement.", kp, "en") == "Wrong"
    assert label("The company signed a five-year equipment leasing agreement.", kp, "en") == "Relevant"


def test_a_date_given_to_another_step_of_its_course():
    kp = "被告人李磊于2023年1月6日被刑事拘留。"
    assert label("李磊于2023年1月6日被逮捕；2023年5月7日被提起公诉。", kp, "zh") == "Wrong"
    assert label("李磊于2023年1月6日被刑事拘留，同年1月17日被逮捕。", kp, "zh") == "Relevant"
    kp = "Ann Lee was admitted on March 3, 2022."
    assert label("Ann Lee was discharged on March 3, 2022.", kp, "en") == "Wrong"
    # a hearing and its judgment may fall on one day: the judgment's date says nothing of the hearing's
    kp = "The public hearing was held on April 20, 2020."
    assert label("He was prosecuted on March 2, 2020 and sentenced on April 20, 2020.", kp, "en") == "Irrelevant"


def test_another_industry():
    kp = "通海运输股份有限公司所属行业为交通运输与物流。"
    assert label("通海运输股份有限公司总部位于南宁市，属于化工行业。", kp, "zh") == "Wrong"
    assert label("通海运输股份有限公司属于交通运输行业。", kp, "zh") == "Relevant"
    kp = "Johnson Industries Corporation operates in the manufacturing industry."
    assert label("Johnson Industries Corporation operates in the chemicals sector.", kp, "en") == "Wrong"
    assert label("Johnson Industries Corporation is a manufacturing company.", kp, "en") != "Wrong"


def test_a_sentence_naming_no_one_goes_on_about_the_one_before():
    facts = [[{"kind": "place", "key": "residence", "text": "Bellview, Nebraska"}]]
    kp = ["Hunter Hart lives in Bellview, Nebraska."]
    answer = "Hunter Hart is 70. He still works as a teacher, and he lives in Bellview, Nebraska."
    assert judge_keypoints(answer, kp, "en", keypoint_facts=facts, question="Where does Hunter Hart live?")[0].label \
        == "Relevant"
    # a proper noun's lemma is a stem like any other word's (simplemma capitalises "nebraska")
    assert label("He lives in Lincoln, nebraska.", "He lives in Lincoln, Nebraska.", "en") == "Relevant"
    # "the contract is worth $X": no kind of contract; a year before "agreement" is no kind either
    assert label("Reed Learning's 2022 agreement is valued at USD 11,610,000.", "The contract is worth $11.61 million.",
                 "en") == "Relevant"


def test_a_person_the_question_names_fills_no_role():
    kps = ["1. Judge Douglas Poole sat on the panel.", "2. People's assessor Emily Rivera sat on the panel."]
    question = "Which judge and which people's assessor sat on the panel that tried Bryan Allen?"
    answer = ("Besides presiding judge Michael Keith, the panel that tried Bryan Allen consisted of judge Douglas Poole "
              "and people's assessor Emily Rivera.")
    assert [x.label for x in judge_keypoints(answer, kps, "en", question=question)] == ["Relevant", "Relevant"]
    wrong = "The panel that tried Bryan Allen consisted of judge Alan Park and people's assessor Emily Rivera."
    assert [x.label for x in judge_keypoints(wrong, kps, "en", question=question)] == ["Wrong", "Relevant"]


def test_more_ways_to_decline():
    assert is_refusal("The context lacks the statements, so I can't give their revenue or net profit.", "en")
    assert is_refusal("There's no height recorded for Katelyn Ramos in the inpatient record provided.", "en")
    assert not is_refusal("There was no fever and no rash.", "en")
    kp = ["1. Collins Telecom Group reported operating revenue of $2.35 billion."]
    answer = "I don't have the statements of Collins Telecom Group here, so I can't give its revenue."
    assert judge_keypoints(answer, kp, "en")[0].label == "Irrelevant"


def test_the_party_of_the_questions_value_is_the_point():
    kp = ["1. 被告人王丹一案的受贿数额为人民币13.52万元。"]
    facts = [[{"kind": "money", "key": "amount", "text": "13.52万元", "value": 135200.0, "unit": "CNY"},
              {"kind": "person", "key": "defendant", "text": "王丹"}]]
    question = "受贿数额达人民币13.52万元的案件，被告人被判处多长刑期？"
    said = "王丹受贿13.52万元，被判处管制一年十个月。"
    assert judge_keypoints(said, kp, "zh", keypoint_facts=facts, question=question)[0].label == "Relevant"
    other = "李强受贿13.52万元，被判处管制一年十个月。"
    assert judge_keypoints(other, kp, "zh", keypoint_facts=facts, question=question)[0].label == "Wrong"


def test_a_drug_said_not_given():
    assert label("缩小前列腺体积并未使用非那雄胺片，而是给予坦索罗辛。", "所用药物为非那雄胺片。", "zh") == "Wrong"
    assert label("抗感染用阿奇霉素，未使用甲泼尼龙等全身激素。", "使用甲泼尼龙，剂量2mg/kg，静脉滴注，每日1次。", "zh") == "Wrong"
    assert label("He was never given metoprolol; diltiazem was used instead.", "The drug was metoprolol succinate.",
                 "en") == "Wrong"
    # given after all, or denied of another drug
    assert label("起初未使用甲泼尼龙，后予甲泼尼龙2mg/kg静脉滴注每日1次。", "使用甲泼尼龙，剂量2mg/kg，静脉滴注，每日1次。",
                 "zh") != "Wrong"
    assert label("予甲泼尼龙2mg/kg静脉滴注每日1次，未使用阿奇霉素。", "使用甲泼尼龙，剂量2mg/kg，静脉滴注，每日1次。",
                 "zh") == "Relevant"
    assert label("未使用华法林。", "未使用华法林。", "zh") != "Wrong"


def test_a_denial_belongs_to_the_keypoint_whose_words_it_denies():
    kps = ["1. 被告人韩彬出生于1980年4月9日。", "2. 出生地为河南省洛阳市。"]
    answer = "韩彬1980年4月9日出生，但他并非出生于河南省洛阳市，只是长期居住在洛阳市西工区。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Wrong"]
    answer = "韩彬1980年4月9日出生于河南省洛阳市。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]


def test_more_ways_to_decline_to_say():
    assert is_refusal("The record does not describe a treatment on that day.", "en")
    assert is_refusal("I cannot confirm who gave it.", "en")


def test_a_district_is_a_place_not_a_person():
    kps = ["1. The judgment against Michael Baker was made on September 13, 2019.",
           "2. The judgment against Kenneth Marshall was made on December 21, 2020."]
    answer = ("Kenneth Marshall was sentenced first: the Cedar Hill District court's judgment is dated December 21, "
              "2018, nine months before the Greenwood District court ruled against Michael Baker on September 13, 2019.")
    assert [x.label for x in judge_keypoints(answer, kps, "en")] == ["Relevant", "Wrong"]


def test_a_bill_is_how_a_cost_is_said():
    kps = ["1. Brooke Williams's stay cost $22,171.", "2. Katelyn Ramos's stay cost $28,742."]
    question = "How much did the hospital stays of Brooke Williams and Katelyn Ramos cost?"
    answer = "Brooke Williams was billed $4,122 and Katelyn Ramos $28,742 for their hospital stays."
    assert [x.label for x in judge_keypoints(answer, kps, "en", question=question)] == ["Wrong", "Relevant"]
    answer = "Brooke Williams's bill totaled $22,171, while Katelyn Ramos's hospitalization came to $45,482."
    assert [x.label for x in judge_keypoints(answer, kps, "en", question=question)] == ["Relevant", "Wrong"]


def test_happened_on_is_no_birth_and_a_deal_names_its_other_side_after_its_date():
    kps = ["1. 与德远投资有限公司的资产重组发生于2021年9月28日。", "2. 交易对价为5,409.42万元。"]
    said = "根据成兴影视股份有限公司年报，公司于2021年9月28日启动资产重组，向德远投资有限公司转让闲置资产，交易金额5,409.42万元。"
    assert [x.label for x in judge_keypoints(said, kps, "zh")] == ["Relevant", "Relevant"]
    other = "成兴影视股份有限公司与德远投资有限公司之间的资产重组经董事会于2022年3月29日审议通过后实施。"
    assert judge_keypoints(other, kps, "zh")[0].label == "Wrong"


def test_a_test_result_named_by_its_test_alone():
    kp = "The hemoglobin result was 99 g/L, below the reference range."
    answer = "His D-dimer was raised at 1.82 mg/L, his hemoglobin was low at 83 g/L, and his albumin was low at 31.4 g/L."
    assert label(answer, kp, "en") == "Wrong"
    assert label("His hemoglobin was low at 99 g/L.", kp, "en") == "Relevant"
    kp = "The N-terminal pro-B-type natriuretic peptide result was 1,128 pg/mL, above the reference range."
    assert label("NT-proBNP was 1,442 pg/mL (high) and TSH 0.92 mIU/L.", kp, "en") == "Wrong"
    assert expand("NT-proBNP 1442 pg/mL", "en").startswith("N-terminal pro-B-type natriuretic peptide")


def test_a_name_after_de_shi_is_a_name():
    kps = ["1. 检察员周建在被告人宋飞一案中出庭。", "2. 检察员李凯在被告人胡博一案中出庭。"]
    facts = [[{"kind": "person", "key": "prosecutor", "text": "周建"}], [{"kind": "person", "key": "prosecutor", "text": "李凯"}]]
    answer = "宋飞案出庭支持公诉的是佟宇，胡博案出庭支持公诉的则是吴楠。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh", keypoint_facts=facts)] == ["Wrong", "Wrong"]
    answer = "宋飞案出庭支持公诉的是周建，胡博案出庭支持公诉的则是李凯。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh", keypoint_facts=facts)] == ["Relevant", "Relevant"]


def test_a_value_said_not_to_exist():
    assert label("相关资产系无偿划转，公司未收取任何对价。", "交易对价为3,188.37万元。", "zh") == "Wrong"
    assert label("公司股票尚未上市，没有证券代码。", "股票在上海证券交易所上市，证券代码为601859。", "zh") == "Wrong"
    assert label("The board has 11 directors, none of whom is independent.", "The board has 11 directors, 9 of them "
                 "independent.", "en") == "Wrong"
    # a record that lacks the figure is no denial of it; a zero digit inside a number is no zero
    assert label("病历中未写明交易对价。", "交易对价为3,188.37万元。", "zh") == "Irrelevant"
    assert label("检索到的病历中没有住院费用的明细，无法计算。", "住院总费用为4.4万元。", "zh") == "Irrelevant"
    assert label("李雷的白蛋白为4.44 g/dL，参考范围4.0～5.5 g/dL。", "参考范围为40～55g/L，结果在参考范围内。", "zh") != "Wrong"
    assert label("公司主营业务未发生重大变化。", "2022年9月9日发生重大合同事项，涉及金额1.29亿元。", "zh") == "Irrelevant"


def test_an_offence_named_by_its_act_in_chinese():
    kps = ["1. 被告人李鑫一案的被盗财物价值为人民币2,600元。", "2. 被告人王龙一案的抢劫财物价值为人民币1,610元。"]
    answer = "李鑫诈骗他人财物价值2,600元，王龙盗窃财物价值1,610元。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh")] == ["Wrong", "Wrong"]
    answer = "李鑫盗窃他人财物价值2,600元，王龙抢劫财物价值1,610元。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh")] == ["Relevant", "Relevant"]


def test_a_sentence_about_two_parties_is_read_by_their_clauses():
    kp = "Evans Networks Holdings is headquartered in Charlotte, North Carolina."
    answer = ("Bush Chemical Industries Corporation is headquartered in Dallas, Texas, and Evans Networks "
              "Holdings in Raleigh, North Carolina.")
    assert judge_keypoints(answer, [kp, "Bush Chemical Industries Corporation is headquartered in Dallas, Texas."],
                           "en")[0].label != "Relevant"


def test_a_place_in_a_clause_that_leaves_out_its_verb():
    kp = "Evans Networks Holdings is headquartered in Charlotte, North Carolina."
    facts = [[{"kind": "place", "key": "headquarters", "text": "Charlotte, North Carolina"}]]
    answer = ("Bush Chemical Industries Corporation is headquartered in Dallas, Texas, and Evans Networks Holdings in "
              "Raleigh, North Carolina.")
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = ("Bush Chemical Industries Corporation is headquartered in Dallas, Texas, and Evans Networks Holdings in "
              "Charlotte, North Carolina.")
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"


def test_another_kind_of_corporate_event_on_the_keypoints_date():
    kp = "The first major event of Ramirez Freight Holdings was its strategic partnership on March 19, 2020."
    assert label("Ramirez Freight Holdings' first major event was an acquisition completed on March 19, 2020.", kp,
                 "en") == "Wrong"
    assert label("Ramirez Freight Holdings' first major event was a strategic partnership on March 19, 2020.", kp,
                 "en") == "Relevant"
    # other events of the year, on other dates, are no answer for this one
    assert label("Ramirez Freight Holdings' events were a strategic partnership on March 19, 2020 and an acquisition "
                 "on May 2, 2020.", kp, "en") == "Relevant"
    kp = "康德文化传媒股份有限公司的第一项重大事项是2023年1月14日的新产品发布事项。"
    assert label("康德文化传媒的第一项重大事项是2023年1月14日的战略合作。", kp, "zh") == "Wrong"


def test_a_found_value_said_not_to_be_the_keypoints():
    assert label("曾琴并未在2022年4月22日出院，而是转入肿瘤内科继续治疗。", "曾琴于2022年4月22日出院。", "zh") == "Wrong"
    assert label("2020年8月28日20时50分许并不是陈欢的犯罪时间，而是发现线索的时间。", "案发日期为2020年8月28日。", "zh") == "Wrong"
    assert label("The hearing was not on March 3, 2021; it was adjourned.", "The hearing was held on March 3, 2021.",
                 "en") == "Wrong"
    # a status said after the value is the range's, not a denial of the value
    assert label("Her CEA of 4.0 ng/mL was not within the reference range.", "The CEA result was 4.0 ng/mL.",
                 "en") == "Relevant"
    assert label("曾琴于2022年4月22日出院，未再复发。", "曾琴于2022年4月22日出院。", "zh") == "Relevant"


def test_no_operation_denies_a_named_procedure():
    kp = "Danielle Jackson underwent laparoscopic myomectomy."
    assert label("Danielle Jackson had no operation during this stay; her fibroids were managed conservatively.", kp,
                 "en") == "Wrong"
    assert label("Danielle Jackson underwent laparoscopic myomectomy and had no complications.", kp, "en") == "Relevant"


def test_a_sentences_counterparty_is_not_whom_it_is_about():
    kp = "The first major event of Ramirez Freight Holdings was its strategic partnership on March 19, 2020."
    answer = ("Ramirez Freight Holdings lists its 2020 events in date order. The first was a strategic partnership with "
              "Blackburn Technologies on March 19, 2020, a five-year joint research agreement.")
    assert label(answer, kp, "en") == "Relevant"


def test_an_ordinal_that_names_the_item_is_no_fact_of_its_own():
    kp = "盛宏文教股份有限公司的第一项重大事项是2022年2月4日的收购事项。"
    assert label("盛宏文教股份有限公司于2022年2月4日完成对博永文教80%股权的收购。", kp, "zh") == "Relevant"
    assert label("盛宏文教股份有限公司于2022年6月4日完成收购。", kp, "zh") == "Wrong"
    # a statute's item stays a value
    kp = "定罪依据为刑法第三百八十三条第一款第（二）项。"
    assert label("定罪依据为刑法第三百八十三条第一款。", kp, "zh") != "Relevant"


def test_a_name_before_a_verb_of_succession():
    kp = "郑利接替了朱俊。"
    facts = [[{"kind": "person", "key": "incoming", "text": "郑利"}, {"kind": "person", "key": "outgoing", "text": "朱俊"}]]
    question = "远开汽车科技股份有限公司由谁接替朱俊？"
    assert judge_keypoints("自2018年5月7日起，叶敏接替朱俊担任公司财务总监。", [kp], "zh", keypoint_facts=facts,
                           question=question)[0].label == "Wrong"
    assert judge_keypoints("自2018年3月21日起，郑利接替朱俊担任董事会秘书。", [kp], "zh", keypoint_facts=facts,
                           question=question)[0].label == "Relevant"


def test_second_review_cases_stay_as_people_read_them():
    facts = [[{"kind": "person", "key": "defendant", "text": "王丹"},
              {"kind": "money", "key": "amount", "text": "13.52万元", "value": 135200.0, "unit": "CNY"}]]
    kp, question = ["被告人王丹利用担任局长的职务便利受贿13.52万元。"], "受贿13.52万元的被告人是谁？"
    assert judge_keypoints("王丹并非受贿人，他是本案的证人。", kp, "zh", keypoint_facts=facts, question=question)[0].label \
        == "Wrong"
    # a clause that leaves out its verb takes the verb, not the place, of the clause before
    assert label("Acme Corp is headquartered in Denver, and Beta Inc in Austin.", "Beta Inc is headquartered in Denver.",
                 "en") == "Wrong"
    assert label("Li Ming was convicted of fraud, and Wang Fang for her part was acquitted.",
                 "Wang Fang was convicted of fraud.", "en") == "Wrong"
    # 曾因 is no name; 毛利率 after 的是 is no name
    assert label("张三于2020年3月被抓获。此前，曾因盗窃于2015年被判处有期徒刑一年。", "张三曾于2015年因盗窃罪被判处有期徒刑一年。",
                 "zh") == "Relevant"
    # 未来 and 无形 deny nothing; 0.5 is no zero
    assert label("公司预计未来营业收入将持续增长。", "公司2020年营业收入为5亿元。", "zh") == "Irrelevant"
    assert label("公司无形资产占比较高。", "公司2020年总资产为50亿元。", "zh") == "Irrelevant"
    assert label("Training hours were 0.5% higher than in 2019.", "Employees completed 36 training hours in 2020.",
                 "en") != "Wrong"
    # "not until DATE", "X而不是Y", a deadline and a ranking deny no value
    assert label("It was not until 12 May 2021 that the patient was discharged.",
                 "The patient was discharged on 12 May 2021.", "en") == "Relevant"
    assert label("被告人张三获利5万元而不是3万元。", "被告人张三获利5万元。", "zh") == "Relevant"
    assert label("被告人张三未于2020年5月1日前归还借款。", "借款到期日为2020年5月1日。", "zh") != "Wrong"
    assert label("Acme Corp's revenue of $5.2 million was not the highest among its peers.",
                 "Acme Corp's revenue was $5.2 million.", "en") == "Relevant"
    # a synonym or a broader kind is no other kind
    assert label("The dispute arose from an employment contract.", "The case was a labor contract dispute.", "en") != "Wrong"
    assert label("The company signed a five-year lease agreement.", "The company signed a rental contract.", "en") != "Wrong"
    assert label("华新公司属于汽车制造行业。", "华新公司所属行业为制造业。", "zh") == "Relevant"
    assert label("本案为一起盗窃案件。", "本案属于刑事案件。", "zh") != "Wrong"
    assert label("原告李四向法院提起民事诉讼，要求被告支付货款10万元。", "本案为买卖合同纠纷。", "zh") != "Wrong"
    assert label("Acme Corp won the trademark case, and other firms soon followed suit.",
                 "Acme Corp's case was a trademark dispute.", "en") != "Wrong"
    assert label("Acme Corp's industry is highly competitive.", "Acme Corp operates in the retail industry.", "en") != "Wrong"
    assert label("华新公司所处行业竞争激烈。", "华新公司所属行业为零售业。", "zh") != "Wrong"
    # a drug stopped was given; "no further surgery" and "no operation on the liver" deny no operation done
    assert label("术前5天停用阿司匹林。", "患者长期口服阿司匹林。", "zh") != "Wrong"
    assert label("患者入院后不再使用华法林，改用利伐沙班。", "患者既往服用华法林抗凝。", "zh") != "Wrong"
    assert label("The gallbladder was removed laparoscopically; no further surgery was needed.",
                 "He underwent cholecystectomy.", "en") != "Wrong"
    assert label("Ms Lee had surgery on her colon (a sigmoid resection); there was no operation on the liver.",
                 "Ms Lee underwent sigmoid colectomy.", "en") != "Wrong"
    # buying a company is acquiring it; 收受行贿款 is taking a bribe
    assert label("On 12 May 2021 Acme Corp completed a restructuring in which it bought all of Beta Ltd.",
                 "On 12 May 2021, Acme Corp acquired Beta Ltd.", "en") != "Wrong"
    assert label("张三收受李四行贿款10万元。", "张三受贿10万元。", "zh") == "Relevant"
    # "did not describe" and "cannot give consent" are no refusals; a pronoun after another person's sentence
    assert label("He did not describe any chest pain.", "The patient denied chest pain.", "en") == "Relevant"
    assert label("He cannot give consent, so his wife signed for the operation.", "His wife signed the consent form.",
                 "en") == "Relevant"
    assert label("Li Ming was sentenced to five years. His lawyer was Wang Fang. He did not appeal the judgment.",
                 "Li Ming did not appeal.", "en") == "Relevant"
    assert label("Zhang San was arrested on 5 March 2020.", "Zhang San was criminally detained on 5 March 2020.",
                 "en") != "Wrong"
    # a denial of another keypoint's words (the birthplace) is not this one's (the birth date)
    answer = "张三生于1980年3月2日，但并非出生于北京。"
    assert [x.label for x in judge_keypoints(answer, ["张三出生于1980年3月2日。", "张三出生于北京。"], "zh")] == \
        ["Relevant", "Wrong"]
    # a Chinese event after a clause that holds only its date
    assert label("2021年5月12日，公司发行债券融资。", "2021年5月12日，公司回购股份。", "zh") == "Wrong"


def test_an_allergy_denied():
    kp = "过敏史：有磺胺类药物过敏史，表现为荨麻疹。"
    assert label("范云，63岁，退休干部；否认药物及食物过敏史。", kp, "zh") == "Wrong"
    assert label("范云有磺胺类药物过敏史，表现为荨麻疹，否认食物过敏史。", kp, "zh") == "Relevant"
    kp = "She has an allergy to pollen, with seasonal sneezing."
    assert label("She is 77 and has no known drug allergies.", kp, "en") == "Wrong"
    assert label("否认药物过敏史。", "否认药物过敏史。", "zh") != "Wrong"


def test_a_strong_chinese_denial_of_part_of_a_keypoint():
    kp = "公司主营业务为住宅及商业地产开发、物业管理和租赁经营。"
    assert label("信锦地产属于房地产行业，但公司并不从事住宅及商业地产开发，主营业务仅为物业管理和租赁经营。", kp, "zh") == "Wrong"
    assert label("公司主营住宅及商业地产开发，并不从事建筑施工，另有物业管理和租赁经营。", kp, "zh") != "Wrong"


def test_another_senior_post():
    kp = "涉及的职务为董事会秘书。"
    assert label("自2018年5月7日起，叶敏接替朱俊担任公司财务总监。", kp, "zh") == "Wrong"
    assert label("郑利接替朱俊担任董事会秘书，董事长张强主持了会议。", kp, "zh") == "Relevant"
    assert label("The chairman, Ann Lee, announced the change.", "The post involved was Corporate Secretary.",
                 "en") != "Wrong"  # (an officer named in passing fills no post)
    assert label("Ann Lee was appointed chief financial officer.", "The post involved was Corporate Secretary.",
                 "en") == "Wrong"


def test_another_drug_or_place_said_in_general_shapes():
    # a -grelor drug (ticagrelor) is a drug; 所用 (used) is no topic a drug must share
    question = "Which drug was he given to slow the heart rate, and at what dose?"
    assert judge_keypoints("To slow the heart rate he was given ticagrelor 90 mg orally twice daily.",
                           ["The drug was metoprolol succinate."], "en", question=question)[0].label == "Wrong"
    question = "医院为缩小前列腺体积给张建军使用了什么药物？"
    assert judge_keypoints("为缩小前列腺体积，给予坦索罗辛缓释胶囊5mg，口服，每日1次。", ["所用药物为非那雄胺片。"], "zh",
                           question=question)[0].label == "Wrong"
    assert judge_keypoints("为缩小前列腺体积，给予非那雄胺片5mg，口服。", ["所用药物为非那雄胺片。"], "zh",
                           question=question)[0].label == "Relevant"
    # a place after a comma takes the clause before's verb; a place's name that looks like a person's is a place
    facts = [[{"doc_id": 1, "key": "birthplace", "kind": "place", "text": "West James, New Hampshire",
               "value": "West James, New Hampshire", "unit": None}]]
    kp = "Christopher Chavez was born in West James, New Hampshire."
    answer = "Christopher Chavez was born on July 27, 1967, in South Victoria, Arizona."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "Christopher Chavez was born on July 27, 1967, in West James, New Hampshire."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"
    facts = [[{"doc_id": 1, "key": "residence", "kind": "place", "text": "Bellview, Nebraska",
               "value": "Bellview, Nebraska", "unit": None}]]
    kp = "Hunter Hart lives in Bellview, Nebraska."
    answer = "Hunter Hart works as a truck driver and lives in Des Moines, Iowa."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "Hunter Hart lives in Bellview, Nebraska, with his wife Mary Stone."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Relevant"


def test_another_procedure_by_its_surgical_suffix_is_wrong():
    kp = "Danielle Jackson underwent laparoscopic myomectomy."
    assert label("She underwent a laparoscopic hysterectomy.", kp, "en") == "Wrong"
    assert label("On July 1, 2021, Dr Rivera performed a breast-conserving lumpectomy on Destiny Craig.",
                 "On July 1, 2021, Destiny Craig underwent left modified radical mastectomy.", "en") == "Wrong"
    # the same procedure in another form, one only planned, one said on another topic: no swap
    assert label("She underwent laparoscopic removal of the fibroids (myomectomies were counted as one).", kp,
                 "en") != "Wrong"
    assert label("He underwent ERCP; a laparoscopic cholecystectomy is planned in six weeks.",
                 "He underwent endoscopic retrograde cholangiopancreatography.", "en") != "Wrong"
    assert label("He had a coronary angiogram; his father had a colectomy years ago.",
                 "He underwent coronary angiography.", "en") != "Wrong"


def test_a_stand_in_said_in_the_words_the_question_asks_with():
    kps = ["The defence counsel was Brooke Wilson.", "The counsel is a lawyer of Whitmore & Khan Law Firm."]
    facts = [_facts("person", "Brooke Wilson")[0], _facts("organisation", "Whitmore & Khan Law Firm")[0]]
    question = "Which lawyer represented Timothy Williams at the Maplewood Court, and where does that lawyer practise?"

    def labels(answer: str) -> list[str]:
        return [x.label for x in judge_keypoints(answer, kps, "en", keypoint_facts=facts, question=question)]
    assert labels("Timothy Williams was represented by Natasha Reynolds, an attorney at Hartley & Madden Law Firm.") \
        == ["Wrong", "Wrong"]
    assert labels("Timothy Williams was represented at trial by Jeffrey Johnson.") == ["Wrong", "Irrelevant"]
    # (a person is no law firm's stand-in; the lawyer named is no stand-in either)
    assert labels("Timothy Williams was represented by Brooke Wilson of Whitmore & Khan Law Firm.") == \
        ["Relevant", "Relevant"]
    # what the question says of what it asks about ("the offence committed on …") is no role's words
    kps = ["The offence was tried by the Brookside District People's Court.", "Tina Camacho was the presiding judge."]
    question = "Who presided over the trial of the offence committed on April 12, 2020 at the car park?"
    answer = "The offence was a robbery committed by Paul Thomas, and it was tried by the Brookside District People's Court."
    assert [x.label for x in judge_keypoints(answer, kps, "en", keypoint_facts=[[], _facts("person", "Tina Camacho")[0]],
                                             question=question)][1] == "Irrelevant"
    # a refusal names the question's company, not one in the auditor's place
    kp = "汇远会计师事务所（特殊普通合伙）出具了标准无保留意见的审计报告。"
    answer = "提供的资料中未包含天恒机械股份有限公司2022年度公司治理的相关信息。"
    assert judge_keypoints(answer, [kp], "zh", keypoint_facts=_facts("organisation", "汇远会计师事务所（特殊普通合伙）"),
                           question="请概述天恒机械股份有限公司2022年度的公司治理情况。")[0].label == "Irrelevant"


def test_a_facts_lead_with_a_pronoun_object_between_its_words():
    facts = _facts("category", "causing a traffic accident")
    kp = "Russell Hunt was convicted of causing a traffic accident."
    assert judge_keypoints("The court convicted him of negligent homicide under Article 233.", [kp], "en",
                           keypoint_facts=facts)[0].label == "Wrong"
    assert judge_keypoints("The court convicted him of causing a traffic accident.", [kp], "en",
                           keypoint_facts=facts)[0].label == "Relevant"


def test_a_denial_of_the_keypoint_whose_party_is_its_facts_value():
    # the firm is the keypoint's value, not whom it speaks of: a denial naming only the defendant denies it
    kp, facts = "The prosecutor acted for the Highland District People's Procuratorate.", \
        _facts("organisation", "Highland District People's Procuratorate")
    answer = ("No prosecutor appeared at the hearing. Because Cassandra Green had pleaded guilty, the Highland District "
              "People's Procuratorate did not send anyone to court.")
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == "Wrong"
    answer = "The Highland District People's Procuratorate sent a prosecutor, who appeared at the hearing."
    assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label != "Wrong"


def test_a_segments_figure_listed_under_another_name_without_a_head_word():
    kp = "售后服务板块实现收入1.73亿元，占比43.3%。"
    assert label("公司收入分为三个板块：精密零部件1.86亿元（46.5%），备件销售1.73亿元（43.3%）。", kp, "zh") == "Wrong"
    assert label("公司收入主要来自酒店经营（1.28亿元）和景区运营（1.73亿元，占43.3%）。", kp, "zh") == "Wrong"
    assert label("公司收入分为三个板块：精密零部件1.86亿元（46.5%），售后服务1.73亿元（43.3%）。", kp, "zh") == "Relevant"
    kp = "The vaccines segment generated $390.13 million, or 20.6% of revenue."
    assert label("Diagnostic reagents contributed $482.06 million (25.5%); medical devices brought in $390.13 million "
                 "(20.6%).", kp, "en") == "Wrong"
    assert label("The segment brought in $390.13 million (20.6%).", kp, "en") != "Wrong"
    assert label("Vaccines brought in $390.13 million (20.6%).", kp, "en") == "Relevant"


def test_another_member_of_a_chinese_category_after_the_same_label():
    kp, facts = "韩雪的诊断为肺炎支原体肺炎。", _facts("category", "肺炎支原体肺炎")
    for answer, expected in [("韩雪被诊断为细菌性肺炎，陈玉珍被诊断为输尿管结石。", "Wrong"),
                             ("韩雪的诊断为肺炎支原体肺炎。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == expected, answer
    kp, facts = "诊断为急性缺血性脑卒中。", _facts("category", "急性缺血性脑卒中")
    assert judge_keypoints("诊断为急性缺血性卒中。", [kp], "zh", keypoint_facts=facts)[0].label != "Wrong"  # (one name)


def test_comparing_the_two_is_no_than():
    # 二者相比/两人相比 compares the two; the party after it is the comparison's subject, not the one compared with
    kps = ["李林的刑期为十个月。", "张兵的刑期为五个月。", "被告人李林的刑期更长。"]
    answer = "李林的刑期为十个月，张兵的刑期为五个月，二者相比张兵的刑期更长。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh", question="被告人李林与张兵谁的刑期更长？")] == \
        ["Relevant", "Relevant", "Wrong"]
    assert label("张明作案时47周岁，陈宇作案时已满50周岁，两人相比陈宇更年长。", "被告人陈宇的年龄更大。", "zh") == "Relevant"
    assert label("冯想入院时77岁，刘宁入院时64岁，二者相比刘宁年纪更小。", "刘宁更年轻。", "zh") == "Relevant"


def test_an_ordinal_in_a_capitalised_name_is_no_comparison():
    kp = "Thomas Commerce Group met first."
    answer = ("Thomas Commerce Group's First Extraordinary General Meeting of 2020 was on September 3, 2020, and Gibson "
              "Auto Parts Group's First Extraordinary General Meeting of 2023 was on January 25, 2023, so Thomas Commerce "
              "Group convened its meeting later.")
    question = ("Which company convened its first extraordinary general meeting of the year earlier, Gibson Auto Parts "
                "Group or Thomas Commerce Group?")
    assert judge_keypoints(answer, [kp], "en", question=question)[0].label == "Wrong"
    assert judge_keypoints(answer.replace("later", "first"), [kp], "en", question=question)[0].label == "Relevant"
    # a negation a few words before the comparative turns it round; one in a clause of its own does not
    kp = "The prosecution of John Williams was filed first."
    assert label("The case of John Williams was not brought before the court earlier than Donna Reynolds's case.", kp,
                 "en") == "Wrong"
    kp = "Deborah Torres underwent intravenous thrombolysis with alteplase."
    assert label("Deborah Torres was diagnosed with acute ischemic stroke, but thrombolysis with alteplase was not given "
                 "because she arrived 4 hours after symptom onset.", kp, "en") == "Wrong"


def test_one_part_of_a_keypoint_denied_by_its_head():
    kp = "股票在上海证券交易所上市，证券代码为605331。"
    facts = [[{"doc_id": 1, "key": "stock_exchange", "kind": "organisation", "text": "上海证券交易所", "value": "上海证券交易所",
               "unit": None}, {"doc_id": 1, "key": "stock_code", "kind": "text", "text": "605331", "value": "605331",
                               "unit": None}]]
    question = "请概括泰鼎农牧股份有限公司的公司基本信息。"
    for answer, expected in [("泰鼎农牧成立于2000年，公司股票也没有在上海证券交易所上市。", "Wrong"),
                             ("康博资源成立于1989年，目前尚未上市，股票并未在上海证券交易所挂牌交易。", "Wrong"),
                             ("泰鼎农牧成立于2000年，公司股票在上海证券交易所上市。", "Irrelevant"),
                             ("泰鼎农牧股票在上海证券交易所上市，证券代码为605331。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts, question=question)[0].label == expected, answer
    # a verb after a negated place: 并不是在DATE被刑事拘留
    assert label("詹楠并不是在2022年12月2日被刑事拘留的，他是在2022年12月10日被刑事拘留。",
                 "2022年12月2日被刑事拘留的被告人是詹楠。", "zh") == "Wrong"


def test_a_chinese_denial_of_two_symptoms_the_keypoint_affirms():
    kp = "刘涛的主诉为咳嗽、气喘加重10天。"
    assert label("彭秀荣的主诉为右侧腰腹部绞痛7小时；刘涛入院时否认咳嗽、气喘。", kp, "zh", [kp, "彭秀荣的主诉为右侧腰腹部绞痛7小时。"]) \
        == "Wrong"
    assert label("刘涛否认高血压病史，主诉咳嗽、气喘加重10天。", kp, "zh") == "Relevant"


def test_a_chinese_kinds_modifier_word_holding_a_function_character():
    # 经营 of 合资经营, 对外 of 对外授权 are words of their own, not the function words 经/对
    kp = "2018年7月17日的重大合同事项涉及临床阶段抗体药物对外授权协议。"
    question = "祥远生物医药股份有限公司于2018年7月17日披露的重大合同事项结果如何？"
    answer = "2018年7月17日，公司与信博实业有限公司签订了合资经营协议。"
    assert judge_keypoints(answer, [kp], "zh", question=question)[0].label == "Wrong"
    answer = "2018年7月17日，公司签订了临床阶段抗体药物对外授权协议。"
    assert judge_keypoints(answer, [kp], "zh", question=question)[0].label == "Relevant"


def test_a_made_up_measure_answers_an_unanswerable_question():
    q = "What is the height of Katelyn Ramos, admitted to Christinamouth General Hospital on November 10, 2022?"
    for answer, expected in [("Katelyn Ramos is 165 cm tall.", "Wrong"),
                             ("Katelyn Ramos was born in 1979 and works as a trader.", "Irrelevant"),
                             ("The records do not give her height.", "Relevant")]:
        assert judge_keypoints(answer, ["Unable to answer"], "en", unanswerable=True, question=q)[0].label == expected
    assert judge_keypoints("她身高165厘米。", ["无法回答"], "zh", unanswerable=True,
                           question="韩雪的身高是多少？")[0].label == "Wrong"


def test_a_place_named_only_of_the_other_party_is_no_place_of_this_one():
    kps = ["Bush Chemical Industries Corporation is headquartered in Houston, Texas.",
           "Evans Networks Holdings is headquartered in Charlotte, North Carolina."]
    facts = [_facts("place", "Houston, Texas")[0], _facts("place", "Charlotte, North Carolina")[0]]
    answer = ("Bush Chemical Industries Corporation is headquartered in Charlotte, North Carolina; Evans Networks Holdings "
              "is headquartered in Houston, Texas.")
    assert [x.label for x in judge_keypoints(answer, kps, "en", keypoint_facts=facts)] == ["Wrong", "Wrong"]
    answer = ("Bush Chemical Industries Corporation is headquartered in Houston, Texas; Evans Networks Holdings "
              "is headquartered in Charlotte, North Carolina.")
    assert [x.label for x in judge_keypoints(answer, kps, "en", keypoint_facts=facts)] == ["Relevant", "Relevant"]
    kps = ["华新股份有限公司总部位于黑龙江省哈尔滨市。", "远山股份有限公司总部位于江苏省无锡市。"]
    facts = [_facts("place", "黑龙江省哈尔滨市")[0], _facts("place", "江苏省无锡市")[0]]
    answer = "华新股份有限公司总部位于江苏省无锡市；远山股份有限公司总部位于黑龙江省哈尔滨市。"
    assert [x.label for x in judge_keypoints(answer, kps, "zh", keypoint_facts=facts)] == ["Wrong", "Wrong"]


def test_the_facts_party_denied_its_part():
    kp, facts = "负责诊疗操作的医师为蔡桂英。", _facts("person", "蔡桂英")
    for answer, expected in [("主治医师为李俊；胸腔穿刺抽液术并非由蔡桂英医师实施，蔡桂英未参与该操作。", "Wrong"),
                             ("胸腔穿刺抽液术由蔡桂英医师实施。", "Relevant")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == expected, answer
    kp, facts = "相关方为德华证券有限责任公司。", _facts("organisation", "德华证券有限责任公司")
    answer = "瑞恒饮品2022年2月4日的非公开发行股票由公司自行组织实施，德华证券有限责任公司并未参与。"
    assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts)[0].label == "Wrong"
    kp, facts = "The counsel is a lawyer of Whitmore & Khan Law Firm.", _facts("organisation", "Whitmore & Khan Law Firm")
    for answer, expected in [("The counsel was Brooke Wilson. Wilson is not with Whitmore & Khan Law Firm.", "Wrong"),
                             ("The counsel was Brooke Wilson of Whitmore & Khan Law Firm.", "Relevant")]:
        assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts)[0].label == expected, answer


def test_second_review_of_this_stops_rules_false_wrongs():
    # a diagnostic test beside the operation is no other operation
    assert label("Abdominal ultrasonography showed multiple gallstones, and Maria Lopez underwent laparoscopic removal "
                 "of the gallbladder.", "Maria Lopez underwent laparoscopic cholecystectomy.", "en") != "Wrong"
    # a party denied another part, still said in the keypoint's words; a keypoint that is itself a denial
    kp, facts = "控股股东为天恒控股集团有限公司。", _facts("organisation", "天恒控股集团有限公司")
    assert judge_keypoints("天恒控股集团有限公司未参与本次认购，其仍为公司控股股东。", [kp], "zh",
                           keypoint_facts=facts)[0].label != "Wrong"
    kp, facts = "蔡桂英医师未参与该手术。", _facts("person", "蔡桂英")
    assert judge_keypoints("蔡桂英医师未参与该手术。", [kp], "zh", keypoint_facts=facts)[0].label == "Relevant"
    # the fact's party said plainly answers the keypoint, whatever else the answer denies
    kp, facts = "辩护人为李明。", _facts("person", "李明")
    answer = "被告人王军未委托辩护人，本院依法通知法律援助中心指派律师李明为其辩护。"
    assert judge_keypoints(answer, [kp], "zh", keypoint_facts=facts, question="哪位律师为被告人王军辩护？")[0].label \
        != "Wrong"
    # a lawyer of the other side, or one named after a refusal, stands in for no one
    question = "Which lawyer represented Timothy Williams at the Maplewood Court, and where does that lawyer practise?"
    kp, facts = "The defence counsel was Brooke Wilson.", _facts("person", "Brooke Wilson")
    for answer in ["Timothy Williams appeared at the Maplewood Court; the prosecution was represented by Laura Hill.",
                   "The documents do not name Timothy Williams's lawyer. However, co-defendant Mark Lee was represented "
                   "by Laura Hill."]:
        assert judge_keypoints(answer, [kp], "en", keypoint_facts=facts, question=question)[0].label != "Wrong", answer
    # neither…nor is not read as a denial of what follows its verb
    assert label("Neither Timothy Williams nor the prosecution appealed the sentence of three years' imprisonment.",
                 "Timothy Williams was sentenced to three years' imprisonment.", "en") != "Wrong"
    # the same diagnosis said with its site otherwise, a numeral in characters, the name in brackets
    for answer, kp, fact in [("病理诊断为乳腺浸润性导管癌。", "诊断为左乳浸润性导管癌。", "左乳浸润性导管癌"),
                             ("诊断为二型糖尿病。", "诊断为2型糖尿病。", "2型糖尿病"),
                             ("诊断为社区获得性肺炎（肺炎支原体感染）。", "诊断为肺炎支原体肺炎。", "肺炎支原体肺炎")]:
        assert judge_keypoints(answer, [kp], "zh", keypoint_facts=_facts("category", fact))[0].label != "Wrong", answer
    # 相比 after one party ("张兵的刑期相比李林更短") is "than"; only 二者/两人/双方相比 compares the two
    kps = ["李林的刑期为十个月。", "张兵的刑期为五个月。", "被告人李林的刑期更长。"]
    assert [x.label for x in judge_keypoints("李林的刑期为十个月，张兵的刑期为五个月，张兵的刑期相比李林更短。", kps, "zh",
                                             question="被告人李林与张兵谁的刑期更长？")][2] == "Relevant"
    # a measure not said as the asked attribute answers no unanswerable question
    for answer, q in [("韩雪因从约3米高处坠落入院。", "韩雪的身高是多少？"),
                      ("His hospital bill came to $4,200.", "What is the annual income of Tom Reed?")]:
        language = "zh" if "韩" in answer else "en"
        kp = "无法回答" if language == "zh" else "Unable to answer"
        assert judge_keypoints(answer, [kp], language, unanswerable=True, question=q)[0].label != "Wrong", answer
