"""`dragonforge validate`: every rule a finished benchmark directory must satisfy."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import polars as pl
from pydantic import ValidationError

from dragonforge.benchmark import MANIFEST
from dragonforge.errors import DragonforgeError, first_error
from dragonforge.files import read_jsonl, sha256_file
from dragonforge.models import (
    UNANSWERABLE_ANSWER,
    DBDocument,
    DBQuery,
    Manifest,
    QueryType,
)
from dragonforge.text import language_problem


def validate_benchmark(out: Path) -> list[str]:
    """Every problem found in the benchmark directory ``out``; empty when it is valid."""
    if not out.is_dir():
        return [f"{out} is not a directory"]
    manifest_path = out / MANIFEST
    if not manifest_path.exists():
        return [f"{out} has no {MANIFEST}: the build is unfinished (re-run the same build command to finish it)"]
    try:
        manifest = Manifest.model_validate_json(manifest_path.read_bytes())
    except (ValidationError, ValueError) as exc:
        return [f"{MANIFEST} is not a valid manifest: {first_error(exc)}"]
    except OSError as exc:
        return [f"{MANIFEST} cannot be read: {exc.strerror or exc}"]

    problems: list[str] = []
    root = out.resolve()
    for entry in manifest.files:
        path = out / entry.path
        if Path(entry.path).is_absolute() or not path.resolve().is_relative_to(root):
            problems.append(f"{entry.path}: the manifest names a file outside the benchmark directory")
        elif not path.is_file():
            problems.append(f"{entry.path}: listed in the manifest but "
                            f"{'a directory, not a file' if path.is_dir() else 'missing'}")
        elif sha256_file(path) != entry.sha256:
            problems.append(f"{entry.path}: content differs from the manifest (unfinished or edited build)")
    if problems:
        return problems

    labels = _labels(manifest)
    docs, doc_problems = _check_documents(out / "documents.jsonl", labels)
    problems += doc_problems
    queries, query_problems = _check_queries(out / "queries.jsonl", docs)
    problems += query_problems

    if manifest.documents != len(docs):
        problems.append(f"manifest counts {manifest.documents} documents, documents.jsonl has {len(docs)}")
    if manifest.queries != len(queries):
        problems.append(f"manifest counts {manifest.queries} queries, queries.jsonl has {len(queries)}")
    counted: Counter[tuple[str, str, str]] = Counter(
        (labels.get(q.domain, (q.domain, ""))[0], q.language, q.query.query_type.short) for q in queries)
    for domain, by_lang in manifest.counts.items():
        for language, by_type in by_lang.items():
            for qtype, n in by_type.items():
                if counted[(domain, language, qtype)] != n:
                    problems.append(f"manifest counts {n} {qtype} queries for {domain}/{language}, "
                                    f"queries.jsonl has {counted[(domain, language, qtype)]}")
    for name, expected in (("documents.parquet", len(docs)), ("queries.parquet", len(queries))):
        path = out / name
        if path.exists():
            try:
                rows = pl.scan_parquet(path).select(pl.len()).collect().item()
            except Exception as exc:  # polars raises several types for a damaged file
                problems.append(f"{name}: unreadable ({exc})")
                continue
            if rows != expected:
                problems.append(f"{name} has {rows} rows, the JSONL has {expected}")
    return problems


def _check_documents(path: Path, labels: dict[str, tuple[str, str]]) -> tuple[dict[int, DBDocument], list[str]]:
    problems: list[str] = []
    docs: dict[int, DBDocument] = {}
    try:
        rows = read_jsonl(path)
    except (OSError, ValueError) as exc:
        return {}, [str(exc)]
    for lineno, raw in rows:
        where = f"documents.jsonl line {lineno}"
        try:
            doc = DBDocument.model_validate(raw)
        except ValidationError as exc:
            problems.append(f"{where}: {first_error(exc)}")
            continue
        if doc.doc_id in docs:
            problems.append(f"{where}: duplicate doc_id {doc.doc_id}")
        docs[doc.doc_id] = doc
        extra = doc.model_extra or {}
        if doc.domain not in labels:
            problems.append(f"{where}: domain {doc.domain!r} is none of the manifest's ({', '.join(labels)})")
        entity_field = labels.get(doc.domain, ("", ""))[1] or "entity"
        if not extra.get(entity_field) and not extra.get("entity"):
            problems.append(f"{where}: missing {entity_field}")
        elif "entity" in extra and entity_field in extra and extra["entity"] != extra[entity_field]:
            problems.append(f"{where}: entity {extra['entity']!r} differs from {entity_field} {extra[entity_field]!r}")
        if not doc.content.strip():
            problems.append(f"{where}: empty content")
        elif problem := language_problem(doc.content, doc.language):
            problems.append(f"{where} (doc {doc.doc_id}): language is {doc.language!r} but {problem}")
    return docs, problems


def _check_queries(path: Path, docs: dict[int, DBDocument]) -> tuple[list[DBQuery], list[str]]:
    problems: list[str] = []
    queries: list[DBQuery] = []
    seen: set[int] = set()
    try:
        rows = read_jsonl(path)
    except (OSError, ValueError) as exc:
        return [], [str(exc)]
    for lineno, raw in rows:
        try:
            q = DBQuery.model_validate(raw)
        except ValidationError as exc:
            problems.append(f"queries.jsonl line {lineno}: {first_error(exc)}")
            continue
        queries.append(q)
        where = f"queries.jsonl line {lineno} (query {q.query.query_id})"
        if q.query.query_id in seen:
            problems.append(f"{where}: duplicate query_id")
        seen.add(q.query.query_id)
        problems += [f"{where}: {p}" for p in _query_problems(q, docs)]
    return queries, problems


def _query_problems(q: DBQuery, docs: dict[int, DBDocument]) -> list[str]:
    out: list[str] = []
    gt, qtype = q.ground_truth, q.query.query_type
    if q.prediction.content or q.prediction.references:
        out.append("prediction is not empty")
    for field, text in (("question", q.query.content), ("answer", gt.content)):
        if problem := language_problem(text, q.language):
            out.append(f"{field} is not in {q.language}: {problem}")
    if not 1 <= len(gt.keypoints) <= 8:
        out.append(f"{len(gt.keypoints)} keypoints (1–8 allowed)")
    for doc_id in gt.doc_ids:
        doc = docs.get(doc_id)
        if doc is None:
            out.append(f"doc_id {doc_id} is not in documents.jsonl")
        elif (doc.domain, doc.language) != (q.domain, q.language):
            out.append(f"doc {doc_id} is {doc.domain}/{doc.language}, the query is {q.domain}/{q.language}")
    if qtype is QueryType.UNANSWERABLE:
        refusal = UNANSWERABLE_ANSWER[q.language]
        if gt.content != refusal:
            out.append(f"unanswerable question's answer is not {refusal!r}")
        if gt.references:
            out.append("unanswerable question has references")
        if gt.keypoints != [refusal]:
            out.append(f"unanswerable question's keypoints are not [{refusal!r}]")
        return out
    if not gt.references:
        out.append("answerable question has no references")
    cited: set[int] = set()
    for ref in gt.references:
        holders = [d for d in gt.doc_ids if d in docs and ref in docs[d].content]
        if not holders:
            out.append(f"reference is not a verbatim substring of its documents: {ref[:60]!r}")
        cited.update(holders)
    if qtype.multi_document:
        if len(set(gt.doc_ids)) != 2:
            out.append(f"multi-document question lists {len(set(gt.doc_ids))} documents, not 2")
        elif cited != set(gt.doc_ids):
            out.append("multi-document question does not cite both documents")
    elif len(gt.doc_ids) != 1:
        out.append(f"single-document question lists {len(gt.doc_ids)} documents")
    return out


def _labels(manifest: Manifest) -> dict[str, tuple[str, str]]:
    """Document label -> (domain key, entity field): from the manifest (which names every domain
    of the build), else, for a benchmark written before manifests named them, the registry."""
    if manifest.domains:
        return {d["label"]: (key, d.get("entity_field", "")) for key, d in manifest.domains.items()}
    from dragonforge.registry import get_pack

    out = {}
    for key in manifest.params.domains:
        try:
            pack = get_pack(key)
        except DragonforgeError:
            continue
        out[pack.label] = (key, pack.entity_field)
    return out
