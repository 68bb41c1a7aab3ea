"""Each metric defect found when the evaluator was checked against RAGEval's scripts, ranx and
ragas, with a test that fails without its fix: refusals, degenerate answers, repeated chunks,
nDCG's ideal ranking, MRR@K, relevance restricted to the gold documents, and the compat counts."""

from __future__ import annotations

import math
import random

import pytest

from dragonforge import metrics as m
from dragonforge.evaluate import EvalConfig, aggregate, lexical_labels, score_query
from dragonforge.models import DBQuery, QueryType
from dragonforge.records import QueryRecord
from dragonforge.systems import SystemAnswer

A = "Revenue rose 5% in 2023."
B = "Costs were flat over the year."
TEMPLATE = "The company is listed on the main board."
GOLD = f"Acme Ltd. {A} {TEMPLATE} {B}"
OTHER = f"Borealis Ltd. Revenue fell 2% in 2023. {TEMPLATE} Costs rose sharply."


def query(qid: int = 1, qtype: QueryType = QueryType.FACTUAL, refs: list[str] | None = None) -> DBQuery:
    refs = [A, B] if refs is None else refs
    return DBQuery.model_validate({"query": {"query_id": qid, "query_type": qtype.value, "content": "How did Acme do in 2023?"},
            "ground_truth": {"content": f"{A} {B}" if refs else "", "references": refs, "doc_ids": [1] if refs else [],
                             "keypoints": ["1. Revenue rose 5% in 2023.", "2. Costs were flat."] if refs else []},
            "language": "en", "domain": "Finance"})


DOCS = {1: {"doc_id": 1, "content": GOLD}, 2: {"doc_id": 2, "content": OTHER}}


def score(q: DBQuery, answer: SystemAnswer, **config) -> QueryRecord:
    return score_query(q, answer, lexical_labels(q, answer), EvalConfig(system="x", **config), DOCS)


# --- refusals ------------------------------------------------------------------------------------

UNANSWERABLE = query(7, QueryType.UNANSWERABLE, refs=[])


def test_an_error_or_an_empty_answer_is_not_a_refusal():
    failed = score(UNANSWERABLE, SystemAnswer(query_id=7, answer="", error="TimeoutError: no reply"))
    empty = score(UNANSWERABLE, SystemAnswer(query_id=7, answer="   "))
    refusal = score(UNANSWERABLE, SystemAnswer(query_id=7, answer="The documents do not say; I cannot answer that."))
    assert failed.refusal_accuracy == 0.0 and not failed.refused
    assert empty.refusal_accuracy == 0.0 and not empty.refused
    assert refusal.refusal_accuracy == 1.0 and refusal.refused


def test_a_system_that_raised_on_every_query_does_not_score_refusals_and_its_errors_are_counted():
    records = [score(query(i, QueryType.UNANSWERABLE, refs=[]), SystemAnswer(query_id=i, error="RuntimeError: down"))
               for i in range(1, 5)]
    scores = aggregate(records, EvalConfig(system="x")).to_json()
    assert scores["overall"]["refusal_accuracy"] == 0.0
    assert scores["counts"]["system_errors"] == 4


# --- degenerate answers -------------------------------------------------------------------------


@pytest.mark.parametrize("text", [".", "-", "…", " ", ""])
def test_an_answer_with_no_word_in_it_is_not_faithful(text):
    record = score(query(), SystemAnswer(query_id=1, answer=text, contexts=[GOLD]))
    assert record.faithfulness == 0.0 and record.completeness == 0.0


def test_a_real_answer_is_still_scored_on_its_support():
    record = score(query(), SystemAnswer(query_id=1, answer=A, contexts=[GOLD]))
    assert record.faithfulness == 1.0


# --- repeated chunks ----------------------------------------------------------------------------


def test_a_chunk_returned_three_times_counts_once_in_every_metric():
    chunk_a, chunk_b = f"(Acme) Acme Ltd. {A}", f"(Acme) {B}"
    repeated = [chunk_a, chunk_a, f"(Acme) Acme Ltd.  {A}", "unrelated text here.", chunk_b]
    record = score(query(), SystemAnswer(query_id=1, answer=A, contexts=repeated))
    once = score(query(), SystemAnswer(query_id=1, answer=A, contexts=[chunk_a, "unrelated text here.", chunk_b]))
    for name in ("precision", "ndcg_at_k", "mrr", "recall", "eir", "context_precision", "recall_at_k"):
        assert getattr(record, name) == getattr(once, name), name
    assert record.precision == pytest.approx(2 / 3)
    # B is at rank 3 of the distinct chunks: not a full nDCG
    assert record.ndcg_at_k == pytest.approx((1 + 1 / math.log2(4)) / (1 + 1 / math.log2(3)))


def test_repeats_are_recognised_through_metadata_and_spacing_but_different_chunks_are_kept():
    assert m.unique_chunks(["(X) a b", "(Y) a  b", "a b c", "a b"]) == ["(X) a b", "a b c"]


def test_compat_mode_keeps_the_reference_implementations_three_on_the_list_as_returned():
    chunk = f"Acme Ltd. {A}"
    record = score(query(), SystemAnswer(query_id=1, answer=A, contexts=[chunk, chunk, "noise."]), compat="rageval")
    assert record.precision == m.precision_compat([A, B], [chunk, chunk, "noise."], "en")
    assert record.eir == m.eir([A, B], [chunk, chunk, "noise."], "en")


# --- nDCG's ideal ranking and MRR@K -------------------------------------------------------------


def test_perfect_retrieval_scores_a_full_ndcg_however_many_references_one_chunk_holds():
    assert m.ndcg_at_k([A, B], [f"{A} {B}", "noise."], "en", k=5) == 1.0
    assert m.ndcg_at_k([A, B, "Debt fell."], [f"{A} {B} Debt fell."], "en", k=5) == 1.0


def test_a_reference_nobody_retrieved_still_belongs_to_the_ideal_list():
    # one relevant chunk on top, one reference never retrieved: IDCG has two items
    assert m.ndcg_at_k([A, B], [A, "noise."], "en", k=5) == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_mrr_looks_only_at_the_top_k():
    contexts = ["noise one.", "noise two.", f"Acme Ltd. {A}"]
    assert score(query(), SystemAnswer(query_id=1, answer=A, contexts=contexts), k=2).mrr == 0.0
    assert score(query(), SystemAnswer(query_id=1, answer=A, contexts=contexts), k=3).mrr == pytest.approx(1 / 3)


def _ranx(relevant: list[bool], untouched: int, k: int) -> tuple[float, float]:
    from ranx import Qrels, Run, evaluate

    qrels = {f"c{i}": 1 for i, r in enumerate(relevant) if r} | {f"missing{j}": 1 for j in range(untouched)}
    if not qrels or not relevant:
        return 0.0, 0.0
    run = {f"c{i}": float(len(relevant) - i) for i in range(len(relevant))}
    out = evaluate(Qrels({"q": qrels}), Run({"q": run}), [f"ndcg@{k}", f"mrr@{k}"])
    return float(out[f"ndcg@{k}"]), float(out[f"mrr@{k}"])


def test_ndcg_and_mrr_at_k_agree_with_ranx_on_random_rankings():
    rng = random.Random(11)
    refs = [f"Fact number {i} is stated here." for i in range(5)]
    noise = [f"Noise sentence {i} says nothing." for i in range(8)]
    for _ in range(60):
        held = rng.sample(refs, rng.randint(1, 5))
        chunks = [" ".join(rng.sample(held, rng.randint(1, len(held)))) + f" tail {i}." for i in range(rng.randint(0, 3))]
        chunks += rng.sample(noise, rng.randint(0, 5))
        rng.shuffle(chunks)
        k = rng.choice([1, 3, 5, 10])
        relevant = [m.is_relevant(c, held, "en") for c in chunks]
        untouched = sum(1 for r in held if not any(r in c for c in chunks))
        ndcg, mrr = _ranx(relevant, untouched, k)
        assert m.ndcg_at_k(held, chunks, "en", k=k) == pytest.approx(ndcg, abs=1e-9), (held, chunks, k)
        assert m.mrr(held, chunks, "en", k=k) == pytest.approx(mrr, abs=1e-9), (held, chunks, k)


# --- relevance restricted to the gold documents ------------------------------------------------


def test_a_chunk_of_another_document_sharing_a_template_sentence_is_not_relevant():
    refs = [TEMPLATE, A]
    other = f"(Borealis) {OTHER}"
    assert m.is_relevant(other, refs, "en")  # by text alone it would be
    assert not m.is_relevant(other, refs, "en", documents=[GOLD])
    assert m.is_relevant(f"(Acme) {GOLD}", refs, "en", documents=[GOLD])
    q = query(refs=refs)
    record = score(q, SystemAnswer(query_id=1, answer=A, contexts=[other, f"(Acme) {GOLD}"]))
    assert record.precision == 0.5 and record.mrr == 0.5


# --- compat counts -----------------------------------------------------------------------------


def test_compat_counts_say_which_means_left_the_no_reference_queries_out():
    records = [score(query(1), SystemAnswer(query_id=1, answer=A, contexts=[GOLD]), compat="rageval"),
               score(UNANSWERABLE, SystemAnswer(query_id=7, answer="I cannot answer."), compat="rageval")]
    counts = aggregate(records, EvalConfig(system="x", compat="rageval")).to_json()["counts"]
    assert counts["left_out_of_retrieval_means"] == 1
    assert counts["left_out_by_metric"]["recall"] == 0 and counts["left_out_by_metric"]["mrr"] == 1


def test_a_chunk_whose_lines_a_system_rejoined_still_comes_from_its_document():
    doc = "Acme Ltd. annual report.\nRevenue rose 5% in 2023.\nCosts were flat over the year.\n"
    assert m.from_documents("Revenue rose 5% in 2023. Costs were flat over the year.", [doc], "en")
    zh = "公司简介。\n公司成立于2006年。\n总部位于苏州市。\n"
    assert m.from_documents("公司成立于2006年。总部位于苏州市。", [zh], "zh")
    assert not m.from_documents("Borealis Ltd. Revenue fell 2% in 2023. Costs rose sharply.", [doc], "en")


def test_a_wrong_documents_chunk_holding_a_reference_does_not_shrink_the_ideal_list():
    other = f"Borealis Ltd. {B} Costs rose sharply."  # holds B's sentence, from another document
    with_other = m.ndcg_at_k([A, B], [f"Acme Ltd. {A}", other], "en", documents=[GOLD])
    without = m.ndcg_at_k([A, B], [f"Acme Ltd. {A}", "noise here."], "en", documents=[GOLD])
    assert with_other == without == pytest.approx(1 / (1 + 1 / math.log2(3)))


def test_a_system_error_on_an_unanswerable_question_is_not_a_policy_failure():
    failed = score(UNANSWERABLE, SystemAnswer(query_id=7, answer="", error="RuntimeError: down"))
    answered = score(UNANSWERABLE, SystemAnswer(query_id=7, answer="Revenue rose 5% in 2023."))
    assert failed.failure is None and answered.failure == "policy_failure"
