"""The offline keypoint judge on the sealed set (``tests/fixtures/keypoint_sealed.jsonl``: 734
judgements written and labelled by hand before the judge ran on them; never used for tuning):
accuracy, Cohen's kappa, per-label recall and precision, and the gap between the judge's and the
labels' completeness, hallucination and irrelevance. Each answer is judged with all of its
query's keypoints and their ``keypoint_facts`` (as evaluate does), and once more with the
keypoints as plain strings.

    .venv/bin/python bench/judge_sealed.py [--out bench/results/judge_sealed.json]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dragonforge.calibrate import Pair, agreement  # noqa: E402
from dragonforge.judge import judge_keypoints  # noqa: E402

FIXTURES = ROOT / "tests" / "fixtures"
UNANSWERABLE = "Irrelevant Unsolvable Question"


def load() -> tuple[list[dict], dict[int, dict]]:
    rows = [json.loads(x) for x in (FIXTURES / "keypoint_sealed.jsonl").read_text(encoding="utf-8").splitlines() if x]
    queries = [json.loads(x) for x in (FIXTURES / "keypoint_sealed_queries.jsonl").read_text(encoding="utf-8")
               .splitlines() if x]
    return rows, {q["query"]["query_id"]: q for q in queries}


def judged_pairs(rows: list[dict], queries: dict[int, dict], with_facts: bool = True) -> list[Pair]:
    answers: dict[tuple[int, str], list[dict]] = defaultdict(list)
    for row in rows:
        answers[(row["query_id"], row["answer"])].append(row)
    pairs = []
    for (qid, answer), group in answers.items():
        q = queries[qid]
        gt = q["ground_truth"]
        labels = judge_keypoints(answer, gt["keypoints"], q["language"],
                                 keypoint_facts=gt.get("keypoint_facts") if with_facts else None,
                                 unanswerable=q["query"]["query_type"] == UNANSWERABLE,
                                 question=q["query"]["content"])  # as evaluate calls it
        unit = f"{qid}:{group[0]['id']}"
        for row in group:
            pairs.append(Pair(unit, row["language"], row["label"], labels[row["keypoint_index"]].label))
    return pairs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows, queries = load()
    t0 = time.perf_counter()
    result = {"set": "tests/fixtures/keypoint_sealed.jsonl", "judge": "lexical",
              "with_keypoint_facts": agreement(judged_pairs(rows, queries, True)),
              "plain_keypoints": agreement(judged_pairs(rows, queries, False))}
    result["seconds"] = round(time.perf_counter() - t0, 2)
    for mode in ("with_keypoint_facts", "plain_keypoints"):
        r = result[mode]
        gaps = ", ".join(f"{m} {v['judge']:.3f} vs {v['human']:.3f}" for m, v in r["metrics"].items())
        print(f"{mode:20} accuracy {r['accuracy']:.3f}  kappa {r['kappa']:.3f}  Wrong recall "
              f"{r['labels']['Wrong']['recall']:.3f}  ({gaps})")
        for lang, s in r["by_language"].items():
            print(f"{'':20} {lang}: accuracy {s['accuracy']:.3f}  Wrong recall {s['labels']['Wrong']['recall']:.3f}")
    if args.out:
        args.out.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
