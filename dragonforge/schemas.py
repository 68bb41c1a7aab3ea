"""Stage 1: domain schemas — the built-in ones, and offline induction from seed documents.

Offline induction reads a handful of seed documents of one genre and keeps what they share:
their section headings (numbered, ``#``-marked, ``第一节``/``一、`` style or short title
lines), their labelled fields (``Label: value`` / ``标签：值``) and the typed values their
prose mentions, each typed as date, money, percent, count, person, organisation, place,
category or free text. The result is a schema skeleton a domain team can read and edit.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import yaml

from dragonforge.errors import InputError
from dragonforge.files import read_text_file
from dragonforge.models import DomainSchema, SectionSpec, SlotSpec
from dragonforge.resources import resource_dir
from dragonforge.text import cjk_count, detect_language


@cache
def load_builtin_schema(domain: str, language: str) -> DomainSchema:
    path = resource_dir("schemas") / f"{domain}.{language}.yaml"
    if not path.exists():
        raise InputError(f"no built-in schema for {domain}/{language}")
    from dragonforge.templating import parse_yaml

    return DomainSchema.model_validate(parse_yaml(path.read_text(encoding="utf-8")))


def dump_schema(schema: DomainSchema) -> str:
    return yaml.safe_dump(schema.model_dump(mode="json"), allow_unicode=True, sort_keys=False, width=100)


# --- value typing ---------------------------------------------------------------------------------

_MONTHS = "January|February|March|April|May|June|July|August|September|October|November|December"
_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("date", re.compile(rf"\b\d{{4}}-\d{{1,2}}-\d{{1,2}}\b|\b(?:{_MONTHS}) \d{{1,2}}, \d{{4}}\b|"
                        rf"\b(?:{_MONTHS}) \d{{4}}\b|\d{{4}}年\d{{1,2}}月(?:\d{{1,2}}日)?|\b\d{{1,2}}/\d{{1,2}}/\d{{4}}\b")),
    ("money", re.compile(r"(?:US)?\$\s?\d[\d,]*(?:\.\d+)?(?:\s?(?:million|billion|thousand))?|"
                         r"[¥￥]\s?\d[\d,]*(?:\.\d+)?|\d[\d,]*(?:\.\d+)?\s?(?:亿元|万元|元)|"
                         r"\b\d[\d,]*(?:\.\d+)?\s?(?:million |billion )?(?:yuan|dollars|USD|RMB|CNY)\b")),
    ("percent", re.compile(r"\d+(?:\.\d+)?\s?%|百分之[零一二三四五六七八九十百点]+")),
]
_ORG_SUFFIX = re.compile(r"(?:\b(?:Inc|Ltd|LLC|Corp|Corporation|Company|Group|Bank|Court|Hospital|University|"
                         r"Procuratorate|Bureau|Clinic|Partners|Firm)\b|(?:公司|集团|银行|法院|检察院|医院|大学|律师事务所|中心|局))")
_PERSON_LABEL = re.compile(r"name|defendant|plaintiff|judge|clerk|prosecutor|physician|doctor|patient|chairman|"
                           r"director|manager|counsel|attorney|姓名|被告人|原告|审判长|审判员|书记员|公诉人|医师|医生|"
                           r"患者|董事长|总经理|法定代表人|辩护人", re.I)
_PLACE_LABEL = re.compile(r"address|place|city|location|residence|hometown|headquarters|birthplace|地址|住址|"
                          r"地点|籍贯|住所|所在地|户籍|出生地|总部", re.I)
_CATEGORY_LABEL = re.compile(r"gender|sex|type|category|industry|level|grade|status|ethnicity|department|"
                             r"性别|类型|类别|行业|级别|等级|民族|科室|婚姻|文化程度|职业", re.I)
_COUNT = re.compile(r"^\d[\d,]*(?:\.\d+)?\s?[A-Za-z\u4e00-\u9fff]{0,6}$")
_PERSON_VALUE = re.compile(r"^[A-Z][a-z]+(?: [A-Z]\.?)?(?: [A-Z][a-z]+){1,2}$|^[\u4e00-\u9fff]{2,3}$")


def value_kind(label: str, value: str) -> str:
    """The schema kind of one labelled value, by its form first and its label second."""
    value = value.strip()
    for kind, pattern in _PATTERNS:
        m = pattern.search(value)
        if m and len(m.group(0)) >= len(value) * 0.5:
            return kind
    if _ORG_SUFFIX.search(value) and len(value) <= 60:
        return "organisation"
    if _PERSON_LABEL.search(label) and _PERSON_VALUE.match(value):
        return "person"
    if _PLACE_LABEL.search(label):
        return "place"
    if _COUNT.match(value):
        return "count"
    if _CATEGORY_LABEL.search(label) and len(value) <= 30:
        return "category"
    return "text"


# --- parsing seed documents -----------------------------------------------------------------------

_HEADING = re.compile(
    r"^(?:#{1,4}\s+.+|(?:\d+(?:\.\d+)*[.、]?\s+|[IVX]+\.\s+|[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）|"
    r"第[一二三四五六七八九十百]+[章节部分条]\s*).{1,40}|(?:Section|Part|Chapter)\s+\w+[.:]?\s+.{1,40})$")
_LABELLED = re.compile(r"^\s*([^:：]{1,30}?)\s*[:：]\s*(.+?)\s*$")
_FIELD_SPLIT = re.compile(r"[;；|]")
_TERMINAL = re.compile(r"[.。!！?？]$")


@dataclass
class _SeedSection:
    title: str
    position: float
    fields: list[tuple[str, str]] = field(default_factory=list)
    mentions: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))


def _is_heading(line: str) -> bool:
    stripped = line.strip()
    if not stripped or len(stripped) > 60:
        return False
    if _HEADING.match(stripped):
        return not (_TERMINAL.search(stripped) and len(stripped) > 25)
    if stripped.isupper() and cjk_count(stripped) == 0 and len(stripped.split()) <= 6:
        return True
    return bool(stripped.endswith((":", "：")) and len(stripped) <= 30 and not _LABELLED.match(stripped[:-1]))


def _section_key(title: str) -> str:
    title = re.sub(r"^(?:#+\s*|\d+(?:\.\d+)*[.、]?\s*|[IVX]+\.\s*|[一二三四五六七八九十]+、|（[一二三四五六七八九十]+）|"
                   r"第[一二三四五六七八九十百]+[章节部分条]\s*|(?:Section|Part|Chapter)\s+\w+[.:]?\s*)", "", title.strip())
    return title.strip(" :：").lower()


def parse_seed(text: str) -> list[_SeedSection]:
    lines = [ln for ln in text.splitlines()]
    sections = [_SeedSection(title="", position=0.0)]
    total = max(len(lines), 1)
    for i, line in enumerate(lines):
        if _is_heading(line):
            sections.append(_SeedSection(title=line.strip(), position=i / total))
            continue
        current = sections[-1]
        for part in _FIELD_SPLIT.split(line):
            m = _LABELLED.match(part)
            if m and len(m.group(1).split()) <= 5 and not _TERMINAL.search(m.group(1)):
                current.fields.append((m.group(1).strip(), m.group(2).strip().rstrip(".。;；")))
        for kind, pattern in _PATTERNS:
            for match in pattern.finditer(line):
                current.mentions[kind] += 1
                if len(current.examples[kind]) < 3:
                    current.examples[kind].append(match.group(0))
    return [s for s in sections if s.title or s.fields or s.mentions]


def _slot_name(label: str, language: str) -> str:
    if language == "zh":
        return re.sub(r"\s+", "", label)
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_") or "field"


# A seed is one document (a report, a judgment, a record): a few to a few hundred kB.
MAX_SEED_BYTES = 8 * 1024 * 1024


def read_seed_files(paths: list[Path], language: str) -> list[tuple[Path, str]]:
    if not paths:
        raise InputError("no seed files given")
    texts = []
    for path in paths:
        text = read_text_file(path, MAX_SEED_BYTES, "seed file", "a seed is one document")
        if not text.strip():
            raise InputError(f"seed file {path} is empty")
        found = detect_language(text)
        if found != language:
            raise InputError(f"seed file {path} looks like {found!r} text but --language is {language!r}")
        texts.append((path, text))
    return texts


def summarize_seeds(texts: list[tuple[Path, str]], domain: str, language: str) -> DomainSchema:
    """Induce a schema skeleton from seed documents without an LLM."""
    merged: dict[str, dict] = {}
    for _, text in texts:
        for sec in parse_seed(text):
            key = _section_key(sec.title) or ("document" if language == "en" else "文档")
            entry = merged.setdefault(key, {"title": sec.title.strip() or key, "positions": [], "seen": 0,
                                            "fields": defaultdict(list), "mentions": Counter(),
                                            "examples": defaultdict(list)})
            entry["positions"].append(sec.position)
            entry["seen"] += 1
            for label, value in sec.fields:
                entry["fields"][label].append(value)
            entry["mentions"].update(sec.mentions)
            for kind, values in sec.examples.items():
                entry["examples"][kind].extend(values)
    if not merged:
        raise InputError("the seed files hold no sections, labelled fields or typed values to learn from")

    sections: list[SectionSpec] = []
    for key, entry in sorted(merged.items(), key=lambda kv: sum(kv[1]["positions"]) / len(kv[1]["positions"])):
        slots: list[SlotSpec] = []
        names: set[str] = set()
        for label, values in entry["fields"].items():
            kinds = Counter(value_kind(label, v) for v in values)
            kind = kinds.most_common(1)[0][0]
            distinct = list(dict.fromkeys(values))
            if kind == "text" and len(distinct) < len(values) and all(len(v) <= 20 for v in distinct):
                kind = "category"
            name = _slot_name(label, language)
            if name in names:
                continue
            names.add(name)
            slots.append(SlotSpec(name=name, kind=kind, description=label, examples=distinct[:3]))
        labelled_kinds = {s.kind for s in slots}
        for kind, n in entry["mentions"].most_common():
            if kind in labelled_kinds:
                continue
            name = f"{_slot_name(_section_key(entry['title']) or 'document', 'en') if language == 'en' else key}"
            slots.append(SlotSpec(name=f"{name}.{kind}_mentions[]", kind=kind,
                                  description=f"{n} {kind} value(s) mentioned in the prose of this section",
                                  examples=list(dict.fromkeys(entry["examples"][kind]))[:3]))
        sections.append(SectionSpec(name=_slot_name(key, language), title=entry["title"],
                                    description=f"seen in {entry['seen']} of {len(texts)} seed document(s)",
                                    slots=slots))
    return DomainSchema(
        domain=domain, language=language, genre=domain,
        description=f"Induced offline from {len(texts)} seed document(s); review and edit before use.",
        source="seeds: " + ", ".join(p.name for p, _ in texts), sections=sections,
    )
