"""The genre pack format: a folder with ``genre.yaml`` (what a document of the genre holds,
language-neutral) and one ``<language>.yaml`` per language (how it is written).

Validated by these pydantic models; :func:`dragonforge.genre.pack.load_genre` reports the
first problem as one line naming the file, the line and the field.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SLOT_KINDS = (
    # today's nine
    "date", "money", "percent", "count", "person", "organisation", "place", "category", "text",
    # added for packs
    "party", "address", "code", "datetime", "date_range", "duration", "quantity", "narrative", "group", "time",
)
SlotKind = Literal[
    "date", "money", "percent", "count", "person", "organisation", "place", "category", "text",
    "party", "address", "code", "datetime", "date_range", "duration", "quantity", "narrative", "group", "time",
]
NUMERIC_KINDS = {"money", "percent", "count", "quantity", "duration"}
DATE_KINDS = {"date", "datetime"}
NAME = re.compile(r"^[a-z][a-z0-9_]{0,39}$")
ITEM_FIELD = re.compile(r"\bitem\.([a-z][a-z0-9_]*)")  # a record line's ``item.<field>``


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class After(_Strict):
    """A date drawn ``days`` (inclusive range) after another date slot."""

    slot: str
    days: tuple[int, int] = (0, 30)

    @model_validator(mode="after")
    def _order(self) -> After:
        if self.days[0] > self.days[1]:
            raise ValueError(f"days {list(self.days)}: the first bound is above the second")
        return self


class SlotSpec(_Strict):
    """One slot of the genre: its kind and how its values are drawn (or derived)."""

    kind: SlotKind
    # dates
    window: tuple[dt.date, dt.date] | None = None
    after: After | None = None
    # numbers: money, count, percent, quantity, duration
    range: tuple[float, float] | None = None  # time: minutes after midnight
    scale: Literal["linear", "log"] = "linear"
    round: float | None = None  # a multiple to round to (money 250, count 1)
    decimals: int | None = Field(default=None, ge=0, le=4)
    unit: str | None = None  # quantity / duration: the unit's key in the language file's units
    # party: person or organisation
    mix: dict[Literal["person", "organisation"], float] | None = None
    # code: Faker's bothify pattern (# a digit, ? a letter), {year:SLOT} the year of a date slot
    pattern: str | None = None
    # category: closed (only the pool) or open; the pool itself is per language
    closed: bool = True
    # group: how many records, and their fields
    count: tuple[int, int] | None = None
    fields: dict[str, SlotSpec] | None = None
    order_by: str | None = None  # group: records in ascending order of this field (a timeline)
    # derived: a Jinja2 expression over other slots' values (sandboxed)
    derived: str | None = None
    # chance that a document has this slot at all (1: always)
    presence: float = Field(default=1.0, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _fits_kind(self) -> SlotSpec:
        kind = self.kind
        if self.window and self.window[0] > self.window[1]:
            raise ValueError("window: the start is after the end")
        if self.range and self.range[0] > self.range[1]:
            raise ValueError("range: the low bound is above the high one")
        if kind == "group":
            if not self.fields:
                raise ValueError("a group needs fields")
            if self.derived:
                raise ValueError("a group cannot be derived")
            if self.presence < 1:
                raise ValueError("a group is always present (give its section a presence instead)")
            if self.order_by and self.order_by not in self.fields:
                raise ValueError(f"order_by {self.order_by!r} is no field of the group")
            for name, spec in self.fields.items():
                if not NAME.match(name):
                    raise ValueError(f"field name {name!r}: use lower-case letters, digits and _")
                if spec.kind == "group":
                    raise ValueError(f"field {name!r}: groups do not nest")
        elif self.fields or self.count:
            raise ValueError(f"fields and count belong to a group, not a {kind}")
        if kind == "code" and not self.pattern and not self.derived:
            raise ValueError("a code needs a pattern (# a digit, ? a letter)")
        if kind in NUMERIC_KINDS and not self.range and not self.derived:
            raise ValueError(f"a {kind} needs a range (or derived)")
        if kind in ("quantity", "duration") and not self.unit:
            raise ValueError(f"a {kind} needs a unit")
        if self.after is not None and kind not in DATE_KINDS:
            raise ValueError("after: only a date or datetime is drawn after another date")
        if self.scale == "log" and self.range and self.range[0] <= 0:
            raise ValueError("scale log needs a range above 0")
        return self


class SectionSpec(_Strict):
    """A section of the document: its id (titles are per language) and how it is laid out."""

    id: str
    layout: Literal["fields", "items", "timeline", "list", "prose"]
    slots: list[str] = Field(default_factory=list)  # fields / prose: the slots it states, in order
    group: str | None = None  # items / timeline / list: the group whose records it lists
    after: list[str] = Field(default_factory=list)  # items: the total lines after the records
    presence: float = Field(default=1.0, ge=0.0, le=1.0)

    @model_validator(mode="after")
    def _layout(self) -> SectionSpec:
        if not NAME.match(self.id):
            raise ValueError(f"section id {self.id!r}: use lower-case letters, digits and _")
        if self.layout in ("items", "timeline", "list") and not self.group:
            raise ValueError(f"layout {self.layout} needs a group")
        if self.layout in ("fields", "prose") and not self.slots:
            raise ValueError(f"layout {self.layout} needs slots")
        return self


class EntitySpec(_Strict):
    """The slot that names a document's entity, and the DRAGONBall field holding it."""

    slot: str
    field: str

    @field_validator("field")
    @classmethod
    def _field(cls, v: str) -> str:
        if not NAME.match(v) or v in {"domain", "language", "doc_id", "content", "entity"}:
            raise ValueError(f"{v!r} is not a usable field name (lower-case, not a DRAGONBall field)")
        return v


class Constraint(_Strict):
    """A Jinja2 test over slot values that every document satisfies."""

    check: str
    name: str = ""


class Questions(_Strict):
    comparable: list[str] | None = None  # numeric slots compared across documents (default: all)
    ordered: list[str] | None = None  # date slots ordered across documents (default: all)
    bridges: list[str] | None = None  # slots whose value names one document (default: codes)
    exclude: list[str] = Field(default_factory=list)  # slots no question asks about


class GenreSpec(_Strict):
    """``genre.yaml``."""

    name: str
    label: str
    entity: EntitySpec
    slots: dict[str, SlotSpec]
    sections: list[SectionSpec]
    constraints: list[Annotated[Constraint, Field()] | str] = Field(default_factory=list)
    questions: Questions = Field(default_factory=Questions)

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        if not NAME.match(v):
            raise ValueError(f"{v!r}: use lower-case letters, digits and _ (at most 40), starting with a letter")
        return v

    @field_validator("label")
    @classmethod
    def _label(cls, v: str) -> str:
        if not v.strip() or len(v) > 60:
            raise ValueError("the label is the documents' domain value: 1 to 60 characters")
        return v

    def checks(self) -> list[Constraint]:
        return [c if isinstance(c, Constraint) else Constraint(check=c) for c in self.constraints]


class SlotText(_Strict):
    """How a slot is written in one language."""

    labels: list[str] = Field(default_factory=list)  # label aliases, the first one is the canonical
    description: str = ""
    pool: list[str] = Field(default_factory=list)  # category / narrative / text values
    style: str | None = None  # date: long, iso, numeric; money: scaled, plain
    line: str | None = None  # group: the line of one record (Jinja2, ``item.<field>``)
    wh: str | None = None  # the question word for a factual question (default by kind)


class SectionText(_Strict):
    titles: list[str]


class Withheld(_Strict):
    """A fact of the genre no document states: the unanswerable questions ask for it."""

    label: str
    terms: list[str] = Field(default_factory=list)


class LanguageSpec(_Strict):
    """``<language>.yaml``."""

    genre: str
    titles: list[str]
    anchor: str  # how a question names a document (Jinja2 over the slots)
    sections: dict[str, SectionText]
    slots: dict[str, SlotText] = Field(default_factory=dict)  # group fields as ``group.field``
    units: dict[str, str] = Field(default_factory=dict)  # quantity / duration unit keys -> words
    currency: str | None = None  # money: "$", "€", "元" ... (default $ in English, 元 in Chinese)
    withheld: list[Withheld] = Field(default_factory=list)
    frames: dict[str, list[str]] = Field(default_factory=dict)  # prose frames by kind, over the shipped ones

    @field_validator("titles")
    @classmethod
    def _titles(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("at least one title")
        return v
