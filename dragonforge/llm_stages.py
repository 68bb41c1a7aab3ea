"""LLM versions of the stages (method.md §1), held to the same checks as the offline engine.

Every reply is checked before it is used: a section sentence must state the facts it claims
verbatim and invent no numbers; a QRA must state its facts verbatim, in its language, from
both documents when it spans two; references are chosen by sentence number, so they are
verbatim by construction. What fails is asked again once with the problems listed, then
either replaced by the rule-based result (narratives, sentences, references, refinement:
counted as fallbacks in the manifest) or rejected into ``rejected.jsonl`` with its reason
(QRA and keypoints). Nothing invalid is emitted and nothing is dropped silently.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Literal

from dragonforge.documents import write_document
from dragonforge.llm import Failure, StructuredLLM, repair_message
from dragonforge.models import (
    QRA,
    BoundFact,
    Config,
    Document,
    Keypoint,
    QueryType,
    Reference,
    Rejection,
    Sentence,
)
from dragonforge.prompts import (
    KeypointsReply,
    NarrativeReply,
    QRAReply,
    ReferencesReply,
    RefineReply,
    SectionReply,
    render_prompt,
)
from dragonforge.rng import rng_for
from dragonforge.text import ZH_TERMINATORS, language_problem

Engine = Literal["offline", "hybrid", "llm"]

TYPE_DESCRIPTIONS_ZH = {
    QueryType.FACTUAL: "询问一份文档中的一个事实",
    QueryType.MULTI_HOP: "串联同一份文档中的两个或更多事实：问题给出一个事实，答案需要另一个事实",
    QueryType.SUMMARY: "要求概括同一份文档中的多个事实",
    QueryType.INTEGRATION: "把两份文档中的事实整合到一个答案里",
    QueryType.COMPARISON: "比较两份文档中的同一项数值，并指出哪一个更大或更小",
    QueryType.TIME_SEQUENCE: "询问两份文档中各一个带日期的事件哪个先发生",
}
TYPE_DESCRIPTIONS = {
    QueryType.FACTUAL: "asks for one fact of one document",
    QueryType.MULTI_HOP: "links two or more facts of one document: the question names one fact, the answer needs another",
    QueryType.SUMMARY: "asks to summarize several facts of one document",
    QueryType.INTEGRATION: "combines facts from two documents in one answer",
    QueryType.COMPARISON: "compares a number of the two documents and says which is larger or smaller",
    QueryType.TIME_SEQUENCE: "asks which of two dated events, one per document, happened first",
}
_DIGITS = re.compile(r"\d+(?:[.,]\d+)*")


@dataclass
class Fallbacks:
    """Replies that failed their checks and were replaced by the rule-based result, by stage."""

    counts: Counter = field(default_factory=Counter)

    def add(self, stage: str, n: int = 1) -> None:
        self.counts[stage] += n


def _schema_json(model) -> str:
    """The reply's JSON schema for the prompt text, without the (English) docstrings, so a
    Chinese prompt stays Chinese and a small model reads less."""
    def strip(node):
        if isinstance(node, dict):
            return {k: strip(v) for k, v in node.items() if k != "description"}
        if isinstance(node, list):
            return [strip(v) for v in node]
        return node
    return json.dumps(strip(model.model_json_schema()), ensure_ascii=False)


def _slot_description(config: Config, key: str) -> str:
    """What the domain's pack says of the slot a fact key fills (``events.0.date`` → ``events[].date``)."""
    from dragonforge.registry import get_pack

    return get_pack(config.domain).slot_description(key, config.language)


def _genre(domain: str, language: str) -> str:
    from dragonforge.registry import get_pack

    return get_pack(domain).genre(language)


def _invented_numbers(text: str, config_texts: str) -> list[str]:
    """Digit runs in ``text`` that no fact of the config contains: numbers the model made up."""
    return [d for d in _DIGITS.findall(text) if d not in config_texts]


def _sentence_problem(text: str, language: str) -> str | None:
    if not text or "\n" in text:
        return "empty or spans lines"
    if len(text) > 500:
        return "too long for one sentence"
    ends = ZH_TERMINATORS if language == "zh" else ".?!"
    if text[-1] not in ends:
        return "does not end a sentence"
    inner = re.search(f"[{ZH_TERMINATORS}]" if language == "zh" else r"[.!?]\s+[A-Z]", text[:-1])
    if inner:
        return "holds more than one sentence"
    return language_problem(text, language)


# --- stage 2: narrative slots of configs ----------------------------------------------------------


def narrative_keys(config: Config) -> list[str]:
    """Free-text facts long enough to be narrative (event descriptions, case facts, history)."""
    return [k for k, f in config.facts.items() if f.kind == "text" and len(f.text) >= (12 if config.language == "zh" else 30)]


async def write_narratives(llm: StructuredLLM, config: Config, fallbacks: Fallbacks) -> Config:
    """The LLM rewrites the narrative slots; rules re-check each (language, length, one
    clause, no invented numbers) and keep the rule-written text where it fails."""
    facts = dict(config.facts)
    context = [{"key": k, "text": f.text} for k, f in config.facts.items() if k not in narrative_keys(config)][:40]
    all_texts = " ".join(f.text for f in config.facts.values())

    async def one(key: str) -> None:
        fact = config.facts[key]
        messages = render_prompt("narrative", config.language, domain=config.domain,
                                 genre=_genre(config.domain, config.language), facts=context,
                                 slot={"key": key, "description": _slot_description(config, key),
                                       "example": fact.text},
                                 max_chars=max(60, len(fact.text) * 2), schema_json=_schema_json(NarrativeReply))
        done = await llm.complete("narrative", messages, NarrativeReply, config.language)
        text = done.value.text.strip().rstrip(".。").strip() if done.value is not None else ""
        bad = (not text or "\n" in text or len(text) > max(60, len(fact.text) * 2) or len(text) < len(fact.text) // 2
               or text[:1].isupper() != fact.text[:1].isupper()  # it must fit where the rule text stood
               or any(t in text for t in ZH_TERMINATORS + "!?") or language_problem(text, config.language)
               or _invented_numbers(text, all_texts))
        if bad:
            fallbacks.add("narrative")
            return
        facts[key] = fact.model_copy(update={"text": text, "value": text})

    await asyncio.gather(*(one(k) for k in narrative_keys(config)))
    return config.model_copy(update={"facts": facts})


# --- stage 3: documents, section by section -----------------------------------------------------


async def write_document_llm(llm: StructuredLLM, config: Config, seed: int, fallbacks: Fallbacks) -> Document:
    """Each section written by the LLM from its facts, with the plan and a summary so sections
    agree; sentences whose claims do not check out are dropped, and facts left unstated are
    filled in with the template's sentences, so provenance stays exact."""
    from dragonforge.registry import get_pack

    plan = write_document(config, seed)  # the rule-based document: section plan and fallback sentences
    sections = list(plan.headings.items())
    template = get_pack(config.domain).document_template(config.language)
    lines = {s.id for s in template.sections if s.layout == "lines"}
    # the rule-written block of each section (heading, then its lines), in order
    planned_blocks = dict(zip(plan.headings, plan.content.split("\n\n")[1:], strict=False))
    summary_keys = list(config.facts)[:12]
    summary = "\n".join(f"- {config.facts[k].text}" for k in summary_keys)
    all_texts = " ".join(f.text for f in config.facts.values())

    async def one(section_id: str, heading: str) -> list[Sentence]:
        planned = [s for s in plan.sentences if s.section == section_id]
        keys = list(dict.fromkeys(k for s in planned for k in s.facts))
        if not keys or section_id in lines:
            return planned  # boilerplate only, or a form's lines: the template's text stands
        messages = render_prompt(
            "section", config.language, domain=config.domain,
            genre=_genre(config.domain, config.language), title=plan.title, sections=[h for _, h in sections],
            section_title=heading, summary=summary,
            facts=[{"key": k, "text": config.facts[k].text, "description": _slot_description(config, k)}
                   for k in keys],
            schema_json=_schema_json(SectionReply))
        done = await llm.complete("section", messages, SectionReply, config.language)
        written: list[Sentence] = []
        seen: set[str] = set()
        for draft in done.value.sentences if done.value is not None else []:
            text = draft.text.strip()
            if text in seen or _sentence_problem(text, config.language) or _invented_numbers(text, all_texts):
                continue
            stated = [k for k in dict.fromkeys(draft.facts) if k in config.facts and config.facts[k].text in text]
            seen.add(text)
            written.append(Sentence(text=text, section=section_id, facts=stated))
        covered = {k for s in written for k in s.facts}
        missing = [s for s in planned if s.facts and not set(s.facts) <= covered]
        if missing or not done.ok:
            fallbacks.add("section")
        return written + [s for s in missing if s.text not in seen]

    bodies = await asyncio.gather(*(one(sid, heading) for sid, heading in sections))
    joiner = "" if config.language == "zh" else " "
    blocks = [plan.title]
    sentences: list[Sentence] = []
    for (sid, heading), body in zip(sections, bodies, strict=False):
        if body:
            sentences += body
            blocks.append(planned_blocks[sid] if sid in lines else heading + "\n" + joiner.join(s.text for s in body))
    return plan.model_copy(update={"content": "\n\n".join(blocks), "sentences": sentences})


# --- stage 4: QRA ---------------------------------------------------------------------------------


def _fact_lines(config: Config, keys: list[str], prefix: str = "") -> list[dict[str, str]]:
    return [{"key": prefix + k, "text": config.facts[k].text} for k in keys]


async def draft_qra_llm(llm: StructuredLLM, draft: QRA, configs: dict[int, Config], seed: int) -> QRA | Rejection:
    """The LLM writes the question and answer of a drafted slot (type and documents chosen by
    the rules); unanswerable questions stay rule-based, since only the rules know what the
    corpus does not state."""
    if draft.query_type is QueryType.UNANSWERABLE:
        return draft
    rng = rng_for(seed, "llm-qra", draft.template, *draft.doc_ids, draft.question)
    docs = [configs[i] for i in draft.doc_ids]
    prefixes = ["a:", "b:"] if len(docs) == 2 else [""]
    documents = []
    for doc, prefix in zip(docs, prefixes, strict=False):
        core = [f.key for f in draft.facts if f.doc_id == doc.doc_id]
        others = [k for k in doc.facts if k not in core]
        keys = core + rng.sample(others, min(6, len(others)))
        rng.shuffle(keys)
        documents.append({"label": prefix.rstrip(":").upper() or "A", "entity": doc.entity,
                          "facts": _fact_lines(doc, keys, prefix)})
    messages = render_prompt("qra", draft.language, domain=draft.domain,
                             genre=_genre(draft.domain, draft.language), question_type=draft.query_type.value,
                             type_description=(TYPE_DESCRIPTIONS_ZH if draft.language == "zh" else TYPE_DESCRIPTIONS)[draft.query_type], documents=documents,
                             schema_json=_schema_json(QRAReply))
    return await _ask_checked(llm, "qra", messages, QRAReply, draft,
                              lambda reply: _check_qra_reply(reply, draft, docs, prefixes))


def _check_qra_reply(reply: QRAReply, draft: QRA, docs: list[Config], prefixes: list[str]) -> tuple[QRA | None, list[str]]:
    problems = []
    facts: list[BoundFact] = []
    for key in dict.fromkeys(reply.facts):
        doc = docs[0]
        if len(docs) == 2:
            prefix, _, bare = key.partition(":")
            if prefix.lower() not in ("a", "b") or not bare:
                problems.append(f"fact key {key!r} lacks its a:/b: prefix")
                continue
            doc, key = docs[0 if prefix.lower() == "a" else 1], bare
        fact = doc.facts.get(key)
        if fact is None:
            problems.append(f"unknown fact key {key!r}")
            continue
        if fact.text not in reply.answer:
            problems.append(f"the answer does not state {fact.text!r} exactly")
            continue
        facts.append(BoundFact(doc_id=doc.doc_id, **fact.model_dump()))
    for name, text in (("question", reply.question), ("answer", reply.answer)):
        if problem := language_problem(text, draft.language):
            problems.append(f"the {name} is not in {draft.language}: {problem}")
    if facts and all(f.text in reply.question for f in facts):
        problems.append("the question gives the answer away")
    if not facts:
        problems.append("no usable fact")
    if len(docs) == 2 and {f.doc_id for f in facts} != {d.doc_id for d in docs}:
        problems.append("a two-document question must use facts of both documents")
    if problems:
        return None, problems
    return draft.model_copy(update={"question": reply.question.strip(), "answer": reply.answer.strip(),
                                    "facts": facts, "keypoints": [], "references": []}), []


# --- stage 5: references by sentence number -------------------------------------------------------


async def pick_references_llm(llm: StructuredLLM, qra: QRA, documents: dict[int, Document],
                              fallbacks: Fallbacks) -> QRA:
    """Sentences are numbered in the prompt and the model answers with numbers, mapped back
    here: references are verbatim by construction. Refinement then checks support."""
    if qra.query_type is QueryType.UNANSWERABLE:
        return qra
    numbered: list[tuple[int, int]] = []
    lines = []
    for label, doc_id in zip("AB", qra.doc_ids, strict=False):
        for index, sentence in enumerate(documents[doc_id].sentences):
            numbered.append((doc_id, index))
            lines.append({"number": len(numbered), "doc": label, "text": sentence.text})
    messages = render_prompt("references", qra.language, question=qra.question,
                             answer=qra.answer, sentences=lines, schema_json=_schema_json(ReferencesReply))
    done = await llm.complete("references", messages, ReferencesReply, qra.language)
    chosen = ([numbered[n - 1] for n in dict.fromkeys(done.value.sentences) if 1 <= n <= len(numbered)]
              if done.value is not None else [])
    if not chosen:
        fallbacks.add("references")
    refs = [Reference(doc_id=d, sentence=i, text=documents[d].sentences[i].text) for d, i in chosen]
    return qra.model_copy(update={"references": refs})


# --- stage 6: refinement --------------------------------------------------------------------------


async def refine_answer_llm(llm: StructuredLLM, qra: QRA, fallbacks: Fallbacks) -> QRA:
    """The LLM corrects the answer against its references (method.md §1.6); the corrected
    answer is kept only if it still states every fact verbatim, in its language."""
    if qra.query_type is QueryType.UNANSWERABLE or not qra.references:
        return qra
    messages = render_prompt("refine", qra.language, question=qra.question,
                             answer=qra.answer, references=[r.text for r in qra.references],
                             schema_json=_schema_json(RefineReply))
    done = await llm.complete("refine", messages, RefineReply, qra.language)
    answer = done.value.answer.strip() if done.value is not None else ""
    if (not answer or language_problem(answer, qra.language) or len(answer) > 3 * len(qra.answer) + 200
            or any(f.text not in answer for f in qra.facts)):
        fallbacks.add("refine")
        return qra
    return qra.model_copy(update={"answer": answer})


# --- stage 7: keypoints ---------------------------------------------------------------------------


async def keypoints_llm(llm: StructuredLLM, qra: QRA) -> QRA | Rejection:
    """1–8 keypoints from the LLM, each tied to the facts whose values it states; together
    they must carry every fact of the answer. Asked again once, then rejected."""
    if qra.query_type is QueryType.UNANSWERABLE:
        return qra
    messages = render_prompt("keypoints", qra.language, question=qra.question,
                             answer=qra.answer, question_type=qra.query_type.value,
                             schema_json=_schema_json(KeypointsReply))
    return await _ask_checked(llm, "keypoints", messages, KeypointsReply, qra,
                              lambda reply: _check_keypoints_reply(reply, qra))


def _check_keypoints_reply(reply: KeypointsReply, qra: QRA) -> tuple[QRA | None, list[str]]:
    texts = [re.sub(r"^\s*\d+[.、)]\s*", "", k).strip() for k in reply.keypoints]
    problems = [f"keypoint {t!r} is not in {qra.language}" for t in texts if language_problem(t, qra.language)]
    problems += ["an empty keypoint"] if any(not t for t in texts) else []
    keypoints = [Keypoint(text=t, facts=[f for f in qra.facts if f.text in t]) for t in dict.fromkeys(texts)]
    carried = {(f.doc_id, f.key) for kp in keypoints for f in kp.facts}
    problems += [f"no keypoint states {f.text!r}" for f in qra.facts if (f.doc_id, f.key) not in carried]
    return (None, problems[:4]) if problems else (qra.model_copy(update={"keypoints": keypoints}), [])


async def _ask_checked(llm: StructuredLLM, stage: str, messages: list, reply_type, qra: QRA, check) -> QRA | Rejection:
    """Ask; check the reply; on problems ask once more with them listed (in the prompt's
    language); then reject with the reasons and the raw reply."""
    problems: list[str] = []
    raw = ""
    for attempt in range(2):
        if attempt:
            messages = messages + [{"role": "assistant", "content": raw},
                                   {"role": "user", "content": repair_message("; ".join(problems), qra.language)}]
        done = await llm.complete(stage, messages, reply_type, qra.language)
        if done.value is None:
            return _reject(qra, stage, done.failure)
        raw = done.value.model_dump_json()
        result, problems = check(done.value)
        if result is not None:
            return result
    return _reject(qra, stage, Failure(reason="; ".join(problems), raw=raw))


def _reject(qra: QRA, stage: str, failure: Failure | None) -> Rejection:
    failure = failure or Failure(reason="no reply")
    return Rejection(domain=qra.domain, language=qra.language, stage=stage, reason=failure.reason,
                     query_type=qra.query_type, template=qra.template, question=qra.question, doc_ids=qra.doc_ids,
                     detail={"raw": failure.raw[:2000]})
