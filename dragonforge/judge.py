"""The offline keypoint judge: labels each keypoint Relevant / Wrong / Irrelevant against an answer.

RAGEval's generation metrics (method.md §3) need a judge. This one is lexical, deterministic and
fast: it extracts the values a keypoint asserts (dates, money, percentages, durations, counts,
names) in a canonical form that is the same across English and Chinese conventions, finds them in
the answer, and calls a keypoint Wrong when the answer gives a different value for the same fact,
the reversed direction, or the other party as the winner of a comparison. Keypoints without
values are judged by content-word overlap. Rules kept from the original: "no information" or a
refusal is Irrelevant, never Wrong; for an unanswerable question a refusal is Relevant and an
answer that asserts facts is Wrong.
"""

from __future__ import annotations

import bisect
import difflib
import logging
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from pydantic import BaseModel

Label = Literal["Relevant", "Irrelevant", "Wrong"]
ValueKind = Literal["date", "money", "percent", "count", "duration", "number", "name"]


class KeypointLabel(BaseModel):
    keypoint: str
    label: Label
    reason: str


@dataclass(frozen=True, slots=True)
class Value:
    """One value found in a text: canonical ``value`` (float, or str for dates, ranges, names)."""

    kind: ValueKind
    value: float | str
    text: str
    span: tuple[int, int]
    unit: str | None = None  # currency (CNY/USD), duration base (months/days/hours), count unit
    step: float = 0.0  # half the last written digit's place value: the rounding a match allows


# --- thresholds ----------------------------------------------------------------------------------

COVERAGE_RELEVANT = 0.6  # share (by length) of a value-free keypoint's content the answer must state
RESIDUAL_RELEVANT = 0.3  # share of a valued keypoint's non-value words near its values
CONTEXT_SAME_FACT = 0.66  # share (two in three) of a value's context words that make another value "the same fact"
CONTEXT_SOLE_FACT = 0.33  # one in three: the same, when that value is the only one of its kind in the answer

# --- numbers -------------------------------------------------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_CN_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
_CN_NUM = r"[零〇○一二两三四五六七八九十百千万亿]+(?:点[零〇○一二三四五六七八九]+)?"
_EN_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_EN_WORDS.update({w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)})
_EN_NUMWORD = (r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|"
               r"seven|eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
               r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9,
           "trillion": 1e12, "千": 1e3, "万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8, "十亿": 1e9,
           "百亿": 1e10, "万亿": 1e12}


def _arabic(s: str) -> tuple[float, float]:
    """(value, half-step) of an Arabic numeral with optional thousands commas."""
    s = s.replace(",", "")
    decimals = len(s.split(".")[1]) if "." in s else 0
    return float(s), 0.5 * 10 ** -decimals


def cn_to_number(s: str) -> float:
    """Chinese numeral to number: 一百二十 → 120, 两 → 2, 三千五百万 → 35000000, 十二点五 → 12.5."""
    if "点" in s:
        whole, frac = s.split("点", 1)
        return (cn_to_number(whole) if whole else 0.0) + float("0." + "".join(str(_CN_DIGITS[c]) for c in frac))
    if s and all(c in _CN_DIGITS for c in s) and len(s) > 1:  # digit by digit: 二〇一九
        return float("".join(str(_CN_DIGITS[c]) for c in s))
    total, section, digit = 0.0, 0.0, None
    for ch in s:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            section += (1 if digit is None else digit) * _CN_UNITS[ch]
            digit = None
        elif ch in _CN_BIG:
            section += digit or 0
            total = (total + section) * _CN_BIG[ch] if ch == "亿" else total + section * _CN_BIG[ch]
            section, digit = 0.0, None
    return total + section + (digit or 0)


def _en_word_number(s: str) -> float:
    parts = re.split(r"[- ]", s.lower())
    return float(sum(_EN_WORDS[p] for p in parts))


def _number(s: str) -> tuple[float, float]:
    """(value, half-step) of an Arabic, Chinese or English-word numeral."""
    if re.fullmatch(_NUM, s):
        return _arabic(s)
    if re.fullmatch(_EN_NUMWORD, s, re.I):
        return _en_word_number(s), 0.5
    v = cn_to_number(s)
    return v, 0.5 if v == int(v) else 0.05


# --- value patterns (compiled once; applied in this order, earlier spans win) ------------------

_MONTHS = {m: i for i, m in enumerate(
    "january february march april may june july august september october november december".split(), 1)}
_MONTHS.update({m[:3]: i for m, i in list(_MONTHS.items())})
_MONTH_RE = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)"
_CN_SMALL = r"[一二三四五六七八九十]{1,3}"
_CN_YEAR = r"[〇○零一二三四五六七八九]{4}"

_P_DATE_ZH = re.compile(rf"(?<!\d)(\d{{4}}|{_CN_YEAR})\s*年\s*(\d{{1,2}}|{_CN_SMALL})\s*月(?:\s*(\d{{1,2}}|{_CN_SMALL})\s*[日号])?")
_P_DATE_ISO = re.compile(r"(?<![\d.])(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?![\d])")
_P_DATE_MDY = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)
_P_DATE_DMY = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?({_MONTH_RE})\.?,?\s+(\d{{4}})\b", re.I)
_P_DATE_MY = re.compile(rf"\b({_MONTH_RE})\.?,?\s+(?:of\s+)?(\d{{4}})\b", re.I)
_P_DATE_YM_ISO = re.compile(r"(?<![\d.])(\d{4})-(\d{1,2})(?![\d.%-])")
_P_DATE_MD_ZH = re.compile(rf"(?<!\d)(?<!\d年)(\d{{1,2}}|{_CN_SMALL})月(\d{{1,2}}|{_CN_SMALL})[日号]")  # 同年7月10日 too
_P_DATE_MD_EN = re.compile(rf"\b({_MONTH_RE})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\b(?!\s*(?:%|,?\s*\d{{4}}))", re.I)
_P_YEAR_ZH = re.compile(rf"(?<!\d)(\d{{4}}|{_CN_YEAR})\s*年(?!\s*\d{{1,2}}\s*个?月)")
_P_YEAR = re.compile(r"(?<![\d,.$¥￥])((?:19|20)\d{2})(?!\d|[,.]\d|%|\s*(?:million|billion|thousand|万|亿|元|美元|dollars|yuan|"
                     r"years?\b|months?\b|days?\b|employees|people|persons|人|个|项|次|岁))")

_P_PERCENT = re.compile(rf"(?<![\d.])([-−－]?)({_NUM})\s*(?:%|％|\s?percent(?:age points?)?\b|\s?per\s?cent\b|\s?pct\b)",
                        re.I)
_P_PERCENT_CN = re.compile(r"百分之([零〇一二两三四五六七八九十百点]+)")

_CUR_PRE = r"(?P<pre>US\$|USD|RMB|CNY|HK\$|\$|¥|￥|人民币)"
_CUR_POST = r"(?P<post>US dollars?|U\.S\. dollars?|dollars?|USD|yuan|RMB|CNY|美元|港元|人民币元|元)"
_SCALE_EN = r"(?P<scale>thousand|million|billion|trillion|bn|mn)"
_SCALE_ZH = r"(?P<zscale>万亿|千万|百万|十万|十亿|百亿|万|亿|千)"
_P_MONEY = re.compile(
    rf"(?:{_CUR_PRE}\s?)?(?<![\d.])(?P<num>{_NUM}|{_CN_NUM})\s?(?:{_SCALE_EN}\b|{_SCALE_ZH})?\s?{_CUR_POST}?", re.I)

_DUR_UNITS_EN = {"year": ("months", 12), "month": ("months", 1), "week": ("days", 7), "day": ("days", 1),
                 "hour": ("hours", 1), "minute": ("minutes", 1)}
_DUR_UNITS_ZH = {"年": ("months", 12), "个月": ("months", 1), "個月": ("months", 1), "个星期": ("days", 7),
                 "周": ("days", 7), "星期": ("days", 7), "天": ("days", 1), "日": ("days", 1),
                 "小时": ("hours", 1), "个小时": ("hours", 1), "個小時": ("hours", 1), "分钟": ("minutes", 1)}
_EN_AMOUNT = rf"(?:{_NUM}|{_EN_NUMWORD}|an?)"
_P_DUR_EN = re.compile(
    rf"(?<![\d.])\b({_EN_AMOUNT})(\s+and\s+a\s+half)?[\s-]+(?:(years?)(?:['’]s?)?(?:,?\s+(?:and\s+)?({_EN_AMOUNT})[\s-]+(months?)(?:['’]s?)?)?"
    rf"|(weeks?)(?:['’]s?)?(?:,?\s+(?:and\s+)?({_EN_AMOUNT})[\s-]+(days?)(?:['’]s?)?)?"
    rf"|(months?|days?|hours?|minutes?)(?:['’]s?)?)(\s+and\s+a\s+half)?\b", re.I)
_ZH_AMOUNT = rf"(?:\d+(?:\.\d+)?|{_CN_NUM})"
_P_DUR_ZH = re.compile(
    rf"(?<![\d.第上下每同本当前近去今明])({_ZH_AMOUNT})\s*(年(?![度底末初中])|个月|個月|个星期|星期|周(?!岁)|天|日|个小时|個小時|小时|分钟)"
    rf"(?:零?({_ZH_AMOUNT})\s*(个月|個月|天)|(半))?(?![\d月])")
_P_HALF_YEAR_ZH = re.compile(r"(?<![\u4e00-\u9fff])半年|(?<=[为刑期判处了])半年")
_P_AGE = re.compile(
    rf"(?:\baged?\s+({_NUM}|{_EN_NUMWORD})(?:\s+years?(?:\s+old)?)?\b|(?<![\d.])\b({_NUM}|{_EN_NUMWORD})[\s-]+years?[\s-]+old\b"
    rf"|(?<![\d.])({_ZH_AMOUNT})\s*(?:周岁|岁))", re.I)
_UNIT_ALIASES = {"beats per minute": "bpm", "bpm": "bpm", "次/分": "bpm", "次/分钟": "bpm", "°c": "c", "℃": "c",
                 "度": "c"}
_P_PAIR = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(/|-|–|~|～|至|到)\s*(\d+(?:\.\d+)?)\s*"
                     r"(mmHg|g/L|mg/L|mmol/L|μmol/L|umol/L|U/L|mg|g|kg|mL|ml|L|cm|mm|°C|℃|%)?(?![\d/])")
_P_COUNT = re.compile(
    rf"(?<![\d.A-Za-z第])({_NUM}|{_CN_NUM})\s*(beats per minute|bpm|次/分钟|次/分|mmHg|g/L|mg/L|mmol/L|μmol/L|umol/L|U/L|"
    rf"°C|℃|mg|kg|mL|ml|cm|mm|IU|单位|名|位|人|项|次|家|例|件|份|台|床|张|个|employees|people|persons|patients|"
    rf"times|units|beds|cases|shares)(?![A-Za-z])")
_P_NUMBER = re.compile(rf"(?<![\d.A-Za-z])({_NUM})(?:\s?({_SCALE_EN})\b|({_SCALE_ZH}))?(?![\d])", re.I)


def _date_value(y: int | None, m: int | None = None, d: int | None = None) -> str | None:
    if m is not None and not 1 <= m <= 12 or d is not None and not 1 <= d <= 31:
        return None
    return "-".join([f"{y:04d}" if y else "----"] + ([f"{m:02d}"] if m else []) + ([f"{d:02d}"] if d else []))


def _date_parts(v: str) -> tuple[int | None, int | None, int | None]:
    """(year, month, day) of a canonical date; "----" stands for an unknown year, and anything
    that is not a date gives (None, None, None)."""
    year, _, rest = (v[4:5] == "-" and v[:4], None, v[5:]) if v.startswith("----") else v.partition("-")
    try:
        y = None if year in ("----", False, "") else int(year)
        parts = [int(p) for p in rest.split("-") if p] if rest else []
    except ValueError:
        return None, None, None
    return y, parts[0] if parts else None, parts[1] if len(parts) > 1 else None


def _zh_int(s: str) -> int:
    return int(s) if s.isdigit() else int(cn_to_number(s))


class _Finder:
    """Collects non-overlapping values of one text; earlier patterns win a span."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.taken = bytearray(len(text))
        self.values: list[Value] = []

    def free(self, a: int, b: int) -> bool:
        return not any(self.taken[a:b])

    def add(self, kind: ValueKind, value: float | str | None, a: int, b: int, unit: str | None = None,
            step: float = 0.0) -> None:
        if value is None or not self.free(a, b):
            return
        self.taken[a:b] = b"\x01" * (b - a)
        self.values.append(Value(kind, value, self.text[a:b], (a, b), unit, step))


_P_HAS_DATE_ZH = re.compile(r"[年月]")
_P_HAS_MONTH_EN = re.compile(_MONTH_RE, re.I)
_P_HAS_DURATION = re.compile(r"year|month|week|day|hour|minute|aged|old|[年月周天日时钟岁]", re.I)


def _find_dates(f: _Finder) -> None:
    t = f.text
    if _P_DATE_ISO.search(t):
        for m in _P_DATE_ISO.finditer(t):
            f.add("date", _date_value(int(m[1]), int(m[3]), int(m[4])), *m.span())
    if _P_HAS_DATE_ZH.search(t):
        _find_dates_zh(f)
    if _P_HAS_MONTH_EN.search(t):
        _find_dates_en(f)
    for m in _P_DATE_YM_ISO.finditer(t):
        f.add("date", _date_value(int(m[1]), int(m[2])), *m.span())
    for m in _P_YEAR.finditer(t):
        f.add("date", _date_value(int(m[1])), *m.span())


def _find_dates_zh(f: _Finder) -> None:
    t = f.text
    for m in _P_DATE_ZH.finditer(t):
        f.add("date", _date_value(_zh_int(m[1]), _zh_int(m[2]), _zh_int(m[3]) if m[3] else None), *m.span())
    for m in _P_DATE_MD_ZH.finditer(t):
        f.add("date", _date_value(None, _zh_int(m[1]), _zh_int(m[2])), *m.span())
    for m in _P_YEAR_ZH.finditer(t):
        f.add("date", _date_value(_zh_int(m[1])), *m.span())


def _find_dates_en(f: _Finder) -> None:
    t = f.text
    for m in _P_DATE_MDY.finditer(t):
        f.add("date", _date_value(int(m[3]), _MONTHS[m[1].lower()[:3]], int(m[2])), *m.span())
    for m in _P_DATE_DMY.finditer(t):
        f.add("date", _date_value(int(m[3]), _MONTHS[m[2].lower()[:3]], int(m[1])), *m.span())
    for m in _P_DATE_MY.finditer(t):
        if m[1].lower() == "may" and not m[0][0].isupper():
            continue  # "may 2019" in running text is rarely a month
        f.add("date", _date_value(int(m[2]), _MONTHS[m[1].lower()[:3]]), *m.span())
    for m in _P_DATE_MD_EN.finditer(t):
        if m[1][0].isupper():
            f.add("date", _date_value(None, _MONTHS[m[1].lower()[:3]], int(m[2])), *m.span())


def _find_percents(f: _Finder) -> None:
    for m in _P_PERCENT.finditer(f.text):
        v, step = _arabic(m[2])
        f.add("percent", -v if m[1] else v, *m.span(), unit="%", step=step)  # 同比增减-5.52%: a 5.52% fall
    for m in _P_PERCENT_CN.finditer(f.text):
        v, step = _number(m[1])
        f.add("percent", v, *m.span(), unit="%", step=step)


def _currency(pre: str | None, post: str | None) -> str | None:
    for token in (pre, post):
        if not token:
            continue
        low = token.lower()
        if "$" in low or "dollar" in low or low in ("usd", "美元"):
            return "HKD" if low in ("hk$", "港元") else "USD"
        if low in ("rmb", "cny", "yuan", "¥", "￥", "元", "人民币", "人民币元"):
            return "CNY"
        if low == "港元":
            return "HKD"
    return None


def _find_money(f: _Finder) -> None:
    for m in _P_MONEY.finditer(f.text):
        pre, post, num = m["pre"], m["post"], m["num"]
        if not (pre or post):
            continue
        if not re.fullmatch(_NUM, num) and not (post and post in ("元", "美元", "港元", "人民币元")):
            continue  # Chinese numerals only before a Chinese currency word
        value, step = _number(num)
        scale = _SCALES[m["scale"].lower()] if m["scale"] else _SCALES[m["zscale"]] if m["zscale"] else 1.0
        a, b = m.span()
        while b > a and f.text[b - 1] == " ":
            b -= 1
        f.add("money", value * scale, a, b, unit=_currency(pre, post), step=step * scale)


def _find_durations(f: _Finder, language: str) -> None:
    if not _P_HAS_DURATION.search(f.text):
        return
    for m in _P_AGE.finditer(f.text):
        raw = m[1] or m[2] or m[3]
        v, _ = _number(raw)
        f.add("count", v, *m.span(), unit="age", step=0.5)
    for m in _P_DUR_EN.finditer(f.text) if language == "en" else ():
        amount = 1.0 if m[1].lower() in ("a", "an") else _number(m[1])[0]
        if m[2] or m[10]:
            amount += 0.5  # "six and a half years", "a year and a half"
        unit = m[3] or m[6] or m[9]
        base, mult = _DUR_UNITS_EN[unit.lower().rstrip("s")]
        total = amount * mult
        second = (m[4], m[5]) if m[4] else (m[7], m[8]) if m[7] else None
        if second:
            amount2 = 1.0 if second[0].lower() in ("a", "an") else _number(second[0])[0]
            base2, mult2 = _DUR_UNITS_EN[second[1].lower().rstrip("s")]
            total += amount2 * mult2 if base2 == base else 0
        if m[1].lower() in ("a", "an") and not second and not m[10]:
            continue  # "a year" alone is too vague to be a value
        f.add("duration", total, *m.span(), unit=base, step=0.5)
    for m in _P_DUR_ZH.finditer(f.text) if language == "zh" else ():
        if m[2] == "日" and not m[1].isdigit():
            continue  # 一日/每日 are not durations
        amount, _ = _number(m[1])
        base, mult = _DUR_UNITS_ZH[m[2]]
        total = amount * mult
        if m[3]:
            base2, mult2 = _DUR_UNITS_ZH[m[4]]
            if base2 == base:
                total += _number(m[3])[0] * mult2
        elif m[5]:
            total += 0.5 * mult  # 一年半
        f.add("duration", total, *m.span(), unit=base, step=0.5)
    for m in _P_HALF_YEAR_ZH.finditer(f.text) if language == "zh" else ():
        f.add("duration", 6.0, *m.span(), unit="months", step=0.5)


def _find_counts(f: _Finder) -> None:
    for m in _P_PAIR.finditer(f.text):
        if not m[4] and m[2] != "/":
            continue  # a bare "3-5" is too ambiguous
        unit = (m[4] or "").lower() or None
        f.add("count", f"{float(m[1]):g}/{float(m[3]):g}" if m[2] == "/" else f"{float(m[1]):g}-{float(m[3]):g}",
              *m.span(), unit=_UNIT_ALIASES.get(unit or "", unit))
    for m in _P_COUNT.finditer(f.text):
        if not re.fullmatch(_NUM, m[1]) and m[2] not in ("名", "位", "人", "项", "次", "家", "例", "件", "份", "台", "床",
                                                          "张", "个", "单位"):
            continue
        v, step = _number(m[1])
        unit = m[2].lower()
        f.add("count", v, *m.span(), unit=_UNIT_ALIASES.get(unit, unit), step=step)


def _find_numbers(f: _Finder) -> None:
    for m in _P_NUMBER.finditer(f.text):
        v, step = _arabic(m[1])
        scale = _SCALES[m[2].lower()] if m[2] else _SCALES[m[3]] if m[3] else 1.0
        f.add("number", v * scale, *m.span(), step=step * scale)


# --- names ---------------------------------------------------------------------------------------

_ORG_WORDS_EN = {"inc", "corp", "corporation", "holdings", "holding", "group", "company", "co", "ltd", "limited",
                 "llc", "plc", "technologies", "firm", "court", "hospital", "center", "centre", "procuratorate",
                 "department", "bank", "university", "clinic", "fund", "partners", "industries", "bureau", "office",
                 "agency", "ministry", "committee", "commission", "association", "school", "institute", "restaurant",
                 "hotel", "store", "shop", "market", "exchange", "authority", "council"}
# Addresses and towns are not parties: a capitalised run that starts with a place prefix or holds an area word
# is a place, and so is one with a street word after a house number ("112 Ryan Ways"); "Mark Lane" is a person.
_PLACE_PREFIXES_EN = {"port", "new", "south", "north", "east", "west", "lake", "mount", "fort", "saint", "san", "los",
                      "las"}
_AREA_WORDS_EN = {"city", "county", "province", "state", "heights", "hills", "valley", "island", "bay", "beach",
                  "springs", "village", "town"}
_STREET_WORDS_EN = {"street", "st", "avenue", "ave", "road", "rd", "lane", "drive", "crossing", "ways", "way", "fords",
                    "ford", "boulevard", "blvd", "plaza", "square", "apartment", "suite"}
_ORG_SUFFIX_EN = {"inc", "corp", "corporation", "holdings", "holding", "group", "company", "co", "ltd",
                  "limited", "llc", "plc"}
_TITLES_EN = {"the", "a", "an", "in", "on", "at", "for", "by", "from", "with", "after", "before", "during", "under",
              "according", "based", "doctor", "dr", "mr", "mrs", "ms", "miss", "judge", "prosecutor", "chief",
              "executive", "officer", "president", "chairman", "chairwoman", "director", "professor", "prof",
              "operating", "net", "total", "its", "his", "her", "their", "this", "that", "these", "those", "it",
              "he", "she", "they", "i", "we", "if", "when", "while", "although", "however", "since", "both",
              "neither", "either", "as", "of", "and", "assessor", "clerk", "people's", "attending",
              "physician", "defendant", "lawyer", "counsel", "ceo", "cfo", "mr.", "dr.", "ms.", "mrs.", "no",
              "yes", "sorry", "unable", "not", "there", "which", "who", "what", "where", "how", "why", "following"}
_GENERIC_CAPS = set("""first second third annual extraordinary general meeting meetings shareholders board directors
committee corporate secretary chief executive operating financial officer president vice chairman director report
reports article articles section department people's court district intermediate procuratorate hospital center
medical regional university community general company inc corporation holdings group limited law firm january
february march april may june july august september october november december monday tuesday wednesday thursday
friday saturday sunday doctor dr judge prosecutor clerk assessor nasdaq nyse stock exchange new york criminal civil
law act code procedure constitution regulations rules""".split())  # laws are cited, not parties
_P_CAPSEQ = re.compile(r"[A-Z][A-Za-z'’.\-]*(?:\s+(?:&\s+)?[A-Z][A-Za-z'’.\-]*)*")

_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
             "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文"
             "牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲"
             "翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫"
             "米柏宗瞿桂全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝萧傅阎赖洪官封谈匡鞠惠"
             "荆冀郁胥班储栗燕楚鄢劳谌奚皮粟冼蔺楼满闻厉伊仝郜阚权帅屠豆朴盖练廉禹井祖漆巴丰卿狄宣晋芮扈晁阙浦戈伏鹿薄"
             "邸雍辜羊阿乌母裘亓修邰赫杭况宿鲜印逯隆茹诸慕危亢嵇哈湛宾戎茅揭尉冶束檀植衡尧")
_ZH_ROLES = ("被告人|被害人|患者|病人|律师|审判长|审判员|人民陪审员|陪审员|书记员|检察员|检察官|公诉人|主治医师|医师|医生|护士|"
             "董事长|总经理|财务总监|董事会秘书|独立董事|委托人|辩护人|原告|证人|主任委员|法定代表人")
_ZH_AFTER_NAME = ("的|于|为|因|更|较|作案|入院|出院|住院|被|系|是|，|。|、|；|：|和|与|及|先|在|曾|共|担任|（|\\(|获|辩护|犯|主诉|"
                  "复诊|收缩压|血压|等|律师|持股|年龄|刑期|将|已|所|之|无|有|未|不|一案|案|则|就|也|都|又|还|即|便|亦|仍|"
                  "提起|出庭|到庭|接受|判处|涉嫌|构成|签署|供述|认罪|上诉|实施|入住|就诊|手术|负责|主刀|虽|但|却|$")
_P_ZH_PERSON = re.compile(
    rf"(?:(?:{_ZH_ROLES})(?:为|是|系)?|^|(?<=[，。；：、（(“\s和与及中由]))"
    rf"([{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?={_ZH_AFTER_NAME})")
_ZH_ORG_SUFFIX = ("股份有限公司|有限责任公司|有限公司|集团|中级人民法院|人民法院|人民检察院|检察院|医院|律师事务所|"
                  "会计师事务所（特殊普通合伙）|会计师事务所|证券交易所|研究院|大学|医疗中心")
_ZH_PARTICLES = "于与和及的为对在由向是被将从日月年即经其该系而但并且或自至据按以把使给称了"
_P_ZH_ORG = re.compile(rf"(?<![^\W\d_{_ZH_PARTICLES}])((?:(?![{_ZH_PARTICLES}])[\u4e00-\u9fff（）]){{2,20}}?)({_ZH_ORG_SUFFIX})")
_P_ZH_ORG_LEAD = re.compile(r"(?:[本该]?公司)?(?:收购|并购|聘任|聘请|委托|起诉|审计|出售|转让|增资|入股|设立|注销|合并|签署|签订|"
                            r"披露)")  # a verb the organisation regex swallowed
_ZH_COMPANY_SUFFIX = ("股份有限公司", "有限责任公司", "有限公司", "集团")


@dataclass(frozen=True, slots=True)
class _Entity:
    """A named party: its written name, the aliases that count as a mention, person or organisation."""

    name: str
    aliases: tuple[str, ...]
    org: bool


def _entity_en(name: str, after_number: bool = False) -> _Entity | None:
    words = [w.rstrip(".") for w in name.split()]
    if words:
        words[-1] = words[-1].removesuffix("'s").removesuffix("’s").rstrip("'’")
    while words and words[0].lower() in _TITLES_EN:
        words = words[1:]
    while words and words[-1].lower() in ("the",):
        words = words[:-1]
    if len([w for w in words if w != "&"]) < 2:
        return None
    if all(w.lower() in _GENERIC_CAPS or w == "&" for w in words):
        return None  # "First Extraordinary General Meeting", "Corporate Secretary": titles, not parties
    org = any(w.lower() in _ORG_WORDS_EN for w in words)
    low = [w.lower() for w in words]
    if not org and (low[0] in _PLACE_PREFIXES_EN or any(w in _AREA_WORDS_EN for w in low)
                    or any(w in _STREET_WORDS_EN or w[:-1] in _STREET_WORDS_EN for w in low)
                    and (after_number or len(words) > 2)):
        return None
    full = " ".join(words)
    core = [w for w in words if w.lower() not in _ORG_SUFFIX_EN]
    aliases = {full.lower()}
    if len(core) < len(words) and len(core) >= 2 and "&" not in core[:2]:
        aliases.add(" ".join(core).lower())
        aliases.add(" ".join(core[:2]).lower())
    return _Entity(full, tuple(sorted(aliases, key=len, reverse=True)), org)


def _entity_zh(name: str, org: bool) -> _Entity:
    aliases = {name}
    if org:
        core = name
        for suffix in _ZH_COMPANY_SUFFIX:
            if name.endswith(suffix):
                core = name[: -len(suffix)]
                aliases.add(core)
                if len(core) >= 4:
                    aliases.add(core[:4])
                break
    return _Entity(name, tuple(sorted(aliases, key=len, reverse=True)), org)


def _entities(text: str, language: str, taken: bytearray) -> list[_Entity]:
    out: list[_Entity] = []
    if language == "zh":
        for m in _P_ZH_ORG.finditer(text):
            lead = _P_ZH_ORG_LEAD.match(m[1])
            cut = lead.end() if lead and len(m[1]) - lead.end() >= 2 else 0
            out.append(_entity_zh(m[0][cut:], True))  # (公司)收购明嘉环保有限公司: the company is 明嘉环保有限公司
        freq = _initialised_jieba().dt.FREQ
        for m in _P_ZH_PERSON.finditer(text):
            if freq.get(m[1], 0) <= 500:  # 时间, 其中, 高于 ... are words, not names
                out.append(_entity_zh(m[1], False))
    else:
        for m in _P_CAPSEQ.finditer(text):
            a, b = m.span()
            if any(taken[a:b]):  # a capitalised month inside a date
                continue
            ent = _entity_en(m[0], after_number=bool(re.search(r"\d[\w-]*,?\s*$", text[max(0, a - 12):a])))
            if ent:
                out.append(ent)
    return out


def _same_entity(a: _Entity, b: _Entity) -> bool:
    return bool(set(a.aliases) & set(b.aliases)) or a.name.lower() in b.aliases or b.name.lower() in a.aliases


# --- tokens --------------------------------------------------------------------------------------

_STOP_EN = set("""a an the was were is are be been being of in on at to for by with from as and or that this these those
it its his her their he she they them which who whom whose what when where had has have did do does also there into
over about approximately around nearly some each per i we you our your than then so such both either any all
will would can could should may might must shall very just only same other another respectively while whereas
according based year defendant defendants patient patients company""".split())
_STOP_ZH = set("的 了 为 是 于 在 和 与 及 其 该 等 共 并 对 由 被 将 之 或 而 也 都 已 所 以 即 分别 以及 其中 有关 相关 为止 "
               "根据 按照 约 达 达到 累计 全年 年度 本 此 各 被告人 患者 公司 本案 该案 位于".split())  # 位于: a copula of place
_P_WORD_EN = re.compile(r"[a-z][a-z0-9]*(?:['’][a-z]+)?|\d+[a-z]+[a-z0-9]*")
_P_CJK = re.compile(r"[\u4e00-\u9fff]")
_STEM_SUFFIXES = ("ing", "ed", "es", "s", "e")


_SEX_WORDS_EN = {"man": "male", "men": "male", "woman": "female", "women": "female"}


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    w = word.lower().replace("’", "'").removesuffix("'s")
    w = _SEX_WORDS_EN.get(w, w)  # "a man" states "male"
    for suffix in _STEM_SUFFIXES:
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    return w[:6]


_jieba_module = None


def _initialised_jieba():
    jieba = _jieba()
    jieba.initialize()
    return jieba


def _jieba():
    """jieba, loaded on first use and kept quiet."""
    global _jieba_module
    if _jieba_module is None:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        _jieba_module = jieba
    return _jieba_module


@lru_cache(maxsize=65536)
def _content_tokens(text: str, language: str) -> tuple[str, ...]:
    """Content words: en stems minus stopwords; zh jieba words of two or more characters minus stopwords."""
    if language == "zh":
        words = _jieba().lcut(text)
        return tuple(w for w in words if len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH)
    return tuple(_stem(w) for w in _P_WORD_EN.findall(text.lower()) if w not in _STOP_EN and len(w) > 1)


# --- refusals ------------------------------------------------------------------------------------

_P_REFUSAL_EN = re.compile(
    r"\b(?:unable to (?:answer|determine|find|provide|locate|identify)|cannot (?:answer|be (?:determined|answered|found)|"
    r"determine|find|tell|provide|identify|locate)|can(?:no|')t (?:answer|determine|find|tell)|"
    r"(?:could|can)(?: not|n't) (?:find|locate|identify|determine)|"
    r"(?:do|does|did)(?: not|n't) (?:\w+ ){0,2}?(?:contain|mention|specify|state|include|provide|say|indicate|"
    r"disclose|name|break down|record|give|list|show|report|cover|have (?:enough |any |the )?(?:information|data|details))|"
    r"(?:is|are|was|were)(?: not|n't) (?:\w+ )?(?:mentioned|specified|stated|provided|available|included|disclosed|"
    r"recorded|given|found|listed|reported|known)|"
    r"no (?:explicit |specific |relevant |such |available )?(?:information|mention|record|data|details|evidence)|"
    r"(?:not|insufficient) enough information|insufficient (?:information|data|context)|not possible to (?:answer|determine)|"
    r"(?:i'm|i am) (?:sorry|afraid)|^sorry\b|there is no (?:way|information)|no answer)",
    re.I)
_P_REFUSAL_ZH = re.compile(
    r"无法(?:回答|确定|得知|判断|获知|查到|找到|提供|从)|不能(?:回答|确定)|未(?:提及|记载|载明|披露|说明|提供|涉及|列明|显示|给出|找到|查到)|"
    r"没有(?:关于|相关|提及|记载|说明|披露|提供|找到|涉及|信息|资料)|并未(?:提及|记载|说明|披露)|无相关|暂无|不详|不清楚|"
    r"抱歉|对不起|信息不足|资料不足|无从(?:得知|判断)")
# A superset of the English pattern (its anchors dropped) to search a whole answer with: no match
# anywhere means no clause of the answer can be a refusal, without analysing it.
_P_REFUSAL_EN_ANYWHERE = re.compile(_P_REFUSAL_EN.pattern.replace("^", "").replace(r"\b", ""), re.I)
_P_SPECULATION = re.compile(
    r"\b(?:likely|probably|presumably|possibly|perhaps|may have been|might be|might have|may be|estimated|"
    r"i (?:would )?(?:guess|assume|believe)|it is assumed)\b|可能|大概|估计|推测|应该是|大约是|或许|也许", re.I)


# --- clause structure ----------------------------------------------------------------------------

_P_SENT_EN = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(“])|;\s*|\n+")
_P_SENT_ZH = re.compile(r"(?<=[。！？])|\n+")
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


def _find_all_values(text: str, language: str) -> _Finder:
    f = _Finder(text)
    _find_dates(f)
    _find_percents(f)
    _find_money(f)
    _find_durations(f, language)
    _find_counts(f)
    _find_numbers(f)
    f.values.sort(key=lambda v: v.span)
    return f


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
                    and not any(f.taken[a:b]):
                refusal = True  # a value-free clause after a refusal is its object: "cannot say | which ..."
            clauses.append(_Clause((a, b), i, refusal, piece))
    values = _with_years(f.values, sentences)
    chars = list(text)
    for v in values:
        a, b = v.span
        chars[a:b] = " " * (b - a)
    return _Text(text, language, values, tuple(_entities(text, language, f.taken)), sentences,
                 tuple(clauses), "".join(chars))


def _with_years(values: list[Value], sentences: tuple[tuple[int, int], ...]) -> tuple[Value, ...]:
    """A date written without its year ("in 2020 ... a contract on March 25", "同年7月10日") takes the year of the
    last dated value before it in its sentence."""
    out, year, sentence = [], None, None
    for v in values:
        here = next((i for i, (a, b) in enumerate(sentences) if a <= v.span[0] < b), None)
        if here != sentence:
            year, sentence = None, here
        if v.kind == "date":
            y, m, d = _date_parts(str(v.value))
            if y is not None:
                year = y
            elif year is not None and m is not None:
                v = Value("date", _date_value(year, m, d), v.text, v.span, v.unit, v.step)
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


def is_refusal(answer: str, language: str) -> bool:
    """True when the answer declines or says the information is missing, and asserts no values or guesses."""
    if not (_P_REFUSAL_ZH if language == "zh" else _P_REFUSAL_EN_ANYWHERE).search(answer):
        return False  # no clause can be a refusal (each clause is a piece of the answer)
    return _refuses(answer, language)


def _refuses(answer: str, language: str) -> bool:
    t = _analyse(answer, language)
    if not any(c.refusal for c in t.clauses):
        return False
    if _P_SPECULATION.search(answer):
        return False
    for v in t.values:
        clause = _clause_of(t, v.span[0])
        if clause is not None and not clause.refusal:
            return False
    return True


def _clause_of(t: _Text, pos: int) -> _Clause | None:
    for c in t.clauses:
        if c.span[0] <= pos < c.span[1]:
            return c
    return None


# --- value comparison ----------------------------------------------------------------------------

def _close(a: float, b: float, step_a: float, step_b: float) -> bool:
    return abs(a - b) <= max(step_a, step_b, 1e-9 * max(abs(a), abs(b))) + 1e-9


def _same_value(k: Value, a: Value) -> bool:
    """Does answer value ``a`` state keypoint value ``k`` (same kind family, equal up to rounding)?"""
    if k.kind == "date" or a.kind == "date":
        if k.kind != a.kind:
            return False
        kp, ap = _date_parts(str(k.value)), _date_parts(str(a.value))
        return all(x is None or x == y for x, y in zip(kp, ap, strict=False)) and (kp[0] is None or ap[0] is not None) and \
            all(y is not None for x, y in zip(kp, ap, strict=False) if x is not None)
    if isinstance(k.value, str) or isinstance(a.value, str):
        return isinstance(k.value, str) and isinstance(a.value, str) and k.value == a.value
    if k.kind == "count" and k.unit == "age" and a.kind == "duration" and a.unit == "months":
        return _close(k.value * 12, a.value, 6, 6)
    if "number" in (k.kind, a.kind) or k.kind == a.kind:
        if k.kind == a.kind == "money" and k.unit and a.unit and k.unit != a.unit:
            return False
        if k.kind == a.kind and k.kind in ("duration", "count") and k.unit and a.unit and k.unit != a.unit:
            return False
        if "percent" in (k.kind, a.kind):  # a signed change (-5.52%) is its size and a direction
            return _close(abs(float(k.value)), abs(float(a.value)), k.step, a.step)
        return _close(float(k.value), float(a.value), k.step, a.step)
    if {k.kind, a.kind} == {"count", "duration"}:
        return False
    return False


def _conflicts(k: Value, a: Value) -> bool:
    """Is answer value ``a`` a different value of the same kind (so it can contradict ``k``)?"""
    if k.kind == "date":
        if a.kind != "date":
            return False
        kp, ap = _date_parts(str(k.value)), _date_parts(str(a.value))
        return any(x is not None and y is not None and x != y for x, y in zip(kp, ap, strict=False))
    if k.kind == "money":
        return a.kind == "money" and (not k.unit or not a.unit or k.unit == a.unit) and not _same_value(k, a)
    if k.kind == "percent":
        return a.kind == "percent" and not _same_value(k, a)
    if k.kind == "duration":
        if a.kind == "duration" and a.unit == k.unit or a.kind == "number":
            return not _same_value(k, a)
        return False
    if k.kind == "count":
        if k.unit == "age":
            return (a.kind == "count" and a.unit == "age" or a.kind == "number" and float(a.value).is_integer()
                    and 0 < float(a.value) < 130) and not _same_value(k, a)
        return a.kind == "count" and a.unit == k.unit and not _same_value(k, a) \
            and isinstance(a.value, str) == isinstance(k.value, str)  # a reference range is no reading
    if k.kind == "number":
        return a.kind in ("number", "count", "duration") and not isinstance(a.value, str) and not _same_value(k, a)
    return False


# --- direction and polarity ----------------------------------------------------------------------

_UP, _DOWN = 1, -1
_DIRECTION_EN = {**{w: _UP for w in "increase increased increases increasing grew grow grows growth rose rise rises "
                    "risen rising up gain gained climbed climb jumped surged expanded higher-than".split()},
                 **{w: _DOWN for w in "decrease decreased decreases decreasing decline declined declines declining "
                    "fell fall falls fallen falling drop dropped drops down reduced reduction shrank contracted "
                    "slipped".split()}}
_DIRECTION_ZH = [(re.compile(r"增长|上升|提高|增加|上涨|增至|升高|升至|提升|扩大"), _UP),
                 (re.compile(r"下降|减少|降低|下滑|下跌|减至|降至|缩小|回落"), _DOWN)]
_OPPOSITES_EN = [("above", "below"), ("positive", "negative"), ("benign", "malignant"), ("lighter", "heavier"),
                 ("mitigated", "aggravated"), ("lenient", "severe"), ("qualified", "unqualified"),
                 ("approved", "rejected"), ("guilty", "innocent"), ("accepted", "rejected")]
_OPPOSITES_ZH = [("从轻", "从重"), ("减轻", "加重"), ("阳性", "阴性"), ("良性", "恶性"), ("无前科", "有前科"),
                 ("初犯", "累犯"), ("高于参考", "低于参考"), ("偏高", "偏低"), ("升高", "降低"), ("同意", "反对"),
                 ("批准", "驳回"), ("盈利", "亏损"), ("无罪", "有罪"), ("参考范围内", "低于参考"), ("参考范围内", "高于参考"),
                 ("正常范围内", "低于正常"), ("正常范围内", "高于正常")]
_P_DIR_WORD_EN = re.compile(r"[a-z]+(?:-[a-z]+)?")


def _direction(text: str, language: str) -> int:
    """+1 for growth words, -1 for decline words, 0 for none or both."""
    if language == "zh":
        found = {sign for pattern, sign in _DIRECTION_ZH if pattern.search(text)}
    else:
        found = {_DIRECTION_EN[w] for w in _P_DIR_WORD_EN.findall(text.lower()) if w in _DIRECTION_EN}
    return found.pop() if len(found) == 1 else 0


def _opposite_word(kp: str, answer: str, language: str) -> str | None:
    """Why ``answer`` says the opposite: a polar word of the keypoint whose opposite (not itself) it uses."""
    low_kp, low_ans = (kp, answer) if language == "zh" else (kp.lower(), answer.lower())
    pairs = _OPPOSITES_ZH if language == "zh" else _OPPOSITES_EN
    for a, b in pairs:
        for mine, other in ((a, b), (b, a)):
            if _has_word(low_kp, mine, language) and _has_word(low_ans, other, language) \
                    and not _has_word(low_ans, mine, language):
                return f"answer says {other} where keypoint says {mine}"
    return None


def _has_word(text: str, word: str, language: str) -> bool:
    if language == "zh":
        return word in text
    return word in _word_set(text)


@lru_cache(maxsize=65536)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(_P_DIR_WORD_EN.findall(text.lower()))


# --- comparatives --------------------------------------------------------------------------------

_MORE, _LESS = 1, -1
_CMP_EN = {**{w: _MORE for w in "more larger bigger greater higher longer older later after exceeded exceeds "
              "heavier costlier".split()},
           **{w: _LESS for w in "less fewer smaller lower shorter younger earlier before sooner first lighter "
              "cheaper precedes preceded precede".split()}}
_P_CMP_EN = re.compile(r"\b(" + "|".join(_CMP_EN) + r")\b")
_P_NOT_IN_TIME = re.compile(r"\s+(?:tax|deducting|income|the\b|(?:this|that|a|an)\s+"
                            r"(?:court|judge|tribunal|panel|bench)\b)")
_P_OUTDO_EN = re.compile(r"\bout-?(?:earn|perform|sell|sold|pac|grew|grow|number|spen|last)[a-z]*",
                         re.I)  # "out-earned": more
_P_CMP_ZH = re.compile(r"(?:更|较|比较)(年轻|年长|高|低|多|少|大|小|长|短|早|晚|快|慢|靠前|靠后)|([高低多少大小长短早晚])于|"
                       r"(在先|在前|率先|先于|在后|后于)|(先)(?=出院|入院|召开|发生|作出|完成|成立|上市|就诊|手术|批准|审议|举行|作案|审理|判决|开庭|被|起诉|提起|宣判|受理|"
                       r"立案|披露|逮捕|拘留)|"
                       r"比(?![例较重率对赛])[^，。；,;\d]{1,20}?(?:更|还)?(年轻|年长|高|低|多|少|大|小|长|短|早|晚)")
_ZH_CMP_SIGN = {"年轻": _LESS, "年长": _MORE, "高": _MORE, "低": _LESS, "多": _MORE, "少": _LESS, "大": _MORE,
                "小": _LESS, "长": _MORE, "短": _LESS, "早": _LESS, "晚": _MORE, "快": _LESS, "慢": _MORE,
                "靠前": _LESS, "靠后": _MORE, "在先": _LESS, "在前": _LESS, "率先": _LESS, "先于": _LESS,
                "在后": _MORE, "后于": _MORE, "先": _LESS}


def _comparatives(text: str, language: str) -> list[tuple[int, int, str]]:
    """(position, sign, word) of each comparative: sign +1 more/later/higher, -1 less/earlier/lower."""
    out = []
    if language == "zh":
        for m in _P_CMP_ZH.finditer(text):
            word = next(g for g in m.groups() if g)
            out.append((m.start(), _ZH_CMP_SIGN[word], word))
    else:
        for m in _P_CMP_EN.finditer(text):
            word = m[1]
            if word == "first":
                rest = text[m.end():m.end() + 20]
                if re.match(r"\s+(?!on\b|in\b|at\b|by\b|with\b|and\b|among\b|of\b)[a-z]", rest):
                    continue  # "its first extraordinary general meeting" is an ordinal, not a comparison
            if word in ("before", "after") and _P_NOT_IN_TIME.match(text, m.end()):
                continue  # "before tax", "prosecuted before this court": not an order in time
            out.append((m.start(), _CMP_EN[word], word))
        out += [(m.start(), _MORE, "more") for m in _P_OUTDO_EN.finditer(text)]
        out.sort()
    return out


# --- judging -------------------------------------------------------------------------------------

_UNANSWERABLE_KEYPOINTS = {"unable to answer", "无法回答", "cannot answer", "unanswerable"}
_P_NUMBERING = re.compile(r"^\s*\d+\s*[.、)）]\s*")
_P_CODE_EN = re.compile(r"\b[A-Z]{2,6}\b")
_NO_CLAUSE = _Clause((0, 0), 0, False, "")


def _mentions(text: str, entities: list[_Entity], language: str) -> list[tuple[int, int, int]]:
    """(start, end, entity index) of every mention of the known entities, longest alias first."""
    low = text if language == "zh" else text.lower()
    taken = bytearray(len(text))
    out = []
    for i, ent in sorted(enumerate(entities), key=lambda p: -len(p[1].aliases[0])):
        for alias in ent.aliases:
            start = 0
            while (pos := low.find(alias, start)) >= 0:
                end = pos + len(alias)
                start = end
                if language != "zh" and ((pos and low[pos - 1].isalnum()) or (end < len(low) and low[end].isalnum())
                                         or " " not in alias and not text[pos].isupper()):
                    continue  # inside a word, or a one-word name (Cross, Lane) written in lower case
                if any(taken[pos:end]):
                    continue
                taken[pos:end] = b"\x01" * (end - pos)
                out.append((pos, end, i))
    return sorted(out)


@dataclass(frozen=True, slots=True)
class _Sibling:
    """Another keypoint of the same query: its text, values, parties and content words."""

    text: _Text
    values: tuple[Value, ...]
    parties: frozenset[int]
    words: tuple[str, ...]


@dataclass(slots=True)
class _Scene:
    """One answer judged against the keypoints of one query, with the named parties they share."""

    answer: _Text
    language: str
    entities: list[_Entity]
    mentions: list[tuple[int, int, int]]
    from_keypoints: int  # entities[:from_keypoints] are named by the keypoints; the rest only by the answer
    keypoints: list[_Sibling] = field(default_factory=list)  # every keypoint of the query
    _memo: dict = field(default_factory=dict)

    def others(self, kt: _Text) -> list[_Sibling]:
        """The query's other keypoints: what they assert tells whose a value is."""
        return [s for s in self.keypoints if s.text is not kt]

    def mentions_in(self, text: str) -> list[tuple[int, int, int]]:
        """Mentions of the known parties in a keypoint's text (memoised: each keypoint asks often)."""
        found = self._memo.get(text)
        if found is None:
            found = self._memo[text] = _mentions(text, self.entities, self.language)
        return found

    def parties(self, pos: int, kinds: set[str] | None = None) -> set[int]:
        """Whom a value at ``pos`` is said of: the parties in its clause, else those of the nearest clause before
        it in its sentence that names any ("A spent X, 5.69%, while B spent Y, or 4.6%": 4.6% is B's), else the
        party that opens the next clause when the value opens the sentence ("2022年8月10日，徐华因…"), else the
        parties of the nearest earlier sentence that names any. ``kinds`` keeps only parties of those kinds
        (_party_kind): a person's value is not said of the bureau he works for, nor a company's of its exchange."""
        ans = self.answer
        mentions = [m for m in self.mentions if kinds is None or _party_kind(self.entities[m[2]]) in kinds]
        clause = _clause_of(ans, pos)
        if clause is not None:
            inside = {i for p, _, i in mentions if clause.span[0] <= p < clause.span[1]}
            if inside:
                return inside
        si = _sentence_index(ans, pos)
        before = [m for m in mentions if m[1] <= pos]
        here = [m for m in before if _sentence_index(ans, m[0]) == si]
        if here:
            last = _clause_of(ans, here[-1][0])
            return {i for p, _, i in here if last is None or last.span[0] <= p < last.span[1]}
        if clause is not None and _P_LEAD_ONLY.fullmatch(ans.masked[clause.span[0]:clause.span[1]]):
            nxt = next((c for c in ans.clauses if c.span[0] >= clause.span[1] and c.sentence == clause.sentence), None)
            opener = [m for m in mentions if nxt is not None and nxt.span[0] <= m[0] <= nxt.span[0] + 1]
            if opener:
                return {opener[0][2]}
        if not before:
            return set()
        last = _sentence_index(ans, before[-1][0])  # else everyone the nearest earlier sentence names
        return {i for p, _, i in before if _sentence_index(ans, p) == last}

    def owner(self, pos: int) -> int | None:
        """The one party a value at ``pos`` belongs to: the last named before it in its clause, else the first
        after it there, else the last named before it in the answer."""
        clause = _clause_of(self.answer, pos)
        if clause is not None:
            before = [m for m in self.mentions if clause.span[0] <= m[0] and m[1] <= pos]
            if before:
                return before[-1][2]
            after = [m for m in self.mentions if pos <= m[0] < clause.span[1]]
            if after:
                return after[0][2]
        before = [m for m in self.mentions if m[1] <= pos]
        return before[-1][2] if before else None

    def mentioned(self, idx: int) -> bool:
        """Is party ``idx`` named outside the answer's refusal clauses?"""
        return any(i == idx and not (_clause_of(self.answer, a) or _NO_CLAUSE).refusal for a, _, i in self.mentions)

    def named_in_sentence(self, si: int) -> set[int]:
        return {i for p, _, i in self.mentions if _sentence_index(self.answer, p) == si}

    def blank(self, text: str) -> str:
        """``text`` with every party's name blanked: names are judged apart from words."""
        low = text if self.language == "zh" else text.lower()
        for ent in self.entities:
            for alias in ent.aliases:
                low = low.replace(alias, " ")
        return low


_P_LEAD_ONLY = re.compile(r"[\W_]*(?:on|in|at|by|于|在)?[\W_]*", re.I)  # a clause holding nothing but its value


def _party_kind(ent: _Entity) -> str:
    """person, or the kind of organisation (company, court, exchange, law firm ...)."""
    return "person" if not ent.org else _org_kind(ent) or "organisation"


def _add_entity(entities: list[_Entity], ent: _Entity) -> None:
    """Add a party unless known; a zh name that ends with a known one (审计了安华饮品…) is that one."""
    for n, e in enumerate(entities):
        if _same_entity(ent, e):
            return
        if _P_CJK.match(ent.name) and not ent.org and not e.org and len(ent.name) == len(e.name) + 1 \
                and ent.name.startswith(e.name):
            return  # 梁峰虽不具有…: the regex took one character too many of a known person's name
        if _P_CJK.match(ent.name) and ent.org == e.org and min(len(ent.name), len(e.name)) >= 4:
            if e.name.endswith(ent.name):
                entities[n] = ent  # keep the cleaner, shorter name
                return
            if ent.name.endswith(e.name):
                return
    entities.append(ent)


def _strip_keypoint(kp: str) -> str:
    return _P_NUMBERING.sub("", kp).strip()


def _is_unanswerable_keypoint(text: str) -> bool:
    return text.lower().rstrip(".。 ") in _UNANSWERABLE_KEYPOINTS


def judge_keypoints(answer: str, keypoints: list[str], language: str,
                    keypoint_facts: list[list[dict]] | None = None, unanswerable: bool = False) -> list[KeypointLabel]:
    """Label every keypoint of one query against one answer (offline, deterministic)."""
    language = "zh" if language == "zh" else "en"
    answer = answer or ""
    texts = [_strip_keypoint(kp) for kp in keypoints]
    if unanswerable or (texts and all(_is_unanswerable_keypoint(t) for t in texts)):
        return [_judge_unanswerable(kp, answer, language) for kp in keypoints]
    if not answer.strip():
        return [KeypointLabel(keypoint=kp, label="Irrelevant", reason="empty answer") for kp in keypoints]
    ans = _analyse(answer, language)
    kp_texts = [_analyse(t, language) for t in texts]
    facts = [(keypoint_facts[i] if keypoint_facts and i < len(keypoint_facts) else None) or [] for i in range(len(texts))]
    entities: list[_Entity] = []
    for kt, kp_facts in zip(kp_texts, facts, strict=False):
        for fact in kp_facts:
            if fact.get("kind") in ("person", "organisation") and fact.get("text"):
                _add_entity(entities, _fact_entity(fact, language))
        for ent in kt.entities:
            _add_entity(entities, ent)
    known = len(entities)
    for ent in ans.entities:
        _add_entity(entities, ent)
    if language == "en":
        entities = _with_short_names(entities)
    scene = _Scene(ans, language, entities, _mentions(answer, entities, language), known)
    scene.keypoints = [_Sibling(kt, tuple(_fact_values(kt, kp_facts)),
                                frozenset(i for _, _, i in scene.mentions_in(kt.text)), _kp_words(kt, scene))
                       for kt, kp_facts in zip(kp_texts, facts, strict=False)]
    out = []
    for kp, kt, kp_facts in zip(keypoints, kp_texts, facts, strict=False):
        if _is_unanswerable_keypoint(kt.text):
            out.append(_judge_unanswerable(kp, answer, language))
            continue
        label, reason = _judge_one(kt, scene, kp_facts)
        out.append(KeypointLabel(keypoint=kp, label=label, reason=reason))
    return out


def _with_short_names(entities: list[_Entity]) -> list[_Entity]:
    """A person is also named by surname alone (Mr. Robinson, Dr. Taylor, Lyons) and a company by its first word
    (Tyler's), when no other party's name holds that word; courts, firms and hospitals are not named by a place."""
    counts = Counter(w for e in entities for w in set(e.name.lower().split()))
    out = []
    for e in entities:
        parts = e.name.lower().split()
        short = parts[0] if e.org else parts[-1]
        if (not e.org or _org_kind(e) is None) and len(short) >= 3 and counts[short] == 1 \
                and short not in _GENERIC_CAPS and short not in _TITLES_EN and short not in e.aliases:
            e = _Entity(e.name, e.aliases + (short,), e.org)
        out.append(e)
    return out


def _fact_entity(fact: dict, language: str) -> _Entity:
    org = fact["kind"] == "organisation"
    if language == "zh":
        return _entity_zh(fact["text"], org)
    return _entity_en(fact["text"]) or _Entity(fact["text"], (fact["text"].lower(),), org)


def _judge_unanswerable(kp: str, answer: str, language: str) -> KeypointLabel:
    if not answer.strip():
        return KeypointLabel(keypoint=kp, label="Irrelevant", reason="empty answer")
    if is_refusal(answer, language):
        return KeypointLabel(keypoint=kp, label="Relevant", reason="declines to answer an unanswerable question")
    return KeypointLabel(keypoint=kp, label="Wrong", reason="asserts an answer to an unanswerable question")


def _fact_values(kt: _Text, facts: list[dict]) -> list[Value]:
    """The keypoint's values, completed from its build facts where extraction missed one."""
    values = list(kt.values)
    for fact in facts:
        kind, text = fact.get("kind"), fact.get("text") or ""
        if kind not in ("date", "money", "percent", "count") or not text:
            continue
        pos = kt.text.find(text)
        if pos >= 0 and any(v.span[0] < pos + len(text) and pos < v.span[1] for v in values):
            continue
        span = (max(pos, 0), max(pos, 0) + len(text))
        found = _analyse(text, kt.language).values
        if found:
            values.extend(Value(v.kind, v.value, v.text, span, v.unit, v.step) for v in found)
        elif kind == "date" and isinstance(fact.get("value"), str):
            values.append(Value("date", fact["value"], text, span))
        elif isinstance(fact.get("value"), (int, float)):
            vkind: ValueKind = "money" if kind == "money" else "percent" if kind == "percent" else "count"
            unit = fact.get("unit")
            values.append(Value(vkind, float(fact["value"]), text, span, unit if unit in ("USD", "CNY") or
                                vkind != "money" else None))
    return sorted(values, key=lambda v: v.span)


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


def _bigrams(word: str) -> list[str]:
    return [word[i:i + 2] for i in range(len(word) - 1)]


def _coverage(words: tuple[str, ...], target: str, language: str) -> float:
    """Share (by length) of ``words`` that ``target`` states; a long zh word scores by its character pairs."""
    if not words:
        return 1.0
    hit = 0.0
    if language == "zh":
        for w in words:
            if w in target or (len(w) >= 3 and w[-1] in "省市区县" and w[:-1] in target):  # 江苏苏州 = 江苏省苏州市
                hit += len(w)
            elif len(w) >= 3:
                pairs = _bigrams(w)
                hit += len(w) * sum(p in target for p in pairs) / len(pairs)
    else:
        have = set(_content_tokens(target, "en"))
        hit = sum(len(w) for w in words if w in have)
    return hit / sum(len(w) for w in words)


def _share(words: tuple[str, ...], target: str, language: str) -> float:
    """Share (by count) of ``words`` that ``target`` states: how far two contexts name the same quantity."""
    if not words:
        return 0.0
    if language == "zh":
        return sum(w in target for w in words) / len(words)
    have = set(_content_tokens(target, "en"))
    return sum(w in have for w in words) / len(words)


@lru_cache(maxsize=65536)
def _token_spans(text: str, language: str) -> tuple[tuple[str, int, int], ...]:
    """Content words of ``text`` with their offsets (tokenised once per keypoint)."""
    if language == "zh":
        return tuple((w, a, b) for w, a, b in _initialised_jieba().tokenize(text)
                     if len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH)
    return tuple((_stem(m[0]), *m.span()) for m in _P_WORD_EN.finditer(text.lower())
                 if m[0] not in _STOP_EN and len(m[0]) > 1)


def _kp_words(kt: _Text, scene: _Scene, span: tuple[int, int] | None = None) -> tuple[str, ...]:
    """The keypoint's content words (within ``span``), leaving out its values and the parties it names."""
    a, b = span or (0, len(kt.text))
    skip = [v.span for v in kt.values] + [(m[0], m[1]) for m in scene.mentions_in(kt.text)]
    return tuple(dict.fromkeys(w for w, p, q in _token_spans(kt.text, scene.language)
                               if a <= p and q <= b and not any(p < y and x < q for x, y in skip)))


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


def _judge_one(kt: _Text, scene: _Scene, facts: list[dict]) -> tuple[Label, str]:
    kp_parties = list(dict.fromkeys(i for _, _, i in scene.mentions_in(kt.text)))
    named_by_facts = []
    for fact in facts:
        if fact.get("kind") in ("person", "organisation") and fact.get("text"):
            ent = _fact_entity(fact, scene.language)
            named_by_facts += [i for i, e in enumerate(scene.entities) if _same_entity(e, ent)]
    kp_parties += [i for i in named_by_facts if i not in kp_parties]
    values = _fact_values(kt, facts)
    label, reason = (_judge_values(kt, scene, values, kp_parties) if values
                     else _judge_words(kt, scene, kp_parties, facts))
    if label != "Wrong":
        swapped = _frame_substitution(kt, scene, kp_parties) or _topic_negated(kt, scene, kp_parties)
        if swapped:
            return "Wrong", swapped
    missing = [scene.entities[i].name for i in named_by_facts if not scene.mentioned(i)]
    if label == "Relevant" and missing:
        return "Irrelevant", f"does not name {missing[0]}"  # a build fact's name is the keypoint's value
    return label, reason


# --- substitution in the same frame ---------------------------------------------------------------

# Pairs that exclude each other in every genre (sides, positions, test results, course, direction):
# a general table of opposites, not a list of any benchmark's values.
_OPPOSITES = {frozenset(p) for p in (
    ("left", "right"), ("upper", "lower"), ("anterior", "posterior"), ("proximal", "distal"), ("positive", "negative"),
    ("benign", "malignant"), ("acute", "chronic"), ("increase", "decrease"), ("rise", "fall"), ("higher", "lower"),
    ("profit", "loss"), ("gain", "loss"), ("plaintiff", "defendant"), ("appellant", "appellee"), ("male", "female"),
    ("左", "右"), ("左侧", "右侧"), ("上", "下"), ("阳性", "阴性"), ("良性", "恶性"), ("急性", "慢性"), ("增加", "减少"),
    ("上升", "下降"), ("升高", "降低"), ("增长", "下降"), ("盈利", "亏损"), ("原告", "被告"), ("男", "女"), ("男性", "女性"),
    ("Ⅰ型", "Ⅱ型"), ("i型", "ii型"))}


@lru_cache(maxsize=8192)
def _frame_tokens(text: str, language: str) -> tuple[tuple[str, str], ...]:
    """(stem, word) of each content word, in order; English words keep their case in ``word``."""
    if language == "zh":
        return tuple((w, w) for w in _jieba().lcut(text) if len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH)
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9]*(?:['’][a-z]+)?", text):
        w = m.group(0)
        if w.lower() not in _STOP_EN and len(w) > 1:
            out.append((_stem(w.lower()), w))
    return tuple(out)


_INN_SUFFIXES = ("olol", "pril", "sartan", "statin", "dipine", "cillin", "mycin", "floxacin", "prazole", "tidine",
                 "azole", "cycline", "gliptin", "glitazone", "semide", "thiazide", "parin", "xaban", "gatran",
                 "mab", "tinib", "vir", "setron", "triptan", "profen", "sone", "olone", "azepam", "oxetine",
                 "tropium", "terol", "formin")
_INN_PREFIXES = ("cef", "sulfa")


def _same_class(k: str, a: str, language: str) -> bool:
    """Two words that name different members of one kind: a table's opposites (left/right), in
    Chinese two names built alike on one head (one charge for another: both end in 罪), in English
    two drugs of one class (a shared INN stem: -olol, -pril, cef-). Shared letters alone are not
    enough (physician/clinician), nor are two capitalised words (Board/Directors)."""
    kl, al = k.lower(), a.lower()
    if kl == al or kl in al or al in kl:
        return False
    if frozenset((kl, al)) in _OPPOSITES:
        return True
    if language == "zh":
        # names of one kind share their head and are built alike (盗窃罪/抢劫罪 both three characters);
        # a longer or shorter word with the same last character is mostly the same act said otherwise
        return (len(k) == len(a) >= 3 and k[-1] == a[-1] and _P_CJK.search(k[-1]) is not None
                and k[-1] not in "的了人者") or (len(k) >= 3 and len(a) >= 3 and k[:2] == a[:2])
    # two drugs of one class share the class's stem (the WHO INN stems): a general table
    return any(kl.endswith(stem) and al.endswith(stem) for stem in _INN_SUFFIXES) or \
        any(kl.startswith(stem) and al.startswith(stem) for stem in _INN_PREFIXES)


def _party_substitution(kp: list[tuple[str, str]], said: set[str], scene: _Scene, mine: set[int]) -> str | None:
    """In a clause that names the keypoint's party, a word of the keypoint's kind in place of the
    keypoint's word (one charge for another, said of the same defendant). Any other word where the
    frame ends is not enough: with the names blanked, "the physician was NAME" ends in "physician".)"""
    lang, ans = scene.language, scene.answer
    ks = [s for s, _ in kp]
    gone = [(s, w) for s, w in kp if s not in said]  # the keypoint's words the answer never says
    if not gone:
        return None
    for c in ans.clauses:
        if c.refusal:
            continue
        named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
        if not named & mine or named - mine:
            continue
        toks = _frame_tokens(_unnamed(scene, ans.masked[c.span[0]:c.span[1]]), lang)
        for _, k_w in gone:
            for a_s, a_w in toks:
                if a_s not in ks and _same_class(k_w, a_w, lang) and not (lang == "en" and a_w[:1].isupper()
                                                                          and a_w is toks[0][1]):
                    return f"answer says {a_w} where keypoint says {k_w} of the same party"
    return None


_P_NEGATION_EN = re.compile(r"\b(?:no|not|never|none|denies|denied|deny|without|neither|nor|unremarkable|"
                            r"free of|negative for|declined to|absence of|absent)\b|n't\b", re.I)
_P_NEGATION_ZH = re.compile(r"否认|没有|并未|尚未|未(?!来|成年|婚)|不(?!同|但|仅|过|久|少|断|足|等|论|限)|无(?!锡|期)|"
                            r"非(?!常|法|凡|典型)|阴性|不成立|宣告.{0,4}无罪")
# "not disclosed", "未在资料中披露": a clause saying the information is missing, not a denial
_P_NOT_SAID = re.compile(r"(?:未|没有|不|并未)[^，。；]{0,8}(?:提及|披露|记载|说明|找到|显示|给出|列明|提到)|"
                         r"\b(?:not|n't|no)\b(?:\s+\w+){0,3}\s+(?:mention|state|disclos|record|specif|provid|report|"
                         r"give|list|found|availab)", re.I)


def _negated(text: str, language: str) -> bool:
    return bool((_P_NEGATION_ZH if language == "zh" else _P_NEGATION_EN).search(text))


def _topic_negated(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The answer's clause on the keypoint's topic says the opposite: negated where the keypoint
    affirms ("the loan was not repaid" for "the loan was repaid", 宣告无罪 for a conviction) or affirmed
    where it denies (有某药物过敏史 for 否认药物过敏史). The topic: the keypoint's head word (its last content word) or most of
    its words, in a clause that names the keypoint's party when it names one."""
    lang, ans = scene.language, scene.answer
    body = re.sub(r"^\s*\d+[.、)]\s*", "", kt.masked)
    negation = _P_NEGATION_ZH if lang == "zh" else _P_NEGATION_EN
    if "negated" not in scene._memo:
        scene._memo["negated"] = bool(negation.search(ans.masked))
    if not scene._memo["negated"] and not negation.search(body):
        return None  # nothing negated on either side
    kp = [s for s, _ in _frame_tokens(_unnamed(scene, body), lang)]
    if not kp:
        return None
    head = kp[-1]
    # the keypoint's own polarity is its head's clause's ("..., and no masses on palpation" denies the
    # masses, not the examination's other findings)
    parts = [p for p in re.split(r"[,;，；]", body) if p.strip()]
    head_part = next((p for p in reversed(parts) if head in {s for s, _ in _frame_tokens(_unnamed(scene, p), lang)}),
                     body)
    kp_neg = _negated(head_part, lang)
    target = head
    if kp_neg:  # what the keypoint denies: the first content word after its negation ("no masses")
        m = (_P_NEGATION_ZH if lang == "zh" else _P_NEGATION_EN).search(head_part)
        after = _frame_tokens(_unnamed(scene, head_part[m.end():]), lang) if m else []
        target = after[0][0] if after else head
    mine = set(kp_parties)
    flips = []
    for c in ans.clauses:
        if c.refusal:
            continue
        named = scene.parties(c.span[0]) if mine else set()
        if mine and not named & mine:
            continue
        text = ans.masked[c.span[0]:c.span[1]]
        toks = {s for s, _ in _frame_tokens(_unnamed(scene, text), lang)}
        share = sum(1 for s in kp if s in toks) / len(kp)
        if not (head in toks or (share >= 0.6 and len(kp) >= 2)) or len(toks) <= 1 and not _negated(text, lang):
            continue  # off the topic, or a bare label ("史：") whose value is the next clause
        if _P_NOT_SAID.search(text):
            continue  # says it is not in the documents: a refusal, not a denial
        near = {target} if target in toks else {head} if head in toks else set(kp)
        if _negated_near(text, near, lang) == kp_neg:
            return None  # the answer says it the keypoint's way round somewhere
        flips.append(c.text.strip())
    if flips:
        return ("answer denies what keypoint states" if not kp_neg else "answer states what keypoint denies") + \
            f": {flips[0][:60]}"
    return None


def _negated_near(text: str, topic: set[str], language: str) -> bool:
    """A negation whose scope reaches the topic: right before one of its words (three English words,
    four Chinese characters), or in Chinese right after it (罪名不成立); "had no debts and paid in
    cash" does not deny the payment, nor does 无明显诱因 deny the pain that follows."""
    pattern = _P_NEGATION_ZH if language == "zh" else _P_NEGATION_EN
    low = text if language == "zh" else text.lower()
    spans = []
    for stem, word in _frame_tokens(text, language):
        if stem in topic:
            pos = low.find(word.lower() if language == "en" else word)
            if pos >= 0:
                spans.append((pos, pos + len(word)))
    if not spans:
        return bool(pattern.search(text))
    for a, b in spans:
        if language == "zh":
            if pattern.search(low[max(0, a - 4):a]) or pattern.search(low[b:b + 5]):
                return True
        elif pattern.search(" ".join(low[:a].split()[-3:])):
            return True
    return False


def _unnamed(scene: _Scene, text: str) -> str:
    """``text`` with every party's name blanked, its case kept (a proper name is a kind of word)."""
    key = ("unnamed", text)
    if key in scene._memo:
        return scene._memo[key]
    for ent in scene.entities:
        for alias in ent.aliases:
            text = re.sub(rf"\b{re.escape(alias)}\b", " ", text, flags=re.I) if scene.language == "en" else \
                text.replace(alias, " ")
    scene._memo[key] = text
    return text


def _frame_substitution(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """An answer that says the keypoint in its own frame with another member of the same kind in
    one place: in a clause naming the keypoint's party (``_party_substitution``), or, for a keypoint
    naming no one, in a sentence whose words before or after the place match the keypoint's (a
    side, a test result, a drug of the same class, another proper name)."""
    lang, ans = scene.language, scene.answer
    kp = _frame_tokens(_unnamed(scene, kt.masked), lang)
    said = scene._memo.get("said")
    if said is None:
        said = scene._memo["said"] = {s for s, _ in _frame_tokens(_unnamed(scene, ans.masked), lang)}
    if all(s in said for s, _ in kp):
        return None  # every word of the keypoint is in the answer: none was put in another's place
    mine = set(kp_parties)
    if mine and kp:
        found = _party_substitution(kp, said, scene, mine)
        if found:
            return found
    if len(kp) < 2:
        return None
    for si, (a, b) in enumerate(ans.sentences):
        clauses = [c for c in ans.clauses if c.sentence == si]
        if not clauses or any(c.refusal for c in clauses):
            continue
        named = scene.named_in_sentence(si)
        if mine and not named & mine:
            continue  # about someone else, or no one the keypoint names
        sent = _frame_tokens(_unnamed(scene, ans.masked[a:b]), lang)
        ks, ss = [s for s, _ in kp], [s for s, _ in sent]
        ops = difflib.SequenceMatcher(None, ks, ss, autojunk=False).get_opcodes()
        matched = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
        for n, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag != "replace" or i2 - i1 > 3 or j2 - j1 > 4:
                continue
            if any(s in said for s in ks[i1:i2]):
                continue  # the answer says the keypoint's word too (elsewhere, or as a paraphrase's part)
            left = n > 0 and ops[n - 1][0] == "equal"
            right = n + 1 < len(ops) and ops[n + 1][0] == "equal"
            if not (left or right) or matched < max(1, (len(ks) - (i2 - i1)) * 0.6):
                continue
            kw, aw = [w for _, w in kp[i1:i2]], [w for _, w in sent[j1:j2]]
            # a capital that only opens a sentence or a clause says nothing of a name
            opens = {j1} if j1 == 0 or re.search(r"[:;,(]\s*$", ans.masked[a:b].split(sent[j1][1])[0]) else set()
            aw_names = [x for j, x in zip(range(j1, j2), aw, strict=True) if j not in opens or lang == "zh"]
            kw_names = kw if i1 > 0 or lang == "zh" else kw[1:]
            same = any(_same_class(k, x, lang) for k in kw_names for x in aw_names)
            if same:
                return f"answer says {' '.join(aw) if lang == 'en' else ''.join(aw)} where keypoint says " \
                       f"{' '.join(kw) if lang == 'en' else ''.join(kw)}"
    return None


def _refused_here(scene: _Scene, words: tuple[str, ...], kp_parties: list[int]) -> bool:
    """Does a refusal clause (with the value-free clause that may introduce it) say this fact is missing?"""
    ans = scene.answer
    for n, c in enumerate(ans.clauses):
        if not c.refusal:
            continue
        a = c.span[0]
        if n and ans.clauses[n - 1].sentence == c.sentence:
            prev = ans.clauses[n - 1]
            if not any(prev.span[0] <= v.span[0] < prev.span[1] for v in ans.values):
                a = prev.span[0]
        text = ans.text[a:c.span[1]]
        named = {i for p, _, i in scene.mentions if a <= p < c.span[1]}
        if named and kp_parties and not named & set(kp_parties):
            continue  # says another party's fact is missing
        if _share(words, scene.blank(text), scene.language) >= 0.5 or named & set(kp_parties):
            return True
    return False


def _judge_values(kt: _Text, scene: _Scene, values: list[Value], kp_parties: list[int]) -> tuple[Label, str]:
    lang, ans = scene.language, scene.answer
    mine = set(kp_parties)
    kinds = {_party_kind(scene.entities[i]) for i in mine} or None
    live = [v for v in ans.values if not (_clause_of(ans, v.span[0]) or _NO_CLAUSE).refusal]
    found: list[tuple[Value, Value, bool]] = []
    missing: list[tuple[Value, tuple[str, ...], bool]] = []
    wrong: list[str] = []
    others = scene.others(kt)
    for k in values:
        kp_ctx = _context(kt, k, values)
        words = _kp_words(kt, scene, _context_span(kt, k, values)) or _kp_words(
            kt, scene, (_clause_of(kt, k.span[0]) or _NO_CLAUSE).span)  # "Revenue in 2020 was $407.89 million"
        good, elsewhere = [], False
        for a in (a for a in live if _same_value(k, a)):
            said_of = scene.parties(a.span[0], kinds)
            if mine and said_of and not said_of & mine:
                elsewhere = True  # the value is there, but said of another party
            elif not said_of & mine and _under_other_label(a, words, others, scene):
                elsewhere = True  # "examinations $2,405" does not state "medications cost $2,405"
            else:
                good.append((a, bool(said_of & mine)))
        if not good:
            missing.append((k, words, elsewhere))
            continue
        best, own = max(good, key=lambda g: (g[1], _share(words, scene.blank(_context(ans, g[0], ans.values)), lang)))
        k_dir = _signed(k) or _direction(kp_ctx, lang) or (_direction(kt.text, lang) if len(values) == 1 else 0)
        a_dir = _signed(best) or _direction(_context(ans, best, ans.values), lang) or _direction(
            (_clause_of(ans, best.span[0]) or _NO_CLAUSE).text, lang)
        if k_dir and a_dir and k_dir != a_dir:
            wrong.append(f"reversed direction: answer says it {'rose' if a_dir > 0 else 'fell'} ({best.text}) "
                         f"where keypoint says it {'rose' if k_dir > 0 else 'fell'}")
        found.append((k, best, own))
    kp_words = _kp_words(kt, scene)
    used = {id(a) for _, a, _ in found}
    for k, words, elsewhere in missing:
        if _refused_here(scene, words or kp_words, kp_parties):
            continue
        rival = _rival(k, words, kp_words, scene, [a for a in live if id(a) not in used], mine, values,
                       swapped=elsewhere, kinds=kinds, others=others)
        if rival is not None:
            wrong.append(f"answer gives {rival.text} where keypoint has {k.text}")
    if wrong:
        return "Wrong", "; ".join(wrong)
    if not missing:
        near = " ".join(_sentence(ans, a.span[0], before=1) for _, a, _ in found)
        if not any(own or _specific(a) for _, a, own in found) \
                and _coverage(kp_words, scene.blank(near), lang) < RESIDUAL_RELEVANT:
            return "Irrelevant", f"{', '.join(a.text for _, a, _ in found)} appears in another role"
        clash = _opposite_word(kt.text, near, lang) or _negation_flip(kt.text, near, lang)
        if clash:
            return "Wrong", clash
        party = _substitution(scene, kp_parties, kp_words)
        if party:
            return "Wrong", party
        return "Relevant", "states " + ", ".join(_value_phrase(k, a) for k, a, _ in found)
    if _refused_here(scene, kp_words, kp_parties):
        return "Irrelevant", "answer says this information is not available"
    flagged = _substitution(scene, kp_parties, kp_words) or _polarity_clash(kt.text, kp_words, scene, kp_parties) \
        or _direction_clash(kt, scene)
    if flagged:
        return "Wrong", flagged
    absent = ", ".join(k.text for k, _, _ in missing)
    if found:
        return "Irrelevant", f"partial: states {', '.join(a.text for _, a, _ in found)} but not {absent}"
    return "Irrelevant", f"not addressed ({absent} not stated)"


def _signed(v: Value) -> int:
    """-1 for a percentage written with a minus sign (a fall), else 0."""
    return _DOWN if v.kind == "percent" and float(v.value) < 0 else 0


def _specific(v: Value) -> bool:
    """A value precise enough (three significant digits, or a pair like 112/63) to identify its fact alone."""
    if v.kind == "date":
        return False
    if isinstance(v.value, str):
        return True
    digits = re.sub(r"\D", "", v.text.split("%")[0]).strip("0")
    return len(digits) >= 3


def _value_phrase(k: Value, a: Value) -> str:
    return a.text if a.text == k.text else f"{a.text} (= {k.text})"


def _rival(k: Value, words: tuple[str, ...], kp_words: tuple[str, ...], scene: _Scene, live: list[Value],
           mine: set[int], kp_values: list[Value], swapped: bool, kinds: set[str] | None = None,
           others: list[_Sibling] = ()) -> Value | None:
    """An answer value of the same kind said of the same fact and party: it contradicts ``k``."""
    lang, ans = scene.language, scene.answer
    candidates = [a for a in live if _conflicts(k, a)]
    kp_dates = [v for v in kp_values if v.kind == "date" and v is not k]
    theirs = {w for s in others for w in s.words}
    distinct = tuple(w for w in words if w not in theirs)  # the words only this keypoint has
    best, best_score = None, -1.0
    for a in candidates:
        said_of = scene.parties(a.span[0], kinds)
        if mine and said_of and not said_of & mine:
            continue  # said of another party
        if any(s.parties and not s.parties & mine and (not said_of or said_of <= s.parties)
               and any(_same_value(v, a) for v in s.values) for s in others) and (mine or said_of):
            continue  # what another keypoint gives another party (said of it, or of no one): that party's value
        if mine and len(said_of) > 1 and scene.owner(a.span[0]) not in mine and _parallel(a, scene, live):
            continue  # "A was 45 and B was 25": 25 is B's
        if _other_record(a, kp_dates, scene, live):
            continue  # belongs to another dated event
        same_party = bool(said_of & mine)
        ctx = scene.blank(_context(ans, a, ans.values))
        score = _share(words, ctx, lang)
        exact = score >= CONTEXT_SAME_FACT and not set(_content_tokens(ctx, lang)) - set(kp_words) - set(words)
        single = len(ans.values) == 1 and not said_of and score > 0  # an answer of one value, on the keypoint's topic
        if not same_party and not exact and not single and \
                _share(kp_words, scene.blank(_sentence(ans, a.span[0])), lang) < CONTEXT_SOLE_FACT:
            continue  # a sentence on another topic
        # The only value of its kind counts on weaker evidence, unless its label adds words the keypoint
        # lacks ("environmental investment" is not "planned investment").
        only = len(candidates) == 1
        sole = only and not set(_content_tokens(ctx, lang)) - set(kp_words) - set(words)
        if score >= CONTEXT_SAME_FACT or (sole and score > 0) or (same_party and (
                swapped or not words or score >= CONTEXT_SOLE_FACT or (only and len(ans.values) == 1))) or (
                swapped and distinct and _share(distinct, ctx, lang) > 0) or single:
            if score > best_score:
                best, best_score = a, score
    return best


def _under_other_label(a: Value, words: tuple[str, ...], others: list[_Sibling], scene: _Scene) -> bool:
    """Is answer value ``a`` said under another keypoint's label (one of its words, none of ours, in the words that
    lead up to it) for a quantity of the same kind ("medications were $1,988 and examinations $2,405": $2,405 is
    the examinations')?"""
    if not words or not others:
        return False
    ans = scene.answer
    start = _context_span(ans, a, ans.values)[0]
    ctx = scene.blank(ans.masked[start:a.span[0]])
    if _share(words, ctx, scene.language) > 0:
        return False
    return any(_share(tuple(w for w in s.words if w not in words), ctx, scene.language) > 0
               for s in others if any(_same_value(v, a) or _conflicts(v, a) for v in s.values))


def _parallel(a: Value, scene: _Scene, live: list[Value]) -> bool:
    """Does ``a``'s clause hold another value of its kind (a list of parties, each with its own value)?"""
    clause = _clause_of(scene.answer, a.span[0])
    return clause is not None and any(v is not a and v.kind == a.kind and clause.span[0] <= v.span[0] < clause.span[1]
                                      for v in live)


def _other_record(a: Value, kp_dates: list[Value], scene: _Scene, live: list[Value]) -> bool:
    """Is answer value ``a`` dated, in its sentence, differently from every date the keypoint gives?"""
    if not kp_dates:
        return False
    i = _sentence_index(scene.answer, a.span[0])
    here = [v for v in live if v.kind == "date" and v is not a and _sentence_index(scene.answer, v.span[0]) == i]
    return bool(here) and not any(_same_value(k, v) for k in kp_dates for v in here) and \
        any(_conflicts(k, v) for k in kp_dates for v in here)


def _judge_words(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[dict]) -> tuple[Label, str]:
    lang, ans = scene.language, scene.answer
    words = _kp_words(kt, scene)
    kp_cmp = _comparatives(kt.text, lang)
    if kp_cmp and kp_parties:
        verdict = _judge_comparison(kt, scene, kp_cmp[0], words)
        if verdict is not None:
            return verdict
        kinds = Counter(v.kind for v in ans.values if v.kind != "date")
        if not _comparatives(ans.text, lang) and not any(n >= 2 for n in kinds.values()):
            return "Irrelevant", "makes no comparison"  # a figure for one party does not say who had more
    # Two named parties in one sentence carry a relation ("X's physician was Y"); a lone party carries
    # little, the keypoint's words must.
    role = _role_binding(kt, scene, kp_parties, words)
    if role is not None:
        return role
    word_weight = sum(len(w) for w in words)
    related = _related_parties(kt, scene) >= 2
    unit = word_weight / len(words) if words else 4.0
    codes = set(_P_CODE_EN.findall(kt.text)) - {"USD", "CNY", "RMB", "CEO", "CFO", "COO"} if lang == "en" else set()
    best_cov, eligible = 0.0, []
    for si in range(len(ans.sentences)):
        clauses = [c for c in ans.clauses if c.sentence == si and not c.refusal]
        if not clauses:
            continue
        named = scene.named_in_sentence(si)
        if kp_parties and named and not named & set(kp_parties):
            continue  # a sentence about someone else
        text = " ".join(c.text for c in clauses)
        eligible.append(text)
        if codes and not all(re.search(rf"\b{code}\b", text) for code in codes):
            continue  # a ticker or code the keypoint names must be there as written
        if related and set(kp_parties) <= named:
            # Two named parties in one sentence carry a relation ("X's physician was Y").
            party_hit = party_total = sum(2 * (sum(len(w) for w in scene.entities[i].name.split()) if lang == "en"
                                               else len(scene.entities[i].name)) for i in kp_parties)
        else:  # otherwise the parties named weigh as one of the keypoint's words
            party_total = unit if kp_parties else 0.0
            party_hit = unit if named & set(kp_parties) else 0.0
        hit = _coverage(words, scene.blank(text), lang) * word_weight + party_hit
        cov = hit / (word_weight + party_total) if word_weight + party_total else 0.0
        if cov > best_cov:
            best_cov = cov
    surfaces = [f["text"] for f in facts if f.get("kind") in ("category", "text", "place") and f.get("text")]
    said = scene.blank(" ".join(eligible))
    if surfaces and all((s if lang == "zh" else s.lower()) in said for s in surfaces):
        best_cov = max(best_cov, COVERAGE_RELEVANT)  # a build fact's exact words, said of the right party
    value = _label_value(kt.text, lang)
    if value and not kp_parties and _coverage(_content_tokens(value, lang), said, lang) >= 0.99:
        best_cov = max(best_cov, COVERAGE_RELEVANT)  # "职业情况为厨师" is stated by "系厨师": the value is the point
    flagged = _substitution(scene, kp_parties, words) or _member_clash(scene, kp_parties) \
        or _polarity_clash(kt.text, words, scene, kp_parties) or _direction_clash(kt, scene) \
        or _filler_clash(kt, scene)
    if flagged:
        return "Wrong", flagged
    if best_cov >= COVERAGE_RELEVANT:
        return "Relevant", f"states it ({best_cov:.0%} of its content)"
    if _refused_here(scene, words, kp_parties):
        return "Irrelevant", "answer says this information is not available"
    return "Irrelevant", f"not addressed ({best_cov:.0%} of its content found)"


_P_LABEL_VALUE_ZH = re.compile(r"^([^，。；、\d]{2,10}?)(?:为|是|系)([^，。；]{2,30})[。.]?$")
_P_LABEL_VALUE_EN = re.compile(r"^(?:the|its|his|her|their)\s+([a-z][\w\s'-]{2,40}?)\s+(?:was|is|were|are)\s+([^,;]{2,80}?)\.?$",
                               re.I)


_P_NOT_A_FILLER = re.compile(r"(?:made|given|done|not|also|on|in|at|by|for|from|due|because|that|when|still|then|"
                             r"brought|held|taken|paid|sold|won|found|set|put|led|sent|spent|told|known|shown|"
                             r"[a-z]+ed|[a-z]+ing|[a-z]+en)\b|由|在|于|根据|基于|按照|经|因|未|不|也|还|已", re.I)  # not a noun phrase


def _filler_clash(kt: _Text, scene: _Scene) -> str | None:
    """A "LABEL is VALUE" keypoint whose label the answer fills with another value ("The drug was finasteride" /
    "The drug was tamsulosin", "收入最少的是住宅开发板块" / "收入最少的是商业物业租赁板块")."""
    lang, ans = scene.language, scene.answer
    pattern = _P_LABEL_VALUE_ZH if lang == "zh" else _P_LABEL_VALUE_EN
    m = pattern.match(kt.text.strip())
    if not m or _P_NOT_A_FILLER.match(m[2].strip()):
        return None
    label, value = _content_tokens(scene.blank(m[1]), lang), _content_tokens(scene.blank(m[2]), lang)
    said = scene.blank(" ".join(c.text for c in ans.clauses if not c.refusal))
    if not label or not value or _coverage(value, said, lang) >= 0.5:
        return None  # no label of its own, or the answer gives this value somewhere
    for c in ans.clauses:
        theirs = pattern.match(c.text.strip())
        if c.refusal or not theirs or _P_NOT_A_FILLER.match(theirs[2].strip()):
            continue
        other = _content_tokens(scene.blank(theirs[2]), lang)
        if other and _coverage(label, scene.blank(theirs[1]), lang) >= 0.99:
            return f"answer gives {theirs[2].strip()} where keypoint has {m[2].strip()}"
    return None


def _label_value(kp: str, language: str) -> str | None:
    """The value side of a "LABEL为VALUE" / "The LABEL was VALUE" keypoint, or None."""
    m = (_P_LABEL_VALUE_ZH if language == "zh" else _P_LABEL_VALUE_EN).match(kp.strip())
    return m[2] if m else None


def _role_binding(kt: _Text, scene: _Scene, kp_parties: list[int], words: tuple[str, ...]
                  ) -> tuple[Label, str] | None:
    """A role keypoint ("审判长为王红霞", "Tina Chavez was the clerk"): whom the answer names next to the role."""
    if len(kp_parties) != 1 or not words or not _is_role_keypoint(kt, scene, kp_parties[0]):
        return None
    lang, ans = scene.language, scene.answer
    target = kp_parties[0]
    for c in ans.clauses:
        if c.refusal or _coverage(words, scene.blank(c.text), lang) < COVERAGE_RELEVANT:
            continue
        spans = _word_spans(c.text, words, lang)
        inside = [m for m in scene.mentions if c.span[0] <= m[0] < c.span[1]
                  and not ans.text.startswith(("'s", "’s"), m[1])  # "the clerk at Bryan Robinson's trial": not his role
                  and not _other_title(ans.text[max(0, m[0] - 25):m[0]], kt.text)]  # "defendant Bryan Robinson"
        if not spans or not inside:
            continue
        p, q = c.span[0] + spans[0][0], c.span[0] + spans[-1][1]
        nearest = min(inside, key=lambda m: max(m[0] - q, p - m[1], 0))[2]
        if nearest == target:
            return "Relevant", f"names {scene.entities[target].name} in that role"
        if scene.entities[nearest].org == scene.entities[target].org:
            return "Wrong", f"answer names {scene.entities[nearest].name} where keypoint names {scene.entities[target].name}"
    return None


_P_COPULA = re.compile(r"^\s*(?:(?:was|is|were|are)(?:\s+the)?|为|是|系|担任)\s*", re.I)


_ROLE_TITLES = (r"prosecutor|presiding judge|judge|clerk|(?:people's )?assessor|attending physician|doctor|dr\.?|"
                r"defen[cs]e (?:counsel|lawyer)|审判长|审判员|人民陪审员|书记员|检察员|检察官|公诉人|主治医师|辩护人")


_P_TITLE_BEFORE = re.compile(rf"(?:{_ROLE_TITLES}|defendant|victim|witness|patient|被告人|被害人|证人|患者|原告)\s*$", re.I)


def _other_title(before: str, keypoint: str) -> str | None:
    """The title written just before a name, when the keypoint does not use it: that person holds another role."""
    m = _P_TITLE_BEFORE.search(before)
    return m[0] if m and m[0].strip().lower() not in keypoint.lower() else None


def _is_role_keypoint(kt: _Text, scene: _Scene, target: int) -> bool:
    """Is the keypoint "ROLE is PARTY" or "PARTY is the ROLE", a role only one party holds?"""
    ms = [m for m in scene.mentions_in(kt.text) if m[2] == target]
    if not ms:
        return False
    a, b, _ = ms[0]
    before, after = kt.text[:a], kt.text[b:]
    if re.search(r"(?:was|is|were|are|为|是|系)\s*(?:doctor|dr\.?|judge|prosecutor)?\s*$", before, re.I) \
            and not after.strip(" .。"):
        return True  # "The attending physician was Doctor X", "审判长为X"
    if re.fullmatch(rf"\s*(?:the\s+)?(?:{_ROLE_TITLES})\s*", before, re.I):
        return True  # "Prosecutor Yvonne Green appeared in court", "检察员柳璐出庭"
    return bool(not before.strip() and _P_COPULA.match(after) and
                (scene.language == "zh" or re.match(r"^\s*(?:was|is)\s+the\b", after, re.I)))


def _word_spans(text: str, words: tuple[str, ...], language: str) -> list[tuple[int, int]]:
    """Where the keypoint's words occur in ``text`` (zh by substring, en by stem), in order."""
    spans = []
    if language == "zh":
        for w in words:
            pos = text.find(w)
            if pos >= 0:
                spans.append((pos, pos + len(w)))
    else:
        stems = set(words)
        for m in _P_WORD_EN.finditer(text.lower()):
            if _stem(m[0]) in stems:
                spans.append(m.span())
    return sorted(spans)


_P_LIST_GAP = re.compile(r"\s*(?:、|，|,|和|与|及|&|and)\s*")


def _related_parties(kt: _Text, scene: _Scene) -> int:
    """How many separate parties the keypoint relates; a list (翁秀芳、徐建华; A and B) counts as one."""
    ms = scene.mentions_in(kt.text)
    groups = 0
    for n, (a, _, _) in enumerate(ms):
        if n == 0 or not _P_LIST_GAP.fullmatch(kt.text[ms[n - 1][1]:a]):
            groups += 1
    return groups


_P_POLAR_ZH = re.compile("|".join(w for pair in _OPPOSITES_ZH for w in pair) + r"|无|没有|未|男|女")
_P_POLAR_EN = re.compile(r"\b(?:" + "|".join(w for pair in _OPPOSITES_EN for w in pair) +
                         r"|no|not|never|without|non|male|female|man|woman)\b", re.I)


def _polarity_clash(kp: str, words: tuple[str, ...], scene: _Scene, kp_parties: list[int]) -> str | None:
    """An answer sentence on the keypoint's topic (its party or another of its words) using the opposite polar word."""
    ans, lang = scene.answer, scene.language
    if not _P_POLAR_ZH.search(kp) if lang == "zh" else not _P_POLAR_EN.search(kp):
        return None  # no polar, negated or sexed word to contradict
    polar = {w for pair in (_OPPOSITES_ZH if lang == "zh" else _OPPOSITES_EN) for w in pair}
    topic = tuple(w for w in words if not any(p in w or w in p for p in polar)) if lang == "zh" else \
        tuple(w for w in words if w not in {_stem(p) for p in polar})
    for si in range(len(ans.sentences)):
        text = " ".join(c.text for c in ans.clauses if c.sentence == si and not c.refusal)
        clash = text and (_opposite_word(kp, text, lang) or _negation_flip(kp, text, lang) or _sex_clash(kp, text, lang))
        if not clash:
            continue
        named = scene.named_in_sentence(si)
        if kp_parties and named and not named & set(kp_parties):
            continue
        rest = tuple(w for w in topic if w not in clash.lower()) if lang == "en" else tuple(w for w in topic if w not in clash)
        if not rest or _share(rest, scene.blank(text), lang) > 0 or named & set(kp_parties):
            return clash
    return None


_GENERIC_COMPARATIVES = {"more", "less", "fewer", "多", "少"}


def _judge_comparison(kt: _Text, scene: _Scene, kp_cmp: tuple[int, int, str], words: tuple[str, ...]
                      ) -> tuple[Label, str] | None:
    """Whom the answer says is more/less/earlier: the keypoint's party or another; None when it does not say."""
    lang, ans = scene.language, scene.answer
    _, sign, kp_word = kp_cmp
    first = next(iter(scene.mentions_in(kt.text)), None)
    if first is None:
        return None
    subject = first[2]
    dims = tuple(w for w in words if not _comparatives(w, lang))
    votes = []
    for si, (sa, sb) in enumerate(ans.sentences):
        clauses = [c for c in ans.clauses if c.sentence == si]
        if all(c.refusal for c in clauses):
            continue
        sent = ans.text[sa:sb]
        overlap = _coverage(dims, scene.blank(sent), lang) if dims else 1.0
        for pos, a_sign, word in _comparatives(sent, lang):
            who = _comparison_subject(scene, sa + pos, si, subject)
            if who is None:
                continue
            if overlap == 0 and who >= scene.from_keypoints and (word != kp_word or word in _GENERIC_COMPARATIVES
                                                                or lang == "zh"):
                continue  # a comparison of something else, by a party no keypoint names
            votes.append((overlap, -len(votes), who, a_sign))
    if not votes:
        return None
    overlap, _, who, a_sign = max(votes)
    name, mine = scene.entities[who].name, scene.entities[subject].name
    if (who == subject) == (a_sign == sign):
        if who != subject and overlap == 0 and dims:
            return None  # "the other one was higher" only helps on the same measure
        return "Relevant", f"names {mine} the same way round"
    if who == subject:
        return "Wrong", f"answer reverses the comparison for {name}"
    return "Wrong", f"answer names {name} where keypoint names {mine}"


def _comparison_subject(scene: _Scene, pos: int, si: int, subject: int) -> int | None:
    """The party a comparative word at ``pos`` is said of: one named before it in its own clause, else the
    sentence's first party, else the first named after it."""
    ans = scene.answer
    sa, sb = ans.sentences[si]
    clause = _clause_of(ans, pos)
    start = clause.span[0] if clause else sa
    own = [m for m in scene.mentions if start <= m[0] < pos]
    if own:
        return subject if any(m[2] == subject for m in own) else own[-1][2]
    before = [m for m in scene.mentions if sa <= m[0] < pos]
    if before:
        return before[0][2]
    after = [m for m in scene.mentions if pos <= m[0] < sb]
    return after[0][2] if after else None


def _substitution(scene: _Scene, kp_parties: list[int], words: tuple[str, ...]) -> str | None:
    """A clause on the keypoint's topic that keeps one of its parties but names someone else in the other's
    place ("Eddie White was defended by Sheri Reid"), or names a same-kind organisation in place of its one
    organisation (上海证券交易所 for 深圳证券交易所)."""
    ans, lang = scene.answer, scene.language
    together = [{i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]} for c in ans.clauses if not c.refusal]
    if any(set(kp_parties) <= named for named in together):
        return None  # the answer states the keypoint's own pairing somewhere
    for c in ans.clauses:
        if c.refusal:
            continue
        named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
        absent = [i for i in kp_parties if i not in named]
        if not absent or not named - set(kp_parties):
            continue
        topic = _coverage(words, scene.blank(c.text), lang) if words else 1.0
        for i in absent:
            for j in named - set(kp_parties):
                same_kind = scene.entities[j].org == scene.entities[i].org
                if same_kind and named & set(kp_parties) and topic >= 0.5:
                    return f"answer names {scene.entities[j].name} where keypoint names {scene.entities[i].name}"
                others_here = set(kp_parties) - {i} <= named
                if same_kind and scene.entities[i].org and others_here and not scene.mentioned(i) and topic > 0 \
                        and _org_kind(scene.entities[i]) == _org_kind(scene.entities[j]) is not None:
                    return f"answer names {scene.entities[j].name} where keypoint names {scene.entities[i].name}"
    return None


def _member_clash(scene: _Scene, kp_parties: list[int]) -> str | None:
    """A person the keypoint places in a firm, court or hospital, whom the answer names next to another one of
    that kind ("Becky Rivera of Redfern & Brown Law Firm" where the keypoint has Sterling & Rogers Law Firm)."""
    people = [i for i in kp_parties if not scene.entities[i].org]
    places = [i for i in kp_parties if scene.entities[i].org and _org_kind(scene.entities[i])]
    if len(people) != 1 or len(places) != 1:
        return None
    person, place = people[0], places[0]
    kind = _org_kind(scene.entities[place])
    ans = scene.answer
    for a, b, i in scene.mentions:
        if i != person or (_clause_of(ans, a) or _NO_CLAUSE).refusal:
            continue
        si = _sentence_index(ans, a)
        near = [(max(p - b, a - q, 0), j) for p, q, j in scene.mentions
                if j != person and scene.entities[j].org and _org_kind(scene.entities[j]) == kind
                and _sentence_index(ans, p) == si]
        if near:
            j = min(near)[1]
            if j != place:
                names = scene.entities[person].name, scene.entities[j].name, scene.entities[place].name
                return "answer places {} at {}, not {}".format(*names)
    return None


_ORG_KINDS = ("证券交易所", "律师事务所", "会计师事务所", "人民法院", "人民检察院", "医院", "stock exchange", "law firm",
              "court", "procuratorate", "hospital", "medical center", "accounting firm")


def _org_kind(ent: _Entity) -> str | None:
    """The kind an organisation's name ends with (law firm, court, exchange ...), when it says one."""
    low = ent.name.lower().rstrip("）)").split("（")[0]
    return next((kind for kind in _ORG_KINDS if low.endswith(kind) or f"{kind} of" in low), None)


def _direction_clash(kt: _Text, scene: _Scene) -> str | None:
    """A clause of the answer on a keypoint clause's topic that moves the other way (增加 for 减少)."""
    lang, ans = scene.language, scene.answer
    for kc in kt.clauses:
        mine = _direction(kc.text, lang)
        if not mine:
            continue
        topic = tuple(w for w in _kp_words(kt, scene, kc.span) if not _direction(w, lang))
        if not topic:
            continue
        for c in ans.clauses:
            theirs = _direction(c.text, lang)
            if not c.refusal and theirs == -mine and _share(topic, scene.blank(c.text), lang) >= 0.5:
                return (f"reversed direction: answer says it {'rose' if theirs > 0 else 'fell'} "
                        f"where keypoint says it {'rose' if mine > 0 else 'fell'}")
    return None


_P_SEX_ZH = re.compile(r"(?:^|(?<=[，,：:为是\s（(、]))(男|女)(?:性)?(?=[，,。；;、\s)）]|$)")
_P_SEX_EN = re.compile(r"\b(male|female|man|woman)\b", re.I)


def _sex_clash(kp: str, text: str, language: str) -> str | None:
    """The keypoint says male and the answer female, or the reverse."""
    pattern = _P_SEX_ZH if language == "zh" else _P_SEX_EN
    norm = {"男": "M", "女": "F", "male": "M", "man": "M", "female": "F", "woman": "F"}
    mine = {norm[m[1].lower()] for m in pattern.finditer(kp)}
    theirs = {norm[m[1].lower()] for m in pattern.finditer(text)}
    if len(mine) == 1 and len(theirs) == 1 and mine != theirs:
        said, kept = ("女" if "F" in theirs else "男"), ("男" if "M" in mine else "女")
        if language == "en":
            said, kept = ("female" if "F" in theirs else "male"), ("male" if "M" in mine else "female")
        return f"answer says {said} where keypoint says {kept}"
    return None


_P_NEG_EN = re.compile(r"\b(?:no|not|never|without|non)\s+(?:a\s+|any\s+)?([a-z]+)")


def _negation_flip(kp: str, text: str, language: str) -> str | None:
    """The keypoint negates a word (无X / no X) that the answer asserts (有X / X)."""
    if language == "zh":
        for m in re.finditer(r"(?:无|没有|未)([\u4e00-\u9fff]{2})", kp):
            word = m[1]
            if ("有" + word) in text and not re.search(rf"(?:无|没有|未){word}", text):
                return f"answer says 有{word} where keypoint says {m[0]}"
        return None
    low = text.lower()
    for m in _P_NEG_EN.finditer(kp.lower()):
        word = m[1]
        if word in _STOP_EN:
            continue
        if re.search(rf"\b{word}\b", low) and not re.search(
                rf"\b(?:no|not|never|without|non)\s+(?:a\s+|any\s+)?(?:\w+\s+)?{word}\b", low):
            return f"answer states {word} where keypoint says {m[0]}"
    return None
