"""Ragas-style metrics and LLM-retEval agreement in LLM mode (dragonforge.ragas), against a
scripted OpenAI-compatible server on loopback: the formulas on hand-checked verdicts, the
cases where a metric does not apply, and every failed reply recorded rather than guessed."""

from __future__ import annotations

import asyncio
from typing import Any

import numpy as np
import pytest
from llm_fakes import FakeLLMServer, RecordedRequest, ok, schema_invalid
from llm_fakes import fake_llm as fake_llm  # noqa: F401  (fixture)

from dragonforge import ragas
from dragonforge.llm import BudgetExceeded, LLMSettings, StructuredLLM

MARKERS = {"claims": ("split an answer into claims", "拆分成若干陈述"),
           "support": ("check claims against a context", "对照上下文核查陈述"),
           "context_use": ("judge retrieved passages", "评判检索到的段落"),
           "questions": ("write the questions an answer responds to", "写出一个回答所回应的问题"),
           "agreement": ("compare two answers", "比较同一问题的两个回答")}


def stage_of(request: RecordedRequest) -> str:
    system = request.messages[0]["content"]
    return next(stage for stage, marks in MARKERS.items() if any(m in system for m in marks))


def by_stage(replies: dict[str, Any]):
    """A responder answering each stage with its scripted reply (an action or a JSON object)."""
    def respond(request: RecordedRequest):
        reply = replies[stage_of(request)]
        return reply if not isinstance(reply, dict) else ok(reply)
    return respond


def run(server: FakeLLMServer, coro_fn, **overrides):
    settings = LLMSettings(**{"base_url": server.base_url, "model": server.model, "timeout_s": 5.0,
                              "max_retries": 0, "max_repairs": 0, **overrides})

    async def go():
        llm = StructuredLLM(settings)
        try:
            return await coro_fn(llm)
        finally:
            await llm.aclose()

    return asyncio.run(go())


class FixedEmbedder:
    """Vectors chosen by the test: the question is e1; generated questions at known angles."""

    def __init__(self, vectors: dict[str, list[float]]):
        self.vectors = vectors
        self.calls: list[list[str]] = []

    async def embed(self, texts: list[str]) -> np.ndarray:
        self.calls.append(list(texts))
        rows = np.asarray([self.vectors[t] for t in texts], dtype=np.float32)
        return rows / np.linalg.norm(rows, axis=1, keepdims=True)


QUESTION = "What net profit did Acme report for 2019?"
ANSWER = "Acme reported a net profit of $50.24 million for 2019. Revenue was $352.26 million. The CEO is Ada Lee."
CONTEXTS = ["Net profit for the year was $50.24 million.", "Revenue reached $352.26 million.", "Total assets grew."]
CLAIMS = {"claims": ["Acme reported a net profit of $50.24 million for 2019.", "Revenue was $352.26 million.",
                     "The CEO of Acme is Ada Lee."]}


def test_faithfulness_is_supported_claims_over_claims(fake_llm):
    fake_llm.script(ok(CLAIMS), ok({"verdicts": [{"claim": 1, "supported": True}, {"claim": 2, "supported": True},
                                                 {"claim": 3, "supported": False}]}))
    value = run(fake_llm, lambda llm: ragas.faithfulness(llm, QUESTION, ANSWER, CONTEXTS, "en"))
    assert value == pytest.approx(2 / 3)
    support = fake_llm.chat_requests[1].messages[1]["content"]
    assert all(c in support for c in CONTEXTS) and "3. The CEO of Acme is Ada Lee." in support


def test_faithfulness_without_context_is_zero_and_asks_only_for_the_claims(fake_llm):
    fake_llm.script(ok(CLAIMS))
    assert run(fake_llm, lambda llm: ragas.faithfulness(llm, QUESTION, ANSWER, [], "en")) == 0.0
    assert fake_llm.count == 1


def test_context_precision_from_usefulness_verdicts_matches_the_worked_examples(fake_llm):
    for useful, expected in (([0, 1, 0, 1], 0.5), ([1, 0, 0, 1], 0.75), ([0, 0, 0, 0], 0.0)):
        fake_llm.reset()
        fake_llm.script(ok({"verdicts": [{"passage": i, "useful": bool(u)} for i, u in enumerate(useful, 1)]}))
        value = run(fake_llm, lambda llm: ragas.context_precision(llm, QUESTION, "Net profit was $50.24 million.",
                                                                  CONTEXTS + ["Board met 11 times.", "ignored"], 4,
                                                                  "en"))
        assert value == pytest.approx(expected), useful
        asked = fake_llm.chat_requests[0].messages[1]["content"]
        assert "[4] Board met 11 times." in asked and "ignored" not in asked  # only the top K


def test_answer_relevancy_is_the_mean_cosine_of_the_generated_questions(fake_llm):
    generated = ["Q same", "Q orthogonal", "Q sixty degrees"]
    embedder = FixedEmbedder({QUESTION: [1, 0], "Q same": [2, 0], "Q orthogonal": [0, 1],
                              "Q sixty degrees": [0.5, np.sqrt(3) / 2]})
    fake_llm.script(ok({"questions": generated, "noncommittal": False}))
    value = run(fake_llm, lambda llm: ragas.answer_relevancy(llm, embedder, QUESTION, ANSWER, "en"))
    assert value == pytest.approx((1 + 0 + 0.5) / 3, abs=1e-6)
    assert embedder.calls == [[QUESTION] + generated]


def test_a_noncommittal_answer_has_zero_relevancy_without_embedding(fake_llm):
    embedder = FixedEmbedder({})
    fake_llm.script(ok({"questions": ["What happened?"], "noncommittal": True}))
    assert run(fake_llm, lambda llm: ragas.answer_relevancy(llm, embedder, QUESTION, "It depends.", "en")) == 0.0
    assert embedder.calls == []


def test_agreement_asks_the_llm_only_when_the_answers_differ_in_substance(fake_llm):
    same = run(fake_llm, lambda llm: ragas.agreement(llm, QUESTION, "Net  profit was $5m.", "Net profit was $5m.", "en"))
    one_refuses = run(fake_llm, lambda llm: ragas.agreement(llm, QUESTION, "Unable to answer", "Net profit: $5m.", "en"))
    both_refuse = run(fake_llm, lambda llm: ragas.agreement(llm, "净利润是多少？", "无法回答", "无法回答。", "zh"))
    assert (same, one_refuses, both_refuse) == (1.0, 0.0, 1.0)
    assert fake_llm.count == 0
    fake_llm.script(ok({"agree": False, "reason": "$62.03 million against $50.24 million"}))
    assert run(fake_llm, lambda llm: ragas.agreement(llm, QUESTION, "Net profit was $62.03 million.",
                                                     "Net profit was $50.24 million.", "en")) == 0.0
    asked = fake_llm.chat_requests[0].messages[1]["content"]
    assert "Answer A: Net profit was $62.03 million." in asked and "Answer B: Net profit was $50.24 million." in asked


def test_score_runs_every_metric_that_applies_in_chinese_too(fake_llm):
    fake_llm.script(default=by_stage({
        "claims": {"claims": ["祥泰机械2018年净利润2.85亿元。"]},
        "support": {"verdicts": [{"claim": 1, "supported": True}]},
        "context_use": {"verdicts": [{"passage": 1, "useful": True}, {"passage": 2, "useful": False}]},
        "questions": {"questions": ["祥泰机械2018年净利润是多少？"], "noncommittal": False},
        "agreement": {"agree": True}}))
    embedder = FixedEmbedder({"祥泰机械2018年的净利润是多少？": [1, 0], "祥泰机械2018年净利润是多少？": [1, 0]})
    scores = run(fake_llm, lambda llm: ragas.score(
        llm, embedder, question="祥泰机械2018年的净利润是多少？", answer="祥泰机械2018年净利润为2.85亿元。",
        contexts=["公司全年实现净利润2.85亿元。", "公司总资产37.88亿元。"], reference_answer="净利润2.85亿元。",
        oracle_answer="净利润为2.85亿元。", k=5, language="zh", unanswerable=False))
    assert scores.failures == []
    assert scores.values == {"faithfulness": 1.0, "context_precision": 1.0, "answer_relevancy": 1.0,
                             "retrieval_agreement": 1.0}
    assert {stage_of(r) for r in fake_llm.chat_requests} == set(MARKERS)
    assert all("JSON" in r.messages[0]["content"] for r in fake_llm.chat_requests)


def test_score_leaves_out_what_does_not_apply_without_calling(fake_llm):
    # A refusal on an unanswerable question from an external system: no claims to check, no
    # reference answer, no relevancy for an unanswerable question, no oracle answer.
    scores = run(fake_llm, lambda llm: ragas.score(
        llm, FixedEmbedder({}), question="Who audited the moon?", answer="Unable to answer", contexts=["x"],
        reference_answer=None, oracle_answer=None, k=5, language="en", unanswerable=True))
    assert scores.values == {} and scores.failures == []
    assert fake_llm.count == 0
    # An answerable question answered with a refusal is noncommittal: relevancy 0, asked nothing.
    scores = run(fake_llm, lambda llm: ragas.score(
        llm, FixedEmbedder({}), question=QUESTION, answer="", contexts=[], reference_answer="x",
        oracle_answer=None, k=5, language="en", unanswerable=False))
    assert scores.values == {"context_precision": 0.0, "answer_relevancy": 0.0}
    assert fake_llm.count == 0


def test_a_bad_reply_leaves_its_metric_empty_and_records_why(fake_llm):
    fake_llm.script(default=by_stage({
        "claims": CLAIMS,
        "support": {"verdicts": [{"claim": 1, "supported": True}, {"claim": 2, "supported": True}]},  # skips 3
        "context_use": schema_invalid({"verdicts": "all useful"}),
        "questions": {"questions": ["What did Acme earn?"]},
        "agreement": {"agree": True}}))

    class DeadEmbedder:
        async def embed(self, texts):
            raise ConnectionError("embeddings endpoint refused the connection")

    scores = run(fake_llm, lambda llm: ragas.score(
        llm, DeadEmbedder(), question=QUESTION, answer=ANSWER, contexts=CONTEXTS, reference_answer="x",
        oracle_answer="Acme's net profit was $50.24 million.", k=5, language="en", unanswerable=False))
    assert scores.values == {"faithfulness": None, "context_precision": None, "answer_relevancy": None,
                             "retrieval_agreement": 1.0}
    reasons = "\n".join(scores.failures)
    assert len(scores.failures) == 3
    assert "faithfulness: support: no verdict for claim 3 of 3" in reasons
    assert "context_precision: context_use:" in reasons
    assert "answer_relevancy: embeddings: ConnectionError: embeddings endpoint refused the connection" in reasons


def test_a_spent_budget_stops_the_run_instead_of_being_one_querys_failure(fake_llm):
    fake_llm.script(default=by_stage({"claims": CLAIMS, "context_use": {"verdicts": [{"passage": 1, "useful": True}]},
                                      "support": {"verdicts": [{"claim": i, "supported": True} for i in (1, 2, 3)]}}))
    with pytest.raises(BudgetExceeded):
        run(fake_llm, lambda llm: ragas.score(
            llm, None, question=QUESTION, answer=ANSWER, contexts=CONTEXTS[:1], reference_answer="x",
            oracle_answer=None, k=5, language="en", unanswerable=False), max_calls=1)
