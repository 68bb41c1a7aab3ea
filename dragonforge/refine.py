"""Stage 6: answer and reference refinement (method.md §1.6), checked fact by fact.

Every fact the answer asserts must be stated by a reference, and every reference must
contribute a fact. A QRA that fails is repaired where the documents allow it (a missed
supporting sentence is added, a reference that adds nothing is dropped) and rejected with
its reason otherwise. Nothing invalid passes and nothing is dropped silently.
"""

from __future__ import annotations

from dragonforge.models import QRA, UNANSWERABLE_ANSWER, Document, QueryType, Reference, Rejection
from dragonforge.text import language_problem


def refine(qra: QRA, documents: dict[int, Document]) -> tuple[QRA, list[str]] | Rejection:
    """Return the refined QRA with the repairs made, or the reason it is rejected."""
    repairs: list[str] = []

    def reject(reason: str) -> Rejection:
        return Rejection(domain=qra.domain, language=qra.language, stage="refine", reason=reason,
                         query_type=qra.query_type, template=qra.template, question=qra.question,
                         doc_ids=qra.doc_ids, detail={"answer": qra.answer})

    for field, text in (("question", qra.question), ("answer", qra.answer)):
        problem = language_problem(text, qra.language)
        if problem:
            return reject(f"{field} is not in {qra.language}: {problem}")

    if qra.query_type is QueryType.UNANSWERABLE:
        if qra.answer != UNANSWERABLE_ANSWER[qra.language] or qra.references or qra.facts:
            return reject("an unanswerable question must have the refusal answer and no references")
        return qra, repairs

    if not qra.facts:
        return reject("answer asserts no fact of the configs")
    for fact in qra.facts:
        if fact.text not in qra.answer:
            return reject(f"answer does not state its fact {fact.key} ({fact.text!r})")

    references = list(qra.references)
    for fact in qra.facts:
        if any(_states(r, fact.doc_id, fact.key, fact.text, documents) for r in references):
            continue
        found = _find_support(documents[fact.doc_id], fact.key, fact.text)
        if found is None:
            return reject(f"no sentence of document {fact.doc_id} supports {fact.key} ({fact.text!r})")
        references.append(Reference(doc_id=fact.doc_id, sentence=found,
                                    text=documents[fact.doc_id].sentences[found].text))
        repairs.append(f"added a supporting sentence for {fact.key}")

    kept = []
    for ref in references:
        if any(_states(ref, f.doc_id, f.key, f.text, documents) for f in qra.facts):
            kept.append(ref)
        else:
            repairs.append(f"dropped a reference that supports no fact of the answer (sentence {ref.sentence})")
    for ref in kept:
        if ref.doc_id not in qra.doc_ids or ref.text not in documents[ref.doc_id].content:
            return reject(f"reference is not a verbatim sentence of document {ref.doc_id}")
    if not kept:
        return reject("answerable question with no references")
    if qra.query_type.multi_document and {r.doc_id for r in kept} != set(qra.doc_ids):
        return reject("multi-document question does not cite both documents")

    kept.sort(key=lambda r: (qra.doc_ids.index(r.doc_id), r.sentence))
    return qra.model_copy(update={"references": kept}), repairs


def _states(ref: Reference, doc_id: int, key: str, text: str, documents: dict[int, Document]) -> bool:
    if ref.doc_id != doc_id:
        return False
    sentence = documents[doc_id].sentences[ref.sentence]
    return key in sentence.facts and text in sentence.text


def _find_support(document: Document, key: str, text: str) -> int | None:
    for index in document.sentences_stating(key):
        if text in document.sentences[index].text:
            return index
    return None
