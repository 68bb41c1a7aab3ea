"""Prompt templates (``prompts/<stage>.<language>.j2``) and the replies each stage expects.

A template has a ``system`` and a ``user`` block. The reply models below are what the LLM
must return, as JSON; ``StructuredLLM`` sends their JSON schema and validates against them.
"""

from __future__ import annotations

from functools import cache
from typing import Any

import jinja2
from pydantic import BaseModel, ConfigDict, Field

from dragonforge.errors import TemplateError
from dragonforge.llm import Message
from dragonforge.resources import resource_dir

STAGES = ("induce", "extract", "narrative", "section", "qra", "references", "refine", "keypoints")
# Evaluation prompts: the keypoint judge (dragonforge.evaluate) and the Ragas-style metrics and
# LLM-retEval agreement (dragonforge.ragas); their reply models live next to their callers.
EVAL_STAGES = ("judge", "claims", "support", "context_use", "questions", "agreement")


class _Reply(BaseModel):
    model_config = ConfigDict(extra="ignore")


class NarrativeReply(_Reply):
    """stage `narrative`: the text of one narrative slot of a config."""

    text: str = Field(min_length=1)


class SentenceDraft(_Reply):
    text: str
    facts: list[str] = Field(default_factory=list)


class SectionReply(_Reply):
    """stage `section`: one section of a document, sentence by sentence, each with the keys
    of the facts it states."""

    sentences: list[SentenceDraft] = Field(min_length=1)


class QRAReply(_Reply):
    """stage `qra`: a question, its answer and the keys of the facts the answer uses."""

    question: str = Field(min_length=1)
    answer: str = Field(min_length=1)
    facts: list[str] = Field(min_length=1)


class ReferencesReply(_Reply):
    """stage `references`: numbers of the sentences that support the answer."""

    sentences: list[int] = Field(min_length=1)


class RefineReply(_Reply):
    """stage `refine`: the answer, corrected against its references."""

    answer: str = Field(min_length=1)


class KeypointsReply(_Reply):
    """stage `keypoints`: 1–8 atomic statements a correct answer must contain."""

    keypoints: list[str] = Field(min_length=1, max_length=8)


_ENV = jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False, trim_blocks=True, lstrip_blocks=True,
                          keep_trailing_newline=False)


@cache
def _template(stage: str, language: str) -> jinja2.Template:
    path = resource_dir("prompts") / f"{stage}.{language}.j2"
    if not path.exists():
        raise TemplateError(f"no prompt template for stage {stage!r} in {language!r} ({path})")
    template = _ENV.from_string(path.read_text(encoding="utf-8"))
    if {"system", "user"} - set(template.blocks):
        raise TemplateError(f"{path} needs a 'system' and a 'user' block")
    return template


def render_prompt(stage: str, language: str, **variables: Any) -> list[Message]:
    template = _template(stage, language)
    variables = {**variables, "language": language}
    context = template.new_context(variables)
    try:
        system = "".join(template.blocks["system"](context)).strip()
        context = template.new_context(variables)
        user = "".join(template.blocks["user"](context)).strip()
    except jinja2.UndefinedError as exc:
        raise TemplateError(f"prompt {stage}.{language}: {exc}") from exc
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]
