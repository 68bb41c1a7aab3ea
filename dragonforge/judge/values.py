"""Values: finding and normalising the dates, amounts, percentages, durations, counts and numbers a text states.

Each value gets a canonical form that is the same across English and Chinese conventions (``2019-03-05``
for 2019年3月5日 and March 5, 2019; 3.5 years as 42 months; ¥1.2亿 as 120,000,000 CNY), so a keypoint's value
and an answer's can be compared whatever their wording. ``_same_value`` and ``_conflicts`` decide whether two
values of one kind agree, allowing for the rounding the less precise one shows."""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

ValueKind = Literal["date", "money", "percent", "count", "duration", "number", "name"]


@dataclass(frozen=True, slots=True)
class Value:
    """One value found in a text: canonical ``value`` (float, or str for dates, ranges, names)."""

    kind: ValueKind
    value: float | str
    text: str
    span: tuple[int, int]
    unit: str | None = None  # currency (CNY/USD), duration base (months/days/hours), count unit
    step: float = 0.0  # half the last written digit's place value: the rounding a match allows

# --- numbers -------------------------------------------------------------------------------------

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?"
_CN_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6,
              "七": 7, "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}
# financial capitals (壹贰叁 … 拾佰仟) are the same numerals, written so they cannot be altered
_CN_NUM = r"[零〇○一二两三四五六七八九十百千万亿壹贰叁肆伍陆柒捌玖拾佰仟]+(?:点[零〇○一二三四五六七八九]+)?"
_EN_WORDS = {w: i for i, w in enumerate(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen".split())}
_EN_WORDS.update({w: 10 * i for i, w in enumerate("twenty thirty forty fifty sixty seventy eighty ninety".split(), 2)})
_EN_NUMWORD = (r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|"
               r"seven|eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|"
               r"fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)")
_SCALES = {"thousand": 1e3, "k": 1e3, "million": 1e6, "mn": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
           "trillion": 1e12, "千": 1e3, "万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8, "十亿": 1e9,
           "百亿": 1e10, "万亿": 1e12}


def _arabic(s: str) -> tuple[float, float]:
    """(value, half-step) of an Arabic numeral with optional thousands commas."""
    s = s.replace(",", "")
    decimals = len(s.split(".")[1]) if "." in s else 0
    return float(s), 0.5 * 10 ** -decimals


@lru_cache(maxsize=8192)
def cn_to_number(s: str) -> float:
    """Chinese numeral to number: 一百二十 → 120, 两 → 2, 三千五百万 → 35000000, 十二点五 → 12.5,
    贰亿贰仟壹佰万 → 221000000 (by cn2an; a digit-by-digit year such as 二〇一九 by the table below)."""
    if not (s and all(c in _CN_DIGITS for c in s) and len(s) > 1):
        try:
            return float(_cn2an().cn2an(s, "smart"))
        except (ValueError, KeyError, TypeError):
            pass  # not a numeral cn2an reads: the table below
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


_cn2an_module: Any = None


def _cn2an() -> Any:
    """cn2an, imported on first use (a third of a second): a run with no Chinese numeral never loads it."""
    global _cn2an_module
    if _cn2an_module is None:
        import cn2an

        _cn2an_module = cn2an
    return _cn2an_module


def _en_word_number(s: str) -> float:
    parts = re.split(r"[- ]", s.lower())
    return float(sum(_EN_WORDS[p] for p in parts))


_P_EN_NUMBER_WORD = re.compile(r"\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
                               r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
                               r"eighty|ninety|hundred)\b", re.I)
_P_SCALE_DIGITS = re.compile(r"(\d(?:[\d,.]*\d)?) (1000000000|1000000|1000)(?![\d,.]*\d)")
_SCALE_WORDS = {"1000": "thousand", "1000000": "million", "1000000000": "billion"}


@lru_cache(maxsize=32768)
def en_number_words(text: str) -> str:
    """English numbers written in words as digits ("seventy-nine point four three million" = "79.43 million",
    "twenty-three" = "23"), by text2num; small lone numbers ("one of the two") stay words."""
    if not _P_EN_NUMBER_WORD.search(text):
        return text
    from text_to_num import alpha2digit

    out = alpha2digit(text, "en")
    return _P_SCALE_DIGITS.sub(lambda m: f"{m[1]} {_SCALE_WORDS[m[2]]}", out) if out != text else text


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

# 四成 (four tenths), 四成半; not 一成不变, 成立, 成为, 九成新
_P_TENTHS_ZH = re.compile(r"(?:(?<=[占约近足到过逾于达为是仅有了，,：:\s])|^)([一二两三四五六七八九])成(半)?"
                          r"(?![不立为功本员交果绩熟新型分品都长器年])")
_EN_FRACTIONS = {"a-half": 50.0, "one-half": 50.0, "half": 50.0, "a-third": 100 / 3, "one-third": 100 / 3,
                 "two-thirds": 200 / 3, "a-quarter": 25.0, "one-quarter": 25.0, "three-quarters": 75.0,
                 "a-fifth": 20.0, "one-fifth": 20.0, "a-tenth": 10.0, "one-tenth": 10.0}
# an English fraction said as a bound of a share ("less than a quarter of", "more than half of")
_P_FRACTION_BOUND_EN = re.compile(r"\b(?:less|fewer|more|greater|lower|higher) than\s+(a half|one half|half|a third|one third|"
                                  r"two[- ]thirds|a quarter|one quarter|three[- ]quarters|a fifth|one fifth|a tenth|"
                                  r"one tenth)(?=\s+of\b)", re.I)

_CUR_PRE = r"(?P<pre>US\$|USD|RMB|CNY|HK\$|\$|¥|￥|人民币)"
_CUR_POST = r"(?P<post>US dollars?|U\.S\. dollars?|dollars?|USD|yuan|RMB|CNY|美元|港元|人民币元|元)"
_SCALE_EN = r"(?P<scale>thousand|million|billion|trillion|bn|mn|[mbk])"  # $92.77M, $1.2B, $350K
_SCALE_ZH = r"(?P<zscale>万亿|千万|百万|十万|十亿|百亿|万|亿|千)"
_P_MONEY = re.compile(
    rf"(?:{_CUR_PRE}\s?)?(?<![\d.])(?P<num>{_NUM}|{_CN_NUM})\s?(?:{_SCALE_EN}\b|{_SCALE_ZH})?\s?{_CUR_POST}?", re.I)

# one duration base in another, to tell a different length (2 days for 25 hours, 2 years for 2 days); a month is
# taken as its mean length, so only a difference of more than a tenth counts
_DURATION_SCALES = {("days", "hours"): 24.0, ("hours", "days"): 1 / 24, ("hours", "minutes"): 60.0,
                    ("minutes", "hours"): 1 / 60, ("months", "days"): 30.44, ("days", "months"): 1 / 30.44,
                    ("months", "hours"): 730.5, ("hours", "months"): 1 / 730.5, ("days", "minutes"): 1440.0,
                    ("minutes", "days"): 1 / 1440}
_DUR_UNITS_EN = {"year": ("months", 12), "month": ("months", 1), "week": ("days", 7), "day": ("days", 1),
                 "hour": ("hours", 1), "minute": ("minutes", 1), "yr": ("months", 12), "mo": ("months", 1),
                 "wk": ("days", 7), "hr": ("hours", 1), "min": ("minutes", 1)}
_DUR_UNITS_ZH = {"年": ("months", 12), "个月": ("months", 1), "個月": ("months", 1), "个星期": ("days", 7),
                 "周": ("days", 7), "星期": ("days", 7), "天": ("days", 1), "日": ("days", 1),
                 "小时": ("hours", 1), "个小时": ("hours", 1), "個小時": ("hours", 1), "分钟": ("minutes", 1)}
_EXACT_SCALES = {("days", "hours"), ("hours", "days"), ("hours", "minutes"), ("minutes", "hours"), ("days", "minutes"),
                 ("minutes", "days")}  # (a month is no whole number of days)
_EN_AMOUNT = rf"(?:{_NUM}|{_EN_NUMWORD}|an?)"
_P_DUR_EN = re.compile(
    rf"(?<![\d.])\b({_EN_AMOUNT})(\s+and\s+a\s+half)?[\s-]+(?:(years?|yrs?)(?:['’]s?)?(?:,?\s+(?:and\s+)?({_EN_AMOUNT})[\s-]+(months?)(?:['’]s?)?)?"
    rf"|(weeks?|wks?)(?:['’]s?)?(?:,?\s+(?:and\s+)?({_EN_AMOUNT})[\s-]+(days?)(?:['’]s?)?)?"
    rf"|(?:(?!(?:and|or|to|of|than|per|a|an|the|each|every)\b)[a-z]{{3,12}}\s+(?=(?:days|hours|minutes)\b))?"  # "36 training hours"
    rf"(months?|mos?|days?|hours?|hrs?|minutes?|mins?)(?:['’]s?)?)(\s+and\s+a\s+half)?\b", re.I)
_ZH_AMOUNT = rf"(?:\d+(?:\.\d+)?|{_CN_NUM})"
_P_DUR_ZH = re.compile(
    rf"(?<![\d.第上下每同本当前近去今明零〇一二两三四五六七八九十百])({_ZH_AMOUNT})\s*(年(?![度底末初中])|个月|個月|个星期|星期|周(?!岁)|天|日|个小时|個小時|小时|分钟)"
    rf"(?:零?({_ZH_AMOUNT})\s*(个月|個月|天)|(半))?(?![\d月])")
_P_HALF_YEAR_ZH = re.compile(r"(?<![\u4e00-\u9fff])半年|(?<=[为刑期判处了])半年")
_P_AGE = re.compile(
    rf"(?:\baged?\s+({_NUM}|{_EN_NUMWORD})(?:\s+years?(?:\s+old)?)?\b|(?<![\d.])\b({_NUM}|{_EN_NUMWORD})[\s-]+years?[\s-]+old\b"
    rf"|(?<![\d.])({_ZH_AMOUNT})\s*(?:周岁|岁))", re.I)
_UNIT_ALIASES = {"beats per minute": "bpm", "bpm": "bpm", "次/分": "bpm", "次/分钟": "bpm", "°c": "c", "℃": "c",
                 "度": "c", "摄氏度": "c", "degrees celsius": "c", "°f": "f", "℉": "f", "华氏度": "f",
                 "degrees fahrenheit": "f", "µg": "ug", "μg": "ug", "mcg": "ug", "lbs": "lb",
                 # Chinese names of the metric units (500毫克 is 0.5 g)
                 "毫克": "mg", "微克": "ug", "千克": "kg", "公斤": "kg", "克": "g", "毫升": "ml",
                 # people counted by another word are still people (445 employees, 683名)
                 "people": "people", "persons": "people", "employees": "people", "staff": "people",
                 "名": "人", "位": "人",
                 # an electrolyte's milliequivalents are its millimoles (K⁺, Na⁺, Cl⁻, HCO₃⁻ are monovalent)
                 "meq/l": "mmol/l", "µiu/ml": "miu/l", "uiu/ml": "miu/l"}
# the measurement units pint converts between (a temperature, a mass, a dose by weight, a volume, a length)
_LAB_UNITS = {"mmhg", "g/l", "mg/l", "mmol/l", "µmol/l", "umol/l", "u/l", "bpm", "miu/l", "miu/ml", "µiu/ml", "uiu/ml",
              "iu/l", "ng/ml", "pg/ml", "ng/l", "ug/l"}  # (readings pint does not convert)
_PINT_UNITS = {"c": "degC", "f": "degF", "ug": "microgram", "mg": "milligram", "g": "gram", "kg": "kilogram",
               "lb": "pound", "ml": "milliliter", "l": "liter", "mm": "millimeter", "cm": "centimeter",
               "mg/kg": "milligram / kilogram", "g/kg": "gram / kilogram", "ug/kg": "microgram / kilogram",
               "g/l": "gram / liter", "g/dl": "gram / deciliter", "mg/l": "milligram / liter",
               "mg/dl": "milligram / deciliter"}
_P_PAIR = re.compile(r"(?<![\d.])(\d+(?:\.\d+)?)\s*(/|-|–|~|～|至|到)\s*(\d+(?:\.\d+)?)\s*"
                     r"([×xX]\s*10\s*(?:\^\s*)?(?:9|⁹|12|¹²)\s*/\s*L|G/L|T/L|mIU/L|mIU/mL|[µμu]IU/mL|IU/L|ng/mL|pg/mL|ng/L|[µμ]g/L|mEq/L|mmHg|g/L|mg/L|mmol/L|μmol/L|umol/L|U/L|mg|g|"
                     r"kg|mL|ml|L|cm|mm|°C|℃|%)?(?![\d/])")
_P_COUNT = re.compile(
    rf"(?<![\d.A-Za-z第])({_NUM}|{_CN_NUM})\s*([×xX]\s*10\s*(?:\^\s*)?(?:9|⁹|12|¹²)\s*/\s*L|G/L|T/L|beats per minute|bpm|次/分钟|次/分|mIU/L|mIU/mL|[µμu]IU/mL|IU/L|ng/mL|"
    rf"pg/mL|ng/L|[µμ]g/L|mEq/L|mmHg|g/L|mg/L|mmol/L|μmol/L|umol/L|U/L|"
    rf"°C|℃|°F|℉|摄氏度|华氏度|degrees Celsius|degrees Fahrenheit|µg/kg|μg/kg|mg/kg|g/kg|g/dL|mg/dL|µg|μg|mcg|mg|kg|lbs|lb|g|"
    rf"毫克|微克|千克|公斤|毫升|克(?![罗服隆林拉里])|"
    rf"mL|ml|cm|mm|IU|单位|名|位|人|项|次|家|例|件|份|台|床|张|个|employees|people|persons|staff|patients|"
    rf"times|units|beds|cases|shares)(?![A-Za-z])")
_P_NUMBER = re.compile(rf"(?<![\d.A-Za-z])({_NUM})(?:\s?(thousand|million|billion|trillion|bn|mn)\b|({_SCALE_ZH}))?"
                       rf"(?![\d])", re.I)  # a bare letter (5 m) scales only money


def _cell_unit(raw: str | None) -> str | None:
    """A blood count's unit: ×10⁹/L = x10^9/L = G/L (and ×10¹²/L = T/L), one unit however written."""
    if not raw:
        return None
    if raw == "G/L" or re.fullmatch(r"[×xX]\s*10\s*(?:\^\s*)?(?:9|⁹)\s*/\s*L", raw):
        return "10^9/l"
    if raw == "T/L" or re.fullmatch(r"[×xX]\s*10\s*(?:\^\s*)?(?:12|¹²)\s*/\s*L", raw):
        return "10^12/l"
    return None


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
        while b > a and self.text[b - 1].isspace():
            b -= 1  # (a pattern's optional unit may end in the space it tried: "USD 87,120,000\n- B" keeps its line break)
        if value is None or not self.free(a, b):
            return
        self.taken[a:b] = b"\x01" * (b - a)
        self.values.append(Value(kind, value, self.text[a:b], (a, b), unit, step))


_P_HAS_DATE_ZH = re.compile(r"[年月]")
_P_HAS_MONTH_EN = re.compile(_MONTH_RE, re.I)
_P_HAS_DURATION = re.compile(r"year|yr|month|mo|week|wk|day|hour|hr|min|aged|old|[年月周天日时钟岁]", re.I)


def _find_dates(f: _Finder) -> None:
    t = f.text
    if _P_DATE_ISO.search(t):
        for m in _P_DATE_ISO.finditer(t):
            f.add("date", _date_value(int(m[1]), int(m[3]), int(m[4])), *m.span())
    if _P_HAS_DATE_ZH.search(t):
        _find_dates_zh(f)
    if "/" in t or "." in t:
        _find_dates_numeric(f)
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


_P_DATE_NUMERIC = re.compile(r"(?<![\d/.])(\d{1,2})([/.])(\d{1,2})\2(\d{4})(?![\d/])")


def _find_dates_numeric(f: _Finder) -> None:
    found = list(_P_DATE_NUMERIC.finditer(f.text))
    # 22/08/2022 can only be day first, 08/22/2022 only month first; 03/05/2019 is read the way the text's other
    # dates are written (one day-first date makes the text day-first), else the American way (dotted dates,
    # 05.03.2019, the European way)
    day_first = any(int(m[1]) > 12 for m in found) and not any(int(m[3]) > 12 for m in found)
    for m in found:
        first, second = int(m[1]), int(m[3])
        day, month = (first, second) if first > 12 or (second <= 12 and (m[2] == "." or day_first)) \
            else (second, first)
        f.add("date", _date_value(int(m[4]), month, day), *m.span())


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
    for m in _P_TENTHS_ZH.finditer(f.text):  # 四成 is 40%, 四成半 45%: to the nearest ten (or five)
        tenths = _CN_DIGITS[m[1]] + (0.5 if m[2] else 0)
        f.add("percent", tenths * 10, *m.span(), unit="%", step=2.5 if m[2] else 5.0)
    for m in _P_FRACTION_BOUND_EN.finditer(f.text):  # "less than a quarter of": a bound, never a value as such
        f.add("percent", _EN_FRACTIONS[m[1].lower().replace(" ", "-")], *m.span(1), unit="%", step=0.0)


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
        if m[2] == "日" and not m[1].isdigit() and (m[1] == "一" or f.text[max(m.start() - 1, 0):m.start()] in "月每"):
            continue  # 一日/每日 are not durations, nor 五月十日 (a date); 十日内 / 上诉期限为十日 is
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


# a time of day: "19时40分许", "晚上7点40分左右", "晚九时四十分", "10:50 pm", "22:50"; read as minutes after midnight
_ZH_HOUR = r"(\d{1,2}|[零〇一二两三四五六七八九十]{1,3})"
_P_TIME_ZH = re.compile(rf"(凌晨|早上|早晨|上午|中午|下午|傍晚|晚上|夜间|夜里|深夜|晚)?{_ZH_HOUR}\s*[时点]"
                        rf"(?:\s*{_ZH_HOUR}\s*分|(半))?(许|左右)?")
_P_TIME_EN = re.compile(r"(?<![\d:.])(\d{1,2})(?::(\d{2}))?\s*([ap])\.?\s?m\b\.?|(?<![\d:.])([01]?\d|2[0-3]):([0-5]\d)(?![\d:])",
                        re.I)
_AFTERNOON_ZH = ("下午", "傍晚", "晚上", "夜间", "夜里", "深夜", "晚")


def _find_times(f: _Finder, language: str) -> None:
    t = f.text
    if language == "zh":
        if "时" not in t and "点" not in t:
            return
        for m in _P_TIME_ZH.finditer(t):
            if not (m[1] or m[3] or m[4] or m[5]):
                continue  # a bare "7点" or "19时" may be anything; a time says its minutes, its part of day or 许
            hour = int(m[2]) if m[2].isdigit() else int(cn_to_number(m[2]))
            minute = 30 if m[4] else (int(m[3]) if m[3] and m[3].isdigit() else int(cn_to_number(m[3])) if m[3] else 0)
            if m[1] in _AFTERNOON_ZH and hour < 12 or m[1] == "中午" and hour < 11:
                hour += 12
            if hour <= 24 and minute < 60:
                f.add("count", float(hour % 24 * 60 + minute), *m.span(), unit="time of day", step=0.5)
        return
    if ":" not in t and "m" not in t.lower():
        return
    for m in _P_TIME_EN.finditer(t):
        if m[3]:
            hour, minute = int(m[1]) % 12 + (12 if m[3].lower() == "p" else 0), int(m[2] or 0)
        else:
            hour, minute = int(m[4]), int(m[5])
        if hour < 24 and minute < 60:
            f.add("count", float(hour * 60 + minute), *m.span(), unit="time of day", step=0.5)


# a number of things named by a plural noun ("7 directors", "3 shareholders' meetings"): a count of that noun, so
# it is no reading of "7 times"; two such counts of different nouns still compare as plain numbers
NOUN_UNIT = "n:"
_P_NOUN_COUNT_EN = re.compile(r"(?<![\d.,A-Za-z$£€¥])(\d{1,3}(?:,\d{3})+|\d+)\s+([A-Za-z]+s'?)(?:\s+([A-Za-z]+s)\b)?")
_NOT_COUNTED_EN = {"years", "months", "weeks", "days", "hours", "minutes", "seconds", "times", "percent", "dollars",
                   "yuan", "cents", "points", "units", "shares", "cases", "beds", "patients", "people", "persons",
                   "employees", "staff", "this", "less", "plus", "thus", "does", "goes", "gets", "makes", "takes",
                   "whereas", "across", "versus", "basis", "series", "tons", "miles", "degrees"}
_UNIT_ALIASES_PEOPLE = {"worker": "people", "member": "people", "individual": "people", "personnel": "people",
                        "employee": "people"}


def _find_counts(f: _Finder) -> None:
    for m in _P_PAIR.finditer(f.text):
        if not m[4] and m[2] != "/":
            continue  # a bare "3-5" is too ambiguous
        unit = _cell_unit(m[4]) or (m[4] or "").lower().replace("μ", "µ") or None
        f.add("count", f"{float(m[1]):g}/{float(m[3]):g}" if m[2] == "/" else f"{float(m[1]):g}-{float(m[3]):g}",
              *m.span(), unit=_UNIT_ALIASES.get(unit or "", unit.replace("µ", "u") if unit else None))
    for m in _P_COUNT.finditer(f.text):
        if not re.fullmatch(_NUM, m[1]) and m[2] not in ("名", "位", "人", "项", "次", "家", "例", "件", "份", "台", "床",
                                                          "张", "个", "单位", "摄氏度", "华氏度"):
            continue
        v, step = _number(m[1])
        unit = _cell_unit(m[2]) or m[2].lower().replace("μ", "µ")
        f.add("count", v, *m.span(), unit=_UNIT_ALIASES.get(unit, unit.replace("µ", "u")), step=step)
    if f.text.isascii() or re.search(r"[A-Za-z]{3}", f.text):
        for m in _P_NOUN_COUNT_EN.finditer(f.text):
            head = (m[3] if m[2].endswith("'") and m[3] else m[2]).rstrip("'")
            if not head.islower() or head in _NOT_COUNTED_EN or len(head) < 4:
                continue  # (a capital starts a name: "265 Walters Dam")
            noun = head[:-1] if not head.endswith("ss") else head
            v, step = _number(m[1])
            f.add("count", v, *m.span(1),  # (the noun stays a word of the text: it says what is counted)
                  unit=_UNIT_ALIASES_PEOPLE.get(noun) or _UNIT_ALIASES.get(head, NOUN_UNIT + noun), step=step)


# a number that names a kind rather than counts (type 2 diabetes, 2型糖尿病, stage 3, grade II): compared
# only with a number of the same label, never with an age or an amount
_P_LABEL_BEFORE = re.compile(r"\b(type|grade|stage|class|phase|level|day|week|cycle|round|no\.?)\s*$", re.I)
_P_LABEL_AFTER = re.compile(r"^\s*(型|级|期|类)")


# a dosing frequency as times a day: 每12小时1次 = every 12 hours = twice daily = 2; 每晚1次 = once nightly = 1
_P_FREQ_ZH = re.compile(rf"(?:每\s*隔?|一)\s*(?:(\d+|{_CN_NUM})\s*(?:个)?小时|(日|天|晚|早|晨|夜))\s*(\d+|{_CN_NUM})?\s*次")
_P_FREQ_EN = re.compile(r"\bevery\s+(\d+)\s+hours?\b|\b(once|twice|three times|four times|(\d+) times)\s+"
                        r"(?:daily|a day|per day|nightly|at night|at bedtime|every (?:night|morning|evening))\b", re.I)
_TIMES = {"once": 1, "twice": 2, "three times": 3, "four times": 4}
# "before each of the 3 main meals", 三餐前: as many times a day as meals
_P_FREQ_MEALS = re.compile(r"\b(?:before|after|with)\s+(?:each\s+of\s+)?(?:the\s+|her\s+|his\s+)?(\d)\s+(?:main\s+)?meals\b"
                           r"|([一二三1-3])餐(?:前|后|时)", re.I)


def _find_frequencies(f: _Finder) -> None:
    for m in _P_FREQ_ZH.finditer(f.text):
        times = _number(m[3])[0] if m[3] else 1.0
        per_day = times * (24 / _number(m[1])[0] if m[1] else 1)
        f.add("count", per_day, *m.span(), unit="per day", step=0.05)
    if "餐" in f.text or "meals" in f.text:
        for m in _P_FREQ_MEALS.finditer(f.text):
            f.add("count", _number(m[1] or m[2])[0], *m.span(), unit="per day", step=0.05)
    for m in _P_FREQ_EN.finditer(f.text):
        per_day = 24 / int(m[1]) if m[1] else float(m[3]) if m[3] else float(_TIMES[m[2].lower()])
        f.add("count", per_day, *m.span(), unit="per day", step=0.05)


# 第264条 = 第二百六十四条: an article (clause, item, chapter) of a law by its number
_P_ARTICLE_ZH = re.compile(rf"第\s*[（(]?\s*(\d+|{_CN_NUM})\s*[）)]?\s*(条|款|项|章|节)")  # (第（三）项 too)


def _find_articles(f: _Finder) -> None:
    if "第" not in f.text:
        return
    for m in _P_ARTICLE_ZH.finditer(f.text):
        v, step = _number(m[1])
        f.add("count", v, *m.span(), unit=m[2], step=step)


def _find_numbers(f: _Finder) -> None:
    for m in _P_NUMBER.finditer(f.text):
        if not m[2] and not m[3]:
            label = _P_LABEL_BEFORE.search(f.text[max(0, m.start() - 8):m.start()]) or \
                _P_LABEL_AFTER.match(f.text[m.end():m.end() + 2])
            if label:
                v, step = _arabic(m[1])
                f.add("count", v, *m.span(), unit=label[1].lower(), step=step)
                continue
        v, step = _arabic(m[1])
        scale = _SCALES[m[2].lower()] if m[2] else _SCALES[m[3]] if m[3] else 1.0
        f.add("number", v * scale, *m.span(), step=step * scale)


_P_SAME_DAY = re.compile(r"同日|当日|当天|同一天|(次日|翌日)|\b(?:on )?(?:that|the) same day\b|\b(?:on )?(?:the )?(next|following) day\b",
                         re.I)


def _find_same_day(f: _Finder) -> None:
    """A day said by reference to the full date before it: "DATE开庭审理，同日作出判决", "次日", "the same day", "the next
    day" (the next one day later)."""
    if not f.values:
        return
    for m in _P_SAME_DAY.finditer(f.text):
        before = [v for v in f.values if v.kind == "date" and v.span[1] <= m.start()
                  and re.fullmatch(r"\d{4}-\d{2}-\d{2}", str(v.value))]
        if not before:
            continue
        day = datetime.date.fromisoformat(str(max(before, key=lambda v: v.span).value))
        if m.group(1) or m.group(2):
            day += datetime.timedelta(days=1)
        f.add("date", day.isoformat(), *m.span())


def _find_all_values(text: str, language: str) -> _Finder:
    f = _Finder(text)
    _find_dates(f)
    _find_same_day(f)
    _find_percents(f)
    if "次" in f.text or "every" in f.text or "daily" in f.text or "a day" in f.text or "night" in f.text \
            or "bedtime" in f.text or "meals" in f.text or "餐" in f.text:
        _find_frequencies(f)
    _find_times(f, language)
    _find_money(f)
    _find_durations(f, language)
    _find_counts(f)
    _find_articles(f)
    _find_numbers(f)
    f.values.sort(key=lambda v: v.span)
    return f


# --- value comparison ----------------------------------------------------------------------------

def _close(a: float, b: float, step_a: float, step_b: float) -> bool:
    """Equal up to the rounding the less precise value shows (each step is half its last digit's place):
    the finer value must round to the coarser one, a tie rounding half up (5.5 is not "5", 4.5 is)."""
    step, tiny = max(step_a, step_b), 1e-9 * max(abs(a), abs(b), 1.0)
    gap = abs(a - b)
    if gap <= tiny:
        return True
    if gap > 0.2 * min(abs(a), abs(b)) + tiny:
        return False  # no one rounds 0.5 g to "1 g": a rounding moves a value by a fifth of itself at most
    if gap < step - tiny:
        return True
    if gap > step + tiny:
        return False
    fine, coarse = (a, b) if step_a < step_b else (b, a)  # a tie: half up, away from zero for negatives
    return abs(fine) < abs(coarse)


def _decimal_share(a: Value) -> bool:
    """A bare decimal between 0 and 1 written to two places or more (a ratio written as a fraction: 0.4127)."""
    return a.kind == "number" and isinstance(a.value, float) and 0 < a.value < 1 \
        and re.fullmatch(r"0?\.\d{2,}", a.text.strip()) is not None


def _same_value(k: Value, a: Value) -> bool:
    """Does answer value ``a`` state keypoint value ``k`` (same kind family, equal up to rounding)?"""
    if k.kind == "percent" and _decimal_share(a):  # 0.4127 is 41.27%
        return _close(abs(float(k.value)), float(a.value) * 100, k.step, a.step * 100)
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
        if k.kind == a.kind == "count" and k.unit and a.unit and k.unit != a.unit:
            if str(k.unit).startswith(NOUN_UNIT) and str(a.unit).startswith(NOUN_UNIT):
                return _close(float(k.value), float(a.value), k.step, a.step)  # "3 general meetings", "3 sessions"
            converted = _convert(a, k.unit)  # 101.7 °F is 38.7 °C; 0.5 mg is 500 µg
            return converted is not None and _close(float(k.value), converted[0], k.step, converted[1])
        if k.kind == a.kind == "duration" and k.unit and a.unit and k.unit != a.unit:
            scale = _DURATION_SCALES.get((str(a.unit), str(k.unit)))  # 48 hours is 2 days
            if scale is not None and (k.unit, a.unit) not in _EXACT_SCALES:  # a month is about 30 days, no more
                return abs(float(a.value) * scale - float(k.value)) <= 0.04 * abs(float(k.value))
            return scale is not None and _close(float(k.value), float(a.value) * scale, k.step, a.step * scale)
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
        return (a.kind == "percent" or _decimal_share(a)) and not _same_value(k, a)
    if k.kind == "duration":
        if a.kind == "duration" and a.unit == k.unit or a.kind == "number":
            return not _same_value(k, a)
        scale = _DURATION_SCALES.get((str(a.unit), str(k.unit))) if a.kind == "duration" else None
        if scale and isinstance(a.value, float | int) and isinstance(k.value, float | int) and k.value:
            return abs(a.value * scale - k.value) / abs(k.value) > 0.1  # 2 days for 25 hours; not "a day" for 25
        return False
    if k.kind == "count":
        if k.unit == "age":
            return (a.kind == "count" and a.unit == "age" or a.kind == "number" and float(a.value).is_integer()
                    and 0 < float(a.value) < 130) and not _same_value(k, a)
        if a.kind == "number" and (k.unit == "people" or str(k.unit).startswith(NOUN_UNIT)) \
                and isinstance(a.value, float | int) and float(a.value).is_integer():
            return not _same_value(k, a)  # "compared with 2,232 at B" for "B had 7,848 employees": a head count
        if a.kind == "number" and (k.unit in _PINT_UNITS or k.unit in _LAB_UNITS) and isinstance(a.value, float | int) \
                and not float(a.value).is_integer():
            return not _same_value(k, a)  # "C反应蛋白检测值为91.9" for "44.1mg/L": a reading written without its unit
        return a.kind == "count" and (a.unit == k.unit or _convert(a, k.unit) is not None) \
            and not _same_value(k, a) and isinstance(a.value, str) == isinstance(k.value, str)  # a range is no reading
    if k.kind == "number":
        return a.kind in ("number", "count", "duration") and not isinstance(a.value, str) and not _same_value(k, a)
    return False


_units: Any = None  # pint.UnitRegistry, once made


def _unit_registry() -> Any:
    """pint's unit registry, made on first use (about a second): only a comparison across units needs it."""
    global _units
    if _units is None:
        import pint

        _units = pint.UnitRegistry(cache_folder=":auto:")  # its parsed definitions cached: a tenth of the time
    return _units


@lru_cache(maxsize=4096)
def _factor(unit: str, to: str) -> tuple[float, float] | None:
    """(scale, offset) taking a value in ``unit`` to ``to``, or None when they measure different things."""
    if unit not in _PINT_UNITS or to not in _PINT_UNITS:
        return None
    import pint

    ureg = _unit_registry()
    try:
        zero = ureg.Quantity(0.0, _PINT_UNITS[unit]).to(_PINT_UNITS[to]).magnitude
        one = ureg.Quantity(1.0, _PINT_UNITS[unit]).to(_PINT_UNITS[to]).magnitude
    except pint.errors.DimensionalityError:
        return None
    return one - zero, zero


def _convert(v: Value, to: str | None) -> tuple[float, float] | None:
    """(value, half-step) of measurement ``v`` in unit ``to``, or None when it cannot be (no unit, another
    dimension, a range)."""
    if not to or not v.unit or isinstance(v.value, str):
        return None
    factor = _factor(v.unit, to)
    if factor is None:
        return None
    scale, offset = factor
    return float(v.value) * scale + offset, v.step * abs(scale)


def _specific(v: Value) -> bool:
    """A value precise enough (three significant digits, a pair like 112/63, a date to the day) to identify its
    fact alone."""
    if v.kind == "date":
        return _date_parts(str(v.value))[2] is not None and _date_parts(str(v.value))[0] is not None
    if isinstance(v.value, str):
        return True
    digits = re.sub(r"\D", "", v.text.split("%")[0]).strip("0")
    return len(digits) >= 3


def _value_phrase(k: Value, a: Value) -> str:
    return a.text if a.text == k.text else f"{a.text} (= {k.text})"
