"""LLM prompt templates (prompts/<stage>.<language>.j2): every stage renders in both languages
with realistic variables, carries the reply's JSON schema, is written in its own language, shows
a GOOD example that the reply model accepts, and fails loudly on a missing variable."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from dragonforge.errors import TemplateError
from dragonforge.evaluate import JudgeReply
from dragonforge.prompts import (EVAL_STAGES, STAGES, KeypointsReply, NarrativeReply, QRAReply, ReferencesReply, RefineReply,
                                 SectionReply, render_prompt)
from dragonforge.induce.grounded import FactsReply, PackProposal
from dragonforge.ragas import REPLIES as RAGAS_REPLIES
from dragonforge.text import cjk_count, detect_language

LANGUAGES = ("en", "zh")
REPLIES = {"induce": PackProposal, "extract": FactsReply, "narrative": NarrativeReply, "section": SectionReply, "qra": QRAReply,
           "references": ReferencesReply, "refine": RefineReply, "keypoints": KeypointsReply, "judge": JudgeReply,
           **RAGAS_REPLIES}
KINDS = ["date", "money", "percent", "count", "person", "organisation", "place", "category", "text"]

# Facts taken from a built benchmark (output/benchmark/configs.jsonl).
EN = {
    "domain": "finance", "genre": "annual report of a listed company",
    "seeds": ["Smith Industries Corporation 2019 Annual Report\n\nPart One: About the Company\nEstablished in 2002, "
              "Smith Industries Corporation is based in Milwaukee, Wisconsin. Shares of the company are traded on the "
              "Nasdaq with the ticker SMIT.",
              "Anderson Commerce Inc 2022 Annual Report\n\nSection 1 Company Overview\nEstablished in 2011, Anderson "
              "Commerce Inc is based in Columbus, Ohio. Net profit for the year was $10.85 million."],
    "a": ("Smith Industries Corporation", {"company_name": "Smith Industries Corporation", "report_year": "2019",
                                           "revenue": "$352.26 million", "net_profit": "$50.24 million"}),
    "b": ("Anderson Commerce Inc", {"company_name": "Anderson Commerce Inc", "report_year": "2022",
                                    "revenue": "$129.99 million", "net_profit": "$10.85 million"}),
    "section_facts": [("total_profit", "$62.03 million", "Profit before income tax."),
                      ("income_tax", "$11.79 million", "Income tax expense."),
                      ("net_profit", "$50.24 million", "Net profit for the year.")],
    "sections": ["Company Profile", "Management Discussion", "Significant Events", "Corporate Governance"],
    "title": "Smith Industries Corporation 2019 Annual Report",
    "medical": {"patient_name": "Eric King", "age": "67 years", "admission_date": "August 20, 2023",
                "chief_complaint": "sudden weakness of the right arm and leg", "symptom_duration": "2 hours"},
    "slot": {"key": "present_illness", "description": "How the illness began and developed before admission.",
             "example": "the weakness came on while he was watching television, and his family called an ambulance "
                        "at once"},
    "question": "What net profit did Smith Industries Corporation report for 2019?",
    "answer": "Smith Industries Corporation reported a net profit of $50.24 million for 2019.",
    "sentences": ["Profit before tax reached $62.03 million, with an income tax charge of $11.79 million.",
                  "Net profit for the year was $50.24 million.",
                  "At year end, total assets stood at $913.86 million."],
    "type_description": "Compare one numeric value across two documents and say which is higher.",
}
ZH = {
    "domain": "finance", "genre": "上市公司年度报告",
    "seeds": ["祥泰机械股份有限公司2018年度报告\n\n第一节 公司简介和主要财务指标\n公司全称为祥泰机械股份有限公司，于2010年设立，"
              "总部设于浙江省杭州市。公司股票在深圳证券交易所上市，证券代码为300902。",
              "昌天农业股份有限公司2018年年度报告全文\n\n第一节 公司简介\n昌天农业股份有限公司成立于2007年，总部位于湖南省长沙市。"
              "公司实现利润总额1.15亿元，所得税费用为2,875万元。"],
    "a": ("祥泰机械股份有限公司", {"company_name": "祥泰机械股份有限公司", "report_year": "2018",
                                "revenue": "67.37亿元", "net_profit": "2.85亿元"}),
    "b": ("昌天农业股份有限公司", {"company_name": "昌天农业股份有限公司", "report_year": "2018",
                                "revenue": "14.06亿元", "net_profit": "8,625万元"}),
    "section_facts": [("total_profit", "3.36亿元", "利润总额。"), ("income_tax", "5,100万元", "所得税费用。"),
                      ("net_profit", "2.85亿元", "净利润。")],
    "sections": ["公司简介和主要财务指标", "经营情况讨论与分析", "报告期内重大事项", "公司治理"],
    "title": "祥泰机械股份有限公司2018年度报告",
    "medical": {"patient_name": "钟淑英", "age": "34岁", "admission_date": "2024年5月8日",
                "chief_complaint": "双下肢水肿伴头痛", "symptom_duration": "3天"},
    "slot": {"key": "present_illness", "description": "现病史：起病及入院前的经过。",
             "example": "现孕35周，此前定期产检未见明显异常，近期出现双下肢水肿并逐渐加重，伴持续性头痛"},
    "question": "祥泰机械股份有限公司2018年度的净利润是多少？",
    "answer": "祥泰机械股份有限公司2018年度实现净利润2.85亿元。",
    "sentences": ["报告期内利润总额为3.36亿元，计提所得税费用5,100万元。", "在收入规模和成本控制的共同作用下，公司全年实现净利润2.85亿元。",
                  "2018年末，公司总资产达到37.88亿元。"],
    "type_description": "比较两篇文档中的同一数值，指出哪一方更高。",
}


def variables(stage: str, language: str) -> dict[str, Any]:
    d = EN if language == "en" else ZH
    schema_json = json.dumps(REPLIES[stage].model_json_schema(), ensure_ascii=False)
    if stage == "induce":
        return {"schema_json": schema_json, "genre": d["genre"], "seeds": d["seeds"], "kinds": KINDS,
                "draft": "\n".join(f"- {k}: text; labels: {v}" for k, v in d["a"][1].items())}
    if stage == "extract":
        return {"schema_json": schema_json, "slots": [{"name": k, "description": v} for k, v in d["a"][1].items()],
                "document": d["sentences"][0]}
    if stage == "narrative":
        return {"schema_json": schema_json, "domain": "medical", "genre": d["genre"], "slot": d["slot"],
                "facts": [{"key": k, "text": t} for k, t in d["medical"].items()], "max_chars": 300}
    if stage == "section":
        return {"schema_json": schema_json, "domain": d["domain"], "genre": d["genre"], "title": d["title"],
                "sections": d["sections"], "section_title": d["sections"][1],
                "summary": "\n".join(f"{k}: {v}" for k, v in d["a"][1].items()),
                "facts": [{"key": k, "text": t, "description": s} for k, t, s in d["section_facts"]]}
    if stage == "qra":
        documents = [{"label": label.upper(), "entity": d[label][0],
                      "facts": [{"key": f"{label}:{k}", "text": t} for k, t in d[label][1].items()]}
                     for label in ("a", "b")]
        return {"schema_json": schema_json, "domain": d["domain"], "genre": d["genre"],
                "question_type": "Multi-document Comparison Question", "type_description": d["type_description"],
                "documents": documents}
    common = {"schema_json": schema_json, "question": d["question"], "answer": d["answer"]}
    if stage == "judge":
        return {**common, "keypoints": [d["answer"], d["sentences"][0]], "unanswerable": False}
    if stage == "claims":
        return common
    if stage == "support":
        return {"schema_json": schema_json, "contexts": d["sentences"], "claims": [d["answer"], d["sentences"][2]]}
    if stage == "context_use":
        return {"schema_json": schema_json, "question": d["question"], "reference_answer": d["answer"],
                "contexts": d["sentences"]}
    if stage == "questions":
        return {"schema_json": schema_json, "answer": d["answer"], "n": 3}
    if stage == "agreement":
        return {**common, "oracle_answer": d["sentences"][1]}
    if stage == "references":
        return {**common, "sentences": [{"number": i, "doc": 5, "text": s} for i, s in enumerate(d["sentences"], 1)]}
    if stage == "refine":
        return {**common, "references": d["sentences"][:2]}
    return {**common, "question_type": "Factual Question"}


CASES = [(stage, language) for stage in STAGES + EVAL_STAGES for language in LANGUAGES]


def _latin_letters(text: str) -> int:
    return len(re.findall(r"[A-Za-z]", text))


@pytest.mark.parametrize(("stage", "language"), CASES)
def test_renders_system_and_user_with_the_schema(stage: str, language: str) -> None:
    values = variables(stage, language)
    messages = render_prompt(stage, language, **values)
    assert [m["role"] for m in messages] == ["system", "user"]
    assert all(m["content"].strip() for m in messages)
    assert values["schema_json"] in "\n".join(m["content"] for m in messages)
    assert "{%" not in messages[0]["content"] + messages[1]["content"]


@pytest.mark.parametrize(("stage", "language"), CASES)
def test_written_in_its_own_language(stage: str, language: str) -> None:
    values = variables(stage, language)
    text = "\n".join(m["content"] for m in render_prompt(stage, language, **values))
    if language == "en":
        assert cjk_count(text) == 0
    else:
        prose = text.replace(values["schema_json"], "")  # JSON keys are English by design
        assert detect_language(prose) == "zh"
        assert cjk_count(prose) > _latin_letters(prose)


@pytest.mark.parametrize(("stage", "language"), CASES)
def test_good_example_is_a_valid_reply(stage: str, language: str) -> None:
    system = render_prompt(stage, language, **variables(stage, language))[0]["content"]
    lines = [line.strip() for line in system.splitlines() if line.strip()]
    marker = "GOOD" if language == "en" else "正确示例"
    examples = [line for prev, line in zip(lines, lines[1:]) if prev.startswith(marker) and line.startswith("{")]
    assert len(examples) == 1
    REPLIES[stage].model_validate_json(examples[0])
    assert ("BAD" if language == "en" else "错误示例") in system


@pytest.mark.parametrize(("stage", "language"), CASES)
def test_every_missing_variable_raises(stage: str, language: str) -> None:
    values = variables(stage, language)
    for name in values:
        partial = {k: v for k, v in values.items() if k != name}
        with pytest.raises(TemplateError, match=stage):
            render_prompt(stage, language, **partial)


def test_unknown_stage_or_language_raises() -> None:
    with pytest.raises(TemplateError):
        render_prompt("nonsense", "en")
    with pytest.raises(TemplateError):
        render_prompt("qra", "fr", **variables("qra", "en"))
