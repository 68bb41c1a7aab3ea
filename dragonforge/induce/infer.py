"""Offline induction: seeds in, a genre pack (and the evidence for each of its choices) out.

Each seed is parsed (:mod:`dragonforge.induce.parse`); labelled values are aligned across seeds
into slots by label (English stems, Chinese characters and bigrams), value kind, section and
position; runs of record lines become groups with a record line induced from them; itemised
lines that add up to a total become an items group whose total is derived; differences that
hold in every seed become derived slots; date orders that hold in every seed become ``after``
rules; value generators are read off the seed values (code shapes, date styles, money style and
ranges widened, closed categories). Nothing a seed says goes into the pack except form: labels,
headings and short non-distinctive category values.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import math
import re
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from dragonforge.errors import InputError
from dragonforge.genre.model import NUMERIC_KINDS
from dragonforge.induce.leak import Fingerprint, distinctive, fingerprint, safe_pool_value
from dragonforge.induce.parse import Document, Field, Record, Section, parse
from dragonforge.induce.values import CODE, Value, classify, spans, words

NUMERIC = NUMERIC_KINDS
COMPATIBLE = [{"person", "organisation", "party"}, {"date", "datetime"}, {"count", "quantity"},
              {"category", "text", "place"}, {"text", "narrative"}, {"code", "text"}, {"address", "place", "text"}]
_ABBREV = {"no": "number", "nr": "number", "num": "number", "#": "number", "ref": "reference", "qty": "quantity",
           "amt": "amount", "dept": "department", "tel": "telephone", "addr": "address", "mgr": "manager",
           "est": "estimated", "approx": "approximate", "id": "identifier"}
_STOP = {"of", "the", "a", "an", "and", "for", "to", "on", "in", "at", "by", "with", "our", "its"}
_UNIT_WORDS = {
    "en": {"minute": "minute|minutes", "hour": "hour|hours", "day": "day|days", "week": "week|weeks",
           "month": "month|months", "year": "year|years", "second": "second|seconds"},
    "zh": {"minute": "分钟", "hour": "小时", "day": "天", "week": "周", "month": "个月", "year": "年", "second": "秒"},
}
_MINUTES = {"second": 1 / 60, "minute": 1, "hour": 60, "day": 1440, "week": 10080, "month": 43200, "year": 525600}


@dataclass
class Slot:
    """A slot found in the seeds, with its evidence."""

    name: str
    kind: str
    labels: list[str]  # aliases, the most used first
    occurrences: list[Field] = field(default_factory=list)
    seeds: set[int] = field(default_factory=set)
    section_key: int = -1
    derived: str | None = None
    spec: dict = field(default_factory=dict)  # genre.yaml fields beyond kind
    text: dict = field(default_factory=dict)  # <language>.yaml fields beyond labels
    confidence: float = 0.0
    note: str = ""

    @property
    def values(self) -> list[Value]:
        return [o.value for o in self.occurrences]


@dataclass
class Group:
    name: str
    layout: str  # items, timeline, list
    fields: dict[str, str]  # name -> kind
    line: str  # record line template
    records: list[tuple[int, Record, dict[str, Value]]] = field(default_factory=list)
    seeds: set[int] = field(default_factory=set)
    section_key: int = -1
    titles: list[str] = field(default_factory=list)
    totals: list[str] = field(default_factory=list)  # slots derived from it
    spec: dict = field(default_factory=dict)
    text: dict = field(default_factory=dict)


@dataclass
class Induction:
    genre: str
    language: str
    documents: list[Document]
    slots: dict[str, Slot]
    groups: dict[str, Group]
    sections: list[dict]
    entity: str
    constraints: list[tuple[str, str]]  # (check, name)
    titles: list[str]
    anchor: str
    withheld: list[dict]
    left_out: list[tuple[str, str]]  # (what, why)
    merged: list[tuple[str, list[str]]]
    fingerprint: Fingerprint
    warnings: list[str] = field(default_factory=list)


# --- labels ---------------------------------------------------------------------------------------


def label_tokens(label: str, language: str) -> set[str]:
    if language == "zh":
        chars = [c for c in label if "\u4e00" <= c <= "\u9fff"]
        return set(chars) | {a + b for a, b in zip(chars, chars[1:], strict=False)} | {w.lower() for w in re.findall(r"[A-Za-z]+", label)}
    out = set()
    for w in re.findall(r"[A-Za-z]+|#", label.lower()):
        w = _ABBREV.get(w, w)
        if w in _STOP:
            continue
        for suffix in ("ing", "ed", "es", "s"):
            if w.endswith(suffix) and len(w) - len(suffix) >= 3:
                w = w[: -len(suffix)]
                break
        out.add(w)
    return out


def _norm_label(label: str) -> str:
    return re.sub(r"[\s.:：#*_]+", " ", label.lower()).strip()


def label_similarity(a: str, b: str, language: str, weights: dict[str, float] | None = None) -> float:
    """Jaccard of the labels' tokens, each weighted by how rare it is among the labels
    (``date`` or ``total`` say less than ``inspection``)."""
    if _norm_label(a) == _norm_label(b):
        return 1.0
    ta, tb = label_tokens(a, language), label_tokens(b, language)
    if not ta or not tb:
        return 0.0
    if weights is None:
        return len(ta & tb) / len(ta | tb)
    w = lambda t: weights.get(t, 1.0)  # noqa: E731
    return sum(w(t) for t in ta & tb) / sum(w(t) for t in ta | tb)


def token_weights(labels: list[str], language: str) -> dict[str, float]:
    """Inverse label frequency of each token, scaled to 1 for a token of one label."""
    df = Counter(t for label in set(labels) for t in label_tokens(label, language))
    n = max(1, len(set(labels)))
    top = math.log(1 + n)
    return {t: math.log(1 + n / c) / top for t, c in df.items()}


def shape(text: str) -> str:
    return re.sub(r"(.)\1+", r"\1", re.sub(r"[A-Z]", "A", re.sub(r"[a-z]", "a", re.sub(r"\d", "9", text))))


def shape_similarity(a: str, b: str) -> float:
    """1 for two one-word values of one shape that a code or a name has (``INC-2023-1183`` and
    ``INC-2024-1107``, ``auth-gateway`` and ``checkout-api``), else 0."""
    if " " in a.strip() or " " in b.strip() or not re.search(r"[\d\-_/.]", a + b):
        return 0.0
    if _amount_or_date(a) or _amount_or_date(b):
        return 0.0  # amounts and dates share a shape with any other of their kind
    if shape(a) != shape(b):
        return 0.0
    pa, pb = re.split(r"[\d\-_/.]", a, maxsplit=1)[0], re.split(r"[\d\-_/.]", b, maxsplit=1)[0]
    return 1.0 if (pa == pb or not re.search(r"\d", a + b)) else 0.6


@functools.lru_cache(maxsize=65536)
def _amount_or_date(text: str) -> bool:
    return classify(text, "en").kind in ("money", "count", "percent", "quantity", "duration", "date", "datetime",
                                         "time")


def kinds_compatible(a: str, b: str) -> float:
    if a == b:
        return 1.0
    return 0.6 if any(a in s and b in s for s in COMPATIBLE) else 0.0


# --- the whole induction --------------------------------------------------------------------------


def induce(texts: list[tuple[str, str]], genre: str, language: str) -> Induction:
    """``texts``: (name, text) per seed. Raises InputError when the seeds cannot give a pack."""
    if len(texts) < 2:
        raise InputError(f"induction needs at least 2 seed documents of the genre (got {len(texts)}); "
                         "3 to 8 whose labels vary are best")
    docs = [parse(text, name, language) for name, text in texts]
    bare = [doc.name for doc in docs if len(doc.fields) + sum(len(r) for s in doc.sections for r in s.runs) < 2]
    warnings = [f"seed {name}: no labelled fields or record lines (only its prose can teach anything)"
                for name in bare]
    items, item_fields = _find_items(docs, language)
    plain = [f for d, doc in enumerate(docs) for f in doc.fields if (d, f.line, f.label) not in item_fields]
    owner = {id(f): d for d, doc in enumerate(docs) for f in doc.fields}
    slots = _align_fields(plain, owner, docs, language)
    _check_one_genre(docs, slots, owner)
    _prose_mentions(docs, slots, owner, language)
    _prose_frames(docs, slots, owner, language)
    items += _labelled_records(docs, slots, owner)
    groups = _find_groups(docs, items, language)
    fp = fingerprint(docs, language, [o.value for s in slots.values() for o in s.occurrences])
    ind = Induction(genre=genre, language=language, documents=docs, slots={}, groups={}, sections=[], entity="",
                    constraints=[], titles=[], anchor="", withheld=[], left_out=[], merged=[], fingerprint=fp)
    ind.warnings += warnings
    if not any(len(s.seeds) >= 2 for s in slots.values()) and not groups:
        raise InputError("the seeds share no labelled field, list or sentence frame: nothing to induce (give 3 to 8 "
                         "documents of one genre with `Label: value` lines, lists or tables"
                         + (f"; {len(bare)} of them have no fields at all" if bare else "") + ")")
    kept = {}
    n = len(docs)
    for slot in slots.values():
        if len(slot.seeds) < 2:
            label = slot.labels[0]
            ind.withheld.append({"label": label.lower() if language == "en" else label,
                                 "terms": [label]})
            ind.left_out.append((f"`{label}`", f"in 1 of {n} seeds: asked as a withheld fact instead"))
            continue
        kept[slot.name] = slot
    _name_slots(kept, language)
    for slot in kept.values():
        slot.confidence = round(len(slot.seeds) / n, 2)
        if len(slot.labels) > 1:
            ind.merged.append((slot.name, slot.labels))
    ind.slots = kept
    ind.groups = groups
    section_of = _align_sections(docs, kept, groups, language)
    _derive(ind)
    _generators(ind)
    ind.entity = _entity(ind)
    _sections(ind, section_of)
    _titles_and_anchor(ind)
    return ind


def _check_one_genre(docs: list[Document], slots: dict[str, Slot], owner: dict[int, int]) -> None:
    """Seeds of two genres share their fields within each genre, hardly across: refuse them (naming
    the two sets) rather than induce a mixture. Two seeds are linked when they share a third of
    the fields the smaller one has; the seeds must form one linked set."""
    n = len(docs)
    if n < 2:
        return
    shared: Counter[tuple[int, int]] = Counter()
    for slot in slots.values():
        for a, b in itertools.combinations(sorted(slot.seeds), 2):
            shared[(a, b)] += 1
    size = [max(1, len(doc.fields)) for doc in docs]
    parent = list(range(n))

    def find(x: int) -> int:
        while parent[x] != x:
            x = parent[x]
        return x

    for (a, b), k in shared.items():
        if k >= max(2, min(size[a], size[b]) / 3):
            parent[find(a)] = find(b)
    sets: dict[int, list[str]] = {}
    for d in range(n):
        if len(docs[d].fields) >= 5:  # a seed with few fields (a letter, a prose report) is not judged
            sets.setdefault(find(d), []).append(docs[d].name)
    big = list(sets.values())
    if len(big) >= 2:
        groups = " / ".join(", ".join(names[:3]) + ("..." if len(names) > 3 else "") for names in big[:2])
        raise InputError(f"the seeds do not look like one genre: they share their fields in separate sets ({groups}); "
                         "give documents of one genre")


# --- items: lines that add up to a total ----------------------------------------------------------


def _find_items(docs: list[Document], language: str):
    """Per seed, runs of numeric labelled lines followed by a line equal to their sum."""
    found: list[tuple[int, Section, list[Field], Field]] = []
    used: set[tuple[int, int, str]] = set()
    for d, doc in enumerate(docs):
        for section in doc.sections:
            fields = [f for f in section.fields if not f.in_prose]
            for end in range(len(fields)):
                total = fields[end]
                if total.value.kind not in NUMERIC or total.value.number is None:
                    continue
                for start in range(end - 2, -1, -1):
                    run = fields[start:end]
                    if any(f.value.kind != total.value.kind or f.value.number is None for f in run):
                        break
                    s = sum(f.value.number for f in run)  # type: ignore[misc]
                    if abs(s - total.value.number) <= max(0.005 * abs(total.value.number), 0.01) and \
                            not any((d, f.line, f.label) in used for f in run):
                        found.append((d, section, run, total))
                        used.update((d, f.line, f.label) for f in run)
                        break
    return found, used


# --- aligning labelled fields into slots ----------------------------------------------------------


def _section_title(docs: list[Document], d: int, index: int) -> str:
    for s in docs[d].sections:
        if s.index == index:
            return s.title
    return ""


def _align_fields(fields: list[Field], owner: dict[int, int], docs: list[Document], language: str) -> dict[str, Slot]:
    total = Counter(owner[id(f)] for f in fields)
    position = {id(f): (i / max(1, total[owner[id(f)]] - 1)) for d in total
                for i, f in enumerate(sorted((g for g in fields if owner[id(g)] == d), key=lambda g: g.order))}
    clusters: list[list[Field]] = []
    by_doc = defaultdict(list)
    for f in fields:
        by_doc[owner[id(f)]].append(f)
    order = sorted(by_doc, key=lambda d: -len(by_doc[d]))

    weights = token_weights([f.label for f in fields], language)

    pair_memo: dict[tuple[int, int], float] = {}

    def score(f: Field, cluster: list[Field]) -> float:
        return max((pair(f, g) for g in cluster), default=0.0)

    def pair(f: Field, g: Field) -> float:
        key = (id(f), id(g))
        if key not in pair_memo:
            pair_memo[key] = pair_score(f, g)
        return pair_memo[key]

    def pair_score(f: Field, g: Field) -> float:
        lab = label_similarity(f.label, g.label, language, weights)
        kind = kinds_compatible(f.value.kind, g.value.kind)
        if {f.value.kind, g.value.kind} == {"code", "text"} and not _code_like(
                f.value.text if f.value.kind == "text" else g.value.text):
            kind = 0.0  # working hours are not a permit number, though both labels say "work"
        shape = shape_similarity(f.value.text, g.value.text)
        # without a shared label word or value shape, only names and addresses of one kind align
        # (by place in the document); amounts and dates are too many in a document for that
        if (kind == 0 and lab < 1) or (lab == 0 and shape == 0 and not (
                kind == 1 and f.value.kind in ("person", "organisation", "party", "address"))):
            return 0.0
        sec = label_similarity(_section_title(docs, owner[id(f)], f.section),
                               _section_title(docs, owner[id(g)], g.section), language)
        pos = max(0.0, 1 - 3 * abs(position[id(f)] - position[id(g)]))
        return 0.5 * max(lab, 0.8 * shape) + 0.2 * kind + 0.15 * sec + 0.15 * pos

    for d in order:
        pairs = []
        for f in by_doc[d]:
            for c, cluster in enumerate(clusters):
                if any(owner[id(g)] == d for g in cluster):
                    continue
                s = score(f, cluster)
                if s >= 0.38:
                    pairs.append((s, f.order, c, f))
        taken_f, taken_c = set(), set()
        for _s, _, c, f in sorted(pairs, key=lambda p: (-p[0], p[1], p[2])):
            if id(f) in taken_f or c in taken_c:
                continue
            clusters[c].append(f)
            taken_f.add(id(f))
            taken_c.add(c)
        for f in by_doc[d]:
            if id(f) not in taken_f:
                clusters.append([f])
    clusters = _merge_disjoint(clusters, owner, score)
    clusters = _neighbour_pass(clusters, by_doc, owner)
    slots: dict[str, Slot] = {}
    for i, cluster in enumerate(clusters):
        # a label a seed wrote comes before one made up for a date after a name
        labels = [lc[0][0] for lc in sorted(Counter((f.label, f.companion) for f in cluster).most_common(),
                                            key=lambda lc: lc[0][1])]
        labels = list(dict.fromkeys(labels))
        slot = Slot(name=f"slot_{i}", kind=_slot_kind([f.value for f in cluster], labels, language), labels=labels,
                    occurrences=sorted(cluster, key=lambda f: owner[id(f)]))
        slot.seeds = {owner[id(f)] for f in cluster}
        slots[slot.name] = slot
    return slots


def _prose_mentions(docs: list[Document], slots: dict[str, Slot], owner: dict[int, int], language: str) -> None:
    """A typed value in a seed's prose joins the slot another seed labels, when the words around
    it share a word with the slot's labels (``61,300 users were affected`` and ``Users affected:``):
    the seed then supports the slot."""
    for d, doc in enumerate(docs):
        for section in doc.sections:
            for line, sentence in section.prose:
                for a, b, value in spans(sentence, language, counts=True):
                    if value.kind not in NUMERIC | {"date", "datetime"}:
                        continue
                    window = sentence[max(0, a - 40):b + 40] if language == "en" else sentence[max(0, a - 12):b + 12]
                    context = label_tokens(window.replace(value.text, " "), language)
                    best, best_score = None, 0.0
                    for slot in slots.values():
                        if d in slot.seeds or not any(kinds_compatible(value.kind, v.kind) == 1 for v in slot.values):
                            continue
                        tokens = set().union(*(label_tokens(lab, language) for lab in slot.labels))
                        if language == "zh":
                            tokens = {t for t in tokens if len(t) == 2}
                            context = {t for t in context if len(t) == 2}
                        overlap = len(tokens & context) / max(1, len(tokens))
                        if overlap > best_score:
                            best, best_score = slot, overlap
                    if best is not None and best_score >= 0.5:
                        occ = Field(best.labels[0], value, line, section.index, 10 ** 6 + line, in_prose=True,
                                    source=sentence)
                        doc.sections[doc.sections.index(section)].fields.append(occ)
                        owner[id(occ)] = d
                        best.occurrences.append(occ)
                        best.seeds.add(d)


def _prose_frames(docs: list[Document], slots: dict[str, Slot], owner: dict[int, int], language: str) -> None:
    """Slots stated in sentences written from one frame in several documents (see
    :mod:`dragonforge.induce.prose`), unless a labelled slot already holds the same values."""
    from dragonforge.induce.prose import prose_fields

    by_value = {}
    for name, slot in slots.items():
        for occ in slot.occurrences:
            by_value[(owner.get(id(occ)), occ.value.text)] = name
    for k, pairs in enumerate(prose_fields(docs, language)):
        ds = [d for d, _ in pairs]
        fields = [f for _, f in pairs]
        if sum(1 for f, d in zip(fields, ds, strict=False) if (d, f.value.text) in by_value) * 2 >= len(fields):
            continue  # the labelled slot says it already
        labels = [fields[0].label]
        kind = _slot_kind([f.value for f in fields], labels, language)
        slot = Slot(name=f"prose_{k}", kind=kind, labels=labels, occurrences=[])
        for f, d in zip(fields, ds, strict=False):
            if d in slot.seeds:
                continue
            section = next(sec for sec in docs[d].sections if sec.index == f.section)
            section.fields.append(f)
            owner[id(f)] = d
            slot.occurrences.append(f)
            slot.seeds.add(d)
        slots[slot.name] = slot


def _code_like(text: str) -> bool:
    """A text value that carries a reference (``临占许字〔2024〕第0417号``, ``ISO 13485:2016,
    certificate SE-13485-7720``, ``IATF 0451338``): clock times aside, it has a code-shaped word or
    a run of 4+ digits. Working hours (``白班07:00—19:00``) carry none."""
    rest = re.sub(r"\d{1,2}:\d\d(?::\d\d)?(?!\d)", " ", text)
    return bool(re.search(r"\d{4,}", rest)) or any(CODE.match(w) for w in re.split(r"[\s,，;；()（）]+", rest))


def _merge_disjoint(clusters: list[list[Field]], owner: dict[int, int], score) -> list[list[Field]]:
    """Two slots that no seed writes both of, and whose labels link them as strongly as a field
    joins a slot (``工程名称`` with ``工程``, ``项目名称`` with ``项目``, and ``工程名称`` with
    ``项目名称``), are one slot the greedy pass split because each seed can join only one."""
    while True:
        best = None
        for i, a in enumerate(clusters):
            seeds_a = {owner[id(f)] for f in a}
            for j in range(i + 1, len(clusters)):
                b = clusters[j]
                if seeds_a & {owner[id(f)] for f in b}:
                    continue
                s = min(max(score(f, b) for f in a), max(score(g, a) for g in b))
                if s >= 0.38 and (best is None or s > best[0]):
                    best = (s, i, j)
        if best is None:
            return clusters
        _, i, j = best
        clusters[i] = clusters[i] + clusters[j]
        del clusters[j]


def _neighbour_pass(clusters: list[list[Field]], by_doc: dict[int, list[Field]], owner: dict[int, int]) -> list[list[Field]]:
    """A field left alone joins a slot whose member in another seed stands between the same two
    aligned neighbours (``Policy number`` / ? / ``Insurer`` with ``Named insured`` and
    ``Policyholder``), when their kinds agree."""
    for _ in range(2):
        where = {id(f): c for c, cluster in enumerate(clusters) for f in cluster}
        seq = {d: sorted(fields, key=lambda f: f.order) for d, fields in by_doc.items()}

        def around(f: Field, seq=seq, where=where) -> tuple[int | None, int | None]:
            fs = seq[owner[id(f)]]
            i = fs.index(f)
            return (where.get(id(fs[i - 1])) if i > 0 else None, where.get(id(fs[i + 1])) if i + 1 < len(fs) else None)

        moved = False
        for c, cluster in enumerate(clusters):
            if len(cluster) != 1:
                continue
            f = cluster[0]
            d = owner[id(f)]
            prev, nxt = around(f)
            best, best_votes = None, 0
            for k, other in enumerate(clusters):
                if k == c or not other or any(owner[id(g)] == d for g in other):
                    continue
                votes = 0
                for g in other:
                    p2, n2 = around(g)
                    if kinds_compatible(f.value.kind, g.value.kind) < 1:
                        continue
                    votes = max(votes, (prev is not None and prev == p2) + (nxt is not None and nxt == n2))
                if votes > best_votes:
                    best, best_votes = k, votes
            if best is not None and best_votes >= 2:
                clusters[best].append(f)
                clusters[c] = []
                moved = True
        clusters = [cl for cl in clusters if cl]
        if not moved:
            break
    return clusters


def _slot_kind(values: list[Value], labels: list[str], language: str) -> str:
    kinds = Counter(v.kind for v in values)
    if kinds.get("time") and len(kinds) == 1:
        return "time"
    named = kinds["person"] + kinds["organisation"]
    if named and named + kinds["text"] >= len(values) * 0.99 and named >= len(values) / 2:
        if kinds["person"] and kinds["organisation"]:
            return "party"
        if kinds["text"]:  # names the name tests missed (short names, initials): the majority kind
            names = [v.text for v in values if v.kind == "text"]
            if all(len(n) <= 40 and not re.search(r"\d", n) for n in names):
                return "person" if kinds["person"] >= kinds["organisation"] else "organisation"
        return "person" if kinds["person"] else "organisation"
    kind, count = kinds.most_common(1)[0]
    if kind in ("text", "narrative") and any(re.search(r"address|地址|住址|坐落|地点", lab, re.I) for lab in labels) and \
            sum(1 for v in values if re.search(r"\d", v.text)) * 2 >= len(values):
        return "address"
    if kind in ("text", "narrative"):
        texts = [v.text for v in values]
        distinct = len(set(t.lower() for t in texts))
        if all(words(t, language) <= (4 if language == "en" else 8) for t in texts) and \
                (distinct < len(texts) or all(not re.search(r"\d", t) for t in texts)):
            return "category"
        if kinds.get("narrative", 0) * 2 >= len(values):
            return "narrative"
        return "text"
    if kind == "code" and len(set(v.text for v in values)) < len(values):
        return "category"  # codes that repeat are a closed set (SEV-1, P1)
    if kind == "count" and any(v.unit for v in values) and kinds.get("quantity"):
        return "quantity"
    return kind


def _name_slots(slots: dict[str, Slot], language: str) -> None:
    used: set[str] = set()
    renamed = {}
    for key, slot in slots.items():
        base = _ascii_name(slot.labels[0], language) or slot.kind
        name = base
        k = 2
        while name in used or name in ("item", "heading", "section_title", "entity", "domain", "language", "content"):
            name = f"{base}_{k}"
            k += 1
        used.add(name)
        slot.name = name
        renamed[key] = slot
    slots.clear()
    slots.update({s.name: s for s in renamed.values()})


def _ascii_name(label: str, language: str) -> str:
    if language == "zh" or re.search(r"[\u4e00-\u9fff]", label):
        from pypinyin import lazy_pinyin

        label = " ".join(lazy_pinyin(label))
    words_ = [_ABBREV.get(w, w) for w in re.findall(r"[a-z0-9]+", label.lower())]
    name = "_".join(w for w in words_ if w not in _STOP)[:36].strip("_")
    if name and not name[0].isalpha():
        name = "n_" + name
    return name


# --- groups: runs of record lines and itemised lines ----------------------------------------------


def _record_fields(text: str, language: str) -> list[tuple[int, int, Value]]:
    """The typed spans of a record line plus its free-text pieces (names, descriptions)."""
    typed = [(a, b, v) for a, b, v in spans(text, language)]
    out = list(typed)
    cuts = [0] + [x for a, b, _ in typed for x in (a, b)] + [len(text)]
    for a, b in zip(cuts[::2], cuts[1::2], strict=False):
        piece = text[a:b]
        for m in re.finditer(r"[^,，;；()（）:：\-–—|]+", piece):
            chunk = m.group(0).strip()
            if not chunk or not re.search(r"[A-Za-z\u4e00-\u9fff]", chunk):
                continue
            after = piece[m.end():m.end() + 1]
            if after in (":", "：") or (language == "en" and re.fullmatch(r"[a-z]+", chunk)) or \
                    (language == "zh" and len(chunk) <= 3 and after in (":", "：", "")):
                continue  # a label inside the record (owner:, due), kept as written
            start = a + m.start() + m.group(0).find(chunk)
            v = classify(chunk, language)
            if v.kind in ("person", "organisation"):
                out.append((start, start + len(chunk), v))
            elif words(chunk, language) >= (2 if language == "en" else 3) or v.kind in ("narrative", "text"):
                out.append((start, start + len(chunk), Value(chunk, "text")))
    out.sort(key=lambda s: s[0])
    merged: list[tuple[int, int, Value]] = []  # neighbouring free-text pieces are one description
    for a, b, v in out:
        if merged and v.kind == "text" and merged[-1][2].kind == "text" and \
                not re.search(r"[()（）:：]", text[merged[-1][1]:a]):
            pa = merged[-1][0]
            merged[-1] = (pa, b, Value(text[pa:b], "text"))
        else:
            merged.append((a, b, v))
    return merged


def _prefix_word(text: str, a: int, language: str) -> str:
    """The label word just before a field in a record (``owner`` in ``owner Mei Chen``)."""
    before = text[:a].rstrip(" :：")
    m = re.search(r"([A-Za-z]+|[\u4e00-\u9fff]{2,4})$", before)
    return m.group(1) if m else ""


def _labelled_records(docs: list[Document], slots: dict[str, Slot], owner: dict[int, int]) -> list[tuple]:
    """Runs of labelled lines whose labels other seeds rarely use (``Tower crane QTZ80: 1``,
    ``Concrete C30: 86 m³``) and whose values are amounts of one kind: records of a list, not
    slots. Mostly one-seed labels, at most two seeds each; their occurrences leave the slots and
    the runs join the itemised candidates (without a total)."""
    slot_of = {id(o): name for name, s in slots.items() for o in s.occurrences}
    found = []

    def weak(f: Field) -> bool:
        name = slot_of.get(id(f))
        return name is not None and len(slots[name].seeds) <= 2 and f.value.kind in NUMERIC and \
            f.value.number is not None

    for d, doc in enumerate(docs):
        for section in doc.sections:
            fields = [f for f in section.fields if not f.in_prose]
            i = 0
            while i < len(fields):
                j = i
                while j < len(fields) and weak(fields[j]) and fields[j].value.kind == fields[i].value.kind:
                    j += 1
                run = fields[i:j]
                alone = sum(1 for f in run if len(slots[slot_of[id(f)]].seeds) == 1)
                if len(run) >= 2 and alone * 2 >= len(run):
                    found.append((d, section, run, None))
                    for f in run:
                        slot = slots[slot_of[id(f)]]
                        slot.occurrences = [o for o in slot.occurrences if o is not f]
                        slot.seeds = {owner[id(o)] for o in slot.occurrences}
                        if not slot.occurrences:
                            slots.pop(slot.name, None)
                i = max(j, i + 1)
    return found


def _find_groups(docs: list[Document], items, language: str) -> dict[str, Group]:
    candidates = []  # (doc, section, layout, records as (Record, fields), total)
    for d, section, run, total in items:
        recs = [(Record(f.source, f.line, "item"), [(0, len(f.label), Value(f.label, "text")),
                                                   (0, 0, f.value)]) for f in run]
        candidates.append((d, section, "items", recs, total))
    for d, doc in enumerate(docs):
        for section in doc.sections:
            for run in section.runs:
                if len(run) < 2:
                    continue
                marker = Counter(r.marker for r in run).most_common(1)[0][0]
                layout = "timeline" if marker in ("time", "offset") else "list"
                recs = []
                for r in run:
                    body = r.text
                    if r.marker == "bullet":
                        body = re.sub(r"^\s*(?:[-*•·▪●○◦]\s+|\[[ xX]?\]\s*|[☐☑✔✓□■]\s*)", "", body)
                    elif r.marker == "number":
                        body = re.sub(r"^\s*(?:\d{1,2}[.)、]|\(\d{1,2}\)|（\d{1,2}）|[a-h][.)])\s*", "", body)
                    recs.append((Record(body, r.line, r.marker), _record_fields(body, language)))
                candidates.append((d, section, layout, recs, None))
    def affinity(cand, cluster) -> float:
        # the kinds of the records' fields (most common sequence) and the section's title
        if cluster[0][2] != cand[2]:
            return 0.0
        sig, other = set(_signature(cand)), set(_signature(cluster[0]))
        kind_sim = len(sig & other) / max(1, len(sig | other))
        title_sim = max(label_similarity(cand[1].title, c[1].title, language) for c in cluster)
        return 0.6 * kind_sim + 0.4 * title_sim

    clusters = _greedy_clusters(candidates, affinity)
    groups: dict[str, Group] = {}
    for cluster in clusters:
        if len({c[0] for c in cluster}) < 2:
            continue
        group = _make_group(cluster, language)
        if group is None:
            continue
        name = group.name
        k = 2
        while name in groups:
            name = f"{group.name}_{k}"
            k += 1
        group.name = name
        groups[name] = group
    return groups


def _greedy_clusters(items: list[tuple], affinity, threshold: float = 0.5) -> list[list[tuple]]:
    """Each item (its first element the seed it comes from) joins the cluster it fits best, if
    that fit reaches ``threshold`` and the cluster has nothing from its seed yet; else it starts
    one."""
    clusters: list[list[tuple]] = []
    for item in items:
        best, best_score = None, 0.0
        for cluster in clusters:
            if any(c[0] == item[0] for c in cluster):
                continue
            score = affinity(item, cluster)
            if score > best_score:
                best, best_score = cluster, score
        if best is not None and best_score >= threshold:
            best.append(item)
        else:
            clusters.append([item])
    return clusters


def _signature(cand) -> tuple[str, ...]:
    _, _, layout, recs, _ = cand
    sigs = Counter(tuple(v.kind for _, _, v in fields) for _, fields in recs)
    return sigs.most_common(1)[0][0]


def _make_group(cluster, language: str) -> Group | None:
    layout = cluster[0][2]
    titles = list(dict.fromkeys(c[1].title for c in cluster if c[1].title))
    name = _ascii_name(titles[0], language) if titles else layout
    if layout == "items":
        amount_kind = Counter(fs[1][2].kind for c in cluster for _, fs in c[3]).most_common(1)[0][0]
        fields = {"description": "category", "amount": amount_kind}
        colon = "：" if language == "zh" else ": "
        group = Group(name=name or "items", layout="items", fields=fields,
                      line="{{ item.description }}" + colon + "{{ item.amount }}", titles=titles)
        for d, _section, _, recs, _total in cluster:
            group.seeds.add(d)
            for rec, fs in recs:
                group.records.append((d, rec, {"description": fs[0][2], "amount": fs[1][2]}))
        group.spec["_totals"] = [(c[0], c[4]) for c in cluster if c[4] is not None]
        return group
    sig_counts = Counter(_signature(c) for c in cluster)
    sig = sig_counts.most_common(1)[0][0]
    if not sig:
        return None
    # the representative record: the first one with the signature
    rep = None
    records = []
    for d, _section, _, recs, _ in cluster:
        for rec, fs in recs:
            if tuple(v.kind for _, _, v in fs) == sig:
                records.append((d, rec, fs))
                rep = rep or (rec, fs)
    if rep is None or len({d for d, _, _ in records}) < 2:
        return None
    rec, fs = rep
    names: list[str] = []
    for a, _b, v in fs:
        base = _ascii_name(_prefix_word(rec.text, a, language), language) if v.kind not in ("text",) else ""
        base = base or {"time": "time", "date": "date", "datetime": "time", "money": "amount", "person": "person",
                        "organisation": "organisation", "text": "description", "duration": "offset",
                        "count": "number", "quantity": "quantity", "percent": "percent", "code": "code"}.get(v.kind, v.kind)
        k, nm = 2, base
        while nm in names:
            nm = f"{base}_{k}"
            k += 1
        names.append(nm)
    line = ""
    cursor = 0
    for (a, b, _), nm in zip(fs, names, strict=False):
        line += _lit(rec.text[cursor:a]) + "{{ item." + nm + " }}"
        cursor = b
    line += _lit(rec.text[cursor:])
    fields = {nm: v.kind for nm, (_, _, v) in zip(names, fs, strict=False)}
    group = Group(name=name or layout, layout=layout, fields=fields, line=line, titles=titles)
    for d, r, f in records:
        group.seeds.add(d)
        group.records.append((d, r, {nm: v for nm, (_, _, v) in zip(names, f, strict=False)}))
    return group


def _lit(text: str) -> str:
    return text.replace("{", "{{ '{' }}").replace("}", "{{ '}' }}") if ("{" in text or "}" in text) else text


# --- relations ------------------------------------------------------------------------------------


def _per_seed(slot: Slot) -> dict[int, Value]:
    out: dict[int, Value] = {}
    for occ in slot.occurrences:
        out.setdefault(_seed_of(slot, occ), occ.value)
    return out


def _seed_of(slot: Slot, occ: Field) -> int:
    return slot.spec.get("_seed_by_line", {}).get(id(occ), -1)


def _derive(ind: Induction) -> None:
    docs = ind.documents
    owner = {id(f): d for d, doc in enumerate(docs) for f in doc.fields}
    for slot in ind.slots.values():
        slot.spec["_seed_by_line"] = {id(o): owner.get(id(o), -1) for o in slot.occurrences}
    values = {name: {d: v.number for d, v in _per_seed(s).items() if v.number is not None}
              for name, s in ind.slots.items() if s.kind in NUMERIC}
    # group totals: a slot equal to its group's sum in every seed
    for group in ind.groups.values():
        totals = group.spec.pop("_totals", [])
        if not totals:
            continue
        hits: Counter[str] = Counter()
        for _d, total in totals:
            for name, slot in ind.slots.items():
                if any(o is total for o in slot.occurrences):
                    hits[name] += 1
        if hits:
            name, n = hits.most_common(1)[0]
            slot = ind.slots[name]
            if n >= 2 and slot.kind == group.fields["amount"]:
                slot.derived = f"{group.name}|sum(attribute='amount')"
                group.totals.append(name)
                ind.constraints.append((f"{name} > 0", f"the {slot.labels[0]} is above zero"))
    # differences: X = Y - Z (- W) in every seed that has them all (at least 2 seeds)
    names = [n for n in values if not ind.slots[n].derived or True]
    for x in names:
        if ind.slots[x].derived:
            continue
        # the terms of a difference: amounts of its kind that every seed having x also has, each
        # below x's first term; and a term is never over x's seeds' own values in a way that cannot
        # add up (checked below)
        seeds_x = set(values[x])
        near = [n for n in names if n != x and ind.slots[n].kind == ind.slots[x].kind and
                seeds_x <= set(values[n])]
        for size in (1, 2):
            found = None
            for y in near:
                if any(values[y][d] < values[x][d] for d in seeds_x):
                    continue
                subs_pool = [n for n in near if n != y and all(values[n][d] <= values[y][d] for d in seeds_x)]
                for subs in itertools.combinations(subs_pool, size):
                    if any(ind.slots[s].derived and x in (ind.slots[s].derived or "") for s in subs):
                        continue
                    seeds = set(values[x]) & set(values[y])
                    for s in subs:
                        seeds &= set(values[s])
                    if len(seeds) < 2 or seeds != set(values[x]):
                        continue
                    if all(abs(values[y][d] - sum(values[s][d] for s in subs) - values[x][d]) <=
                           max(0.005 * abs(values[y][d]), 0.01) for d in seeds):
                        found = (y, subs)
                        break
                if found:
                    break
            if found and not _depends_on(ind, found[0], x) and not any(_depends_on(ind, s, x) for s in found[1]):
                y, subs = found
                ind.slots[x].derived = f"{y} - " + " - ".join(subs)
                ind.constraints.append((f"{x} > 0", f"the {ind.slots[x].labels[0]} is above zero"))
                break


def _depends_on(ind: Induction, name: str, target: str, seen: set[str] | None = None) -> bool:
    seen = seen or set()
    slot = ind.slots.get(name)
    if slot is None or not slot.derived or name in seen:
        return False
    seen.add(name)
    refs = set(re.findall(r"[a-z][a-z0-9_]*", slot.derived))
    return target in refs or any(_depends_on(ind, r, target, seen) for r in refs)


# --- generators -----------------------------------------------------------------------------------


def _widen(low: float, high: float, log: bool, money: bool = False) -> tuple[float, float]:
    if (log or money) and low > 0:
        return low / 2, high * 2
    span = max(high - low, abs(high) * 0.5, 1)
    return max(0.0, low - span / 2) if low >= 0 else low - span / 2, high + span / 2


def _rounding(numbers: list[float]) -> float | None:
    for r in (100000, 10000, 1000, 500, 100, 50, 10, 5, 1):
        if all(abs(x / r - round(x / r)) < 1e-9 for x in numbers) and all(x >= r for x in numbers if x):
            return float(r)
    return None


def _number_spec(kind: str, numbers: list[float], text: dict, values: list[Value], language: str) -> dict:
    spec: dict = {}
    if kind == "duration":
        unit = Counter(v.unit for v in values if v.unit).most_common(1)
        unit_key = unit[0][0] if unit else "day"
        numbers = [x / _MINUTES[unit_key] for x in numbers]
        spec["unit"] = unit_key
        text.setdefault("_units", {})[unit_key] = _UNIT_WORDS[language][unit_key]
    positive = [x for x in numbers if x > 0] or [1.0]
    low, high = min(numbers), max(numbers)
    if kind == "money":  # a stray small figure (a count read as an amount) does not set the floor
        low = max(low, high / 1000)
    log = kind == "money" and high / max(min(positive), 1e-9) > 20
    low, high = _widen(low if low > 0 or kind != "money" else min(positive), high, log, kind == "money")
    if kind == "percent":
        low, high = max(0.0, low), min(100.0, high)
    spec["range"] = [_tidy(low), _tidy(max(high, low + 1))]
    if log:
        spec["scale"] = "log"
    r = _rounding(numbers)
    if kind in ("money", "count") and r and r > 1:
        spec["round"] = r if r != int(r) else int(r)
    if kind in ("money", "percent", "quantity"):
        decimals = max((len(v.text.split(".")[-1].rstrip("%万元亿 kgmt³²°CLh")) if re.search(r"\.\d", v.text) else 0)
                       for v in values)
        spec["decimals"] = min(decimals, 2) if kind == "money" else min(decimals, 2)
    if kind == "quantity":
        unit = Counter(v.unit for v in values if v.unit).most_common(1)
        word = unit[0][0] if unit else "unit"
        key = _ascii_name(word, "en") or "unit"
        if not key or not key[0].isalpha():
            key = "u_" + key
        spec["unit"] = key
        text.setdefault("_units", {})[key] = word
    if kind == "count":
        unit = Counter(v.unit for v in values if v.unit).most_common(1)
        if unit and sum(1 for v in values if v.unit) * 2 >= len(values):
            key = _ascii_name(unit[0][0], language) or "unit"
            spec["unit"] = key
            text.setdefault("_units", {})[key] = unit[0][0]
    return spec


def _tidy(x: float) -> float | int:
    if abs(x) >= 100:
        mag = 10 ** max(0, int(math.log10(abs(x))) - 1)
        x = round(x / mag) * mag
    return int(x) if float(x).is_integer() else round(x, 2)


def _code_pattern(codes: list[str], years: dict[str, list[int | None]]) -> tuple[str, str | None]:
    """A bothify pattern that every code fits: the parts all codes share kept, digits ``#``,
    letters ``?``, a part equal to a date slot's year as ``{year:slot}``."""
    if len(set(codes)) == 1:  # one example says nothing of what is constant: its shape only
        return "".join("#" if ch.isdigit() else "?" if ch.isalpha() else ch for ch in codes[0]), None
    codes = [c for c in codes if CODE.match(c)] or codes  # a reference some seed wrote in words: not a shape
    parts = [re.split(r"([-/_.#\s])", c) for c in codes]
    lengths = Counter(len(p) for p in parts)
    n = max(lengths, key=lambda k: (lengths[k], k))
    same = [p for p in parts if len(p) == n]
    if len(same) == 1:
        return _code_pattern(["".join(same[0])] * 2, years)
    out = []
    year_slot = None
    for i in range(n):
        column = [p[i] for p in same]
        if len(set(column)) == 1 and not re.fullmatch(r"\d{3,}", column[0]):
            out.append(column[0])
            continue
        if all(re.fullmatch(r"(19|20)\d\d", c) for c in column):
            for slot, ys in years.items():
                if len(ys) == len(column) and all(str(y) == c for y, c in zip(ys, column, strict=False)):
                    year_slot = slot
                    break
            out.append(f"{{year:{year_slot}}}" if year_slot else "20##")
            continue
        longest = max(column, key=len)
        out.append("".join("#" if ch.isdigit() else "?" if ch.isalpha() else ch for ch in longest))
    pattern = "".join(out)
    if "#" not in pattern and "?" not in pattern:
        pattern += "-####"
    return pattern, year_slot


def _generators(ind: Induction) -> None:
    language = ind.language
    fp = ind.fingerprint
    for name, slot in list(ind.slots.items()):
        values = slot.values
        kind = slot.kind
        if slot.derived:
            if kind == "money":
                slot.spec["decimals"] = 2 if any(re.search(r"\.\d\d\b", v.text) for v in values) else 0
            continue
        if kind in NUMERIC:
            numbers = [v.number for v in values if v.number is not None]
            if not numbers:
                slot.kind = kind = "text"
            else:
                slot.spec.update(_number_spec(kind, numbers, slot.text, values, language))
                if kind == "money":
                    style = "scaled" if any(v.style == "scaled" for v in values) else "plain"
                    slot.text["style"] = style
                    signs = Counter(v.unit for v in values if v.unit)
                    if signs:
                        slot.text["_currency"] = signs.most_common(1)[0][0]
                continue
        if kind in ("date", "datetime"):
            days = [v.day for v in values if v.day]
            start, end = min(days), max(days)
            slot.spec["window"] = [dt.date(start.year - 1, 1, 1).isoformat(), dt.date(end.year + 1, 12, 31).isoformat()]
            slot.text["style"] = Counter(v.style for v in values).most_common(1)[0][0]
            if slot.text["style"] in ("long", "dmy"):
                slot.text["style"] = "long"
            elif slot.text["style"] in ("numeric", "ymd_slash"):
                slot.text["style"] = "numeric"
            elif slot.text["style"] in ("iso", "dotted"):
                slot.text["style"] = "iso"
            else:
                slot.text.pop("style")
            continue
        if kind == "time":
            slot.spec["range"] = [360, 1320]
            continue
        if kind == "code":
            continue  # its pattern after the dates are known (a code may hold a date's year)
        if kind in ("person", "organisation", "party", "address", "place"):
            if kind == "party":
                people = sum(1 for v in values if v.kind == "person")
                slot.spec["mix"] = {"person": round(max(0.1, min(0.9, people / len(values))), 2),
                                    "organisation": round(max(0.1, min(0.9, 1 - people / len(values))), 2)}
            continue
        contexts = [(lab + (": " if language == "en" else "："), "") for lab in slot.labels]
        pool = _pool([v.text for v in values], fp, language, contexts)
        if not pool and kind in ("text", "narrative"):
            pool = _short_pool([v.text for v in values], fp, language, contexts)
            if pool:
                slot.note = f"pool of {len(pool)} clause(s) cut from the seeds' values, each under a prose run"
        if not pool and kind in ("text", "category") and _name_like(values, language):
            pool = _synthetic_names(ind.genre, name, slot.labels[0], values, language)
            slot.note = f"pool of {len(pool)} names made with Faker (the seeds' names are theirs)"
            slot.spec["_name"] = True  # the name of a thing: as much an entity as an organisation's
        if not pool:
            ind.left_out.append((f"`{slot.labels[0]}`", f"open {kind}: its {len(values)} seed values are distinctive "
                                 "or long prose, so the pack has no vocabulary for it; write a pool to add it"))
            del ind.slots[name]
            continue
        distinct = len({v.text.lower() for v in values})
        slot.spec["closed"] = distinct < len(values)
        if not slot.spec["closed"] and not slot.note:
            slot.note = f"open: {len(pool)} seed value(s) as its only vocabulary"
        slot.text["pool"] = pool
    dates = {n: [v.day.year for v in s.values if v.day] for n, s in ind.slots.items() if s.kind in ("date", "datetime")}
    for slot in ind.slots.values():
        if slot.kind == "code" and not slot.derived:
            ordered = {n: [_per_seed_year(ind, n, d) for d in sorted(slot.seeds)] for n in dates}
            pattern, year = _code_pattern([v.text for v in slot.values], ordered)
            slot.spec["pattern"] = pattern
    _date_order(ind)
    _amount_order(ind)
    for group in ind.groups.values():
        _group_generators(ind, group)


def _per_seed_year(ind: Induction, name: str, d: int) -> int | None:
    slot = ind.slots[name]
    for occ in slot.occurrences:
        if slot.spec.get("_seed_by_line", {}).get(id(occ)) == d and occ.value.day:
            return occ.value.day.year
    return None


def _name_like(values: list[Value], language: str) -> bool:
    """Values that name a thing (a project, a product, a site): short, no sentence, each
    different, most of them proper names (capitalised words; in Chinese, no clause)."""
    texts = [v.text for v in values]
    if len(set(texts)) < len(texts) or any(len(t) > 60 or re.search(r"[.。!?！？;；]$", t) for t in texts):
        return False
    if language == "zh":
        return all(len(t) <= 32 and "，" not in t for t in texts)
    capitalised = [t for t in texts if sum(1 for w in t.split() if w[:1].isupper()) >= 2]
    return len(capitalised) * 2 > len(texts)


def _synthetic_names(genre: str, slot: str, label: str, values: list[Value], language: str) -> list[str]:
    """Names of the slot's kind made with Faker (seeded by the genre and slot, so induction stays
    deterministic): a place or a surname, then the head word the seeds' names share, else the
    label's last word."""
    from dragonforge.domains._common import faker_for
    from dragonforge.rng import derive_seed

    fake = faker_for(language, derive_seed(0, f"{genre}.{slot}") % (2 ** 32))
    texts = [v.text for v in values]
    if language == "zh":
        ends = Counter(t[-k:] for t in texts for k in (2, 3) if len(t) > k)
        head = next((e for e, c in ends.most_common() if c >= 2 and re.fullmatch(r"[\u4e00-\u9fff]+", e)), None)
        head = head or re.sub(r"(名称|编号|名字)$", "", label) or label
        return sorted({fake.city_name() + fake.street_name()[:2] + head for _ in range(12)})
    words_ = Counter(w for t in texts for w in set(re.findall(r"\b[A-Z][a-z]{3,}\b", t)))
    head = next((w for w, c in words_.most_common() if c >= 2), None) or label.split()[-1].title()
    return sorted({f"{fake.last_name()} {fake.street_suffix()} {head}" for _ in range(12)})


def _pool(texts: list[str], fp: Fingerprint, language: str, contexts: list[tuple[str, str]]) -> list[str]:
    out: list[str] = []
    for t in texts:
        t = t.strip().rstrip(".。")
        if safe_pool_value(t, fp, language, contexts) and t.lower() not in {o.lower() for o in out}:
            out.append(t)
    return out


def _date_order(ind: Induction) -> None:
    dates = {n: {d: v.day for d, v in _per_seed(s).items() if v.day} for n, s in ind.slots.items()
             if s.kind in ("date", "datetime") and not s.derived}
    names = sorted(dates, key=lambda n: min(ind.slots[n].occurrences, key=lambda o: o.order).order)
    for b in names:
        best = None
        for a in names:
            if a == b or ind.slots[a].spec.get("after", {}).get("slot") == b:
                continue
            common = set(dates[a]) & set(dates[b])
            if len(common) < 2 or len(common) < 0.75 * len(dates[b]):
                continue
            gaps = [(dates[b][d] - dates[a][d]).days for d in common]
            if min(gaps) >= 0 and max(gaps) <= 400 and (best is None or max(gaps) < best[1]):
                best = (a, max(gaps), min(gaps))
        if best:
            a, high, low = best
            if _after_chain(ind, a, b):
                continue
            ind.slots[b].spec["after"] = {"slot": a, "days": [max(0, low // 2), max(high * 2, low + 1, 1)]}
            ind.slots[b].spec.pop("window", None)
            ind.constraints.append((f"{b} >= {a}", f"{ind.slots[b].labels[0]} on or after {ind.slots[a].labels[0]}"))


def _amount_order(ind: Induction) -> None:
    """``a < b`` for two amounts of one kind that three or more seeds state together and that
    every such seed orders the same way (a net below a gross, an excess below a sum insured);
    only the links of the chain, not what follows from them."""
    values = {n: {d: v.number for d, v in _per_seed(s).items() if v.number is not None}
              for n, s in ind.slots.items() if s.kind == "money"}
    less: set[tuple[str, str]] = set()
    for a, b in itertools.permutations(values, 2):
        common = set(values[a]) & set(values[b])
        if len(common) >= 3 and all(values[a][d] < values[b][d] for d in common):
            less.add((a, b))
    for a, b in sorted(less):
        if any((a, c) in less and (c, b) in less for c in values):
            continue  # implied by a chain through c
        derived = ind.slots[a].derived
        if derived and b in derived:
            continue
        ind.constraints.append((f"{a} < {b}", f"the {ind.slots[a].labels[0]} is below the {ind.slots[b].labels[0]}"))


def _after_chain(ind: Induction, start: str, target: str) -> bool:
    seen: set[str] = set()
    cur: str | None = start
    while cur and cur not in seen:
        if cur == target:
            return True
        seen.add(cur)
        cur = ind.slots[cur].spec.get("after", {}).get("slot") if cur in ind.slots else None
    return False


def _group_generators(ind: Induction, group: Group) -> None:
    language = ind.language
    per_field: dict[str, list[Value]] = defaultdict(list)
    counts = Counter(d for d, _, _ in group.records)
    for _, _, vals in group.records:
        for k, v in vals.items():
            per_field[k].append(v)
    group.spec["count"] = [max(1, min(counts.values()) - 1), max(counts.values()) + 1]
    fields: dict[str, dict] = {}
    texts: dict[str, dict] = {}
    for fname, kind in list(group.fields.items()):
        values = per_field[fname]
        spec: dict = {"kind": kind}
        text: dict = {}
        if kind in NUMERIC:
            numbers = [v.number for v in values if v.number is not None]
            spec.update(_number_spec(kind, numbers or [1.0], text, values, language))
        elif kind in ("date", "datetime"):
            days = [v.day for v in values if v.day]
            spec["window"] = [dt.date(min(days).year - 1, 1, 1).isoformat(), dt.date(max(days).year + 1, 12, 31).isoformat()]
        elif kind == "time":
            spec["range"] = [360, 1320]
        elif kind == "code":
            spec["pattern"] = _code_pattern([v.text for v in values], {})[0]
        elif kind in ("person", "organisation", "place", "address"):
            pass
        else:
            spec["kind"] = "category"
            contexts = [_around(group.line, fname)]
            pool = _pool([v.text for v in values], ind.fingerprint, language, contexts)
            if len(pool) < 2:
                pool = _short_pool([v.text for v in values], ind.fingerprint, language, contexts)
            if not pool:
                ind.left_out.append((f"group `{group.name}`", f"its {fname} values are all distinctive or long "
                                     "prose: no vocabulary; write a pool to add the group"))
                group.spec["_drop"] = True
                return
            text["pool"] = pool
            spec["closed"] = False
        fields[fname] = spec
        texts[fname] = text
    if group.layout == "timeline":
        order = next((f for f, k in group.fields.items() if k in ("time", "duration", "count", "datetime", "date")), None)
        if order:
            group.spec["order_by"] = order
    group.spec["fields"] = fields
    group.text["fields"] = texts


def _around(line: str, field: str) -> tuple[str, str]:
    """The literal text either side of a field in a record line (other fields left out)."""
    before, _, after = line.partition("{{ item." + field + " }}")
    before = re.split(r"\}\}", before)[-1]
    after = re.split(r"\{\{", after)[0]
    return before, after


def _short_pool(texts: list[str], fp: Fingerprint, language: str, contexts: list[tuple[str, str]]) -> list[str]:
    """The clauses of long record texts that are safe on their own (a timeline's events)."""
    out: list[str] = []
    for t in texts:
        for clause in re.split(r"\s*(?:[,，;；]|\band\b|\bthen\b|；|并|后)\s*", t):
            clause = clause.strip().rstrip(".。")
            if words(clause, language) >= (2 if language == "en" else 4) and \
                    safe_pool_value(clause, fp, language, contexts) and \
                    clause.lower() not in {o.lower() for o in out}:
                out.append(clause[:1].upper() + clause[1:] if language == "en" else clause)
    return out


# --- entity, sections, titles ---------------------------------------------------------------------


def _entity(ind: Induction) -> str:
    """The slot naming what each document is about: in (nearly) every seed, a different value in
    each, named in the seeds' titles where they name anything, early in the document."""
    n = len(ind.documents)
    candidates = []
    for name, slot in ind.slots.items():
        if slot.kind not in ("person", "organisation", "party", "code", "text", "place", "category") or slot.derived:
            continue
        texts = [v.text for v in slot.values]
        if len(set(texts)) < len(texts) or len(slot.seeds) < max(2, n / 2):
            continue
        orders = sorted(o.order for o in slot.occurrences)
        candidates.append((orders[len(orders) // 2], name, slot))
    if not candidates:
        candidates = [(min(o.order for o in s.occurrences), n_, s) for n_, s in ind.slots.items()
                      if s.kind in ("person", "organisation", "party", "code", "text", "place") and not s.derived]
    best, best_score = None, -1.0
    for rank, (_, name, slot) in enumerate(sorted(candidates, key=lambda c: c[0])):
        support = len(slot.seeds) / n
        in_title = sum(1 for o in slot.occurrences for d in [slot.spec["_seed_by_line"].get(id(o))]
                       if d is not None and d >= 0 and _named_in(o.value.text, ind.documents[d])) / n
        # a document is about a name far more often than about its own reference number
        weight = 1.4 if slot.spec.get("_name") else {"party": 1.4, "organisation": 1.4, "person": 1.1, "text": 0.9,
                                                      "place": 0.6, "code": 0.2, "category": 0.3}[slot.kind]
        score = 2 * support + 2 * in_title + weight + max(0.0, 0.6 - 0.15 * rank)
        if score > best_score:
            best, best_score = name, score
    if best is None:
        raise InputError("no slot names one document in every seed (a name, a code or a title that differs from "
                         "seed to seed): the inducer cannot find the documents' entity")
    return best


def _named_in(value: str, doc: Document) -> bool:
    """Whether a document's title lines (those before its first field) or file name name the
    value (a word of it, 4+ letters; in Chinese a run of 4 of its characters)."""
    first = min((f.line for s in doc.sections for f in s.fields), default=doc.title_line + 1)
    head = [ln.strip() for ln in doc.text.split("\n")[:max(first - 1, doc.title_line)] if ln.strip()][:3]
    title, name = " ".join(head).lower(), doc.name.lower()
    if value[:12].lower() in title:
        return True
    if re.search(r"[\u4e00-\u9fff]", value):
        # a run of 4 characters: two characters are often only the city both names start with
        return any(value[i:i + 4] in title for i in range(max(1, len(value) - 3)))
    words_ = [w for w in re.findall(r"[a-z]{4,}", value.lower()) if w not in _STOP]
    return bool(words_) and any(w in name or w in title for w in words_[:2])


def _align_sections(docs: list[Document], slots: dict[str, Slot], groups: dict[str, Group], language: str):
    """Seed sections clustered across seeds by the slots they hold and their titles."""
    slot_of = {}
    for name, slot in slots.items():
        for occ in slot.occurrences:
            slot_of[id(occ)] = name
    members = []  # (doc, section, set of slots/groups)
    for d, doc in enumerate(docs):
        for section in doc.sections:
            held = {slot_of.get(id(f)) for f in section.fields} - {None}
            held |= {g for g, grp in groups.items() if any(r.line >= section.line and dd == d and
                                                           _in_section(doc, section, r.line) for dd, r, _ in grp.records)}
            members.append((d, section, held))
    def affinity(m, cluster) -> float:
        # the slots the sections hold, or their titles
        held_c = set().union(*(c[2] for c in cluster))
        overlap = len(m[2] & held_c) / max(1, min(len(m[2]), len(held_c)))
        title = max(label_similarity(m[1].title, c[1].title, language) for c in cluster)
        return max(overlap, title if m[1].title else 0)

    clusters = _greedy_clusters(sorted(members, key=lambda m: -len(m[2])), affinity)
    out = {}
    for k, cluster in enumerate(clusters):
        for d, section, _held in cluster:
            out[(d, section.index)] = k
    return out, clusters


def _in_section(doc: Document, section: Section, line: int) -> bool:
    nxt = [s.line for s in doc.sections if s.line > section.line]
    return section.line <= line < (min(nxt) if nxt else 10 ** 9)


def _sections(ind: Induction, section_of) -> None:
    mapping, clusters = section_of
    language = ind.language
    placed: set[str] = set()
    sections = []
    for k, cluster in enumerate(clusters):
        titles = []
        for _, section, _ in cluster:
            t = section.title.strip()
            if t and not distinctive(t, ind.fingerprint, language) and t not in titles:
                titles.append(t)
        held = set().union(*(c[2] for c in cluster))
        slots = [n for n in ind.slots if n in held and n not in placed and not _is_group_total(ind, n)]
        group_names = [g for g in ind.groups if g in held and g not in placed and not ind.groups[g].spec.get("_drop")]
        positions = [section.line / max(1, len(ind.documents[d].lines)) for d, section, _ in cluster]
        where = sum(positions) / len(positions)
        for g in group_names:
            group = ind.groups[g]
            after = [t for t in group.totals if t in ind.slots]
            sections.append({"id": g, "layout": group.layout, "group": g, "after": after, "where": where,
                             "titles": titles or [t for t in group.titles if not distinctive(t, ind.fingerprint, language)],
                             "presence": len(group.seeds) / len(ind.documents)})
            placed.add(g)
            placed.update(after)
        if slots:
            sid = _ascii_name(titles[0], language) if titles else ""
            sections.append({"id": sid or f"section_{k + 1}", "layout": "fields", "slots": slots, "where": where,
                             "titles": titles, "presence": 1.0})
            placed.update(slots)
    rest = [n for n in ind.slots if n not in placed]
    if rest:
        sections.append({"id": "other", "layout": "fields", "slots": rest, "where": 1.0, "titles": [], "presence": 1.0})
    # ids unique, titles present, in document order
    seen: set[str] = set()
    for s in sorted(sections, key=lambda s: s["where"]):
        base = s["id"] or "section"
        sid, k = base, 2
        while sid in seen or sid in ind.slots and s.get("group") != sid:
            sid = f"{base}_{k}"
            k += 1
        seen.add(sid)
        s["id"] = sid
        if not s["titles"]:
            s["titles"] = [""]
        ind.sections.append(s)


def _is_group_total(ind: Induction, name: str) -> bool:
    return any(name in g.totals for g in ind.groups.values() if not g.spec.get("_drop"))


def _titles_and_anchor(ind: Induction) -> None:
    language = ind.language
    entity = ind.slots[ind.entity]
    titles = []
    for d, doc in enumerate(ind.documents):
        title = doc.title.strip()
        if not title:
            continue
        for occ in entity.occurrences:
            if entity.spec["_seed_by_line"].get(id(occ)) == d and occ.value.text in title:
                title = title.replace(occ.value.text, "\0")
        if distinctive(title.replace("\0", ""), ind.fingerprint, language):
            continue
        title = _lit(title).replace("\0", "{{ " + ind.entity + " }}")
        if title not in titles:
            titles.append(title)
    genre_words = ind.genre.replace("_", " ")
    if not titles:
        titles = [genre_words.title()] if language == "en" else [genre_words]
    ind.titles = titles
    with_entity = [t for t in titles if "{{ " + ind.entity + " }}" in t]
    if with_entity:
        first = with_entity[0].split()[0] if with_entity[0].split() else ""
        # "the claim report for X", but "the document titled INCIDENT REVIEW — X ..." (no "iNCIDENT")
        shouting = len(re.sub(r"[^A-Za-z]", "", first)) > 1 and first.isupper()
        ind.anchor = "the document titled " + with_entity[0] if shouting else \
            "the " + with_entity[0][:1].lower() + with_entity[0][1:]
        if language == "zh":
            ind.anchor = "《" + with_entity[0] + "》"
    else:
        label = entity.labels[0]
        ind.anchor = (f"the {genre_words} of {{{{ {ind.entity} }}}}" if language == "en" else
                      f"{label}为{{{{ {ind.entity} }}}}的{ _zh_genre(ind) }")


def _zh_genre(ind: Induction) -> str:
    titles = [d.title for d in ind.documents if d.title]
    # the longest ending the titles share (报告, 日志 ...), else 文件
    best = ""
    for t in titles:
        for k in range(2, 7):
            end = t[-k:]
            if re.fullmatch(r"[\u4e00-\u9fff]+", end) and sum(1 for u in titles if u.endswith(end)) >= 2 and len(end) > len(best):
                best = end
    return best or "文件"
