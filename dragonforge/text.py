"""Language helpers shared by the generator and the validator."""

from __future__ import annotations

import re

_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
# A code such as CLM-2019-554781, HP-KF-7455357 or ICD-10: letters inside a token that holds a
# digit are part of an identifier, not English words in a Chinese text.
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9\-/_.]*")
ZH_TERMINATORS = "。！？"


def cjk_count(text: str) -> int:
    return len(_CJK.findall(text))


def detect_language(text: str) -> str:
    """'zh' when CJK characters dominate the letters of ``text``, else 'en'."""
    cjk = cjk_count(text)
    latin = sum(len(w) for w in _LATIN_WORD.findall(text))
    return "zh" if cjk >= latin else "en"


def language_problem(text: str, language: str) -> str | None:
    """Why ``text`` is not written in ``language``, or None when it is."""
    cjk = cjk_count(text)
    if language == "en":
        return f"{cjk} Chinese characters in an English text" if cjk else None
    latin = sum(len(w) for token in _TOKEN.findall(text) if not any(c.isdigit() for c in token)
                for w in _LATIN_WORD.findall(token))
    if cjk == 0 or latin > cjk * 0.2:
        return f"Chinese text has {cjk} Chinese characters but {latin} Latin letters"
    return None


def split_zh(text: str) -> list[str]:
    """Chinese sentence split as the reference implementation does it (method.md §3)."""
    parts = re.split(r"(?<=[。！？])|\n", text)
    return [p.strip() for p in parts if p.strip()]
