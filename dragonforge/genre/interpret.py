"""From a genre pack to configs: every slot drawn (or derived) in dependency order, seeded,
with Faker ``en_US`` / ``zh_CN``; groups of records; constraints checked, the whole config
drawn again when one fails, and a clear failure naming the constraint when none can hold.
"""

from __future__ import annotations

import datetime as dt
import math
import random
import re
from dataclasses import dataclass
from typing import Any

import jinja2.meta

from dragonforge.domains._common import faker_for, format_count, format_date, zh_numeral
from dragonforge.errors import TemplateError
from dragonforge.genre.model import DATE_KINDS, NUMERIC_KINDS, GenreSpec, LanguageSpec, SlotSpec
from dragonforge.models import Config, Fact, Language, ValueKind
from dragonforge.rng import derive_seed
from dragonforge.templating import _SANDBOX, evaluate, render

ATTEMPTS = 200  # draws of one config before a constraint is declared unsatisfiable
DEFAULT_WINDOW = (dt.date(2018, 1, 1), dt.date(2025, 12, 31))
_YEAR_OF = re.compile(r"\{year:([a-z][a-z0-9_]*)\}")
_FACT_KIND: dict[str, ValueKind] = {
    "date": "date", "datetime": "date", "money": "money", "percent": "percent", "count": "count",
    "quantity": "count", "duration": "count", "person": "person", "organisation": "organisation",
    "place": "place", "address": "place", "category": "category", "code": "text", "text": "text",
    "narrative": "text", "time": "text",
}


_ROMAN = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV", "XV", "XVI"]
_NUMBERING = {
    "en": [lambda n: "", lambda n: f"{n}. ", lambda n: f"{_ROMAN[n - 1] if n <= len(_ROMAN) else n}. "],
    "zh": [lambda n: "", lambda n: f"{zh_numeral(n)}、", lambda n: f"{n}. "],
}


class Unsatisfiable(TemplateError):
    """No draw of a config satisfies a constraint of the pack."""


@dataclass(frozen=True)
class Genre:
    """A validated pack: the genre file and its language files."""

    spec: GenreSpec
    languages: dict[str, LanguageSpec]
    fingerprint: Any = None  # an induced pack's seed fingerprint (leak.json): values never drawn


# What derived slots and constraints may call besides the slots' values.
HELPERS: dict[str, Any] = {"timedelta": dt.timedelta, "min": min, "max": max, "abs": abs, "round": round}


def names_in(expression: str) -> set[str]:
    """The slot names a Jinja2 expression reads (helpers such as ``timedelta`` aside)."""
    return template_names("{{ " + expression + " }}") - set(HELPERS)


def template_names(source: str) -> set[str]:
    """The names a Jinja2 template reads (an anchor's slots)."""
    return set(jinja2.meta.find_undeclared_variables(_SANDBOX.parse(source)))


def dependencies(spec: GenreSpec) -> dict[str, set[str]]:
    deps: dict[str, set[str]] = {}
    for name, slot in spec.slots.items():
        needs: set[str] = set()
        if slot.derived:
            needs |= names_in(slot.derived)
        if slot.after:
            needs.add(slot.after.slot)
        if slot.pattern:
            needs |= set(_YEAR_OF.findall(slot.pattern))
        for field in (slot.fields or {}).values():  # a group's derived fields read earlier slots
            if field.derived:
                needs |= names_in(field.derived) - {"item"}
        deps[name] = needs
    return deps


def slot_order(spec: GenreSpec) -> list[str]:
    """Slots in an order where each comes after what it depends on; a cycle is an error naming it."""
    deps = dependencies(spec)
    order: list[str] = []
    state: dict[str, int] = {}  # 1 visiting, 2 done

    def visit(name: str, path: list[str]) -> None:
        if state.get(name) == 2:
            return
        if state.get(name) == 1:
            cycle = path[path.index(name):] + [name]
            raise TemplateError(f"slots depend on each other in a cycle: {' -> '.join(cycle)}")
        state[name] = 1
        for dep in sorted(deps[name]):
            if dep not in spec.slots:
                raise TemplateError(f"slot {name!r} depends on {dep!r}, which is no slot of the genre")
            visit(dep, path + [name])
        state[name] = 2
        order.append(name)

    for name in spec.slots:
        visit(name, [])
    return order


# --- formatting -----------------------------------------------------------------------------------


def _plain_number(x: float, decimals: int, language: str) -> str:
    text = f"{x:,.{decimals}f}" if decimals else f"{round(x):,}"
    return text


def format_money(amount: float, language: str, currency: str | None, style: str | None, decimals: int) -> str:
    """Money as the language writes it: ``$1.25 million`` / ``$350,000`` or ``125万元`` /
    ``8,600元``, scaled only where the scaled form is exact (``style: plain`` never scales)."""
    zh = language == "zh"
    unit = currency or ("元" if zh else "$")
    scales = ((1e8, "亿", 4), (1e4, "万", 2)) if zh else ((1e9, " billion", 3), (1e6, " million", 2))
    for scale, word, places in (scales if style != "plain" else ()):
        scaled = amount / scale
        if amount >= scale and abs(round(scaled, places) - scaled) < 1e-9 * max(1.0, scaled):
            number = _trim(scaled, places) + word
            return f"{number}{unit}" if zh else f"{unit}{number}"
    number = _plain_number(amount, decimals, language)
    return f"{number}{unit}" if zh else f"{unit}{number}"


def _trim(x: float, places: int) -> str:
    return f"{x:.{places}f}".rstrip("0").rstrip(".")


def format_day(day: dt.date, language: str, style: str | None) -> str:
    if style == "iso":
        return day.isoformat()
    if style == "numeric":
        return f"{day.year}/{day.month}/{day.day}" if language == "zh" else f"{day.month:02d}/{day.day:02d}/{day.year}"
    return format_date(day, language)


def format_time(moment: dt.datetime, language: str, style: str | None) -> str:
    clock = f"{moment.hour:02d}:{moment.minute:02d}"
    return f"{format_day(moment.date(), language, style)} {clock}" if language == "zh" else \
        f"{format_day(moment.date(), language, style)}, {clock}"


def unit_word(words: str, n: float, language: str) -> str:
    """``day|days`` → the singular for exactly 1, the plural otherwise (English); Chinese has one form."""
    singular, _, plural = words.partition("|")
    return singular if (n == 1 or not plural or language == "zh") else plural


# --- drawing --------------------------------------------------------------------------------------


class _Draw:
    """One attempt at a config: values (for expressions) and facts (for the documents)."""

    def __init__(self, genre: Genre, language: str, seed: int):
        self.genre = genre
        self.spec = genre.spec
        self.text = genre.languages[language]
        self.language = language
        self.rng = random.Random(seed)
        self.fake = faker_for(language, derive_seed(seed, "faker") % (2 ** 32))
        self.values: dict[str, Any] = {}
        self.facts: dict[str, Fact] = {}

    def pool(self, key: str) -> list[str]:
        slot = self.text.slots.get(key)
        return slot.pool if slot else []

    def style(self, key: str) -> str | None:
        slot = self.text.slots.get(key)
        return slot.style if slot else None

    def run(self) -> None:
        for name in slot_order(self.spec):
            slot = self.spec.slots[name]
            if slot.presence < 1 and self.rng.random() >= slot.presence:
                self.values[name] = None
                continue
            if slot.kind == "group":
                self.group(name, slot)
                continue
            if slot.derived:
                value = self.derive(name, slot)
                if value is None:
                    self.values[name] = None
                    continue
            else:
                value = self.draw(name, slot)
                if value is None:  # drawn after a date this document does not have
                    self.values[name] = None
                    continue
            self.put(name, name, slot, value)

    def derive(self, name: str, slot: SlotSpec) -> Any:
        expression = slot.derived
        assert expression is not None  # called for derived slots only
        try:
            value = evaluate(expression, {**HELPERS, **self.values}, sandboxed=True)
        except TemplateError as exc:
            raise TemplateError(f"slot {name!r}: {exc}") from None
        except Exception as exc:  # a None operand (an absent slot) leaves the derived slot absent
            if any(self.values.get(n) is None for n in names_in(expression) if n in self.spec.slots):
                return None
            raise TemplateError(f"slot {name!r}: derived {slot.derived!r} fails: {type(exc).__name__}: {exc}") from None
        if slot.kind in NUMERIC_KINDS:
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
                raise TemplateError(f"slot {name!r}: derived {slot.derived!r} gives {value!r}, not a number")
            return self.rounded(slot, float(value))
        if slot.kind in DATE_KINDS and not isinstance(value, dt.date):
            raise TemplateError(f"slot {name!r}: derived {slot.derived!r} gives {value!r}, not a date")
        return value

    def rounded(self, slot: SlotSpec, x: float) -> float | int:
        if slot.round:
            x = round(x / slot.round) * slot.round
        decimals = slot.decimals if slot.decimals is not None else (2 if slot.kind in ("money", "quantity") else
                                                                    1 if slot.kind == "percent" else 0)
        x = round(x, decimals)
        return int(x) if decimals == 0 or (slot.kind in ("count", "duration")) else x

    def number(self, slot: SlotSpec) -> float | int:
        low, high = slot.range  # type: ignore[misc]
        if slot.scale == "log":
            x = math.exp(self.rng.uniform(math.log(low), math.log(high)))
        else:
            x = self.rng.uniform(low, high)
        return self.rounded(slot, x)

    def draw(self, key: str, slot: SlotSpec) -> Any:
        kind, fake, rng = slot.kind, self.fake, self.rng
        if kind in NUMERIC_KINDS:
            return self.number(slot)
        if kind == "time":  # a clock time: minutes after midnight in the range, 06:00-22:00 by default
            low, high = (int(x) for x in (slot.range or (360, 1320)))
            return rng.randint(max(0, low), min(1439, high))
        if kind in ("date", "datetime", "date_range"):
            if slot.after is not None:
                base = self.values.get(slot.after.slot)
                if base is None:
                    return None
                base = base if not isinstance(base, dt.datetime) else base.date()
                day = base + dt.timedelta(days=rng.randint(*slot.after.days))
            else:
                start, end = slot.window or DEFAULT_WINDOW
                day = start + dt.timedelta(days=rng.randint(0, (end - start).days))
            if kind == "datetime":
                return dt.datetime(day.year, day.month, day.day, rng.randint(0, 23), rng.randint(0, 59))
            if kind == "date_range":
                low, high = (int(x) for x in (slot.range or (1, 30)))
                return (day, day + dt.timedelta(days=rng.randint(low, high)))
            return day
        if kind == "person":
            return self.person()
        if kind == "organisation":
            return fake.company()
        if kind == "party":
            mix = slot.mix or {"person": 0.5, "organisation": 0.5}
            kinds = sorted(mix)
            pick = rng.choices(kinds, weights=[mix[k] for k in kinds])[0]
            return ("person", self.person()) if pick == "person" else ("organisation", fake.company())
        if kind == "place":
            return fake.city()
        if kind == "address":
            return ", ".join(line.strip() for line in fake.address().splitlines() if line.strip())
        if kind == "code":
            def year(m: re.Match[str]) -> str:
                base = self.values.get(m.group(1))
                return str(base.year) if isinstance(base, dt.date) else str(rng.randint(2018, 2025))
            pattern = _YEAR_OF.sub(year, slot.pattern or "")
            return "".join(str(rng.randint(0, 9)) if c == "#" else
                           chr(rng.randint(65, 90)) if c == "?" else c for c in pattern)
        pool = self.pool(key)
        if not pool:
            raise TemplateError(f"slot {key!r} ({kind}) has no pool of values in {self.language}.yaml")
        return rng.choice(pool)

    def person(self) -> str:
        # first and last name only: Faker's name() adds titles and suffixes (Dr., MD) now and then
        return self.fake.name() if self.language == "zh" else f"{self.fake.first_name()} {self.fake.last_name()}"

    def put(self, key: str, style_key: str, slot: SlotSpec, value: Any) -> None:
        """Record ``value`` for expressions and as one fact (two for a date range)."""
        language, style = self.language, self.style(style_key)
        kind = slot.kind
        if kind == "party":
            actual, name = value
            self.values[key] = name
            self.facts[key] = Fact(key=key, kind=actual, text=name, value=name)
            return
        self.values[key] = value
        if kind == "date_range":
            start, end = value
            for part, day in (("start", start), ("end", end)):
                text = format_day(day, language, style)
                self.facts[f"{key}.{part}"] = Fact(key=f"{key}.{part}", kind="date", text=text, value=day.isoformat())
            self.values[key] = {"start": start, "end": end}
            return
        if kind == "datetime":
            fact = Fact(key=key, kind="date", text=format_time(value, language, style),
                        value=value.isoformat(timespec="minutes"))
        elif kind == "date":
            fact = Fact(key=key, kind="date", text=format_day(value, language, style), value=value.isoformat())
        elif kind == "time":
            fact = Fact(key=key, kind="text", text=f"{value // 60:02d}:{value % 60:02d}", value=int(value))
        elif kind == "money":
            decimals = slot.decimals if slot.decimals is not None else (0 if float(value).is_integer() else 2)
            fact = Fact(key=key, kind="money", text=format_money(float(value), language, self.text.currency, style,
                                                                 decimals),
                        value=round(float(value), 2), unit=self.text.currency or ("CNY" if language == "zh" else "USD"))
        elif kind == "percent":
            fact = Fact(key=key, kind="percent", text=f"{_trim(float(value), 2)}%", value=float(value), unit="%")
        elif kind in ("count", "quantity", "duration"):
            number = _trim(float(value), 4) if isinstance(value, float) else format_count(int(value), language)
            if slot.unit:
                words = self.text.units.get(slot.unit)
                if words is None:
                    raise TemplateError(f"slot {key!r}: unit {slot.unit!r} has no words in {language}.yaml units")
                word = unit_word(words, float(value), language)
                text = f"{number}{word}" if language == "zh" else f"{number} {word}"
            else:
                text = number
            fact = Fact(key=key, kind="count", text=text, value=value, unit=slot.unit)
        else:
            text = str(value)
            if kind == "narrative":  # a whole sentence: its frame ends it, so an LLM rewrite fits too
                text = text.rstrip().rstrip(".。!！?？").rstrip()
            fact = Fact(key=key, kind=_FACT_KIND[kind], text=text, value=text)
        self.facts[key] = fact

    def group(self, name: str, slot: SlotSpec) -> None:
        low, high = slot.count or (2, 5)
        n = self.rng.randint(low, high)
        if slot.order_by:
            self.group_ordered(name, slot, n)
            return
        self.group_records(name, slot, n)

    def group_ordered(self, name: str, slot: SlotSpec, n: int) -> None:
        """Records sorted by a field (a timeline by its minute): drawn, sorted, then recorded."""
        self.group_records(name, slot, n)
        records = self.values[name]
        order = sorted(range(n), key=lambda i: (records[i][slot.order_by], i))
        facts = {k: f for k, f in self.facts.items() if k.startswith(f"{name}.")}
        for key in facts:
            del self.facts[key]
        for new, old in enumerate(order):
            for field_name in slot.fields or {}:
                fact = facts[f"{name}.{old}.{field_name}"]
                key = f"{name}.{new}.{field_name}"
                self.facts[key] = fact.model_copy(update={"key": key})
        self.values[name] = [records[i] for i in order]

    def group_records(self, name: str, slot: SlotSpec, n: int) -> None:
        records: list[dict[str, Any]] = []
        for i in range(n):
            record: dict[str, Any] = {}
            for field_name, field in (slot.fields or {}).items():
                key = f"{name}.{i}.{field_name}"
                style_key = f"{name}.{field_name}"
                if field.derived:
                    try:
                        value = evaluate(field.derived, {**HELPERS, **self.values, "item": record}, sandboxed=True)
                    except TemplateError:
                        raise
                    except Exception as exc:
                        raise TemplateError(f"slot {name}.{field_name}: derived {field.derived!r} fails: "
                                            f"{type(exc).__name__}: {exc}") from None
                    if field.kind in NUMERIC_KINDS:
                        value = self.rounded(field, float(value))
                else:
                    if field.kind in ("category", "text", "narrative"):
                        pool = self.pool(style_key)
                        if not pool:
                            raise TemplateError(f"slot {style_key!r} ({field.kind}) has no pool of values in "
                                                f"{self.language}.yaml")
                        used = {r.get(field_name) for r in records}
                        fresh = [v for v in pool if v not in used] or pool  # records of a group differ
                        value = self.rng.choice(fresh)
                    else:
                        value = self.draw(style_key, field)
                self.put(key, style_key, field, value)
                record[field_name] = self.values.pop(key)
            records.append(record)
        self.values[name] = records


def make_config(genre: Genre, language: Language, doc_id: int, seed: int) -> Config:
    """One config of ``genre``: drawn again (a new sub-seed each time) until every constraint
    holds; after :data:`ATTEMPTS` draws, :class:`Unsatisfiable` names the constraint."""
    spec = genre.spec
    failed: dict[str, int] = {}
    for attempt in range(ATTEMPTS):
        draw = _Draw(genre, language, derive_seed(seed, "genre-draw", attempt))
        draw.run()
        broken = _first_broken(spec, draw.values)
        if broken is None and genre.fingerprint is not None and \
                any(genre.fingerprint.value_in(f.text) for k, f in draw.facts.items() if _drawn(spec, k)):
            broken = "no distinctive seed value"  # Faker drew a seed's name or code: draw again
        if broken is None:
            return _config(genre, language, doc_id, seed, draw)
        failed[broken] = failed.get(broken, 0) + 1
    worst = max(failed, key=failed.get)  # type: ignore[arg-type]
    raise Unsatisfiable(f"genre {spec.name}: constraint {worst} failed in all {ATTEMPTS} draws of a "
                        f"document in {language}; widen the ranges it compares or fix the constraint")


def _drawn(spec: GenreSpec, key: str) -> bool:
    """Whether a fact's value is drawn (Faker, numbers, codes) rather than taken from a pool:
    only a drawn value that equals a seed's is drawn again; a pool that holds one is the pack's
    own problem, which the leak lint reports."""
    parts = key.split(".")
    slot = spec.slots.get(parts[0])
    if slot is not None and slot.kind == "group" and len(parts) >= 3:
        slot = (slot.fields or {}).get(parts[2])
    return slot is not None and slot.kind not in ("category", "text", "narrative")


def _first_broken(spec: GenreSpec, values: dict[str, Any]) -> str | None:
    for constraint in spec.checks():
        needed = names_in(constraint.check) & set(spec.slots)
        if any(values.get(n) is None for n in needed):
            continue  # a constraint over an absent slot does not apply
        try:
            ok = evaluate(constraint.check, {**HELPERS, **values}, sandboxed=True)
        except TemplateError:
            raise
        except Exception as exc:
            raise TemplateError(f"constraint {constraint.check!r} fails to evaluate: {type(exc).__name__}: {exc}") \
                from None
        if not ok:
            return f"{constraint.name!r} ({constraint.check})" if constraint.name else repr(constraint.check)
    return None


def _config(genre: Genre, language: Language, doc_id: int, seed: int, draw: _Draw) -> Config:
    spec, text = genre.spec, genre.languages[language]
    entity_fact = draw.facts.get(spec.entity.slot)
    if entity_fact is None:
        raise TemplateError(f"genre {spec.name}: the entity slot {spec.entity.slot!r} is absent from a document; "
                            "give it presence 1")
    config = Config(doc_id=doc_id, domain=spec.name, language=language, entity=entity_fact.text, seed=seed,
                    facts=draw.facts)
    from dragonforge.templating import config_context

    context = config_context(config)
    anchor = render(text.anchor, context, sandboxed=True)
    extras: dict[str, Any] = {"anchor": anchor, "Anchor": anchor[:1].upper() + anchor[1:]}
    rng = random.Random(derive_seed(seed, "sections"))
    shown = []
    for section in spec.sections:
        if section.presence < 1:
            extras[f"show_{section.id}"] = rng.random() < section.presence
        if extras.get(f"show_{section.id}", True):
            shown.append(section.id)
    # one numbering style per document, numbers over the sections it has, and each section's title
    style = rng.choice(_NUMBERING[language])
    extras["heading"] = {sid: style(n) for n, sid in enumerate(shown, 1)}
    extras["section_title"] = {s.id: render(rng.choice(text.sections[s.id].titles), context, sandboxed=True)
                               for s in spec.sections}
    # the record of each group holding the largest value of each numeric field (multi-hop questions)
    for name, slot in spec.slots.items():
        if slot.kind != "group" or not draw.values.get(name):
            continue
        records = draw.values[name]
        for field_name, field in (slot.fields or {}).items():
            if field.kind in NUMERIC_KINDS and len(records) >= 2:
                numbers = [r[field_name] for r in records]
                top = max(range(len(numbers)), key=lambda i: numbers[i])
                if numbers.count(numbers[top]) == 1:
                    extras[f"top_{name}_{field_name}"] = top
    return config.model_copy(update={"extras": extras})
