"""Stage 3: write each config as a document of its genre, section by section.

Document templates live in ``templates/documents/<domain>.<language>.yaml``. Each sentence
slot declares the config facts it states and offers several phrasings; the renderer picks
one with the document's seeded RNG and records the facts, so every sentence of the output
carries its provenance. A declared fact whose written text is missing from the rendered
sentence is a template bug and fails loudly.
"""

from __future__ import annotations

import random
from functools import cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from dragonforge.errors import TemplateError
from dragonforge.models import Config, Document, Sentence
from dragonforge.rng import rng_for
from dragonforge.templating import config_context, evaluate, load_template_model, render


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class SentenceTemplate(_Strict):
    variants: list[str]
    facts: list[str] = Field(default_factory=list)
    when: str | None = None
    # Chance that a fact-free sentence is left out, so documents do not all share filler.
    skip: float = 0.0

    @field_validator("variants")
    @classmethod
    def _non_empty(cls, v: list[str]) -> list[str]:
        if not v:
            raise ValueError("a sentence needs at least one variant")
        return v


class ParagraphTemplate(_Strict):
    sentences: list[SentenceTemplate]
    foreach: str | None = None  # name of a list in the template context
    when: str | None = None
    shuffle: bool = False  # sentences are independent and may come in any order


class SectionTemplate(_Strict):
    id: str
    titles: list[str]
    paragraphs: list[ParagraphTemplate]
    when: str | None = None
    # lines: a form's labelled lines, records, a timeline or a list, one unit per line; the LLM
    # engines keep them as the rules wrote them (they write prose, never a form's structure)
    layout: Literal["prose", "lines"] = "prose"


class DocumentTemplate(_Strict):
    domain: str
    language: str
    titles: list[str]
    sections: list[SectionTemplate]
    sandboxed: bool = False  # compiled from a genre pack: rendered in Jinja's sandbox
    # what seeds the choice of phrasings: the document's id (the curated domains, as always), or
    # its config's own seed, so that a genre pack's documents read the same whatever ids they get
    # (a pack built beside other domains gives the documents it gives alone)
    rng_by: Literal["doc_id", "config"] = "doc_id"


@cache
def load_document_template(domain: str, language: str) -> DocumentTemplate:
    return load_template_model("documents", domain, language, DocumentTemplate)


def write_document(config: Config, seed: int, template: DocumentTemplate | None = None) -> Document:
    """Render ``config`` into a document, recording which facts every sentence states."""
    if template is None:
        from dragonforge.registry import get_pack

        template = get_pack(config.domain).document_template(config.language)
    rng = rng_for(seed, "document", config.doc_id) if template.rng_by == "doc_id" else \
        rng_for("document", config.seed)
    context = config_context(config)
    joiner = "" if config.language == "zh" else " "

    sb = template.sandboxed
    title = render(rng.choice(template.titles), context, sb)
    sentences: list[Sentence] = []
    blocks: list[str] = [title]
    headings: dict[str, str] = {}
    for section in template.sections:
        if section.when and not evaluate(section.when, context, sb):
            continue
        heading = render(rng.choice(section.titles), context, sb)
        paragraphs: list[str] = []
        for paragraph in section.paragraphs:
            for scope in _scopes(paragraph, context, sb):
                rendered = _render_paragraph(paragraph, scope, config, section.id, rng, sb)
                if rendered:
                    sentences.extend(rendered)
                    paragraphs.append(joiner.join(s.text for s in rendered))
        if paragraphs:
            headings[section.id] = heading
            blocks.append(heading + "\n" + "\n".join(paragraphs))
    return Document(
        doc_id=config.doc_id,
        domain=config.domain,
        language=config.language,
        entity=config.entity,
        title=title,
        content="\n\n".join(blocks),
        sentences=sentences,
        headings=headings,
    )


def _scopes(paragraph: ParagraphTemplate, context: dict[str, Any], sb: bool = False):
    if paragraph.foreach is None:
        if paragraph.when is None or evaluate(paragraph.when, context, sb):
            yield context
        return
    items = context.get(paragraph.foreach)
    if not isinstance(items, list):
        raise TemplateError(f"foreach {paragraph.foreach!r} is not a list of the config")
    for i, item in enumerate(items):
        scope = {**context, "item": item, "i": i, "n": len(items),
                 "item_val": context["val"][paragraph.foreach][i]}
        if paragraph.when is None or evaluate(paragraph.when, scope, sb):
            yield scope


def _render_paragraph(
    paragraph: ParagraphTemplate, scope: dict[str, Any], config: Config, section: str,
    rng: random.Random, sb: bool = False,
) -> list[Sentence]:
    out: list[Sentence] = []
    for slot in paragraph.sentences:
        if slot.when and not evaluate(slot.when, scope, sb):
            continue
        if slot.skip and not slot.facts and rng.random() < slot.skip:
            continue
        text = render(rng.choice(slot.variants), scope, sb)
        if not text:
            continue
        keys = [key.format(i=scope.get("i")) for key in slot.facts]
        for key in keys:
            fact = config.facts.get(key)
            if fact is None:
                raise TemplateError(f"{config.domain}/{config.language} section {section}: "
                                    f"sentence declares unknown fact {key!r}")
            if fact.text not in text:
                raise TemplateError(f"{config.domain}/{config.language} section {section}: "
                                    f"sentence {text!r} declares {key!r} but does not state "
                                    f"{fact.text!r}")
        out.append(Sentence(text=text, section=section, facts=keys))
    if paragraph.shuffle:
        rng.shuffle(out)
    return out
