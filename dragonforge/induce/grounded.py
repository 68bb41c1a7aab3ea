"""The LLM paths of induction and of corpus builds, grounded in the text.

``induce --engine llm``: the model gets the seeds and the offline draft and proposes slots,
labels, pools and constraints. A label survives only if a seed writes it; a new slot only if
its value is found verbatim in a seed (or it is marked synthetic, for a kind Faker draws); a pool
value only if it is in the pack's language and safe (no distinctive seed value, no run of seed
prose); a constraint only if it holds on every seed that has its slots. Everything else falls
back to the offline draft and is counted.

``build --corpus --engine llm``: the model copies a document's values for the slots the offline
extraction missed; a value is kept only if the document writes it verbatim and it has the slot's
kind. Every rejection is counted in ``extraction.md`` and the manifest.
"""

from __future__ import annotations

import asyncio
import re
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from dragonforge.genre.model import NAME, SLOT_KINDS
from dragonforge.induce.infer import Field as SeedField
from dragonforge.induce.infer import Induction, Slot, _code_pattern, _per_seed, kinds_compatible
from dragonforge.induce.leak import distinctive, safe_pool_value
from dragonforge.induce.values import classify
from dragonforge.text import cjk_count

_FAKER_KINDS = {"person", "organisation", "party", "address", "place"}
_KINDS = [k for k in SLOT_KINDS if k not in ("group", "date_range")]


class _Loose(BaseModel):
    model_config = ConfigDict(extra="ignore")


class ProposedSlot(_Loose):
    name: str
    kind: str
    labels: list[str] = Field(default_factory=list)
    seed_value: str = ""
    synthetic: bool = False
    pool: list[str] = Field(default_factory=list)


class PackProposal(_Loose):
    slots: list[ProposedSlot] = Field(default_factory=list)
    constraints: list[str] = Field(default_factory=list)


class FactItem(_Loose):
    slot: str
    value: str


class FactsReply(_Loose):
    facts: list[FactItem] = Field(default_factory=list)


def _schema_json(model: type[BaseModel]) -> str:
    from dragonforge.llm_stages import _schema_json as strip

    return strip(model)


def _norm(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _in_language(text: str, language: str) -> bool:
    return cjk_count(text) > 0 if language == "zh" else cjk_count(text) == 0


class PackLLM:
    """The client for ``induce --engine llm`` (one call: the proposal)."""

    def __init__(self, settings, cache_path: Path):
        self.settings = settings
        self.cache_path = cache_path

    def propose(self, messages: list[dict], language: str):
        from dragonforge.llm import StructuredLLM

        async def run():
            llm = StructuredLLM(self.settings, cache_path=self.cache_path)
            try:
                done = await llm.complete("induce", messages, PackProposal, language)
                return done, llm.account.report()
            finally:
                await llm.aclose()

        return asyncio.run(run())


def refine_with_llm(client: PackLLM, ind: Induction, texts: list[tuple[str, str]]) -> tuple[Induction, dict]:
    from dragonforge.prompts import render_prompt

    language = ind.language
    draft = "\n".join(f"- {n}: {s.kind}; labels: {', '.join(s.labels)}" for n, s in ind.slots.items())
    messages = render_prompt("induce", language, genre=ind.genre.replace("_", " "), draft=draft,
                             seeds=[t[:2500] for _, t in texts], kinds=_KINDS, schema_json=_schema_json(PackProposal))
    done, usage = client.propose(messages, language)
    calls = sum(u["calls"] for m in usage.values() for u in m.values())
    report: dict[str, Any] = {"model": client.settings.model, "calls": calls}
    if done.value is None:
        assert done.failure is not None  # a completion without a value carries its failure
        report["reply"] = f"no valid proposal ({done.failure.reason[:160]}); the offline draft is kept whole"
        return ind, report
    rejected: Counter[str] = Counter()
    kept: Counter[str] = Counter()
    seeds = [_norm(t) for _, t in texts]
    for proposed in done.value.slots:
        _apply_slot(ind, proposed, texts, seeds, kept, rejected)
    for check in done.value.constraints:
        why = _constraint_problem(ind, check)
        if why:
            rejected[f"constraint: {why}"] += 1
        else:
            ind.constraints.append((check, "proposed by the model, holds in every seed"))
            kept["constraints"] += 1
    report["proposed"] = f"{len(done.value.slots)} slot(s), {len(done.value.constraints)} constraint(s)"
    report["kept"] = dict(kept) or "nothing (the offline draft stands)"
    report["rejected"] = sum(rejected.values())
    report["rejected_by_reason"] = dict(rejected)
    return ind, report


def _apply_slot(ind: Induction, p: ProposedSlot, texts, seeds: list[str], kept: Counter, rejected: Counter) -> None:
    language = ind.language
    if p.kind not in _KINDS:
        rejected["slot: unknown kind"] += 1
        return
    name = p.name.strip().lower().replace(" ", "_")
    if name in ind.slots:
        slot = ind.slots[name]
        before = (len(slot.labels), len(slot.text.get("pool", [])), sum(rejected.values()))
        for label in p.labels:
            label = label.strip().rstrip(":：")
            if not label or label in slot.labels:
                continue
            if any(_norm(label) in s for s in seeds):
                slot.labels.append(label)
                kept["labels"] += 1
            else:
                rejected["label: in no seed"] += 1
        for value in p.pool:
            if slot.kind not in ("category", "text") or "pool" not in slot.text:
                rejected["pool: not a category"] += 1
            elif not _in_language(value, language):
                rejected["pool: wrong language"] += 1
            elif not safe_pool_value(value, ind.fingerprint, language) or any(_norm(value) in s for s in seeds) and \
                    slot.spec.get("closed") is False:
                rejected["pool: a seed value of an open slot, or distinctive"] += 1
            elif value not in slot.text["pool"]:
                slot.text["pool"].append(value)
                kept["pool values"] += 1
        if before == (len(slot.labels), len(slot.text.get("pool", [])), sum(rejected.values())):
            kept["slots already in the draft, nothing new"] += 1
        return
    if not NAME.match(name):
        rejected["slot: not a usable name"] += 1
        return
    labels = [lab.strip().rstrip(":：") for lab in p.labels if lab.strip()]
    if p.synthetic:
        if p.kind not in _FAKER_KINDS:
            rejected["slot: synthetic, but no generator for its kind"] += 1
            return
        if not labels or not all(_in_language(lab, language) for lab in labels):
            rejected["slot: synthetic without a label in the language"] += 1
            return
        slot = Slot(name=name, kind=p.kind, labels=labels, note="synthetic (proposed by the model)")
        _place(ind, slot)
        kept["synthetic slots"] += 1
        return
    value = _norm(p.seed_value)
    where = [d for d, s in enumerate(seeds) if value and value in s]
    if not where:
        rejected["slot: its seed value is in no seed"] += 1
        return
    grounded = [lab for lab in labels if any(_norm(lab) in seeds[d] for d in where)]
    if not grounded:
        rejected["slot: no label of it in the seed"] += 1
        return
    form = classify(value, language)
    if kinds_compatible(form.kind, p.kind) == 0 and not (form.kind in ("text", "count") and p.kind == "category"):
        rejected["slot: the seed value is not of its kind"] += 1
        return
    if distinctive(value, ind.fingerprint, language) and p.kind not in _FAKER_KINDS | {"code"} | {"money", "count",
                                                                                           "quantity", "date"}:
        rejected["slot: its only value is distinctive"] += 1
        return
    slot = Slot(name=name, kind=p.kind, labels=grounded, note="proposed by the model, grounded in a seed")
    slot.occurrences = [SeedField(grounded[0], form, 0, 0, 10 ** 6)]
    slot.seeds = set(where)
    slot.spec["_seed_by_line"] = {id(slot.occurrences[0]): where[0]}
    if p.kind in ("money", "count", "quantity", "percent", "duration") and form.number is not None:
        x = form.number
        slot.spec["range"] = [round(x / 2, 2), round(x * 2 + 1, 2)]
        if p.kind in ("quantity", "duration"):
            rejected["slot: a unit the inducer cannot word"] += 1
            return
    elif p.kind in ("date", "datetime") and form.day is not None:
        slot.spec["window"] = [f"{form.day.year - 2}-01-01", f"{form.day.year + 2}-12-31"]
    elif p.kind == "code":
        slot.spec["pattern"] = _code_pattern([value], {})[0]
    elif p.kind in ("category", "text", "narrative"):
        if not safe_pool_value(value, ind.fingerprint, language):
            rejected["slot: no safe vocabulary (its value is distinctive or long)"] += 1
            return
        slot.text["pool"] = [value]
        slot.spec["closed"] = False
    elif p.kind not in _FAKER_KINDS:
        rejected["slot: no generator for its kind"] += 1
        return
    slot.confidence = round(len(where) / len(seeds), 2)
    _place(ind, slot)
    kept["grounded slots"] += 1


def _place(ind: Induction, slot: Slot) -> None:
    ind.slots[slot.name] = slot
    other = next((s for s in ind.sections if s["id"] == "other"), None)
    if other is None:
        other = {"id": "other", "layout": "fields", "slots": [], "where": 1.0, "titles": [""], "presence": 1.0}
        ind.sections.append(other)
    other["slots"].append(slot.name)


def _constraint_problem(ind: Induction, check: str) -> str | None:
    from dragonforge.genre.interpret import HELPERS, names_in
    from dragonforge.templating import evaluate

    try:
        names = names_in(check)
    except Exception:  # noqa: BLE001 (any parse failure of the model's text)
        return "does not parse"
    if not names or any(n not in ind.slots for n in names):
        return "names no slot of the pack"
    if not re.search(r"[<>]=?|==|!=", check):
        return "is no comparison"
    values = {n: _per_seed(ind.slots[n]) for n in names}
    seeds = set.intersection(*(set(v) for v in values.values()))
    if len(seeds) < 2:
        return "fewer than 2 seeds have all its slots"
    for d in seeds:
        env = {}
        for n in names:
            v = values[n][d]
            env[n] = v.day if v.day is not None else v.number if v.number is not None else v.text
        try:
            if not evaluate(check, {**HELPERS, **env}, sandboxed=True):
                return "fails on a seed"
        except Exception:  # noqa: BLE001 (a comparison of values of different types)
            return "cannot be evaluated on the seeds"
    return None


class CorpusLLM:
    """``build --corpus --engine llm``: one call per document for the slots it still lacks."""

    def __init__(self, settings, out: Path, language: str):
        from dragonforge.llm import StructuredLLM

        self.language = language
        self.settings = settings
        self.llm = StructuredLLM(settings, cache_path=Path(out) / ".dragonforge" / "llm-cache.sqlite")
        self.loop = asyncio.new_event_loop()

    def extract(self, content: str, facts: dict, extractor) -> tuple[dict, list[dict[str, str]]]:
        from dragonforge.corpus import _kind_ok, make_fact
        from dragonforge.prompts import render_prompt

        spec = extractor.spec
        missing = [k for k in extractor.labels if k not in facts and not spec.slots[k].derived]
        if not missing:
            return {}, []
        text = extractor.pack.definition.languages[self.language]
        slots = [{"name": k, "description": (text.slots[k].description if k in text.slots and text.slots[k].description
                                             else extractor.labels[k][0])} for k in missing]
        messages = render_prompt("extract", self.language, slots=slots, document=content[:6000],
                                 schema_json=_schema_json(FactsReply))
        done = self.loop.run_until_complete(self.llm.complete("extract", messages, FactsReply, self.language))
        if done.value is None:
            assert done.failure is not None  # a completion without a value carries its failure
            return {}, [{"key": "*", "why": f"no valid reply ({done.failure.reason[:80]})"}]
        more: dict[str, tuple[Any, int]] = {}
        rejected: list[dict[str, str]] = []
        lines = content.split("\n")
        for item in done.value.facts:
            key, value = item.slot.strip(), item.value.strip()
            if key not in missing or key in more:
                rejected.append({"key": key[:40], "why": "not a slot it was asked for"})
                continue
            found = [i + 1 for i, ln in enumerate(lines) if value and value in ln]
            if not found:
                rejected.append({"key": key, "why": "not written verbatim in the document"})
                continue
            if len(found) > 1:
                rejected.append({"key": key, "why": "written on several lines: which one states it is unknown"})
                continue
            line = found[0]
            form = classify(value, self.language)
            if not _kind_ok(spec.slots[key].kind, form):
                rejected.append({"key": key, "why": f"not a {spec.slots[key].kind}"})
                continue
            more[key] = (make_fact(key, spec.slots[key].kind, form), line)
        return more, rejected

    def close(self) -> tuple[dict, dict]:
        try:
            self.loop.run_until_complete(self.llm.aclose())
        finally:
            self.loop.close()
        usage = self.llm.account.report()
        return usage, {"base_url": self.settings.base_url, "model": self.settings.model}
