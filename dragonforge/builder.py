"""Building a benchmark into a directory, without Prefect: plan, stages, resume, processes, files.

:func:`build` is the entry point the CLI, tests and benchmarks call. The Prefect flow
(``dragonforge.flows.build``) drives the same :class:`Builder` methods as tasks, so both paths
compute, store and write exactly the same things.

- Offline builds cut each (domain, language) group into batches of documents; each batch's
  configs and documents, then each group's questions, are one stage result. Large builds run
  them in worker processes (the work is CPU-bound: threads would only contend for the GIL).
- Every stage result is kept in ``DIR/.dragonforge/resume.sqlite`` under a key made of the
  stage's code and the content of its inputs (:mod:`dragonforge.fingerprint`), so rerunning
  the command after an interruption reuses what was finished and recomputes what changed.
- LLM builds run one group after another with the endpoint's full concurrency; every reply is
  cached in ``llm-cache.sqlite``, which is what makes them resumable.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, InvalidStateError
from pathlib import Path
from typing import Any

from pydantic import TypeAdapter
from pydantic.dataclasses import dataclass as typed_dataclass

from dragonforge import pipeline, urls
from dragonforge.benchmark import STATE_DIR, group_order, mark_build_started, write_benchmark
from dragonforge.errors import DragonforgeError
from dragonforge.fingerprint import content_key
from dragonforge.models import BuildParams, Config, Document, Language, Manifest
from dragonforge.pipeline import Batch, QRAResult
from dragonforge.progress import NullProgress, Progress
from dragonforge.registry import registry
from dragonforge.resume import ResumeStore
from dragonforge.workers import worker_pool

Group = tuple[str, Language]

# Below this many documents a build runs in this process: starting workers costs more than it saves.
PROCESS_THRESHOLD_DOCS = 120


@typed_dataclass
class DocumentsResult:
    configs: list[Config]
    documents: list[Document]
    seconds: float


@typed_dataclass
class QuestionsResult:
    result: QRAResult
    seconds: float


_DOCUMENTS = TypeAdapter(DocumentsResult)
_QUESTIONS = TypeAdapter(QuestionsResult)


def documents_work(batch: Batch, seed: int, folders: tuple[str, ...] = ()) -> DocumentsResult:
    """Stages 2–3 for one batch: configs, then documents written from them. ``folders``: the
    genre packs the command loaded (a worker process loads them too)."""
    registry().ensure_folders(folders)
    t0 = time.perf_counter()
    configs = pipeline.configs_stage(batch.domain, batch.language, list(batch.doc_ids), seed, batch.first_index)
    documents = pipeline.documents_stage(configs, seed)
    return DocumentsResult(configs=configs, documents=documents, seconds=time.perf_counter() - t0)


def questions_work(configs: list[Config], documents: list[Document], params: BuildParams,
                   folders: tuple[str, ...] = ()) -> QuestionsResult:
    """Stages 4–7 for one group: questions, references, refinement, keypoints."""
    registry().ensure_folders(folders)
    t0 = time.perf_counter()
    result = pipeline.qra_stage(configs, documents, params.docs * params.queries_per_doc, params.question_mix,
                                params.seed)
    return QuestionsResult(result=result, seconds=time.perf_counter() - t0)


def group_work(batches: list[Batch], finished: dict[int, bytes], params: BuildParams,
               folders: tuple[str, ...] = ()) -> tuple[list[bytes], list[str], bytes]:
    """A whole group in one worker: its batches' documents (those not ``finished`` already, by
    index) and then its questions, so each worker compiles a group's templates once. Results
    travel as their JSON, which is also how the store keeps them (faster than pickling)."""
    registry().ensure_folders(folders)
    parts = [_DOCUMENTS.validate_json(finished[i]) if i in finished else documents_work(b, params.seed)
             for i, b in enumerate(batches)]
    configs = [c for p in parts for c in p.configs]
    documents = [d for p in parts for d in p.documents]
    questions = questions_work(configs, documents, params)
    return [_DOCUMENTS.dump_json(p) for p in parts], [content_digest(p) for p in parts], _QUESTIONS.dump_json(questions)


def content_digest(part: DocumentsResult) -> str:
    """sha256 of a batch's configs and documents as JSON (not of how long they took)."""
    return hashlib.sha256(_DOCUMENTS.dump_json(part, exclude={"seconds"})).hexdigest()


def questions_key(digests: list[str], params: BuildParams) -> str:
    """The questions of a group depend on its documents (by their content) and the parameters."""
    packs = params.packs or None  # a genre pack's questions also depend on its files
    return content_key("questions", digests, params.docs * params.queries_per_doc, params.question_mix, params.seed,
                       *([packs] if packs else []))


def documents_key(batch: Batch, params: BuildParams) -> str:
    """A batch's configs and documents depend on the seed, the batch and, for a genre pack, its files."""
    pack = params.packs.get(batch.domain)
    return content_key("documents", batch, params.seed, *([pack] if pack else []))


def _settle(fut: Future, value: Any = None, error: BaseException | None = None) -> None:
    """Resolve ``fut`` unless it already is (a build being stopped fails every waiter at once,
    and a worker's late reply must not raise then)."""
    try:
        if error is not None:
            fut.set_exception(error)
        else:
            fut.set_result(value)
    except InvalidStateError:
        pass


def _done(value: Any) -> Future:
    fut: Future = Future()
    fut.set_result(value)
    return fut


class Builder:
    """One build into ``out``: the resume store, the worker pool and the stage steps."""

    # the built groups, set by the Prefect flow for its write task (a task takes the builder, not
    # the documents); the in-process path hands them to write() itself
    groups: dict[Group, tuple[list[Config], list[Document], QRAResult]]

    def __init__(self, out: Path, params: BuildParams, *, batch_size: int = 50, progress: Progress | None = None,
                 workers: int | None = None):
        self.out = out
        self.params = params
        self.batch_size = batch_size
        self.progress = progress or NullProgress()
        self.t0 = time.perf_counter()
        self.store = ResumeStore(out / STATE_DIR / "resume.sqlite")
        total_docs = params.docs * len(group_order(params))
        self.workers = workers if workers is not None else (0 if total_docs < PROCESS_THRESHOLD_DOCS else None)
        self._pool: Executor | None = None
        self._pool_lock = threading.Lock()  # the Prefect path asks from several task threads
        self._closed = False
        self._waiters: set[Future] = set()  # futures handed out for work in the worker processes
        self.stage_seconds = {"documents": 0.0, "questions": 0.0}
        self.finished: dict[Batch, DocumentsResult] = {}  # documents of this run's batches, by batch
        mark_build_started(out, params)

    # -- lifecycle -------------------------------------------------------------------------

    def __enter__(self) -> Builder:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        self.close(abort=exc_type is not None)

    def close(self, abort: bool = False) -> None:
        """Stop the workers (at once when the build is being abandoned: Ctrl-C, SIGTERM, an
        error) and close the store; what finished is already in it."""
        with self._pool_lock:  # a task thread asking for the pool now gets an error, not a new pool
            pool, self._pool, self._closed = self._pool, None, True
            waiters, self._waiters = self._waiters, set()
        if pool is not None:
            if abort:
                processes = list(getattr(pool, "_processes", {}).values())
                for process in processes:
                    process.terminate()
                for process in processes:
                    process.join(timeout=5)
                # A worker killed while it was writing a result leaves half a message in the result
                # pipe; the pool's manager thread would wait for the rest for ever (and the command
                # with it, at exit). With the workers gone, closing this process's own write end
                # makes that read end in EOF: the pool counts itself broken and its thread ends.
                writer = getattr(getattr(pool, "_result_queue", None), "_writer", None)
                if writer is not None:
                    writer.close()
            pool.shutdown(wait=not abort, cancel_futures=True)
        # a worker killed mid-task may never report: whoever waits for one is told the build stopped
        for waiter in list(waiters):
            _settle(waiter, error=DragonforgeError("the build was stopped"))
        self.store.close()

    def _waiter(self) -> Future:
        """A future a caller waits on for a worker's result, failed by :meth:`close` if still open."""
        fut: Future = Future()
        with self._pool_lock:
            if self._closed:
                raise DragonforgeError("the build was stopped")
            self._waiters.add(fut)
        fut.add_done_callback(self._waiters.discard)
        return fut

    def _executor(self) -> Executor | None:
        if self.workers == 0:
            return None
        with self._pool_lock:
            if self._closed:
                raise DragonforgeError("the build was stopped")
            if self._pool is None:
                self._pool = worker_pool(self.workers)
            return self._pool

    # -- offline stages --------------------------------------------------------------------

    def plan(self) -> dict[Group, list[Batch]]:
        plan = pipeline.plan_batches(self.params, self.batch_size)
        self.progress.start("documents", self.params.docs * len(plan))
        self.progress.start("questions", len(plan))
        return plan

    def _submit(self, stage: str, key: str, adapter: TypeAdapter, work: Callable, *args: Any,
                on_done: Callable[[Any], None]) -> Future:
        cached = self.store.get(key, adapter)
        if cached is not None:
            on_done(cached)
            return _done(cached)
        executor = self._executor()
        if executor is None:
            value = work(*args)
            self.store.put(key, stage, adapter, value)
            on_done(value)
            return _done(value)
        # The future handed back is resolved only after ``on_done`` has run: a caller woken by
        # the worker's own future could otherwise read ``self.finished`` before the callback
        # filled it in (concurrent.futures wakes waiters first, then runs callbacks).
        stored: Future = self._waiter()

        def finished(f: Future) -> None:
            if f.cancelled():  # the build was abandoned: whoever waits must not wait for ever
                _settle(stored, error=RuntimeError(f"{stage} was cancelled"))
                return
            if f.exception() is not None:
                _settle(stored, error=f.exception())
                return
            try:
                self.store.put(key, stage, adapter, f.result())
                on_done(f.result())
            except BaseException as exc:
                _settle(stored, error=exc)
                return
            _settle(stored, f.result())

        executor.submit(work, *args).add_done_callback(finished)
        return stored

    def submit_documents(self, batch: Batch) -> Future:
        """Configs and documents of one batch (a future of :class:`DocumentsResult`)."""
        key = documents_key(batch, self.params)

        def done(r: DocumentsResult) -> None:
            self.finished[batch] = r
            self.stage_seconds["documents"] += r.seconds
            self.progress.advance("documents", len(batch.doc_ids))

        return self._submit("documents", key, _DOCUMENTS, documents_work, batch, self.params.seed,
                            registry().folders(), on_done=done)

    def submit_questions(self, group: Group, parts: list[DocumentsResult]) -> Future:
        """Questions of one group from its batches' documents (a future of :class:`QuestionsResult`)."""
        configs = [c for p in parts for c in p.configs]
        documents = [d for p in parts for d in p.documents]
        params = self.params
        key = questions_key([content_digest(p) for p in parts], params)

        def done(r: QuestionsResult) -> None:
            self.stage_seconds["questions"] += r.seconds
            self.progress.advance("questions")

        return self._submit("questions", key, _QUESTIONS, questions_work, configs, documents, params,
                            registry().folders(), on_done=done)

    def submit_group(self, group: Group, batches: list[Batch]) -> Future:
        """A whole group (a future of its :class:`QuestionsResult`): what the store holds is read
        back, the rest is made in one worker process and stored as it would be stage by stage."""
        executor = self._executor()
        keys = [documents_key(b, self.params) for b in batches]
        finished = {i: r for i, k in enumerate(keys) if (r := self.store.get_raw(k, _DOCUMENTS)) is not None}
        if executor is None or len(finished) == len(batches):
            for batch in batches:
                self.submit_documents(batch)
            return self.submit_questions(group, [self.finished[b] for b in batches])
        fut: Future = self._waiter()

        def finished_group(f: Future) -> None:
            if f.cancelled():
                _settle(fut, error=RuntimeError("the group was cancelled"))
                return
            if f.exception() is not None:
                _settle(fut, error=f.exception())
                return
            try:
                _settle(fut, store_group(*f.result()))
            except BaseException as exc:  # a full disk, say: the waiter must hear of it, not hang
                _settle(fut, error=exc)

        def store_group(parts_json, digests, questions_json) -> QuestionsResult:
            for i, (batch, data) in enumerate(zip(batches, parts_json, strict=False)):
                if i not in finished:
                    self.store.put_raw(keys[i], "documents", data)
                part = _DOCUMENTS.validate_json(data)
                self.finished[batch] = part
                self.stage_seconds["documents"] += part.seconds
                self.progress.advance("documents", len(batch.doc_ids))
            key = questions_key(digests, self.params)
            questions = self.store.get(key, _QUESTIONS)
            if questions is None:
                self.store.put_raw(key, "questions", questions_json)
                questions = _QUESTIONS.validate_json(questions_json)
            self.stage_seconds["questions"] += questions.seconds
            self.progress.advance("questions")
            return questions

        executor.submit(group_work, batches, finished, self.params, registry().folders()
                        ).add_done_callback(finished_group)
        return fut

    def documents(self, batch: Batch) -> None:
        """Make (or read back) one batch's documents; :meth:`group` joins them."""
        self.submit_documents(batch).result()

    def questions(self, group: Group, batches: list[Batch]) -> QRAResult:
        return self.submit_questions(group, [self.finished[b] for b in batches]).result().result

    def group(self, batches: list[Batch]) -> tuple[list[Config], list[Document]]:
        parts = [self.finished[b] for b in batches]
        return [c for p in parts for c in p.configs], [d for p in parts for d in p.documents]

    # -- LLM engines -----------------------------------------------------------------------

    def start_llm(self, settings) -> None:
        from dragonforge.llm import LLMAccount

        state = self.out / STATE_DIR
        self.calls_log = state / "calls-run.jsonl"
        self.calls_log.unlink(missing_ok=True)
        self.settings = settings
        self.account = LLMAccount(settings, self.calls_log)
        self.account.on_call = self._report_llm_progress
        self.fallbacks: dict[str, int] = {}
        self.llm_seconds = 0.0
        ids = pipeline.doc_id_ranges(self.params)
        self.progress.start("documents", self.params.docs * len(ids))
        self.progress.start("questions", len(ids))

    def llm_group(self, group: Group) -> tuple[list[Config], list[Document], QRAResult]:
        """One (domain, language) group through the LLM stages. Its replies are cached, so a
        rerun replays every reply it already has (and counts it)."""
        from dragonforge.llm import StructuredLLM
        from dragonforge.llm_stages import Fallbacks

        t0 = time.perf_counter()
        params = self.params
        doc_ids = pipeline.doc_id_ranges(params)[group]
        configs = pipeline.configs_stage(group[0], group[1], doc_ids, params.seed, 0)
        fallbacks = Fallbacks()

        async def run():
            llm = StructuredLLM(self.settings, cache_path=self.out / STATE_DIR / "llm-cache.sqlite",
                                account=self.account)
            try:
                return await pipeline.llm_group(llm, params.engine, configs, params.docs * params.queries_per_doc,
                                                params.question_mix, params.seed, fallbacks)
            finally:
                await llm.aclose()

        result = asyncio.run(run())
        for stage, n in fallbacks.counts.items():
            self.fallbacks[stage] = self.fallbacks.get(stage, 0) + n
        self.llm_seconds += time.perf_counter() - t0
        self.progress.advance("documents", len(doc_ids))
        self.progress.advance("questions")
        return result

    def _report_llm_progress(self, stage: str) -> None:
        account = self.account
        if (account.calls + account.cache_hits) % 10 == 0:
            self.progress.note(f"llm: {account.calls} calls, {account.cache_hits} cache hits, {account.tokens:,} "
                               f"tokens, cost {account.cost:.4f} (last stage: {stage})")

    # -- files -----------------------------------------------------------------------------

    def write(self, groups: dict[Group, tuple[list[Config], list[Document], QRAResult]]) -> Manifest:
        build = pipeline.assemble(self.params, groups)
        if self.params.engine != "offline":
            self.account.close()
            s = self.settings
            build.llm = {"base_url": urls.public(s.base_url), "model": s.model, "api_key_env": s.api_key_env,
                         "temperature": s.temperature, "max_tokens": s.max_tokens, "seed": s.seed,
                         "concurrency": s.concurrency, "cache": s.use_cache}
            build.llm_usage = self.account.report()
            build.fallbacks = self.fallbacks
            build.calls_log = self.calls_log
            timings = {"llm_group_task_seconds": self.llm_seconds}
        else:
            timings = {"documents_task_seconds": self.stage_seconds["documents"],
                       "questions_task_seconds": self.stage_seconds["questions"]}
        timings["generate_seconds"] = time.perf_counter() - self.t0
        return write_benchmark(self.out, self.params, build, timings)


def build(out: Path, params: BuildParams, *, llm_settings=None, batch_size: int = 50,
          progress: Progress | None = None, workers: int | None = None) -> Manifest:
    """Build (or finish building) the benchmark of ``params`` into ``out``, in this process.

    ``workers``: processes for an offline build (0: none; None: one per core when the build is
    large enough to gain from them)."""
    if params.engine != "offline" and llm_settings is None:
        raise DragonforgeError(f"the {params.engine} engine needs an LLM endpoint (--base-url and --model)")
    with Builder(out, params, batch_size=batch_size, progress=progress, workers=workers) as b:
        if params.engine != "offline":
            b.start_llm(llm_settings)
            try:
                groups = {group: b.llm_group(group) for group in group_order(params)}
            except BaseException:
                b.account.close()
                raise
            return b.write(groups)
        plan = b.plan()
        question_futures = {group: b.submit_group(group, batches) for group, batches in plan.items()}
        groups = {}
        for g in group_order(params):
            questions = question_futures[g].result().result
            groups[g] = (*b.group(plan[g]), questions)
        return b.write(groups)

