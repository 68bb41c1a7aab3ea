"""One seed (or corpus document) as structure: a title, sections under headings (bare,
numbered ``5.`` / ``2)`` / ``五、`` / ``（二）``, Markdown ``#``), labelled lines (several on a line
split at ``;``), runs of record lines (bullets, numbered items, timelines, table rows) and prose
sentences, some of which are labelled too. Every piece keeps its line number.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dragonforge.induce.values import TIME, Value, classify, words
from dragonforge.text import cjk_count

_ZH_NUM = "一二三四五六七八九十"
NUMBERING = re.compile(
    rf"^\s*(?:#+\s*|(?:Section|Part|Chapter|Schedule)\s+[\dA-Z]+\s*[.:—–-]?\s*|\d{{1,2}}(?:\.\d{{1,2}})*[.)、]\s*|"
    rf"\(\d{{1,2}}\)\s*|（\d{{1,2}}）\s*|[A-H][.)]\s+|[IVX]{{1,4}}[.)]\s+|[{_ZH_NUM}]{{1,3}}[、.．]\s*|（[{_ZH_NUM}]{{1,3}}）\s*|"
    rf"第[{_ZH_NUM}百\d]+[章节部分条]\s*)")
BULLET = re.compile(r"^\s*(?:[-*•·▪●○◦]\s+|\[[ xX]?\]\s*|[☐☑✔✓□■]\s*)")
_OFFSET = re.compile(r"^\s*(?:[+＋]\s?\d+\s?(?:min|mins|minutes|h|hours?|s|sec)\b|T[+-]\d+|第\s?\d+\s?分钟|Day\s\d+\b)",
                     re.I)
_LABEL_LINE = re.compile(r"^(?P<label>[^:：]{1,60}?)\s*[:：]\s*(?P<value>.*)$")
_TERMINAL = re.compile(r"[.。!！?？]$")
_SENTENCES_EN = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'])")
_SENTENCES_ZH = re.compile(r"(?<=[。！？；])")


@dataclass
class Field:
    """A labelled value: ``Label: value``."""

    label: str
    value: Value
    line: int  # 1-based line number in the document
    section: int
    order: int  # its index among the document's fields
    in_prose: bool = False
    source: str = ""  # the whole line (or sentence) it stands in
    companion: bool = False  # the date a seed wrote after a name (``Reviewed by: X on DATE``), its label made up


@dataclass
class Record:
    """One line of a run of record lines (a list item, a timeline entry, a table row)."""

    text: str
    line: int
    marker: str  # bullet, number, time, offset, table, count


@dataclass
class Section:
    index: int
    heading: str  # the heading line as written ("" for the part before the first heading)
    title: str  # without its numbering
    numbering: str
    line: int
    fields: list[Field] = field(default_factory=list)
    runs: list[list[Record]] = field(default_factory=list)
    prose: list[tuple[int, str]] = field(default_factory=list)  # (line, sentence)


@dataclass
class Document:
    name: str
    language: str
    text: str
    title: str
    title_line: int
    sections: list[Section]

    @property
    def fields(self) -> list[Field]:
        return [f for s in self.sections for f in s.fields]

    @property
    def lines(self) -> list[str]:
        return self.text.split("\n")


def strip_numbering(line: str) -> tuple[str, str]:
    m = NUMBERING.match(line)
    if not m or not m.group(0).strip():
        return "", line.strip()
    return m.group(0).strip(), line[m.end():].strip().strip("—–-:： ").strip()


def _short(text: str, language: str, limit_en: int = 7, limit_zh: int = 16) -> bool:
    return (cjk_count(text) <= limit_zh and len(text) <= limit_zh + 8) if language == "zh" else \
        (len(text.split()) <= limit_en and len(text) <= 60)


_LEADER = re.compile(r"^(?P<label>[^.:：]{1,60}?)\s*(?:\.{3,}|…{2,}|·{3,}|_{3,})\s*(?P<value>\S.*)$")
_COLUMNS = re.compile(r"^(?P<label>\S.{0,58}?\S)(?:\s{3,}|\t+)(?P<value>\S.*)$")


def labelled(line: str, language: str) -> tuple[str, str] | None:
    """``Label: value`` when the line (or sentence) is one; the colon of a clock time is no label's.
    Also ``Label ........ value`` (dot leaders) and ``Label      value`` (aligned columns)."""
    stripped = line.strip()
    m = _LABEL_LINE.match(stripped)
    if not m:
        m = _LEADER.match(stripped) or _COLUMNS.match(stripped)
        if not m:
            return None
        label, value = m.group("label").strip(), m.group("value").strip()
        if not value or not _short(label, language, 8, 20) or _TERMINAL.search(label) or "  " in value.strip()[:3]:
            return None
        return BULLET.sub("", label).strip("*_ ").strip(), value
    label, value = m.group("label").strip(), m.group("value").strip()
    colon = m.start("value") - 1
    if re.search(r"\d\s*$", label) and re.match(r"\s*\d{2}", line[colon + 1:]):  # 14:03
        return None
    bare = re.sub(r"\b[A-Za-z]{1,4}\.$", "", label).strip()  # "Policy No.", "Ref." end in an abbreviation
    if not label or _TERMINAL.search(bare) or not _short(label, language, 8, 20):
        return None
    if label.count("(") != label.count(")") or label.count("（") != label.count("）"):
        return None  # "AI-2 Reuse the pool (owner: ...": a record, not a label
    if language == "zh" and re.search(r"[，。；]", label):
        return None
    if language == "en" and (label[:1].islower() and len(label.split()) > 3):
        return None
    return BULLET.sub("", label).strip("*_ ").strip(), value.strip("*_ ").strip()


def _is_heading(line: str, next_line: str, language: str) -> bool:
    text = line.strip()
    if not text or BULLET.match(text) or TIME.match(text) or _OFFSET.match(text):
        return False
    numbering, rest = strip_numbering(text)
    if text.startswith("#"):
        return True
    if not rest or _TERMINAL.search(rest) or "|" in rest:
        return False
    if text.endswith((":", "：")) and labelled(text[:-1] + ": x", language) and _short(rest, language, 6, 12):
        return True  # "Labour on site:" over a list
    if labelled(text, language) and not text.endswith((":", "：")):
        return False
    if not _short(rest, language, 7 if numbering else 6, 14 if numbering else 12):
        return False
    if re.search(r"\d", rest) and not numbering:
        return False
    if language == "en" and rest[:1].islower():
        return False
    return bool(next_line.strip())


def unwrap(lines: list[str], language: str) -> list[tuple[int, str]]:
    """Lines of a wrapped paragraph joined (a line that runs on into a next one starting in lower
    case); each kept with the number of its first line."""
    out: list[tuple[int, str]] = []
    for i, line in enumerate(lines):
        stripped = line.strip()
        if out and stripped and out[-1][1].strip() and language == "en" and stripped[:1].islower() and \
                not _TERMINAL.search(out[-1][1].strip()) and not out[-1][1].rstrip().endswith((":", "：")) and \
                len(out[-1][1]) >= 40 and not BULLET.match(stripped) and not labelled(stripped, language):
            out[-1] = (out[-1][0], out[-1][1].rstrip() + " " + stripped)
            out.append((i, ""))  # the joined line stays, empty, so numbering holds
            continue
        if out and stripped and out[-1][1].strip() and language == "en" and len(out[-1][1]) >= 60 and \
                not _TERMINAL.search(out[-1][1].strip()) and not out[-1][1].rstrip().endswith((":", "：")) and \
                not labelled(stripped, language) and not BULLET.match(stripped) and not NUMBERING.match(stripped) \
                and not _is_heading(stripped, "x", language):
            out[-1] = (out[-1][0], out[-1][1].rstrip() + " " + stripped)
            out.append((i, ""))
            continue
        out.append((i, line))
    return out


def parse(text: str, name: str, language: str, unwrap_lines: bool = True) -> Document:
    """``unwrap_lines``: join a wrapped paragraph's lines (a seed); off for a corpus document,
    whose references must be its own lines, verbatim."""
    lines = [line for _, line in unwrap(text.split("\n"), language)] if unwrap_lines else text.split("\n")
    numbered_run = _numbered_runs(lines)
    title, title_line = "", 0
    sections = [Section(0, "", "", "", 0)]
    order = 0
    current_run: list[Record] = []

    def close_run() -> None:
        nonlocal current_run
        if current_run:
            sections[-1].runs.append(current_run)
        current_run = []

    for i, raw in enumerate(lines):
        line = raw.strip()
        number = i + 1
        if not line:
            close_run()
            continue
        following = next((ln for ln in lines[i + 1:] if ln.strip()), "")
        if not title:
            if _short(strip_numbering(line)[1], language, 14, 40) and not labelled(line, language):
                title, title_line = line.lstrip("# ").strip(), number
                continue
        if i not in numbered_run and _is_heading(line, following, language):
            close_run()
            numbering, rest = strip_numbering(line)
            sections.append(Section(len(sections), line, rest.rstrip(":："), numbering, number))
            continue
        marker = _marker(line, i in numbered_run)
        if marker:
            body = BULLET.sub("", line) if marker == "bullet" else line
            if marker == "number":
                body = NUMBERING.sub("", line, count=1).strip()
            pair = labelled(body, language) if marker in ("bullet", "number") else None
            if pair and _field_like(pair, language):
                close_run()
                for field in _fields(pair[0], pair[1], language, number, len(sections) - 1, order, line, unwrap_lines):
                    sections[-1].fields.append(field)
                    order += 1
                continue
            current_run.append(Record(line, number, marker))
            continue
        close_run()
        parts = [p for p in re.split(r"\s*[;；|]\s*|\s{3,}", line) if p.strip()]
        pairs = [labelled(p, language) for p in parts]
        if not (pairs and all(pairs)) and labelled(line, language):  # "Claim number:    CLM-1": one pair
            parts, pairs = [line], [labelled(line, language)]
        found = [p for p in pairs if p is not None]  # all of them, when every part is a pair
        if pairs and len(found) == len(pairs) and all(_field_like(p, language) for p in found):
            for pair in found:
                for field in _fields(pair[0], pair[1], language, number, len(sections) - 1, order, line, unwrap_lines):
                    sections[-1].fields.append(field)
                    order += 1
            continue
        for sentence in split_sentences(line, language):
            pair = labelled(sentence, language)
            if pair and _field_like(pair, language, prose=True):
                value = pair[1].rstrip(".。")
                sections[-1].fields.append(Field(pair[0], classify(value, language), number, len(sections) - 1,
                                                 order, in_prose=True, source=sentence))
                order += 1
            else:
                sections[-1].prose.append((number, sentence))
    close_run()
    return Document(name, language, text, title, title_line, [s for s in sections if s.fields or s.runs or s.prose or
                                                                s.index == 0])


_DATED = re.compile(r"^(?P<head>.+?)(?:\s*[,，]\s*|\s+on\s+|\s+[—–]\s+|\s*[(（])(?P<tail>[^,，()（）]+?)[)）]?$")


def _fields(label: str, text: str, language: str, line: int, section: int, order: int, source: str,
            split: bool) -> list[Field]:
    """The field a labelled line holds; a name with a date after it (``Reviewed by: Claire Dubois
    on 2024-07-24``, ``Sign-off: Oliver Grant, 2025-04-09``, ``审核人：张三，2024年3月4日``) is two
    fields, the date under a label of its own (in a seed only: a corpus keeps its fields whole)."""
    value = classify(text, language)
    m = _DATED.match(text.strip()) if split and value.kind in ("person", "organisation", "party") else None
    if m and classify(m.group("tail"), language).kind == "date":
        head = classify(m.group("head"), language)
        if head.kind in ("person", "organisation", "party"):
            if language == "zh":
                date_label = re.sub(r"[人者方]$", "", label) + "日期"
            else:
                date_label = re.sub(r"\s+by$", "", label, flags=re.I) + " date"
            return [Field(label, head, line, section, order, source=source),
                    Field(date_label, classify(m.group("tail"), language), line, section, order + 1, source=source,
                          companion=True)]
    return [Field(label, value, line, section, order, source=source)]


def _field_like(pair: tuple[str, str], language: str, prose: bool = False) -> bool:
    label, value = pair
    if not value or not label:
        return False
    if prose and words(label, language) > (4 if language == "en" else 10):
        return False
    return not (language == "en" and label.split()[0].lower() in {"the", "a", "an", "we", "it", "this", "they"})


def _marker(line: str, numbered: bool) -> str | None:
    if BULLET.match(line):
        return "bullet"
    if _OFFSET.match(line):
        return "offset"
    if TIME.match(line.strip()) and TIME.match(line.strip()).start() == 0:  # type: ignore[union-attr]
        return "time"
    if numbered:
        return "number"
    if line.count("|") >= 2:
        return "table"
    if re.match(r"^\d+\s?[x×]\s", line):
        return "count"
    if re.match(r"^[A-Z]{1,4}-?\d{1,3}\b\s?(?:[-–—:.)]|\(|\s[A-Z])", line):
        return "id"  # F1 (Major) - ..., CA2 - ..., AI-3 Run ...
    return None


def _numbered_runs(lines: list[str]) -> set[int]:
    """Indexes of lines that are items of a numbered list: two or more numbered lines in a row
    (numbered headings stand alone, with content between them)."""
    out: set[int] = set()
    style = [(_style(ln) if ln.strip() else None) for ln in lines]
    i = 0
    while i < len(lines):
        if style[i] is None:
            i += 1
            continue
        j = i
        while j + 1 < len(lines) and style[j + 1] == style[i] and _number(lines[j + 1]) == _number(lines[j]) + 1:
            j += 1
        if j > i:
            out.update(range(i, j + 1))
        i = j + 1
    return out


_ZH_DIGITS = {c: i for i, c in enumerate("零一二三四五六七八九十")}


def _number(line: str) -> int:
    """The number a numbered line starts with (``3.``, ``(3)``, ``三、``, ``C.``, ``III.``)."""
    m = NUMBERING.match(line)
    text = m.group(0) if m else ""
    digits = re.search(r"\d+", text)
    if digits:
        return int(digits.group(0))
    zh = re.search(r"[一二三四五六七八九十]+", text)
    if zh:
        chars = zh.group(0)
        if chars == "十":
            return 10
        if chars.startswith("十"):
            return 10 + _ZH_DIGITS.get(chars[1:], 0)
        if chars.endswith("十"):
            return _ZH_DIGITS.get(chars[0], 0) * 10
        if "十" in chars:
            a, b = chars.split("十")
            return _ZH_DIGITS.get(a, 0) * 10 + _ZH_DIGITS.get(b, 0)
        return _ZH_DIGITS.get(chars, 0)
    roman = re.search(r"\b[IVX]+\b", text)
    if roman:
        values = {"I": 1, "V": 5, "X": 10}
        total, prev = 0, 0
        for ch in reversed(roman.group(0)):
            v = values[ch]
            total, prev = (total - v, prev) if v < prev else (total + v, v)
        return total
    letter = re.search(r"\b[A-H]\b", text)
    return ord(letter.group(0)) - 64 if letter else -1


def _style(line: str) -> str | None:
    m = NUMBERING.match(line)
    if not m or not m.group(0).strip() or m.group(0).lstrip().startswith("#"):
        return None
    return re.sub(r"\d+|[一二三四五六七八九十]+|[A-H]|[IVX]+", "N", m.group(0).strip())


def split_sentences(line: str, language: str) -> list[str]:
    parts = _SENTENCES_ZH.split(line) if language == "zh" else _SENTENCES_EN.split(line)
    return [p.strip() for p in parts if p.strip()]
