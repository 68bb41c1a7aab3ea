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


def test_no_file_in_a_build_or_evaluation_directory_is_ever_unpickled(small_bench, tmp_path):
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
    for extra in ([], ["--prefect"]):
        proc = _cli("build", "--docs", "1", "--out", str(build), "--quiet", *extra, cwd=tmp_path,
                    env={"PREFECT_HOME": str(tmp_path / "prefect")})
        assert proc.returncode == 0, proc.stderr
        proc = _cli("evaluate", str(small_bench), "--system", "bm25", "--out", str(evaluation), "--quiet", *extra,
                    cwd=tmp_path, env={"PREFECT_HOME": str(tmp_path / "prefect")})
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
