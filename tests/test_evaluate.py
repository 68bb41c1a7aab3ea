"""The evaluator end to end: the BM25 baseline on a built benchmark, predictions files, the
reference implementation's conventions, and the files it writes."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import polars as pl
import pytest

from dragonforge.evaluate import EvalConfig, aggregate, load_benchmark, lexical_labels, score_query
from dragonforge.models import BuildParams, QueryType
from dragonforge.records import QueryRecord
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


def _run_bm25(bench: Path, top_k: int) -> list[QueryRecord]:
    import asyncio

    from dragonforge.rag import BaselineRAG, ExtractiveGenerator

    documents, queries = load_benchmark(bench)
    system = BaselineRAG(documents, chunk_size=512, overlap=64, top_k=top_k, metadata_prefix=False,
                         generator=ExtractiveGenerator())
    config = EvalConfig(system="bm25", top_k=top_k)
    by_id = {d["doc_id"]: d for d in documents}

    async def answers():
        return await asyncio.gather(*(system.answer(Query(query_id=q.query.query_id, language=q.language,
                                                          domain=q.domain, question=q.query.content))
                                      for q in queries))

    got = {a.query_id: a for a in asyncio.run(answers())}
    return [score_query(q, got[q.query.query_id], lexical_labels(q, got[q.query.query_id]), config, by_id)
            for q in queries]


def test_recall_and_completeness_rise_with_top_k_in_both_languages(bench):
    """The paper's finding (recall 0.47 → 0.64 → 0.73 for TopK 2/4/6), on our benchmark."""
    by_k = {k: aggregate(_run_bm25(bench, k), EvalConfig(system="bm25", top_k=k)).to_json() for k in (2, 4, 6)}
    for language in ("en", "zh"):
        recall = [by_k[k]["by_language"][language]["recall"] for k in (2, 4, 6)]
        completeness = [by_k[k]["by_language"][language]["completeness"] for k in (2, 4, 6)]
        print(language, "recall", recall, "completeness", completeness)
        assert recall[0] < recall[1] < recall[2], recall
        assert completeness[0] < completeness[2], completeness


def test_scores_are_broken_down_by_type_language_and_domain(bench):
    records = _run_bm25(bench, 4)
    scores = aggregate(records, EvalConfig(system="bm25", top_k=4)).to_json()
    assert set(scores) >= {"overall", "by_type", "by_language", "by_domain", "counts", "config"}
    assert set(scores["by_type"]) == {t.value for t in QueryType}
    assert set(scores["by_language"]) == {"en", "zh"}
    assert set(scores["by_domain"]) == {"Finance", "Law", "Medical"}
    unanswerable = [r for r in records if r.query_type == QueryType.UNANSWERABLE.value]
    assert scores["counts"]["left_out_of_retrieval_means"] == len(unanswerable)
    for name in ("recall", "eir", "precision", "recall_at_k", "mrr", "ndcg_at_k", "context_precision",
                 "completeness", "hallucination", "irrelevance", "rouge_l", "refusal_accuracy"):
        assert scores["overall"][name] is not None, name
    for r in records:
        if r.completeness is not None:
            assert abs(r.completeness + r.hallucination + r.irrelevance - 1) < 1e-9
        missed = r.query_type == QueryType.UNANSWERABLE.value and not r.refused
        if missed:
            assert r.failure == "policy_failure"


def test_compat_mode_scores_queries_without_references_as_zero(bench):
    """And uses the reference implementation's precision (metrics.precision_compat)."""
    documents, queries = load_benchmark(bench)
    q = next(q for q in queries if q.query.query_type is QueryType.UNANSWERABLE)
    answer = SystemAnswer(query_id=q.query.query_id, answer="Unable to answer", contexts=["some chunk"])
    default = score_query(q, answer, lexical_labels(q, answer), EvalConfig(system="x"), {})
    compat = score_query(q, answer, lexical_labels(q, answer), EvalConfig(system="x", compat="rageval"), {})
    assert default.recall is None and default.eir is None
    assert compat.recall == 0.0 and compat.eir == 0.0
    assert default.precision is None and compat.precision == 0.0
    assert default.refusal_accuracy == 1.0 and default.completeness == 1.0


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
    assert scores["methods"]["faithfulness"].startswith("offline approximation")
    assert scores["methods"]["answer_relevancy"].startswith("not computed")
    per_query = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
    assert len(per_query) == len(queries) == pl.read_parquet(out / "per_query.parquet").height
    assert {"query_id", "query_type", "language", "recall", "completeness", "labels", "failure"} <= set(per_query[0])
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert all(p["prediction"]["references"] for p in predictions)
    # The baseline also answered from the gold references: LLM-retEval agreement, offline.
    answerable = [r for r in per_query if r["query_type"] != QueryType.UNANSWERABLE.value]
    assert {r["retrieval_agreement"] for r in answerable} == {0.0, 1.0}
    assert 0 < scores["overall"]["retrieval_agreement"] < 1

    # The predictions file it wrote scores the same through --predictions (retrieval and
    # ROUGE-L need only the file).
    again = tmp_path / "again"
    proc = _cli("--predictions", str(out / "predictions.jsonl"), "--out", str(again), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rescored = json.loads((again / "scores.json").read_text())
    for name in ("recall", "eir", "rouge_l", "completeness"):
        assert rescored["overall"][name] == pytest.approx(scores["overall"][name]), name
    assert rescored["overall"]["retrieval_agreement"] is None  # a predictions file has no oracle answers


def test_a_bad_predictions_file_is_refused_naming_its_line(bench, tmp_path, prefect_home):
    bad = tmp_path / "bad.jsonl"
    good = (bench / "queries.jsonl").read_text().splitlines()
    bad.write_text(good[0] + "\n" + '{"query": {"query_id": "seven"}}\n', encoding="utf-8")
    proc = _cli("--predictions", str(bad), "--benchmark", str(bench), "--out", str(tmp_path / "e"), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 1
    assert "line 2" in proc.stderr
    assert not (tmp_path / "e").exists()


# --- retrieval agreement (LLM-retEval), offline ----------------------------------------------------


def test_offline_retrieval_agreement_compares_the_judge_labels_of_the_two_answers(bench):
    from dragonforge.evaluate import oracle_labels

    documents, queries = load_benchmark(bench)
    q = next(q for q in queries if q.query.query_type is QueryType.FACTUAL)
    gold = q.ground_truth.content
    config = EvalConfig(system="bm25")

    def agreement(answer: str, oracle: str | None) -> float | None:
        a = SystemAnswer(query_id=q.query.query_id, answer=answer, contexts=[], oracle_answer=oracle)
        return score_query(q, a, lexical_labels(q, a), config, {}, oracle_labels=oracle_labels(q, a)).retrieval_agreement

    assert agreement(gold, gold) == 1.0
    assert agreement("Unable to answer", gold) == 0.0
    assert agreement("Unable to answer", "Unable to answer") == 1.0  # both miss the same way: they agree
    assert agreement(gold, None) is None  # no oracle answer (an external system)


# --- the command with external systems, resuming, and its input checks ------------------------------

RAG_MODULE = '''
def answer(question, language):
    if "revenue" in question.lower() or "营业收入" in question:
        raise RuntimeError("revenue index offline")
    return {"answer": "Unable to answer" if language == "en" else "无法回答", "contexts": ["no chunk"],
            "latency_ms": 12.5, "usage": {"prompt_tokens": 100, "completion_tokens": 7, "cost": 0.001}}
'''


def test_a_python_callable_is_scored_with_its_failures_recorded_per_query(bench, tmp_path, prefect_home):
    (tmp_path / "team_rag.py").write_text(RAG_MODULE, encoding="utf-8")
    out = tmp_path / "eval"
    proc = _cli(str(bench), "--system", "python:team_rag:answer", "--out", str(out), "--allow-failures", "1",
                cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    failed = [r for r in records if r["error"]]
    assert failed and all(r["error"] == "RuntimeError: revenue index offline" for r in failed)
    scores = json.loads((out / "scores.json").read_text())
    assert scores["counts"]["system_errors"] == len(failed) < len(records)
    assert scores["overall"]["latency_p50_ms"] == 12.5 and scores["overall"]["cost"] == pytest.approx(0.001)
    assert scores["overall"]["refusal_accuracy"] == 1.0  # it refuses everything, unanswerable questions included
    assert scores["overall"]["retrieval_agreement"] is None  # no oracle answer from an external system


class _SlowRAG(BaseHTTPRequestHandler):
    """An HTTP RAG endpoint that takes 50 ms per query and counts the questions it is asked."""

    asked: list[str] = []
    slow_question = ""  # this one takes 3 s

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        type(self).asked.append(body["query"])
        time.sleep(3 if body["query"] == type(self).slow_question else 0.05)
        payload = json.dumps({"answer": body["query"], "contexts": [body["query"]]}).encode()
        try:
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:  # the client gave up (the timed-out query)
            pass

    def log_message(self, *args):
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # the default 5 drops connections past it: the client retries a second later


@pytest.fixture()
def slow_rag():
    _SlowRAG.asked, _SlowRAG.slow_question = [], ""
    server = _Server(("127.0.0.1", 0), _SlowRAG)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rag"
    server.shutdown()
    server.server_close()


def test_an_http_system_query_past_the_timeout_is_recorded_and_the_rest_scored(bench, tmp_path, prefect_home,
                                                                                slow_rag):
    queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
    _SlowRAG.slow_question = queries[3]["query"]["content"]
    out = tmp_path / "eval"
    proc = _cli(str(bench), "--system", slow_rag, "--timeout", "1", "--out", str(out), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0, proc.stderr[-2000:]
    records = {r["query_id"]: r for r in map(json.loads, (out / "per_query.jsonl").read_text().splitlines())}
    assert records[queries[3]["query"]["query_id"]]["error"] == "timeout after 1s"
    assert sum(bool(r["error"]) for r in records.values()) == 1
    assert json.loads((out / "scores.json").read_text())["counts"]["system_errors"] == 1


def test_an_interrupted_evaluation_resumes_asking_the_endpoint_only_for_the_rest(bench, tmp_path, prefect_home):
    _SlowRAG.asked, _SlowRAG.slow_question = [], ""
    server = _Server(("127.0.0.1", 0), _SlowRAG)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/rag"
    out = tmp_path / "eval"
    args = [sys.executable, "-m", "dragonforge.cli", "evaluate", str(bench), "--system", url, "--concurrency", "2",
            "--out", str(out), "-q"]
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(prefect_home)
    try:
        first = subprocess.Popen(args, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        store = out / ".dragonforge" / "resume.sqlite"

        def kept_answers() -> set[int]:
            try:
                with sqlite3.connect(f"file:{store}?mode=ro", uri=True) as db:
                    rows = db.execute("SELECT data FROM results WHERE stage = 'answer'").fetchall()
            except sqlite3.Error:
                return set()
            return {json.loads(data)["query_id"] for (data,) in rows}

        deadline = time.monotonic() + 120
        while len(kept_answers()) < 10:
            assert first.poll() is None and time.monotonic() < deadline, "the first run ended before 10 answers"
            time.sleep(0.02)
        first.kill()
        first.wait()
        kept = kept_answers()
        asked_before = len(_SlowRAG.asked)
        queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
        assert not (out / "scores.json").exists() and len(kept) < len(queries)

        second = subprocess.run(args, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
        assert second.returncode == 0, second.stderr[-2000:]
    finally:
        server.shutdown()
        server.server_close()
    asked_again = _SlowRAG.asked[asked_before:]
    by_id = {q["query"]["query_id"]: q["query"]["content"] for q in queries}
    assert sorted(asked_again) == sorted(by_id[i] for i in by_id if i not in kept)
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    assert len(records) == len(queries) and not any(r["error"] for r in records)


@pytest.mark.parametrize("args,message", [
    (["--system", "dense"], "--system dense needs --embedding-model"),
    (["--system", "bm25", "--embedding-model", "e5"], "--embedding-model is used by --system dense and by --judge llm"),
    (["--system", "dense", "--embedding-model", "e5"], "--embedding-model needs --embedding-base-url or --base-url"),
    (["--system", "dense", "--embedding-model", "e5", "--embedding-base-url", "localhost:9"], "is not an http(s) URL"),
    (["--system", "http://127.0.0.1:9/rag"], "--system: cannot reach 127.0.0.1:9"),
    (["--system", "python:no_such_module_here:answer"], "python system"),
    (["--system", "bm25", "--judge", "llm", "--base-url", "http://127.0.0.1:9/v1", "--model", "m"],
     "--base-url: cannot reach 127.0.0.1:9"),
])
def test_bad_evaluation_settings_are_refused_with_one_clear_line(bench, tmp_path, prefect_home, args, message):
    out = tmp_path / "eval"
    proc = _cli(str(bench), *args, "--out", str(out), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1
    assert message in proc.stderr
    assert "Traceback" not in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()  # checked before anything was written


def test_a_spent_llm_budget_stops_evaluate_and_the_rerun_pays_only_for_the_rest(bench, tmp_path, prefect_home):
    from llm_fakes import FakeLLMServer, ok

    def judge_reply(request):
        numbered = [line for line in request.messages[1]["content"].splitlines() if line[:1].isdigit()]
        return ok({"labels": [{"keypoint": i, "label": "Irrelevant"} for i in range(1, len(numbered) + 1)]})

    sub = tmp_path / "bench"
    sub.mkdir()
    lines = (bench / "queries.jsonl").read_text().splitlines()[:4]
    (sub / "queries.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (sub / "documents.jsonl").write_text((bench / "documents.jsonl").read_text(), encoding="utf-8")
    out = tmp_path / "eval"
    with FakeLLMServer(default=judge_reply) as server:
        args = [str(sub), "--system", "bm25", "--judge", "llm", "--base-url", server.base_url, "--model", server.model,
                "--concurrency", "1", "--out", str(out)]
        first = _cli(*args, "--max-calls", "2", cwd=tmp_path, home=prefect_home)
        assert first.returncode == 1
        assert "stopped: --max-calls 2 reached" in first.stderr and "run the command again" in first.stderr
        assert "Traceback" not in first.stderr and not (out / "scores.json").exists()
        asked = server.count
        second = _cli(*args, cwd=tmp_path, home=prefect_home)
        assert second.returncode == 0, second.stderr[-2000:]
    scores = json.loads((out / "scores.json").read_text())
    usage = scores["llm_usage"]
    assert sum(u["cache_hits"] for stage in usage.values() for u in stage.values()) == asked
    assert scores["counts"]["queries"] == 4 and scores["counts"]["judge_failures"] == 0


def test_a_corrupt_benchmark_is_refused_naming_its_line_before_anything_is_written(bench, tmp_path, prefect_home):
    import shutil

    broken = tmp_path / "broken"
    shutil.copytree(bench, broken)
    lines = (broken / "queries.jsonl").read_text().count("\n")
    with (broken / "queries.jsonl").open("a") as fh:
        fh.write('{"query": {"query_id": 99999, "content": "cut short\n')
    out = tmp_path / "eval"
    proc = _cli(str(broken), "--system", "bm25", "--out", str(out), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1
    assert f"queries.jsonl line {lines + 1}: not JSON" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and not out.exists()


def test_the_offline_judge_in_worker_processes_writes_the_same_records_as_one_process(bench, tmp_path):
    from dragonforge.evaluator import evaluate

    config = EvalConfig(system="bm25", top_k=4, benchmark=str(bench))
    evaluate(tmp_path / "one", config, workers=0)
    evaluate(tmp_path / "two", config, workers=2)
    assert (tmp_path / "one" / "predictions.jsonl").read_bytes() == (tmp_path / "two" / "predictions.jsonl").read_bytes()

    def records(d: str) -> list[dict]:  # all but the system's measured latency
        return [{k: v for k, v in json.loads(line).items() if k != "latency_ms"}
                for line in (tmp_path / d / "per_query.jsonl").read_text().splitlines()]

    assert records("one") == records("two")
    one, two = (json.loads((tmp_path / d / "scores.json").read_text()) for d in ("one", "two"))
    for part in ("by_type", "by_language", "by_domain"):
        assert one[part] == two[part] or all(
            {k: v for k, v in one[part][g].items() if "latency" not in k} ==
            {k: v for k, v in two[part][g].items() if "latency" not in k} for g in one[part])


def test_a_predictions_file_scored_in_workers_gives_the_same_files_byte_for_byte(bench, tmp_path):
    """The workers also serialise the per-query and prediction lines: the files are the same."""
    from dragonforge.evaluator import evaluate

    evaluate(tmp_path / "answers", EvalConfig(system="bm25", top_k=4, benchmark=str(bench)), workers=0)
    predictions = tmp_path / "answers" / "predictions.jsonl"
    for compat in ("default", "rageval"):
        config = EvalConfig(system=f"predictions:{predictions}", predictions=str(predictions), compat=compat)
        evaluate(tmp_path / f"one-{compat}", config, workers=0)
        evaluate(tmp_path / f"two-{compat}", config, workers=2)
        for name in ("per_query.jsonl", "per_query.parquet", "predictions.jsonl"):
            assert (tmp_path / f"one-{compat}" / name).read_bytes() == (tmp_path / f"two-{compat}" / name).read_bytes()


def test_judge_none_scores_retrieval_and_text_only_and_says_so(bench, tmp_path):
    from dragonforge.evaluator import evaluate

    lexical = evaluate(tmp_path / "lexical", EvalConfig(system="bm25", top_k=4, benchmark=str(bench)), workers=0)
    for workers in (0, 2):
        none = evaluate(tmp_path / f"none{workers}", EvalConfig(system="bm25", top_k=4, benchmark=str(bench),
                                                                 judge="none"), workers=workers)
        for name in ("recall", "eir", "precision", "mrr", "ndcg_at_k", "rouge_l"):
            assert none["overall"][name] == lexical["overall"][name], name
        for name in ("completeness", "hallucination", "irrelevance", "retrieval_agreement"):
            assert none["overall"][name] is None and lexical["overall"][name] is not None, name
        assert none["methods"]["keypoints"] == "not computed: --judge none"
        assert none["counts"]["judge_failures"] == 0


# --- typed records ---------------------------------------------------------------------------------


def test_evaluate_reads_typed_queries_and_writes_records_that_validate_against_their_models(bench, tmp_path):
    from dragonforge.evaluator import evaluate
    from dragonforge.models import DBQuery, KeypointFact
    from dragonforge.records import ScoresFile

    _, queries = load_benchmark(bench)
    assert all(isinstance(q, DBQuery) for q in queries)
    facts = [f for q in queries for kp in q.ground_truth.keypoint_facts or [] for f in kp]
    assert facts and all(isinstance(f, KeypointFact) for f in facts)  # the judge gets typed facts

    out = tmp_path / "eval"
    returned = evaluate(out, EvalConfig(system="bm25", benchmark=str(bench)), workers=0)
    lines = (out / "per_query.jsonl").read_text().splitlines()
    records = [QueryRecord.model_validate_json(line) for line in lines]
    assert [r.query_id for r in records] == [q.query.query_id for q in queries]
    assert all(r.labels for r in records if r.query_type != QueryType.UNANSWERABLE.value)
    written = json.loads((out / "scores.json").read_text())
    assert ScoresFile.model_validate(written).to_json() == written == returned
    assert written["counts"]["queries"] == len(queries) and "timings" in written and "llm_usage" not in written
    # the predictions file keeps each query as read (its extra keypoint_facts too), prediction filled
    first = json.loads((out / "predictions.jsonl").read_text().splitlines()[0])
    assert first["ground_truth"]["keypoint_facts"] == json.loads(
        (bench / "queries.jsonl").read_text().splitlines()[0])["ground_truth"]["keypoint_facts"]
    assert first["prediction"]["content"] == records[0].answer


def test_a_record_with_an_unknown_field_is_refused_not_silently_kept():
    from pydantic import ValidationError

    with pytest.raises(ValidationError):
        QueryRecord(query_id=1, query_type="Factual Question", language="en", recal=0.5)


def test_a_benchmark_whose_keypoint_facts_are_malformed_is_one_clear_error(bench, tmp_path):
    from dragonforge.errors import InputError

    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "documents.jsonl").write_text((bench / "documents.jsonl").read_text())
    rows = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
    rows[2]["ground_truth"]["keypoint_facts"] = [[{"text": "$5"}]]  # no kind
    (broken / "queries.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    with pytest.raises(InputError, match=r"queries\.jsonl line 3: .*keypoint_facts.*kind"):
        load_benchmark(broken)
