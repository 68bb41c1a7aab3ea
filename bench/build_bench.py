"""Build benchmark: 3 domains x 2 languages x 100 documents, offline engine.

Runs, side by side and interleaved, (a) the real command `dragonforge build` (Prefect flow,
ephemeral server) and (b) the same library pipeline without Prefect, each in a fresh output
directory, REPEATS times. Records medians of wall time, documents/s, queries/s, peak memory
(max RSS of the process) and the share of wall time that is Prefect overhead,
(median flow wall − median plain wall) / median flow wall.

Target on a 2-core machine: the whole build in under 60 s.
Usage: python bench/build_bench.py [--docs 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
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

PLAIN = """
import json, sys, time
from pathlib import Path
from dragonforge.benchmark import write_benchmark
from dragonforge.models import BuildParams
from dragonforge.pipeline import run_build
t0 = time.perf_counter()
params = BuildParams(docs=int(sys.argv[2]), seed=int(sys.argv[3]))
out = Path(sys.argv[1]); out.mkdir(parents=True, exist_ok=True)
manifest = write_benchmark(out, params, run_build(params), {})
print(json.dumps({"documents": manifest.documents, "queries": manifest.queries}))
"""


def _run(cmd: list[str]) -> tuple[float, float, str]:
    """Wall seconds, peak RSS in MiB of the child, stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"benchmark command failed: {' '.join(cmd)}\n{proc.stderr}")
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    # ru_maxrss of children is the max over all children so far; record it as an upper bound.
    return wall, max(peak, before) / 1024, proc.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    dragonforge = str(Path(sys.executable).with_name("dragonforge"))
    flow_runs, plain_runs = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.repeats):
            out = Path(tmp) / f"flow{r}"
            wall, rss, _ = _run([dragonforge, "build", "--out", str(out), "--docs", str(args.docs), "--seed", str(r),
                                 "--quiet"])
            manifest = json.loads((out / "manifest.json").read_text())
            check = subprocess.run([dragonforge, "validate", str(out)], capture_output=True, text=True)
            flow_runs.append({"wall_s": wall, "peak_rss_mib": rss, "documents": manifest["documents"],
                              "queries": manifest["queries"], "valid": check.returncode == 0,
                              "timings": manifest["timings"]})
            shutil.rmtree(out)
            out = Path(tmp) / f"plain{r}"
            wall, _, stdout = _run([sys.executable, "-c", PLAIN, str(out), str(args.docs), str(r)])
            plain_runs.append({"wall_s": wall, **json.loads(stdout)})
            shutil.rmtree(out)
            print(f"run {r}: flow {flow_runs[-1]['wall_s']:.1f}s, plain {wall:.1f}s", file=sys.stderr)

    flow_wall = statistics.median(x["wall_s"] for x in flow_runs)
    plain_wall = statistics.median(x["wall_s"] for x in plain_runs)
    docs = flow_runs[0]["documents"]
    queries = statistics.median(x["queries"] for x in flow_runs)
    result = {
        "benchmark": "build: 3 domains x 2 languages x %d documents, offline engine" % args.docs,
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "repeats": args.repeats,
        "median_wall_s": round(flow_wall, 2),
        "median_documents_per_s": round(docs / flow_wall, 1),
        "median_queries_per_s": round(queries / flow_wall, 1),
        "peak_rss_mib": round(max(x["peak_rss_mib"] for x in flow_runs), 1),
        "median_plain_wall_s": round(plain_wall, 2),
        "prefect_overhead_share": round((flow_wall - plain_wall) / flow_wall, 3),
        "target_wall_s": 60,
        "meets_target": flow_wall < 60,
        "all_valid": all(x["valid"] for x in flow_runs),
        "flow_runs": flow_runs,
        "plain_runs": plain_runs,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k not in ("flow_runs", "plain_runs")}, indent=2))


if __name__ == "__main__":
    main()
