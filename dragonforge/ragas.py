"""Ragas-style metrics and the LLM-retEval agreement, with an LLM (method.md §3).

Each metric makes the structured calls its definition needs, one prompt per stage
(``prompts/<stage>.<language>.j2``):

- faithfulness: the answer's claims (``claims``), then a verdict per claim against the retrieved
  context (``support``); supported claims / claims.
- context precision@K: a usefulness verdict per top-K chunk against the ground-truth answer
  (``context_use``), fed to ``metrics.context_precision_at_k``.
- answer relevancy: n questions written back from the answer (``questions``), embedded with the
  question through an OpenAI-compatible embeddings endpoint; the mean cosine similarity. A
  noncommittal answer scores 0, as in Ragas.
- retrieval agreement (LLM-retEval): whether the answer written from the retrieved chunks agrees
  with the one the same generator writes from the gold references (``agreement``).

A reply that fails its checks leaves its metric ``None`` for that query and is recorded as a
failure (``"stage: reason"``); it never becomes a guess.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any, Protocol

import numpy as np
from pydantic import BaseModel, Field

from dragonforge import metrics
from dragonforge.judge import is_refusal
from dragonforge.llm import BudgetExceeded, LLMUnavailable, StructuredLLM
from dragonforge.prompts import render_prompt

N_QUESTIONS = 3  # questions written back from an answer (Ragas uses 3)


class ClaimsReply(BaseModel):
    """stage `claims`: the answer's standalone factual statements (none for a refusal)."""

    claims: list[str] = Field(default_factory=list)


class _Support(BaseModel):
    claim: int = Field(ge=1)
    supported: bool
    reason: str = ""


class SupportReply(BaseModel):
    """stage `support`: one verdict per numbered claim."""

    verdicts: list[_Support] = Field(min_length=1)


class _Use(BaseModel):
    passage: int = Field(ge=1)
    useful: bool
    reason: str = ""


class ContextUseReply(BaseModel):
    """stage `context_use`: one verdict per numbered retrieved passage."""

    verdicts: list[_Use] = Field(min_length=1)


class QuestionsReply(BaseModel):
    """stage `questions`: questions the answer responds to; noncommittal for evasive answers."""

    questions: list[str] = Field(min_length=1)
    noncommittal: bool = False


class AgreementReply(BaseModel):
    """stage `agreement`: whether the answer from retrieved chunks agrees with the gold one."""

    agree: bool
    reason: str = ""


REPLIES: dict[str, type[BaseModel]] = {"claims": ClaimsReply, "support": SupportReply, "context_use": ContextUseReply,
                                       "questions": QuestionsReply, "agreement": AgreementReply}


class Embeds(Protocol):
    async def embed(self, texts: list[str]) -> np.ndarray: ...  # one unit-length row per text


@dataclass
class Scores:
    """The LLM-mode metrics of one query; a metric that failed is ``None`` with a reason."""

    values: dict[str, float | None] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)


class _Failed(Exception):
    """A reply that did not pass its checks: the metric is left empty and the reason recorded."""


async def _ask(llm: StructuredLLM, stage: str, language: str, **variables: Any) -> Any:
    reply_model = REPLIES[stage]
    messages = render_prompt(stage, language, schema_json=json.dumps(reply_model.model_json_schema(),
                                                                     ensure_ascii=False), **variables)
    done = await llm.complete(stage, messages, reply_model, language)
    if not done.ok:
        raise _Failed(f"{stage}: {done.failure.reason if done.failure else 'no valid reply'}")
    return done.value


def _numbered(verdicts: list[Any], key: str, n: int, stage: str) -> list[Any]:
    """The verdicts for items 1..n in order; a reply that skips one fails."""
    by_number = {getattr(v, key): v for v in verdicts}
    missing = [i for i in range(1, n + 1) if i not in by_number]
    if missing:
        raise _Failed(f"{stage}: no verdict for {key} {', '.join(map(str, missing))} of {n}")
    return [by_number[i] for i in range(1, n + 1)]


async def faithfulness(llm: StructuredLLM, question: str, answer: str, contexts: list[str], language: str) -> float:
    claims = [c.strip() for c in (await _ask(llm, "claims", language, question=question, answer=answer)).claims
              if c.strip()]
    if not claims:
        raise _Failed("claims: no claim found in a non-empty answer")
    if not contexts:
        return 0.0  # nothing retrieved supports anything
    reply = await _ask(llm, "support", language, contexts=contexts, claims=claims)
    verdicts = _numbered(reply.verdicts, "claim", len(claims), "support")
    return sum(v.supported for v in verdicts) / len(claims)


async def context_precision(llm: StructuredLLM, question: str, reference_answer: str, contexts: list[str], k: int,
                            language: str) -> float:
    top = contexts[:k]
    if not top:
        return 0.0
    reply = await _ask(llm, "context_use", language, question=question, reference_answer=reference_answer,
                       contexts=top)
    verdicts = _numbered(reply.verdicts, "passage", len(top), "context_use")
    return metrics.context_precision_at_k([v.useful for v in verdicts], k)


async def answer_relevancy(llm: StructuredLLM, embedder: Embeds, question: str, answer: str, language: str) -> float:
    reply = await _ask(llm, "questions", language, answer=answer, n=N_QUESTIONS)
    questions = [q.strip() for q in reply.questions if q.strip()]
    if reply.noncommittal:
        return 0.0
    if not questions:
        raise _Failed("questions: only empty questions")
    try:
        vectors = await embedder.embed([question] + questions)
    except (BudgetExceeded, asyncio.CancelledError):
        raise
    except Exception as exc:  # the embeddings endpoint failed for this query
        raise _Failed(f"embeddings: {type(exc).__name__}: {exc}") from None
    return float(np.clip(vectors[1:] @ vectors[0], -1.0, 1.0).mean())


async def agreement(llm: StructuredLLM, question: str, answer: str, oracle_answer: str, language: str) -> float:
    if " ".join(answer.split()) == " ".join(oracle_answer.split()):
        return 1.0
    refused = is_refusal(answer, language) or not answer.strip()
    oracle_refused = is_refusal(oracle_answer, language) or not oracle_answer.strip()
    if refused or oracle_refused:
        return 1.0 if refused and oracle_refused else 0.0
    reply = await _ask(llm, "agreement", language, question=question, answer=answer, oracle_answer=oracle_answer)
    return 1.0 if reply.agree else 0.0


async def score(llm: StructuredLLM, embedder: Embeds | None, *, question: str, answer: str, contexts: list[str],
                reference_answer: str | None, oracle_answer: str | None, k: int, language: str,
                unanswerable: bool) -> Scores:
    """Every LLM-mode metric that applies to one query, concurrently.

    Not applicable (``None``, not a failure): faithfulness for an empty or refusing answer;
    context precision without a reference answer; answer relevancy for an unanswerable question
    or without an embedder; agreement without an oracle answer (external systems)."""
    answered = bool(answer.strip()) and not is_refusal(answer, language)
    out = Scores()
    jobs: dict[str, Any] = {}
    if answered:
        jobs["faithfulness"] = faithfulness(llm, question, answer, contexts, language)
    if reference_answer and not unanswerable:
        jobs["context_precision"] = context_precision(llm, question, reference_answer, contexts, k, language)
    if embedder is not None and not unanswerable:
        if answered:
            jobs["answer_relevancy"] = answer_relevancy(llm, embedder, question, answer, language)
        else:
            out.values["answer_relevancy"] = 0.0  # an empty or refusing answer is noncommittal
    if oracle_answer is not None:
        jobs["retrieval_agreement"] = agreement(llm, question, answer, oracle_answer, language)
    results = await asyncio.gather(*jobs.values(), return_exceptions=True)
    for name, result in zip(jobs, results, strict=False):
        if isinstance(result, (BudgetExceeded, LLMUnavailable)):
            raise result  # a spent budget or a dead endpoint stops the run; finished replies are cached
        if isinstance(result, _Failed):
            out.values[name] = None
            out.failures.append(f"{name}: {result}")
        elif isinstance(result, BaseException):
            raise result
        else:
            out.values[name] = round(float(result), 6)
    return out

