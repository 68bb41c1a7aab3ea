"""The build pipeline as plain functions over one (domain, language) group.

``dragonforge.builder`` runs them into a directory (resumable, in worker processes for large
builds), directly or as the Prefect flow's tasks; tests and notebooks call them directly.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from dragonforge.benchmark import BuildResult, doc_id_ranges, group_order
from dragonforge.documents import write_document
from dragonforge.domains import make_configs
from dragonforge.keypoints import check_keypoints
from dragonforge.models import QRA, BuildParams, Config, Document, Language, Rejection
from dragonforge.progress import NullProgress, Progress
from dragonforge.qra import allocate, generate_qra
from dragonforge.references import extract_references
from dragonforge.refine import refine

if TYPE_CHECKING:
    from dragonforge.llm import StructuredLLM
    from dragonforge.llm_stages import Fallbacks


@dataclass
class QRAResult:
    qras: list[QRA] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    repairs: int = 0
    shortfall: dict[str, int] = field(default_factory=dict)  # type -> questions asked for but not made


def configs_stage(domain: str, language: Language, doc_ids: list[int], seed: int, first_index: int = 0) -> list[Config]:
    return make_configs(domain, language, doc_ids, seed, first_index)


def documents_stage(configs: list[Config], seed: int) -> list[Document]:
    return [write_document(config, seed) for config in configs]


def qra_stage(configs: list[Config], documents: list[Document], total: int, mix: dict[str, float],
              seed: int, templates=None) -> QRAResult:
    """Stages 4–7 for one group: draft, references, refinement, keypoints."""
    drafts, rejections = generate_qra(configs, documents, total, mix, seed, templates)
    by_id = {d.doc_id: d for d in documents}
    result = QRAResult(rejections=list(rejections))
    for draft in drafts:
        refined = refine(extract_references(draft, by_id), by_id)
        if isinstance(refined, Rejection):
            result.rejections.append(refined)
            continue
        qra, repairs = refined
        result.repairs += len(repairs)
        checked = check_keypoints(qra)
        if isinstance(checked, Rejection):
            result.rejections.append(checked)
            continue
        result.qras.append(checked)
    made = Counter(q.query_type.short for q in result.qras)
    result.shortfall = {t: n - made[t] for t, n in allocate(total, mix).items() if n > made[t]}
    return result


# --- whole builds -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Batch:
    domain: str
    language: Language
    doc_ids: tuple[int, ...]
    first_index: int


def plan_batches(params: BuildParams, batch_size: int) -> dict[tuple[str, Language], list[Batch]]:
    """Documents of each (domain, language) group cut into batches of at most ``batch_size``."""
    plan: dict[tuple[str, Language], list[Batch]] = {}
    for group, ids in doc_id_ranges(params).items():
        plan[group] = [Batch(group[0], group[1], tuple(ids[i:i + batch_size]), i)
                       for i in range(0, len(ids), batch_size)]
    return plan


def assemble(params: BuildParams, groups: dict[tuple[str, Language], tuple[list[Config], list[Document], QRAResult]]) -> BuildResult:
    """Join group results in canonical order and number the queries."""
    configs, documents, qras, rejections, repairs = [], [], [], [], 0
    shortfall: dict[str, dict[str, dict[str, int]]] = {}
    for group in group_order(params):
        g_configs, g_documents, g_result = groups[group]
        if g_result.shortfall:
            shortfall.setdefault(group[0], {})[group[1]] = g_result.shortfall
        configs += g_configs
        documents += g_documents
        qras += g_result.qras
        rejections += g_result.rejections
        repairs += g_result.repairs
    qras = [q.model_copy(update={"query_id": i}) for i, q in enumerate(qras)]
    return BuildResult(configs=configs, documents=documents, qras=qras, rejections=rejections, repairs=repairs,
                       shortfall=shortfall)


def run_build(params: BuildParams, batch_size: int = 50, progress: Progress | None = None) -> BuildResult:
    """The whole build in memory, serially, with nothing stored (``builder.build`` writes a directory)."""
    progress = progress or NullProgress()
    plan = plan_batches(params, batch_size)
    progress.start("documents", params.docs * len(plan))
    progress.start("questions", len(plan))
    groups = {}
    for group, batches in plan.items():
        g_configs, g_documents = [], []
        for batch in batches:
            configs = configs_stage(batch.domain, batch.language, list(batch.doc_ids), params.seed, batch.first_index)
            g_configs += configs
            g_documents += documents_stage(configs, params.seed)
            progress.advance("documents", len(batch.doc_ids))
        result = qra_stage(g_configs, g_documents, params.docs * params.queries_per_doc, params.question_mix,
                           params.seed)
        progress.advance("questions")
        groups[group] = (g_configs, g_documents, result)
    return assemble(params, groups)


# --- LLM engines ------------------------------------------------------------------------------


async def llm_group(llm: StructuredLLM, engine: str, configs: list[Config], total: int, mix: dict[str, float],
                    seed: int, fallbacks: Fallbacks) -> tuple[list[Config], list[Document], QRAResult]:
    """One (domain, language) group through the LLM stages.

    ``hybrid`` keeps rule-based configs and config-driven QRA (with template keypoints) and
    lets the LLM write the prose and refine the answers; ``llm`` also has it fill narrative
    slots, write questions and answers, pick references by sentence number and distil keypoints.
    """
    from dragonforge.llm_stages import (
        draft_qra_llm,
        keypoints_llm,
        pick_references_llm,
        refine_answer_llm,
        write_document_llm,
        write_narratives,
    )

    if engine == "llm":
        configs = list(await asyncio.gather(*(write_narratives(llm, c, fallbacks) for c in configs)))
    documents = list(await asyncio.gather(*(write_document_llm(llm, c, seed, fallbacks) for c in configs)))
    drafts, rejections = generate_qra(configs, documents, total, mix, seed)
    by_id = {d.doc_id: d for d in documents}
    by_config = {c.doc_id: c for c in configs}
    result = QRAResult(rejections=list(rejections))

    async def one(draft: QRA) -> QRA | Rejection:
        if engine == "llm":
            drafted = await draft_qra_llm(llm, draft, by_config, seed)
            if isinstance(drafted, Rejection):
                return drafted
            draft = await pick_references_llm(llm, drafted, by_id, fallbacks)
        else:
            draft = extract_references(draft, by_id)
        refined = refine(draft, by_id)
        if isinstance(refined, Rejection):
            return refined
        qra, repairs = refined
        result.repairs += len(repairs)
        qra = await refine_answer_llm(llm, qra, fallbacks)
        if engine == "llm":
            with_keypoints = await keypoints_llm(llm, qra)
            if isinstance(with_keypoints, Rejection):
                return with_keypoints
            qra = with_keypoints
        return check_keypoints(qra)

    for outcome in await asyncio.gather(*(one(d) for d in drafts)):
        if isinstance(outcome, Rejection):
            result.rejections.append(outcome)
        else:
            result.qras.append(outcome)
    made = Counter(q.query_type.short for q in result.qras)
    result.shortfall = {t: n - made[t] for t, n in allocate(total, mix).items() if n > made[t]}
    return configs, documents, result
