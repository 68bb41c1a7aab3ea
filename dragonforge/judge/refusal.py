"""Refusal: does an answer decline, or say the information is missing, without asserting anything?

A refusal is Irrelevant on an answerable question, never Wrong; on an unanswerable question it is the right
answer (Relevant), and an answer that asserts facts there is Wrong."""

from __future__ import annotations

import re

from dragonforge.judge.analysis import _P_REFUSAL_EN_ANYWHERE, _P_REFUSAL_ZH, _P_SPECULATION, _analyse, _clause_of
from dragonforge.judge.labels import KeypointLabel
from dragonforge.judge.words import _content_tokens

_P_CAPITALISED = re.compile(r"\b[A-Z][\w'’.-]*")  # names in an English question are not what it asks


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


def _concludes_declining(answer: str, language: str) -> bool:
    """The answer's last sentence declines, without a guess ("the record gives her age and history but not
    her ethnicity, so it cannot be determined"): what comes before is what the documents do say."""
    t = _analyse(answer, language)
    if not t.sentences:
        return False
    last = len(t.sentences) - 1
    clauses = [c for c in t.clauses if c.sentence == last]
    if not any(c.refusal for c in clauses) or _P_SPECULATION.search(answer[t.sentences[last][0]:]):
        return False
    # and asserts no value after it declines ("... do not give a figure, but it spent $20 million")
    start = next(c.span[0] for c in clauses if c.refusal)
    return not any(v.span[0] >= start and not (_clause_of(t, v.span[0]) or clauses[0]).refusal for v in t.values)


# --- judging -------------------------------------------------------------------------------------

_UNANSWERABLE_KEYPOINTS = {"unable to answer", "无法回答", "cannot answer", "unanswerable"}


def _is_unanswerable_keypoint(text: str) -> bool:
    return text.lower().rstrip(".。 ") in _UNANSWERABLE_KEYPOINTS


# a measure a question asks for, and how an answer gives one: "What is the height of X?" is answered by "165 cm tall"
_MEASURES = ((re.compile(r"\bheight\b|\bhow tall\b|身高", re.I), re.compile(r"\btall\b|\bheight\b|身高", re.I),
              re.compile(r"\d\s*(?:cm|centimet(?:er|re)s?|m|met(?:er|re)s?|feet|foot|ft|inch(?:es)?)\b|"
                         r"\d\s*(?:厘米|公分|米)", re.I)),
             (re.compile(r"\bweight\b|\bhow much does .{1,40} weigh\b|体重", re.I),
              re.compile(r"\bweighs?\b|\bweight\b|体重", re.I),
              re.compile(r"\d\s*(?:kg|kilograms?|lbs?|pounds?)\b|\d\s*(?:公斤|千克|斤)", re.I)),
             (re.compile(r"\bincome\b|\bsalary\b|\bearnings?\b|\bwages?\b|收入|工资|薪", re.I),
              re.compile(r"\bincome\b|\bsalary\b|\bearns?\b|\bearnings?\b|\bwages?\b|收入|工资|薪", re.I),
              re.compile(r"[$¥€£]\s*\d|\d\s*(?:dollars|yuan|元|万元)", re.I)))
# (the measure said as the asked attribute's: "165 cm tall", not "fell from 3 metres", not "a $4,200 bill")


def _counts_asked(answer: str, question: str, language: str) -> bool:
    """The question asks how many of something (多少项, 几名, "how many patents") and the answer gives a number of
    it ("大约80项", "about 80 patents"): an answer to the question, whatever else it says."""
    if language == "zh":
        unit = re.search(r"(?:多少|几)个?([\u4e00-\u9fff])", question)
        if unit is None or unit[1] in "年月日天岁元倍":
            return False
        return re.search(rf"[\d零〇一二两三四五六七八九十百千万]\s*(?:余|多)?{unit[1]}", answer) is not None
    m = re.search(r"\bhow many ([a-z]+)", question, re.I)
    if not m:
        return False
    noun = m[1].lower().rstrip("s")
    return re.search(rf"\b\d[\d,.]*\s+(?:[a-z-]+\s+)?{re.escape(noun)}", answer, re.I) is not None


def _off_the_question(answer: str, question: str, language: str) -> bool:
    """The answer says nothing of what the question asks: none of the question's content words, names
    and values aside, is in it ("born in 1979, a trader" for "what is his blood type?"), nor a measure of the kind
    it asks for ("165 cm tall" for "what is her height?")."""
    if any(asks.search(question) and named.search(answer) and gives.search(answer) for asks, named, gives in _MEASURES):
        return False
    if _counts_asked(answer, question, language):
        return False
    if language == "en":
        question = _P_CAPITALISED.sub(" ", question)
    else:
        for ent in _analyse(question, language).entities:
            question = question.replace(ent.name, " ")
    asked = set(_content_tokens(question, language))
    return bool(asked) and not asked & set(_content_tokens(answer, language))


def _opens_declining(answer: str, language: str) -> bool:
    """The answer opens by declining ("Unable to answer: the report gives X but not Y") and guesses nothing."""
    t = _analyse(answer, language)
    return bool(t.clauses) and t.clauses[0].refusal and not _P_SPECULATION.search(answer)


def _bare_value(answer: str, language: str) -> bool:
    """An answer that is a value and little else ("Approximately $3.41 billion, based on the report."): an answer
    to the question, whatever its words."""
    t = _analyse(answer, language)
    return bool(t.values) and len(_content_tokens(t.masked, language)) <= 2


def _judge_unanswerable(kp: str, answer: str, language: str, question: str | None = None) -> KeypointLabel:
    if not answer.strip():
        return KeypointLabel(keypoint=kp, label="Irrelevant", reason="empty answer")
    if is_refusal(answer, language):
        return KeypointLabel(keypoint=kp, label="Relevant", reason="declines to answer an unanswerable question")
    if _concludes_declining(answer, language) or _opens_declining(answer, language):
        return KeypointLabel(keypoint=kp, label="Relevant",
                             reason="declines to answer the question, saying what the documents hold")
    if _P_SPECULATION.search(answer) or _bare_value(answer, language):
        return KeypointLabel(keypoint=kp, label="Wrong", reason="guesses an answer to an unanswerable question")
    if question and _off_the_question(answer, question, language):
        return KeypointLabel(keypoint=kp, label="Irrelevant", reason="neither declines nor answers the question asked")
    return KeypointLabel(keypoint=kp, label="Wrong", reason="asserts an answer to an unanswerable question")
