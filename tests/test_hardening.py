"""Probes of issue 9 (hardening), each reproducing a reported failure: code from data, stale
results, damaged state, file modes. Every probe runs the real command where a user would."""

from __future__ import annotations

import json
import os
import pickle
import stat
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args: str, cwd: Path, umask: int | None = None, env: dict | None = None) -> subprocess.CompletedProcess:
    code = "import os,sys;" + (f"os.umask({umask});" if umask is not None else "") + \
        "from dragonforge.cli import main;sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=cwd,
                          env={**os.environ, **(env or {})}, timeout=300)


@pytest.fixture(scope="module")
def small_bench(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("hardening") / "bench"
    proc = _cli("build", "--docs", "2", "--out", str(out), "--quiet", cwd=out.parent)
    assert proc.returncode == 0, proc.stderr
    return out


class _Planted:
    """Unpickling this writes a marker file: proof that something deserialised it."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return (Path.write_text, (self.marker, "unpickled"))


def test_no_file_in_a_build_or_evaluation_directory_is_ever_unpickled(small_bench, tmp_path, prefect_api):
    """Item 1: a pickle planted wherever state lives (the old cache folder, Prefect's result
    folders, the resume store's names) must never run, on either path, build or evaluate."""
    marker = tmp_path / "ran"
    payload = pickle.dumps(_Planted(marker))
    build = tmp_path / "build"
    assert _cli("build", "--docs", "1", "--out", str(build), "--quiet", cwd=tmp_path).returncode == 0
    evaluation = tmp_path / "eval"
    assert _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(evaluation), "--quiet",
                cwd=tmp_path).returncode == 0
    for folder in (build, evaluation):
        for rel in (".dragonforge/cache/documents.pkl", ".dragonforge/cache/0", ".dragonforge/results/x",
                    ".prefect/storage/result", ".dragonforge/answers.pkl"):
            target = folder / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(payload)
    prefect = {"PREFECT_HOME": str(tmp_path / "prefect"), "PREFECT_API_URL": prefect_api}
    for extra in (["--no-prefect"], ["--prefect"]):
        proc = _cli("build", "--docs", "1", "--out", str(build), *extra, cwd=tmp_path, env=prefect)
        assert proc.returncode == 0, proc.stderr
        assert ("Prefect API at" in proc.stdout) == (extra == ["--prefect"]), proc.stdout
        proc = _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(evaluation), "--quiet", *extra,
                    cwd=tmp_path, env=prefect)
        assert proc.returncode == 0, proc.stderr
    assert not marker.exists()


def test_a_prediction_holding_unicode_line_separators_is_read_as_one_record(small_bench, tmp_path):
    """Item 3: U+2028, U+2029 and U+0085 are valid unescaped inside JSON strings; a reader that
    splits lines with str.splitlines() cut such records in two and refused the file."""
    queries = [json.loads(line) for line in (small_bench / "queries.jsonl").read_text().split("\n") if line]
    lines = []
    for i, q in enumerate(queries):
        answer = "First part\u2028second part\u0085third\u2029end." if i % 2 == 0 else "Plain answer."
        lines.append(json.dumps({"query": {"query_id": q["query"]["query_id"]},
                                 "prediction": {"content": answer, "references": ["A chunk\u2028of text."]}},
                                ensure_ascii=False))
    predictions = tmp_path / "predictions.jsonl"
    predictions.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out = tmp_path / "eval"
    proc = _cli("evaluate", "--predictions", str(predictions), "--benchmark", str(small_bench), "--out", str(out),
                "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text(encoding="utf-8").split("\n") if line]
    assert len(records) == len(queries)
    assert records[0]["answer"] == "First part\u2028second part\u0085third\u2029end."


@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640), (0o077, 0o600)])
def test_output_files_follow_the_umask_like_any_unix_tool(small_bench, tmp_path, umask, mode):
    """Item 8: atomic writes went through mkstemp and stayed 0600, so a team could not read a
    benchmark built on a shared server."""
    build = tmp_path / "build"
    proc = _cli("build", "--docs", "1", "--out", str(build), "--quiet", cwd=tmp_path, umask=umask)
    assert proc.returncode == 0, proc.stderr
    evaluation = tmp_path / "eval"
    proc = _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(evaluation), "--quiet", cwd=tmp_path,
                umask=umask)
    assert proc.returncode == 0, proc.stderr
    files = [p for d in (build, evaluation) for p in d.iterdir() if p.is_file()]
    assert any(p.name == "documents.jsonl" for p in files) and any(p.name == "scores.json" for p in files)
    for path in files:
        assert stat.S_IMODE(path.stat().st_mode) == mode, path


def test_a_run_that_did_not_finish_does_not_block_the_corrected_command(small_bench, tmp_path):
    """Item 9: an interrupted or failed run left config.json behind, and the fixed command into
    the same --out was refused as "a different evaluation". Finished scores of another
    evaluation are still protected."""
    import time

    slow = tmp_path / "slow_system.py"
    slow.write_text("import time\n\ndef answer(question, language):\n    time.sleep(0.5)\n"
                    "    return {'answer': 'no idea', 'contexts': []}\n")
    out = tmp_path / "eval"
    code = "import sys;from dragonforge.cli import main;sys.exit(main(sys.argv[1:]))"
    first = subprocess.Popen([sys.executable, "-c", code, "evaluate", str(small_bench), "--system",
                              f"python:{slow}:answer", "--out", str(out), "--quiet"], cwd=tmp_path,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not (out / ".dragonforge" / "config.json").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    first.terminate()
    assert first.wait(timeout=60) == 130, first.stderr.read()
    assert not (out / "scores.json").exists()
    fixed = _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(out), "--quiet", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert json.loads((out / "scores.json").read_text())["config"]["system"] == "bm25"
    scores = (out / "scores.json").read_bytes()
    other = _cli("evaluate", str(small_bench), "--system", "bm25", "--top-k", "2", "--out", str(out), "--quiet",
                 cwd=tmp_path)
    assert other.returncode == 1 and "holds the scores of a different evaluation" in other.stderr
    assert len(other.stderr.strip().splitlines()) == 1 and (out / "scores.json").read_bytes() == scores


def _half_predictions(bench: Path, path: Path) -> int:
    queries = [json.loads(line) for line in (bench / "queries.jsonl").read_text().split("\n") if line]
    kept = queries[::2]
    path.write_text("".join(json.dumps({"query": {"query_id": q["query"]["query_id"]},
                                        "prediction": {"content": q["ground_truth"]["content"],
                                                       "references": q["ground_truth"]["references"]}}) + "\n"
                            for q in kept))
    return len(queries) - len(kept)


def test_a_predictions_file_that_skips_queries_is_scored_on_all_of_them_and_fails(small_bench, tmp_path):
    """Item 10: a file covering half the queries was scored on that half, with no "missing"
    count, so a system could skip the hard questions."""
    predictions = tmp_path / "half.jsonl"
    missing = _half_predictions(small_bench, predictions)
    total = len((small_bench / "queries.jsonl").read_text().splitlines())
    out = tmp_path / "eval"
    proc = _cli("evaluate", "--predictions", str(predictions), "--benchmark", str(small_bench), "--out", str(out),
                "--quiet", cwd=tmp_path)
    assert proc.returncode == 3, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr
    assert f"{missing} of {total} queries failed ({missing} missing from the predictions file)" in proc.stderr
    scores = json.loads((out / "scores.json").read_text())
    assert scores["counts"]["queries"] == total and scores["counts"]["missing_predictions"] == missing
    records = [json.loads(line) for line in (out / "per_query.jsonl").read_text().splitlines()]
    skipped = [r for r in records if r["error"]]
    assert len(skipped) == missing and all(r["recall"] in (0.0, None) for r in skipped)
    accepted = _cli("evaluate", "--predictions", str(predictions), "--benchmark", str(small_bench), "--out",
                    str(tmp_path / "accepted"), "--quiet", "--allow-failures", "1", cwd=tmp_path)
    assert accepted.returncode == 0, accepted.stderr


def test_a_system_that_fails_every_query_is_not_a_result_and_the_fixed_command_takes_over(small_bench, tmp_path):
    """Item 10: an HTTP system answering 500 to every query gave exit 0 and scores; item 9: the
    corrected command into the same --out must then run."""
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Down(BaseHTTPRequestHandler):
        def do_POST(self):
            self.rfile.read(int(self.headers.get("Content-Length", 0)))
            self.send_response(500)
            self.end_headers()
            self.wfile.write(b"internal error")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Down)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        out = tmp_path / "eval"
        url = f"http://127.0.0.1:{server.server_port}/rag"
        proc = _cli("evaluate", str(small_bench), "--system", url, "--out", str(out), "--quiet", cwd=tmp_path)
        assert proc.returncode == 3, proc.stderr
        assert "queries failed" in proc.stderr.strip().splitlines()[-1]
        fixed = _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(out), "--quiet", cwd=tmp_path)
        assert fixed.returncode == 0, fixed.stderr
        assert json.loads((out / "scores.json").read_text())["counts"]["system_errors"] == 0
    finally:
        server.shutdown()


def _copy_bench(src: Path, dst: Path) -> Path:
    import shutil

    shutil.copytree(src, dst)
    return dst


def _refused(proc: subprocess.CompletedProcess, *words: str) -> None:
    assert proc.returncode == 1, proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in proc.stderr, proc.stderr


def test_evaluate_reads_a_benchmark_by_the_rules_validate_checks(small_bench, tmp_path):
    """Item 7: validate accepted a string query_id that evaluate crashed on, and evaluate scored
    a benchmark without a manifest, with a duplicate id or with no documents, without a word."""
    from dragonforge.validate import validate_benchmark

    def evaluate(bench: Path) -> subprocess.CompletedProcess:
        out = tmp_path / f"eval-{bench.name}"
        proc = _cli("evaluate", str(bench), "--system", "bm25", "--out", str(out), "--quiet", cwd=tmp_path)
        assert not out.exists() or proc.returncode == 0
        return proc

    lines = (small_bench / "queries.jsonl").read_text().split("\n")
    stringly = _copy_bench(small_bench, tmp_path / "stringly")
    first = json.loads(lines[0])
    first["query"]["query_id"] = str(first["query"]["query_id"])
    (stringly / "queries.jsonl").write_text("\n".join([json.dumps(first, ensure_ascii=False), *lines[1:]]))
    _refused(evaluate(stringly), "queries.jsonl line 1", "query.query_id")
    import hashlib

    manifest = json.loads((stringly / "manifest.json").read_text())  # as if the build had written it
    for entry in manifest["files"]:
        if entry["path"] == "queries.jsonl":
            entry["sha256"] = hashlib.sha256((stringly / "queries.jsonl").read_bytes()).hexdigest()
            entry["bytes"] = (stringly / "queries.jsonl").stat().st_size
    (stringly / "manifest.json").write_text(json.dumps(manifest))
    assert any("query_id" in p for p in validate_benchmark(stringly))

    duplicate = _copy_bench(small_bench, tmp_path / "duplicate")
    (duplicate / "queries.jsonl").write_text("\n".join([lines[0], *lines]))
    _refused(evaluate(duplicate), "queries.jsonl line 2", "again")

    unfinished = _copy_bench(small_bench, tmp_path / "unfinished")
    (unfinished / "manifest.json").unlink()
    said = evaluate(unfinished)  # scored (a subset put together by hand is a fair use), but not in silence
    assert said.returncode == 0 and "has no manifest.json" in said.stderr, said.stderr

    empty = _copy_bench(small_bench, tmp_path / "empty")
    (empty / "documents.jsonl").write_text("")
    _refused(evaluate(empty), "holds no documents")

    folder = _copy_bench(small_bench, tmp_path / "folder")
    (folder / "queries.jsonl").unlink()
    (folder / "queries.jsonl").mkdir()
    _refused(evaluate(folder), "no queries.jsonl file")


def test_validate_does_not_open_files_the_manifest_names_outside_the_directory(small_bench, tmp_path):
    from dragonforge.validate import validate_benchmark

    bench = _copy_bench(small_bench, tmp_path / "bench")
    secret = tmp_path / "outside.txt"
    secret.write_text("not the benchmark's")
    manifest = json.loads((bench / "manifest.json").read_text())
    manifest["files"].append({"path": "../outside.txt", "sha256": "0" * 64, "bytes": 1, "records": None})
    manifest["files"].append({"path": str(secret), "sha256": "0" * 64, "bytes": 1, "records": None})
    (bench / "manifest.json").write_text(json.dumps(manifest))
    problems = validate_benchmark(bench)
    assert sum("outside the benchmark directory" in p for p in problems) == 2


def test_a_rerun_after_the_benchmark_or_the_system_changed_never_reuses_stale_answers(tmp_path):
    """Item 2: evaluate resumed by the benchmark's path, so a rebuilt benchmark was scored with
    the old answers (recall 0.000 where a fresh --out gave 0.892), and an edited python: system
    was reused the same way."""
    import shutil

    bench, out, fresh = tmp_path / "bench", tmp_path / "eval", tmp_path / "fresh"
    assert _cli("build", "--docs", "1", "--seed", "1", "--out", str(bench), "--quiet", cwd=tmp_path).returncode == 0
    assert _cli("evaluate", str(bench), "--system", "bm25", "--out", str(out), "--quiet", cwd=tmp_path).returncode == 0
    shutil.rmtree(bench)
    assert _cli("build", "--docs", "1", "--seed", "2", "--out", str(bench), "--quiet", cwd=tmp_path).returncode == 0
    again = _cli("evaluate", str(bench), "--system", "bm25", "--out", str(out), "--quiet", cwd=tmp_path)
    assert again.returncode == 0, again.stderr
    assert _cli("evaluate", str(bench), "--system", "bm25", "--out", str(fresh), "--quiet", cwd=tmp_path).returncode == 0

    def answers(d: Path) -> list[tuple]:
        return [(r["query_id"], r["answer"], r["recall"])
                for r in map(json.loads, (d / "per_query.jsonl").read_text().splitlines())]

    assert answers(out) == answers(fresh)

    system = tmp_path / "team_rag.py"
    system.write_text("def answer(question, language):\n    return {'answer': 'first version', 'contexts': []}\n")
    edited = tmp_path / "edited"
    args = ("evaluate", str(bench), "--system", f"python:{system}:answer", "--out", str(edited), "--quiet")
    assert _cli(*args, cwd=tmp_path).returncode == 0
    system.write_text("def answer(question, language):\n    return {'answer': 'second version', 'contexts': []}\n")
    assert _cli(*args, cwd=tmp_path).returncode == 0
    assert {a for _, a, _ in answers(edited)} == {"second version"}
