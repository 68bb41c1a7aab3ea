"""Loading a genre pack folder: YAML read with line numbers, pydantic models, and the checks
between files (every slot a section names exists, every slot is stated by some unit, every
template compiles in the sandbox, no cycle among derived slots). Every problem is one line
naming the file, the line and the field.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import jinja2
import yaml
from jinja2 import nodes
from pydantic import ValidationError

from dragonforge.errors import InputError, TemplateError
from dragonforge.files import read_text_file
from dragonforge.genre.interpret import _FACT_KIND, Genre, make_config, names_in, slot_order
from dragonforge.genre.model import ITEM_FIELD, NAME, GenreSpec, LanguageSpec
from dragonforge.induce.leak import FILE as LEAK_FILE
from dragonforge.induce.leak import load as load_fingerprint
from dragonforge.models import LANGUAGES, Config, DomainSchema, Language, SectionSpec, SlotSpec, ValueKind
from dragonforge.templating import _SANDBOX, SafeLoader, compile_expression, compile_template

GENRE_FILE = "genre.yaml"
MAX_FILE_BYTES = 2 * 1024 * 1024


class PackError(InputError):
    """A genre pack that cannot be used; the message names the file, line and field."""


def _read(path: Path) -> tuple[Any, yaml.Node | None]:
    try:
        text = read_text_file(path, MAX_FILE_BYTES, "genre pack file", "a genre file is a short description")
    except InputError as exc:
        raise PackError(str(exc)) from None
    try:
        node = yaml.compose(text, Loader=SafeLoader)  # noqa: S506 (a safe loader)
        data = yaml.load(text, Loader=SafeLoader)  # noqa: S506
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f":{mark.line + 1}" if mark is not None else ""
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise PackError(f"{path}{where}: broken YAML: {problem}") from None
    return data, node


def _line(node: yaml.Node | None, loc: tuple[Any, ...]) -> int | None:
    """The line (1-based) of the value at ``loc`` in a composed YAML document, as deep as it goes."""
    line = node.start_mark.line + 1 if node is not None else None
    for part in loc:
        if isinstance(node, yaml.MappingNode):
            found = next((v for k, v in node.value if getattr(k, "value", None) == str(part)), None)
            if found is None:
                found = next((k for k, _ in node.value if getattr(k, "value", None) == str(part)), None)
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            found = node.value[part]
        else:
            found = None
        if found is None:
            break
        node = found
        line = node.start_mark.line + 1
    return line


def _where(path: Path, node: yaml.Node | None, loc: tuple[Any, ...]) -> str:
    line = _line(node, loc)
    field = ".".join(str(p) for p in loc if not (isinstance(p, str) and p.startswith(("function-", "tagged-"))))
    return f"{path}{f':{line}' if line else ''}" + (f" ({field})" if field else "")


def _validate(model, data: Any, path: Path, node: yaml.Node | None):
    try:
        return model.model_validate(data if data is not None else {})
    except ValidationError as exc:
        err = exc.errors()[0]
        loc = tuple(p for p in err["loc"] if not (isinstance(p, str) and "[" in p))
        message = err["msg"].removeprefix("Value error, ")
        raise PackError(f"{_where(path, node, loc)}: {message}") from None


@dataclass
class _Located:
    path: Path
    node: yaml.Node | None

    def at(self, *loc: Any) -> str:
        return _where(self.path, self.node, loc)


def load_genre(folder: Path) -> GenrePack:
    """A genre pack from ``folder`` (``genre.yaml`` plus ``en.yaml`` and/or ``zh.yaml``)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise PackError(f"--genre {folder}: not a folder (a genre pack is a folder holding {GENRE_FILE})")
    genre_path = folder / GENRE_FILE
    if not genre_path.is_file():
        raise PackError(f"{folder}: no {GENRE_FILE} (a genre pack is a folder holding {GENRE_FILE} and en.yaml / zh.yaml)")
    data, node = _read(genre_path)
    spec: GenreSpec = _validate(GenreSpec, data, genre_path, node)
    g = _Located(genre_path, node)
    languages: dict[str, LanguageSpec] = {}
    located: dict[str, _Located] = {}
    for lang in LANGUAGES:
        path = folder / f"{lang}.yaml"
        if path.is_file():
            ldata, lnode = _read(path)
            languages[lang] = _validate(LanguageSpec, ldata, path, lnode)
            located[lang] = _Located(path, lnode)
    if not languages:
        raise PackError(f"{folder}: no en.yaml or zh.yaml (one file per language the pack writes)")
    _check_genre_file(spec, g)
    for language, text in languages.items():
        _check_language_file(spec, text, located[language], language)
    fingerprint = None
    leak_path = folder / LEAK_FILE
    if leak_path.is_file():
        try:
            fingerprint = load_fingerprint(folder)
        except (ValueError, KeyError, TypeError) as exc:
            raise PackError(f"{leak_path}: not a seed fingerprint written by `dragonforge induce` ({exc})") from None
    content = hashlib.sha256()
    paths = [genre_path] + [folder / f"{lang}.yaml" for lang in languages] + ([leak_path] if fingerprint else [])
    for path in sorted(paths):
        content.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return GenrePack(Genre(spec, languages, fingerprint), folder.resolve(), content.hexdigest())


def _check_genre_file(spec: GenreSpec, g: _Located) -> None:
    slots = spec.slots
    for name in slots:
        if not NAME.match(name):
            raise PackError(f"{g.at('slots', name)}: slot name {name!r}: use lower-case letters, digits and _")
    if spec.entity.slot not in slots:
        raise PackError(f"{g.at('entity', 'slot')}: {spec.entity.slot!r} is no slot of the genre")
    if slots[spec.entity.slot].kind not in ("person", "organisation", "party", "place", "code", "text", "category"):
        raise PackError(f"{g.at('entity', 'slot')}: the entity is a name (person, organisation, party, place, code), "
                        f"not a {slots[spec.entity.slot].kind}")
    if slots[spec.entity.slot].presence < 1 or slots[spec.entity.slot].derived:
        raise PackError(f"{g.at('entity', 'slot')}: the entity slot is drawn in every document (presence 1, not derived)")
    seen_sections: set[str] = set()
    for i, section in enumerate(spec.sections):
        if section.id in seen_sections:
            raise PackError(f"{g.at('sections', i, 'id')}: section {section.id!r} appears twice")
        seen_sections.add(section.id)
        for field in ("slots", "after"):
            for j, key in enumerate(getattr(section, field)):
                if key not in slots:
                    raise PackError(f"{g.at('sections', i, field, j)}: {key!r} is no slot of the genre")
                if slots[key].kind == "group":
                    raise PackError(f"{g.at('sections', i, field, j)}: {key!r} is a group; give it a section "
                                    "with layout items, timeline or list")
        if section.group is not None:
            if section.group not in slots or slots[section.group].kind != "group":
                raise PackError(f"{g.at('sections', i, 'group')}: {section.group!r} is no group slot of the genre")
    stated = {k for s in spec.sections for k in s.slots + s.after + ([s.group] if s.group else [])}
    for name in slots:
        if name not in stated:
            raise PackError(f"{g.at('slots', name)}: slot {name!r} is stated by no section "
                            "(every fact of a document is written somewhere, or references could not point to it)")
    for name, slot in slots.items():
        for what, expression in (("derived", slot.derived),):
            if expression:
                _compiles_expression(expression, g.at("slots", name, what))
                for ref in names_in(expression):
                    if ref not in slots:
                        raise PackError(f"{g.at('slots', name, what)}: {ref!r} is no slot of the genre")
        if slot.after and slot.after.slot not in slots:
            raise PackError(f"{g.at('slots', name, 'after', 'slot')}: {slot.after.slot!r} is no slot of the genre")
    try:
        slot_order(spec)
    except TemplateError as exc:
        raise PackError(f"{g.at('slots')}: {exc}") from None
    for i, constraint in enumerate(spec.checks()):
        _compiles_expression(constraint.check, g.at("constraints", i))
        for ref in names_in(constraint.check):
            if ref not in slots:
                raise PackError(f"{g.at('constraints', i)}: {ref!r} is no slot of the genre")
    q = spec.questions
    for field in ("comparable", "ordered", "bridges", "exclude"):
        for j, key in enumerate(getattr(q, field) or []):
            if key not in slots:
                raise PackError(f"{g.at('questions', field, j)}: {key!r} is no slot of the genre")


def _check_language_file(spec: GenreSpec, text: LanguageSpec, where: _Located, language: str) -> None:
    for section in spec.sections:
        if section.id not in text.sections:
            raise PackError(f"{where.at('sections')}: section {section.id!r} has no titles")
    for section_id in text.sections:
        if section_id not in {s.id for s in spec.sections}:
            raise PackError(f"{where.at('sections', section_id)}: {section_id!r} is no section of genre.yaml")
    known = set(spec.slots) | {f"{g}.{f}" for g, s in spec.slots.items() for f in (s.fields or {})}
    for key in text.slots:
        if key not in known:
            raise PackError(f"{where.at('slots', key)}: {key!r} is no slot of genre.yaml (group fields as group.field)")

    def needs_pool(key: str, kind: str) -> None:
        if kind in ("category", "text", "narrative"):
            entry = text.slots.get(key)
            if entry is None or not entry.pool:
                raise PackError(f"{where.at('slots', key)}: {key!r} is a {kind}; give it a pool of values")

    for name, slot in spec.slots.items():
        if not slot.derived:
            needs_pool(name, slot.kind)
        for field_name, field in (slot.fields or {}).items():
            if not field.derived:
                needs_pool(f"{name}.{field_name}", field.kind)
        for unit in [slot.unit] + [f.unit for f in (slot.fields or {}).values()]:
            if unit and unit not in text.units:
                raise PackError(f"{where.at('units')}: unit {unit!r} (slot {name}) has no words")
    labelled = [k for s in spec.sections for k in s.slots + s.after if spec.slots[k].kind != "narrative"]
    labelled += [f"{g}.{f}" for g, s in spec.slots.items() for f in (s.fields or {})]
    for key in labelled:
        entry = text.slots.get(key)
        if entry is None or not entry.labels:
            raise PackError(f"{where.at('slots', key)}: {key!r} has no labels in {language} (documents and "
                            "questions name it by them)")
    for i, title in enumerate(text.titles):
        _compiles_template(title, where.at("titles", i))
    _compiles_template(text.anchor, where.at("anchor"))
    for section_id, section_text in text.sections.items():
        for i, title in enumerate(section_text.titles):
            _compiles_template(title, where.at("sections", section_id, "titles", i))
    for key, entry in text.slots.items():
        if entry.line:
            _compiles_template(entry.line, where.at("slots", key, "line"))
            stated = set(ITEM_FIELD.findall(entry.line))
            unstated = [f for f in (spec.slots[key].fields or {}) if f not in stated]
            if unstated:
                raise PackError(f"{where.at('slots', key, 'line')}: the record line states no {key}.{unstated[0]} "
                                "(every field of a record is written, or references could not point to it)")
    for kind, frames in text.frames.items():
        for i, frame in enumerate(frames):
            if "{value}" not in frame:
                raise PackError(f"{where.at('frames', kind, i)}: a frame writes {{value}}")


def _no_private_access(source: str, where: str, expression: bool = False) -> None:
    """A template that reaches for an attribute starting with ``_`` (``x.__class__``) is refused
    when the pack loads, with its location; the sandbox would refuse it at render time anyway."""
    try:
        tree = _SANDBOX.parse("{{ " + source + " }}" if expression else source)
    except jinja2.TemplateSyntaxError:
        return  # reported by the compile step
    for node in tree.find_all((nodes.Getattr, nodes.Getitem)):
        if isinstance(node, nodes.Getattr):
            name = node.attr
        elif isinstance(node, nodes.Getitem) and isinstance(node.arg, nodes.Const) and isinstance(node.arg.value, str):
            name = node.arg.value
        else:
            name = ""
        if name.startswith("_"):
            raise PackError(f"{where}: unsafe attribute {name!r}: a pack's templates render in Jinja2's sandbox, "
                            "which refuses attributes starting with _")


def _compiles_template(source: str, where: str) -> None:
    try:
        compile_template(source, sandboxed=True)
    except TemplateError as exc:
        raise PackError(f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    _no_private_access(source, where)


def _compiles_expression(source: str, where: str) -> None:
    _no_private_access(source, where, expression=True)
    try:
        compile_expression(source, sandboxed=True)
    except TemplateError as exc:
        raise PackError(f"{where}: {str(exc).split(': ', 1)[-1]}") from None
    except jinja2.TemplateError as exc:
        raise PackError(f"{where}: {exc}") from None


class GenrePack:
    """A genre pack behind the registry's interface: the generic interpreter and compilers."""

    def __init__(self, genre: Genre, folder: Path, content_sha256: str):
        self.definition = genre
        self.folder = folder
        self._hash = content_sha256
        spec = genre.spec
        self.name = spec.name
        self.label = spec.label
        self.entity_field = spec.entity.field
        self.languages = tuple(lang for lang in LANGUAGES if lang in genre.languages)
        self.source = str(folder)

    def genre(self, language: str) -> str:
        return self.genre_spec_text(language).genre

    def genre_spec_text(self, language: str) -> LanguageSpec:
        try:
            return self.definition.languages[language]
        except KeyError:
            raise InputError(f"genre pack {self.name} ({self.folder}) has no {language}.yaml; "
                             f"it writes {', '.join(self.languages)}") from None

    def slot_description(self, key: str, language: str) -> str:
        parts = key.split(".")
        name = parts[0] if len(parts) < 3 else f"{parts[0]}.{parts[2]}"
        if parts[0] in self.definition.spec.slots and self.definition.spec.slots[parts[0]].kind == "date_range":
            name = parts[0]
        entry = self.genre_spec_text(language).slots.get(re.sub(r"\.\d+", "", name))
        if entry is None:
            return key
        return entry.description or (entry.labels[0] if entry.labels else key)

    def make_config(self, language: Language, doc_id: int, seed: int) -> Config:
        self.genre_spec_text(language)
        return make_config(self.definition, language, doc_id, seed)

    def document_template(self, language: str):
        self.genre_spec_text(language)
        return self._templates[language][0]

    def qra_templates(self, language: str):
        self.genre_spec_text(language)
        return self._templates[language][1]

    @cached_property
    def _templates(self) -> dict[str, tuple[Any, Any]]:
        from dragonforge.genre.compile import document_template, qra_templates

        return {lang: (document_template(self.definition, lang), qra_templates(self.definition, lang)) for lang in self.languages}

    def schema(self, language: Language) -> DomainSchema:
        spec, text = self.definition.spec, self.genre_spec_text(language)
        sections = []
        for section in spec.sections:
            keys = section.slots + section.after
            slot_specs = [SlotSpec(name=k, kind=_schema_kind(spec.slots[k].kind),
                                   description=self.slot_description(k, language)) for k in keys]
            if section.group:
                for field_name, field in (spec.slots[section.group].fields or {}).items():
                    slot_specs.append(SlotSpec(name=f"{section.group}[].{field_name}", kind=_schema_kind(field.kind),
                                               description=self.slot_description(f"{section.group}.0.{field_name}",
                                                                                 language)))
            sections.append(SectionSpec(name=section.id, title=text.sections[section.id].titles[0], slots=slot_specs))
        return DomainSchema(domain=spec.name, language=language, genre=text.genre, source=str(self.folder),
                            sections=sections)

    def content_hash(self) -> str:
        return self._hash

    def preflight(self, languages: list[Language], samples: int = 4) -> None:
        """Draw a few documents and questions per language before a build touches ``--out``:
        a constraint no draw satisfies, a template the sandbox refuses or a value a unit does not
        state fails here, in one line naming the pack."""
        from dragonforge.genre.check import check_pack

        report = check_pack(self, samples, languages)
        if report.problems:
            raise PackError(f"genre pack {self.folder}: {report.problems[0]}")

def _schema_kind(kind: str) -> ValueKind:
    if kind == "party":
        return "person"
    if kind == "date_range":
        return "date"
    return _FACT_KIND.get(kind, "text")
