"""`dragonforge calibrate`: a stratified sample of an evaluation's judged keypoints for people to
label, and the judge's agreement with their labels (accuracy, kappa, per-label recall and
precision, keypoint-metric gaps), on a real evaluate run through the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from dragonforge.calibrate import Pair, agreement, cohen_kappa, stratified_sample


def test_kappa_and_gaps_by_hand():
    pairs = [Pair("a", "en", "Relevant", "Relevant"), Pair("a", "en", "Relevant", "Wrong"),
             Pair("b", "zh", "Wrong", "Wrong"), Pair("b", "zh", "Irrelevant", "Irrelevant")]
    # observed 3/4; expected (2*1 + 1*2 + 1*1) / 16 = 5/16
    assert cohen_kappa(pairs) == pytest.approx((0.75 - 5 / 16) / (1 - 5 / 16))
    result = agreement(pairs)
    assert result["accuracy"] == 0.75 and result["labels"]["Wrong"] == {"human": 1, "judge": 2, "recall": 1.0,
                                                                          "precision": 0.5}
    # per answer: human completeness a 1.0, b 0.0 -> 0.5; judge a 0.5, b 0.0 -> 0.25
    assert result["metrics"]["completeness"] == {"human": 0.5, "judge": 0.25, "gap": 0.25}
    assert result["by_language"]["zh"]["accuracy"] == 1.0


def test_the_sample_covers_every_stratum_in_proportion_and_is_reproducible():
    items = [{"query_id": i, "keypoint_index": 0, "query_type": t, "language": lang, "judge": lab}
             for i, (t, lang, lab) in enumerate([("F", "en", "Relevant")] * 60 + [("F", "zh", "Wrong")] * 30 +
                                                [("S", "en", "Irrelevant")] * 9 + [("S", "zh", "Relevant")] * 1)]
    sample = stratified_sample(items, 20, seed=3)
    counts = Counter((it["query_type"], it["language"], it["judge"]) for it in sample)
    assert len(sample) == 20 and len(counts) == 4
    assert counts[("F", "en", "Relevant")] > counts[("F", "zh", "Wrong")] > counts[("S", "en", "Irrelevant")] >= 1
    assert sample == stratified_sample(items, 20, seed=3) != stratified_sample(items, 20, seed=4)


def _cli(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    env["PREFECT_HOME"] = str(home)
    return subprocess.run([sys.executable, "-m", "dragonforge.cli", *args], capture_output=True, text=True,
                          cwd=cwd, env=env, timeout=600)


@pytest.fixture(scope="module")
def eval_dir(tmp_path_factory, prefect_home) -> Path:
    from dragonforge.benchmark import write_benchmark
    from dragonforge.models import BuildParams
    from dragonforge.pipeline import run_build

    root = tmp_path_factory.mktemp("calibrate")
    params = BuildParams(docs=4, queries_per_doc=5, seed=21)
    write_benchmark(root / "bench", params, run_build(params), {})
    proc = _cli("evaluate", str(root / "bench"), "--system", "bm25", "--out", str(root / "eval"), cwd=root,
                home=prefect_home)
    assert proc.returncode == 0, proc.stderr
    return root / "eval"


def test_calibrate_exports_a_sample_and_reports_agreement_with_the_labels(eval_dir, tmp_path, prefect_home):
    sample = tmp_path / "sample.jsonl"
    proc = _cli("calibrate", str(eval_dir), "--sample", "30", "--out", str(sample), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0, proc.stderr
    rows = [json.loads(x) for x in sample.read_text(encoding="utf-8").splitlines()]
    assert len(rows) == 30 and all(r["label"] is None and "judge" not in r for r in rows)
    assert {r["language"] for r in rows} == {"en", "zh"} and all(r["question"] and r["keypoint"] for r in rows)
    # people label: they agree with the judge except on four keypoints, and leave two unlabelled
    judge = {}
    for record in map(json.loads, (eval_dir / "per_query.jsonl").read_text(encoding="utf-8").splitlines()):
        for i, lab in enumerate(record["labels"]):
            judge[(record["query_id"], i)] = lab["label"]
    other = {"Relevant": "Wrong", "Wrong": "Irrelevant", "Irrelevant": "Relevant"}
    for i, row in enumerate(rows):
        truth = judge[(row["query_id"], row["keypoint_index"])]
        row["label"] = None if i >= 28 else other[truth] if i < 4 else truth.lower() if i == 5 else truth
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    report = tmp_path / "report.json"
    proc = _cli("calibrate", str(eval_dir), "--labels", str(labels), "--out", str(report), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 0, proc.stderr
    result = json.loads(report.read_text(encoding="utf-8"))
    assert result["keypoints"] == 28 and result["accuracy"] == pytest.approx(24 / 28, abs=1e-4)
    assert "accuracy 0.857" in proc.stdout and "2 rows without a label skipped" in proc.stdout
    assert set(result["by_language"]) == {"en", "zh"} and "hallucination" in proc.stdout


def test_calibrate_refuses_bad_labels_and_never_overwrites_a_sample(eval_dir, tmp_path, prefect_home):
    sample = tmp_path / "sample.jsonl"
    sample.write_text('{"label": "Relevant"}\n', encoding="utf-8")
    proc = _cli("calibrate", str(eval_dir), "--sample", "5", "--out", str(sample), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1 and "exists" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert sample.read_text(encoding="utf-8") == '{"label": "Relevant"}\n'
    record = json.loads((eval_dir / "per_query.jsonl").read_text(encoding="utf-8").splitlines()[0])
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"query_id": record["query_id"], "keypoint_index": 0, "label": "Maybe"}) + "\n",
                   encoding="utf-8")
    proc = _cli("calibrate", str(eval_dir), "--labels", str(bad), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1 and "'Maybe' is not one of" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    proc = _cli("calibrate", str(tmp_path / "nowhere"), "--sample", "5", cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1 and "is not a folder" in proc.stderr


def test_the_sealed_set_is_large_bilingual_and_the_judge_is_measured_on_it_as_the_readme_says():
    """tests/fixtures/keypoint_sealed.jsonl: labelled before the judge ran on it, never used for
    tuning. The figures are the recorded ones (README, bench/results/judge_sealed.json) and meet the
    issue's targets: accuracy 0.92, recall of Wrong 0.85, completeness and hallucination within 0.02."""
    root = Path(__file__).resolve().parent.parent
    sys.path.insert(0, str(root / "bench"))
    from judge_sealed import judged_pairs, load

    rows, queries = load()
    languages = Counter(r["language"] for r in rows)
    assert len(rows) >= 400 and languages["zh"] * 2 >= len(rows) and len({r["id"] for r in rows}) == len(rows)
    for row in rows:
        assert queries[row["query_id"]]["ground_truth"]["keypoints"][row["keypoint_index"]] == row["keypoint"]
    result = agreement(judged_pairs(rows, queries))
    recorded = json.loads((root / "bench" / "results" / "judge_sealed.json").read_text(encoding="utf-8"))
    assert result["accuracy"] == recorded["with_keypoint_facts"]["accuracy"]
    assert result["accuracy"] >= 0.92 and result["labels"]["Wrong"]["recall"] >= 0.85
    gaps = result["metrics"]
    assert gaps["completeness"]["gap"] <= 0.02 and gaps["hallucination"]["gap"] <= 0.02
    assert result == recorded["with_keypoint_facts"]  # (every figure as recorded, not only these)


def test_the_sample_has_exactly_the_size_asked_whatever_the_strata():
    import random

    rng = random.Random(1)
    for trial in range(200):
        items = [{"query_id": i, "keypoint_index": 0, "query_type": rng.choice("AB"), "language": rng.choice(["en", "zh"]),
                  "judge": rng.choice(["Relevant", "Wrong", "Irrelevant"])} for i in range(rng.randint(1, 60))]
        n = rng.randint(1, len(items))
        sample = stratified_sample(items, n, seed=trial)
        assert len(sample) == n and len({it["query_id"] for it in sample}) == n


def test_labels_files_with_a_bom_are_read_and_duplicates_or_other_encodings_refused(eval_dir, tmp_path, prefect_home):
    record = json.loads((eval_dir / "per_query.jsonl").read_text(encoding="utf-8").splitlines()[0])
    row = {"query_id": record["query_id"], "keypoint_index": 0, "label": record["labels"][0]["label"]}
    bom = tmp_path / "bom.jsonl"
    bom.write_bytes(b"\xef\xbb\xbf" + (json.dumps(row) + "\n").encode())
    proc = _cli("calibrate", str(eval_dir), "--labels", str(bom), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 0 and "accuracy 1.000" in proc.stdout, proc.stderr
    twice = tmp_path / "twice.jsonl"
    twice.write_text((json.dumps(row) + "\n") * 2, encoding="utf-8")
    proc = _cli("calibrate", str(eval_dir), "--labels", str(twice), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1 and "labelled twice" in proc.stderr
    utf16 = tmp_path / "utf16.jsonl"
    utf16.write_text(json.dumps(row) + "\n", encoding="utf-16")
    proc = _cli("calibrate", str(eval_dir), "--labels", str(utf16), cwd=tmp_path, home=prefect_home)
    assert proc.returncode == 1 and "not UTF-8" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    report = tmp_path / "report.json"
    report.write_text("mine", encoding="utf-8")
    proc = _cli("calibrate", str(eval_dir), "--labels", str(bom), "--out", str(report), cwd=tmp_path,
                home=prefect_home)
    assert proc.returncode == 1 and "exists" in proc.stderr and report.read_text(encoding="utf-8") == "mine"
