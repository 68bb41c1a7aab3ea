"""Refusal: does an answer decline, or say the information is missing, without asserting anything?

A refusal is Irrelevant on an answerable question, never Wrong; on an unanswerable question it is the right
answer (Relevant), and an answer that asserts facts there is Wrong."""

from __future__ import annotations

from dragonforge.judge.analysis import _P_REFUSAL_EN_ANYWHERE, _P_REFUSAL_ZH, _P_SPECULATION, _analyse, _clause_of
from dragonforge.judge.labels import KeypointLabel


def is_refusal(answer: str, language: str) -> bool:
    """True when the answer declines or says the information is missing, and asserts no values or guesses."""
    if not (_P_REFUSAL_ZH if language == "zh" else _P_REFUSAL_EN_ANYWHERE).search(answer):
        return False  # no clause can be a refusal (each clause is a piece of the answer)
    return _refuses(answer, language)


def _refuses(answer: str, language: str) -> bool:
    t = _analyse(answer, language)
    if not any(c.refusal for c in t.clauses):
        return False
    if _P_SPECULATION.search(answer):
        return False
    for v in t.values:
        clause = _clause_of(t, v.span[0])
        if clause is not None and not clause.refusal:
            return False
    return True


# --- judging -------------------------------------------------------------------------------------

_UNANSWERABLE_KEYPOINTS = {"unable to answer", "无法回答", "cannot answer", "unanswerable"}


def _is_unanswerable_keypoint(text: str) -> bool:
    return text.lower().rstrip(".。 ") in _UNANSWERABLE_KEYPOINTS


def _judge_unanswerable(kp: str, answer: str, language: str) -> KeypointLabel:
    if not answer.strip():
        return KeypointLabel(keypoint=kp, label="Irrelevant", reason="empty answer")
    if is_refusal(answer, language):
        return KeypointLabel(keypoint=kp, label="Relevant", reason="declines to answer an unanswerable question")
    return KeypointLabel(keypoint=kp, label="Wrong", reason="asserts an answer to an unanswerable question")
