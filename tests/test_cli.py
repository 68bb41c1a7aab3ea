"""Bad input: a one-line error naming the problem, a non-zero exit, fast, and nothing touched."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

from dragonforge.cli import parse_question_mix

ROOT = Path(__file__).resolve().parent.parent

CLI = [sys.executable, "-m", "dragonforge.cli"]


def run(*args: str, cwd: Path | None = None) -> tuple[subprocess.CompletedProcess, float]:
    t0 = time.perf_counter()
    proc = subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    return proc, time.perf_counter() - t0


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--domains", "finance,space"], "unknown domain 'space'"),
        (["--languages", "fr"], "unknown language 'fr'"),
        (["--docs", "0"], "--docs must be between 1"),
        (["--docs", "many"], "--docs must be a whole number"),
        (["--seed", "-3"], "seed must not be negative"),
        (["--question-mix", "factual=1,trivia=2"], "unknown question type 'trivia'"),
        (["--question-mix", "factual=0"], "every type weight 0"),
    ],
)
def test_bad_build_arguments_fail_fast_with_one_line(tmp_path, args, message):
    out = tmp_path / "out"
    proc, seconds = run("build", "--out", str(out), *args)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and message in lines[0], proc.stderr
    assert seconds < 3  # well under a second of work; the margin is for a loaded CI machine
    assert not out.exists()


def test_output_directory_holding_another_build_is_refused_and_kept(tmp_path):
    out = tmp_path / "out"
    (out / ".dragonforge").mkdir(parents=True)
    marker = {"params": {"domains": ["law"], "languages": ["en"], "docs": 3, "queries_per_doc": 10, "seed": 5,
                         "question_mix": {"factual": 1.0}, "engine": "offline"}}
    (out / ".dragonforge" / "build.json").write_text(json.dumps(marker))
    (out / "documents.jsonl").write_text("precious\n")
    before = snapshot(out)
    proc, seconds = run("build", "--out", str(out), "--domains", "law", "--languages", "en", "--docs", "3")
    assert proc.returncode == 1
    assert "holds a different build" in proc.stderr and "seed 5 there, 0 here" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert snapshot(out) == before
    assert seconds < 3


def test_output_directory_with_foreign_files_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    proc, _ = run("build", "--out", str(tmp_path))
    assert proc.returncode == 1 and "holds no dragonforge build" in proc.stderr
    assert (tmp_path / "notes.txt").read_text() == "mine"


def test_question_mix_is_normalised_and_types_left_out_get_none():
    mix = parse_question_mix("factual=3, summary=1")
    assert mix["factual"] == 0.75 and mix["summary"] == 0.25 and mix["comparison"] == 0


@pytest.mark.parametrize(
    ("setup", "message"),
    [
        (lambda p: p.write_text("   \n"), "empty"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00bad"), "binary"),
        (lambda p: p.write_bytes("caf\xe9 au lait\n".encode("latin-1")), "not UTF-8"),
        (lambda p: None, "No such file"),
        (lambda p: p.mkdir(), "is a folder"),
        (lambda p: p.write_text("第一节 公司概况\n公司名称：某某科技股份有限公司。\n"), "looks like 'zh'"),
    ],
)
def test_bad_seed_files_are_named_in_the_error(tmp_path, setup, message):
    seed = tmp_path / "seed.txt"
    setup(seed)
    out = tmp_path / "pack"
    proc, seconds = run("induce", str(seed), "--genre", "claims", "--language", "en", "--out", str(out))
    assert proc.returncode == 1
    assert message in proc.stderr and "seed.txt" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert not out.exists()
    assert seconds < 3


def test_induce_will_not_overwrite_an_existing_folder(tmp_path):
    seeds = sorted((ROOT / "seeds" / "insurance_claim" / "en").glob("*.txt"))
    out = tmp_path / "pack"
    out.mkdir()
    (out / "genre.yaml").write_text("my edits\n")
    proc, _ = run("induce", *map(str, seeds), "--genre", "claims", "--language", "en", "--out", str(out))
    assert proc.returncode == 1 and "--force" in proc.stderr
    assert (out / "genre.yaml").read_text() == "my edits\n"


def test_summarize_is_retired_with_a_pointer_to_induce():
    proc, _ = run("summarize", "seed.txt", "--domain", "law")
    assert proc.returncode == 1 and "dragonforge induce" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


def test_validate_rejects_a_directory_without_a_manifest(tmp_path):
    (tmp_path / "documents.jsonl").write_text("{}\n")
    proc, _ = run("validate", str(tmp_path))
    assert proc.returncode == 1 and "unfinished" in proc.stdout


def test_every_command_has_complete_help():
    for command in ("build", "induce", "check-genre", "validate"):
        proc, _ = run(command, "--help")
        assert proc.returncode == 0 and "usage: dragonforge " + command in proc.stdout
    proc, _ = run("--help")
    assert all(c in proc.stdout for c in ("build", "induce", "validate"))


def test_a_second_build_into_a_directory_being_written_is_refused(tmp_path):
    from dragonforge.files import exclusive_lock

    out = tmp_path / "out"
    with exclusive_lock(out, "dragonforge build"):
        proc, seconds = run("build", "--out", str(out), "--docs", "1")
    assert proc.returncode == 1 and "is being written by dragonforge build (pid" in proc.stderr
    assert seconds < 3
