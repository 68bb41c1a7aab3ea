"""The evaluator's records: what ``evaluate`` reads and writes, as typed models.

A benchmark query as read is ``models.DBQuery`` (with its ``keypoint_facts``, ``models.KeypointFact``)
and a prediction ``models.DBPrediction``; this module holds what scoring makes of them: one
``QueryRecord`` per query (a line of ``per_query.jsonl``), and ``ScoresFile``, the whole of
``scores.json``, with its ``Counts`` and the LLM ``Usage`` by stage and model.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dragonforge.judge import KeypointLabel
from dragonforge.models import DBPrediction, DBQuery, KeypointFact

__all__ = ["BenchmarkQuery", "Counts", "Failure", "KeypointFact", "Prediction", "QueryRecord", "ScoresFile", "Usage"]

BenchmarkQuery = DBQuery  # a query of queries.jsonl as read: validated, extra fields kept
Prediction = DBPrediction

Failure = Literal["missing_document", "retrieval_miss", "ranking_error", "context_overflow",
                  "generation_hallucination", "citation_error", "policy_failure"]


class _Record(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=False)


class QueryRecord(_Record):
    """Every metric of one query under its name (``None`` where it does not apply), the judge's labels
    and the failure label: one line of ``per_query.jsonl``. Field order is the file's column order."""

    query_id: int
    query_type: str
    language: str
    domain: str | None = None
    recall: float | None = None
    eir: float | None = None
    precision: float | None = None
    recall_at_k: float | None = None
    mrr: float | None = None
    ndcg_at_k: float | None = None
    context_precision: float | None = None
    context_recall: float | None = None
    judge_failures: int = 0  # keypoints the judge left unlabelled
    completeness: float | None = None
    hallucination: float | None = None
    irrelevance: float | None = None
    labels: list[KeypointLabel | None] = Field(default_factory=list)
    rouge_l: float | None = None
    faithfulness: float | None = None
    answer_relevancy: float | None = None
    refusal_accuracy: float | None = None
    refused: bool = False
    retrieval_agreement: float | None = None
    llm_failures: list[str] = Field(default_factory=list)  # LLM-mode metrics that failed, with why
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None
    error: str | None = None  # the system failed on this query
    answer: str = ""
    failure: Failure | None = None


class Usage(_Record):
    """What one model did for one stage: requests, cache hits, tokens, cost and what went wrong."""

    calls: int = 0
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    retries: int = 0
    repairs: int = 0
    failures: int = 0


class Counts(_Record):
    queries: int
    by_type: dict[str, int]
    by_language: dict[str, int]
    left_out_of_retrieval_means: int  # the most queries any retrieval mean leaves out
    left_out_by_metric: dict[str, int]
    system_errors: int
    missing_predictions: int
    judge_failures: int
    llm_metric_failures: int
    failures: dict[str, int]


class Timings(_Record):
    seconds: float


Means = dict[str, float | None]


class ScoresFile(_Record):
    """``scores.json``: means overall and by question type, language and domain; counts; the run's
    configuration; how each metric was computed; and, where an LLM was used, its usage by stage."""

    overall: Means
    by_type: dict[str, Means]
    by_language: dict[str, Means]
    by_domain: dict[str, Means]
    counts: Counts
    config: dict[str, Any]  # evaluate.EvalConfig, as dumped
    methods: dict[str, str]
    timings: Timings | None = None
    llm_usage: dict[str, dict[str, Usage]] | None = None  # stage -> model -> usage

    def to_json(self) -> dict[str, Any]:
        """The file's content; ``timings`` and ``llm_usage`` only where the run has them."""
        out = self.model_dump(mode="json")
        for name in ("timings", "llm_usage"):
            if out[name] is None:
                del out[name]
        return out
