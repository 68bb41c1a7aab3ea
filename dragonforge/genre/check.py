"""``dragonforge check-genre DIR``: lint a genre pack before a build.

Loads the pack (every problem of the files: one line with file, line and field), then per
language draws ``samples`` configs (every constraint solved), renders every unit of every
document, drafts questions over them, and says which question types will have no candidates
and why.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from dragonforge.errors import TemplateError
from dragonforge.genre.model import DATE_KINDS, NUMERIC_KINDS
from dragonforge.genre.pack import GenrePack, load_genre
from dragonforge.models import Language, QueryType

_ALL = {t.short: 1.0 for t in QueryType}


@dataclass
class CheckReport:
    pack: GenrePack
    samples: int
    problems: list[str] = field(default_factory=list)
    questions: dict[str, Counter] = field(default_factory=dict)  # language -> type -> questions drafted
    why_none: dict[str, str] = field(default_factory=dict)  # type -> why the pack gives no such question
    leak: dict[str, dict] = field(default_factory=dict)  # language -> the leak lint's summary

    def lines(self) -> list[str]:
        spec = self.pack.definition.spec
        out = [f"genre pack {spec.name} ({self.pack.folder}): label {spec.label!r}, entity field "
               f"{spec.entity.field!r}, {len(spec.slots)} slots, {len(spec.sections)} sections, "
               f"languages {', '.join(self.pack.languages)}"]
        for language, counts in self.questions.items():
            drafted = ", ".join(f"{t.short} {counts.get(t.short, 0)}" for t in QueryType)
            out.append(f"{language}: {self.samples} documents drawn and rendered; questions drafted over them: {drafted}")
        for language, summary in self.leak.items():
            out.append(f"{language}: leak lint against the seeds' fingerprint: {summary['documents']} documents, "
                       f"{summary['problems']} problem(s), closest to a seed {summary['max_similarity_to_a_seed']:.3f} "
                       f"(limit {summary['close_threshold']})")
        for qtype, reason in self.why_none.items():
            out.append(f"no {qtype} questions: {reason}")
        out += [f"problem: {p}" for p in self.problems]
        out.append("ok" if not self.problems else f"{len(self.problems)} problem(s)")
        return out


def why_no_candidates(pack: GenrePack) -> dict[str, str]:
    """Question types the pack cannot give at all, and why (by what its slots are)."""
    spec = pack.definition.spec
    kinds = {name: slot.kind for name, slot in spec.slots.items()}
    asked = {k for k in kinds if k not in set(spec.questions.exclude) | {spec.entity.slot}}
    reasons: dict[str, str] = {}
    numeric = [k for k in asked if kinds[k] in NUMERIC_KINDS]
    if spec.questions.comparable == [] or not (spec.questions.comparable or numeric):
        reasons["comparison"] = "no numeric slot (money, count, percent, quantity, duration) to compare across documents"
    dates = [k for k in asked if kinds[k] in DATE_KINDS]
    if spec.questions.ordered == [] or not (spec.questions.ordered or dates):
        reasons["time_sequence"] = "no date or datetime slot to order across documents"
    groups = [s for s in spec.slots.values() if s.kind == "group"]
    bridges = spec.questions.bridges if spec.questions.bridges is not None else [k for k in asked if kinds[k] == "code"]
    derived = [k for k in asked if spec.slots[k].derived and kinds[k] in NUMERIC_KINDS]
    if not bridges and not derived and not any(
            any(f.kind in NUMERIC_KINDS for f in (g.fields or {}).values()) for g in groups):
        reasons["multi_hop"] = ("no code slot to lead from one fact to another, no derived amount and no group "
                                "with a numeric field")
    if not any(lang.withheld for lang in pack.definition.languages.values()):
        reasons["unanswerable"] = "no withheld facts (`withheld:` in the language files)"
    if not any(len([k for k in s.slots if k in asked]) >= 2 or s.group for s in spec.sections):
        reasons["summary"] = "no section states two or more facts a question may ask about"
    return reasons


def check_genre(folder: Path, samples: int = 200) -> CheckReport:
    return check_pack(load_genre(folder), samples)


def check_pack(pack: GenrePack, samples: int, languages: list[Language] | None = None) -> CheckReport:
    """Draw ``samples`` documents per language, render them and draft questions over them;
    every problem found, once each."""
    from dragonforge.documents import write_document
    from dragonforge.qra import generate_qra

    report = CheckReport(pack=pack, samples=samples, why_none=why_no_candidates(pack))
    seen: set[str] = set()

    def problem(text: str) -> None:
        if text not in seen:
            seen.add(text)
            report.problems.append(text)

    for language in languages or pack.languages:
        try:
            template = pack.document_template(language)
            qra_templates = pack.qra_templates(language)
        except TemplateError as exc:
            problem(f"{language}: {exc}")
            continue
        configs, documents = [], []
        for i in range(samples):
            try:
                config = pack.make_config(language, i, 7919 * (i + 1))
                documents.append(write_document(config, 0, template))
                configs.append(config)
            except TemplateError as exc:  # the same problem in many documents is listed once
                problem(f"{language}: {exc}")
        if not configs:
            continue
        try:
            drafts, _ = generate_qra(configs, documents, 20 * len(_ALL), _ALL, 0, qra_templates)
        except TemplateError as exc:
            problem(f"{language}: questions: {exc}")
            continue
        report.questions[language] = Counter(d.query_type.short for d in drafts)
        fingerprint = pack.definition.fingerprint
        if fingerprint is not None and fingerprint.language == language:
            from dragonforge.induce.leak import lint

            result = lint([(str(i), d.content) for i, d in enumerate(documents)], fingerprint)
            report.leak[language] = result.summary()
            if result.problems:
                problem(f"{language}: leak lint: {len(result.problems)} problem(s) in {len(documents)} drawn documents, "
                        f"first: {result.problems[0]}")
            for where, text in _written_texts(pack, language):
                if fingerprint.value_in(text):
                    problem(f"{language}: leak lint: {where} holds a distinctive seed value")
    return report


def _written_texts(pack, language: str):
    """Every text of the language file a document may print as written (pools, titles, labels)."""
    text = pack.definition.languages[language]
    for i, title in enumerate(text.titles):
        yield f"{language}.yaml titles[{i}]", title
    for sid, section in text.sections.items():
        for i, title in enumerate(section.titles):
            yield f"{language}.yaml sections.{sid}.titles[{i}]", title
    for key, slot in text.slots.items():
        for i, value in enumerate(slot.pool):
            yield f"{language}.yaml slots.{key}.pool[{i}]", value
        for i, label in enumerate(slot.labels):
            yield f"{language}.yaml slots.{key}.labels[{i}]", label
