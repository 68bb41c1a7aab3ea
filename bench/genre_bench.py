"""Genre pack build benchmark: 100 documents of a pack, offline, the real command.

For each shipped pack (packs/insurance_claim, packs/incident_postmortem), REPEATS runs of
`dragonforge build --genre PACK --languages en --docs 100` into fresh directories, checking
that every run wrote the same bytes; records the median wall time and peak memory (max RSS of
the command and its workers), and the same for both languages.

Target on a 2-core machine (issue 10): a 100-document offline build of a pack under 15 s.
Usage: python bench/genre_bench.py [--docs 100] [--repeats 3]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from build_bench import digest, run  # noqa: E402  (the same runner and file digest)

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "genre.json"
PACKS = ("insurance_claim", "incident_postmortem")
TARGET_S = 15


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    exe = str(Path(sys.executable).with_name("dragonforge"))
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")}
    results = {}
    with tempfile.TemporaryDirectory() as tmp:
        for pack in PACKS:
            for languages in ("en", "en,zh"):
                walls, rss, digests = [], [], set()
                for i in range(args.repeats):
                    out = Path(tmp) / f"{pack}-{languages}-{i}"
                    cmd = [exe, "build", "--genre", str(ROOT / "packs" / pack), "--languages", languages,
                           "--docs", str(args.docs), "--out", str(out), "--quiet"]
                    wall, peak = run(cmd, env)
                    walls.append(wall)
                    rss.append(peak)
                    digests.add(digest(out))
                manifest = json.loads((out / "manifest.json").read_text())
                name = f"{pack} ({languages})"
                results[name] = {
                    "command": " ".join(["dragonforge", *cmd[1:-3], "--out", "DIR", "--quiet"]).replace(f"{ROOT}/", ""),
                    "documents": manifest["documents"], "queries": manifest["queries"],
                    "median_wall_s": round(statistics.median(walls), 2), "walls_s": [round(w, 2) for w in walls],
                    "peak_rss_mib": round(max(rss), 1), "identical_across_runs": len(digests) == 1,
                }
                print(name, results[name], file=sys.stderr)
    result = {"date": time.strftime("%Y-%m-%d"), "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "docs_per_language": args.docs, "repeats": args.repeats, "target_s": TARGET_S, "results": results,
              "meets_target": all(r["median_wall_s"] < TARGET_S for r in results.values())}
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
