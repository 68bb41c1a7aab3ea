"""The default mode's nDCG@K and MRR@K on a real evaluation, against ranx computing them from the
same relevance judgements: per query, the qrels are the distinct retrieved chunks the evaluator
judges relevant (a reference sentence, from a gold document) plus one item per reference no
relevant chunk holds; the run is the retrieved list in rank order. Writes bench/results/ranx.json.

    .venv/bin/python bench/ranx_check.py BENCHMARK_DIR EVAL_DIR [--k 5]
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dragonforge import metrics  # noqa: E402
from dragonforge.evaluate import load_benchmark  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("bench", type=Path)
    parser.add_argument("eval", type=Path)
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args()
    from ranx import Qrels, Run, evaluate

    documents, queries = load_benchmark(args.bench)
    by_doc = {d["doc_id"]: d["content"] for d in documents}
    by_query = {q.query.query_id: q for q in queries}
    ours = {r["query_id"]: r for r in map(json.loads, (args.eval / "per_query.jsonl").read_text().splitlines())}
    predictions = {p["query"]["query_id"]: p["prediction"]["references"]
                   for p in map(json.loads, (args.eval / "predictions.jsonl").read_text().splitlines())}
    qrels, run, compared = {}, {}, []
    for qid, record in ours.items():
        gt = by_query[qid].ground_truth
        refs, lang = gt.references, by_query[qid].language
        if not refs or record["ndcg_at_k"] is None:
            continue
        gold = [by_doc[d] for d in gt.doc_ids if d in by_doc] or None
        chunks = metrics.unique_chunks(predictions[qid])
        relevant = {f"c{i}": 1 for i, c in enumerate(chunks) if metrics.is_relevant(c, refs, lang, gold)}
        bodies = [metrics.strip_metadata(c) for i, c in enumerate(chunks) if f"c{i}" in relevant]
        missing = {f"r{j}": 1 for j, r in enumerate(refs)
                   if not any(s in b for s in metrics.split_sentences(r, lang) for b in bodies)}
        if not chunks or not (relevant or missing):
            continue  # ranx scores an empty run or empty qrels by raising; ours says 0
        qrels[str(qid)] = relevant | missing
        run[str(qid)] = {f"c{i}": float(len(chunks) - i) for i in range(len(chunks))}
        compared.append(qid)
    ranx_run = Run(run)
    theirs = evaluate(Qrels(qrels), ranx_run, [f"ndcg@{args.k}", f"mrr@{args.k}"], return_mean=False)
    order = [int(q) for q in ranx_run.keys()]  # ranx keeps its own order of the queries
    out: dict = {"benchmark": str(args.bench), "evaluation": str(args.eval), "k": args.k,
                 "queries_compared": len(compared)}
    for metric, name in ((f"ndcg@{args.k}", "ndcg_at_k"), (f"mrr@{args.k}", "mrr")):
        diffs = [abs(float(v) - ours[qid][name]) for qid, v in zip(order, theirs[metric], strict=True)]
        out[name] = {"max_abs_diff": max(diffs, default=0.0), "queries_differing": sum(d > 1e-9 for d in diffs)}
        print(f"{name}: {len(diffs)} queries, largest difference {out[name]['max_abs_diff']:.2e}, "
              f"{out[name]['queries_differing']} differ")
    (ROOT / "bench" / "results" / "ranx.json").write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
