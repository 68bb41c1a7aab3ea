"""``dragonforge build --corpus DIR --genre PACK``: a benchmark over a team's own documents.

Each document (UTF-8 text, Markdown or HTML, read as text) is parsed like a seed; its labelled
values are matched to the pack's slots by label (aliases, English stems, Chinese characters)
and kind, its itemised lines and record lines to the pack's groups, and typed values in its
prose to slots whose labels the words around them name. Every fact keeps the line (or the
sentence) it stands in, so references are verbatim by construction; the seven question types
come from the pack's own QRA set, and keypoints and ``validate`` are those of any build.
Documents keep their file names (``source_file``) and ids (``source_id``); a document that gives
too few facts is listed in ``extraction.md`` with the reason, never dropped silently.
"""

from __future__ import annotations

import hashlib
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from dragonforge.errors import InputError, TemplateError
from dragonforge.genre.interpret import _FACT_KIND as GENRE_FACT_KIND
from dragonforge.genre.model import NUMERIC_KINDS
from dragonforge.induce.infer import _find_items, _record_fields, kinds_compatible, label_similarity, label_tokens
from dragonforge.induce.parse import Document as Parsed
from dragonforge.induce.parse import parse, split_sentences
from dragonforge.induce.read import read_document
from dragonforge.induce.values import Value, spans
from dragonforge.models import Config, Document, Fact, Language, Sentence, ValueKind
from dragonforge.text import detect_language

MIN_FACTS = 2
MAX_FILES = 20_000
_NUMERIC = NUMERIC_KINDS
# a pack's kinds as fact kinds; a party is read as a name
_FACT_KIND: dict[str, ValueKind] = {**GENRE_FACT_KIND, "party": "person"}


@dataclass
class Extracted:
    """What one file gave: its facts with the line each stands in, or why it gave none."""

    file: str
    status: str  # used, unfit, unreadable
    reason: str = ""
    doc_id: int | None = None
    facts: list[dict[str, Any]] = field(default_factory=list)  # key, text, line, how
    llm_rejected: list[dict[str, str]] = field(default_factory=list)


def corpus_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        raise InputError(f"--corpus {folder}: not a folder (give the folder holding your documents)")
    files = sorted(p for p in folder.rglob("*") if p.is_file() and not any(part.startswith(".") for part in
                                                                          p.relative_to(folder).parts))
    if not files:
        raise InputError(f"--corpus {folder}: no files in it")
    if len(files) > MAX_FILES:
        raise InputError(f"--corpus {folder}: {len(files)} files, more than {MAX_FILES} in one build")
    return files


def corpus_hash(folder: Path, files: list[Path]) -> str:
    """The corpus's identity: every file's name and content, read in chunks (a file that cannot
    be read counts by its name; the build lists it as unreadable)."""
    h = hashlib.sha256()
    for path in files:
        h.update(str(path.relative_to(folder)).encode() + b"\0")
        try:
            with path.open("rb") as fh:
                h.update(hashlib.file_digest(fh, "sha256").digest())
        except OSError:
            h.update(b"unreadable")
    return h.hexdigest()


# --- extraction -----------------------------------------------------------------------------------


def _kind_ok(kind: str, value: Value) -> bool:
    if kind in _NUMERIC:
        return value.number is not None and (value.kind in _NUMERIC or value.kind == "count")
    if kind in ("date", "datetime"):
        return value.day is not None
    if kind in ("person", "organisation", "party"):
        return value.kind in ("person", "organisation", "party", "text") and not re.search(r"\d", _head(value.text))
    if kind == "code":
        return value.kind in ("code", "text", "count") and len(value.text.split()) <= 3
    if kind == "time":
        return value.kind == "time"
    return bool(value.text.strip())


def _head(text: str) -> str:
    """A name's own words before a comma, a bracket or a date (``Gareth Lomax, Senior ...``)."""
    head = re.split(r"\s*(?:[,，;；(（]|\s[-–—]\s)\s*", text, maxsplit=1)[0].strip()
    m = re.search(r"\s+(?:on|at)\s+\d", head)
    return head[:m.start()].strip() if m else head


def _number(value: Value) -> float | int | None:
    if value.number is None:
        return None
    return int(value.number) if float(value.number).is_integer() else round(float(value.number), 4)


def make_fact(key: str, kind: str, value: Value) -> Fact:
    text = _head(value.text) if kind in ("person", "organisation", "party", "code") else value.text
    if kind in ("date", "datetime") and value.day is not None:
        return Fact(key=key, kind="date", text=text, value=value.day.isoformat())
    if kind == "money":
        return Fact(key=key, kind="money", text=text, value=_number(value), unit=value.unit)
    if kind == "percent":
        return Fact(key=key, kind="percent", text=text, value=_number(value), unit="%")
    if kind in ("count", "quantity", "duration"):
        return Fact(key=key, kind="count", text=text, value=_number(value), unit=value.unit)
    return Fact(key=key, kind=_FACT_KIND.get(kind, "text"), text=text, value=text)


class Extractor:
    """The pack's slots as a matcher of one language's labelled values."""

    def __init__(self, pack, language: str):
        spec = pack.definition.spec
        text = pack.definition.languages[language]
        self.pack = pack
        self.spec = spec
        self.language = language
        self.labels: dict[str, list[str]] = {}
        for key, slot in spec.slots.items():
            if slot.kind == "group":
                continue
            entry = text.slots.get(key)
            self.labels[key] = list(entry.labels) if entry and entry.labels else [key.replace("_", " ")]
        self.groups = {key: slot for key, slot in spec.slots.items() if slot.kind == "group"}
        self.layout = {s.group: s for s in spec.sections if s.group}

    def slot_for(self, label: str, value: Value, taken: set[str]) -> str | None:
        best, best_score = None, 0.0
        for key, labels in self.labels.items():
            if key in taken or not _kind_ok(self.spec.slots[key].kind, value):
                continue
            score = max(label_similarity(label, lab, self.language) for lab in labels)
            if score > best_score:
                best, best_score = key, score
        return best if best_score >= 0.5 else None

    def extract(self, doc: Parsed) -> tuple[dict[str, Fact], dict[str, int], dict[str, str]]:
        """Facts by key, the line of each, and how each was found."""
        facts: dict[str, Fact] = {}
        lines: dict[str, int] = {}
        how: dict[str, str] = {}
        items, item_fields = _find_items([doc], self.language)
        # itemised lines to the pack's items groups
        used_groups: set[str] = set()
        for _, _, run, total in items:
            group = next((g for g, s in self.layout.items() if s.layout == "items" and g not in used_groups and
                          self._amount_kind(g) in (total.value.kind, "count")), None)
            if group is None:
                continue
            used_groups.add(group)
            fields = list(self.groups[group].fields or {})
            for i, f in enumerate(run):
                label_key, amount_key = f"{group}.{i}.{fields[0]}", f"{group}.{i}.{fields[-1]}"
                facts[label_key] = Fact(key=label_key, kind="category", text=f.label, value=f.label)
                facts[amount_key] = make_fact(amount_key, self._amount_kind(group), f.value)
                for item_key in (label_key, amount_key):
                    lines[item_key], how[item_key] = f.line, "itemised line"
            for after in self.layout[group].after:
                spec = self.spec.slots[after]
                if spec.derived and group in spec.derived and after not in facts:
                    facts[after] = make_fact(after, spec.kind, total.value)
                    lines[after], how[after] = total.line, "total line"
                    break
        # labelled values to slots
        for f in doc.fields:
            if (0, f.line, f.label) in item_fields:
                continue
            key = self.slot_for(f.label, f.value, set(facts))
            if key is None:
                continue
            facts[key] = make_fact(key, self.spec.slots[key].kind, f.value)
            lines[key], how[key] = f.line, "labelled" + (" in prose" if f.in_prose else "")
        # record lines to timeline / list groups
        for section in doc.sections:
            for run in section.runs:
                self._records(run, facts, lines, how, used_groups)
        # typed values in prose, next to words of a slot's labels
        for section in doc.sections:
            for line, sentence in section.prose:
                for a, b, value in spans(sentence, self.language, counts=True):
                    window = sentence[max(0, a - 40):b + 40] if self.language == "en" else sentence[max(0, a - 12):b + 12]
                    context = label_tokens(window.replace(value.text, " "), self.language)
                    best, best_score = None, 0.0
                    for key, labels in self.labels.items():
                        slot = self.spec.slots[key]
                        if key in facts or slot.derived or not _kind_ok(slot.kind, value) or \
                                kinds_compatible(slot.kind, value.kind) < 1:
                            continue
                        tokens = set().union(*(label_tokens(lab, self.language) for lab in labels))
                        if self.language == "zh":
                            tokens = {t for t in tokens if len(t) == 2}
                        score = len(tokens & context) / max(1, len(tokens))
                        if score > best_score:
                            best, best_score = key, score
                    if best is not None and best_score >= 0.5:
                        facts[best] = make_fact(best, self.spec.slots[best].kind, value)
                        lines[best], how[best] = line, "prose, by the words around it"
        return facts, lines, how

    def _amount_kind(self, group: str) -> str:
        fields = self.groups[group].fields or {}
        return next((f.kind for f in fields.values() if f.kind in _NUMERIC), "money")

    def _records(self, run, facts, lines, how, used: set[str]) -> None:
        marker = Counter(r.marker for r in run).most_common(1)[0][0]  # ties: the first seen
        want = "timeline" if marker in ("time", "offset") else "list"
        group = next((g for g, s in self.layout.items() if s.layout == want and g not in used), None)
        if group is None or len(run) < 2:
            return
        used.add(group)
        fields = self.groups[group].fields or {}
        for i, record in enumerate(run):
            body = record.text
            found = _record_fields(body, self.language)
            taken: set[int] = set()
            for name, spec in fields.items():
                pick = None
                for j, (_a, _b, value) in enumerate(found):
                    if j in taken:
                        continue
                    ok = (spec.kind == value.kind or (spec.kind in ("category", "text", "narrative") and
                                                      value.kind == "text") or
                          (spec.kind in ("person", "party") and value.kind == "person"))
                    if ok:
                        pick = j
                        break
                if pick is None:
                    continue
                taken.add(pick)
                value = found[pick][2]
                key = f"{group}.{i}.{name}"
                facts[key] = make_fact(key, spec.kind, value) if spec.kind not in ("category", "text", "narrative") \
                    else Fact(key=key, kind="category", text=value.text, value=value.text)
                lines[key], how[key] = record.line, "record line"


def _sentences(content: str, facts: dict[str, Fact], lines: dict[str, int], language: str) -> list[Sentence]:
    """Each line (a prose line: each sentence) as a unit, stating the facts that stand in it."""
    out: list[Sentence] = []
    section = "document"
    by_line: dict[int, list[str]] = {}
    for key, line_number in lines.items():
        by_line.setdefault(line_number, []).append(key)
    for number, line in enumerate(content.split("\n"), 1):
        text = line.strip()
        if not text:
            continue
        keys = by_line.get(number, [])
        parts = split_sentences(text, language) if len(text) > 80 else [text]
        if any(not any(facts[k].text in part for part in parts) for k in keys):
            parts = [text]  # a value the split would cut ("Dr. Jane Roe"): the line stays whole
        if len(parts) == 1:
            out.append(Sentence(text=text, section=section, facts=keys))
            continue
        for part in parts:
            stated = [k for k in keys if facts[k].text in part]
            out.append(Sentence(text=part, section=section, facts=stated))
        placed = {k for s in out[-len(parts):] for k in s.facts}
        for k in keys:  # a value split across sentences stays with its line's first sentence
            if k not in placed:
                out[-len(parts)].facts.append(k)
    return out


def _extras(pack, language: str, config: Config, name: str) -> dict[str, Any]:
    from dragonforge.genre.interpret import NUMERIC_KINDS
    from dragonforge.templating import config_context, render

    spec = pack.definition.spec
    text = pack.definition.languages[language]
    try:
        anchor = render(text.anchor, config_context(config), sandboxed=True)
        if not anchor.strip():
            raise TemplateError("empty anchor")
    except (TemplateError, KeyError, AttributeError, TypeError):
        anchor = f"the document {name}" if language == "en" else f"文件《{name}》"
    extras: dict[str, Any] = {"anchor": anchor, "Anchor": anchor[:1].upper() + anchor[1:], "heading": {}}
    extras["section_title"] = {s.id: text.sections[s.id].titles[0] for s in spec.sections}
    for section in spec.sections:
        keys = section.slots + section.after + ([section.group] if section.group else [])
        extras[f"show_{section.id}"] = any(k in config.facts or any(f.startswith(k + ".") for f in config.facts)
                                           for k in keys)
        extras["heading"][section.id] = ""
    for gname, slot in spec.slots.items():
        if slot.kind != "group":
            continue
        for field_name, fspec in (slot.fields or {}).items():
            if fspec.kind not in NUMERIC_KINDS:
                continue
            values = [(i, config.facts[f"{gname}.{i}.{field_name}"].value) for i in range(100)
                      if f"{gname}.{i}.{field_name}" in config.facts]
            numbers = [(i, v) for i, v in values if isinstance(v, (int, float))]
            if len(numbers) >= 2:
                top = max(numbers, key=lambda x: x[1])
                if [v for _, v in numbers].count(top[1]) == 1:
                    extras[f"top_{gname}_{field_name}"] = top[0]
    return extras


def extract_corpus(folder: Path, pack, language: Language, llm_extract=None) -> tuple[list[Config], list[Document],
                                                                                 list[Extracted]]:
    """Every file of the corpus: a config and a document when it gives enough facts."""
    spec = pack.definition.spec
    extractor = Extractor(pack, language)
    configs: list[Config] = []
    documents: list[Document] = []
    report: list[Extracted] = []
    for path in corpus_files(folder):
        rel = str(path.relative_to(folder))
        try:
            content = read_document(path)
        except InputError as exc:
            reason = str(exc).split(": ", 1)[-1]
            print(f"warning: {rel}: {reason}; left out of the benchmark", file=sys.stderr)
            report.append(Extracted(rel, "unreadable", reason))
            continue
        found = detect_language(content)
        if found != language:
            report.append(Extracted(rel, "unfit", f"written in {found!r}, the pack writes {language!r}"))
            continue
        content = content.rstrip("\n")
        parsed = parse(content, rel, language, unwrap_lines=False)
        facts, lines, how = extractor.extract(parsed)
        rejected: list[dict[str, str]] = []
        if llm_extract is not None:
            more, rejected = llm_extract(content, facts, extractor)
            for key, (fact, line) in more.items():
                facts[key], lines[key], how[key] = fact, line, "LLM, checked verbatim"
        entity_fact = facts.get(spec.entity.slot)
        n_facts = len([k for k in facts if k != spec.entity.slot])
        if n_facts < MIN_FACTS:
            labelled = len(parsed.fields)
            reason = (f"no recognisable facts of the pack: {labelled} labelled value(s), {len(facts)} matching its "
                      f"slots (at least {MIN_FACTS} are needed besides the entity)")
            report.append(Extracted(rel, "unfit", reason, facts=[{"key": k, "text": f.text} for k, f in facts.items()],
                                    llm_rejected=rejected))
            continue
        doc_id = len(documents)
        entity = entity_fact.text if entity_fact else Path(rel).stem
        config = Config(doc_id=doc_id, domain=spec.name, language=language, entity=entity, seed=0, facts=facts)
        config = config.model_copy(update={"extras": _extras(pack, language, config, rel)})
        sentences = _sentences(content, facts, lines, language)
        title = parsed.title or Path(rel).stem
        documents.append(Document(doc_id=doc_id, domain=spec.name, language=language, entity=entity, title=title,
                                  content=content, sentences=sentences, source=rel))
        configs.append(config)
        report.append(Extracted(rel, "used", doc_id=doc_id, llm_rejected=rejected,
                                facts=[{"key": k, "text": f.text, "line": lines[k], "how": how[k]}
                                       for k, f in facts.items()]))
    _unique_anchors(configs, documents, language)
    return configs, documents, report


def _unique_anchors(configs: list[Config], documents: list[Document], language: str) -> None:
    """Two documents about one entity (two letters on one claim) would answer each other's
    questions: each of them is named by its file instead."""
    seen = Counter(c.extras["anchor"] for c in configs)
    for i, config in enumerate(configs):
        if seen[config.extras["anchor"]] > 1:
            name = documents[i].source or str(config.doc_id)
            anchor = f"the document {name}" if language == "en" else f"文件《{name}》"
            configs[i] = config.model_copy(update={"extras": {**config.extras, "anchor": anchor,
                                                              "Anchor": anchor[:1].upper() + anchor[1:]}})


def extraction_markdown(report: list[Extracted], pack_name: str) -> str:
    used = [r for r in report if r.status == "used"]
    out = [f"# Extraction report: {len(used)} of {len(report)} file(s) used with pack `{pack_name}`", "",
           "| file | doc_id | status | facts | reason |", "|---|---|---|---|---|"]
    for r in report:
        out.append(f"| `{r.file}` | {'' if r.doc_id is None else r.doc_id} | {r.status} | {len(r.facts)} | "
                   f"{r.reason.replace('|', '/')} |")
    for r in used:
        out += ["", f"## `{r.file}` (doc {r.doc_id})", ""]
        out += [f"- `{f['key']}` = “{f['text']}” (line {f['line']}, {f['how']})" for f in r.facts]
        if r.llm_rejected:
            out.append(f"- LLM facts rejected: {len(r.llm_rejected)} (" +
                       "; ".join(f"{x['key']}: {x['why']}" for x in r.llm_rejected[:5]) + ")")
    return "\n".join(out) + "\n"


def build_corpus(folder: Path, pack, language: Language, out: Path, params, llm_settings=None, progress=None):
    """Extract, draft the questions, write the benchmark (the same writer as every build)."""
    from dragonforge.benchmark import BuildResult, write_benchmark
    from dragonforge.pipeline import qra_stage

    t0 = time.perf_counter()
    llm_extract: Callable[[str, dict, Extractor], tuple[dict, list[dict[str, str]]]] | None = None
    closer: Callable[[], tuple[dict, dict]] | None = None
    usage: dict = {}
    llm_info: dict | None = None
    if llm_settings is not None:
        from dragonforge.induce.grounded import CorpusLLM

        helper = CorpusLLM(llm_settings, out, language)
        llm_extract, closer = helper.extract, helper.close
    try:
        configs, documents, report = extract_corpus(folder, pack, language, llm_extract)
    finally:
        if closer is not None:
            usage, llm_info = closer()
    if not documents:
        raise InputError(f"--corpus {folder}: no document gave {MIN_FACTS} or more facts of the pack "
                         f"{pack.name} (see the reasons: {report[0].file}: {report[0].reason})")
    t1 = time.perf_counter()
    total = len(documents) * params.queries_per_doc
    from dragonforge.genre.compile import qra_templates

    templates = qra_templates(pack.definition, language, guard_all=True)
    result = qra_stage(configs, documents, total, params.question_mix, params.seed, templates)
    t2 = time.perf_counter()
    qras = [q.model_copy(update={"query_id": i}) for i, q in enumerate(result.qras)]
    rejected_llm = sum(len(r.llm_rejected) for r in report)
    extraction = "\n".join(json.dumps({"file": r.file, "status": r.status, "doc_id": r.doc_id, "reason": r.reason,
                                       "facts": r.facts, "llm_rejected": r.llm_rejected}, ensure_ascii=False)
                           for r in report) + "\n"
    build = BuildResult(configs=configs, documents=documents, qras=qras, rejections=result.rejections,
                        repairs=result.repairs,
                        shortfall={pack.name: {language: result.shortfall}} if result.shortfall else {},
                        llm=llm_info, llm_usage=usage,
                        fallbacks={"llm_facts_rejected": rejected_llm} if llm_settings is not None else {},
                        extra_files={"extraction.jsonl": extraction,
                                     "extraction.md": extraction_markdown(report, pack.name)})
    manifest = write_benchmark(out, params, build, {"extract_seconds": t1 - t0, "qra_seconds": t2 - t1})
    return manifest, report
