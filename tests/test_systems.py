"""Systems under test: predictions files, HTTP endpoints, Python functions."""

from __future__ import annotations

import asyncio
import json
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from dragonforge.errors import InputError
from dragonforge.systems import HTTPSystem, PythonSystem, Query, SystemAnswer, load_predictions


def record(qid: int, language: str | None = "en", question: str = "What was the revenue?",
           answer: str = "It was $5 million.", **overrides) -> dict:
    rec = {"domain": "Finance", "language": language,
           "query": {"query_id": qid, "query_type": "Factual Question", "content": question},
           "ground_truth": {"doc_ids": [0], "content": "Revenue was $5 million.",
                            "references": ["Revenue was $5 million."], "keypoints": ["1. Revenue was $5 million."]},
           "prediction": {"content": answer, "references": ["Revenue was $5 million."]}}
    if language is None:
        del rec["language"]
    rec.update(overrides)
    return rec


def write_jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def problems(path: Path, benchmark: dict[int, dict] | None = None) -> str:
    with pytest.raises(InputError) as caught:
        load_predictions(path, benchmark)
    return str(caught.value)


BENCHMARK = {1: record(1, answer=""), 2: record(2, "zh", "收入是多少？", "")}


# --- predictions files ------------------------------------------------------------------------


def test_a_complete_predictions_file_loads_without_a_benchmark(tmp_path):
    rows = [record(1), record(2, None)]
    loaded = load_predictions(write_jsonl(tmp_path / "p.jsonl", rows))
    assert [r["query"]["query_id"] for r in loaded] == [1, 2]
    assert loaded[1]["language"] == "en"  # read from its script, as every record is English


def test_a_json_list_is_accepted_too(tmp_path):
    path = tmp_path / "p.json"
    path.write_text(json.dumps([record(1), record(2)]), encoding="utf-8")
    assert [r["query"]["query_id"] for r in load_predictions(path)] == [1, 2]


def test_with_a_benchmark_ids_and_predictions_suffice_and_ground_truth_comes_from_it(tmp_path):
    rows = [{"query": {"query_id": 2}, "prediction": {"content": "五百万元", "references": ["收入为五百万元。"]}},
            {"query": {"query_id": 1}, "ground_truth": {"content": "forged"},
             "prediction": {"content": "$5 million", "references": []}}]
    loaded = load_predictions(write_jsonl(tmp_path / "p.jsonl", rows), BENCHMARK)
    assert [(r["query"]["query_id"], r["language"], r["prediction"]["content"]) for r in loaded] == [
        (2, "zh", "五百万元"), (1, "en", "$5 million")]
    assert loaded[1]["ground_truth"] == BENCHMARK[1]["ground_truth"]
    assert loaded[0]["query"]["content"] == "收入是多少？"


def test_a_line_that_is_not_json_is_named(tmp_path):
    message = problems(write_jsonl(tmp_path / "p.jsonl", [record(1), '{"query": {"query_id": 2}', record(3)]))
    assert "1 problem(s)" in message
    assert "line 2: not JSON" in message


def test_missing_fields_are_named_with_their_line_and_query(tmp_path):
    no_gt = record(3)
    del no_gt["ground_truth"]
    no_content = record(4)
    del no_content["prediction"]["content"]
    rows = [{"prediction": {"content": "", "references": []}}, {"query": {"content": "?"}}, no_gt, no_content]
    message = problems(write_jsonl(tmp_path / "p.jsonl", rows))
    assert "line 1: missing query\n" in message
    assert "line 2: missing query.query_id" in message
    assert "line 3 (query 3): missing ground_truth (needed without a benchmark)" in message
    assert "line 4 (query 4): missing prediction.content" in message


def test_wrong_types_are_named(tmp_path):
    bad_refs = record(2)
    bad_refs["prediction"]["references"] = "Revenue was $5 million."
    bad_type = record(3)
    bad_type["query"]["query_type"] = "Factoid"
    rows = [record("1"), bad_refs, bad_type, record(4, language="fr"), [1, 2]]
    message = problems(write_jsonl(tmp_path / "p.jsonl", rows))
    assert 'line 1: query.query_id must be an integer, got "1"' in message
    assert "line 2 (query 2): prediction.references must be a list of strings" in message
    assert 'line 3 (query 3): query.query_type "Factoid" is not one of the seven labels' in message
    assert 'line 4 (query 4): language must be one of en, zh, got "fr"' in message
    assert "line 5: expected a JSON object, got list" in message


def test_unknown_and_duplicate_query_ids_are_named(tmp_path):
    pred = {"content": "", "references": []}
    rows = [{"query": {"query_id": 1}, "prediction": pred}, {"query": {"query_id": 99}, "prediction": pred},
            {"query": {"query_id": 1}, "prediction": pred}]
    message = problems(write_jsonl(tmp_path / "p.jsonl", rows), BENCHMARK)
    assert "line 2 (query 99): unknown query id: not in the benchmark" in message
    assert "line 3 (query 1): duplicate query id (first at line 1)" in message


def test_a_language_contradicting_the_benchmark_is_named(tmp_path):
    rows = [{"query": {"query_id": 2}, "language": "en", "prediction": {"content": "", "references": []}}]
    assert "line 1 (query 2): language is 'en' but the benchmark's query is 'zh'" in problems(
        write_jsonl(tmp_path / "p.jsonl", rows), BENCHMARK)


def test_records_without_language_in_a_file_mixing_scripts_name_the_first_such_line(tmp_path):
    rows = [record(1), record(2, None), record(3, None, "收入是多少？", "五百万元")]
    message = problems(write_jsonl(tmp_path / "p.jsonl", rows))
    assert "line 2 (query 2): no 'language' field" in message
    assert "line 3, query 3, reads as 'zh'" in message


def test_every_problem_is_collected_and_twenty_are_listed(tmp_path):
    message = problems(write_jsonl(tmp_path / "p.jsonl", ["nope"] * 25))
    assert "25 problem(s)" in message
    assert "line 20: not JSON" in message and "line 21:" not in message
    assert message.endswith("... and 5 more")


def test_an_empty_predictions_file_is_an_error(tmp_path):
    assert "holds no records" in problems(write_jsonl(tmp_path / "p.jsonl", []))


# --- HTTP systems ---------------------------------------------------------------------------------


class _RAGEndpoint(BaseHTTPRequestHandler):
    """Answers by the question: 'fail' -> 500, 'slow' -> past the timeout, 'garbled' -> not JSON."""

    in_flight = 0
    max_in_flight = 0
    lock = threading.Lock()

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        cls = type(self)
        with cls.lock:
            cls.in_flight += 1
            cls.max_in_flight = max(cls.max_in_flight, cls.in_flight)
        try:
            question = body["query"]
            if question == "slow":
                time.sleep(1.5)
            elif question.startswith("wait"):
                time.sleep(0.1)
            if question == "fail":
                self._send(500, b'{"detail": "index offline"}')
            elif question == "garbled":
                self._send(200, b"<html>oops</html>")
            else:
                reply = {"answer": f"{body['language']}: {question}", "contexts": ["chunk one", "chunk two"],
                         "usage": {"prompt_tokens": 30, "completion_tokens": 4}}
                self._send(200, json.dumps(reply).encode())
        finally:
            with cls.lock:
                cls.in_flight -= 1

    def _send(self, status: int, payload: bytes) -> None:
        try:
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(payload)))
            self.end_headers()
            self.wfile.write(payload)
        except OSError:  # the client gave up (the timed-out query)
            pass

    def log_message(self, *args):
        pass


@pytest.fixture()
def endpoint():
    _RAGEndpoint.in_flight = _RAGEndpoint.max_in_flight = 0
    server = ThreadingHTTPServer(("127.0.0.1", 0), _RAGEndpoint)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/rag"
    server.shutdown()
    server.server_close()


def q(qid: int, question: str, language: str = "en") -> Query:
    return Query(query_id=qid, language=language, domain="Finance", question=question)


async def answer_all(system, queries: list[Query]) -> list[SystemAnswer]:
    return await asyncio.gather(*(system.answer(query) for query in queries))


def test_http_system_records_a_failing_and_a_timed_out_query_and_answers_the_rest(endpoint):
    system = HTTPSystem(endpoint, concurrency=4, timeout_s=0.5)
    queries = [q(1, "revenue?"), q(2, "fail"), q(3, "slow"), q(4, "garbled"), q(5, "收入？", "zh")]
    answers = asyncio.run(answer_all(system, queries))
    ok, failed, slow, garbled, zh = answers
    assert (ok.query_id, ok.answer, ok.contexts, ok.error) == (1, "en: revenue?", ["chunk one", "chunk two"], None)
    assert (ok.prompt_tokens, ok.completion_tokens) == (30, 4)
    assert failed.error == 'HTTP 500: {"detail": "index offline"}'
    assert slow.error == "timeout after 0.5s"
    assert garbled.error.startswith("bad JSON in reply")
    assert zh.answer == "zh: 收入？"
    assert all(a.latency_ms is not None and a.latency_ms > 0 for a in answers)
    assert 450 <= slow.latency_ms < 1400


def test_http_system_keeps_at_most_its_concurrency_in_flight(endpoint):
    system = HTTPSystem(endpoint, concurrency=2)
    answers = asyncio.run(answer_all(system, [q(i, f"wait {i}") for i in range(6)]))
    assert [a.error for a in answers] == [None] * 6
    assert _RAGEndpoint.max_in_flight == 2


def test_an_unreachable_endpoint_fails_fast_on_the_first_query():
    with socket.socket() as sock:  # a port nobody listens on
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    system = HTTPSystem(f"http://127.0.0.1:{port}/rag", timeout_s=5)
    started = time.perf_counter()
    with pytest.raises(InputError, match=f"cannot reach URL: http://127.0.0.1:{port}/rag"):
        asyncio.run(answer_all(system, [q(1, "revenue?"), q(2, "profit?")]))
    assert time.perf_counter() - started < 2


def test_a_url_that_is_not_http_is_refused_at_once():
    with pytest.raises(InputError, match="cannot reach URL: 'localhost:8000/rag' is not an http"):
        HTTPSystem("localhost:8000/rag")


# --- Python systems -------------------------------------------------------------------------------

SYSTEM_MODULE = '''
import asyncio

def sync_rag(question, language):
    if question == "boom":
        raise RuntimeError("index missing")
    return {"answer": question.upper(), "contexts": ["c1"]}

async def async_rag(question, language):
    await asyncio.sleep(0)
    class Reply:
        answer = language + ":" + question
        contexts = ("c1", "c2")
    return Reply()

def bad_shape(question, language):
    return 42
'''


@pytest.fixture()
def module_file(tmp_path, monkeypatch) -> Path:
    path = tmp_path / "my_rag_system.py"
    path.write_text(SYSTEM_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return path


def test_python_system_calls_a_sync_function_by_module_name(module_file):
    answers = asyncio.run(answer_all(PythonSystem("my_rag_system:sync_rag"), [q(1, "revenue?"), q(2, "boom")]))
    assert (answers[0].answer, answers[0].contexts, answers[0].error) == ("REVENUE?", ["c1"], None)
    assert answers[1].error == "RuntimeError: index missing"
    assert answers[0].latency_ms is not None


def test_python_system_awaits_an_async_function_from_a_file_and_reads_attributes(module_file):
    answer = asyncio.run(PythonSystem(f"{module_file}:async_rag").answer(q(7, "收入？", "zh")))
    assert (answer.query_id, answer.answer, answer.contexts) == (7, "zh:收入？", ["c1", "c2"])


def test_python_system_records_a_reply_of_the_wrong_shape(module_file):
    answer = asyncio.run(PythonSystem("my_rag_system:bad_shape").answer(q(1, "x")))
    assert answer.error == "bad reply: expected an object with 'answer' and 'contexts', got int"


@pytest.mark.parametrize("spec,expected", [
    ("no_such_module_xyz:run", "cannot import no_such_module_xyz"),
    ("my_rag_system:missing", "my_rag_system has no attribute 'missing'"),
    ("my_rag_system", "expected 'module:function'"),
    ("nowhere/rag.py:run", "no such file"),
])
def test_python_system_import_problems_name_the_spec(module_file, spec, expected):
    with pytest.raises(InputError) as caught:
        PythonSystem(spec)
    assert f"python system {spec!r}" in str(caught.value)
    assert expected in str(caught.value)
