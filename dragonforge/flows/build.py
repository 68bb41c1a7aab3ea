"""The ``build_benchmark`` flow: the library's build steps as Prefect tasks.

Each batch's configs and documents, each group's questions and each LLM group is a task;
the resume store (``dragonforge.resume``) is the cache on this path too, with the same
content keys, so the in-process and Prefect paths write byte-identical files and either can
resume the other's interrupted build. Prefect's own result persistence stays off: its result
records name the serializer that reads them back (pickle by default), which is code execution
for anyone who can write the output directory.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from dragonforge.flows._env import configure_prefect

configure_prefect()

from prefect import flow, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402
from prefect.task_runners import ThreadPoolTaskRunner  # noqa: E402

from dragonforge.benchmark import group_order  # noqa: E402
from dragonforge.builder import Builder, Group  # noqa: E402
from dragonforge.errors import DragonforgeError  # noqa: E402
from dragonforge.models import BuildParams, Config, Document, Manifest  # noqa: E402
from dragonforge.pipeline import Batch, QRAResult  # noqa: E402
from dragonforge.progress import NullProgress, Progress  # noqa: E402

_progress: Progress = NullProgress()
# The task threads only wait: the CPU-bound work runs in the builder's worker processes.
_RUNNER: ThreadPoolTaskRunner[Any] = ThreadPoolTaskRunner(max_workers=4)


def set_progress(progress: Progress) -> None:
    global _progress
    _progress = progress


def _retry_unless_ours(task, task_run, state) -> bool:
    """Retry unexpected failures (a worker process lost, a dropped connection); a spent budget,
    a dead endpoint or bad input will not mend on retry."""
    try:
        state.result()
    except DragonforgeError:
        return False
    except Exception:
        return True
    return False


_TASK: dict[str, Any] = dict(cache_policy=NO_CACHE, persist_result=False, retries=1,
                             retry_condition_fn=_retry_unless_ours)


# Tasks take the builder and small keys (batches, groups), never the documents themselves:
# Prefect walks every task argument, which for a hundred documents costs more than the work.
@task(name="configs-and-documents", **_TASK)
def documents_task(builder: Builder, batch: Batch) -> None:
    builder.documents(batch)


@task(name="questions", **_TASK)
def questions_task(builder: Builder, group: Group, batches: list[Batch]) -> QRAResult:
    return builder.questions(group, batches)


@task(name="llm-group", **_TASK)
def llm_group_task(builder: Builder, group: Group) -> tuple[list[Config], list[Document], QRAResult]:
    return builder.llm_group(group)


@task(name="write-benchmark", cache_policy=NO_CACHE, persist_result=False)
def write_task(builder: Builder) -> Manifest:
    return builder.write(builder.groups)


# Prefect types ``task_runner`` as the invariant TaskRunner[PrefectFuture[Any]], which no runner of
# its own matches (ThreadPoolTaskRunner is a TaskRunner[PrefectConcurrentFuture]); it casts the same way inside.
@flow(name="build_benchmark", task_runner=_RUNNER,  # type: ignore[arg-type]
      log_prints=False, validate_parameters=False)
def build_benchmark(out_dir: str, params: BuildParams, batch_size: int = 50, llm_settings=None,
                    workers: int | None = None) -> Manifest:
    if params.engine != "offline" and llm_settings is None:
        raise DragonforgeError(f"the {params.engine} engine needs an LLM endpoint (--base-url and --model)")
    with Builder(Path(out_dir), params, batch_size=batch_size, progress=_progress, workers=workers) as b:
        if params.engine != "offline":
            b.start_llm(llm_settings)
            try:
                groups = {group: llm_group_task(b, group) for group in group_order(params)}
            except BaseException:
                b.account.close()
                raise
        else:
            plan = b.plan()
            doc_futures = {g: [documents_task.submit(b, batch) for batch in batches] for g, batches in plan.items()}
            question_futures = {}
            for g, futures in doc_futures.items():
                for f in futures:
                    f.result()
                question_futures[g] = questions_task.submit(b, g, plan[g])
            groups = {g: (*b.group(plan[g]), question_futures[g].result()) for g in group_order(params)}
        b.groups = groups
        manifest = write_task(b)
    _artifact(out_dir, manifest)
    return manifest


def _artifact(out_dir: str, manifest: Manifest) -> None:
    rows = [f"| {domain} | {language} | {sum(by_type.values())} |"
            for domain, by_lang in manifest.counts.items() for language, by_type in by_lang.items()]
    create_markdown_artifact(
        key="benchmark-counts", description=f"dragonforge build into {out_dir}",
        markdown=(f"**{manifest.documents} documents, {manifest.queries} queries, {manifest.rejected} rejected** "
                  f"in `{out_dir}`\n\n| domain | language | queries |\n|---|---|---|\n" + "\n".join(rows)))
