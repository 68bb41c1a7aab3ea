"""Pydantic models for every artifact the pipeline reads or writes.

One source of truth: readers, writers, validators and (later) LLM structured-output
schemas all derive from these classes.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

Language = Literal["en", "zh"]
LANGUAGES: tuple[Language, ...] = ("en", "zh")
# The curated domains, built by default; every domain's label and entity field come from the
# registry (dragonforge.registry).
DOMAINS: tuple[str, ...] = ("finance", "law", "medical")
UNANSWERABLE_ANSWER: dict[str, str] = {"en": "Unable to answer", "zh": "无法回答"}

ValueKind = Literal[
    "date", "money", "percent", "count", "person", "organisation", "place", "category", "text"
]


class QueryType(str, Enum):
    """The seven question types, valued by their exact DRAGONBall labels."""

    FACTUAL = "Factual Question"
    MULTI_HOP = "Multi-hop Reasoning Question"
    SUMMARY = "Summary Question"
    INTEGRATION = "Multi-document Information Integration Question"
    COMPARISON = "Multi-document Comparison Question"
    TIME_SEQUENCE = "Multi-document Time Sequence Question"
    UNANSWERABLE = "Irrelevant Unsolvable Question"

    @property
    def short(self) -> str:
        return _SHORT_NAMES[self]

    @property
    def multi_document(self) -> bool:
        return self in (QueryType.INTEGRATION, QueryType.COMPARISON, QueryType.TIME_SEQUENCE)

    @classmethod
    def from_short(cls, name: str) -> QueryType:
        for qt, short in _SHORT_NAMES.items():
            if short == name:
                return qt
        raise ValueError(f"unknown question type {name!r}; expected one of {', '.join(_SHORT_NAMES.values())}")


_SHORT_NAMES: dict[QueryType, str] = {
    QueryType.FACTUAL: "factual",
    QueryType.MULTI_HOP: "multi_hop",
    QueryType.SUMMARY: "summary",
    QueryType.INTEGRATION: "integration",
    QueryType.COMPARISON: "comparison",
    QueryType.TIME_SEQUENCE: "time_sequence",
    QueryType.UNANSWERABLE: "unanswerable",
}

# DRAGONBall's published mix (method.md §1.4).
DEFAULT_QUESTION_MIX: dict[str, float] = {
    "integration": 0.2234,
    "factual": 0.1949,
    "multi_hop": 0.1615,
    "summary": 0.1740,
    "comparison": 0.1051,
    "time_sequence": 0.0715,
    "unanswerable": 0.0696,
}


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


# --- schema -----------------------------------------------------------------------------


class SlotSpec(_Model):
    """One typed fact slot of a domain schema. ``name`` uses ``[]`` for repeated groups."""

    name: str
    kind: ValueKind
    description: str = ""
    examples: list[str] = Field(default_factory=list)


class SectionSpec(_Model):
    name: str
    title: str
    description: str = ""
    slots: list[SlotSpec] = Field(default_factory=list)


class DomainSchema(_Model):
    domain: str
    language: Language
    genre: str
    description: str = ""
    source: str = "builtin"
    sections: list[SectionSpec]

    def slot_names(self) -> set[str]:
        return {slot.name for section in self.sections for slot in section.slots}


# --- config -----------------------------------------------------------------------------


class Fact(_Model):
    """One concrete fact of a config: how it is written and its canonical value.

    ``text`` is the exact surface form the document uses; ``value`` is language-neutral
    (ISO date, number, name) so judges can compare across formats.
    """

    key: str
    kind: ValueKind
    text: str
    value: str | int | float | None = None
    unit: str | None = None


class Config(_Model):
    """The ground truth of record for one virtual document."""

    doc_id: int
    domain: str
    language: Language
    entity: str  # company / court / patient name, for the DRAGONBall entity field
    seed: int
    facts: dict[str, Fact]
    extras: dict[str, Any] = Field(default_factory=dict)  # grammatical helpers, never facts

    def fact(self, key: str) -> Fact:
        try:
            return self.facts[key]
        except KeyError:
            raise KeyError(f"config {self.doc_id} has no fact {key!r}") from None


# --- document ---------------------------------------------------------------------------


class Sentence(_Model):
    text: str
    section: str
    facts: list[str] = Field(default_factory=list)  # config fact keys this sentence states


class Document(_Model):
    doc_id: int
    domain: str
    language: Language
    entity: str
    title: str
    content: str
    sentences: list[Sentence]
    headings: dict[str, str] = Field(default_factory=dict)  # section id -> heading, in order
    source: str | None = None  # a corpus document: its file, relative to the corpus folder

    def sentences_stating(self, key: str) -> list[int]:
        return [i for i, s in enumerate(self.sentences) if key in s.facts]


# --- QRA --------------------------------------------------------------------------------


class BoundFact(Fact):
    """A config fact tied to the document it belongs to."""

    doc_id: int


class Reference(_Model):
    doc_id: int
    sentence: int
    text: str


class Keypoint(_Model):
    text: str
    facts: list[BoundFact] = Field(default_factory=list)


class QRA(_Model):
    domain: str
    language: Language
    query_type: QueryType
    template: str
    question: str
    answer: str
    doc_ids: list[int]
    facts: list[BoundFact] = Field(default_factory=list)  # every fact the answer asserts
    references: list[Reference] = Field(default_factory=list)
    keypoints: list[Keypoint] = Field(default_factory=list)
    query_id: int | None = None


class Rejection(_Model):
    domain: str
    language: Language
    stage: str
    reason: str
    query_type: QueryType | None = None
    template: str | None = None
    question: str | None = None
    doc_ids: list[int] = Field(default_factory=list)
    detail: dict[str, Any] = Field(default_factory=dict)


# --- DRAGONBall records (method.md §2) ----------------------------------------------------


class _Open(BaseModel):
    # Extra fields may be added beside the contract's; none may be renamed.
    model_config = ConfigDict(extra="allow")


class DBDocument(_Open):
    domain: str = Field(min_length=1)  # the pack's label: Finance, Law, Medical, Insurance ...
    language: Language
    doc_id: StrictInt  # "7" is not an id: validate and evaluate read records by the same rules
    content: str


class DBQueryBody(_Open):
    query_id: StrictInt
    query_type: QueryType
    content: str


class KeypointFact(_Open):
    """One fact a keypoint states, as a build records it: which span of the keypoint is the value
    (``text``), its kind and, where it has one, its canonical value and unit."""

    doc_id: StrictInt | None = None
    key: str | None = None
    kind: str
    text: str
    value: str | int | float | None = None
    unit: str | None = None


class DBGroundTruth(_Open):
    doc_ids: list[StrictInt]
    content: str
    references: list[str]
    keypoints: list[str]
    # dragonforge's addition: per keypoint, the facts it states (absent from other benchmarks)
    keypoint_facts: list[list[KeypointFact]] | None = None


class DBPrediction(_Open):
    content: str = ""
    references: list[str] = Field(default_factory=list)


class DBQuery(_Open):
    domain: str = Field(min_length=1)
    language: Language
    query: DBQueryBody
    ground_truth: DBGroundTruth
    prediction: DBPrediction = Field(default_factory=DBPrediction)


# --- build ------------------------------------------------------------------------------


class LLMIdentity(_Model):
    """What about the model decides the output of an LLM build (not where it is served)."""

    model: str
    temperature: float = 0.0
    max_tokens: int = 1024
    seed: int | None = 0


class BuildParams(_Model):
    domains: list[str] = Field(default_factory=lambda: list(DOMAINS))
    languages: list[Language] = Field(default_factory=lambda: list(LANGUAGES))
    docs: int = 8
    queries_per_doc: int = 10
    seed: int = 0
    question_mix: dict[str, float] = Field(default_factory=lambda: dict(DEFAULT_QUESTION_MIX))
    engine: Literal["offline", "hybrid", "llm"] = "offline"
    llm: LLMIdentity | None = None
    # genre packs among the domains: name -> sha256 of the pack's files (a changed pack is a
    # different build; where the folder is does not matter)
    packs: dict[str, str] = Field(default_factory=dict)
    # a build over a folder of the user's documents: the sha256 of its files (names and bytes)
    corpus: str | None = None

    def fingerprint(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


class FileEntry(_Model):
    path: str
    sha256: str
    bytes: int
    records: int | None = None


class Manifest(_Model):
    format: str = "dragonforge-benchmark/1"
    params: BuildParams
    engine: str
    code_version: str
    template_hashes: dict[str, str]
    counts: dict[str, dict[str, dict[str, int]]]  # domain -> language -> type short name -> n
    documents: int
    queries: int
    rejected: int
    rejected_by_reason: dict[str, int]
    repairs: int = 0
    # Questions the mix asked for that the documents could not supply (e.g. multi-document
    # types with one document), by domain, language and type.
    shortfall: dict[str, dict[str, dict[str, int]]] = Field(default_factory=dict)
    timings: dict[str, float]
    # LLM engines: the endpoint (never the key), calls/tokens/cost/cache hits by stage and
    # model, and replies replaced by the rule-based result because they failed their checks.
    llm: dict[str, Any] | None = None
    llm_usage: dict[str, dict[str, Any]] = Field(default_factory=dict)
    fallbacks: dict[str, int] = Field(default_factory=dict)
    files: list[FileEntry]
    # domain key -> label, entity field, source (builtin, genre pack, plugin) and a pack's hash
    domains: dict[str, dict[str, str]] = Field(default_factory=dict)
    # the leak lint per genre pack: documents checked against its seeds' fingerprint, problems found
    leak: dict[str, dict[str, Any]] = Field(default_factory=dict)
    created_with: str = "dragonforge build"
