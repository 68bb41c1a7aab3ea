"""Words: content tokens (jieba for Chinese, light stemming for English) and the overlap measures built on them."""

from __future__ import annotations

import logging
import re
from functools import lru_cache

# --- tokens --------------------------------------------------------------------------------------

_STOP_EN = set("""a an the was were is are be been being of in on at to for by with from as and or that this these those
it its his her their he she they them which who whom whose what when where had has have did do does also there into
over about approximately around nearly some each per i we you our your than then so such both either any all
will would can could should may might must shall very just only same other another respectively while whereas
according based year defendant defendants patient patients company after before since until during
got get gets received receive receives given gave give took taken take made make makes
versus vs against compared whilst far well above below""".split())  # (the words of a comparison relate, they label nothing)
_STOP_ZH = set("的 了 为 是 于 在 和 与 及 其 该 等 共 并 对 由 被 将 之 或 而 也 都 已 所 以 即 分别 以及 其中 有关 相关 为止 "
               "根据 按照 约 达 达到 累计 全年 年度 本 此 各 被告人 患者 公司 本案 该案 位于".split())  # 位于: a copula of place
_P_WORD_EN = re.compile(r"[a-z][a-z0-9]*(?:['’][a-z]+)?|\d+[a-z]+[a-z0-9]*")
_P_CJK = re.compile(r"[\u4e00-\u9fff]")


_SEX_WORDS_EN = {"man": "male", "men": "male", "woman": "female", "women": "female"}
# the verb an event noun is made from, where the stem does not show it (detention / detained): general English
_DERIVED_EN = {"detention": "detain", "admission": "admit", "acquisition": "acquire", "birth": "born", "death": "die",
               "growth": "grow", "loss": "lose", "sale": "sell", "payment": "pay", "treatment": "treat",
               "issuance": "issue", "imprisonment": "imprison", "appointment": "appoint", "resignation": "resign",
               "approval": "approve", "dismissal": "dismiss", "withdrawal": "withdraw", "settlement": "settle",
               "prescription": "prescribe", "infusion": "infuse", "injection": "inject", "decision": "decide",
               "reduction": "reduce", "prison": "imprison", "jail": "imprison",  # (N years in prison: imprisonment)
               "hospitalization": "stay", "hospitalisation": "stay"}  # (a hospital stay)


@lru_cache(maxsize=65536)
def _stem(word: str) -> str:
    """A word's stem: its lemma (simplemma: "underwent" is "undergo", "sold" is "sell"), or the verb an event noun
    is made from, cut by Snowball's English stemmer to six letters."""
    w = word.lower().replace("’", "'").removesuffix("'s")
    w = _SEX_WORDS_EN.get(w, w)  # "a man" states "male"
    w = _DERIVED_EN.get(w) or _lemma(w)
    return _english_stemmer().stemWord(w)[:6]


def _lemma(word: str) -> str:
    import simplemma

    # (simplemma gives a proper noun's lemma capitalised, "nebraska" -> "Nebraska"; a stem is lower case)
    return simplemma.lemmatize(word, lang="en").lower() if word.isalpha() else word


_stemmer = None


def _english_stemmer():
    """Snowball's English (Porter2) stemmer, loaded on first use."""
    global _stemmer
    if _stemmer is None:
        import snowballstemmer

        _stemmer = snowballstemmer.stemmer("english")
    return _stemmer


_jieba_module = None


def _initialised_jieba():
    jieba = _jieba()
    jieba.initialize()
    return jieba


def _jieba():
    """jieba, loaded on first use and kept quiet."""
    global _jieba_module
    if _jieba_module is None:
        import jieba

        jieba.setLogLevel(logging.WARNING)
        _jieba_module = jieba
    return _jieba_module


@lru_cache(maxsize=65536)
def _content_tokens(text: str, language: str) -> tuple[str, ...]:
    """Content words: en stems minus stopwords; zh jieba words of two or more characters minus stopwords."""
    if language == "zh":
        words = _jieba().lcut(text)
        return tuple(w for w in words if len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH)
    return tuple(_stem(w) for w in _P_WORD_EN.findall(text.lower()) if w not in _STOP_EN and len(w) > 1)
_P_DIR_WORD_EN = re.compile(r"[a-z]+(?:-[a-z]+)?")


def _has_word(text: str, word: str, language: str) -> bool:
    if language == "zh":
        return word in text
    return word in _word_set(text)


@lru_cache(maxsize=65536)
def _word_set(text: str) -> frozenset[str]:
    return frozenset(_P_DIR_WORD_EN.findall(text.lower()))


def _bigrams(word: str) -> list[str]:
    return [word[i:i + 2] for i in range(len(word) - 1)]


def _coverage(words: tuple[str, ...], target: str, language: str) -> float:
    """Share (by length) of ``words`` that ``target`` states; a long zh word scores by its character pairs."""
    if not words:
        return 1.0
    hit = 0.0
    if language == "zh":
        for w in words:
            if w in target or (len(w) >= 3 and w[-1] in "省市区县" and w[:-1] in target):  # 江苏苏州 = 江苏省苏州市
                hit += len(w)
            elif len(w) >= 3:
                pairs = _bigrams(w)
                hit += len(w) * sum(p in target for p in pairs) / len(pairs)
    else:
        have = set(_content_tokens(target, "en"))
        hit = sum(len(w) for w in words if w in have)
    return hit / sum(len(w) for w in words)


def _share(words: tuple[str, ...], target: str, language: str) -> float:
    """Share (by count) of ``words`` that ``target`` states: how far two contexts name the same quantity."""
    if not words:
        return 0.0
    if language == "zh":
        return sum(w in target for w in words) / len(words)
    have = set(_content_tokens(target, "en"))
    return sum(w in have for w in words) / len(words)


@lru_cache(maxsize=65536)
def _token_spans(text: str, language: str) -> tuple[tuple[str, int, int], ...]:
    """Content words of ``text`` with their offsets (tokenised once per keypoint)."""
    if language == "zh":
        return tuple((w, a, b) for w, a, b in _initialised_jieba().tokenize(text)
                     if len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH)
    return tuple((_stem(m[0]), *m.span()) for m in _P_WORD_EN.finditer(text.lower())
                 if m[0] not in _STOP_EN and len(m[0]) > 1)


# Chinese heads that name a class of nouns: a charge (…罪), a disease (…病, …症), a tumour (…癌, …瘤),
# an inflammation (…炎), a procedure (…术). Two different words with one of these heads are two members of one class.
ZH_CLASS_HEADS = frozenset("罪病症癌瘤炎术")


@lru_cache(maxsize=8192)
def _frame_tokens(text: str, language: str) -> tuple[tuple[str, str], ...]:
    """(stem, word) of each content word, in order; English words keep their case in ``word``."""
    if language == "zh":
        words: list[tuple[str, str]] = []
        last = ""
        for w in _jieba().lcut(text):
            if w in ZH_CLASS_HEADS and words and last == words[-1][1]:
                words[-1] = (last + w, last + w)  # 聚众斗殴 + 罪: a charge, a disease is one word with its head
            elif len(w) >= 2 and _P_CJK.search(w) and w not in _STOP_ZH:
                words.append((w, w))
            last = w
        return tuple(words)
    out = []
    for m in re.finditer(r"[A-Za-z][A-Za-z0-9]*(?:['’][a-z]+)?", text):
        w = m.group(0)
        if w.lower() not in _STOP_EN and len(w) > 1:
            out.append((_stem(w.lower()), w))
    return tuple(out)


def _word_spans(text: str, words: tuple[str, ...], language: str) -> list[tuple[int, int]]:
    """Where the keypoint's words occur in ``text`` (zh by substring, en by stem), in order."""
    spans = []
    if language == "zh":
        for w in words:
            pos = text.find(w)
            if pos >= 0:
                spans.append((pos, pos + len(w)))
    else:
        stems = set(words)
        for m in _P_WORD_EN.finditer(text.lower()):
            if _stem(m[0]) in stems:
                spans.append(m.span())
    return sorted(spans)
