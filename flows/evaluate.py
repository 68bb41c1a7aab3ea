"""The ``evaluate`` flow: answers from the system under test, keypoint labels, scores, files.

Answers are appended to ``<out>/.dragonforge/answers.jsonl`` as they arrive and LLM replies
are cached, so a rerun of the same command (after an interruption too) asks the system and
the judge only for what is missing.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path

from flows._env import configure_prefect

configure_prefect()

from prefect import flow, task  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from dragonforge import evaluate as ev  # noqa: E402
from dragonforge.errors import DragonforgeError  # noqa: E402
from dragonforge.files import write_jsonl_atomic, write_text_atomic  # noqa: E402
from dragonforge.llm import LLMAccount, LLMSettings, StructuredLLM  # noqa: E402
from dragonforge.progress import NullProgress, Progress  # noqa: E402
from dragonforge.systems import Query, SystemAnswer  # noqa: E402

_progress: Progress = NullProgress()


def set_progress(progress: Progress) -> None:
    global _progress
    _progress = progress


def _state(out: Path) -> Path:
    path = out / ".dragonforge"
    path.mkdir(parents=True, exist_ok=True)
    return path


def make_system(spec: str, documents: list[dict], config: ev.EvalConfig, llm_settings: LLMSettings | None,
                out: Path, concurrency: int):
    """The system under test named by ``--system``."""
    from dragonforge import rag, systems

    if spec.startswith(("http://", "https://")):
        return systems.HTTPSystem(spec, concurrency=concurrency)
    if spec.startswith("python:"):
        return systems.PythonSystem(spec.removeprefix("python:"))
    if spec == "bm25":
        if config.generator == "llm":
            generator = rag.LLMGenerator(StructuredLLM(llm_settings, cache_path=_state(out) / "llm-cache.sqlite"))
        else:
            generator = rag.ExtractiveGenerator()
        return rag.BaselineRAG(documents, chunk_size=config.chunk_size or 512, overlap=config.overlap or 64,
                               top_k=config.top_k or 5, metadata_prefix=config.metadata_prefix, generator=generator)
    raise DragonforgeError(f"unknown --system {spec!r}; use bm25, an http(s):// URL or python:module:function")


@task(name="answer", cache_policy=NO_CACHE)
def answer_task(spec: str, documents: list[dict], queries: list[dict], config: ev.EvalConfig,
                llm_settings: LLMSettings | None, out_dir: str, concurrency: int) -> dict[int, SystemAnswer]:
    out = Path(out_dir)
    store = _state(out) / "answers.jsonl"
    answers: dict[int, SystemAnswer] = {}
    if store.exists():
        for line in store.read_text(encoding="utf-8").splitlines():
            if line.strip():
                a = SystemAnswer.model_validate_json(line)
                answers[a.query_id] = a
    todo = [q for q in queries if q["query"]["query_id"] not in answers]
    _progress.start("answers", len(queries))
    _progress.advance("answers", len(queries) - len(todo))
    if todo:
        system = make_system(spec, documents, config, llm_settings, out, concurrency)

        async def run() -> None:
            sem = asyncio.Semaphore(concurrency)
            with store.open("a", encoding="utf-8") as sink:
                async def one(q: dict) -> None:
                    query = Query(query_id=q["query"]["query_id"], language=q.get("language", "en"),
                                  domain=q.get("domain", ""), question=q["query"]["content"])
                    async with sem:
                        a = await system.answer(query)
                    answers[a.query_id] = a
                    sink.write(a.model_dump_json() + "\n")
                    sink.flush()
                    _progress.advance("answers")

                await asyncio.gather(*(one(q) for q in todo))
            close = getattr(system, "aclose", None)
            if close:
                await close()

        asyncio.run(run())
    return answers


@task(name="judge", cache_policy=NO_CACHE)
def judge_task(queries: list[dict], answers: dict[int, SystemAnswer], judge: str,
               llm_settings: LLMSettings | None, out_dir: str) -> tuple[dict[int, list], dict]:
    _progress.start("judged", len(queries))
    if judge == "lexical":
        labels = {}
        for q in queries:
            labels[q["query"]["query_id"]] = ev.lexical_labels(q, answers[q["query"]["query_id"]])
            _progress.advance("judged")
        return labels, {}
    account = LLMAccount(llm_settings, _state(Path(out_dir)) / "judge-calls.jsonl")

    async def run():
        llm = StructuredLLM(llm_settings, cache_path=_state(Path(out_dir)) / "llm-cache.sqlite", account=account)
        account.on_call = lambda stage: _progress.advance("judged")
        try:
            return await ev.llm_labels(llm, queries, answers)
        finally:
            await llm.aclose()

    labels = asyncio.run(run())
    account.close()
    return labels, account.report()


@flow(name="evaluate", log_prints=False, validate_parameters=False)
def evaluate_flow(out_dir: str, config: ev.EvalConfig, llm_settings: LLMSettings | None = None,
                  concurrency: int = 8) -> dict:
    """Inputs are read from ``config.benchmark`` / ``config.predictions`` inside the flow, so
    Prefect records paths, not ten thousand queries."""
    out = Path(out_dir)
    t0 = time.perf_counter()
    documents, queries, given_answers = ev.load_inputs(config)
    if given_answers is None:
        answers = answer_task(config.system, documents, queries, config, llm_settings, out_dir, concurrency)
    else:
        answers = given_answers
    # The lexical judge is a fast local computation: run it here rather than hand ten thousand
    # answers across a task boundary, which Prefect would walk to record the task's inputs.
    if config.judge == "lexical":
        labels, judge_usage = judge_task.fn(queries, answers, config.judge, llm_settings, out_dir)
    else:
        labels, judge_usage = judge_task(queries, answers, config.judge, llm_settings, out_dir)
    by_id = {d["doc_id"]: d for d in documents}
    records = [ev.score_query(q, answers[q["query"]["query_id"]], labels[q["query"]["query_id"]], config, by_id)
               for q in queries]
    scores = ev.aggregate(records, config)
    scores["timings"] = {"seconds": round(time.perf_counter() - t0, 3)}
    if judge_usage:
        scores["llm_usage"] = judge_usage
    write_results(out, records, scores, ev.predictions_records(queries, answers))
    return scores


def write_results(out: Path, records: list[dict], scores: dict, predictions: list[dict]) -> None:
    import polars as pl

    write_jsonl_atomic(out / "per_query.jsonl", records)
    flat = [{k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v) for k, v in r.items()}
            for r in records]
    tmp = out / ".per_query.parquet.tmp"
    pl.DataFrame(flat, infer_schema_length=None).write_parquet(tmp)
    tmp.replace(out / "per_query.parquet")
    write_jsonl_atomic(out / "predictions.jsonl", predictions)
    write_text_atomic(out / "scores.json", json.dumps(scores, ensure_ascii=False, indent=2) + "\n")
