"""LLM engines against a scripted endpoint: replies that fail their checks never reach the
benchmark; they are replaced by the rules' result (and counted) or rejected with a reason."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from llm_fakes import Action, FakeLLMServer, RecordedRequest, ok

from dragonforge.validate import validate_benchmark


def _schema_name(request: RecordedRequest) -> str:
    fmt = request.response_format or {}
    schema = fmt.get("json_schema", {}).get("schema") or fmt.get("schema") or {}
    return schema.get("title", "")


def careless_model(request: RecordedRequest) -> Action:
    """Well-formed JSON that says the wrong things: invented numbers, unknown keys, English
    for Chinese, answers that drop their facts."""
    replies = {
        "NarrativeReply": {"text": "a story with 12345 invented units"},
        "SectionReply": {"sentences": [{"text": "Revenue was 98765 units in the year.", "facts": ["revenue"]},
                                       {"text": "no terminator here", "facts": []}]},
        "QRAReply": {"question": "What?", "answer": "Something.", "facts": ["no_such_fact"]},
        "ReferencesReply": {"sentences": [100000]},
        "RefineReply": {"answer": "A shorter answer without the facts."},
        "KeypointsReply": {"keypoints": ["Unrelated."]},
    }
    return ok(replies.get(_schema_name(request), {}))


def _build(tmp_path: Path, server: FakeLLMServer, engine: str, language: str,
           prefect_home: Path) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path / engine
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(prefect_home)
    proc = subprocess.run(
        [sys.executable, "-m", "dragonforge.cli", "build", "--engine", engine, "--base-url", server.base_url,
         "--model", server.model, "--domains", "finance", "--languages", language, "--docs", "2",
         "--queries-per-doc", "4", "--out", str(out)],
        capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    return proc, out


def test_replies_that_fail_their_checks_fall_back_or_are_rejected(tmp_path, prefect_home):
    with FakeLLMServer(default=careless_model) as server:
        proc, out = _build(tmp_path, server, "llm", "zh", prefect_home)
        assert proc.returncode == 0, proc.stderr[-2000:]
        assert server.count > 0
    assert validate_benchmark(out) == []
    manifest = json.loads((out / "manifest.json").read_text())
    # Every narrative and every section reply failed its checks and was replaced by the rules.
    assert manifest["fallbacks"]["narrative"] > 0 and manifest["fallbacks"]["section"] > 0
    content = (out / "documents.jsonl").read_text()
    assert "98765" not in content and "12345" not in content
    # Every LLM-written question failed: only the rule-based unanswerable ones remain.
    queries = [json.loads(line) for line in (out / "queries.jsonl").read_text().splitlines()]
    assert all(q["query"]["query_type"] == "Irrelevant Unsolvable Question" for q in queries)
    rejected = [json.loads(line) for line in (out / "rejected.jsonl").read_text().splitlines()]
    assert rejected and all(r["stage"] == "qra" and "no usable fact" in r["reason"] for r in rejected)
    assert manifest["rejected"] == len(rejected)
    assert manifest["llm_usage"]["qra"][server.model]["calls"] > 0


def test_hybrid_keeps_rule_questions_and_falls_back_on_bad_prose(tmp_path, prefect_home):
    with FakeLLMServer(default=careless_model) as server:
        proc, out = _build(tmp_path, server, "hybrid", "en", prefect_home)
        assert proc.returncode == 0, proc.stderr[-2000:]
        stages = {_schema_name(r) for r in server.chat_requests}
    assert stages == {"SectionReply", "RefineReply"}  # hybrid asks the LLM for prose and refinement only
    assert validate_benchmark(out) == []
    manifest = json.loads((out / "manifest.json").read_text())
    assert manifest["fallbacks"]["refine"] > 0
    queries = [json.loads(line) for line in (out / "queries.jsonl").read_text().splitlines()]
    assert len(queries) == 8 and manifest["rejected"] == 0
    for q in queries:
        assert "without the facts" not in q["ground_truth"]["content"]


def test_a_budget_stops_the_build_cleanly_and_a_rerun_finishes_it(tmp_path, prefect_home):
    out = tmp_path / "budget"
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(prefect_home)

    def build(server: FakeLLMServer, *extra: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "dragonforge.cli", "build", "--engine", "hybrid", "--base-url", server.base_url,
             "--model", server.model, "--domains", "law", "--languages", "en", "--docs", "2",
             "--queries-per-doc", "3", "--concurrency", "1", "--out", str(out), *extra],
            capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)

    with FakeLLMServer(default=careless_model) as server:
        stopped = build(server, "--max-calls", "3")
        assert stopped.returncode == 1
        assert "stopped: --max-calls 3 reached" in stopped.stderr and "run the command again" in stopped.stderr
        assert server.count == 3
    assert validate_benchmark(out)  # not a finished benchmark, and it says so
    with FakeLLMServer(default=careless_model) as server:
        finished = build(server)
        assert finished.returncode == 0, finished.stderr[-2000:]
        seen_before = 3
        calls = [json.loads(line) for line in (out / "calls.jsonl").read_text().splitlines()]
        assert sum(c["outcome"] == "cache_hit" for c in calls) == seen_before
        assert server.count == sum(c["outcome"] == "ok" for c in calls)
    assert validate_benchmark(out) == []


def test_induce_with_the_llm_engine_keeps_the_grounded_part_of_the_models_proposal(tmp_path):
    """The reply is scripted (the real model: tests/test_induce.py): one slot a seed writes, one
    it does not, one of no kind, one constraint that fails on a seed."""
    seeds = sorted((Path(__file__).resolve().parent.parent / "seeds" / "insurance_claim" / "en").glob("*.txt"))
    reply = {"slots": [
        {"name": "police_reference", "kind": "code", "labels": ["Police crime reference"], "seed_value": "SB/24/33871"},
        {"name": "vehicle", "kind": "text", "labels": ["Vehicle"], "seed_value": "a blue tractor"},
        {"name": "mood", "kind": "feeling", "labels": ["Mood"], "seed_value": "calm"}],
        "constraints": ["adjuster > 3"]}
    out = tmp_path / "pack"
    with FakeLLMServer(default=ok(reply)) as server:
        proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "induce", *map(str, seeds), "--genre",
                               "insurance_claim", "--language", "en", "--out", str(out), "--engine", "llm",
                               "--base-url", server.base_url, "--model", server.model],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        assert server.count == 1 and "Policy No.: CP-HB-7781046" in server.chat_requests[0].messages[-1]["content"]
    import yaml

    genre = yaml.safe_load((out / "genre.yaml").read_text())
    assert "police_reference" in genre["slots"] and "vehicle" not in genre["slots"] and "mood" not in genre["slots"]
    report = (out / "induction-report.md").read_text()
    assert "'slot: its seed value is in no seed': 1" in report and "'slot: unknown kind': 1" in report
    assert "'constraint: cannot be evaluated on the seeds': 1" in report
    llm_line = next(line for line in proc.stderr.splitlines() if line.startswith("llm:"))
    assert "rejected 3" in llm_line, llm_line
