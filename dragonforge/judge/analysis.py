"""Text analysis: one pass over a text that finds its values, parties, sentences and clauses (``_Text``).

Clauses matter because a value belongs to what its clause says; a clause that declines ("the report does
not say ...") is marked here, and ``refusal`` decides whether a whole answer declines."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from functools import lru_cache

from dragonforge.judge.entities import _entities, _Entity
from dragonforge.judge.values import Value, _date_parts, _date_value, _find_all_values

# --- refusals ------------------------------------------------------------------------------------

_P_REFUSAL_EN = re.compile(
    r"\b(?:unable to (?:answer|determine|find|provide|locate|identify)|cannot (?:answer|be (?:determined|answered|found)|"
    r"determine|find|tell|provide|identify|locate|say|confirm)|can(?:no|')t (?:answer|determine|find|tell|say|confirm)|"
    r"\b(?:i|we) (?:cannot|can't|can not) (?:give|provide|state|report|share)|"
    r"(?:could|can)(?: not|n't) (?:find|locate|identify|determine)|"
    r"(?:do|does|did)(?: not|n't) (?:\w+ ){0,2}?(?:contain|mention|specify|state|include|provide|say|indicate|identify|"
    r"disclose|name|break down|record|give|list|show|report|cover|have (?:\w+ ){0,2}?(?:information|data|"
    r"details|records?))|"
    r"(?:records?|reports?|documents?|context|sources?|files?|passages?|excerpts?|notes?)(?: \w+){0,2} (?:does|do|did)"
    r"(?: not|n't) describe|"
    r"(?:is|are|was|were)(?: not|n't) (?:\w+ )?(?:mentioned|specified|stated|provided|available|included|disclosed|"
    r"recorded|given|found|listed|reported|known)(?!\s+(?!(?:in|by|for|within|anywhere|here|there|explicitly|clearly|"
    r"directly|specifically|separately|and|or|so|but|either|at|on|from|among|yet|that|this|these|those)\b)[A-Za-z])|"
    # ("was not found to have", "was not given levofloxacin": what follows is said, not missing)
    r"no (?:explicit |specific |relevant |such |available )?(?:information|mention|record|data|details|evidence)|"
    r"\bno\b(?: [\w-]+){1,3} (?:is|was|are|were) (?:recorded|given|mentioned|stated|provided|listed|documented|reported|"
    r"highlighted|noted|shown|included)\b|"
    r"there(?:'s| is| was) no (?:[\w-]+ ){1,2}?(?:recorded|documented|given|listed|stated|mentioned) (?:for|in|anywhere)\b|"
    r"(?:is|are|was|were)(?: not|n't) (?:in|given in|part of) (?:the|my|these|those) (?:\w+ )?(?:documents?|records?|"
    r"context|sources?|materials?|files?|reports?|passages?)|"
    r"(?:not|insufficient) enough information|insufficient (?:information|data|context)|not possible to (?:answer|determine)|"
    r"(?:i'm|i am) (?:sorry|afraid)|^sorry\b|there is no (?:way|information)|no answer|i (?:do not|don't) know\b|"
    r"none of the (?:\w+ )?(?:documents?|passages?|sources?|reports?|records?|context|materials?|files?|excerpts?) "
    r"(?:\w+ )?(?:mentions?|states?|says?|contains?|includes?|provides?|gives?|specif(?:y|ies)|records?|discuss(?:es)?)|"
    r"^\s*not (?:stated|given|mentioned|specified|disclosed|available|recorded|reported|found)\b)",
    re.I)
_P_REFUSAL_ZH = re.compile(
    r"无法(?:回答|确定|确认|得知|判断|获知|查到|找到|提供|从)|不能(?:回答|确定|确认)|(?:没能|未能|没有能|(?<!并)未)[^，。；]{0,10}(?:确认(?![^，。；]{0,8}(?:收益|损失|收入|费用|负债))|找到|查到|核实|确定|检索到|查询到|获取到)|未(?:提及|记载|载明|披露|说明|提供|涉及|列明|显示|给出|找到|查到)|"
    r"没有(?:关于|相关|提及|记载|说明|披露|提供|找到|涉及|信息|资料)|没有[^，。；]{1,24}(?:信息|资料|数据)|没有[^，。；]{1,12}的(?:记载|记录|明细|数据|信息|资料)|并未(?:提及|记载|说明|披露)|无相关|暂无|不详|不清楚|"
    r"抱歉|对不起|信息不足|资料不足|无从(?:得知|判断)|未(?:明确|注明|写明)(?:[，。；]|$)")
# A superset of the English pattern (its anchors dropped) to search a whole answer with: no match
# anywhere means no clause of the answer can be a refusal, without analysing it.
_P_REFUSAL_EN_ANYWHERE = re.compile(_P_REFUSAL_EN.pattern.replace("^", "").replace(r"\b", ""), re.I)
_P_SPECULATION = re.compile(
    r"\b(?:likely|probably|presumably|possibly|perhaps|may have been|might be|might have|may be|estimated|would have been|"
    r"i (?:would )?(?:guess|assume|believe)|it is assumed|suggests?|suggested|appears? to|seems? to|it seems|"
    r"it appears|it looks like)\b|"
    r"可能|大概|估计|推测|应该是|大约是|或许|也许|似乎|看来|推断", re.I)


# --- clause structure ----------------------------------------------------------------------------

_P_SENT_EN = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(“])|;\s*|\n+")
_P_SENT_ZH = re.compile(r"(?<=[。！？；;])|\n+")
_P_CLAUSE_EN = re.compile(r",\s+|;\s*|:\s+|\s+(?:while|whereas|but|compared with|compared to|versus|vs\.?|against|than|"
                          r"and then|whilst)\s+|\s*\(\s*|\s*\)\s*|\s+-\s+|\s+—\s+")
_P_CLAUSE_ZH = re.compile(r"[，,；;：:（）()]|而(?=[\u4e00-\u9fff])|相比|高于|低于|多于|少于|早于|晚于|长于|短于")
_ABBREVIATIONS = ("dr.", "mr.", "mrs.", "ms.", "inc.", "corp.", "co.", "ltd.", "no.", "st.", "jr.", "vs.", "approx.",
                  "e.g.", "i.e.", "u.s.", "prof.")


def _split(text: str, pattern: re.Pattern, taken: bytearray, start: int = 0, end: int | None = None,
           protect_abbreviations: bool = False) -> list[tuple[int, int]]:
    end = len(text) if end is None else end
    spans, cur = [], start
    for m in pattern.finditer(text, start, end):
        a, b = m.span()
        if any(taken[a:b]) or (a < len(taken) and a == b and taken[a - 1 if a else 0] and taken[min(a, len(taken) - 1)]):
            continue
        if protect_abbreviations and any(text[max(0, a - len(ab)):a].lower() == ab for ab in _ABBREVIATIONS):
            continue
        if a > cur:
            spans.append((cur, a))
        cur = b
    if end > cur:
        spans.append((cur, end))
    return [(a, b) for a, b in spans if text[a:b].strip()]


@dataclass(slots=True)
class _Clause:
    span: tuple[int, int]
    sentence: int
    refusal: bool
    text: str


@dataclass(slots=True)
class _Text:
    """Everything the judge needs to know about one text, computed once per text and language."""

    text: str
    language: str
    values: tuple[Value, ...]
    entities: tuple[_Entity, ...]
    sentences: tuple[tuple[int, int], ...]
    clauses: tuple[_Clause, ...]
    masked: str  # the text with value spans blanked, for word matching


_P_CONTRAST = re.compile(r"\s*(?:(?:but|however|though|although|yet|still)\b|但|不过|然而|可是)", re.I)  # "…, but X"


@lru_cache(maxsize=32768)
def _analyse(text: str, language: str) -> _Text:
    f = _find_all_values(text, language)
    zh = language == "zh"
    sentences = tuple(_split(text, _P_SENT_ZH if zh else _P_SENT_EN, f.taken, protect_abbreviations=not zh))
    refusal_re = _P_REFUSAL_ZH if zh else _P_REFUSAL_EN
    clauses: list[_Clause] = []
    for i, (sa, sb) in enumerate(sentences):
        for a, b in _split(text, _P_CLAUSE_ZH if zh else _P_CLAUSE_EN, f.taken, sa, sb):
            piece = text[a:b]
            refusal = bool(refusal_re.search(piece))
            if not refusal and clauses and clauses[-1].sentence == i and clauses[-1].refusal \
                    and not any(f.taken[a:b]) and not _P_CONTRAST.match(piece):
                refusal = True  # a value-free clause after a refusal is its object: "cannot say | which ..."
            clauses.append(_Clause((a, b), i, refusal, piece))
    values = _with_years([_hedged(text, _as_age(text, v)) for v in f.values if not _is_label_number(text, v)])
    chars = list(text)
    for v in values:
        a, b = v.span
        chars[a:b] = " " * (b - a)
    return _Text(text, language, values, tuple(_entities(text, language, f.taken)), sentences,
                 tuple(clauses), "".join(chars))


# "roughly $4,200", "about $318,000", "大约2,600万元", "2,600万元左右": a hedged round figure is rounded at its last
# non-zero digit ($3,110 rounds to it); an unhedged one is exact as written
_P_HEDGE_BEFORE = re.compile(r"(?:\b(?:about|around|approximately|approx\.?|roughly|nearly|almost|some|close to|"
                             r"just (?:over|under)|circa)|~|(?<![签合节预制公条契])约|大约|大概|(?<![最附接])近|将近|接近|逾)\s*$", re.I)
_P_HEDGE_AFTER = re.compile(r"^\s*(?:左右|上下)")


def _hedged(text: str, v: Value) -> Value:
    if v.kind not in ("money", "count", "number") or not isinstance(v.value, float) or not (
            _P_HEDGE_BEFORE.search(text[max(0, v.span[0] - 16):v.span[0]]) or _P_HEDGE_AFTER.match(text[v.span[1]:])):
        return v
    digits = re.match(r"[^\d]*([\d,]+)(?![\d,]*\.\d)", v.text)
    if not digits:
        return v
    written = digits[1].replace(",", "")
    zeros = len(written) - len(written.rstrip("0"))
    if zeros < 2 or not float(written) or v.unit == "age":
        return v  # ("about 40" years old is no rounding of 39: a figure of tens is as written)
    scale = float(v.value) / float(written)
    return replace(v, step=max(v.step, 0.5 * 10 ** zeros * scale))


_P_LABEL_BEFORE = re.compile(r"\b(?:type|grade|stage|class|phase)\s*$", re.I)
_P_LABEL_AFTER = re.compile(r"型|-?lead\b|导联", re.I)


def _is_label_number(text: str, v: Value) -> bool:
    """Is ``v`` a number that names a kind, not an amount: "type 1 diabetes", "1型糖尿病", "stage 3", "12-lead"?"""
    return v.kind in ("count", "number") and (
        _P_LABEL_BEFORE.search(text[max(0, v.span[0] - 8):v.span[0]]) is not None
        or _P_LABEL_AFTER.match(text, v.span[1]) is not None or (v.text.endswith("型") and v.unit == "型"))


_P_NAME_PAREN = re.compile(r"(?:[A-Z][\w'’.-]*|\b(?:younger|older|aged?))\s*\(\s*$")


def _as_age(text: str, v: Value) -> Value:
    """A span of whole years in brackets right after a name or an age word ("Ann Park (29 years)", "was younger (29
    years)") is a person's age."""
    if v.kind == "duration" and v.unit == "months" and float(v.value) % 12 == 0 \
            and _P_NAME_PAREN.search(text[max(0, v.span[0] - 40):v.span[0]]) and re.match(r"\s*[),;]", text[v.span[1]:]):
        return Value("count", float(v.value) / 12, v.text, v.span, "age", 0.5)
    return v


def _with_years(values: list[Value]) -> tuple[Value, ...]:
    """A date written without its year ("in 2020 ... a contract on March 25", "同年7月10日") takes the year of the
    last dated value before it, in its sentence or in an earlier one ("2020 events: March 17 - …; July 16 - …")."""
    out, year = [], None
    for v in values:
        if v.kind == "date":
            y, m, d = _date_parts(str(v.value))
            if y is not None:
                year = y
            elif year is not None and m is not None and (dated := _date_value(year, m, d)) is not None:
                v = Value("date", dated, v.text, v.span, v.unit, v.step)
        out.append(v)
    return tuple(out)


def extract_values(text: str, language: str) -> list[Value]:
    """Every date, amount, percentage, duration, count, number and name in ``text``, canonicalised."""
    t = _analyse(text, language)
    out = list(t.values)
    for ent in t.entities:
        start = text.find(ent.name)
        if start >= 0:
            out.append(Value("name", ent.name, ent.name, (start, start + len(ent.name))))
    return sorted(out, key=lambda v: v.span)


def _clause_of(t: _Text, pos: int) -> _Clause | None:
    for c in t.clauses:
        if c.span[0] <= pos < c.span[1]:
            return c
    return None


def _context(t: _Text, v: Value, values: tuple[Value, ...] | list[Value]) -> str:
    """Words said of a value: its clause, cut at the neighbouring values on either side."""
    a, b = _context_span(t, v, values)
    return t.masked[a:b]


def _context_span(t: _Text, v: Value, values: tuple[Value, ...] | list[Value]) -> tuple[int, int]:
    clause = _clause_of(t, v.span[0])
    a, b = clause.span if clause else (0, len(t.text))
    for other in values:
        if other is v:
            continue
        if a <= other.span[1] <= v.span[0]:
            a = max(a, other.span[1])
        if v.span[1] <= other.span[0] < b:
            b = min(b, other.span[0])
    return a, b


def _sentence_index(t: _Text, pos: int) -> int | None:
    """The first sentence holding ``pos``: by bisection when the spans are in order and do not
    overlap (they are, as the splitter makes them), else by a scan."""
    starts = _ordered_starts(t.sentences)
    if starts is not None:
        i = bisect.bisect_right(starts, pos) - 1
        return i if i >= 0 and pos < t.sentences[i][1] else None
    for i, (a, b) in enumerate(t.sentences):
        if a <= pos < b:
            return i
    return None


@lru_cache(maxsize=4096)
def _ordered_starts(sentences: tuple[tuple[int, int], ...]) -> tuple[int, ...] | None:
    for (a, b), (c, _) in zip(sentences, sentences[1:], strict=False):
        if not (a <= b <= c):
            return None
    return tuple(a for a, _ in sentences)


def _sentence(t: _Text, pos: int, before: int = 0) -> str:
    """The sentence holding ``pos`` (and ``before`` sentences ahead of it), values blanked."""
    i = _sentence_index(t, pos)
    if i is None:
        return ""
    return t.masked[t.sentences[max(i - before, 0)][0]:t.sentences[i][1]]
