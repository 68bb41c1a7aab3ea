"""Formatting and Faker helpers shared by the domain config generators.

Every formatted fact goes through these functions, so a value is always written the same
way in a language (the lexical judge and the validator rely on it) and always carries its
canonical value beside its text.
"""

from __future__ import annotations

import datetime as dt
import random
import threading

from faker import Faker

from dragonforge.models import Fact, ValueKind

_LOCALES = {"en": "en_US", "zh": "zh_CN"}
_EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
_ZH_DIGITS = "零一二三四五六七八九"


_local = threading.local()


def _faker(language: str) -> Faker:
    # One instance per locale and thread: a Faker's random state is reseeded per config,
    # and builds write several groups at once on a thread pool.
    cache = _local.__dict__.setdefault("fakers", {})
    if language not in cache:
        cache[language] = Faker(_LOCALES[language])
    return cache[language]


def faker_for(language: str, seed: int) -> Faker:
    """A Faker for ``language`` reseeded for one config (instances are cached per locale and thread)."""
    fake = _faker(language)
    fake.seed_instance(seed)
    return fake


# --- fact constructors ----------------------------------------------------------------------


def text_fact(key: str, text: str, kind: ValueKind = "text") -> Fact:
    return Fact(key=key, kind=kind, text=text, value=text)


def date_fact(key: str, day: dt.date, language: str, precision: str = "day") -> Fact:
    return Fact(key=key, kind="date", text=format_date(day, language, precision),
                value=day.isoformat() if precision == "day" else day.strftime("%Y-%m"))


def money_fact(key: str, amount: float, language: str) -> Fact:
    """``amount`` in the document's currency unit: US dollars in English, yuan in Chinese."""
    return Fact(key=key, kind="money", text=format_money(amount, language),
                value=round(float(amount), 2), unit="USD" if language == "en" else "CNY")


def percent_fact(key: str, pct: float, language: str) -> Fact:
    return Fact(key=key, kind="percent", text=format_percent(pct), value=round(pct, 2), unit="%")


def count_fact(key: str, n: int, language: str, unit: str | None = None, text: str | None = None) -> Fact:
    return Fact(key=key, kind="count", text=text if text is not None else format_count(n, language),
                value=int(n), unit=unit)


# --- formatters -----------------------------------------------------------------------------


def format_date(day: dt.date, language: str, precision: str = "day") -> str:
    if language == "zh":
        return f"{day.year}年{day.month}月{day.day}日" if precision == "day" else f"{day.year}年{day.month}月"
    if precision == "day":
        return f"{_EN_MONTHS[day.month - 1]} {day.day}, {day.year}"
    return f"{_EN_MONTHS[day.month - 1]} {day.year}"


def format_money(amount: float, language: str) -> str:
    """$12.5 million / $350,000 in English; 1.25亿元 / 3,500万元 / 8,600元 in Chinese.

    A large unit is used only when it writes the amount exactly (at most two decimals), so
    the text never rounds away from the fact's value: 12,860 yuan stays 12,860元.
    """
    units = (((1e8, 4, "{}亿元"), (1e4, 2, "{}万元")) if language == "zh"
             else ((1e9, 3, "${} billion"), (1e6, 2, "${} million")))
    for unit, decimals, form in units:
        scaled = amount / unit
        if amount >= unit and abs(round(scaled, decimals) - scaled) < 1e-9 * max(1.0, scaled):
            return form.format(_trim(scaled, decimals, group=language == "zh" and unit == 1e4))
    return f"{amount:,.0f}元" if language == "zh" else f"${amount:,.0f}"


def format_percent(pct: float) -> str:
    return f"{_trim(pct)}%"


def format_count(n: int, language: str) -> str:
    return f"{n:,}" if language == "en" else str(n)


def zh_numeral(n: int) -> str:
    """Chinese numerals for 0–99, as judgments write terms (三年, 十一个月)."""
    if n < 10:
        return _ZH_DIGITS[n]
    tens, ones = divmod(n, 10)
    return ("十" if tens == 1 else _ZH_DIGITS[tens] + "十") + (_ZH_DIGITS[ones] if ones else "")


def format_term(months: int, language: str) -> str:
    """A prison or treatment term: '3 years and 6 months' / '三年六个月'."""
    years, rest = divmod(months, 12)
    if language == "zh":
        parts = ([f"{zh_numeral(years)}年"] if years else []) + ([f"{zh_numeral(rest)}个月"] if rest else [])
        return "".join(parts)
    parts = ([f"{years} year{'s' if years != 1 else ''}"] if years else []) + (
        [f"{rest} month{'s' if rest != 1 else ''}"] if rest else [])
    return " and ".join(parts)


def _trim(x: float, decimals: int = 2, group: bool = False) -> str:
    text = f"{x:,.{decimals}f}" if group else f"{x:.{decimals}f}"
    return text.rstrip("0").rstrip(".")


# --- dates ----------------------------------------------------------------------------------


def ordered_dates(rng: random.Random, start: dt.date, end: dt.date, n: int, min_gap_days: int = 1) -> list[dt.date]:
    """``n`` distinct dates in [start, end], strictly increasing, at least ``min_gap_days`` apart."""
    span = (end - start).days - min_gap_days * (n - 1)
    if span < 0:
        raise ValueError("date range too short for the requested dates")
    offsets = sorted(rng.sample(range(span + 1), n))
    return [start + dt.timedelta(days=o + i * min_gap_days) for i, o in enumerate(offsets)]
