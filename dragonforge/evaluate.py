"""Scoring a RAG system on a benchmark: every metric of method.md §3, per query and aggregated.

The pieces: ``metrics`` (the formulas), ``judge`` (keypoint labels, offline) or the LLM judge
below, ``rag``/``systems`` (what produces answers). This module joins them: one record per
query with every metric under its name, the judge's labels and reasons, and a failure label;
then means overall and by question type, language and domain.
"""

from __future__ import annotations

import asyncio
import json
import math
from collections import defaultdict
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

from dragonforge import metrics
from dragonforge.errors import InputError, first_error
from dragonforge.files import read_jsonl
from dragonforge.judge import KeypointLabel, is_refusal, judge_keypoints
from dragonforge.models import UNANSWERABLE_ANSWER, DBQuery, QueryType
from dragonforge.records import Counts, Failure, Prediction, QueryRecord, ScoresFile
from dragonforge.systems import SystemAnswer

if TYPE_CHECKING:  # the LLM side is imported where it is used: scoring offline never loads it
    from dragonforge.llm import StructuredLLM
    from dragonforge.ragas import Embeds, Scores

JudgeName = Literal["lexical", "llm", "none"]

RETRIEVAL_METRICS = ("recall", "eir", "precision", "recall_at_k", "mrr", "ndcg_at_k", "context_precision",
                     "context_recall")
GENERATION_METRICS = ("completeness", "hallucination", "irrelevance", "rouge_l", "faithfulness",
                      "answer_relevancy", "refusal_accuracy", "retrieval_agreement")
SYSTEM_METRICS = ("latency_ms", "prompt_tokens", "completion_tokens", "cost")
FAILURES: tuple[str, ...] = get_args(Failure)  # the failure labels, in method.md §3 order
CONTEXT_OVERFLOW_CHARS = 6000  # retrieved context longer than this counts as overflowing a small prompt


class EvalConfig(BaseModel):
    """What a run was, recorded in scores.json."""

    model_config = ConfigDict(extra="forbid")

    system: str
    judge: JudgeName = "lexical"
    compat: Literal["default", "rageval"] = "default"
    k: int = Field(default=5, ge=1)
    top_k: int | None = None
    chunk_size: int | None = None
    overlap: int | None = None
    metadata_prefix: bool = False
    generator: str | None = None
    benchmark: str | None = None
    predictions: str | None = None
    llm_model: str | None = None
    embedding_model: str | None = None  # dense retrieval and (with the LLM judge) answer relevancy


# --- loading ----------------------------------------------------------------------------------


def load_benchmark(path: Path) -> tuple[list[dict], list[DBQuery]]:
    """documents.jsonl and queries.jsonl of a finished benchmark directory, each record checked
    against the DRAGONBall models that ``validate`` uses: a bad record is one line naming it.
    The queries are returned as those models; the documents as read."""
    from pydantic import ValidationError

    from dragonforge.models import DBDocument, DBQuery

    for name in ("documents.jsonl", "queries.jsonl"):
        if not (path / name).is_file():
            raise InputError(f"{path} has no {name} file: not a benchmark directory")
    rows: dict[str, list[dict]] = {}
    queries: list[DBQuery] = []
    for name, model, key in (("documents.jsonl", DBDocument, ("doc_id",)), ("queries.jsonl", DBQuery,
                                                                           ("query", "query_id"))):
        try:
            numbered = read_jsonl(path / name)
        except (ValueError, OSError, UnicodeDecodeError) as exc:
            raise InputError(f"{path / name} {str(exc).removeprefix(name + ' ')}") from None
        seen: dict[int, int] = {}
        for lineno, row in numbered:
            try:
                checked = model.model_validate(row)
            except ValidationError as exc:
                raise InputError(f"{path / name} line {lineno}: {first_error(exc)}") from None
            ident = row[key[0]] if len(key) == 1 else row[key[0]][key[1]]
            if ident in seen:
                raise InputError(f"{path / name} line {lineno}: {'.'.join(key)} {ident} again (first at line "
                                 f"{seen[ident]})")
            seen[ident] = lineno
            if isinstance(checked, DBQuery):
                queries.append(checked)
        rows[name] = [row for _, row in numbered]
    if not rows["documents.jsonl"]:
        raise InputError(f"{path / 'documents.jsonl'} holds no documents")
    return rows["documents.jsonl"], queries


def load_inputs(config: EvalConfig) -> tuple[list[dict], list[DBQuery], dict[int, SystemAnswer] | None]:
    """Documents, queries and, for a predictions file, the answers it holds."""
    from pydantic import ValidationError

    from dragonforge.systems import load_predictions

    documents, queries = (load_benchmark(Path(config.benchmark)) if config.benchmark else ([], []))
    if not config.predictions:
        return documents, queries, None
    by_id = {q.query.query_id: q for q in queries} if queries else None
    records = load_predictions(Path(config.predictions), by_id)
    answers: dict[int, SystemAnswer] = {}
    merged: list[DBQuery] = []
    for n, rec in enumerate(records, 1):
        qid = rec["query"]["query_id"]
        if by_id:
            base = by_id[qid]
        else:
            try:
                base = DBQuery.model_validate(rec)
            except ValidationError as exc:
                raise InputError(f"{config.predictions} record {n} (query {qid}): {first_error(exc)}") from None
        merged.append(base)
        pred = rec.get("prediction") or {}
        answers[qid] = SystemAnswer(query_id=qid, answer=pred.get("content") or "",
                                    contexts=list(pred.get("references") or []))
    if by_id:
        # A query the file leaves out is scored as failed (no answer, nothing retrieved) and
        # counted, so that a system cannot skip the hard questions.
        for qid, query in by_id.items():
            if qid not in answers:
                merged.append(query)
                answers[qid] = SystemAnswer(query_id=qid, answer="", contexts=[], error=MISSING_PREDICTION)
        order = {qid: i for i, qid in enumerate(by_id)}
        merged.sort(key=lambda q: order[q.query.query_id])
    return documents, merged, answers


MISSING_PREDICTION = "missing from the predictions file"


# --- the LLM judge ----------------------------------------------------------------------------


class _LLMLabel(BaseModel):
    keypoint: int = Field(ge=1)
    label: Literal["Relevant", "Irrelevant", "Wrong"]
    reason: str = ""


class JudgeReply(BaseModel):
    """stage `judge`: one label per keypoint, by keypoint number."""

    labels: list[_LLMLabel] = Field(min_length=1)


async def llm_judge(llm: StructuredLLM, question: str, answer: str, keypoints: list[str], language: str,
                    unanswerable: bool) -> list[KeypointLabel | None]:
    """One structured call per query; a keypoint the reply leaves unlabelled is ``None`` (a
    recorded failure), never a guess."""
    from dragonforge.prompts import render_prompt

    schema_json = json.dumps(JudgeReply.model_json_schema(), ensure_ascii=False)
    messages = render_prompt("judge", language, question=question, answer=answer or "",
                             keypoints=keypoints, unanswerable=unanswerable, schema_json=schema_json)
    done = await llm.complete("judge", messages, JudgeReply, language)
    if done.value is None:
        return [None] * len(keypoints)
    by_number = {item.keypoint: item for item in done.value.labels}
    return [KeypointLabel(keypoint=kp, label=by_number[i].label, reason=by_number[i].reason or "llm judge")
            if i in by_number else None for i, kp in enumerate(keypoints, 1)]


# --- per query --------------------------------------------------------------------------------


def _plain_keypoints(keypoints: list[str]) -> list[str]:
    import re

    return [re.sub(r"^\s*\d+\.\s*", "", kp) for kp in keypoints]


def score_query(query: DBQuery, answer: SystemAnswer, labels: Sequence[KeypointLabel | None], config: EvalConfig,
                documents: dict[int, dict], llm_scores: Scores | None = None,
                oracle_labels: list[KeypointLabel] | None = None) -> QueryRecord:
    """Every metric of one query, under its name; None where it does not apply.

    ``llm_scores`` (LLM judge) replace the offline approximations of faithfulness and context
    precision and add answer relevancy and retrieval agreement. Without them, retrieval
    agreement is approximated offline from ``oracle_labels``, the lexical judge's labels of the
    oracle answer: the two answers agree when every keypoint gets the same label."""
    q, gt = query.query, query.ground_truth
    language = query.language
    qtype = q.query_type
    refs: list[str] = gt.references
    compat = config.compat == "rageval"
    # repeats removed before every metric; compat mode keeps the reference implementation's own
    # three (recall, EIR, precision) on the list as returned, as its scripts do
    contexts = metrics.unique_chunks(answer.contexts)
    raw = answer.contexts if compat else contexts
    gold_docs = [documents[d]["content"] for d in gt.doc_ids if d in documents] or None
    record: dict[str, Any] = {"query_id": q.query_id, "query_type": qtype.value, "language": language,
                              "domain": query.domain}

    def retrieval(value: float | None) -> float | None:
        # A query without gold references has no retrieval score; the reference
        # implementation scores it 0 and averages it in, which compat mode reproduces.
        return (0.0 if compat else None) if value is None else value

    if refs or compat:
        record["recall"] = retrieval(metrics.recall(refs, raw, language) if refs else None)
        record["eir"] = retrieval(metrics.eir(refs, raw, language) if refs else None)
    else:
        record["recall"] = record["eir"] = None
    if compat:  # the reference implementation's own precision (see metrics.precision_compat)
        record["precision"] = metrics.precision_compat(refs, raw, language)
    else:
        record["precision"] = metrics.precision(refs, contexts, language, gold_docs) if refs else None
    record["recall_at_k"] = metrics.recall_at_k(refs, contexts, language, config.k) if refs else None
    record["mrr"] = metrics.mrr(refs, contexts, language, config.k, gold_docs) if refs else None
    record["ndcg_at_k"] = metrics.ndcg_at_k(refs, contexts, language, config.k, gold_docs) if refs else None
    relevance = [metrics.is_relevant(c, refs, language, gold_docs) for c in contexts[: config.k]] if refs else []
    record["context_precision"] = metrics.context_precision_at_k(relevance, config.k) if refs else None
    gold_answer = gt.content
    unanswerable = qtype is QueryType.UNANSWERABLE
    record["context_recall"] = (metrics.context_recall(gold_answer, contexts, language)
                                if refs and not unanswerable else None)

    judged = [lab for lab in labels if lab is not None]
    record["judge_failures"] = len(labels) - len(judged)
    if judged:
        record.update(metrics.keypoint_scores([lab.label for lab in judged]))
    else:
        record.update(completeness=None, hallucination=None, irrelevance=None)
    record["labels"] = labels
    rouge = metrics.rouge_l_compat if compat else metrics.rouge_l
    record["rouge_l"] = rouge(answer.answer, gold_answer, language)
    # Offline approximation of Ragas faithfulness: the share of the answer's sentences the
    # retrieved context supports (the same attribution test as context_recall).
    # An answer with no word in it (".", "-") claims nothing a context could support: 0, not 1.
    degenerate = metrics.degenerate(answer.answer)
    refused = not answer.error and not degenerate and is_refusal(answer.answer, language)
    record["faithfulness"] = (None if answer.error or refused else 0.0 if degenerate else
                              metrics.context_recall(answer.answer, contexts, language))
    record["answer_relevancy"] = None  # needs an LLM and embeddings; not approximated offline
    # An error or an empty answer is not a refusal: a system that failed on every query must not
    # score 1 on the questions it should decline (its errors are counted in counts.system_errors).
    record["refusal_accuracy"] = (1.0 if refused else 0.0) if unanswerable else None
    record["refused"] = refused
    record["retrieval_agreement"] = None
    if oracle_labels is not None and answer.oracle_answer is not None:
        record["retrieval_agreement"] = 1.0 if [lab.label for lab in oracle_labels] == [
            lab.label for lab in labels if lab is not None] else 0.0
    record["llm_failures"] = []
    if llm_scores is not None:
        record.update(llm_scores.values)
        record["llm_failures"] = llm_scores.failures
    for name in SYSTEM_METRICS:
        record[name] = getattr(answer, name)
    record["error"] = answer.error
    record["answer"] = answer.answer  # the retrieved chunks are in predictions.jsonl
    scored = QueryRecord(**record)
    scored.failure = failure_label(scored, qtype, contexts, gt.doc_ids, documents, language)
    return scored


def failure_label(record: QueryRecord, qtype: QueryType, contexts: list[str], doc_ids: list[int],
                  documents: dict[int, dict], language: str) -> Failure | None:
    """Why a query missed (method.md §3 list), or None when it did not.

    policy_failure: an unanswerable question answered with facts. missing_document: nothing
    retrieved comes from a gold document. retrieval_miss: the gold documents were reached but
    no reference sentence was. generation_hallucination: the answer contradicts a keypoint.
    ranking_error: only part of the evidence made it into the retrieved list. context_overflow:
    all evidence was there, in a context too long to use. citation_error: the answer holds the
    keypoints but its retrieved context does not support it. Otherwise the evidence was there and
    the answer left keypoints out: counted as a generation failure (generation_hallucination).
    """
    if record.error:
        return None  # the system failed: counted in counts.system_errors, not as a failure of its answer
    if qtype is QueryType.UNANSWERABLE:
        return None if record.refused or metrics.degenerate(record.answer) else "policy_failure"
    complete = record.completeness
    wrong = record.hallucination or 0
    if complete is None or (complete >= 1.0 and wrong == 0 and (record.recall or 0) > 0):
        return None
    if complete >= 1.0 and wrong == 0:
        return "citation_error"
    if doc_ids and contexts and not _touches(contexts, doc_ids, documents, language):
        return "missing_document"
    if not contexts:
        return "missing_document"
    if wrong > 0:
        return "generation_hallucination"
    recall = record.recall or 0
    if recall == 0:
        return "retrieval_miss"
    if recall < 1:
        return "ranking_error"
    if sum(len(c) for c in contexts) > CONTEXT_OVERFLOW_CHARS:
        return "context_overflow"
    return "generation_hallucination"


def _touches(contexts: list[str], doc_ids: list[int], documents: dict[int, dict], language: str) -> bool:
    """Whether any retrieved chunk comes from a gold document: most of its sentences are in
    it (one shared boilerplate sentence is not enough)."""
    for doc_id in doc_ids:
        doc = documents.get(doc_id)
        if not doc:
            return True  # without the documents we cannot tell: do not blame retrieval
        content = doc["content"]
        for chunk in contexts:
            sentences = [s for s in metrics.split_sentences(metrics.strip_metadata(chunk), language) if len(s) > 8]
            if sentences and sum(s in content for s in sentences) * 2 > len(sentences):
                return True
    return False


# --- aggregation ------------------------------------------------------------------------------


def aggregate(records: list[QueryRecord], config: EvalConfig) -> ScoresFile:
    names = RETRIEVAL_METRICS + GENERATION_METRICS + SYSTEM_METRICS

    def means(rows: list[QueryRecord]) -> dict[str, float | None]:
        out: dict[str, float | None] = {}
        for name in names:
            values = [v for r in rows if (v := getattr(r, name)) is not None]
            out[name] = round(sum(values) / len(values), 6) if values else None
        latencies = [r.latency_ms for r in rows if r.latency_ms is not None]
        out["latency_p50_ms"] = metrics.percentile(latencies, 50)
        out["latency_p95_ms"] = metrics.percentile(latencies, 95)
        return out

    def grouped(key: str) -> dict[str, dict[str, float | None]]:
        return {k: means(v) for k, v in _group(records, key).items()}

    # queries left out of some retrieval mean: in compat mode the reference implementation's three
    # (recall, EIR, precision) average them in as 0, but the IR metrics still leave them out
    retrieval_names = ("recall", "eir", "precision", "recall_at_k", "mrr", "ndcg_at_k", "context_precision")
    left_out = {name: sum(1 for r in records if getattr(r, name) is None) for name in retrieval_names}
    no_refs = max(left_out.values(), default=0)
    failures: dict[str, int] = {name: 0 for name in FAILURES}
    for r in records:
        if r.failure:
            failures[r.failure] += 1
    counts = Counts(
        queries=len(records),
        by_type={k: len(v) for k, v in _group(records, "query_type").items()},
        by_language={k: len(v) for k, v in _group(records, "language").items()},
        left_out_of_retrieval_means=no_refs,
        left_out_by_metric=left_out,
        system_errors=sum(1 for r in records if r.error),
        missing_predictions=sum(1 for r in records if r.error == MISSING_PREDICTION),
        judge_failures=sum(r.judge_failures for r in records),
        llm_metric_failures=sum(len(r.llm_failures) for r in records),
        failures=failures,
    )
    return ScoresFile(overall=means(records), by_type=grouped("query_type"), by_language=grouped("language"),
                      by_domain=grouped("domain"), counts=counts, config=config.model_dump(mode="json"),
                      methods=metric_methods(config))


def metric_methods(config: EvalConfig) -> dict[str, str]:
    """How the metrics whose method depends on the run were computed, for whoever reads scores.json."""
    llm = config.judge == "llm"
    builtin = config.system in ("bm25", "dense")
    unjudged = "not computed: --judge none"
    return {
        "keypoints": ("LLM judge, one structured call per query" if llm else unjudged if config.judge == "none"
                      else "lexical judge (offline)"),
        "faithfulness": ("LLM: claims extracted, each checked against the retrieved chunks" if llm else
                         "offline approximation: answer sentences whose values and content words a chunk holds"),
        "context_precision": ("LLM: usefulness of each top-K chunk for the gold answer" if llm else
                              "gold evidence: a chunk is relevant when it holds a reference sentence"),
        "context_recall": "offline: gold-answer sentences whose values and content words a chunk holds",
        "answer_relevancy": ("LLM questions from the answer, cosine similarity of embeddings"
                             if llm and config.embedding_model else
                             "not computed: needs --judge llm and --embedding-model"),
        "retrieval_agreement": ("not computed: only built-in systems can answer from the gold chunks" if not builtin
                                else "LLM compares the two answers" if llm else unjudged
                                if config.judge == "none" else
                                "offline: the lexical judge labels both answers the same"),
        "rouge_l": "rouge / rouge-chinese packages (reference implementation)" if config.compat == "rageval"
                   else "ROUGE-L F1 on words (jieba tokens for Chinese)",
        "retrieved_chunks": ("repeated chunks removed (first rank kept) before every metric"
                             + (" except the reference implementation's recall, EIR and precision, which see "
                                "the list as returned" if config.compat == "rageval" else "")),
        "relevance": ("a chunk is relevant when it holds a reference sentence and comes from a gold document "
                      "(most of its sentences are in one)"),
        "ndcg_at_k": ("binary gains; ideal ranking: every relevant item on top (the distinct relevant chunks "
                      "retrieved, plus one per reference no chunk holds), cut at K, as ranx computes it"),
        "mrr": "MRR@K: reciprocal rank of the first relevant chunk within the top K, 0 when none is",
        "faithfulness_degenerate": "an answer with no word in it scores 0; a refusal or a system error is left out",
        "refusal_accuracy": ("unanswerable questions: 1 for a refusal; an error or an empty answer is not a "
                             "refusal (0, and counted in counts.system_errors)"),
    }


def _group(records: list[QueryRecord], key: str) -> dict[str, list[QueryRecord]]:
    out: dict[str, list[QueryRecord]] = defaultdict(list)
    for r in records:
        out[str(getattr(r, key))].append(r)
    return dict(sorted(out.items()))


# --- judging a whole run ------------------------------------------------------------------------


def lexical_labels(query: DBQuery, answer: SystemAnswer) -> list[KeypointLabel]:
    gt = query.ground_truth
    unanswerable = query.query.query_type is QueryType.UNANSWERABLE
    return judge_keypoints(answer.answer, _plain_keypoints(gt.keypoints), query.language,
                           keypoint_facts=gt.keypoint_facts, unanswerable=unanswerable, question=query.query.content)


def oracle_labels(query: DBQuery, answer: SystemAnswer) -> list[KeypointLabel] | None:
    """The lexical judge's labels of the oracle answer (offline retrieval agreement)."""
    if answer.oracle_answer is None:
        return None
    return lexical_labels(query, SystemAnswer(query_id=answer.query_id, answer=answer.oracle_answer))


async def llm_judgements(llm: StructuredLLM, queries: list[DBQuery], answers: dict[int, SystemAnswer],
                         embedder: Embeds | None = None, k: int = 5,
                         on_done: Callable[[], None] | None = None) -> tuple[dict[int, list], dict[int, Scores]]:
    """Keypoint labels and the LLM-mode metrics (faithfulness, context precision, answer
    relevancy, retrieval agreement) of every query."""
    from dragonforge import ragas

    async def one(query: DBQuery) -> tuple[int, list, Scores]:
        q, gt = query.query, query.ground_truth
        qid, language, answer = q.query_id, query.language, answers[q.query_id]
        unanswerable = q.query_type is QueryType.UNANSWERABLE
        labels, scores = await asyncio.gather(
            llm_judge(llm, q.content, answer.answer, _plain_keypoints(gt.keypoints), language, unanswerable),
            ragas.score(llm, embedder, question=q.content, answer=answer.answer, contexts=answer.contexts,
                        reference_answer=gt.content if gt.references else None,
                        oracle_answer=answer.oracle_answer, k=k, language=language, unanswerable=unanswerable))
        if on_done:
            on_done()
        return qid, labels, scores

    done = await asyncio.gather(*(one(q) for q in queries))
    return {qid: labels for qid, labels, _ in done}, {qid: scores for qid, _, scores in done}


def predictions_records(queries: list[DBQuery], answers: dict[int, SystemAnswer]) -> list[dict]:
    """The run in DRAGONBall format, prediction filled, for the reference implementation's scripts:
    each query as it was read (its own fields and extras), with the system's prediction."""
    out = []
    for q in queries:
        a = answers[q.query.query_id]
        record = q.model_dump(mode="json", exclude_unset=True, exclude={"prediction"})
        record["prediction"] = Prediction(content=a.answer, references=a.contexts).model_dump(mode="json")
        out.append(record)
    return out


def refusal_text(language: str) -> str:
    return UNANSWERABLE_ANSWER.get(language, UNANSWERABLE_ANSWER["en"])


def is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not (isinstance(value, float) and math.isnan(value))
