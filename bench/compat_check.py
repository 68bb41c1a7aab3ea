"""Head-to-head check of `dragonforge evaluate --compat rageval` against the RAGEval reference
implementation's own scripts (recall, EIR, precision, ROUGE-L; keypoint_metrics needs OpenAI).

For each predictions file (DRAGONBall format), and for a copy of it whose retrieved lists also
hold the query's gold references (so precision and recall are compared away from 0), it runs:
- theirs: run_evaluation.sh in a scratch copy of --reference (its rageval/evaluation folder), the
  script's parameter lines set to this file, LANGUAGE "auto" and the four metrics, and `python`
  being --python; per query from result/intermediate_result/, means from final_result.json;
- ours: `dragonforge evaluate --predictions FILE --compat rageval`, and again with --benchmark when
  the benchmark holds every query of the file; per query from per_query.jsonl, means from scores.json.
It writes bench/results/compat.json: per metric both means, the largest per-query difference and
how many queries were compared and differ, and which `rouge` each side imports (rouge-chinese
ships a copy of that package which, installed last, changes English ROUGE-L).
Usage: python bench/compat_check.py --reference DIR --python PY [--benchmark DIR] PREDICTIONS...
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "compat.json"
METRICS = {"recall": "Recall", "eir": "EIR", "precision": "Precision", "rouge_l": "ROUGELScore"}  # ours: theirs
TOLERANCE = 1e-9


def with_gold_mixed_in(records: list[dict]) -> list[dict]:
    """Each query's retrieved list led by its gold references: two whole, one behind a metadata
    prefix, an empty chunk every third query, then what the system retrieved."""
    out = []
    for i, rec in enumerate(records):
        refs, chunks = rec["ground_truth"].get("references") or [], rec["prediction"].get("references") or []
        prefix = "（元数据） " if rec.get("language") == "zh" else "(metadata) "
        mixed = refs[:2] + chunks[:1] + [prefix + r for r in refs[2:3]] + ([""] if i % 3 == 0 else []) + chunks[1:]
        out.append({**rec, "prediction": {**rec["prediction"], "references": mixed}})
    return out


def run_theirs(reference: Path, python: Path, predictions: Path, work: Path) -> tuple[dict, dict]:
    run = work / "reference"
    shutil.copytree(reference, run)
    for stale in ("data", "result"):
        shutil.rmtree(run / stale, ignore_errors=True)
    (run / "result" / "intermediate_result").mkdir(parents=True)
    (run / "data").mkdir()
    shutil.copy(predictions, run / "data" / predictions.name)
    script = (run / "run_evaluation.sh").read_text()
    script = re.sub(r"(?m)^INPUT_FILES=.*$", f'INPUT_FILES=("{predictions.name}")', script)
    script = re.sub(r"(?m)^LANGUAGE=.*$", 'LANGUAGE="auto"', script)
    script = re.sub(r"(?m)^METRICS=.*$", 'METRICS=("rouge-l" "precision" "recall" "eir")', script)
    (run / "run_evaluation.sh").write_text(script)
    shim = work / "bin"  # run_evaluation.sh calls `python`: make that --python (a symlink would lose its venv)
    shim.mkdir()
    (shim / "python").write_text(f'#!/bin/sh\nexec "{python}" "$@"\n')
    (shim / "python").chmod(0o755)
    env = {"PATH": f"{shim}:/usr/bin:/bin", "HOME": str(work)}
    # Their script retries a failed metric every 3 minutes forever: fail early on imports, and time out.
    probe = subprocess.run([shim / "python", "-c", "import metrics, tqdm"], cwd=run, env=env, capture_output=True,
                           text=True)
    if probe.returncode != 0:
        sys.exit(f"--python cannot run the reference's code:\n{probe.stderr}")
    proc = subprocess.run(["bash", "run_evaluation.sh"], cwd=run, env=env, capture_output=True, text=True,
                          timeout=900)
    if proc.returncode != 0 or not (run / "result" / "final_result.json").exists():
        sys.exit(f"the reference run failed:\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    per_query: dict[int, dict] = {}
    for path in (run / "result" / "intermediate_result").glob("*.jsonl"):
        for line in path.read_text(encoding="utf-8").splitlines():
            item = json.loads(line)
            row = per_query.setdefault(item["query"]["query_id"], {})
            row.update({k: item[k] for k in METRICS.values() if k in item})
    means = {}
    for values in json.loads((run / "result" / "final_result.json").read_text()).values():
        means.update(values)
    return per_query, means


def run_ours(predictions: Path, benchmark: Path | None, out: Path) -> tuple[dict, dict]:
    cmd = [str(Path(sys.executable).with_name("dragonforge")), "evaluate", "--predictions", str(predictions),
           "--compat", "rageval", "--out", str(out), "--quiet"]
    if benchmark:
        cmd += ["--benchmark", str(benchmark)]
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    if proc.returncode != 0:
        sys.exit(f"dragonforge evaluate failed:\n{proc.stderr}")
    rows = [json.loads(line) for line in (out / "per_query.jsonl").read_text(encoding="utf-8").splitlines()]
    return {r["query_id"]: r for r in rows}, json.loads((out / "scores.json").read_text())["overall"]


def compare(ours: tuple[dict, dict], theirs: tuple[dict, dict]) -> dict:
    (our_rows, our_means), (their_rows, their_means) = ours, theirs
    report = {}
    for name, their_name in METRICS.items():
        pairs = [(our_rows[q][name], their_rows[q][their_name]) for q in their_rows if q in our_rows]
        diffs = [abs(a - b) for a, b in pairs if a is not None]
        report[name] = {
            "ours_mean": our_means.get(name),
            "theirs_mean": their_means.get(their_name),
            "max_abs_diff": max(diffs, default=None),
            "queries_compared": len(pairs),
            "queries_differing": sum(d > TOLERANCE for d in diffs) + sum(a is None for a, _ in pairs),
            "ours_none_theirs_scored": sum(a is None for a, _ in pairs),
        }
    return report


def rouge_package(python: str) -> str:
    """`rouge.rouge` is the real package; `rouge_chinese.rouge` is rouge-chinese's copy of it."""
    code = "import warnings; warnings.simplefilter('ignore'); import rouge; print(rouge.Rouge.__module__)"
    return subprocess.run([python, "-c", code], capture_output=True, text=True).stdout.strip()


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reference", type=Path, required=True, help="the reference's rageval/evaluation folder")
    parser.add_argument("--python", type=Path, required=True, help="the interpreter of the reference's environment")
    parser.add_argument("--reference-commit", default="", help="where --reference came from (default: its git HEAD)")
    parser.add_argument("--benchmark", type=Path, help="also score ours with this benchmark, where it fits")
    parser.add_argument("predictions", type=Path, nargs="+")
    args = parser.parse_args()
    commit = args.reference_commit or subprocess.run(["git", "-C", str(args.reference), "rev-parse", "HEAD"],
                                                     capture_output=True, text=True).stdout.strip() or "unknown"
    bench_ids = set()
    if args.benchmark:
        bench_ids = {json.loads(line)["query"]["query_id"]
                     for line in (args.benchmark / "queries.jsonl").read_text(encoding="utf-8").splitlines()}

    inputs = []
    with tempfile.TemporaryDirectory() as tmp:
        for n, given in enumerate(args.predictions):
            records = [json.loads(line) for line in given.read_text(encoding="utf-8").splitlines() if line.strip()]
            for variant, rows in (("as given", records), ("gold references mixed in", with_gold_mixed_in(records))):
                work = Path(tmp) / f"{n}-{len(inputs)}"
                work.mkdir()
                file = work / given.name
                file.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
                theirs = run_theirs(args.reference, args.python, file, work)
                ours_modes = {"predictions only": None}
                if args.benchmark and {r["query"]["query_id"] for r in rows} <= bench_ids:
                    ours_modes["with --benchmark"] = args.benchmark
                entry = {"file": str(given), "sha256": hashlib.sha256(given.read_bytes()).hexdigest(),
                         "variant": variant, "queries": len(rows), "ours": {}}
                for mode, benchmark in ours_modes.items():
                    ours = run_ours(file, benchmark, work / mode.replace(" ", "-"))
                    entry["ours"][mode] = compare(ours, theirs)
                inputs.append(entry)
                means = entry["ours"]["predictions only"]
                summary = ", ".join(f"{k} {v['ours_mean']} vs {v['theirs_mean']}" for k, v in means.items())
                print(f"{given.name} ({variant}), ours vs theirs: {summary}", file=sys.stderr)

    result = {
        "check": "dragonforge evaluate --compat rageval vs the RAGEval reference implementation's scripts",
        "date": time.strftime("%Y-%m-%d"),
        "reference": {"path": str(args.reference), "commit": commit, "python": str(args.python),
                      "rouge_package": rouge_package(str(args.python))},
        "dragonforge": {"commit": git("rev-parse", "HEAD"),
                        "uncommitted_changes": git("status", "--porcelain", "dragonforge").splitlines(),
                        "rouge_package": rouge_package(sys.executable)},
        "tolerance": TOLERANCE,
        "inputs": inputs,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(result, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
