"""The evaluator end to end: the BM25 baseline on a built benchmark, predictions files, the
reference implementation's conventions, and the files it writes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from dragonforge.evaluate import EvalConfig, aggregate, load_benchmark, lexical_labels, score_query
from dragonforge.models import BuildParams, QueryType
from dragonforge.systems import Query, SystemAnswer


@pytest.fixture(scope="module")
def bench(tmp_path_factory) -> Path:
    """A default-mix benchmark written by the library (no Prefect needed for the fixture)."""
    from dragonforge.benchmark import write_benchmark
    from dragonforge.pipeline import run_build

    out = tmp_path_factory.mktemp("bench")
    params = BuildParams(docs=8, queries_per_doc=6, seed=3)
    write_benchmark(out, params, run_build(params), {})
    return out


def _run_bm25(bench: Path, top_k: int) -> list[dict]:
    import asyncio

    from dragonforge.rag import BaselineRAG, ExtractiveGenerator

    documents, queries = load_benchmark(bench)
    system = BaselineRAG(documents, chunk_size=512, overlap=64, top_k=top_k, metadata_prefix=False,
                         generator=ExtractiveGenerator())
    config = EvalConfig(system="bm25", top_k=top_k)
    by_id = {d["doc_id"]: d for d in documents}

    async def answers():
        return await asyncio.gather(*(system.answer(Query(query_id=q["query"]["query_id"], language=q["language"],
                                                          domain=q["domain"], question=q["query"]["content"]))
                                      for q in queries))

    got = {a.query_id: a for a in asyncio.run(answers())}
    return [score_query(q, got[q["query"]["query_id"]], lexical_labels(q, got[q["query"]["query_id"]]), config, by_id)
            for q in queries]


def test_recall_and_completeness_rise_with_top_k_in_both_languages(bench):
    """The paper's finding (recall 0.47 → 0.64 → 0.73 for TopK 2/4/6), on our benchmark."""
    by_k = {k: aggregate(_run_bm25(bench, k), EvalConfig(system="bm25", top_k=k)) for k in (2, 4, 6)}
    for language in ("en", "zh"):
        recall = [by_k[k]["by_language"][language]["recall"] for k in (2, 4, 6)]
        completeness = [by_k[k]["by_language"][language]["completeness"] for k in (2, 4, 6)]
        print(language, "recall", recall, "completeness", completeness)
        assert recall[0] < recall[1] < recall[2], recall
        assert completeness[0] < completeness[2], completeness


def test_scores_are_broken_down_by_type_language_and_domain(bench):
    records = _run_bm25(bench, 4)
    scores = aggregate(records, EvalConfig(system="bm25", top_k=4))
    assert set(scores) >= {"overall", "by_type", "by_language", "by_domain", "counts", "config"}
    assert set(scores["by_type"]) == {t.value for t in QueryType}
    assert set(scores["by_language"]) == {"en", "zh"}
    assert set(scores["by_domain"]) == {"Finance", "Law", "Medical"}
    unanswerable = [r for r in records if r["query_type"] == QueryType.UNANSWERABLE.value]
    assert scores["counts"]["left_out_of_retrieval_means"] == len(unanswerable)
    for name in ("recall", "eir", "precision", "recall_at_k", "mrr", "ndcg_at_k", "context_precision",
                 "completeness", "hallucination", "irrelevance", "rouge_l", "refusal_accuracy"):
        assert scores["overall"][name] is not None, name
    for r in records:
        if r["completeness"] is not None:
            assert abs(r["completeness"] + r["hallucination"] + r["irrelevance"] - 1) < 1e-9
        missed = r["query_type"] == QueryType.UNANSWERABLE.value and not r["refused"]
        if missed:
            assert r["failure"] == "policy_failure"


def test_compat_mode_scores_queries_without_references_as_zero(bench):
    documents, queries = load_benchmark(bench)
    q = next(q for q in queries if q["query"]["query_type"] == QueryType.UNANSWERABLE.value)
    answer = SystemAnswer(query_id=q["query"]["query_id"], answer="Unable to answer", contexts=["some chunk"])
    default = score_query(q, answer, lexical_labels(q, answer), EvalConfig(system="x"), {})
    compat = score_query(q, answer, lexical_labels(q, answer), EvalConfig(system="x", compat="rageval"), {})
    assert default["recall"] is None and default["eir"] is None
    assert compat["recall"] == 0.0 and compat["eir"] == 0.0
    assert default["refusal_accuracy"] == 1.0 and default["completeness"] == 1.0


def _cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "dragonforge.cli", "evaluate", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=600)


def test_the_evaluate_command_writes_scores_per_query_and_predictions(bench, tmp_path, prefect_home):
    out = tmp_path / "eval"
    proc = _cli(str(bench), "--system", "bm25", "--top-k", "4", "--out", str(out), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "Scored" in proc.stdout
    scores = json.loads((out / "scores.json").read_text())
    assert scores["config"]["top_k"] == 4 and scores["config"]["judge"] == "lexical"
    per_query = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
    assert len(per_query) == len(queries) == pl.read_parquet(out / "per_query.parquet").height
    assert {"query_id", "query_type", "language", "recall", "completeness", "labels", "failure"} <= set(per_query[0])
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert all(p["prediction"]["references"] for p in predictions)

    # The predictions file it wrote scores the same through --predictions (retrieval and
    # ROUGE-L need only the file).
    again = tmp_path / "again"
    proc = _cli("--predictions", str(out / "predictions.jsonl"), "--out", str(again), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rescored = json.loads((again / "scores.json").read_text())
    for name in ("recall", "eir", "rouge_l", "completeness"):
        assert rescored["overall"][name] == pytest.approx(scores["overall"][name]), name


def test_a_bad_predictions_file_is_refused_naming_its_line(bench, tmp_path, prefect_home):
    bad = tmp_path / "bad.jsonl"
    good = (bench / "queries.jsonl").read_text().splitlines()
    bad.write_text(good[0] + "\n" + '{"query": {"query_id": "seven"}}\n', encoding="utf-8")
    proc = _cli("--predictions", str(bad), "--benchmark", str(bench), "--out", str(tmp_path / "e"), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 1
    assert "line 2" in proc.stderr
    assert not (tmp_path / "e").exists()
