"""Build benchmark: 3 domains x 2 languages x 100 documents, offline engine, the real command.

Runs, side by side and interleaved, REPEATS times each in a fresh output directory:
(a) `dragonforge build` as users run it (in-process, worker processes for a build this size),
(b) the same command in one process (`--workers 0`), and
(c) the same command on the Prefect path (`--prefect`, an ephemeral server per command).
Checks that (a), (b) and (c) wrote byte-identical benchmark files, records medians of wall time,
documents/s and queries/s, and peak memory (max RSS of the command and its workers). Before them,
one run of (a) with an empty template cache (DRAGONFORGE_CACHE_DIR), as a machine's first build.

Target on a 2-core machine: (a) under 15 s.
Usage: python bench/build_bench.py [--docs 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "build.json"
DATA_FILES = ("documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl",
              "documents.parquet", "queries.parquet")
TARGET_S = 15


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall seconds and peak RSS in MiB of the command and its children (getrusage of the
    children, taken in a fresh `time`-like wrapper so earlier runs do not count)."""
    wrapper = ("import resource,subprocess,sys,time;t=time.perf_counter();"
               "p=subprocess.run(sys.argv[1:]);w=time.perf_counter()-t;"
               "print(w, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss);sys.exit(p.returncode)")
    proc = subprocess.run([sys.executable, "-c", wrapper, *cmd], capture_output=True, text=True, cwd=ROOT, env=env)
    if proc.returncode != 0:
        sys.exit(f"benchmark command failed: {' '.join(cmd)}\n{proc.stderr[-3000:]}")
    wall, rss = proc.stdout.split()[-2:]
    return float(wall), int(rss) / 1024


def digest(out: Path) -> str:
    h = hashlib.sha256()
    for name in DATA_FILES:
        h.update((out / name).read_bytes())
    return h.hexdigest()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    dragonforge = str(Path(sys.executable).with_name("dragonforge"))
    variants = {"in_process": [], "one_process": ["--workers", "0"], "prefect": ["--prefect"]}
    runs: dict[str, list[dict]] = {name: [] for name in variants}
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PREFECT_HOME": str(Path(tmp) / "prefect")}
        # first, (a) with an empty template cache, as a machine's first build runs (not in the medians)
        out = Path(tmp) / "cold"
        cold_s, _ = run([dragonforge, "build", "--out", str(out), "--docs", str(args.docs), "--quiet"],
                        {**env, "DRAGONFORGE_CACHE_DIR": str(Path(tmp) / "empty-cache")})
        shutil.rmtree(out)
        print(f"cold template cache: {cold_s:.1f}s", file=sys.stderr)
        for r in range(args.repeats):
            for name, extra in variants.items():
                out = Path(tmp) / f"{name}{r}"
                wall, rss = run([dragonforge, "build", "--out", str(out), "--docs", str(args.docs), "--seed", str(r),
                                 "--quiet", *extra], env)
                manifest = json.loads((out / "manifest.json").read_text())
                check = subprocess.run([dragonforge, "validate", str(out)], capture_output=True, text=True)
                runs[name].append({"wall_s": round(wall, 3), "peak_rss_mib": round(rss, 1),
                                   "documents": manifest["documents"], "queries": manifest["queries"],
                                   "valid": check.returncode == 0, "digest": digest(out),
                                   "timings": manifest["timings"]})
                shutil.rmtree(out)
                print(f"run {r} {name}: {wall:.1f}s", file=sys.stderr)

    medians = {name: statistics.median(x["wall_s"] for x in rs) for name, rs in runs.items()}
    main_runs = runs["in_process"]
    identical = all(len({runs[name][r]["digest"] for name in variants}) == 1 for r in range(args.repeats))
    result = {
        "benchmark": f"dragonforge build: 3 domains x 2 languages x {args.docs} documents, offline engine",
        "commands": {name: f"dragonforge build --out DIR --docs {args.docs} --seed R --quiet {' '.join(extra)}".strip()
                     for name, extra in variants.items()},
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "repeats": args.repeats,
        "median_wall_s": round(medians["in_process"], 2),
        "first_build_cold_template_cache_s": round(cold_s, 2),
        "median_one_process_wall_s": round(medians["one_process"], 2),
        "median_prefect_wall_s": round(medians["prefect"], 2),
        "prefect_over_in_process": round(medians["prefect"] / medians["in_process"], 2),
        "median_documents_per_s": round(main_runs[0]["documents"] / medians["in_process"], 1),
        "median_queries_per_s": round(statistics.median(x["queries"] for x in main_runs) / medians["in_process"], 1),
        "peak_rss_mib": max(x["peak_rss_mib"] for x in main_runs),
        "target_wall_s": TARGET_S,
        "meets_target": medians["in_process"] < TARGET_S,
        "all_valid": all(x["valid"] for rs in runs.values() for x in rs),
        "identical_across_paths": identical,
        "runs": runs,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))


if __name__ == "__main__":
    main()
