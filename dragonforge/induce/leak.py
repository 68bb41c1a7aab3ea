"""Seeds teach form, never facts: the leak lint.

Induction writes a *fingerprint* of its seeds into the pack (``leak.json``): keyed hashes, so the
pack can be shared while the seeds cannot, of

- every distinctive seed value: names of people and organisations, codes, addresses, non-round
  amounts (and the typed values found inside records and prose);
- every English 8-word run / Chinese 15-character run of seed prose that is not boilerplate (a
  run found in two or more seeds is the genre's wording, not a fact);
- each seed's word 3-gram (English) / character 4-gram (Chinese) shingles, to find a document
  close to a seed.

:func:`lint` checks generated documents against it; every build of a genre pack runs it (before
anything is written) and records the result in the manifest; ``check-genre`` runs it on the
documents it draws. The interpreter also redraws a name or code whose hash is in the fingerprint,
so a value Faker happens to share with a seed never reaches a document.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING

from dragonforge.induce.values import Value, classify, spans

if TYPE_CHECKING:
    from dragonforge.induce.parse import Document

FILE = "leak.json"
EN_RUN = 8  # words
ZH_RUN = 15  # characters
CLOSE = 0.5  # Jaccard of shingles above which a document is "close to a seed"
_DISTINCTIVE_KINDS = {"person", "organisation", "party", "code", "address"}


_TOKEN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9'&.,\-/]*[A-Za-z0-9])?|[\u3400-\u9fff]")
_NUMBER = re.compile(r"^\d[\d,]*(?:\.\d+)?$")


def _canon(token: str) -> str:
    if _NUMBER.match(token):
        return format(Decimal(token.replace(",", "")).normalize(), "f")  # exact: 13,150.00 = 13150
    return token.lower()


def _tokens(text: str, language: str = "en") -> list[str]:
    """Words (English) and characters (Chinese), numbers as one token in one exact canonical
    form, so a value matches however it is written (full-width digits too) and never inside a
    longer number; a possessive or a slash or hyphen between words splits them."""
    text = unicodedata.normalize("NFKC", text)
    text = re.sub(r"(?<=[A-Za-z])'s\b|(?<=[A-Za-z])[/-](?=[A-Za-z])", " ", text)
    return [_canon(t) for t in _TOKEN.findall(text)]


def norm(text: str) -> str:
    return " ".join(_tokens(text))


@dataclass
class Fingerprint:
    language: str
    salt: str
    values: set[str] = field(default_factory=set)
    runs: set[str] = field(default_factory=set)
    shingles: list[set[str]] = field(default_factory=list)
    value_lengths: set[int] = field(default_factory=set)  # in words (en) / characters (zh)
    allow_prose: bool = False
    plain_values: set[str] = field(default_factory=set)  # in memory only (induction): never written
    plain_prose: list[str] = field(default_factory=list)  # in memory only: each seed's prose tokens
    plain_docs: list[str] = field(default_factory=list)  # in memory only: each seed's tokens

    def h(self, text: str) -> str:
        return hashlib.blake2b(norm(text).encode(), key=self.salt.encode()[:64], digest_size=8).hexdigest()

    def value_in(self, text: str) -> str | None:
        """The first distinctive seed value written in ``text``, if any (line by line)."""
        for line in text.split("\n"):
            toks = _tokens(line)
            for n in sorted(self.value_lengths):
                if n < 1:
                    continue
                for i in range(len(toks) - n + 1):
                    piece = " ".join(toks[i:i + n])
                    if piece and self.h(piece) in self.values:
                        return piece
        return None

    def to_json(self) -> str:
        return json.dumps({"about": "keyed hashes of the seeds' distinctive values, prose runs and shingles; "
                                    "the leak lint checks every generated document against them",
                           "language": self.language, "salt": self.salt, "allow_prose": self.allow_prose,
                           "values": sorted(self.values), "value_lengths": sorted(self.value_lengths),
                           "runs": sorted(self.runs), "shingles": [sorted(s) for s in self.shingles]},
                          ensure_ascii=False, indent=0)

    @classmethod
    def from_json(cls, text: str) -> Fingerprint:
        data = json.loads(text)
        return cls(language=data["language"], salt=data["salt"], values=set(data["values"]),
                   runs=set(data["runs"]), shingles=[set(s) for s in data["shingles"]],
                   value_lengths=set(data.get("value_lengths", [])), allow_prose=bool(data.get("allow_prose")))


def is_round(x: float) -> bool:
    if abs(x) < 1000:
        return True
    step = 1000 if abs(x) >= 10000 else 100
    return abs(x / step - round(x / step)) < 1e-9


def is_distinctive_value(value: Value) -> bool:
    if value.kind == "code":  # an identifier; SEV-1 or P2 is a category, not a fact
        return sum(c.isdigit() for c in value.text) >= 3
    if value.kind in _DISTINCTIVE_KINDS:  # a Chinese name of two characters is a name too
        cjk = re.search(r"[\u4e00-\u9fff]", value.text)
        return len(value.text) >= ((2 if value.kind == "person" else 3) if cjk else 5)
    if value.kind in ("money", "count", "quantity") and value.number is not None:
        return not is_round(value.number)
    return False


def _runs(text: str, language: str) -> list[str]:
    toks = _tokens(text)
    n = ZH_RUN if language == "zh" else EN_RUN
    return [" ".join(toks[i:i + n]) for i in range(len(toks) - n + 1)]


def _shingles(text: str, language: str) -> set[str]:
    toks = _tokens(text)
    n = 4 if language == "zh" else 3
    return {" ".join(toks[i:i + n]) for i in range(len(toks) - n + 1)}


def fingerprint(docs: list[Document], language: str, values: list[Value], salt: str | None = None) -> Fingerprint:
    """The fingerprint of the seeds: their slot values plus every typed value and name found in
    their text, their prose runs (boilerplate left out), their shingles."""
    fp = Fingerprint(language=language, salt=salt or secrets.token_hex(16))
    found: list[Value] = list(values)
    for doc in docs:
        labels = {norm(f.label) for f in doc.fields} | {norm(sec.title) for sec in doc.sections}
        found += [f.value for f in doc.fields]
        texts = [sentence for sec in doc.sections for _, sentence in sec.prose]
        texts += [r.text for sec in doc.sections for run in sec.runs for r in run]
        texts += [f.value.text for f in doc.fields] + [doc.title]
        for text in texts:
            found += [v for _, _, v in spans(text, language)]
            for chunk in re.split(r"[,，;；()（）:：|–—/]+|\s-\s|\s{2,}", text):
                chunk = chunk.strip(" .。")
                if chunk and norm(chunk) not in labels:
                    v = classify(chunk, language)
                    if v.kind in ("person", "organisation", "address"):
                        found.append(v)
    seen_in: Counter[str] = Counter()  # a value two seeds share is the genre's (SEV-1, a standard), not a fact
    for doc in docs:
        text = norm(doc.text)
        for v in {norm(v.text): v for v in found}.values():
            if norm(v.text) and f" {norm(v.text)} " in f" {text} ":
                seen_in[norm(v.text)] += 1
    for v in found:
        if seen_in[norm(v.text)] >= 2:
            continue
        if is_distinctive_value(v) and norm(v.text):
            forms = [v.text]
            if v.kind in ("money", "count", "quantity") and v.number is not None:
                forms.append(str(v.number))  # the bare amount: $12,450 and USD 12,450.00 alike
            for form in forms:
                if norm(form):
                    fp.values.add(fp.h(form))
                    fp.plain_values.add(norm(form))  # in memory only, for the pack's own pools and titles
                    fp.value_lengths.add(len(_tokens(form)))
    counts: Counter[str] = Counter()
    per_doc = []
    for doc in docs:
        runs = set(_runs(_prose(doc), language))
        per_doc.append(runs)
        counts.update(runs)
        fp.shingles.append({fp.h(s) for s in _shingles(doc.text, language)})
    for runs in per_doc:
        fp.runs.update(fp.h(r) for r in runs if counts[r] < 2)
    fp.plain_prose = [f" {' '.join(_tokens(_prose(doc)))} " for doc in docs]
    fp.plain_docs = [f" {' '.join(_tokens(doc.text))} " for doc in docs]
    return fp


_MARKER = re.compile(r"^\s*(?:[-*•·▪●○◦]\s+|\[[ xX]?\]\s*|[☐☑✔✓□■]\s*|\d{1,2}[.)、]\s*|\(\d{1,2}\)\s*|（\d{1,2}）\s*)")


def _prose(doc: Document) -> str:
    """A seed's prose: its sentences, its record lines and its long values (not its labels)."""
    parts = [sentence for section in doc.sections for _, sentence in section.prose]
    parts += [_MARKER.sub("", r.text) for section in doc.sections for run in section.runs for r in run]
    parts += [f.value.text for f in doc.fields if len(_tokens(f.value.text)) >= 5]
    return "\n".join(parts)


def distinctive(text: str, fp: Fingerprint, language: str) -> bool:
    """Whether ``text`` (a heading, a title, a pool value) holds a distinctive seed value."""
    low = f" {norm(text)} "
    return any(v and f" {v} " in low for v in fp.plain_values)


GENERIC_EN_WORDS = 4
GENERIC_ZH_CHARS = 8


def generic(text: str, fp: Fingerprint, language: str) -> bool:
    """A seed value a pack may reuse as vocabulary: one two or more seeds write (the genre's
    word: ``SEV-1``, ``fire``), or a short generic phrase: at most 4 words (8 Chinese
    characters), no digits, no proper name (no capital past the first word). Anything longer is
    one document's fact."""
    toks = _tokens(text)
    if toks and not fp.plain_docs:
        return True  # no seeds in memory (a pack loaded from disk): nothing to compare with
    phrase = f" {' '.join(toks)} "
    if sum(1 for d in fp.plain_docs if phrase in d) >= 2:
        return True
    if re.search(r"\d", text):
        return False
    if language == "zh":
        return len(re.sub(r"\s", "", text)) <= GENERIC_ZH_CHARS and not re.search(r"[A-Za-z]", text)
    words_ = text.split()
    return len(words_) <= GENERIC_EN_WORDS and not any(w[:1].isupper() for w in words_[1:] if w != "I")


def safe_pool_value(text: str, fp: Fingerprint, language: str,
                    contexts: list[tuple[str, str]] | None = None) -> bool:
    """A seed value the pack may reuse: short (under a prose run), no distinctive value in it,
    no name or code, and no run of seed prose once written between the words around it
    (``contexts``: the literal text before and after it, a label or a record line's)."""
    if not text or distinctive(text, fp, language):
        return False
    if not generic(text, fp, language):
        return False
    margin = 3  # a drawn neighbour (a name's surname, a clock's minutes) may complete a run
    limit = (ZH_RUN if language == "zh" else EN_RUN) - margin
    for before, after in contexts or [("", "")]:
        written = f"{before}{text}{after}"
        if not fp.allow_prose and any(fp.h(r) in fp.runs for r in _runs(written, language)):
            return False
        toks = _tokens(written)
        if len(toks) >= limit and any(f" {' '.join(toks)} " in prose for prose in fp.plain_prose):
            return False
    if len(_tokens(text)) >= (ZH_RUN if language == "zh" else EN_RUN):
        return False
    if re.search(r"\d{3,}", text):
        return False
    v = classify(text, language)
    return v.kind not in _DISTINCTIVE_KINDS or (v.kind == "code" and not is_distinctive_value(v))


@dataclass
class LintResult:
    documents: int = 0
    problems: list[str] = field(default_factory=list)
    max_similarity: float = 0.0
    checked: bool = True
    reason: str = ""

    def summary(self) -> dict:
        return {"checked": self.checked, "documents": self.documents, "problems": len(self.problems),
                "max_similarity_to_a_seed": round(self.max_similarity, 3), "close_threshold": CLOSE,
                "first_problems": self.problems[:10], **({"reason": self.reason} if self.reason else {})}


def lint(documents: list[tuple[str, str]], fp: Fingerprint) -> LintResult:
    """``documents``: (id, text). A problem per distinctive seed value, seed prose run or
    closeness to a seed found in a document."""
    result = LintResult(documents=len(documents))
    language = fp.language
    for doc_id, text in documents:
        hit = fp.value_in(text)
        if hit:
            result.problems.append(f"document {doc_id}: a distinctive seed value ({_mask(hit)})")
        if not fp.allow_prose:
            run = next((r for r in _runs(text, language) if fp.h(r) in fp.runs), None)
            if run:
                result.problems.append(f"document {doc_id}: a run of seed prose ({_mask(run)})")
        shingles = {fp.h(s) for s in _shingles(text, language)}
        for k, seed in enumerate(fp.shingles):
            if shingles and seed:
                sim = len(shingles & seed) / len(shingles | seed)
                result.max_similarity = max(result.max_similarity, sim)
                if sim > CLOSE:
                    result.problems.append(f"document {doc_id}: close to seed {k + 1} (shingle Jaccard {sim:.2f})")
    return result


def leaking(documents: list[str], fp: Fingerprint) -> list[str]:
    """The seed runs and values themselves (token form) found in ``documents``: for induction to
    prune the pool values that formed them; never printed."""
    found: list[str] = []
    for text in documents:
        hit = fp.value_in(text)
        if hit:
            found.append(hit)
        if not fp.allow_prose:
            found += [r for r in _runs(text, fp.language) if fp.h(r) in fp.runs]
    return found


def _mask(text: str) -> str:
    """Enough of the leaked text to find it, not all of it (the lint's output may be shared)."""
    return text[:3] + "…" + f" ({len(text)} characters)"


def load(folder: Path) -> Fingerprint | None:
    path = Path(folder) / FILE
    if not path.is_file():
        return None
    return Fingerprint.from_json(path.read_text(encoding="utf-8"))
