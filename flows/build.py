"""The ``build_benchmark`` flow: configs and documents per batch, QRA per group, then files.

Tasks work on batches (never one task per sentence), run with bounded concurrency and
retries, and persist their results under ``<out>/.dragonforge/cache`` keyed by everything
their output depends on (parameters, batch, templates, code), so a rerun of the same
command (after an interruption too) reuses finished work.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
from pathlib import Path

from flows._env import configure_prefect

configure_prefect()

from prefect import flow, task  # noqa: E402
from prefect.task_runners import ThreadPoolTaskRunner  # noqa: E402

from dragonforge import pipeline  # noqa: E402
from dragonforge.benchmark import (  # noqa: E402
    cache_dir, code_version, group_order, mark_build_started, write_benchmark,
)
from dragonforge.errors import DragonforgeError  # noqa: E402
from dragonforge.llm import LLMAccount, LLMSettings, StructuredLLM  # noqa: E402
from dragonforge.llm_stages import Fallbacks  # noqa: E402
from dragonforge.models import BuildParams, Manifest  # noqa: E402
from dragonforge.progress import NullProgress, Progress  # noqa: E402
from dragonforge.resources import resource_dir, resource_hashes  # noqa: E402

_progress: Progress = NullProgress()
_account: LLMAccount | None = None


def set_progress(progress: Progress) -> None:
    global _progress
    _progress = progress


def _key_from_parameters(_context, parameters) -> str:
    return parameters["cache_key"]


_TASK_OPTIONS = dict(retries=2, retry_delay_seconds=1, persist_result=True, cache_key_fn=_key_from_parameters)


@task(name="configs-and-documents", **_TASK_OPTIONS)
def documents_task(batch: pipeline.Batch, seed: int, cache_key: str):
    t0 = time.perf_counter()
    configs = pipeline.configs_stage(batch.domain, batch.language, list(batch.doc_ids), seed, batch.first_index)
    documents = pipeline.documents_stage(configs, seed)
    _progress.advance("documents", len(batch.doc_ids))
    return configs, documents, time.perf_counter() - t0


@task(name="questions", **_TASK_OPTIONS)
def qra_task(configs, documents, params: BuildParams, cache_key: str):
    t0 = time.perf_counter()
    result = pipeline.qra_stage(configs, documents, params.docs * params.queries_per_doc, params.question_mix,
                                params.seed)
    _progress.advance("questions")
    return result, time.perf_counter() - t0


def _retry_unless_ours(task, task_run, state) -> bool:
    """Retry unexpected failures; a spent budget or a dead endpoint will not mend on retry."""
    try:
        state.result()
    except DragonforgeError:
        return False
    except Exception:
        return True
    return False


@task(name="llm-group", retries=1, retry_condition_fn=_retry_unless_ours)
def llm_group_task(batch: pipeline.Batch, params: BuildParams, settings: LLMSettings, cache_path: str):
    """One (domain, language) group through the LLM stages. Not cached by Prefect: the
    response cache makes a rerun replay every reply it already has, and counts it."""
    t0 = time.perf_counter()
    configs = pipeline.configs_stage(batch.domain, batch.language, list(batch.doc_ids), params.seed, batch.first_index)
    fallbacks = Fallbacks()

    async def run():
        llm = StructuredLLM(settings, cache_path=Path(cache_path), account=_account)
        try:
            return await pipeline.llm_group(llm, params.engine, configs, params.docs * params.queries_per_doc,
                                            params.question_mix, params.seed, fallbacks)
        finally:
            await llm.aclose()

    configs, documents, result = asyncio.run(run())
    _progress.advance("documents", len(batch.doc_ids))
    _progress.advance("questions")
    return configs, documents, result, dict(fallbacks.counts), time.perf_counter() - t0


def _source_fingerprint() -> str:
    """Hash of the code and templates a task result depends on."""
    h = hashlib.sha256(code_version().encode())
    for name, digest in sorted(resource_hashes("templates", "schemas").items()):
        h.update(f"{name}={digest}".encode())
    package = resource_dir("templates").parent / "dragonforge"
    for path in sorted(package.rglob("*.py")) if package.is_dir() else []:
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _key(*parts: object) -> str:
    return hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:32]


@flow(name="build_benchmark", task_runner=ThreadPoolTaskRunner(max_workers=4), log_prints=False,
      validate_parameters=False)
def build_benchmark(out_dir: str, params: BuildParams, batch_size: int = 50,
                    llm_settings: LLMSettings | None = None) -> Manifest:
    out = Path(out_dir)
    t0 = time.perf_counter()
    mark_build_started(out, params)
    if params.engine != "offline":
        if llm_settings is None:
            raise DragonforgeError(f"the {params.engine} engine needs an LLM endpoint (--base-url and --model)")
        return _build_with_llm(out, params, llm_settings, t0)
    storage = cache_dir(out).resolve()
    docs_task = documents_task.with_options(result_storage=storage)
    questions_task = qra_task.with_options(result_storage=storage)
    source = _source_fingerprint()
    plan = pipeline.plan_batches(params, batch_size)
    _progress.start("documents", params.docs * len(plan))
    _progress.start("questions", len(plan))

    doc_futures = {
        group: [docs_task.submit(b, params.seed, cache_key=_key("docs", source, params.seed, b)) for b in batches]
        for group, batches in plan.items()
    }
    qra_futures = {}
    stage_seconds = {"documents": 0.0, "questions": 0.0}
    group_docs = {}
    for group, futures in doc_futures.items():
        configs, documents = [], []
        for fut in futures:
            c, d, seconds = fut.result()
            configs += c
            documents += d
            stage_seconds["documents"] += seconds
        group_docs[group] = (configs, documents)
        qra_key = _key("qra", source, params.model_dump_json(), group)
        qra_futures[group] = questions_task.submit(configs, documents, params, cache_key=qra_key)
    groups = {}
    for group in group_order(params):
        result, seconds = qra_futures[group].result()
        stage_seconds["questions"] += seconds
        groups[group] = (*group_docs[group], result)
    build = pipeline.assemble(params, groups)
    timings = {
        "documents_task_seconds": stage_seconds["documents"],
        "questions_task_seconds": stage_seconds["questions"],
        "generate_seconds": time.perf_counter() - t0,
    }
    return write_benchmark(out, params, build, timings)


def _build_with_llm(out: Path, params: BuildParams, settings: LLMSettings, t0: float) -> Manifest:
    """Groups one after another, each with the endpoint's full concurrency; usage, budget and
    the calls log are shared by all of them."""
    global _account
    state = cache_dir(out).parent
    calls_log = state / "calls-run.jsonl"
    calls_log.unlink(missing_ok=True)
    _account = LLMAccount(settings, calls_log)
    _account.on_call = _report_llm_progress
    ids = pipeline.doc_id_ranges(params)
    _progress.start("documents", params.docs * len(ids))
    _progress.start("questions", len(ids))
    groups, fallbacks, seconds = {}, {}, 0.0
    try:
        for group, doc_ids in ids.items():
            batch = pipeline.Batch(group[0], group[1], tuple(doc_ids), 0)
            configs, documents, result, group_fallbacks, took = llm_group_task.submit(
                batch, params, settings, str(state / "llm-cache.sqlite")).result()
            groups[group] = (configs, documents, result)
            seconds += took
            for stage, n in group_fallbacks.items():
                fallbacks[stage] = fallbacks.get(stage, 0) + n
    finally:
        _account.close()
    build = pipeline.assemble(params, groups)
    build.llm = {"base_url": _public_url(settings.base_url), "model": settings.model,
                 "api_key_env": settings.api_key_env, "temperature": settings.temperature,
                 "max_tokens": settings.max_tokens, "seed": settings.seed, "concurrency": settings.concurrency,
                 "cache": settings.use_cache}
    build.llm_usage = _account.report()
    build.fallbacks = fallbacks
    build.calls_log = calls_log
    timings = {"llm_group_task_seconds": seconds, "generate_seconds": time.perf_counter() - t0}
    return write_benchmark(out, params, build, timings)


def _public_url(url: str) -> str:
    """The endpoint without any user:password part."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    return urlunsplit(parts._replace(netloc=parts.hostname + (f":{parts.port}" if parts.port else ""))) \
        if parts.hostname else url


def _report_llm_progress(stage: str) -> None:
    account = _account
    if account is None:
        return
    done = account.calls + account.cache_hits
    if done % 10 == 0:
        _progress.note(f"llm: {account.calls} calls, {account.cache_hits} cache hits, {account.tokens:,} tokens, "
                       f"cost {account.cost:.4f} (last stage: {stage})")
