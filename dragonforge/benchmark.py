"""The benchmark directory: DRAGONBall records, Parquet tables, manifest and dataset card.

Every file is written atomically and ``manifest.json`` last, carrying each file's hash: a
directory whose manifest is missing or disagrees with its files is an unfinished build,
and ``dragonforge validate`` says so.
"""

from __future__ import annotations

import json
import subprocess
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from dragonforge import __version__
from dragonforge.errors import OutputConflictError
from dragonforge.files import (
    read_jsonl,
    sha256_file,
    write_bytes_atomic,
    write_jsonl_atomic,
    write_text_atomic,
)
from dragonforge.keypoints import numbered
from dragonforge.models import (
    LANGUAGES,
    QRA,
    BuildParams,
    Config,
    DBDocument,
    DBGroundTruth,
    DBPrediction,
    DBQuery,
    DBQueryBody,
    Document,
    FileEntry,
    KeypointFact,
    Language,
    Manifest,
    QueryType,
    Rejection,
)
from dragonforge.resources import resource_dir, resource_hashes

if TYPE_CHECKING:
    import polars as pl

STATE_DIR = ".dragonforge"
MARKER = "build.json"
MANIFEST = "manifest.json"


# --- output directory guard ---------------------------------------------------------------------


def check_output_dir(out: Path, params: BuildParams) -> None:
    """Refuse an output directory that holds anything but this same build (finished or not)."""
    if out.exists() and not out.is_dir():
        raise OutputConflictError(f"--out {out} exists and is not a directory")
    if not out.exists() or holds_nothing(out):
        return
    for path in (out / MANIFEST, out / STATE_DIR / MARKER):
        if path.exists():
            try:
                data = json.loads(path.read_text(encoding="utf-8"))
                theirs = BuildParams.model_validate(data["params"])
            except (ValueError, KeyError, TypeError):
                raise OutputConflictError(f"--out {out} holds an unreadable {path.name}; "
                                          f"choose another directory") from None
            if theirs != params:
                raise OutputConflictError(
                    f"--out {out} holds a different build ({_describe_difference(theirs, params)}); "
                    f"choose another directory or remove it")
            return
    raise OutputConflictError(f"--out {out} is not empty and holds no dragonforge build; choose another directory")


def holds_nothing(out: Path) -> bool:
    """Empty, or holding only the lock file a run leaves behind."""
    entries = list(out.iterdir())
    if not entries:
        return True
    return entries == [out / STATE_DIR] and [p.name for p in (out / STATE_DIR).iterdir()] in ([], ["lock"])


def _describe_difference(theirs: BuildParams, ours: BuildParams) -> str:
    a, b = theirs.model_dump(), ours.model_dump()
    diffs = [f"{k} {a[k]} there, {b[k]} here" for k in a if a[k] != b[k]]
    return "; ".join(diffs[:3])


def mark_build_started(out: Path, params: BuildParams) -> None:
    write_text_atomic(out / STATE_DIR / MARKER, json.dumps({"params": params.model_dump(mode="json")}, indent=2))


def cache_dir(out: Path) -> Path:
    return out / STATE_DIR / "cache"


# --- ids and records ---------------------------------------------------------------------------


def group_order(params: BuildParams) -> list[tuple[str, Language]]:
    """(domain, language) groups in canonical order, whatever order the flags gave."""
    from dragonforge.registry import registry

    order = registry().names()  # curated domains first, then packs in the order they were loaded
    domains = sorted(params.domains, key=lambda d: order.index(d) if d in order else len(order))
    return [(d, lang) for d in domains for lang in LANGUAGES if lang in params.languages]


def doc_id_ranges(params: BuildParams) -> dict[tuple[str, Language], list[int]]:
    groups = group_order(params)
    return {g: list(range(i * params.docs, (i + 1) * params.docs)) for i, g in enumerate(groups)}


def to_dragonball_document(doc: Document) -> DBDocument:
    from dragonforge.registry import get_pack

    pack = get_pack(doc.domain)
    # the pack's own entity field, and a uniform ``entity`` beside it for tools that know no pack
    source = {"source_file": doc.source, "source_id": Path(doc.source).stem} if doc.source else {}
    return DBDocument(domain=pack.label, language=doc.language, doc_id=doc.doc_id,
                      content=doc.content, **{pack.entity_field: doc.entity, "entity": doc.entity}, **source)


def to_dragonball_query(qra: QRA) -> DBQuery:
    # Built from already-validated parts (a QRA), so constructed without validating again:
    # validation was a third of the time it took to write a large benchmark.
    return DBQuery.model_construct(
        domain=_label(qra.domain),
        language=qra.language,
        query=DBQueryBody.model_construct(query_id=qra.query_id, query_type=qra.query_type, content=qra.question),
        ground_truth=DBGroundTruth.model_construct(
            doc_ids=list(qra.doc_ids),
            content=qra.answer,
            references=[r.text for r in qra.references],
            keypoints=numbered(qra),
            # Extra field beside the contract: the fact values each keypoint asserts, for judges.
            keypoint_facts=[
                [KeypointFact.model_construct(doc_id=f.doc_id, key=f.key, kind=f.kind, text=f.text, value=f.value,
                                              unit=f.unit) for f in kp.facts]
                for kp in qra.keypoints
            ],
        ),
        prediction=DBPrediction.model_construct(content="", references=[]),
    )


# --- writing -----------------------------------------------------------------------------------


@dataclass
class BuildResult:
    configs: list[Config]
    documents: list[Document]
    qras: list[QRA]
    rejections: list[Rejection]
    repairs: int
    shortfall: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)
    llm: dict | None = None  # endpoint and model of an LLM build, never the key
    llm_usage: dict = field(default_factory=dict)
    fallbacks: dict = field(default_factory=dict)
    calls_log: Path | None = None  # this run's calls, one JSON line each
    extra_files: dict[str, str] = field(default_factory=dict)  # more files of the benchmark (a corpus report)


def write_benchmark(out: Path, params: BuildParams, result: BuildResult, timings: dict[str, float]) -> Manifest:
    t0 = time.perf_counter()
    documents = sorted(result.documents, key=lambda d: d.doc_id)
    leak = leak_lint(documents, params)  # before anything is written: a leak writes nothing
    (out / MANIFEST).unlink(missing_ok=True)  # the directory is unfinished until the new one lands
    qras = result.qras
    db_docs = [to_dragonball_document(d) for d in documents]
    db_queries = [to_dragonball_query(q) for q in qras]

    write_jsonl_atomic(out / "documents.jsonl", db_docs)
    write_jsonl_atomic(out / "queries.jsonl", db_queries)
    configs = sorted(result.configs, key=lambda c: c.doc_id)
    write_jsonl_atomic(out / "configs.jsonl", configs)
    write_jsonl_atomic(out / "provenance.jsonl", [
        {"doc_id": d.doc_id, "title": d.title,
         "sentences": [s.model_dump(mode="json") for s in d.sentences]} for d in documents])
    write_jsonl_atomic(out / "rejected.jsonl", result.rejections)
    _write_parquet(out / "documents.parquet", documents_frame(db_docs))
    _write_parquet(out / "queries.parquet", queries_frame(db_queries))
    schema_files = _copy_schemas(out, params)

    counts = count_table(qras, params)
    reasons = Counter(r.reason for r in result.rejections)
    card = dataset_card(params, counts, db_docs, db_queries, len(result.rejections), reasons, result.repairs)
    if result.llm:
        card += _llm_card(result, result.llm)
    write_text_atomic(out / "README.md", card)

    tracked = ["documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl",
               "documents.parquet", "queries.parquet", "README.md", *schema_files]
    for name, text in result.extra_files.items():
        write_text_atomic(out / name, text)
        tracked.append(name)
    if result.calls_log is not None:
        calls = result.calls_log.read_bytes() if result.calls_log.exists() else b""
        write_bytes_atomic(out / "calls.jsonl", calls)
        _write_parquet(out / "calls.parquet", calls_frame(out / "calls.jsonl"))
        tracked += ["calls.jsonl", "calls.parquet"]
    records = {"documents.jsonl": len(db_docs), "queries.jsonl": len(db_queries),
               "configs.jsonl": len(result.configs), "provenance.jsonl": len(documents),
               "rejected.jsonl": len(result.rejections), "documents.parquet": len(db_docs),
               "queries.parquet": len(db_queries)}
    files = [FileEntry(path=p, sha256=sha256_file(out / p), bytes=(out / p).stat().st_size, records=records.get(p))
             for p in tracked]
    timings = {**timings, "write_seconds": time.perf_counter() - t0}
    manifest = Manifest(
        params=params, engine=params.engine, code_version=code_version(),
        template_hashes=resource_hashes("templates", "schemas", "prompts"),
        counts=counts, documents=len(db_docs), queries=len(db_queries), rejected=len(result.rejections),
        rejected_by_reason=dict(sorted(reasons.items())), repairs=result.repairs, shortfall=result.shortfall,
        timings={k: round(v, 3) for k, v in timings.items()}, files=files, domains=_domains(params),
        llm=result.llm, llm_usage=result.llm_usage, fallbacks=dict(sorted(result.fallbacks.items())),
        leak=leak,
    )
    write_text_atomic(out / MANIFEST, manifest.model_dump_json(indent=2) + "\n")
    return manifest


def _write_parquet(path: Path, frame: pl.DataFrame) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    frame.write_parquet(tmp)
    tmp.replace(path)


def documents_frame(db_docs: list[DBDocument]) -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame(
        [{"doc_id": d.doc_id, "domain": d.domain, "language": d.language,
          "entity": (d.model_extra or {}).get("entity", ""), "content": d.content}
         for d in db_docs],
        schema={"doc_id": pl.Int64, "domain": pl.String, "language": pl.String, "entity": pl.String,
                "content": pl.String},
    )


def queries_frame(db_queries: list[DBQuery]) -> pl.DataFrame:
    import polars as pl

    return pl.DataFrame(
        [{"query_id": q.query.query_id, "domain": q.domain, "language": q.language,
          "query_type": q.query.query_type.value, "question": q.query.content,
          "doc_ids": q.ground_truth.doc_ids, "answer": q.ground_truth.content,
          "references": q.ground_truth.references, "keypoints": q.ground_truth.keypoints}
         for q in db_queries],
        schema={"query_id": pl.Int64, "domain": pl.String, "language": pl.String, "query_type": pl.String,
                "question": pl.String, "doc_ids": pl.List(pl.Int64), "answer": pl.String,
                "references": pl.List(pl.String), "keypoints": pl.List(pl.String)},
    )


_CALL_COLUMNS = {"stage": "String", "prompt_hash": "String", "model": "String", "outcome": "String",
                 "latency_ms": "Float64", "prompt_tokens": "Int64", "completion_tokens": "Int64", "attempt": "Int64",
                 "error": "String"}


def calls_frame(path: Path) -> pl.DataFrame:
    import polars as pl

    # our own append-only log: a line torn by a kill or a full disk is passed over
    rows = [r for _, r in read_jsonl(path, skip_bad=True) if isinstance(r, dict)]
    schema = {name: getattr(pl, dtype) for name, dtype in _CALL_COLUMNS.items()}
    return pl.DataFrame([{k: r.get(k) for k in schema} for r in rows], schema=schema)


def _domains(params: BuildParams) -> dict[str, dict[str, str]]:
    """What the manifest says of each domain: its label, entity field and where it came from
    (a genre pack: its content hash too)."""
    from dragonforge.registry import get_pack

    out = {}
    for name in dict.fromkeys(d for d, _ in group_order(params)):
        pack = get_pack(name)
        entry = {"label": pack.label, "entity_field": pack.entity_field,
                 "source": getattr(pack, "source", "plugin")}
        if name in params.packs:
            entry["sha256"] = params.packs[name]
        out[name] = entry
    return out


def leak_lint(documents: list, params: BuildParams) -> dict[str, dict]:
    """Every genre pack's documents against its seeds' fingerprint (``leak.json``); a problem
    stops the build with :class:`SeedLeak`. Packs without one (hand-written, curated) are
    recorded as not checked."""
    from dragonforge.errors import SeedLeak
    from dragonforge.induce.leak import lint
    from dragonforge.registry import get_pack

    out: dict[str, dict] = {}
    if params.corpus:  # the documents are the team's own, not generated: nothing to lint
        return {name: {"checked": False, "reason": "a corpus build: its documents are the team's own"}
                for name in params.packs}
    for name in params.packs:
        pack = get_pack(name)
        fingerprint = getattr(getattr(pack, "definition", None), "fingerprint", None)
        docs = [d for d in documents if d.domain == name]
        if fingerprint is None:
            out[name] = {"checked": False, "documents": len(docs),
                         "reason": "the pack has no leak.json (it was not induced from seeds)"}
            continue
        result = lint([(str(d.doc_id), d.content) for d in docs if d.language == fingerprint.language], fingerprint)
        if result.problems:
            raise SeedLeak(f"leak lint: {len(result.problems)} problem(s) in the {name} documents, first: "
                           f"{result.problems[0]}; nothing was written (the seeds' values or prose must not reach "
                           "a generated document: edit the pack's pools, or opt in with allow_prose in leak.json)")
        out[name] = result.summary()
    return out


def _label(domain: str) -> str:
    from dragonforge.registry import get_pack

    return get_pack(domain).label


def _copy_schemas(out: Path, params: BuildParams) -> list[str]:
    from dragonforge.registry import get_pack
    from dragonforge.schemas import dump_schema

    written = []
    for domain, language in group_order(params):
        name = f"{domain}.{language}.yaml"
        source = resource_dir("schemas") / name
        if domain not in params.packs and source.is_file():
            data = source.read_bytes()
        else:  # a genre pack's schema, from the pack
            data = dump_schema(get_pack(domain).schema(language)).encode("utf-8")
        write_bytes_atomic(out / "schemas" / name, data)
        written.append(f"schemas/{name}")
    return written


def count_table(qras: list[QRA], params: BuildParams) -> dict[str, dict[str, dict[str, int]]]:
    table: dict[str, dict[str, dict[str, int]]] = {}
    counter = Counter((q.domain, q.language, q.query_type.short) for q in qras)
    for domain, language in group_order(params):
        table.setdefault(domain, {})[language] = {qt.short: counter[(domain, language, qt.short)] for qt in QueryType}
    return table


@cache
def code_version() -> str:
    root = Path(__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "-C", str(root), "rev-parse", "--short", "HEAD"], capture_output=True,
                                text=True, timeout=5, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--", "dragonforge", "flows",
                                "templates", "schemas", "prompts"], capture_output=True, text=True, timeout=5,
                               check=True).stdout.strip()
        return f"{__version__}+g{commit}{'.dirty' if dirty else ''}"
    except (OSError, subprocess.SubprocessError):
        # Not a git checkout (a wheel install): the version and the sources' own fingerprint.
        from dragonforge.fingerprint import code_fingerprint

        return f"{__version__}+src.{code_fingerprint()[:12]}"


# --- dataset card -----------------------------------------------------------------------------


def _llm_card(result: BuildResult, llm: dict) -> str:
    rows = []
    for stage, by_model in result.llm_usage.items():
        for model, u in by_model.items():
            rows.append(f"| {stage} | {model} | {u['calls']} | {u['cache_hits']} | "
                        f"{u['prompt_tokens'] + u['completion_tokens']:,} | {u['cost']:.4f} | {u['failures']} |")
    fallbacks = ", ".join(f"{k} {v}" for k, v in sorted(result.fallbacks.items())) or "none"
    return (f"\n## LLM\n\nModel `{llm['model']}` at `{llm['base_url']}`. Replies that failed their "
            f"checks and were replaced by the rule-based result: {fallbacks}.\n\n"
            "| stage | model | calls | cache hits | tokens | cost | failed items |\n|---|---|---|---|---|---|---|\n"
            + "\n".join(rows) + "\n")


def dataset_card(params: BuildParams, counts: dict, db_docs: list[DBDocument], db_queries: list[DBQuery],
                 rejected: int, reasons: Counter, repairs: int) -> str:
    types = [qt.short for qt in QueryType]
    header = "| domain | language | documents | " + " | ".join(types) + " | total |"
    rule = "|---" * (len(types) + 4) + "|"
    docs_per = Counter((d.domain, d.language) for d in db_docs)
    rows = []
    for domain, by_lang in counts.items():
        for language, by_type in by_lang.items():
            rows.append(f"| {_label(domain)} | {language} | {docs_per[(_label(domain), language)]} | "
                        + " | ".join(str(by_type[t]) for t in types) + f" | {sum(by_type.values())} |")
    lengths = defaultdict(list)
    for d in db_docs:
        lengths[d.language].append(len(d.content))
    length_lines = [f"- `{lang}`: {min(v):,}–{max(v):,} characters, mean {sum(v) // len(v):,}"
                    for lang, v in sorted(lengths.items())]
    reason_lines = [f"- {n} × {reason}" for reason, n in reasons.most_common(10)] or ["- none"]
    example = next((q for q in db_queries if q.query.query_type is QueryType.MULTI_HOP), db_queries[0] if db_queries else None)
    example_block = json.dumps(example.model_dump(mode="json"), ensure_ascii=False, indent=2) if example else "{}"
    mix = ", ".join(f"{k} {v:g}" for k, v in params.question_mix.items())
    return f"""# dragonforge benchmark

A private, scenario-specific RAG benchmark in the DRAGONBall format (RAGEval), built by
dragonforge {code_version()} with the `{params.engine}` engine.

- Domains: {", ".join(params.domains)}; languages: {", ".join(params.languages)}
- Documents: {len(db_docs)} ({params.docs} per domain and language); queries: {len(db_queries)}
- Seed: {params.seed}; questions per document: {params.queries_per_doc}; question mix: {mix}
- Rejected during generation: {rejected} (see `rejected.jsonl`); answers repaired by refinement: {repairs}

## Counts by question type

{header}
{rule}
{chr(10).join(rows)}

## Document lengths

{chr(10).join(length_lines)}

## How it was made

Each document comes from a *config*: one internally consistent set of facts drawn by rules
(Faker, a seeded RNG) for the domain's schema (`schemas/`). Documents are written section by
section from templates, and every sentence records which facts it states. Questions and
answers are generated from the configs over seven question types; references are the exact
sentences that state the answer's facts; refinement checks that every answer fact is supported
by a reference and every reference contributes one; keypoints carry the fact values they assert.

## Files

- `documents.jsonl`, `queries.jsonl`: DRAGONBall records (`prediction` empty, for systems to fill)
- `documents.parquet`, `queries.parquet`: the same tables for analysis
- `configs.jsonl`: the facts of every document; `provenance.jsonl`: the facts of every sentence
- `rejected.jsonl`: every question that was dropped, with its reason
- `manifest.json`: parameters, versions, template hashes, counts, timings and file hashes

Top rejection reasons:

{chr(10).join(reason_lines)}

## Example query

```json
{example_block}
```
"""
