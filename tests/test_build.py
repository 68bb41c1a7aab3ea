"""Building a benchmark end to end: the library's in-process build (what the CLI runs by
default), resumed from its store; the real CLI; and the Prefect flow, which must write the same
bytes. Tests that need the real Prefect engine are in test_prefect.py."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from collections import Counter
from pathlib import Path

import polars as pl
import pytest

from dragonforge.benchmark import check_output_dir
from dragonforge.models import QueryType, BuildParams
from dragonforge.registry import get_pack
from dragonforge.text import language_problem
from dragonforge.validate import validate_benchmark

PARAMS = BuildParams(docs=4, queries_per_doc=8, seed=11)


def build(out: Path, params: BuildParams = PARAMS, workers: int | None = 0):
    from dragonforge.builder import build as run

    check_output_dir(out, params)
    out.mkdir(parents=True, exist_ok=True)
    return run(out, params, workers=workers)


@pytest.fixture(scope="session")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("build") / "bench"
    build(out)
    return out


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def test_default_domains_and_languages_build_a_valid_benchmark(built):
    assert validate_benchmark(built) == []
    docs = records(built / "documents.jsonl")
    assert Counter((d["domain"], d["language"]) for d in docs) == {
        (dom, lang): 4 for dom in ("Finance", "Law", "Medical") for lang in ("en", "zh")}


def test_records_follow_the_dragonball_format_exactly(built):
    for doc in records(built / "documents.jsonl"):
        domain = {"Finance": "finance", "Law": "law", "Medical": "medical"}[doc["domain"]]
        assert set(doc) == {"domain", "language", "doc_id", "content", get_pack(domain).entity_field, "entity"}
    for q in records(built / "queries.jsonl"):
        assert set(q) == {"domain", "language", "query", "ground_truth", "prediction"}
        assert set(q["query"]) == {"query_id", "query_type", "content"}
        assert set(q["ground_truth"]) == {"doc_ids", "content", "references", "keypoints", "keypoint_facts"}
        assert q["prediction"] == {"content": "", "references": []}
        assert q["query"]["query_type"] in {t.value for t in QueryType}


def test_every_reference_is_verbatim_in_a_document_of_its_query(built):
    docs = {d["doc_id"]: d for d in records(built / "documents.jsonl")}
    for q in records(built / "queries.jsonl"):
        gt = q["ground_truth"]
        for ref in gt["references"]:
            assert any(ref in docs[i]["content"] for i in gt["doc_ids"]), ref
        if q["query"]["query_type"] in {t.value for t in QueryType if t.multi_document}:
            assert len(gt["doc_ids"]) == 2
            for doc_id in gt["doc_ids"]:
                assert any(ref in docs[doc_id]["content"] for ref in gt["references"])


def test_unanswerable_questions_refuse_and_cite_nothing(built):
    unanswerable = [q for q in records(built / "queries.jsonl")
                    if q["query"]["query_type"] == QueryType.UNANSWERABLE.value]
    assert unanswerable
    for q in unanswerable:
        refusal = {"en": "Unable to answer", "zh": "无法回答"}[q["language"]]
        assert q["ground_truth"]["content"] == refusal
        assert q["ground_truth"]["references"] == []
        assert q["ground_truth"]["keypoints"] == [refusal]


def test_all_seven_types_appear_for_each_domain_and_language(built):
    seen = Counter((q["domain"], q["language"], q["query"]["query_type"]) for q in records(built / "queries.jsonl"))
    for dom in ("Finance", "Law", "Medical"):
        for lang in ("en", "zh"):
            missing = [t.value for t in QueryType if not seen[(dom, lang, t.value)]]
            assert not missing, f"{dom}/{lang} lacks {missing}"


def test_documents_are_in_their_language_and_long_enough_to_need_retrieval(built):
    for doc in records(built / "documents.jsonl"):
        assert language_problem(doc["content"], doc["language"]) is None
        assert 2000 <= len(doc["content"]) <= 6000, (doc["doc_id"], len(doc["content"]))


def test_keypoints_carry_the_fact_values_they_assert(built):
    for q in records(built / "queries.jsonl"):
        gt = q["ground_truth"]
        assert 1 <= len(gt["keypoints"]) <= 8
        assert len(gt["keypoint_facts"]) == len(gt["keypoints"])
        for text, facts in zip(gt["keypoints"], gt["keypoint_facts"]):
            for fact in facts:
                assert fact["text"] in text


def test_manifest_accounts_for_every_query_and_rejection(built):
    manifest = json.loads((built / "manifest.json").read_text())
    queries = records(built / "queries.jsonl")
    rejected = records(built / "rejected.jsonl")
    assert manifest["queries"] == len(queries)
    assert manifest["rejected"] == len(rejected) == sum(manifest["rejected_by_reason"].values())
    assert all(r["reason"] for r in rejected)
    assert manifest["params"]["seed"] == 11 and manifest["engine"] == "offline"
    assert any(k.startswith("templates/documents/") for k in manifest["template_hashes"])
    assert sum(n for by_lang in manifest["counts"].values() for by_type in by_lang.values()
               for n in by_type.values()) == len(queries)
    assert "| Finance | en | 4 |" in (built / "README.md").read_text()


def test_parquet_tables_match_the_jsonl(built):
    docs = pl.read_parquet(built / "documents.parquet")
    queries = pl.read_parquet(built / "queries.parquet")
    assert docs.height == len(records(built / "documents.jsonl"))
    first = records(built / "queries.jsonl")[0]
    row = queries.filter(pl.col("query_id") == first["query"]["query_id"]).row(0, named=True)
    assert row["question"] == first["query"]["content"] and row["references"] == first["ground_truth"]["references"]


def test_same_seed_is_byte_identical_and_another_seed_differs(built, tmp_path):
    again = tmp_path / "again"
    build(again)
    for name in ("documents.jsonl", "queries.jsonl"):
        assert (again / name).read_bytes() == (built / name).read_bytes()
    other = tmp_path / "other"
    build(other, PARAMS.model_copy(update={"seed": 12}))
    for name in ("documents.jsonl", "queries.jsonl"):
        assert (other / name).read_bytes() != (built / name).read_bytes()


def test_an_interrupted_build_fails_validation_and_a_rerun_finishes_it_from_its_store(built, tmp_path, monkeypatch):
    out = tmp_path / "interrupted"
    shutil.copytree(built, out)
    # What a kill during the write phase leaves: no manifest yet, a file cut short.
    (out / "manifest.json").unlink()
    data = (out / "queries.jsonl").read_bytes()
    (out / "queries.jsonl").write_bytes(data[: len(data) // 2])
    assert validate_benchmark(out)

    from dragonforge import builder

    def must_not_run(*args, **kwargs):
        raise AssertionError("finished work was recomputed instead of read from the resume store")

    monkeypatch.setattr(builder, "documents_work", must_not_run)
    monkeypatch.setattr(builder, "questions_work", must_not_run)
    build(out)
    assert validate_benchmark(out) == []
    for name in ("documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl"):
        assert (out / name).read_bytes() == (built / name).read_bytes(), name


def test_worker_processes_write_the_same_bytes_as_one_process(built, tmp_path):
    out = tmp_path / "pooled"
    build(out, workers=2)
    for name in ("documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl",
                 "documents.parquet", "queries.parquet"):
        assert (out / name).read_bytes() == (built / name).read_bytes(), name


def test_resume_state_is_json_rows_and_a_tampered_row_is_recomputed_not_run(built, tmp_path):
    out = tmp_path / "tampered"
    shutil.copytree(built, out)
    store = out / ".dragonforge" / "resume.sqlite"
    assert not (out / ".dragonforge" / "cache").exists()
    for path in (out / ".dragonforge").rglob("*"):  # no pickle anywhere (protocol 2+ starts with 0x80)
        assert not (path.is_file() and path.read_bytes()[:1] == b"\x80"), path
    with sqlite3.connect(store) as db:
        rows = db.execute("SELECT key, stage, data FROM results").fetchall()
        assert {stage for _, stage, _ in rows} == {"documents", "questions"}
        for _, _, data in rows:
            json.loads(data)
        # A row replaced by something that is not the stage's type: a pickle, or other JSON.
        db.execute("UPDATE results SET data = ? WHERE stage = 'documents'", ("\x80\x04cos\nsystem\n",))
        db.execute("UPDATE results SET data = ? WHERE stage = 'questions'", ('{"result": 1}',))
    (out / "manifest.json").unlink()
    build(out)
    assert validate_benchmark(out) == []
    assert (out / "queries.jsonl").read_bytes() == (built / "queries.jsonl").read_bytes()


def test_a_changed_input_is_not_served_from_the_store(built, tmp_path, monkeypatch):
    """The key holds the content of every input: a changed template gives a new document."""
    out = tmp_path / "changed"
    shutil.copytree(built, out)
    (out / "manifest.json").unlink()
    from dragonforge import fingerprint

    monkeypatch.setattr(fingerprint, "code_fingerprint", lambda: "another version of the code")
    from dragonforge import builder

    calls = Counter()
    real = builder.documents_work

    def counting(*args, **kwargs):
        calls["documents"] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(builder, "documents_work", counting)
    build(out)
    assert calls["documents"] == len(PARAMS.domains) * len(PARAMS.languages)


def test_the_cli_builds_in_process_and_validates(tmp_path):
    """The README's command, end to end: no Prefect, nothing written outside --out."""
    home = tmp_path / "home"
    home.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["HOME"] = str(home)
    out = tmp_path / "output" / "bench"
    cmd = [sys.executable, "-m", "dragonforge.cli"]
    proc = subprocess.run([*cmd, "build", "--out", str(out), "--docs", "2", "--domains", "law",
                           "--languages", "zh", "--queries-per-doc", "5"],
                          capture_output=True, text=True, cwd=tmp_path, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert "Built 2 documents" in proc.stdout and "(in-process)" in proc.stdout
    assert "documents" in proc.stderr  # progress lines
    assert "Traceback" not in proc.stderr and "ERROR" not in proc.stderr
    assert not (tmp_path / ".prefect").exists() and not (home / ".prefect").exists()
    usage = subprocess.run([*cmd, "build", "--help"], capture_output=True, text=True, env=env).stdout
    assert "--prefect" in usage and "in-process unless PREFECT_API_URL" in " ".join(usage.split())
    check = subprocess.run([*cmd, "validate", str(out)], capture_output=True, text=True, timeout=120)
    assert check.returncode == 0 and "valid benchmark" in check.stdout


def test_a_resume_store_that_is_not_a_database_is_replaced_and_the_build_finishes(built, tmp_path):
    out = tmp_path / "damaged"
    shutil.copytree(built, out)
    (out / "manifest.json").unlink()
    for extra in (out / ".dragonforge").glob("resume.sqlite-*"):
        extra.unlink()
    (out / ".dragonforge" / "resume.sqlite").write_bytes(b"not a database, cut short by a full disk")
    build(out)
    assert validate_benchmark(out) == []
    assert (out / "queries.jsonl").read_bytes() == (built / "queries.jsonl").read_bytes()
