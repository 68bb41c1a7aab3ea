"""Which domains a build can write: one interface for every domain, and the registry of them.

A *pack* supplies everything the pipeline needs to know about a domain: its key (what
``--domains`` and ``Config.domain`` use), its label (the documents' DRAGONBall ``domain``
value), the DRAGONBall field naming each document's entity, the genre's name per language,
a description per slot (for prompts), ``make_config``, its document and QRA templates per
language, and its schema. The three curated domains are registered packs; installed plugins
add theirs through the ``dragonforge.packs`` entry point group (each entry point loads a
:class:`Pack` or a callable returning one).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import cache
from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from dragonforge.errors import InputError

if TYPE_CHECKING:
    from dragonforge.documents import DocumentTemplate
    from dragonforge.models import Config, DomainSchema, Language
    from dragonforge.qra import QRATemplateSet

ENTRY_POINT_GROUP = "dragonforge.packs"
_KEY = re.compile(r"^[a-z][a-z0-9_]{0,39}$")


@runtime_checkable
class Pack(Protocol):
    """What a domain supplies. ``name`` is lower-case ``[a-z0-9_]``; ``label`` is the value of
    the documents' ``domain`` field; ``entity_field`` names the DRAGONBall field that holds the
    document's entity (a company, a court, a patient, a policyholder)."""

    if TYPE_CHECKING:
        # Read-only to the type checker, so that a frozen dataclass (CuratedPack) or a narrower
        # tuple (a genre pack's languages) implements them; plain attributes at run time, which
        # a class that subclasses Pack may still assign.
        @property
        def name(self) -> str: ...

        @property
        def label(self) -> str: ...

        @property
        def entity_field(self) -> str: ...

        @property
        def languages(self) -> tuple[str, ...]: ...
    else:
        name: str
        label: str
        entity_field: str
        languages: tuple[str, ...]

    def genre(self, language: str) -> str: ...

    def slot_description(self, key: str, language: str) -> str: ...

    def make_config(self, language: Language, doc_id: int, seed: int) -> Config: ...

    def document_template(self, language: str) -> DocumentTemplate: ...

    def qra_templates(self, language: str) -> QRATemplateSet: ...

    def schema(self, language: Language) -> DomainSchema: ...

    def content_hash(self) -> str: ...


@dataclass(frozen=True)
class CuratedPack:
    """A domain written in Python (``dragonforge.domains.<name>``) with hand-written templates."""

    name: str
    label: str
    entity_field: str
    genres: dict[str, str] = field(hash=False, compare=False)
    languages: tuple[str, ...] = ("en", "zh")
    source: str = "builtin"

    def genre(self, language: str) -> str:
        return self.genres.get(language, self.name)

    def slot_description(self, key: str, language: str) -> str:
        name = re.sub(r"\.\d+(?=\.|$)", "[]", key)
        try:
            schema = self.schema(language)
        except InputError:
            return key
        for section in schema.sections:
            for slot in section.slots:
                if slot.name == name:
                    return slot.description or key
        return key

    def make_config(self, language: str, doc_id: int, seed: int) -> Config:
        return import_module(f"dragonforge.domains.{self.name}").make_config(doc_id=doc_id, language=language, seed=seed)

    def document_template(self, language: str) -> DocumentTemplate:
        from dragonforge.documents import load_document_template

        return load_document_template(self.name, language)

    def qra_templates(self, language: str) -> QRATemplateSet:
        from dragonforge.qra import load_qra_templates

        return load_qra_templates(self.name, language)

    def schema(self, language: str) -> DomainSchema:
        from dragonforge.schemas import load_builtin_schema

        return load_builtin_schema(self.name, language)

    def content_hash(self) -> str:
        # the curated packs are part of the code: the manifest's code_version and
        # template_hashes already cover them; this names the files that make them up
        from dragonforge.resources import file_hash, resource_dir

        digest = hashlib.sha256()
        for folder in ("templates/documents", "templates/qra", "schemas"):
            root, _, sub = folder.partition("/")
            for language in self.languages:
                path = resource_dir(root) / sub / f"{self.name}.{language}.yaml"
                digest.update(f"{folder}/{path.name}:{file_hash(path)}\n".encode())
        module = import_module(f"dragonforge.domains.{self.name}")
        assert module.__file__ is not None  # a module file of the package
        digest.update(Path(module.__file__).read_bytes())
        return digest.hexdigest()


CURATED: tuple[CuratedPack, ...] = (
    CuratedPack("finance", "Finance", "company_name",
                {"en": "company annual report", "zh": "上市公司年度报告"}),
    CuratedPack("law", "Law", "court_name",
                {"en": "criminal judgment of a people's court", "zh": "刑事判决书"}),
    CuratedPack("medical", "Medical", "hospital_patient_name",
                {"en": "inpatient medical record", "zh": "住院病历"}),
)


class Registry:
    """Packs by key, in registration order: the curated ones first, then plugins, then the
    packs a command loaded from a folder (``--genre DIR``)."""

    def __init__(self) -> None:
        self._packs: dict[str, Pack] = {}
        self._plugins_loaded = False
        self._folders: dict[str, str] = {}  # genre pack folders loaded in this process -> their pack

    def load_folder(self, folder: str | Path) -> Pack:
        """Load (once) and register the genre pack in ``folder`` (``--genre DIR``)."""
        path = str(Path(folder).resolve())
        if path in self._folders:
            return self._packs[self._folders[path]]
        from dragonforge.genre.pack import load_genre

        self._load_plugins()
        pack = self.register(load_genre(Path(path)))
        self._folders[path] = pack.name
        return pack

    def folders(self) -> tuple[str, ...]:
        """The genre pack folders loaded in this process: worker processes load the same."""
        return tuple(self._folders)

    def ensure_folders(self, folders: tuple[str, ...]) -> None:
        for folder in folders:
            self.load_folder(folder)

    def register(self, pack: Pack) -> Pack:
        if not _KEY.match(pack.name):
            raise InputError(f"pack name {pack.name!r}: use lower-case letters, digits and _ (at most 40), "
                             "starting with a letter")
        known = self._packs.get(pack.name)
        if known is not None and known is not pack:
            if known.content_hash() == pack.content_hash():
                return known
            raise InputError(f"two different packs are named {pack.name!r}; rename one (its `name:`)")
        for other in self._packs.values():
            if other.name != pack.name and other.label == pack.label:
                raise InputError(f"packs {other.name!r} and {pack.name!r} both use the label {pack.label!r}; "
                                 "a benchmark's documents are told apart by it")
        self._packs[pack.name] = pack
        return pack

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        from importlib.metadata import entry_points

        for entry in entry_points(group=ENTRY_POINT_GROUP):
            try:
                loaded = entry.load()
                pack = loaded() if callable(loaded) and not isinstance(loaded, Pack) else loaded
            except Exception as exc:  # a broken plugin is named, never a traceback
                raise InputError(f"the installed pack {entry.name!r} ({entry.value}) does not load: "
                                 f"{type(exc).__name__}: {exc}") from None
            if not isinstance(pack, Pack):
                raise InputError(f"the installed pack {entry.name!r} ({entry.value}) is not a dragonforge pack")
            self.register(pack)

    def get(self, name: str) -> Pack:
        self._load_plugins()
        try:
            return self._packs[name]
        except KeyError:
            raise InputError(f"unknown domain {name!r}; known: {', '.join(self.names())} "
                             "(a genre pack folder is given with --genre DIR)") from None

    def names(self) -> list[str]:
        self._load_plugins()
        return list(self._packs)

    def by_label(self, label: str) -> Pack | None:
        self._load_plugins()
        return next((p for p in self._packs.values() if p.label == label), None)


@cache
def registry() -> Registry:
    reg = Registry()
    for pack in CURATED:
        reg.register(pack)
    return reg


def get_pack(name: str) -> Pack:
    return registry().get(name)


def curated_names() -> tuple[str, ...]:
    return tuple(p.name for p in CURATED)
