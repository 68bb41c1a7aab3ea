"""Evaluation benchmark: 10,000+ queries scored with the retrieval metrics, ROUGE-L and the
lexical keypoint judge.

Builds a benchmark (3 domains x 2 languages x 100 documents, 17 questions per document, so
about 10,200 queries) and answers it once with the BM25 baseline (neither is timed), then
times, REPEATS times: (a) scoring in-process (judge + every metric + aggregation) and (b) the
whole `dragonforge evaluate --predictions` command. With --reference and --python it also runs,
side by side on the same predictions file, (c) `dragonforge evaluate --predictions FILE --compat
rageval --judge none` and (d) the RAGEval reference implementation's own scripts (run_evaluation.sh
from a separate checkout, as bench/compat_check.py runs them) for what they compute without an
LLM: recall, EIR, precision and ROUGE-L (ours computes every other retrieval metric besides),
and (e) the same with our offline keypoint judge (`--judge lexical`), for comparison.
Medians go to bench/results/eval.json. Targets on a 2-core machine: (b) under 30 s; (d)/(c) at
least 10.
Usage: python bench/eval_bench.py [--docs 100] [--queries-per-doc 17] [--repeats 3]
                                  [--reference RAGEval/rageval/evaluation --python REF_VENV/bin/python]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "eval.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=int, default=100)
    parser.add_argument("--queries-per-doc", type=int, default=17)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--reference", type=Path, help="the reference's rageval/evaluation folder")
    parser.add_argument("--python", type=Path, help="the interpreter of the reference's environment")
    args = parser.parse_args()
    if bool(args.reference) != bool(args.python):
        parser.error("--reference and --python go together")

    from dragonforge.benchmark import write_benchmark
    from dragonforge.evaluate import EvalConfig, aggregate, lexical_labels, load_benchmark, score_query
    from dragonforge.files import write_jsonl_atomic
    from dragonforge.models import BuildParams
    from dragonforge.pipeline import run_build
    from dragonforge.rag import BaselineRAG, ExtractiveGenerator
    from dragonforge.systems import Query

    with tempfile.TemporaryDirectory() as tmp:
        bench = Path(tmp) / "bench"
        bench.mkdir()
        params = BuildParams(docs=args.docs, queries_per_doc=args.queries_per_doc, seed=7)
        write_benchmark(bench, params, run_build(params), {})
        documents, queries = load_benchmark(bench)
        system = BaselineRAG(documents, chunk_size=512, overlap=64, top_k=5, metadata_prefix=False,
                             generator=ExtractiveGenerator())

        async def answer_all():
            return await asyncio.gather(*(system.answer(Query(query_id=q.query.query_id, language=q.language,
                                                              domain=q.domain, question=q.query.content))
                                          for q in queries))

        t0 = time.perf_counter()
        answers = {a.query_id: a for a in asyncio.run(answer_all())}
        answer_s = time.perf_counter() - t0
        predictions = Path(tmp) / "predictions.jsonl"
        write_jsonl_atomic(predictions, [
            {**q.model_dump(mode="json", exclude_unset=True, exclude={"prediction"}),
             "prediction": {"content": answers[q.query.query_id].answer,
                            "references": answers[q.query.query_id].contexts}} for q in queries])
        by_id = {d["doc_id"]: d for d in documents}
        config = EvalConfig(system="bench")

        in_process, command, compat, judged, theirs = [], [], [], [], []
        df = str(Path(sys.executable).with_name("dragonforge"))
        for r in range(args.repeats):
            _clear_caches()  # each repeat scores from cold caches, as a command does
            t0 = time.perf_counter()
            records = [score_query(q, answers[q.query.query_id],
                                   lexical_labels(q, answers[q.query.query_id]), config, by_id) for q in queries]
            scores = aggregate(records, config).to_json()
            in_process.append(time.perf_counter() - t0)
            out = Path(tmp) / f"eval{r}"
            t0 = time.perf_counter()
            proc = subprocess.run([df, "evaluate", "--predictions", str(predictions), "--benchmark", str(bench),
                                   "--out", str(out), "--quiet"], capture_output=True, text=True, cwd=ROOT)
            command.append(time.perf_counter() - t0)
            if proc.returncode != 0:
                sys.exit(f"evaluate failed:\n{proc.stderr}")
            print(f"run {r}: in-process {in_process[-1]:.1f}s, command {command[-1]:.1f}s", file=sys.stderr)
            if args.reference:
                sys.path.insert(0, str(ROOT / "bench"))
                from compat_check import run_theirs

                for judge, times in (("none", compat), ("lexical", judged)):
                    t0 = time.perf_counter()
                    proc = subprocess.run([df, "evaluate", "--predictions", str(predictions), "--compat", "rageval",
                                           "--judge", judge, "--out", str(Path(tmp) / f"compat-{judge}{r}"), "--quiet"],
                                          capture_output=True, text=True, cwd=ROOT)
                    times.append(time.perf_counter() - t0)
                    if proc.returncode != 0:
                        sys.exit(f"evaluate --compat rageval --judge {judge} failed:\n{proc.stderr}")
                work = Path(tmp) / f"reference{r}"
                work.mkdir()
                t0 = time.perf_counter()
                run_theirs(args.reference.resolve(), args.python.absolute(), predictions, work)
                theirs.append(time.perf_counter() - t0)
                shutil.rmtree(work)
                print(f"run {r}: --compat rageval --judge none {compat[-1]:.1f}s (lexical {judged[-1]:.1f}s), "
                      f"reference scripts {theirs[-1]:.1f}s", file=sys.stderr)

    result = {
        "benchmark": f"evaluation: {len(queries)} queries, retrieval metrics + ROUGE-L + lexical judge",
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "queries": len(queries),
        "repeats": args.repeats,
        "median_scoring_s": round(statistics.median(in_process), 2),
        "median_command_s": round(statistics.median(command), 2),
        "queries_per_s_scoring": round(len(queries) / statistics.median(in_process), 1),
        "bm25_answering_s": round(answer_s, 2),
        "target_s": 30,
        "meets_target": statistics.median(command) < 30,
        "overall": {k: scores["overall"][k] for k in ("recall", "eir", "completeness", "hallucination", "rouge_l")},
        "runs": {"in_process_s": in_process, "command_s": command},
    }
    if theirs:
        ratio = statistics.median(theirs) / statistics.median(compat)
        result["side_by_side"] = {
            "what": "recall, EIR, precision, ROUGE-L on the same predictions file (ours: every other retrieval "
                    "and text metric too)",
            "ours_command": "dragonforge evaluate --predictions FILE --compat rageval --judge none --out DIR --quiet",
            "median_ours_with_lexical_judge_s": round(statistics.median(judged), 2),
            "theirs_command": "bash run_evaluation.sh (NUM_WORKERS=5 as shipped; METRICS rouge-l precision recall eir)",
            "median_ours_s": round(statistics.median(compat), 2),
            "median_theirs_s": round(statistics.median(theirs), 2),
            "theirs_over_ours": round(ratio, 1),
            "target_ratio": 10,
            "meets_target": ratio >= 10,
            "runs": {"ours_s": compat, "ours_with_lexical_judge_s": judged, "theirs_s": theirs},
        }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))


def _clear_caches() -> None:
    """Empty the metrics' and the judge's memo caches (sentence splits, tokens, analyses)."""
    import importlib
    import pkgutil

    from dragonforge import judge, metrics

    parts = [importlib.import_module(f"dragonforge.judge.{m.name}") for m in pkgutil.iter_modules(judge.__path__)]
    for module in (metrics, *parts):
        for value in vars(module).values():
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()


if __name__ == "__main__":
    main()
