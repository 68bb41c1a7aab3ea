"""Evaluating a system on a benchmark into a directory, without Prefect: the system under test,
its answers (kept as they arrive, to resume), the judge, the scores and the files.

:func:`evaluate` is the entry point the CLI, tests and benchmarks call; the Prefect flow
(``dragonforge.flows.evaluate``) runs the same steps as tasks.

Answers are kept in ``DIR/.dragonforge/resume.sqlite`` under a key made of the system (its
settings, and for a ``python:`` system its source file), the query's content and the
benchmark's documents, so a rerun asks the system only for what is missing, and a changed
benchmark or system is asked again. An answer that failed (a timeout, an exception) is not
kept: the rerun asks again.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from pydantic import TypeAdapter

from dragonforge import evaluate as ev
from dragonforge.errors import DragonforgeError
from dragonforge.files import dumps_record, jsonl_bytes, mentions, write_bytes_atomic, write_text_atomic
from dragonforge.fingerprint import content_key
from dragonforge.models import DBQuery
from dragonforge.progress import NullProgress, Progress
from dragonforge.records import QueryRecord, ScoresFile, Timings, Usage
from dragonforge.resume import ResumeStore
from dragonforge.systems import Query, SystemAnswer

if TYPE_CHECKING:
    from dragonforge.llm import LLMAccount

_ANSWER = TypeAdapter(SystemAnswer)

# From this many queries the offline judge and the scores are computed in worker processes:
# CPU-bound work, where threads would only contend for the GIL. Fewer do not repay the start.
PARALLEL_QUERIES = 300
_CHUNKS_PER_WORKER = 4
# What the judge's fork server imports: the scorer and, when there are Chinese queries, jieba's
# dictionary, loaded once there rather than in every worker.
_PRELOAD = ["dragonforge.evaluate"]
_PRELOAD_ZH = [*_PRELOAD, "dragonforge._warm_chinese"]
# An input file this large holds enough queries for the workers (a DRAGONBall query line is
# 2 kB or more): they are started before it is read, while it is read.
_LARGE_INPUT_BYTES = PARALLEL_QUERIES * 2048


def warm_workers(config: ev.EvalConfig) -> bool:
    """Start the judge's fork server early when the inputs are large enough to need workers;
    True when it was started (the caller stops it if reading the inputs then fails)."""
    files = [Path(config.predictions)] if config.predictions else []
    if config.benchmark:
        files.append(Path(config.benchmark) / "queries.jsonl")
    try:
        if config.judge == "llm" or not any(f.stat().st_size >= _LARGE_INPUT_BYTES for f in files):
            return False
        chinese = any(mentions(f, b'"zh"') for f in files)  # a "language": "zh" record, or so it seems
    except OSError:
        return False
    from dragonforge.workers import start_fork_server

    return start_fork_server(_PRELOAD_ZH if chinese else _PRELOAD)


def lexical_chunk(queries: list[DBQuery], answers: dict[int, SystemAnswer], config: ev.EvalConfig,
                  documents: dict[int, dict]) -> list[tuple[int, list, list | None, QueryRecord, str, str]]:
    """The offline judge's labels, the oracle answers' labels and the score record of each query
    of a chunk (in a worker process); no labels with ``--judge none``. Also the record's and the
    prediction's lines of ``per_query.jsonl`` and ``predictions.jsonl``, serialised here, in parallel."""
    out = []
    judge = config.judge == "lexical"
    for q in queries:
        qid = q.query.query_id
        labels = ev.lexical_labels(q, answers[qid]) if judge else []
        oracle = ev.oracle_labels(q, answers[qid]) if judge else None
        record = ev.score_query(q, answers[qid], labels, config, documents, oracle_labels=oracle)
        prediction = ev.predictions_records([q], answers)[0]
        out.append((qid, labels, oracle, record, dumps_record(record) + "\n", dumps_record(prediction) + "\n"))
    return out


def state_dir(out: Path) -> Path:
    path = out / ".dragonforge"
    path.mkdir(parents=True, exist_ok=True)
    return path


def make_system(spec: str, documents: list[dict], config: ev.EvalConfig, llm_settings, out: Path,
                concurrency: int, embedder=None, account=None, timeout_s: float = 60.0):
    """The system under test named by ``--system``."""
    from dragonforge import rag, systems

    if spec.startswith(("http://", "https://")):
        return systems.HTTPSystem(spec, concurrency=concurrency, timeout_s=timeout_s)
    if spec.startswith("python:"):
        return systems.PythonSystem(spec.removeprefix("python:"))
    if spec in ("bm25", "dense"):
        if config.generator == "llm":
            from dragonforge.llm import StructuredLLM

            generator: rag.LLMGenerator | rag.ExtractiveGenerator = rag.LLMGenerator(StructuredLLM(llm_settings, cache_path=state_dir(out) / "llm-cache.sqlite",
                                                       account=account))
        else:
            generator = rag.ExtractiveGenerator()
        retriever: Literal["bm25", "dense"] = "bm25" if spec == "bm25" else "dense"
        return rag.BaselineRAG(documents, chunk_size=config.chunk_size or 512, overlap=config.overlap or 64,
                               top_k=config.top_k or 5, metadata_prefix=config.metadata_prefix, generator=generator,
                               retriever=retriever, embedder=embedder.make(state_dir(out) / "embeddings.sqlite", account)
                               if embedder else None)
    raise DragonforgeError(f"unknown --system {spec!r}; use bm25, dense, an http(s):// URL or python:module:function")


def system_identity(config: ev.EvalConfig) -> dict[str, Any]:
    """What an answer depends on besides its query: the system's settings and, for a ``python:``
    system, its source file's content."""
    identity = config.model_dump(include={"system", "top_k", "chunk_size", "overlap", "metadata_prefix",
                                          "generator", "llm_model", "embedding_model"})
    if config.system.startswith("python:"):
        identity["source_sha256"] = _python_source_hash(config.system.removeprefix("python:"))
    return identity


def _python_source_hash(spec: str) -> str | None:
    module = spec.rpartition(":")[0]
    try:
        spec_found = None if module.endswith(".py") else importlib.util.find_spec(module)
        origin = Path(module) if spec_found is None else Path(spec_found.origin or "")
        return hashlib.sha256(origin.read_bytes()).hexdigest()
    except (ImportError, AttributeError, ValueError, OSError):
        return None


def documents_digest(documents: list[dict]) -> str:
    h = hashlib.sha256()
    for d in documents:
        h.update(json.dumps(d, sort_keys=True, ensure_ascii=False).encode())
    return h.hexdigest()


def answer_key(identity: dict[str, Any], digest: str, query: DBQuery) -> str:
    return content_key("answer", identity, digest, query.language, query.domain,
                       query.query.model_dump(mode="json", exclude_unset=True), query.ground_truth.references)


@dataclass
class Judged:
    labels: dict[int, list]
    oracle_labels: dict[int, list | None] = field(default_factory=dict)
    llm_scores: dict[int, Any] = field(default_factory=dict)
    usage: dict = field(default_factory=dict)
    records: dict[int, QueryRecord] = field(default_factory=dict)  # score records, where the judge made them too
    lines: dict[int, tuple[str, str]] = field(default_factory=dict)  # and their per_query and predictions lines


class Evaluation:
    """One evaluation into ``out``: its inputs, the resume store and the steps."""

    def __init__(self, out: Path, config: ev.EvalConfig, *, llm_settings=None, concurrency: int = 8,
                 embedder=None, timeout_s: float = 60.0, progress: Progress | None = None, inputs=None,
                 workers: int | None = None):
        self.out = out
        self.config = config
        self.llm_settings = llm_settings
        self.concurrency = concurrency
        self.embedder = embedder
        self.timeout_s = timeout_s
        self.progress = progress or NullProgress()
        self.t0 = time.perf_counter()
        # ``inputs``: what ev.load_inputs(config) returns, when the caller has already read it.
        loaded: tuple[list[dict], list[DBQuery], dict[int, SystemAnswer] | None] = inputs or ev.load_inputs(config)
        self.documents, self.queries, self.given_answers = loaded
        self.store: ResumeStore | None = None
        # processes for the offline judge and scores (0: none; None: one per core for large runs)
        self.workers = workers if workers is not None else (0 if len(self.queries) < PARALLEL_QUERIES else None)
        # What the steps made, for a caller (the flow) that runs them one by one.
        self.answered: dict[int, SystemAnswer] = {}
        self.answer_usage: dict = {}
        self.answer_account: LLMAccount | None = None  # the LLM generator's account, once the answers are in
        self.judged: Judged | None = None

    def close(self) -> None:
        if self.store is not None:
            self.store.close()

    # -- answers ---------------------------------------------------------------------------

    def answers(self) -> tuple[dict[int, SystemAnswer], dict]:
        """Every query's answer (and, from a built-in system, its oracle answer), and what the LLM
        generator used in this run, by stage."""
        if self.given_answers is not None:
            return self.given_answers, {}
        from dragonforge.llm import LLMAccount

        config, out = self.config, self.out
        self.store = self.store or ResumeStore(state_dir(out) / "resume.sqlite")
        identity, digest = system_identity(config), documents_digest(self.documents)
        keys = {q.query.query_id: answer_key(identity, digest, q) for q in self.queries}
        answers: dict[int, SystemAnswer] = {}
        for qid, key in keys.items():
            kept = self.store.get(key, _ANSWER)
            if kept is not None:
                answers[qid] = kept.model_copy(update={"query_id": qid})
        todo = [q for q in self.queries if q.query.query_id not in answers]
        self.progress.start("answers", len(self.queries))
        self.progress.advance("answers", len(self.queries) - len(todo))
        if not todo:
            return answers, {}
        # the generator's LLM calls and a dense retriever's embedding calls share one budget
        account = LLMAccount(self.llm_settings, state_dir(out) / "answer-calls.jsonl") \
            if config.generator == "llm" or (config.system == "dense" and self.llm_settings is not None) else None
        self.answer_account = account  # its calls count against the judge's budget too
        system = make_system(config.system, self.documents, config, self.llm_settings, out, self.concurrency,
                             self.embedder, account, self.timeout_s)
        oracle = getattr(system, "answer_from", None)  # a built-in system also answers from the gold chunks
        store = self.store

        async def run() -> None:
            sem = asyncio.Semaphore(self.concurrency)

            async def one(q: DBQuery) -> None:
                qid = q.query.query_id
                query = Query(query_id=qid, language=q.language, domain=q.domain, question=q.query.content)
                async with sem:
                    a = await system.answer(query)
                    references = q.ground_truth.references
                    if oracle and references and not a.error:
                        a.oracle_answer = await oracle(query, references)
                answers[qid] = a
                if not a.error:
                    store.put(keys[qid], "answer", _ANSWER, a)
                self.progress.advance("answers")

            try:
                await asyncio.gather(*(one(q) for q in todo))
            finally:
                close = getattr(system, "aclose", None)
                if close:
                    await close()

        try:
            asyncio.run(run())
        finally:
            if account:
                account.close()
        embedder = getattr(system, "embedder", None)
        if account is None and embedder is not None:  # no LLM settings: the embeddings' own usage
            return answers, {embedder.STAGE: {embedder.model: embedder.usage.as_dict()}}
        return answers, account.report() if account else {}

    # -- judge -----------------------------------------------------------------------------

    def judge(self, answers: dict[int, SystemAnswer]) -> Judged:
        """Keypoint labels of every query; with the LLM judge also the LLM-mode metrics, without
        it the lexical labels of the oracle answers (offline retrieval agreement)."""
        queries = self.queries
        self.progress.start("judged", len(queries))
        if self.config.judge != "llm" and self.workers != 0:
            return self._judge_in_workers(answers)
        if self.config.judge == "none":  # retrieval and text metrics only; keypoint metrics stay empty
            self.progress.advance("judged", len(queries))
            return Judged(labels={q.query.query_id: [] for q in queries})
        if self.config.judge == "lexical":
            labels, oracle = {}, {}
            for q in queries:
                qid = q.query.query_id
                labels[qid] = ev.lexical_labels(q, answers[qid])
                oracle[qid] = ev.oracle_labels(q, answers[qid])
                self.progress.advance("judged")
            return Judged(labels=labels, oracle_labels=oracle)
        from dragonforge.llm import LLMAccount, StructuredLLM

        state = state_dir(self.out)
        account = LLMAccount(self.llm_settings, state / "judge-calls.jsonl", spent=self.answer_account)

        async def run():
            llm = StructuredLLM(self.llm_settings, cache_path=state / "llm-cache.sqlite", account=account)
            embed = self.embedder.make(state / "embeddings.sqlite", account) if self.embedder else None
            try:
                return await ev.llm_judgements(llm, queries, answers, embed, self.config.k,
                                               on_done=lambda: self.progress.advance("judged"))
            finally:
                await llm.aclose()
                if embed:
                    await embed.aclose()

        try:
            labels, scores = asyncio.run(run())
        finally:
            account.close()
        return Judged(labels=labels, llm_scores=scores, usage=account.report())

    def _judge_in_workers(self, answers: dict[int, SystemAnswer]) -> Judged:
        """The offline judge and the score records, chunk by chunk in worker processes; the
        result is the same as in one process, in the same order."""
        from dragonforge.workers import worker_pool

        by_id = {d["doc_id"]: d for d in self.documents}
        chinese = any(q.language == "zh" for q in self.queries)
        pool = worker_pool(self.workers, preload=_PRELOAD_ZH if chinese else _PRELOAD)
        cores = self.workers or os.cpu_count() or 1
        size = max(1, -(-len(self.queries) // (_CHUNKS_PER_WORKER * cores)))
        judged = Judged(labels={})
        try:
            futures = []
            for i in range(0, len(self.queries), size):
                chunk = self.queries[i:i + size]
                mine = {q.query.query_id: answers[q.query.query_id] for q in chunk}
                # only the gold documents of the chunk's queries are read (failure labels)
                gold = {i: by_id[i] for q in chunk for i in q.ground_truth.doc_ids if i in by_id}
                futures.append(pool.submit(lexical_chunk, chunk, mine, self.config, gold))
            import polars  # noqa: F401  (for the files, imported while the workers run)
            for fut in futures:
                for qid, labels, oracle, record, record_line, prediction_line in fut.result():
                    judged.labels[qid], judged.oracle_labels[qid], judged.records[qid] = labels, oracle, record
                    judged.lines[qid] = (record_line, prediction_line)
                    self.progress.advance("judged")
        except BaseException:
            for process in list(getattr(pool, "_processes", {}).values()):
                process.terminate()
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
        return judged

    # -- scores and files ------------------------------------------------------------------

    def score(self, answers: dict[int, SystemAnswer], judged: Judged,
              answer_usage: dict) -> tuple[list[QueryRecord], ScoresFile]:
        by_id = {d["doc_id"]: d for d in self.documents}
        records = [judged.records.get(qid) or
                   ev.score_query(q, answers[qid], judged.labels[qid], self.config, by_id,
                                  llm_scores=judged.llm_scores.get(qid), oracle_labels=judged.oracle_labels.get(qid))
                   for q in self.queries for qid in (q.query.query_id,)]
        scores = ev.aggregate(records, self.config)
        scores.timings = Timings(seconds=round(time.perf_counter() - self.t0, 3))
        if answer_usage or judged.usage:  # by stage, then model: rag_answer, then the judge's
            usage = {**answer_usage, **judged.usage}
            scores.llm_usage = {stage: {model: Usage.model_validate(u) for model, u in by_model.items()}
                                for stage, by_model in usage.items()}
        return records, scores

    def write(self, records: list[QueryRecord], scores: ScoresFile, answers: dict[int, SystemAnswer],
              judged: Judged | None = None) -> None:
        lines = judged.lines if judged is not None else {}
        ids = [q.query.query_id for q in self.queries]
        if lines and all(qid in lines for qid in ids):  # serialised by the workers
            write_results(self.out, records, scores, None,
                          lines=("".join(lines[i][0] for i in ids), "".join(lines[i][1] for i in ids)))
        else:
            write_results(self.out, records, scores, ev.predictions_records(self.queries, answers))


def evaluate(out: Path, config: ev.EvalConfig, *, llm_settings=None, concurrency: int = 8, embedder=None,
             timeout_s: float = 60.0, progress: Progress | None = None, inputs=None, workers: int | None = None) -> dict:
    """Score ``config``'s system (or predictions file) on its benchmark into ``out``, in this process
    (and, for a large offline judgement, its worker processes)."""
    run = Evaluation(out, config, llm_settings=llm_settings, concurrency=concurrency, embedder=embedder,
                     timeout_s=timeout_s, progress=progress, inputs=inputs, workers=workers)
    try:
        answers, usage = run.answers()
        judged = run.judge(answers)
        records, scores = run.score(answers, judged, usage)
        run.write(records, scores, answers, judged)
        return scores.to_json()
    finally:
        run.close()


def write_results(out: Path, records: list[QueryRecord], scores: ScoresFile, predictions: list[dict] | None,
                  lines: tuple[str, str] | None = None) -> None:
    """per_query.jsonl and .parquet, predictions.jsonl and scores.json; ``lines``: the two JSONL
    files' text when it is already serialised (then ``predictions`` is not needed). The JSONL
    files are written (and synced to disk) on threads while the Parquet table is built."""
    import io
    from concurrent.futures import ThreadPoolExecutor

    import polars as pl

    if lines is not None:
        per_query, predicted = lines[0].encode("utf-8"), lines[1].encode("utf-8")
    else:
        per_query, predicted = jsonl_bytes(records), jsonl_bytes(predictions or [])
    with ThreadPoolExecutor(max_workers=2) as pool:
        writes = [pool.submit(write_bytes_atomic, out / "per_query.jsonl", per_query),
                  pool.submit(write_bytes_atomic, out / "predictions.jsonl", predicted)]
        flat = [{k: (json.dumps(v, ensure_ascii=False) if isinstance(v, (list, dict)) else v)
                 for k, v in r.model_dump(mode="json").items()} for r in records]
        buffer = io.BytesIO()
        pl.DataFrame(flat, infer_schema_length=None).write_parquet(buffer)
        write_bytes_atomic(out / "per_query.parquet", buffer.getvalue())
        for done in writes:
            done.result()
    write_text_atomic(out / "scores.json", json.dumps(scores.to_json(), ensure_ascii=False, indent=2) + "\n")
