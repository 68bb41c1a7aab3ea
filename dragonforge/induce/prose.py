"""Slots stated in prose: sentences of different documents written from one frame differ only
where their values stand. Sentences are grouped by the word trigrams they share (numbers
masked), aligned token by token (difflib) against one of them, and each run of tokens that
differs from document to document becomes a slot, labelled by the words before it.

Needs several documents written from the same frames (generated documents, a team's form
letters); hand-written seeds rarely share whole sentences, and then this finds nothing.
"""

from __future__ import annotations

import difflib
import re
from collections import defaultdict

from dragonforge.induce.parse import Document, Field
from dragonforge.induce.values import classify

_TOKEN = {"en": re.compile(r"[A-Za-z0-9][A-Za-z0-9'&.,\-/%$£€]*[A-Za-z0-9%]|[A-Za-z0-9]|[^\sA-Za-z0-9]"),
          "zh": re.compile(r"[A-Za-z0-9][A-Za-z0-9.,\-/%]*[A-Za-z0-9%]|[A-Za-z0-9]|[^\s]")}
_STOP = {"the", "a", "an", "of", "was", "were", "is", "are", "to", "for", "by", "at", "in", "on", "with", "and",
         "reached", "totaled", "amounted", "came", "stood", "has", "had", "its", "his", "her", "their", "as"}
_PUNCT = re.compile(r"^[\W_]+$")


class _Tok:
    """A token of a sentence: a typed value (a date, an amount) is one token."""

    __slots__ = ("text", "a", "b")

    def __init__(self, text: str, a: int, b: int):
        self.text, self.a, self.b = text, a, b

    def group(self, _: int = 0) -> str:
        return self.text

    def start(self) -> int:
        return self.a

    def end(self) -> int:
        return self.b


def _tokens(text: str, language: str) -> list[_Tok]:
    from dragonforge.induce.values import spans

    out: list[_Tok] = []
    cursor = 0
    pattern = _TOKEN["zh" if language == "zh" else "en"]
    for a, b, _ in spans(text, language, counts=True):
        out += [_Tok(m.group(0), cursor + m.start(), cursor + m.end()) for m in pattern.finditer(text[cursor:a])]
        out.append(_Tok(text[a:b], a, b))
        cursor = b
    out += [_Tok(m.group(0), cursor + m.start(), cursor + m.end()) for m in pattern.finditer(text[cursor:])]
    return out


def _masked(tok: str) -> str:
    return "#" if re.search(r"\d", tok) else tok.lower()


def prose_fields(docs: list[Document], language: str, min_docs: int | None = None) -> list[list[tuple[int, Field]]]:
    """Clusters of prose values (one (document index, Field) per document) found by aligning
    frame sentences."""
    n = len(docs)
    min_docs = min_docs or max(3, round(0.2 * n))
    if n < min_docs:
        return []
    sents = []  # (doc, line, section, text, token matches, masked)
    for d, doc in enumerate(docs):
        for section in doc.sections:
            for line, text in section.prose:
                toks = _tokens(text, language)
                if len(toks) >= 6:
                    sents.append((d, line, section.index, text, toks, [_masked(t.group(0)) for t in toks],
                                  [t.group(0).lower() for t in toks]))
    index: dict[tuple[str, ...], list[int]] = defaultdict(list)
    grams = []
    for i, s in enumerate(sents):
        g = {tuple(s[5][k:k + 3]) for k in range(len(s[5]) - 2) if "#" not in s[5][k:k + 3]}
        grams.append(g)
        for t in g:
            index[t].append(i)
    parent = list(range(len(sents)))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    common_limit = max(3 * n, 50)
    for i, s in enumerate(sents):
        shared: dict[int, int] = defaultdict(int)
        for t in grams[i]:
            hits = index[t]
            if len(hits) > common_limit:
                continue
            for j in hits:
                if j > i and sents[j][0] != s[0]:
                    shared[j] += 1
        for j, count in shared.items():
            if count < 3 or find(i) == find(j):
                continue
            ratio = difflib.SequenceMatcher(None, s[5], sents[j][5], autojunk=False).ratio()
            if ratio >= 0.7:
                parent[find(i)] = find(j)
    clusters: dict[int, list[int]] = defaultdict(list)
    for i in range(len(sents)):
        clusters[find(i)].append(i)
    out: list[list[tuple[int, Field]]] = []
    for members in clusters.values():
        if len({sents[i][0] for i in members}) < min_docs:
            continue
        out += _slots_of(members, sents, language, min_docs)
    return out


def _slots_of(members: list[int], sents, language: str, min_docs: int) -> list[list[tuple[int, Field]]]:
    # the reference: the sentence most like the others; one sentence per document (the closest)
    ref = members[0]
    r = sents[ref]
    best: dict[int, tuple[float, int, list]] = {}
    for i in members:
        s = sents[i]
        sm = difflib.SequenceMatcher(None, r[6], s[6], autojunk=False)
        ratio = difflib.SequenceMatcher(None, r[5], s[5], autojunk=False).ratio() if i != ref else 1.0
        if s[0] not in best or ratio > best[s[0]][0]:
            best[s[0]] = (ratio, i, sm.get_opcodes() if i != ref else [("equal", 0, len(r[5]), 0, len(r[5]))])
    variable = [False] * len(r[5])
    for _, _i, ops in best.values():
        for tag, a1, a2, _b1, _b2 in ops:
            if tag != "equal":
                for k in range(a1, max(a2, a1 + 1) if tag == "insert" else a2):
                    if k < len(variable):
                        variable[k] = True
    runs: list[tuple[int, int]] = []
    k = 0
    while k < len(variable):
        if variable[k]:
            j = k
            while j < len(variable) and variable[j]:
                j += 1
            if (j - k) <= 0.6 * len(variable):  # split at punctuation: "2007, Waters Inc" is two values
                start = k
                for m in range(k, j + 1):
                    if m == j or _PUNCT.match(r[4][m].group(0)):
                        if m > start:
                            runs.append((start, m))
                        start = m + 1
            k = j
        else:
            k += 1
    out: list[list[tuple[int, Field]]] = []
    for a, b in runs:
        label = _label(r[4], a, language)
        fields: list[tuple[int, Field]] = []
        for _, i, ops in best.values():
            s = sents[i]
            span = _map(ops, a, b, len(s[4]), len(r[4]))
            if span is None:
                continue
            sa, sb = span
            while sa < sb and _PUNCT.match(s[4][sa].group(0)):
                sa += 1
            while sb > sa and _PUNCT.match(s[4][sb - 1].group(0)):
                sb -= 1
            if sa >= sb:
                continue
            text = s[3][s[4][sa].start():s[4][sb - 1].end()]
            fields.append((s[0], Field(label, classify(text, language), s[1], s[2], 10 ** 5 + s[1], in_prose=True,
                                       source=s[3])))
        values = [f.value.text for _, f in fields]
        top = max(values.count(v) for v in set(values)) if values else 0
        if len(fields) >= min_docs and len(set(values)) >= 2 and top <= 0.7 * len(values):
            out.append(fields)
    return out


def _map(ops, a: int, b: int, length: int, ref_length: int) -> tuple[int, int] | None:
    """The tokens of the other sentence aligned with the reference's tokens ``a:b``: what lies
    between the equal tokens around them."""
    start = 0 if a == 0 else None
    end = length if b >= ref_length else None
    for tag, a1, a2, b1, _b2 in ops:
        if tag != "equal":
            continue
        if a > 0 and a1 <= a - 1 < a2:
            start = b1 + (a - 1 - a1) + 1
        if b < ref_length and a1 <= b < a2:
            end = b1 + (b - a1)
    if start is None or end is None or start >= end:
        return None
    return start, end


def _label(toks: list[re.Match[str]], a: int, language: str) -> str:
    """The words before a value in its frame, as the slot's label."""
    words: list[str] = []
    k = a - 1
    limit = 6 if language == "zh" else 4
    while k >= 0 and len(words) < limit:
        t = toks[k].group(0)
        if _PUNCT.match(t) or re.search(r"\d", t):
            break
        words.insert(0, t)
        k -= 1
    if language == "zh":
        text = "".join(words).strip("为是的：")
        return text or "数值"
    kept = [w for w in words if w.lower() not in _STOP]
    return " ".join(kept[-3:]) or " ".join(words[-2:]) or "value"
