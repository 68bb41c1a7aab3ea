"""The ``evaluate`` flow: the library's evaluation steps as Prefect tasks.

Answers are kept by the library's resume store as they arrive and LLM replies are cached, so
a rerun (on either path) asks the system and the judge only for what is missing.
"""

from __future__ import annotations

from pathlib import Path

from dragonforge.flows._env import configure_prefect

configure_prefect()

from prefect import flow, task  # noqa: E402
from prefect.artifacts import create_markdown_artifact  # noqa: E402
from prefect.cache_policies import NO_CACHE  # noqa: E402

from dragonforge.evaluate import EvalConfig  # noqa: E402
from dragonforge.evaluator import Evaluation  # noqa: E402
from dragonforge.flows.build import _retry_unless_ours  # noqa: E402
from dragonforge.progress import NullProgress, Progress  # noqa: E402

_progress: Progress = NullProgress()


def set_progress(progress: Progress) -> None:
    global _progress
    _progress = progress


# Tasks take the run and keep what they make on it: Prefect walks every task argument, which
# for ten thousand answers costs more than the work.
@task(name="answer", cache_policy=NO_CACHE, persist_result=False)
def answer_task(run: Evaluation) -> None:
    """Not retried: a query that failed is recorded as failed, and asked again on a rerun."""
    run.answered, run.answer_usage = run.answers()


@task(name="judge", cache_policy=NO_CACHE, persist_result=False, retries=1, retry_condition_fn=_retry_unless_ours)
def judge_task(run: Evaluation) -> None:
    run.judged = run.judge(run.answered)


@task(name="score-and-write", cache_policy=NO_CACHE, persist_result=False)
def score_task(run: Evaluation) -> dict:
    assert run.judged is not None, "the judge task runs first"
    records, scores = run.score(run.answered, run.judged, run.answer_usage)
    run.write(records, scores, run.answered, run.judged)
    return scores.to_json()


@flow(name="evaluate", log_prints=False, validate_parameters=False)
def evaluate_flow(out_dir: str, config: EvalConfig, llm_settings=None, concurrency: int = 8, embedder=None,
                  timeout_s: float = 60.0) -> dict:
    """Inputs are read from ``config.benchmark`` / ``config.predictions`` inside the flow, so
    Prefect records paths, not ten thousand queries."""
    run = Evaluation(Path(out_dir), config, llm_settings=llm_settings, concurrency=concurrency, embedder=embedder,
                     timeout_s=timeout_s, progress=_progress)
    try:
        answer_task(run)
        if config.judge == "lexical":  # a fast local computation: no task boundary for it to cross
            run.judged = run.judge(run.answered)
        else:
            judge_task(run)
        scores = score_task(run)
    finally:
        run.close()
    overall = scores["overall"]
    rows = [f"| {k} | {overall[k]:.3f} |" for k in ("recall", "eir", "completeness", "hallucination",
                                                   "irrelevance", "rouge_l") if overall.get(k) is not None]
    create_markdown_artifact(key="evaluation-scores", description=f"dragonforge evaluate into {out_dir}",
                             markdown=f"**{config.system}**: {scores['counts']['queries']} queries\n\n"
                                      "| metric | value |\n|---|---|\n" + "\n".join(rows))
    return scores
