"""Stage 5: references are the document sentences that state the answer's facts.

Provenance recorded at writing time says which sentences state which fact, so the
references are chosen, never written: each one is a verbatim sentence of its document.
"""

from __future__ import annotations

from dragonforge.models import QRA, Document, Reference


def extract_references(qra: QRA, documents: dict[int, Document]) -> QRA:
    """Pick the fewest sentences that together state every fact of the answer.

    Greedy set cover: repeatedly take the sentence stating the most facts not yet covered
    (earliest sentence on ties). Facts no sentence states are left for refinement to judge.
    """
    if not qra.facts:
        return qra.model_copy(update={"references": []})
    uncovered = {(f.doc_id, f.key) for f in qra.facts}
    candidates: dict[tuple[int, int], set[tuple[int, str]]] = {}
    for doc_id in qra.doc_ids:
        for index, sentence in enumerate(documents[doc_id].sentences):
            stated = {(doc_id, key) for key in sentence.facts} & uncovered
            if stated:
                candidates[(doc_id, index)] = stated
    chosen: list[tuple[int, int]] = []
    while uncovered:
        best = max(candidates, key=lambda k: (len(candidates[k] & uncovered), -qra.doc_ids.index(k[0]), -k[1]),
                   default=None)
        if best is None or not candidates[best] & uncovered:
            break
        chosen.append(best)
        uncovered -= candidates[best]
    chosen.sort(key=lambda k: (qra.doc_ids.index(k[0]), k[1]))
    references = [Reference(doc_id=d, sentence=i, text=documents[d].sentences[i].text) for d, i in chosen]
    return qra.model_copy(update={"references": references})
