"""The offline keypoint judge: value normalisation across en/zh, refusals, contradictions, and its
agreement with hand-labelled judgements (tests/fixtures/keypoint_calibration.jsonl, and
tests/fixtures/keypoint_heldout.jsonl, labelled before the judge saw it). Speed is measured in
bench/eval_bench.py, not here."""
from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from pathlib import Path

import pytest

from dragonforge.judge import cn_to_number, extract_values, is_refusal, judge_keypoints

FIXTURE = Path(__file__).parent / "fixtures" / "keypoint_calibration.jsonl"
HELDOUT = Path(__file__).parent / "fixtures" / "keypoint_heldout.jsonl"
LABELS = ("Relevant", "Irrelevant", "Wrong")


def canonical(text: str, language: str) -> list[tuple]:
    return [(v.kind, v.value, v.unit) for v in extract_values(text, language) if v.kind != "name"]


def label(answer: str, keypoint: str, language: str, **kwargs) -> str:
    return judge_keypoints(answer, [keypoint], language, **kwargs)[0].label


# --- value extraction and normalisation -----------------------------------------------------------

@pytest.mark.parametrize("texts, expected", [
    ([("1.2亿元", "zh"), ("120 million yuan", "en"), ("120,000,000元", "zh"), ("RMB 120 million", "en")],
     ("money", 120_000_000.0, "CNY")),
    ([("$12.5 million", "en"), ("12,500,000 dollars", "en")], ("money", 12_500_000.0, "USD")),
    ([("3,500万元", "zh"), ("35 million yuan", "en"), ("三千五百万元", "zh")], ("money", 35_000_000.0, "CNY")),
    ([("2019年3月", "zh"), ("March 2019", "en")], ("date", "2019-03", None)),
    ([("2019年3月5日", "zh"), ("March 5, 2019", "en"), ("2019-03-05", "en"), ("5 March 2019", "en"),
      ("二〇一九年三月五日", "zh")], ("date", "2019-03-05", None)),
    ([("三年", "zh"), ("3 years", "en"), ("36 months", "en")], ("duration", 36.0, "months")),
    ([("有期徒刑三年六个月", "zh"), ("3 years and 6 months", "en"), ("42 months", "en"), ("三年半", "zh"),
      ("three and a half years", "en")], ("duration", 42.0, "months")),
    ([("12.5%", "en"), ("百分之十二点五", "zh"), ("12.5 percent", "en")], ("percent", 12.5, "%")),
    ([("两年", "zh"), ("two years", "en")], ("duration", 24.0, "months")),
    ([("未来两年内", "zh"), ("within two years", "en")], ("duration", 24.0, "months")),
    ([("32个小时", "zh"), ("32小时", "zh"), ("32 hours", "en")], ("duration", 32.0, "hours")),
    ([("一百二十人", "zh")], ("count", 120.0, "人")),
    ([("aged 47", "en"), ("47 years old", "en"), ("47周岁", "zh")], ("count", 47.0, "age")),
    ([("118 bpm", "en"), ("118 beats per minute", "en")], ("count", 118.0, "bpm")),
])
def test_each_written_form_normalises_to_one_canonical_value(texts, expected):
    for text, language in texts:
        assert canonical(text, language) == [expected], text


def test_chinese_numerals_read_as_numbers():
    assert cn_to_number("一百二十") == 120
    assert cn_to_number("两") == 2
    assert cn_to_number("二十三") == 23
    assert cn_to_number("十二点五") == 12.5
    assert cn_to_number("一亿二千万") == 120_000_000


def test_a_date_inside_a_sentence_is_not_also_read_as_numbers():
    assert canonical("2023年8月18日接受手术，共住院8天。", "zh") == [("date", "2023-08-18", None),
                                                               ("duration", 8.0, "days")]


def test_ordinals_and_prior_year_phrases_are_not_values():
    assert canonical("审议通过了上一年度报告及第一次临时股东大会议案", "zh") == []


def test_blood_pressure_keeps_both_readings():
    assert canonical("blood pressure 112/63 mmHg", "en") == [("count", "112/63", "mmhg")]


def test_a_person_named_like_a_street_is_a_party_and_a_cited_law_is_not():
    def names(text: str) -> list[str]:
        return [v.value for v in extract_values(text, "en") if v.kind == "name"]

    assert names("Mark Lane was in hospital for 9 days.") == ["Mark Lane"]
    assert names("He lives at 112 Ryan Ways, South Erin.") == []
    assert names("He was convicted under Article 266 of the Criminal Law.") == []
    # so a value said of "Mark Lane" belongs to him, and a clause citing the law is still about the defendant
    assert label("Mark Lane's systolic pressure was higher: 130/85 mmHg against Kevin Hardy's 100/65 mmHg.",
                 "Mark Lane's blood pressure was 100/65 mmHg.", "en") == "Wrong"
    assert label("That defendant was Bryan Robinson; he was convicted of fraud under Article 266 of the Criminal Law.",
                 "Bryan Robinson was convicted of fraud.", "en") == "Relevant"


def test_chinese_names_with_less_common_surnames_or_boundaries_are_parties():
    # 赖 and 阿 are surnames too: values said of 赖秀荣 are hers, not 潘海燕's
    answer = "阿丽娟的住院总费用为7.91万元，赖秀荣为3.51万元。"
    labels = judge_keypoints(answer, ["阿丽娟的住院总费用为3.51万元。", "赖秀荣的住院总费用为7.91万元。"], "zh")
    assert [lab.label for lab in labels] == ["Wrong", "Wrong"]
    # a name followed by 提起 or 虽 ends there; "两人中秦旭" names 秦旭
    assert label("南宁市江南区人民检察院对被告人康斌提起公诉。", "株洲市荷塘区人民检察院对被告人秦旭提起公诉。", "zh") \
        == "Irrelevant"
    assert label("被告人梁峰虽不具有自首情节，但归案后如实供述犯罪事实，具有坦白情节。", "被告人梁峰系坦白。", "zh") == "Relevant"
    assert label("两人中秦旭的年龄更大。", "被告人康斌的年龄更大。", "zh") == "Wrong"


def test_names_are_values_of_kind_name():
    names = [v.value for v in extract_values("Karen Boyd chairs Fields Biosciences Holdings.", "en") if v.kind == "name"]
    assert names == ["Karen Boyd", "Fields Biosciences Holdings"]


# --- the same value written another way is Relevant -----------------------------------------------

@pytest.mark.parametrize("keypoint, answer, language", [
    ("Revenue was 1.2亿元.", "Revenue was 120 million yuan.", "en"),
    ("营业收入为1.2亿元。", "营业收入为120,000,000元。", "zh"),
    ("The fund raised $12.5 million.", "The fund raised 12,500,000 dollars.", "en"),
    ("研发投入3,500万元。", "研发投入为三千五百万元。", "zh"),
    ("The plant opened in March 2019.", "The plant opened in 2019年3月.", "en"),
    ("The hearing was held on March 5, 2019.", "The hearing took place on 2019-03-05.", "en"),
    ("被告人被判处有期徒刑三年六个月。", "被告人被判处有期徒刑42个月。", "zh"),
    ("The defendant was sentenced to 3 years and 6 months.", "The defendant was sentenced to 42 months.", "en"),
    ("碳排放强度下降12.5%。", "碳排放强度下降了百分之十二点五。", "zh"),
    ("Total assets were $560.88 million.", "Total assets were about $560.9 million.", "en"),
])
def test_a_value_restated_in_another_format_is_relevant(keypoint, answer, language):
    assert label(answer, keypoint, language) == "Relevant"


@pytest.mark.parametrize("keypoint, answer, language", [
    ("The major contract on March 25, 2020 involved $47.96 million.",
     "Tyler Power Holdings disclosed six major events in 2020, including a contract on March 25 ($47.96 million).",
     "en"),
    ("法院于2022年8月6日公开开庭审理。", "秦旭于2022年3月18日被刑拘，法院8月6日开庭、8月24日宣判。", "zh"),
    ("检察院于2022年7月10日提起公诉。", "秦旭于2022年3月18日被刑拘，检察院于同年7月10日起诉。", "zh"),
])
def test_a_date_without_its_year_takes_the_year_said_before_it(keypoint, answer, language):
    assert label(answer, keypoint, language) == "Relevant"


def test_a_relevant_label_says_what_the_answer_states():
    lab = judge_keypoints("Revenue rose to $1,430 million.", ["Revenue was $1.43 billion."], "en")[0]
    assert (lab.label, lab.reason) == ("Relevant", "states $1,430 million (= $1.43 billion)")


# --- contradictions -------------------------------------------------------------------------------

def test_a_different_value_for_the_same_fact_is_wrong_and_says_both():
    lab = judge_keypoints("The company's revenue was $1.2 billion in 2022.", ["Revenue was $1.43 billion."], "en")[0]
    assert lab.label == "Wrong"
    assert lab.reason == "answer gives $1.2 billion where keypoint has $1.43 billion"


def test_a_value_after_a_year_keeps_the_words_before_the_year():
    answer = "Tyler Power Holdings Annual Report 2020 Revenue for the year reached $2.95 billion, against $2.8 billion."
    assert label(answer, "Revenue in 2020 was $407.89 million.", "en") == "Wrong"


@pytest.mark.parametrize("keypoint, answer", [
    ("开庭日期为2022年8月6日。", "法院于2022年6月8日公开开庭。"),
    ("收购明嘉环保有限公司股权的日期为2023年10月30日。", "该收购发生在2023年9月30日。"),
    ("“朝阳”低糖气泡茶饮于2022年3月11日发布。", "该产品于2022年3月1日发布。"),
])
def test_an_answer_of_one_value_on_the_keypoints_topic_contradicts_it(keypoint, answer):
    assert label(answer, keypoint, "zh") == "Wrong"


def test_an_organisation_name_does_not_start_with_the_verb_before_it():
    names = [v.value for v in extract_values("公司收购明嘉环保有限公司100%股权。", "zh") if v.kind == "name"]
    assert names == ["明嘉环保有限公司"]
    names = [v.value for v in extract_values("中信投资控股有限公司成立。", "zh") if v.kind == "name"]
    assert names == ["中信投资控股有限公司"]


def test_a_reference_range_does_not_contradict_a_reading():
    answer = "血红蛋白112g/L（参考值115～150g/L），低于参考范围。"
    assert label(answer, "血红蛋白检测结果为141g/L。", "zh") == "Wrong"


def test_a_different_number_for_another_quantity_is_not_a_contradiction():
    answer = "Profit before tax was $32.01 million and income tax was $7.21 million."
    assert label(answer, "Net profit was $24.8 million.", "en") == "Irrelevant"


def test_a_value_given_for_another_dated_event_is_not_a_contradiction():
    answer = "2022年3月11日发布新产品，涉及金额3,838.25万元。"
    assert label(answer, "2022年5月17日发生诉讼事项，涉及金额3,519.77万元。", "zh") == "Irrelevant"


@pytest.mark.parametrize("keypoint, answer, language", [
    ("Operating revenue was $129.99 million, an increase of 29.32%.",
     "Operating revenue fell 29.32% to $129.99 million.", "en"),
    ("Emissions per unit of revenue fell by 5.8%.", "Emissions per unit of revenue rose by 5.8%.", "en"),
    ("营业收入同比增长14.58%。", "营业收入同比下降14.58%。", "zh"),
    ("碳排放强度下降2.8%。", "碳排放强度较上年上升2.8%。", "zh"),
])
def test_a_reversed_direction_is_wrong(keypoint, answer, language):
    assert label(answer, keypoint, language) == "Wrong"


def test_a_change_written_with_a_minus_sign_is_a_fall():
    keypoint = "营业收入为4.28亿元，同比增减-5.52%。"
    assert canonical("同比增减-5.52%", "zh") == [("percent", -5.52, "%")]
    assert label("恒博电力2018年营业收入4.28亿元，同比增长5.52%。", keypoint, "zh") == "Wrong"
    assert label("恒博电力2018年营业收入4.28亿元，同比下降5.52%。", keypoint, "zh") == "Relevant"


def test_the_same_direction_in_other_words_is_relevant():
    assert label("Revenue grew 29.32% to $129.99 million.",
                 "Operating revenue was $129.99 million, an increase of 29.32%.", "en") == "Relevant"


def test_swapped_values_between_two_parties_are_wrong():
    answer = "Steven Anderson received the larger fine of $420,000, while Eddie White was fined $260,000."
    labels = judge_keypoints(answer, ["Eddie White was fined $420,000.", "Steven Anderson was fined $260,000."], "en")
    assert [lab.label for lab in labels] == ["Wrong", "Wrong"]


def test_a_value_said_of_another_party_does_not_count_for_this_one():
    answer = "朱强住院总费用为5.68万元，其中药品费1.93万元；何斌的费用资料中未提及。"
    labels = judge_keypoints(answer, ["朱强的住院总费用为5.68万元。", "何斌的住院总费用为1.93万元。"], "zh")
    assert [lab.label for lab in labels] == ["Relevant", "Irrelevant"]


@pytest.mark.parametrize("answer, keypoints, language", [
    ("The year closed with a net profit of $56.51 million.",
     ["The net profit of Grimes Chemical Industries Holdings was $169.5 million.",
      "The net profit of Tyler Power Holdings was $56.51 million."], "en"),
    ("与上年相比，公司碳排放强度下降了11.3%。报告期内公司环保投入403.22万元。",
     ["嘉远环境科技股份有限公司环保投入264.88万元。", "恒丰置业股份有限公司环保投入403.22万元。"], "zh"),
])
def test_a_value_said_of_no_one_that_another_keypoint_gives_another_party_is_that_partys(answer, keypoints, language):
    assert [lab.label for lab in judge_keypoints(answer, keypoints, language)] == ["Irrelevant", "Relevant"]


def test_one_partys_value_does_not_contradict_a_keypoint_about_the_total():
    answer = "Mark Lane was hospitalised for 7 days; Thomas Chapman's length of stay is not given in the records."
    labels = judge_keypoints(answer, ["Mark Lane stayed 7 days.", "Together they spent 14 days in hospital."], "en")
    assert [lab.label for lab in labels] == ["Relevant", "Irrelevant"]


@pytest.mark.parametrize("answer, keypoints, language", [
    ("The total cost was $34,675, of which medications were $1,988 and examinations $2,405.",
     ["Medications cost $2,405.", "Examinations cost $1,988."], "en"),
    ("费用构成：床位及护理费1,900元，药品费1.41万元，检查检验费5,100元。", ["药品费为5,100元。", "检查检验费为7,500元。"], "zh"),
])
def test_a_value_under_another_keypoints_label_is_that_keypoints(answer, keypoints, language):
    assert [lab.label for lab in judge_keypoints(answer, keypoints, language)] == ["Wrong", "Wrong"]


def test_a_value_belongs_to_the_party_of_the_nearest_clause_that_names_one():
    answer = ("Kelly Learning Inc spent $135.56 million on R&D, 5.69% of revenue, while Grimes Chemical Industries "
              "Holdings spent $180.33 million, or 4.6%.")
    assert label(answer, "That was 4.6% of the revenue of Kelly Learning Inc.", "en") == "Wrong"


def test_a_value_in_a_sentence_naming_no_one_belongs_to_everyone_the_sentence_before_names():
    answer = ("Daniel Lyons is represented by Kelly Daniel, a lawyer. "
              "Judgment of the Highland District People's Court of Lake Timothyfurt, dated August 24, 2023.")
    assert label(answer, "The judgment against Daniel Lyons was made on August 24, 2023.", "en") == "Relevant"


def test_a_date_opening_a_sentence_belongs_to_the_party_after_it():
    answer = "被告人康斌，男，汉族。2022年8月10日，徐华因涉嫌犯故意伤害罪被刑事拘留，2022年8月30日被逮捕。"
    assert label(answer, "被告人徐华于2022年8月10日被刑事拘留。", "zh") == "Relevant"


def test_a_company_value_is_not_said_of_the_exchange_it_is_listed_on():
    labels = judge_keypoints("恒丰置业成立于1986年，在深交所上市，股票代码000316。",
                             ["恒丰置业股份有限公司成立于1986年。", "股票在深圳证券交易所上市，证券代码为000316。"], "zh")
    assert [lab.label for lab in labels] == ["Relevant", "Relevant"]


@pytest.mark.parametrize("keypoint, answer, language, expected", [
    ("Fields Biosciences Holdings had the higher revenue.",
     "Fields Biosciences Holdings reported higher revenue than Anderson Commerce Inc.", "en", "Relevant"),
    ("Fields Biosciences Holdings had the higher revenue.",
     "Anderson Commerce Inc had the higher revenue, ahead of Fields Biosciences Holdings.", "en", "Wrong"),
    ("Fields Biosciences Holdings had the higher revenue.",
     "Anderson Commerce Inc had lower revenue than Fields Biosciences Holdings.", "en", "Relevant"),
    ("祥泰机械股份有限公司的营业收入更高。", "安华饮品股份有限公司的营业收入更高。", "zh", "Wrong"),
    ("被告人翁秀芳的刑期较短。", "翁秀芳的刑期更短，为16个月；温林被判处65个月。", "zh", "Relevant"),
])
def test_a_comparison_must_name_the_same_winner(keypoint, answer, language, expected):
    keypoints = [keypoint, "Anderson Commerce Inc is a retailer." if language == "en" else "安华饮品股份有限公司。"]
    assert judge_keypoints(answer, keypoints, language)[0].label == expected


def test_before_this_court_is_not_an_order_in_time_and_first_can_be_written_xian():
    answer = ("The defendant Billy Holmes is male. The Southgate District People's Procuratorate of South Kenneth "
              "prosecuted defendant Bryan Robinson for fraud before this court on May 31, 2022.")
    assert label(answer, "The prosecution of Billy Holmes was filed first.", "en") == "Irrelevant"
    assert label("秦旭一案先被起诉（2022年7月10日），梁峰一案于2019年5月22日起诉。", "被告人梁峰一案先被起诉。", "zh") == "Wrong"


def test_a_comparison_is_stated_only_by_a_comparison():
    answer = "Grimes Chemical Industries Holdings Annual Report 2021 At year end, total assets stood at $1.73 billion."
    assert label(answer, "Grimes Chemical Industries Holdings had the smaller total assets.", "en") == "Irrelevant"
    # comparisons in other words still count
    assert label("Kevin Hardy's follow-up (Feb 21, 2023) precedes Thomas Chapman's (Nov. 16, 2024).",
                 "Kevin Hardy's follow-up comes first.", "en") == "Relevant"
    assert label("杨金凤住院共花费39,800元，比刘秀兰少。", "杨金凤的住院费用更低。", "zh") == "Relevant"
    assert label("Fields Biosciences Holdings out-earned Sweeney Builders Corporation by a wide margin.",
                 "Fields Biosciences Holdings earned more.", "en") == "Relevant"


def test_a_party_named_by_surname_title_or_first_word_is_that_party():
    assert label("Mr. Robinson was defended by Ms. Rivera of Sterling & Rogers Law Firm.",
                 "Bryan Robinson was defended by Becky Rivera.", "en") == "Relevant"
    answer = "Grimes Chemical Industries Holdings earned $169.5 million; Tyler earned $56.51 million."
    labels = judge_keypoints(answer, ["The net profit of Grimes Chemical Industries Holdings was $56.51 million.",
                                      "The net profit of Tyler Power Holdings was $169.5 million."], "en")
    assert [lab.label for lab in labels] == ["Wrong", "Wrong"]


def test_a_person_named_next_to_another_firm_is_placed_there():
    answer = ("Becky Rivera of Redfern & Brown Law Firm defended Daniel Lyons, and Kelly Daniel of Sterling & Rogers "
              "Law Firm defended Bryan Robinson.")
    labels = judge_keypoints(answer, ["Becky Rivera works at Sterling & Rogers Law Firm.",
                                      "Kelly Daniel works at Redfern & Brown Law Firm."], "en")
    assert [lab.label for lab in labels] == ["Wrong", "Wrong"]
    assert label("Daniel Lyons is represented by Kelly Daniel, a lawyer with Redfern & Brown Law Firm.",
                 "Kelly Daniel works at Redfern & Brown Law Firm.", "en") == "Relevant"


def test_a_title_before_a_name_is_a_role_and_another_title_another_role():
    keypoint = "Prosecutor Yvonne Green appeared in court."
    procuratorate = "The Southgate District People's Procuratorate of South Kenneth"
    for name, expected in (("Yvonne Brown", "Wrong"), ("Yvonne Green", "Relevant")):
        answer = f"{procuratorate} brought the case, with prosecutor {name} appearing in court."
        assert label(answer, keypoint, "en") == expected
    assert label(f"{procuratorate} prosecuted defendant Bryan Robinson for fraud before this court.", keypoint, "en") \
        == "Irrelevant"


def test_a_possessive_name_does_not_hold_the_role():
    assert label("The clerk at Bryan Robinson's trial was Mr. Charles Hood.", "The clerk was Charles Hood.", "en") \
        == "Relevant"
    assert label("The clerk at Bryan Robinson's trial was Mr. Charles Wood.", "The clerk was Charles Hood.", "en") \
        == "Wrong"


def test_a_role_given_to_another_person_is_wrong():
    assert label("合议庭由审判长刘宁、审判员王红霞和人民陪审员廖建平组成。", "审判长为王红霞。", "zh") == "Wrong"
    assert label("His attending physician was Doctor Sara Webster.",
                 "The attending physician was Doctor Jason Ballard.", "en") == "Wrong"


def test_negated_and_opposite_facts_are_wrong():
    assert label("蔡兵曾因盗窃被判刑，有前科，应当从重处罚。", "被告人蔡兵无前科。", "zh") == "Wrong"
    assert label("蔡兵曾因盗窃被判刑，有前科，应当从重处罚。", "上述情节可以从轻处罚。", "zh") == "Wrong"
    assert label("The result, 86 g/L, is above the reference range of 130-175 g/L.",
                 "With a reference range of 130-175 g/L, the result is below the reference range.", "en") == "Wrong"


def test_the_keypoints_label_with_another_value_is_wrong():
    assert label("The drug was tamsulosin, 0.4 mg once daily.", "The drug was finasteride.", "en") == "Wrong"
    assert label("收入最少的是商业物业租赁板块。", "收入最少的是住宅开发板块。", "zh") == "Wrong"
    # the same label saying something else about it is no other value
    answer = "The diagnosis was made on the basis of black stools."
    assert label(answer, "The diagnosis was duodenal bulb ulcer.", "en") == "Irrelevant"
    assert label("The drug was finasteride, 5 mg once daily.", "The drug was finasteride.", "en") == "Relevant"


def test_below_the_reference_range_contradicts_within_it():
    keypoint = "参考范围为115～150g/L，结果在参考范围内。"
    assert label("血红蛋白141g/L（参考值115～150g/L），低于参考范围。", keypoint, "zh") == "Wrong"
    assert label("血红蛋白141g/L（参考值115～150g/L），在参考范围内。", keypoint, "zh") == "Relevant"


def test_a_man_is_male_and_located_in_is_no_content_word():
    assert label("Daniel Lyons is a man born on 6 February 1982.", "Daniel Lyons is male.", "en") == "Relevant"
    assert label("恒丰置业成立于1986年，总部在苏州，属于房地产行业。", "总部位于江苏省苏州市。", "zh") == "Relevant"


def test_a_keypoint_without_values_is_judged_by_its_words():
    assert label("Eddie White was sentenced for taking bribes and convicted.",
                 "Eddie White was convicted of taking bribes.", "en") == "Relevant"
    assert label("Eddie White was fined $420,000.", "Eddie White was convicted of taking bribes.", "en") == "Irrelevant"


def test_a_partial_answer_leaves_the_unstated_part_irrelevant():
    lab = judge_keypoints("Revenue was $6.92 billion.", ["Operating revenue was $6.92 billion, an increase of 12.52%."],
                          "en")[0]
    assert lab.label == "Irrelevant" and lab.reason.startswith("partial:")


def test_build_facts_require_the_names_they_carry():
    keypoint = "鼎信医疗股份有限公司聘任杨玲为财务总监。"
    facts = [[{"doc_id": 1, "key": "executive", "kind": "person", "text": "杨玲", "value": "杨玲", "unit": None}]]
    lab = judge_keypoints("鼎信医疗股份有限公司聘任了新的财务总监。", [keypoint], "zh", keypoint_facts=facts)[0]
    assert (lab.label, lab.reason) == ("Irrelevant", "does not name 杨玲")
    # another person appointed in the keypoint's frame is a substitution
    lab = judge_keypoints("鼎信医疗股份有限公司聘任杨兰英为财务总监。", [keypoint], "zh", keypoint_facts=facts)[0]
    assert (lab.label, lab.reason) == ("Wrong", "answer names 杨兰英 where keypoint names 杨玲")
    assert judge_keypoints("鼎信医疗股份有限公司聘任杨玲为财务总监。", [keypoint], "zh", keypoint_facts=facts)[0].label \
        == "Relevant"


# --- refusals and unanswerable questions ---------------------------------------------------------

@pytest.mark.parametrize("answer, language", [
    ("Unable to answer.", "en"),
    ("I'm sorry, but the retrieved documents do not mention any credit rating.", "en"),
    ("The provided context does not contain information about the stock price.", "en"),
    ("I don't have enough information to determine which patient was younger.", "en"),
    ("无法回答", "zh"),
    ("资料中未披露该公司新获授权专利数量。", "zh"),
    ("抱歉，检索到的文档中没有关于假释的信息。", "zh"),
    ("The dose is not given in the record.", "en"),
    ("Her blood type is not stated anywhere.", "en"),
])
def test_refusals_and_no_information_answers_are_refusals(answer, language):
    assert is_refusal(answer, language)


@pytest.mark.parametrize("answer, language", [
    ("Net profit was $10.85 million.", "en"),
    ("There is no explicit record, but the patient was most likely assigned bed 12.", "en"),
    ("The total cost was $12,870; the records do not break down medication costs.", "en"),
    ("翁秀芳于2022年10月获得假释。", "zh"),
    ("The patient was not given levofloxacin.", "en"),
    ("", "en"),
])
def test_answers_that_assert_facts_or_guess_are_not_refusals(answer, language):
    assert not is_refusal(answer, language)


def test_the_refusal_prefilter_decides_as_the_full_analysis_does():
    from dragonforge.judge import _refuses

    pieces = {"en": ["Net profit was $10.85 million.", "Sorry, the report does not say.", "Revenue grew, sorry",
                     "It cannot be determined", "the filing; sorry!", "(sorry) not stated", "Unable to answer.",
                     "The fine was $124,000", "no answer", "Sorryville is a town.", "they cannot tell"],
              "zh": ["翁秀芳于2022年10月获得假释。", "抱歉，", "资料中未披露该公司新获授权专利数量。", "无法回答", "营收增长。"]}
    rng = random.Random(2)
    for language, options in pieces.items():
        for _ in range(300):
            answer = " ".join(rng.choice(options) for _ in range(rng.randint(1, 4)))
            assert is_refusal(answer, language) == _refuses(answer, language), answer


def test_a_refusal_is_irrelevant_not_wrong_on_an_answerable_question():
    assert label("无法回答", "1. 被告人郭帆为大专文化。", "zh") == "Irrelevant"
    assert label("I could not find the fine in the documents.", "1. The fine was $124,000.", "en") == "Irrelevant"


def test_on_an_unanswerable_question_a_refusal_is_relevant_and_facts_are_wrong():
    assert label("The documents do not say.", "Unable to answer", "en") == "Relevant"
    assert label("The stock rose 18% in 2019.", "Unable to answer", "en") == "Wrong"
    assert label("无法回答", "无法回答", "zh") == "Relevant"
    assert label("刘秀兰的责任护士为王芳。", "无法回答", "zh") == "Wrong"
    assert judge_keypoints("Some guess.", ["Unable to answer"], "en", unanswerable=True)[0].label == "Wrong"


def test_an_empty_answer_addresses_nothing():
    assert judge_keypoints("", ["Net profit was $10.85 million."], "en")[0].label == "Irrelevant"


# --- agreement with hand labels -------------------------------------------------------------------

def _fixture(path: Path = FIXTURE) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _agreement(rows: list[dict], title: str) -> tuple[float, dict[str, float]]:
    """Judge every hand-labelled row (keypoints of one answer together, as evaluate does), print the confusion
    matrix, and return the overall and per-language agreement."""
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for row in rows:
        groups[(row["language"], row["question"], row["answer"])].append(row)
    confusion: Counter = Counter()
    right, total = Counter(), Counter()
    for (language, _, answer), group in groups.items():
        labels = judge_keypoints(answer, [r["keypoint"] for r in group], language)
        for row, lab in zip(group, labels):
            confusion[(row["label"], lab.label)] += 1
            total[language] += 1
            right[language] += row["label"] == lab.label
    accuracy = sum(right.values()) / sum(total.values())
    print(f"\nkeypoint judge vs hand labels, {title} (rows: human, columns: judge)")
    print(f"{'':>12}" + "".join(f"{lab:>12}" for lab in LABELS))
    for human in LABELS:
        print(f"{human:>12}" + "".join(f"{confusion[(human, judge)]:>12}" for judge in LABELS))
    for language in sorted(total):
        print(f"{language}: {right[language]}/{total[language]} = {right[language] / total[language]:.3f}")
    print(f"overall: {accuracy:.3f}")
    return accuracy, {language: right[language] / total[language] for language in total}


def test_the_calibration_set_is_large_bilingual_and_balanced():
    rows = _fixture()
    by_language = Counter(r["language"] for r in rows)
    by_label = Counter(r["label"] for r in rows)
    assert len(rows) >= 120 and by_language["en"] >= 60 and by_language["zh"] >= 60
    assert all(by_label[lab] / len(rows) >= 0.25 for lab in LABELS)
    assert len({r["id"] for r in rows}) == len(rows)


def test_the_judge_agrees_with_the_hand_labels():
    accuracy, _ = _agreement(_fixture(), "calibration set")
    assert accuracy >= 0.85


def test_the_held_out_set_is_large_bilingual_balanced_and_sourced():
    rows = _fixture(HELDOUT)
    by_language = Counter(r["language"] for r in rows)
    by_label = Counter(r["label"] for r in rows)
    assert len(rows) >= 100 and by_language["en"] == by_language["zh"]
    assert all(by_label[lab] / len(rows) >= 0.25 for lab in LABELS)
    assert {r["source"] for r in rows} <= {"baseline", "gold", "rewrite"}
    assert all(r["note"] for r in rows) and len({r["id"] for r in rows}) == len(rows)


def test_the_judge_agrees_with_the_held_out_hand_labels():
    """tests/fixtures/keypoint_heldout.jsonl: 524 judgements on a fresh build (seed 9137), labelled before the
    judge saw it: 0.807 (en 0.813, zh 0.802) before the fixes of c939cac..3e12588, which were made from its
    errors; 0.926 (en 0.912, zh 0.939) after them. That later number is no longer a held-out one: expect about
    0.8 on answers nobody has tuned the judge to. The threshold guards those fixes (losing more than 13 of the
    524 judgements fails) without claiming more."""
    accuracy, by_language = _agreement(_fixture(HELDOUT), "held-out set")
    assert accuracy >= 0.90
    assert min(by_language.values()) >= 0.88


# --- substitution in the same frame, and a flipped polarity on the keypoint's topic ---------------
# (invented examples: the development and sealed sets are not quoted here)


@pytest.mark.parametrize(("keypoint", "answer", "language"), [
    ("Defendant Alan Pike was convicted of burglary.", "Alan Pike was convicted of burglary; Dana Cole of arson.", "en"),
    ("Hypertension was treated with metoprolol.", "Hypertension was treated with metoprolol daily.", "en"),
    ("被告人周明犯诈骗罪。", "周明犯诈骗罪，判处有期徒刑三年。", "zh"),
    ("检察院于2021年5月6日提起公诉。", "检察院于2021年5月6日起诉。", "zh"),
    ("Nora Fields was detained on March 3, 2021.", "Nora Fields's detention began on March 3, 2021.", "en"),
    ("Doctor Ivy Lamb was in charge of the treatment.", "The treatment was supervised by Dr. Lamb.", "en"),
    ("The physician examined the patient.", "The clinician examined the patient.", "en"),  # shared letters only
    ("The project was approved.", "The program was approved.", "en"),
    ("The Board approved the plan.", "The Directors approved the plan.", "en"),  # capitals are no names
])
def test_the_same_fact_in_other_words_is_not_a_substitution(keypoint, answer, language):
    assert judge_keypoints(answer, [keypoint], language)[0].label != "Wrong"


@pytest.mark.parametrize(("keypoint", "answer", "language"), [
    ("被告人周明犯诈骗罪。", "周明犯盗窃罪，判处有期徒刑三年。", "zh"),  # another charge of the same defendant
    ("Hypertension was treated with metoprolol.", "Hypertension was treated with atenolol.", "en"),  # same class
    ("Breath sounds were reduced over the right lower chest.", "Breath sounds were reduced over the left lower chest.",
     "en"),  # the other side
    ("结节为良性。", "结节为恶性。", "zh"),
])
def test_another_member_of_the_same_kind_in_the_keypoints_frame_is_wrong(keypoint, answer, language):
    label = judge_keypoints(answer, [keypoint], language)[0]
    assert label.label == "Wrong", label


@pytest.mark.parametrize(("keypoint", "answer", "language"), [
    ("The loan was repaid in full.", "The loan was not repaid.", "en"),
    ("Ellen Shaw has no known drug allergies.", "Ellen Shaw has a documented sulfa drug allergy.", "en"),
    ("过敏史：否认药物过敏史。", "患者有头孢类药物过敏史。", "zh"),
    ("被告人周明犯诈骗罪。", "法院认为被告人周明诈骗罪名不成立，宣告无罪。", "zh"),
])
def test_the_opposite_polarity_on_the_keypoints_topic_is_wrong(keypoint, answer, language):
    label = judge_keypoints(answer, [keypoint], language)[0]
    assert label.label == "Wrong", label


@pytest.mark.parametrize(("keypoint", "answer", "language"), [
    ("Mark Doyle paid in cash.", "Mark Doyle had no debts and paid in cash.", "en"),  # the "no" is about debts
    ("The abdomen was soft, with no masses on palpation.", "The abdomen was soft with no masses on palpation.", "en"),
    ("被告人周明犯非法经营罪。", "周明犯非法经营罪。", "zh"),  # 非法 is no negation
    ("计划投入资金。", "计划投入金额未在资料中披露。", "zh"),  # not in the documents: no denial
    ("The defendant repaid the loan.", "The defendant repaid the loan without any delay.", "en"),
    ("患者出现胸痛。", "患者无明显诱因出现胸痛。", "zh"),  # 无 is about the cause, not the pain
])
def test_a_negation_elsewhere_or_a_missing_fact_is_not_a_denial(keypoint, answer, language):
    assert judge_keypoints(answer, [keypoint], language)[0].label != "Wrong"
