"""What a value written in a document is: its kind (date, money, code, person ...), the number or
date it stands for and the style it is written in, by its form first and its label second.

General by design: month names, currency signs, units of measure, company suffixes, the
surnames Faker ships for ``zh_CN`` and the first names it ships for ``en_US``; never a genre's
words.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass
from functools import cache

from dragonforge.text import cjk_count

MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
          "november", "december"]
_MON = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|" \
       r"Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?"
_DATE_PATTERNS = [
    ("long", re.compile(rf"\b{_MON}\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})\b", re.I)),  # March 4, 2024
    ("dmy", re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+{_MON},?\s+(\d{{4}})\b", re.I)),  # 4 March 2024
    ("iso", re.compile(r"\b(\d{4})-(\d{1,2})-(\d{1,2})\b")),
    ("numeric", re.compile(r"\b(\d{1,2})/(\d{1,2})/(\d{4})\b")),
    ("ymd_slash", re.compile(r"\b(\d{4})/(\d{1,2})/(\d{1,2})\b")),
    ("zh", re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月\s*(\d{1,2})\s*[日号]")),
    ("dotted", re.compile(r"\b(\d{4})\.(\d{1,2})\.(\d{1,2})\b")),
    ("month", re.compile(rf"\b{_MON}\s+(\d{{4}})\b", re.I)),  # May 2025
    ("zh_month", re.compile(r"(\d{4})\s*年\s*(\d{1,2})\s*月(?!\s*\d)")),
]
TIME = re.compile(r"(?<![\d:])(\d{1,2}):(\d{2})(?::\d{2})?(?!\d)(?:\s?(?:UTC|GMT|[AaPp]\.?[Mm]\.?|CST|BST|EST|PST))?"
                  r"|(?<!\d)(\d{1,2})\s*[时点]\s*(\d{1,2})\s*分|(?<!\d)(\d{1,2})\s*[时点](?!\d)")
_CURRENCY = r"(?:US\$|USD|HK\$|A\$|C\$|S\$|\$|£|€|¥|￥|GBP|EUR|RMB|CNY|JPY)"
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_SCALE_EN = r"(?:\s?(?:million|billion|thousand|mn|bn|m|k)\b)"
MONEY_EN = re.compile(rf"{_CURRENCY}\s?{_NUMBER}{_SCALE_EN}?|{_NUMBER}{_SCALE_EN}?\s?(?:USD|GBP|EUR|dollars|pounds|euros)\b",
                      re.I)
MONEY_ZH = re.compile(rf"(?:人民币|{_CURRENCY})\s?{_NUMBER}\s?[万亿]?\s?元?|{_NUMBER}\s?[万亿]?\s?(?:元|美元|港元|欧元|英镑)")
PERCENT = re.compile(rf"{_NUMBER}\s?%|百分之[\d零一二三四五六七八九十百点.]+")
_TIME_UNITS_EN = r"(?:seconds?|secs?|minutes?|mins?|hours?|hrs?|h|days?|weeks?|months?|years?|working days?|business days?)"
DURATION_EN = re.compile(rf"\b{_NUMBER}\s?{_TIME_UNITS_EN}\b(?:,?\s(?:and\s)?{_NUMBER}\s?{_TIME_UNITS_EN}\b)*", re.I)
DURATION_ZH = re.compile(rf"{_NUMBER}\s?(?:个)?(?:秒钟?|分钟|小时|个?工作日|天|日|周|星期|个月|年)(?:零?\s?{_NUMBER}\s?(?:个)?(?:秒|分钟|小时|天|个月))*")
_UNITS = (r"m³|m3|m²|m2|km|cm|mm|m|kg|g|t|tonnes?|tons?|°C|℃|°F|L|litres?|liters?|ml|kW|kWh|MW|MWh|V|kV|A|Hz|"
          r"GB|TB|MB|KB|ms|sq\.? ?ft|ft|in|lbs?|psi|bar|dB|rpm|gal|gallons?|acres?|ha|"
          r"立方米|平方米|米|千米|公里|厘米|毫米|吨|千克|公斤|克|升|毫升|千瓦|兆瓦|千瓦时|伏|安|赫兹|度|亩|公顷")
QUANTITY = re.compile(rf"(?<![\w.]){_NUMBER}\s?(?:{_UNITS})(?![A-Za-z])")
COUNT_ZH = re.compile(rf"(?:约|共|合计|近|逾)?(?<![\d.]){_NUMBER}\s?[万亿]?\s?(?:人次|车次|[\u4e00-\u9fff])?")
PLAIN_NUMBER = re.compile(rf"^(?:about |approx\.? |approximately |约|共|合计|近|逾)?{_NUMBER}$")
CODE = re.compile(r"^(?=[A-Za-z0-9#-]*\d)(?=.*[A-Za-z-])[A-Za-z0-9][A-Za-z0-9\-/_.#]{2,}[A-Za-z0-9]$")
_ORG_EN = re.compile(r"\b(?:Inc|LLC|Ltd|Limited|Corp|Corporation|Co|Company|Group|Holdings|Partners|Associates|plc|PLC|"
                     r"GmbH|LLP|L\.P|Services|Insurance|Assurance|Mutual|Bank|University|Hospital|Clinic|Agency|"
                     r"Authority|Council|Institute|Foundation|Trust|Industries|Technologies|Systems|Solutions|"
                     r"Consulting|Manufacturing|and Sons|& Sons|Enterprises|Labs?|Laboratories)\b\.?")
_ORG_ZH = re.compile(r"(?:公司|集团|银行|医院|工厂|厂|研究院|研究所|事务所|协会|委员会|学校|大学|分行|支行|合作社|商行|门市部|局|中心)$")
_ADDRESS_EN = re.compile(r"^\d+[\w\-/]*\s+(?:[A-Z][\w.'-]*\s+){0,4}(?:Street|St|Road|Rd|Avenue|Ave|Lane|Ln|Drive|Dr|"
                         r"Boulevard|Blvd|Way|Court|Ct|Place|Pl|Terrace|Close|Crescent|Parkway|Pkwy|Highway|Hwy|"
                         r"Square|Sq|Row|Park|Quay|Wharf|Hill|Gardens|Mews|Green|Walk)\b|"
                         r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b|,\s?[A-Z]{2}\s\d{5}\b", re.M)
_ADDRESS_ZH = re.compile(r"[省市区县镇乡村路街巷道号栋幢楼室弄]")
_PLACE_ZH = re.compile(r"^[\u4e00-\u9fff]{2,8}(?:省|市|区|县|镇|州|乡|村|港|站|湾)$")
_SENTENCE_END = re.compile(r"[.。!！?？]$")


@dataclass(frozen=True)
class Value:
    """One value as written: its kind, what it stands for and how it is written."""

    text: str
    kind: str
    number: float | None = None
    day: dt.date | None = None
    unit: str | None = None  # a quantity's or duration's unit as written, a money's currency sign
    style: str | None = None  # date: long, iso, numeric; money: scaled, plain


@cache
def _zh_surnames() -> tuple[str, ...]:
    from faker.providers.person.zh_CN import Provider

    names = Provider.last_names
    return tuple(sorted(names.keys() if isinstance(names, dict) else names, key=len, reverse=True))


@cache
def _en_first_names() -> frozenset[str]:
    """First names in Latin letters from every locale Faker ships (a team's staff are not all
    American): about 17,000."""
    import importlib
    import pkgutil

    import faker.providers.person as people

    names: set[str] = set()
    for module in pkgutil.iter_modules(people.__path__):
        try:
            provider = importlib.import_module(f"faker.providers.person.{module.name}").Provider
        except (ImportError, AttributeError):
            continue
        for attr in ("first_names", "first_names_male", "first_names_female"):
            found = provider.__dict__.get(attr)
            if isinstance(found, (list, tuple, dict, set)):
                names |= {n.lower() for n in found if isinstance(n, str) and n.isascii()}
    return frozenset(names)


def parse_date(text: str) -> tuple[dt.date, str, tuple[int, int]] | None:
    """The first date written in ``text``: the day, its style and its span."""
    best = None
    for style, pattern in _DATE_PATTERNS:
        m = pattern.search(text)
        if not m or (best and m.start() >= best[2][0]):
            continue
        try:
            day = _date_of(style, m)
        except ValueError:
            continue
        best = (day, style, m.span())
    return best


def _date_of(style: str, m: re.Match[str]) -> dt.date:
    if style == "long":
        month = _month(m.group(0))
        return dt.date(int(m.group(2)), month, int(m.group(1)))
    if style == "dmy":
        return dt.date(int(m.group(2)), _month(m.group(0)), int(m.group(1)))
    if style == "month":
        return dt.date(int(m.group(1)), _month(m.group(0)), 1)
    if style == "zh_month":
        return dt.date(int(m.group(1)), int(m.group(2)), 1)
    if style == "numeric":  # 03/04/2023: month first unless the first number cannot be a month
        a, b, year = int(m.group(1)), int(m.group(2)), int(m.group(3))
        return dt.date(year, b, a) if a > 12 else dt.date(year, a, b)
    return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _month(text: str) -> int:
    low = text.lower()
    found = [(low.find(name[:3]), i) for i, name in enumerate(MONTHS) if name[:3] in low]
    return min(found)[1] + 1


def number_of(text: str) -> float | None:
    """The number a money, count or quantity text stands for (scales such as million and 万 applied)."""
    m = re.search(_NUMBER, text)
    if not m:
        return None
    x = float(m.group(0).replace(",", ""))
    rest = text[m.end():m.end() + 12].lower()
    for word, scale in (("billion", 1e9), ("bn", 1e9), ("million", 1e6), ("mn", 1e6), ("thousand", 1e3),
                        ("亿", 1e8), ("万", 1e4)):
        if rest.lstrip().startswith(word):
            return x * scale
    if re.match(r"\s?m\b", rest):
        return x * 1e6
    if re.match(r"\s?k\b", rest):
        return x * 1e3
    return x


def minutes_of(text: str) -> float | None:
    """A duration in minutes (``2 hours 10 minutes`` → 130; ``2小时15分钟`` → 135)."""
    total, found = 0.0, False
    for m in re.finditer(rf"({_NUMBER})\s?(?:个)?({_TIME_UNITS_EN}|秒钟?|分钟|小时|工作日|天|日|周|星期|月|年)", text, re.I):
        x = float(m.group(1).replace(",", ""))
        unit = m.group(2).lower()
        factor = (1 / 60 if unit.startswith(("sec", "秒")) else 1 if unit.startswith(("min", "分")) else
                  60 if unit.startswith(("h", "小")) else 10080 if unit.startswith(("week", "周", "星")) else
                  43200 if unit.startswith(("month", "月")) else 525600 if unit.startswith(("year", "年")) else 1440)
        total += x * factor
        found = True
    return total if found else None


def duration_unit(text: str) -> str:
    low = text.lower()
    for key, marks in (("minute", ("min", "分")), ("hour", ("hour", "hr", "小时")), ("week", ("week", "周", "星期")),
                       ("month", ("month", "月")), ("year", ("year", "年")), ("second", ("sec", "秒"))):
        if any(m in low for m in marks):
            return key
    return "day"


def is_person(text: str, language: str) -> bool:
    text = text.strip()
    if language == "zh":
        if not re.fullmatch(r"[\u4e00-\u9fff]{2,4}", text):
            return False
        return any(text.startswith(s) and 1 <= len(text) - len(s) <= 2 for s in _zh_surnames())
    words = text.replace(".", ". ").split()
    if not 2 <= len(words) <= 4 or _ORG_EN.search(text) or any(ch.isdigit() for ch in text):
        return False
    if not all(w[:1].isupper() for w in words if w.lower() not in {"de", "van", "von", "da", "del", "la", "le"}):
        return False
    if any(w.lower().strip(".") in MONTHS for w in words):
        return False
    first = words[0].strip(".").lower()
    return first in _en_first_names() or (len(first) == 1 and len(words) >= 2)


def is_organisation(text: str, language: str) -> bool:
    text = text.strip()
    if language == "zh":
        m = _ORG_ZH.search(text)
        return m is not None and m.start() >= 3 and len(text) <= 30 and "，" not in text
    m = _ORG_EN.search(text)
    return m is not None and len(text.split()) <= 8 and text[:1].isupper() and len(text[:m.start()].strip(" ,&")) >= 2


def is_address(text: str, language: str) -> bool:
    if language == "zh":
        return len(text) >= 7 and len(set(_ADDRESS_ZH.findall(text))) >= 3 and "，" not in text and "。" not in text
    return bool(_ADDRESS_EN.search(text)) and len(text) <= 120


def words(text: str, language: str) -> int:
    return cjk_count(text) if language == "zh" else len(text.split())


def whole(pattern: re.Pattern[str], text: str, share: float = 0.9) -> re.Match[str] | None:
    """A match of ``pattern`` that covers (nearly) all of ``text``."""
    m = pattern.search(text)
    if m and len(m.group(0).strip()) >= share * len(text.strip()):
        return m
    return None


def classify(text: str, language: str) -> Value:
    """The kind of one value by its form alone (a label may refine it later). A composite value
    (``NAME, role, since 2019``; ``CODE (valid until DATE)``) is the kind of its head when the head
    is a name or a code."""
    value = _classify(text, language)
    if value.kind in ("text", "narrative") and re.search(r"[=＝]", value.text):  # 8 h × 450 = 3,600: the result
        result = _classify(re.split(r"[=＝]", value.text)[-1], language)
        if result.kind in ("money", "count", "quantity", "duration", "percent"):
            return Value(value.text, result.kind, number=result.number, unit=result.unit, style=result.style)
    if value.kind in ("text", "narrative"):
        head = re.split(r"\s*(?:[,，;；(（]|\s[-–—]\s|\sand\s)\s*", value.text, maxsplit=1)[0].strip()
        date = parse_date(head)
        if date and date[2][0] > 0:  # "Claire Dubois on 2024-07-24"
            head = re.sub(r"\s+(?:on|at|in|of|于|在)$", "", head[:date[2][0]].strip())
        if head and head != value.text:
            inner = _classify(head, language)
            if inner.kind in ("person", "organisation", "code", "address", "date", "count", "quantity", "money",
                              "percent", "duration"):
                return Value(value.text, inner.kind, number=inner.number, day=inner.day, unit=inner.unit,
                             style=inner.style)
    return value


def _classify(text: str, language: str) -> Value:
    t = text.strip().rstrip(".。;；,，")
    zh = language == "zh"
    date = parse_date(t)
    if date:
        day, style, (a, b) = date
        rest = (t[:a] + t[b:]).strip(" ,，()（）")
        if TIME.search(rest) and len(rest) <= 16:
            return Value(t, "datetime", day=day, style=style)
        if len(rest) <= 4 or re.fullmatch(r"\(?[A-Za-z]+day\)?|星期.|周.|（?星期.）?", rest):
            return Value(t, "date", day=day, style=style)
    if whole(TIME, t, 0.7) and len(t) <= 14:
        return Value(t, "time")
    m = whole(MONEY_ZH if zh else MONEY_EN, t, 0.75) or (whole(MONEY_EN, t, 0.75) if zh else None)
    if m:
        scaled = bool(re.search(r"million|billion|[万亿]|\bm\b|bn", m.group(0), re.I))
        sign = re.search(_CURRENCY + r"|元|美元|港元|欧元|英镑", m.group(0))
        return Value(t, "money", number=number_of(m.group(0)), unit=sign.group(0) if sign else None,
                     style="scaled" if scaled else "plain")
    m = whole(PERCENT, t, 0.8)
    if m:
        return Value(t, "percent", number=number_of(m.group(0)))
    m = whole(DURATION_ZH if zh else DURATION_EN, t, 0.75)
    if m:
        return Value(t, "duration", number=minutes_of(m.group(0)), unit=duration_unit(m.group(0)))
    m = whole(QUANTITY, t, 0.7)
    if m:
        unit: str | None = re.sub(_NUMBER, "", m.group(0)).strip()
        return Value(t, "quantity", number=number_of(m.group(0)), unit=unit)
    m = re.fullmatch(rf"({_NUMBER})\s?/\s?({_NUMBER})(\s?(?:points?|pts|分))?", t)
    if m:  # a score out of a maximum: 18/25
        return Value(t, "count", number=float(m.group(1).replace(",", "")), unit=None, style="of")
    if re.fullmatch(r"\d{11,}", t):  # a permit, an identity or a phone number: nobody counts that far unpunctuated
        return Value(t, "code")
    if PLAIN_NUMBER.match(t) or (zh and whole(COUNT_ZH, t, 0.85)) or \
            (not zh and re.fullmatch(rf"(?:about |approx\.? )?{_NUMBER}(?: [a-z]+){{0,2}}", t)):
        unit = re.sub(rf"^(?:about |approx\.? |约|共|合计|近|逾)?{_NUMBER}\s?", "", t).strip() or None
        return Value(t, "count", number=number_of(t), unit=unit)
    if CODE.match(t) and " " not in t:
        return Value(t, "code")
    if is_address(t, language):
        return Value(t, "address")
    if is_organisation(t, language):
        return Value(t, "organisation")
    if is_person(t, language):
        return Value(t, "person")
    if zh and _PLACE_ZH.match(t):
        return Value(t, "place")
    n = words(t, language)
    # Chinese names run long without a clause mark (a project, a contract section): a Chinese value
    # is prose when it has a clause or sentence mark, or is very long
    if (n >= 9 if not zh else (n >= 18 and re.search(r"[，,；;。]", t)) or n >= 40) or \
            (_SENTENCE_END.search(text.strip()) and n >= (6 if not zh else 12)):
        return Value(t, "narrative")
    return Value(t, "text")


_COUNT_IN_TEXT = re.compile(rf"(?<![\w.,/-]){_NUMBER}(?:\s?(?:million|billion|thousand|万|亿))?(?![\w%/-]|\.\d)")


def spans(text: str, language: str, counts: bool = False) -> list[tuple[int, int, Value]]:
    """Typed values inside a longer text (a record line, a prose sentence): dates and times,
    money, percentages, durations, quantities, codes, and with ``counts`` plain numbers too;
    non-overlapping, in order."""
    found: list[tuple[int, int, Value]] = []
    zh = language == "zh"

    def add(a: int, b: int, value: Value) -> None:
        if all(b <= x or a >= y for x, y, _ in found):
            found.append((a, b, value))

    for _, pattern in _DATE_PATTERNS:
        for m in pattern.finditer(text):
            tail = re.match(r"[,，]?\s?(?:at\s)?(?:\d{1,2}:\d{2}(?:\s?UTC|\s?GMT)?|上午|下午)?", text[m.end():])
            end = m.end() + (len(tail.group(0)) if tail and re.search(r"\d", tail.group(0)) else 0)
            value = classify(text[m.start():end], language)
            if value.kind in ("date", "datetime"):
                add(m.start(), end, value)
    for m in TIME.finditer(text):
        add(m.start(), m.end(), Value(m.group(0), "time"))
    for pattern, kind in (((MONEY_ZH if zh else MONEY_EN), "money"), (PERCENT, "percent"),
                          ((DURATION_ZH if zh else DURATION_EN), "duration"), (QUANTITY, "quantity")):
        for m in pattern.finditer(text):
            value = classify(m.group(0), language)
            if value.kind == kind:
                add(m.start(), m.end(), value)
    for m in re.finditer(r"(?<![\w-])[A-Za-z][A-Za-z0-9]*(?:[-/][A-Za-z0-9]+)+(?![\w-])|(?<![\w-])[A-Z]{2,}\d+[A-Z\d]*(?![\w-])",
                         text):
        if re.search(r"\d", m.group(0)) and len(m.group(0)) >= 4:
            add(m.start(), m.end(), Value(m.group(0), "code"))
    if counts:
        for m in _COUNT_IN_TEXT.finditer(text):
            add(m.start(), m.end(), Value(m.group(0), "count", number=number_of(m.group(0))))
    return sorted(found, key=lambda s: s[0])
