"""Stage 7: keypoints, the atomic statements a correct answer must contain (method.md §1.7).

Templates give each keypoint's text and the facts it asserts; this stage checks them: 1–8
keypoints, each stating the written form of every fact it carries, and together covering
every fact of the answer.
"""

from __future__ import annotations

from dragonforge.models import QRA, QueryType, Rejection

MIN_KEYPOINTS, MAX_KEYPOINTS = 1, 8


def check_keypoints(qra: QRA) -> QRA | Rejection:
    def reject(reason: str) -> Rejection:
        return Rejection(domain=qra.domain, language=qra.language, stage="keypoints", reason=reason,
                         query_type=qra.query_type, template=qra.template, question=qra.question,
                         doc_ids=qra.doc_ids)

    if not MIN_KEYPOINTS <= len(qra.keypoints) <= MAX_KEYPOINTS:
        return reject(f"{len(qra.keypoints)} keypoints; between {MIN_KEYPOINTS} and {MAX_KEYPOINTS} are required")
    if qra.query_type is QueryType.UNANSWERABLE:
        return qra
    for kp in qra.keypoints:
        for fact in kp.facts:
            if fact.text not in kp.text:
                return reject(f"keypoint {kp.text!r} carries {fact.key} but does not state {fact.text!r}")
    carried = {(f.doc_id, f.key) for kp in qra.keypoints for f in kp.facts}
    missing = [f.key for f in qra.facts if (f.doc_id, f.key) not in carried]
    if missing:
        return reject(f"keypoints leave out answer facts: {', '.join(missing)}")
    if len({kp.text for kp in qra.keypoints}) != len(qra.keypoints):
        return reject("duplicate keypoints")
    return qra


def numbered(qra: QRA) -> list[str]:
    """Keypoints as DRAGONBall writes them: "1. ...", "2. ..."; a refusal stays bare."""
    if qra.query_type is QueryType.UNANSWERABLE:
        return [kp.text for kp in qra.keypoints]
    return [f"{i}. {kp.text}" for i, kp in enumerate(qra.keypoints, 1)]
