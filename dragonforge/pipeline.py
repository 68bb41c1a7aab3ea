"""The build pipeline as plain functions over one (domain, language) group.

``flows/build.py`` runs these as Prefect tasks; tests and notebooks call them directly.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from dragonforge.documents import write_document
from dragonforge.domains import make_configs
from dragonforge.keypoints import check_keypoints
from dragonforge.models import QRA, Config, Document, Rejection
from dragonforge.qra import generate_qra
from dragonforge.references import extract_references
from dragonforge.refine import refine


@dataclass
class QRAResult:
    qras: list[QRA] = field(default_factory=list)
    rejections: list[Rejection] = field(default_factory=list)
    repairs: int = 0


def configs_stage(domain: str, language: str, doc_ids: list[int], seed: int, first_index: int = 0) -> list[Config]:
    return make_configs(domain, language, doc_ids, seed, first_index)


def documents_stage(configs: list[Config], seed: int) -> list[Document]:
    return [write_document(config, seed) for config in configs]


def qra_stage(configs: list[Config], documents: list[Document], total: int, mix: dict[str, float],
              seed: int) -> QRAResult:
    """Stages 4–7 for one group: draft, references, refinement, keypoints."""
    drafts, rejections = generate_qra(configs, documents, total, mix, seed)
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
    return result
