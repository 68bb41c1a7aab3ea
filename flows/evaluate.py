"""The ``evaluate`` flow: answers from the system under test, keypoint labels, scores, files.

Answers are appended to ``<out>/.dragonforge/answers.jsonl`` as they arrive and LLM replies
are cached, so a rerun of the same command (after an interruption too) asks the system and
the judge only for what is missing.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import dataclass, field
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
from dragonforge.rag import EmbedderSettings  # noqa: E402
from dragonforge.ragas import Scores  # noqa: E402
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
                out: Path, concurrency: int, embedder: EmbedderSettings | None = None,
                account: LLMAccount | None = None, timeout_s: float = 60.0):
    """The system under test named by ``--system``."""
    from dragonforge import rag, systems

    if spec.startswith(("http://", "https://")):
        return systems.HTTPSystem(spec, concurrency=concurrency, timeout_s=timeout_s)
    if spec.startswith("python:"):
        return systems.PythonSystem(spec.removeprefix("python:"))
    if spec in ("bm25", "dense"):
        if config.generator == "llm":
            generator = rag.LLMGenerator(StructuredLLM(llm_settings, cache_path=_state(out) / "llm-cache.sqlite",
                                                       account=account))
        else:
            generator = rag.ExtractiveGenerator()
        return rag.BaselineRAG(documents, chunk_size=config.chunk_size or 512, overlap=config.overlap or 64,
                               top_k=config.top_k or 5, metadata_prefix=config.metadata_prefix, generator=generator,
                               retriever=spec, embedder=embedder.make() if embedder else None)
    raise DragonforgeError(f"unknown --system {spec!r}; use bm25, dense, an http(s):// URL or python:module:function")


@task(name="answer", cache_policy=NO_CACHE)
def answer_task(spec: str, documents: list[dict], queries: list[dict], config: ev.EvalConfig,
                llm_settings: LLMSettings | None, out_dir: str, concurrency: int,
                embedder: EmbedderSettings | None = None, timeout_s: float = 60.0
                ) -> tuple[dict[int, SystemAnswer], dict]:
    """Every query's answer (and, from a built-in system, its oracle answer); what the LLM
    generator used in this run, by stage."""
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
    account = LLMAccount(llm_settings, _state(out) / "answer-calls.jsonl") if config.generator == "llm" else None
    if todo:
        system = make_system(spec, documents, config, llm_settings, out, concurrency, embedder, account, timeout_s)
        # A built-in system also answers from the gold references (LLM-retEval's oracle).
        oracle = getattr(system, "answer_from", None)

        async def run() -> None:
            sem = asyncio.Semaphore(concurrency)
            with store.open("a", encoding="utf-8") as sink:
                async def one(q: dict) -> None:
                    query = Query(query_id=q["query"]["query_id"], language=q.get("language", "en"),
                                  domain=q.get("domain", ""), question=q["query"]["content"])
                    async with sem:
                        a = await system.answer(query)
                        references = q["ground_truth"].get("references") or []
                        if oracle and references and not a.error:
                            a.oracle_answer = await oracle(query, references)
                    answers[a.query_id] = a
                    sink.write(a.model_dump_json() + "\n")
                    sink.flush()
                    _progress.advance("answers")

                await asyncio.gather(*(one(q) for q in todo))
            close = getattr(system, "aclose", None)
            if close:
                await close()

        try:
            asyncio.run(run())
        finally:
            if account:
                account.close()
    return answers, account.report() if account else {}


@task(name="judge", cache_policy=NO_CACHE)
def judge_task(queries: list[dict], answers: dict[int, SystemAnswer], judge: str,
               llm_settings: LLMSettings | None, out_dir: str, k: int = 5,
               embedder: EmbedderSettings | None = None) -> Judged:
    """Keypoint labels of every query; with the LLM judge also the LLM-mode metrics, without it
    the lexical labels of the oracle answers (offline retrieval agreement)."""
    _progress.start("judged", len(queries))
    if judge == "lexical":
        labels, oracle = {}, {}
        for q in queries:
            qid = q["query"]["query_id"]
            labels[qid] = ev.lexical_labels(q, answers[qid])
            oracle[qid] = ev.oracle_labels(q, answers[qid])
            _progress.advance("judged")
        return Judged(labels=labels, oracle_labels=oracle)
    account = LLMAccount(llm_settings, _state(Path(out_dir)) / "judge-calls.jsonl")

    async def run():
        llm = StructuredLLM(llm_settings, cache_path=_state(Path(out_dir)) / "llm-cache.sqlite", account=account)
        embed = embedder.make() if embedder else None
        try:
            return await ev.llm_judgements(llm, queries, answers, embed, k, on_done=lambda: _progress.advance("judged"))
        finally:
            await llm.aclose()
            if embed:
                await embed.aclose()

    try:
        labels, scores = asyncio.run(run())
    finally:
        account.close()
    return Judged(labels=labels, llm_scores=scores, usage=account.report())


@dataclass
class Judged:
    labels: dict[int, list]
    oracle_labels: dict[int, list | None] = field(default_factory=dict)
    llm_scores: dict[int, Scores] = field(default_factory=dict)
    usage: dict = field(default_factory=dict)


@flow(name="evaluate", log_prints=False, validate_parameters=False)
def evaluate_flow(out_dir: str, config: ev.EvalConfig, llm_settings: LLMSettings | None = None,
                  concurrency: int = 8, embedder: EmbedderSettings | None = None, timeout_s: float = 60.0) -> dict:
    """Inputs are read from ``config.benchmark`` / ``config.predictions`` inside the flow, so
    Prefect records paths, not ten thousand queries."""
    out = Path(out_dir)
    t0 = time.perf_counter()
    documents, queries, given_answers = ev.load_inputs(config)
    if given_answers is None:
        answers, answer_usage = answer_task(config.system, documents, queries, config, llm_settings, out_dir,
                                            concurrency, embedder, timeout_s)
    else:
        answers, answer_usage = given_answers, {}
    # The lexical judge is a fast local computation: run it here rather than hand ten thousand
    # answers across a task boundary, which Prefect would walk to record the task's inputs.
    judge = judge_task.fn if config.judge == "lexical" else judge_task
    judged = judge(queries, answers, config.judge, llm_settings, out_dir, config.k, embedder)
    by_id = {d["doc_id"]: d for d in documents}
    records = []
    for q in queries:
        qid = q["query"]["query_id"]
        records.append(ev.score_query(q, answers[qid], judged.labels[qid], config, by_id,
                                      llm_scores=judged.llm_scores.get(qid), oracle_labels=judged.oracle_labels.get(qid)))
    scores = ev.aggregate(records, config)
    scores["timings"] = {"seconds": round(time.perf_counter() - t0, 3)}
    if answer_usage or judged.usage:
        scores["llm_usage"] = {**answer_usage, **judged.usage}  # by stage: rag_answer, then the judge's
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
