"""An LLM build for real: the CLI against the local llama.cpp server running SmolLM2-135M.

A 135M model writes poor text; what is checked is that the pipeline still emits only valid
records, accounts for every rejected one, resumes after a kill without repeating a call, and
replays a finished build from its cache without calling the server at all.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dragonforge.validate import validate_benchmark

pytestmark = pytest.mark.llm
SECRET = "sk-test-DoNotLeak-1234567890abcdefXYZ"


def _cmd(out: Path, base_url: str, model: str, *extra: str) -> list[str]:
    return [sys.executable, "-m", "dragonforge.cli", "build", "--engine", "llm", "--base-url", base_url,
            "--model", model, "--docs", "1", "--domains", "law", "--languages", "en", "--queries-per-doc", "2",
            "--max-tokens", "128", "--concurrency", "2",
            "--out", str(out), *extra]


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["OPENAI_API_KEY"] = SECRET
    env["PREFECT_HOME"] = str(tmp_path / "prefect")
    return env


def _calls(out: Path) -> list[dict]:
    path = out / ".dragonforge" / "calls-run.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_llm_build_resumes_after_a_kill_and_replays_from_cache(llama_server, tmp_path):
    out = tmp_path / "llm"
    env = _env(tmp_path)

    # 1. Start a build and kill it once some replies are in.
    first = subprocess.Popen(_cmd(out, llama_server.base_url, llama_server.model), env=env, cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    deadline = time.monotonic() + 400
    while time.monotonic() < deadline and first.poll() is None:
        if sum(c["outcome"] == "ok" for c in _calls(out)) >= 4:
            break
        time.sleep(0.5)
    assert first.poll() is None, first.stdout.read().decode()
    os.killpg(first.pid, signal.SIGKILL)
    first.wait()
    answered = {c["prompt_hash"] for c in _calls(out) if c["outcome"] == "ok"}
    assert len(answered) >= 4
    assert validate_benchmark(out)  # killed midway: not a valid benchmark

    # 2. The same command finishes the build without asking again what was answered.
    done = subprocess.run(_cmd(out, llama_server.base_url, llama_server.model), env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=1500)
    assert done.returncode == 0, done.stderr[-3000:]
    second = _calls(out)
    assert not any(c["outcome"] == "ok" and c["prompt_hash"] in answered for c in second)
    assert answered <= {c["prompt_hash"] for c in second if c["outcome"] == "cache_hit"}
    assert validate_benchmark(out) == []

    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["engine"] == "llm" and manifest["llm"]["model"] == llama_server.model
    stages = manifest["llm_usage"]
    assert {"section", "qra"} <= set(stages)
    for by_model in stages.values():
        for usage in by_model.values():
            assert {"calls", "cache_hits", "prompt_tokens", "completion_tokens", "cost"} <= set(usage)
    assert sum(u["prompt_tokens"] for m in stages.values() for u in m.values()) > 0
    rejected = [json.loads(line) for line in (out / "rejected.jsonl").read_text().splitlines()]
    assert manifest["rejected"] == len(rejected) and all(r["reason"] for r in rejected)
    documents = [json.loads(line) for line in (out / "documents.jsonl").read_text().splitlines()]
    assert {d["domain"] for d in documents} == {"Law"}
    queries = [json.loads(line) for line in (out / "queries.jsonl").read_text().splitlines()]
    for q in queries:
        for ref in q["ground_truth"]["references"]:
            assert any(ref in d["content"] for d in documents if d["doc_id"] in q["ground_truth"]["doc_ids"])
    snapshot = {name: (out / name).read_bytes() for name in ("documents.jsonl", "queries.jsonl")}

    # 3. Again, against an endpoint that does not exist: it can only succeed with zero calls.
    replay = subprocess.run(_cmd(out, "http://127.0.0.1:9/v1", llama_server.model, "--max-retries", "0"), env=env,
                            cwd=tmp_path, capture_output=True, text=True, timeout=600)
    assert replay.returncode == 0, replay.stderr[-3000:]
    assert _calls(out) and all(c["outcome"] == "cache_hit" for c in _calls(out))
    assert {name: (out / name).read_bytes() for name in snapshot} == snapshot

    # The key is in no file of the build, the cache included, and in no output.
    for path in out.rglob("*"):
        if path.is_file():
            assert SECRET.encode() not in path.read_bytes(), path
    for text in (done.stdout, done.stderr, replay.stdout, replay.stderr):
        assert SECRET not in text


def test_dense_retrieval_llm_generator_llm_judge_and_ragas_metrics_run_against_the_local_model(
        llama_server, llama_embeddings_server, tmp_path, prefect_home):
    """The whole LLM evaluation path on real servers: dense retrieval over the embeddings
    endpoint, the LLM generator (also answering from the gold chunks), the LLM keypoint judge,
    Ragas faithfulness / context precision / answer relevancy and the LLM-retEval agreement.
    A 135M model's labels are noise: what is checked is the plumbing, and that every keypoint
    and every metric that applies gets a valid value or a recorded failure."""
    from dragonforge.benchmark import write_benchmark
    from dragonforge.models import BuildParams
    from dragonforge.pipeline import run_build

    bench = tmp_path / "bench"
    bench.mkdir()
    # two queries (a multi-document one and a factual one) keep every call path and a 135M
    # model's run short: each query costs about a dozen calls of ~1,000 prompt tokens
    params = BuildParams(domains=["law"], languages=["en"], docs=2, queries_per_doc=1, seed=4)
    write_benchmark(bench, params, run_build(params), {})
    out = tmp_path / "eval"
    env = _env(tmp_path)
    env["PREFECT_HOME"] = str(prefect_home)
    proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "evaluate", str(bench), "--system", "dense",
                           "--embedding-model", llama_embeddings_server.model,
                           "--embedding-base-url", llama_embeddings_server.base_url,
                           "--top-k", "2", "--generator", "llm", "--judge", "llm", "--base-url", llama_server.base_url,
                           "--model", llama_server.model, "--max-tokens", "128", "--out", str(out),
                           "--allow-failures", "1"],  # a 135M model's answers may fail: counted, not fatal here
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    scores = json.loads((out / "scores.json").read_text())
    assert scores["config"]["system"] == "dense" and scores["config"]["embedding_model"] == llama_embeddings_server.model
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().splitlines()]
    predictions = [json.loads(line) for line in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(records) == len(queries) == len(predictions)
    assert all(len(p["prediction"]["references"]) == 2 for p in predictions)  # top-k 2 from the dense index
    failures = 0
    for record, query in zip(records, queries):
        assert len(record["labels"]) == len(query["ground_truth"]["keypoints"])
        for label in record["labels"]:
            if label is None:
                failures += 1
            else:
                assert label["label"] in {"Relevant", "Irrelevant", "Wrong"}
        assert record["judge_failures"] == sum(label is None for label in record["labels"])
        failed = {reason.split(":")[0] for reason in record["llm_failures"]}
        unanswerable = query["query"]["query_type"] == "Irrelevant Unsolvable Question"
        if not unanswerable and not record["error"]:
            # answer relevancy applies to every answerable question; it has a value or a failure
            assert (record["answer_relevancy"] is not None) != ("answer_relevancy" in failed), record
            if record["answer_relevancy"] is not None:
                assert -1.0 <= record["answer_relevancy"] <= 1.0
        for name in ("faithfulness", "context_precision", "retrieval_agreement"):
            if name in failed:
                assert record[name] is None, (name, record)
            elif record[name] is not None:
                assert 0.0 <= record[name] <= 1.0
    assert scores["counts"]["judge_failures"] == failures
    assert scores["counts"]["llm_metric_failures"] == sum(len(r["llm_failures"]) for r in records)
    assert {"judge", "rag_answer"} <= set(scores["llm_usage"])
    assert SECRET not in (out / "per_query.jsonl").read_text()


def test_an_llm_build_of_a_genre_pack_completes_validates_and_accounts_for_every_rejection(llama_server, tmp_path):
    """--engine llm on a genre pack: the model fills narrative slots, writes the prose sections
    and drafts the questions; the form's lines (fields, records) stay as the rules wrote them."""
    out = tmp_path / "pack"
    pack = Path(__file__).resolve().parent.parent / "packs" / "insurance_claim"
    proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "build", "--genre", str(pack), "--engine", "llm",
                           "--base-url", llama_server.base_url, "--model", llama_server.model, "--docs", "2",
                           "--languages", "en", "--queries-per-doc", "1", "--max-tokens", "128", "--concurrency", "2",
                           "--out", str(out)], env=_env(tmp_path), cwd=tmp_path, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert validate_benchmark(out) == []
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["engine"] == "llm" and manifest["domains"]["insurance_claim"]["label"] == "Insurance"
    assert sum(u["calls"] for by_model in manifest["llm_usage"].values() for u in by_model.values()) > 0
    rejected = [json.loads(line) for line in (out / "rejected.jsonl").read_text().splitlines()]
    assert manifest["rejected"] == len(rejected) and all(r["reason"] for r in rejected)
    assert set(manifest["fallbacks"]) <= {"narrative", "section", "refine", "references"}
    documents = [json.loads(line) for line in (out / "documents.jsonl").read_text().splitlines()]
    for doc in documents:
        assert doc["domain"] == "Insurance" and doc["policyholder_name"] == doc["entity"]
        # the claim details are the rules' labelled lines, one per line, whatever the model wrote
        assert re.search(r"^(?:Claim number|Claim No\.|Claim reference): CLM-\d{4}-\d{6}$", doc["content"], re.M)
