"""The evaluator's metric functions, as method.md §3 defines them (departures say so where they are).

All functions are pure. A query without ground-truth references gets None from the retrieval
functions (the caller leaves it out, or counts 0 in RAGEval compatibility mode); an empty
retrieval or an empty answer scores 0. Sentence splits and tokenisations are cached, because one
evaluation scores the same references and answers with several metrics.
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import re
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from dragonforge.text import split_zh

# pysbd builds its regular expressions on every call, more than the `re` module's cache of 512
# holds, so each English split recompiled them: most of the time of precision and recall on
# retrieved chunks went there. A larger cache gives the same splits without recompiling.
if getattr(re, "_MAXCACHE", 0) < 8192:
    re._MAXCACHE = 8192  # type: ignore[attr-defined]

_CACHE = 1 << 17


@contextmanager
def _quiet_import() -> Iterator[None]:
    """Third-party imports here warn about their own regex escapes; library code prints nothing."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        warnings.simplefilter("ignore", SyntaxWarning)
        yield


# --- sentences and words --------------------------------------------------------------------


@lru_cache(maxsize=1)
def _segmenter() -> Any:
    """One pysbd English segmenter: building it costs more than segmenting a sentence."""
    with _quiet_import():
        from pysbd import Segmenter
    return Segmenter(language="en", clean=False)


_HARMLESS_MARKS = re.compile(r"(?<=\d)\.(?=\d)|(?<=[^\W\d_])'(?=[^\W\d_])")
_BOUNDARY_MARKS = re.compile(r"[.!?。．！？\n\r)\"'“”‘’]")


def _one_sentence(text: str) -> bool:
    """True when pysbd cannot split the stripped text, so it need not run (~1 ms a call).

    That is: no line break, no ')' (lists), no quotes but apostrophes inside words, and no
    sentence mark but decimal points and one final . ! or ? (checked against pysbd in the tests).
    """
    body = _HARMLESS_MARKS.sub("", text[:-1] if text[-1] in ".!?" else text)
    return _BOUNDARY_MARKS.search(body) is None


@lru_cache(maxsize=_CACHE)
def _sentences(text: str, language: str) -> tuple[str, ...]:
    """Cached sentence split; references and answers are split by several metrics."""
    if language == "zh":
        return tuple(split_zh(text))
    if language != "en":
        raise ValueError(f"unsupported language {language!r}; expected 'en' or 'zh'")
    text = text.strip()
    if not text:
        return ()
    if _one_sentence(text):
        return (text,)
    return tuple(s.strip() for s in _segmenter().segment(text) if s.strip())


_CLAIM_BOUNDARY = re.compile(r"(?<=[.!?])\s+(?=[\"'(A-Z0-9])")


@lru_cache(maxsize=_CACHE)
def _claims(text: str, language: str) -> tuple[str, ...]:
    """Sentences of an answer for the offline attribution test (context_recall, faithfulness).
    An approximation already, so English uses a plain punctuation rule instead of pysbd,
    which costs about 2 ms a call on ten thousand answers."""
    if language != "en":
        return _sentences(text, language)
    return tuple(p.strip() for p in _CLAIM_BOUNDARY.split(text.strip()) if p.strip())


def split_sentences(text: str, language: str) -> list[str]:
    """Sentences as the reference implementation splits them: pysbd for en, 。！？ and newlines for zh."""
    return list(_sentences(text, language))


def strip_metadata(chunk: str, keep_space: bool = False) -> str:
    """Drop a leading "(...)" / "（...）" metadata prefix so it does not count as retrieved text,
    and the whitespace after it unless ``keep_space`` (EIR keeps it, as method.md §3 and the
    reference implementation do: a Chinese word count counts those characters too)."""
    if chunk.startswith("("):
        end = chunk.find(")")
    elif chunk.startswith("（"):
        end = chunk.find("）")
    else:
        return chunk
    if end == -1:
        return chunk
    return chunk[end + 1:] if keep_space else chunk[end + 1:].lstrip()


def degenerate(answer: str) -> bool:
    """An answer with no letter, digit or Chinese character in it: empty, ".", "-", "…"."""
    return not _WORD_RUN.search(answer or "")


def word_count(text: str, language: str) -> int:
    """EIR's word count: characters for Chinese, whitespace tokens otherwise."""
    return len(text) if language == "zh" else len(text.split())


# --- retrieval (RAGEval) --------------------------------------------------------------------


def _recalled(reference: str, chunks: Sequence[str], language: str) -> bool:
    """Every sentence of the reference is inside some chunk (not necessarily the same one)."""
    return all(any(s in c for c in chunks) for s in _sentences(reference, language))


def recall(references: Sequence[str], retrieved: Sequence[str], language: str) -> float | None:
    """RAGEval recall: the share of references whose every sentence some retrieved chunk contains."""
    if not references:
        return None
    return sum(_recalled(r, retrieved, language) for r in references) / len(references)


def eir(references: Sequence[str], retrieved: Sequence[str], language: str) -> float | None:
    """Effective information rate: words of matched reference sentences / words retrieved."""
    if not references:
        return None
    joined = " ".join(strip_metadata(c, keep_space=True) for c in retrieved)
    total = word_count(joined, language)
    if total == 0:
        return 0.0
    matched = sum(word_count(s, language) for r in references for s in _sentences(r, language) if s in joined)
    return matched / total


def unique_chunks(retrieved: Sequence[str]) -> list[str]:
    """The retrieved chunks with repeats removed, first rank kept: one chunk returned three times
    is one piece of evidence, not three (every metric sees the list this returns)."""
    seen: set[str] = set()
    out = []
    for chunk in retrieved:
        key = " ".join(strip_metadata(chunk).split())
        if key not in seen:
            seen.add(key)
            out.append(chunk)
    return out


@lru_cache(maxsize=256)
def _squashed(document: str, language: str) -> str:
    """A gold document without its spacing, once per document (every chunk of its queries is checked in it)."""
    return re.sub(r"\s+", "", document) if language == "zh" else " ".join(document.split())


def from_documents(chunk: str, documents: Sequence[str], language: str) -> bool:
    """Whether a chunk comes from one of ``documents``: most of its sentences (of more than 8
    characters) are in one of them. A chunk of another document that happens to share a template
    sentence with a gold document does not."""
    squash = (lambda t: re.sub(r"\s+", "", t)) if language == "zh" else (lambda t: " ".join(t.split()))
    docs = [_squashed(d, language) for d in documents]  # a system may re-join a chunk's lines: spacing is no evidence
    sentences = [squash(s) for s in _sentences(strip_metadata(chunk), language) if len(s) > 8]
    if not sentences:
        return any(squash(strip_metadata(chunk)) in d for d in docs)
    return any(sum(s in d for s in sentences) * 2 > len(sentences) for d in docs)


def is_relevant(chunk: str, references: Sequence[str], language: str, documents: Sequence[str] | None = None) -> bool:
    """A chunk is relevant when, metadata stripped, it contains a sentence of some reference and,
    when the gold documents' texts are given, comes from one of them."""
    body = strip_metadata(chunk)
    if not any(s in body for r in references for s in _sentences(r, language)):
        return False
    return not documents or from_documents(chunk, documents, language)


def _relevance(references: Sequence[str], retrieved: Sequence[str], language: str,
               documents: Sequence[str] | None = None) -> list[bool]:
    return [is_relevant(c, references, language, documents) for c in retrieved]


def precision(references: Sequence[str], retrieved: Sequence[str], language: str,
              documents: Sequence[str] | None = None) -> float | None:
    """The share of retrieved chunks that hold at least one reference sentence."""
    if not references:
        return None
    if not retrieved:
        return 0.0
    return sum(_relevance(references, retrieved, language, documents)) / len(retrieved)


def precision_compat(references: Sequence[str], retrieved: Sequence[str], language: str) -> float:
    """Precision as the reference implementation computes it (since OpenBMB/RAGEval PR #3): the share
    of the top 5 chunks each of whose sentences, metadata prefix included, lies inside some reference.
    So a chunk holding any other text counts 0, an empty one 1, and a query without references scores 0."""
    top = list(retrieved)[:5]
    if not top:
        return 0.0
    joined = "\x00".join(references)
    inside = [_words_inside(c, joined) and all(any(s in r for r in references) for s in _sentences(c, language))
              for c in top]
    return sum(inside) / len(top)


_WORD_RUN = re.compile(r"[^\W_]+")


def _words_inside(chunk: str, joined_references: str) -> bool:
    """A necessary condition, without splitting, for every sentence of ``chunk`` to lie inside a
    reference: each run of letters and digits of the chunk does. Sentence splitters (pysbd, the
    Chinese rule) cut only at punctuation and whitespace and keep letters and digits as they are,
    so a run lies inside one sentence; the tests check the shortcut against pysbd. It decides most
    retrieved chunks (they hold some word no reference has) without pysbd's ~5 ms a call."""
    return all(w in joined_references for w in _word_runs(chunk))


@lru_cache(maxsize=_CACHE)
def _word_runs(chunk: str) -> frozenset[str]:
    return frozenset(_WORD_RUN.findall(chunk))


# --- retrieval (IR classics) ----------------------------------------------------------------


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")


def recall_at_k(references: Sequence[str], retrieved: Sequence[str], language: str, k: int = 5) -> float | None:
    """RAGEval recall on the top k chunks only."""
    _check_k(k)
    return recall(references, list(retrieved)[:k], language)


def mrr(references: Sequence[str], retrieved: Sequence[str], language: str, k: int | None = None,
        documents: Sequence[str] | None = None) -> float | None:
    """Reciprocal rank of the first relevant chunk within the top k (all of them when k is None;
    0 when none is): MRR@K, as ranx computes it."""
    if not references:
        return None
    ranked = list(retrieved) if k is None else list(retrieved)[:k]
    for rank, chunk in enumerate(ranked, start=1):
        if is_relevant(chunk, references, language, documents):
            return 1.0 / rank
    return 0.0


def relevant_items(references: Sequence[str], retrieved: Sequence[str], language: str,
                   documents: Sequence[str] | None = None) -> int:
    """How many relevant items the ideal ranking has: the distinct relevant chunks retrieved, plus
    one for each reference no relevant chunk holds a sentence of (evidence the system never
    returned still belongs at the top of an ideal list; a wrong document's chunk that happens to
    hold it does not return it)."""
    chunks = unique_chunks(retrieved)
    relevance = _relevance(references, chunks, language, documents)
    bodies = [strip_metadata(c) for c, rel in zip(chunks, relevance, strict=True) if rel]
    untouched = sum(1 for r in references if not any(s in b for s in _sentences(r, language) for b in bodies))
    return len(bodies) + untouched


def ndcg_at_k(references: Sequence[str], retrieved: Sequence[str], language: str, k: int = 5,
              documents: Sequence[str] | None = None) -> float | None:
    """Binary-relevance nDCG@k with the standard ideal ranking (ranx, trec_eval): all relevant
    items on top, as many as there are (``relevant_items``) up to k. So perfect retrieval scores 1
    however many references one chunk holds, and a reference nobody retrieved lowers the score."""
    _check_k(k)
    if not references:
        return None
    ranked = unique_chunks(retrieved)
    rel = _relevance(references, ranked[:k], language, documents)
    dcg = sum(1.0 / math.log2(i + 1) for i, r in enumerate(rel, start=1) if r)
    ideal = min(k, relevant_items(references, ranked, language, documents))
    if ideal == 0:
        return 0.0
    idcg = sum(1.0 / math.log2(i + 1) for i in range(1, ideal + 1))
    return dcg / idcg


# --- Ragas-style ----------------------------------------------------------------------------


def context_precision_at_k(relevance: Sequence[int | bool], k: int = 5) -> float:
    """Ragas context precision@k: mean of precision@i over the relevant ranks i ≤ k."""
    _check_k(k)
    hits, total = 0, 0.0
    for i, v in enumerate(list(relevance)[:k], start=1):
        if v:
            hits += 1
            total += hits / i
    return total / hits if hits else 0.0


_EN_STOPWORDS = frozenset("""
a about above after again against all also am an and any are as at be because been before being below
between both but by can could did do does doing down during each few for from further had has have
having he her here hers herself him himself his how i if in into is it its itself just me more most my
myself no nor not now of off on once only or other our ours ourselves out over own same she should so
some such than that the their theirs them themselves then there these they this those through to too
under until up very was we were what when where which while who whom why will with would you your
yours yourself yourselves each respectively whose per via among within without upon
""".split())
_ZH_STOPWORDS = frozenset("""
我们 你们 他们 她们 它们 这个 那个 这些 那些 其中 以及 并且 而且 或者 但是 因为 所以 如果 虽然 已经 分别
进行 对于 关于 通过 根据 由于 为了 其他 以上 以下 之间 之后 之前 同时 此外 还是 就是 没有 可以 一个
""".split())
_ZH_GLUE = "于为系嘱由与和及的在将被是对向从自后等两更拟该其之以而并也把给到经至但仍又再已均各每共约早晚时因予"
_ZH_NAME_TAGS = frozenset({"nr", "nrt", "nrfg", "ns", "nt", "nz"})
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
_EN_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)*")
_HAS_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_HAS_WORD = re.compile(r"[^\W_]")
ATTRIBUTION_SHARE = 0.6


@lru_cache(maxsize=_CACHE)
def _norm_number(raw: str) -> str:
    """'1,234' and '01234' are one number; '42.230' is '42.23'."""
    n = raw.replace(",", "")
    whole, _, frac = n.partition(".")
    whole = whole.lstrip("0") or "0"
    frac = frac.rstrip("0")
    return f"{whole}.{frac}" if frac else whole


def _numbers(text: str) -> set[str]:
    return {_norm_number(m) for m in set(_NUMBER.findall(text))}


@lru_cache(maxsize=_CACHE)
def _norm_en(word: str) -> str:
    """Lower-case, drop a possessive and a plural 's' so 'investments' meets 'investment'."""
    w = word.lower().replace("’", "'")
    if w.endswith("'s"):
        w = w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith("ss"):
        w = w[:-1]
    return w


@lru_cache(maxsize=1)
def _jieba() -> Any:
    """jieba, imported on first use (it is slow to import) and kept quiet on stderr."""
    with _quiet_import():
        import jieba
    jieba.setLogLevel(logging.WARNING)
    return jieba


@lru_cache(maxsize=1)
def _zh_tags() -> dict[str, str]:
    """jieba's dictionary part-of-speech tags, as ``jieba.posseg`` reads them from the dictionary
    file (~1 s a process: each worker paid it), parsed once and kept in the user's cache, keyed
    by the file's path, size and time."""
    import marshal

    from dragonforge.resources import user_cache_dir

    jieba = _jieba()
    path = jieba.dt.dictionary or os.path.join(os.path.dirname(jieba.__file__), jieba.DEFAULT_DICT_NAME)
    st = os.stat(path)
    key = hashlib.sha256(f"{os.path.abspath(path)}|{st.st_size}|{st.st_mtime_ns}".encode()).hexdigest()[:32]
    folder = user_cache_dir("jieba")
    cached = folder / f"tags-{key}.marshal" if folder else None
    if cached is not None:
        try:
            tags = marshal.loads(cached.read_bytes())
            if isinstance(tags, dict):
                return tags
        except (OSError, EOFError, ValueError, TypeError):
            pass
    tags = {}
    with open(path, "rb") as fh:  # jieba.posseg's own reading: "word freq tag" per line
        for line in fh:
            text = line.strip().decode("utf-8")
            if text:
                word, _, tag = text.split(" ")
                tags[word] = tag
    if cached is not None:
        from dragonforge.files import write_bytes_atomic

        try:
            write_bytes_atomic(cached, marshal.dumps(tags))
        except OSError:
            pass
    return tags


@lru_cache(maxsize=_CACHE)
def _jieba_tokens(text: str) -> tuple[str, ...]:
    """jieba's words of ``text``, exactly as ``jieba.cut`` gives them, cut block by block with
    each block's words cached: jieba cuts each run of its word characters on its own, and the
    runs of a sentence are the runs of the answer that holds it, so ROUGE (whole answers) and
    the attribution test (sentence by sentence) share the cutting, the slow part of Chinese scoring."""
    jieba = _jieba()
    han, skip = jieba.re_han_default, jieba.re_skip_default
    words: list[str] = []
    for block in han.split(text):
        if not block:
            continue
        if han.match(block):
            words.extend(_jieba_block(block))
        else:  # what jieba.cut yields for the rest: each space or line break, else each character
            for piece in skip.split(block):
                if skip.match(piece):
                    words.append(piece)
                else:
                    words.extend(piece)
    return tuple(words)


def warm_chinese() -> None:
    """Load jieba's dictionary and tags now (about a second), e.g. in a fork server before its
    workers fork, so that each does not load them again."""
    _jieba().initialize()
    _zh_tags()


@lru_cache(maxsize=_CACHE)
def _jieba_block(block: str) -> tuple[str, ...]:
    return tuple(_jieba().cut(block))


@lru_cache(maxsize=_CACHE)
def _claim_terms(sentence: str, language: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(numbers, name-like words, content words) a context must hold to support the sentence."""
    numbers = frozenset(_numbers(sentence))
    if language == "zh":
        words = [t for t in _jieba_tokens(sentence)
                 if len(t) >= 2 and _HAS_CJK.search(t) and t not in _ZH_STOPWORDS]
        freq = _jieba().dt.FREQ  # read after cutting: jieba fills its dictionary on first use
        tags = _zh_tags()
        # Names are the words jieba's dictionary tags as person/place/organisation/proper noun,
        # and the words it lacks (found by its HMM), mostly names too, often glued to a function
        # character ("温林于", "为宗波"): trimmed of those, the rest must appear verbatim.
        known = (t for t in words if tags.get(t, "") in _ZH_NAME_TAGS)
        unknown = (t.strip(_ZH_GLUE) for t in words if not freq.get(t))
        names = frozenset(t for t in (*known, *unknown) if len(t) >= 2)
        return numbers, names, frozenset(words)
    tokens = [t for t in _EN_WORD.findall(sentence) if not t.isdigit() and not _NUMBER.fullmatch(t)]
    content = frozenset(_norm_en(t) for t in tokens if t.lower() not in _EN_STOPWORDS and len(t) > 1)
    names = frozenset(_norm_en(t) for t in tokens[1:] if t[0].isupper() and t.lower() not in _EN_STOPWORDS)
    return numbers, names, content


def _attributable(sentence: str, context: str, context_numbers: frozenset[str],
                  context_words: frozenset[str] | None, language: str) -> bool:
    """Every number and name of the sentence, and ≥ 60% of its content words, are in the context."""
    numbers, names, content = _claim_terms(sentence, language)
    if not numbers <= context_numbers:
        return False
    if context_words is None:  # Chinese: words are matched as substrings of the context
        present: set[str] | frozenset[str] = {w for w in content if w in context}
        if not all(n in context for n in names):
            return False
    else:
        present = content & context_words
        if not names <= context_words:
            return False
    if not content:
        return bool(numbers or names) or sentence in context
    return len(present) >= ATTRIBUTION_SHARE * len(content)


def context_recall(gt_answer: str, retrieved: Sequence[str], language: str) -> float:
    """Offline approximation of Ragas context recall: the share of answer sentences the context supports.

    A sentence counts as attributable when every number in it, every name-like word (English:
    capitalised words after the first; Chinese: jieba tokens outside its dictionary) and at least
    60% of its content words (stopwords dropped; Chinese: jieba tokens of two or more characters,
    matched as substrings) occur in the retrieved chunks joined. This is lexical evidence, not the
    LLM judgement Ragas uses; it misses paraphrase and cannot see contradictions.
    """
    sentences = _claims(gt_answer, language)
    if not sentences or not retrieved:
        return 0.0
    context = " ".join(retrieved)
    context_numbers, context_words = _context_index(tuple(retrieved), language)
    hits = sum(_attributable(s, context, context_numbers, context_words, language) for s in sentences)
    return hits / len(sentences)


@lru_cache(maxsize=256)
def _context_index(chunks: tuple[str, ...], language: str) -> tuple[frozenset[str], frozenset[str] | None]:
    """Numbers and (English) normalised words of the chunks joined by spaces; cached as one
    query's context is checked against both the gold answer and the system's answer. Neither a
    number nor a word spans a space, so the chunks' own terms (cached: queries share chunks) make it."""
    terms = [_chunk_terms(c, language) for c in chunks]
    numbers = frozenset().union(*(n for n, _ in terms))
    words = None if language == "zh" else frozenset().union(*(w for _, w in terms))
    return numbers, words


@lru_cache(maxsize=_CACHE)
def _chunk_terms(chunk: str, language: str) -> tuple[frozenset[str], frozenset[str]]:
    words = frozenset() if language == "zh" else frozenset(_norm_en(t) for t in set(_EN_WORD.findall(chunk)))
    return frozenset(_numbers(chunk)), words


# --- generation -----------------------------------------------------------------------------


@lru_cache(maxsize=_CACHE)
def _rouge_tokens(text: str, language: str) -> tuple[str, ...]:
    """ROUGE tokens: jieba words for zh, lower-cased word/number tokens for en; punctuation dropped."""
    if language == "zh":  # cut sentence by sentence: the same words, and shared with context_recall
        return tuple(t for s in _sentences(text, "zh") for t in _jieba_tokens(s) if _HAS_WORD.search(t))
    return tuple(re.findall(r"[^\W_]+(?:[.,'’][^\W_]+)*", text.lower()))


def _lcs_length(a: Sequence[str], b: Sequence[str]) -> int:
    """LCS length by the bit-parallel method (Allison–Dix/Hyyrö): one big-int step per token of b."""
    masks: dict[str, int] = {}
    for i, tok in enumerate(a):
        masks[tok] = masks.get(tok, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    for tok in b:
        m = masks.get(tok)
        if m:
            u = v & m
            v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def rouge_l(prediction: str, reference: str, language: str) -> float:
    """ROUGE-L F1 between an answer and the ground-truth answer (sentence-level LCS over tokens)."""
    pred = _rouge_tokens(prediction, language)
    ref = _rouge_tokens(reference, language)
    if not pred or not ref:
        return 0.0
    lcs = _lcs_length(ref, pred)
    if lcs == 0:
        return 0.0
    p, r = lcs / len(pred), lcs / len(ref)
    return 2 * p * r / (p + r)


def rouge_l_compat(prediction: str, reference: str, language: str) -> float:
    """ROUGE-L F as the reference implementation computes it with the `rouge` (en) and
    `rouge_chinese` (zh, over jieba words) packages: their arithmetic, ported for speed (their
    dictionary-table LCS was most of the time of a compat run) and checked against the packages
    in the tests; a degenerate input that makes a package raise scores 0."""
    if language == "zh":
        hyp = " ".join(_jieba_tokens(prediction))
        ref = " ".join(_jieba_tokens(reference))
        if not hyp.strip() or not ref.strip():
            return 0.0
        return _rouge_chinese_l(hyp, ref)
    if not prediction.strip() or not reference.strip():
        return 0.0
    return _rouge_l_summary(prediction, reference)


def _rouge_f(llcs: int, m: int, n: int) -> float:
    r_lcs, p_lcs = llcs / m, llcs / n
    return 2.0 * ((p_lcs * r_lcs) / (p_lcs + r_lcs + 1e-8))


_CUT_SENT = ((re.compile(r"([。！？\?])([^”’])"), r"\1\n\2"), (re.compile(r"(\.{6})([^”’])"), r"\1\n\2"),
             (re.compile(r"(…{2})([^”’])"), r"\1\n\2"), (re.compile(r"([。！？\?][”’])([^，。！？\?])"), r"\1\n\2"))


def _rouge_chinese_l(hyp: str, ref: str) -> float:
    """rouge_chinese.Rouge().get_scores(hyp, ref)[0]["rouge-l"]["f"]: the LCS of all words of
    its sentences (cut by its own rule), as a list."""
    def words(text: str) -> list[str]:
        for pattern, repl in _CUT_SENT:
            text = pattern.sub(repl, text)
        sentences = [" ".join(s.split()) for s in text.rstrip().split("\n") if len(s) > 0]
        return [w for s in sentences for w in s.split(" ")]

    hyp_words, ref_words = words(hyp), words(ref)
    if not hyp_words or not ref_words:  # the package raises ValueError; the reference scores 0
        return 0.0
    return _rouge_f(_lcs_length(ref_words, hyp_words), len(ref_words), len(hyp_words))


# The `rouge` package rebuilds each LCS path recursively, one frame a step; past Python's
# recursion limit it raises RecursionError (scored 0 above), so long paths go to the package.
_RECURSIVE_STEPS = 800


def _rouge_l_summary(hypothesis: str, reference: str) -> float:
    """rouge.Rouge(metrics=["rouge-l"]).get_scores(hyp, ref)[0]["rouge-l"]["f"]: sentences at
    ".", words at " ", distinct words counted, and the union of each reference sentence's LCS
    with every hypothesis sentence (the same table and tie-breaking as the package)."""
    hyp = [" ".join(s.split()) for s in hypothesis.split(".") if len(s) > 0]
    ref = [" ".join(s.split()) for s in reference.split(".") if len(s) > 0]
    if not hyp or not ref:
        return 0.0  # the package raises ValueError
    hyp_words = [s.split(" ") for s in hyp]
    m = len({w for s in ref for w in s.split(" ")})
    n = len({w for ws in hyp_words for w in ws})
    union: set[str] = set()
    llcs = 0
    for ref_s in ref:
        x = ref_s.split(" ")
        before = len(union)
        for y in hyp_words:
            path = _lcs_tokens(x, y)
            if path is None:
                return _rouge_package(hypothesis, reference)
            union |= path
        llcs += len(union) - before
    return _rouge_f(llcs, m, n)


def _lcs_tokens(x: list[str], y: list[str]) -> set[str] | None:
    """The tokens of the LCS the `rouge` package reconstructs (its DP table, its backtrack:
    up when the cell above is larger, else left); None when its recursion would be too deep."""
    rows = [[0] * (len(y) + 1)]
    in_y = set(y)
    for xi in x:
        prev = rows[-1]
        if xi not in in_y:  # no cell of the row matches: it equals the row above (which never decreases)
            rows.append(prev)
            continue
        row = [0]
        left = 0
        for j, yj in enumerate(y):
            if xi == yj:
                left = prev[j] + 1
            else:
                up = prev[j + 1]
                if up > left:
                    left = up
            row.append(left)
        rows.append(row)
    i, j = len(x), len(y)
    if i + j > _RECURSIVE_STEPS:
        return None
    out = set()
    while i and j:
        if x[i - 1] == y[j - 1]:
            out.add(x[i - 1])
            i -= 1
            j -= 1
        elif rows[i - 1][j] > rows[i][j - 1]:
            i -= 1
        else:
            j -= 1
    return out


def _rouge_package(hypothesis: str, reference: str) -> float:
    with _quiet_import():
        from rouge import Rouge
    if Rouge.__module__.startswith("rouge_chinese"):
        # rouge-chinese ships a copy of the `rouge` package that can overwrite the real one.
        raise RuntimeError("the installed `rouge` package is rouge-chinese's copy; English ROUGE-L in compat "
                           "mode needs the real one: pip install --force-reinstall --no-deps rouge==1.0.1")
    try:
        return float(Rouge(metrics=["rouge-l"]).get_scores(hypothesis, reference)[0]["rouge-l"]["f"])
    except (ValueError, RecursionError):
        return 0.0


KEYPOINT_LABELS = ("Relevant", "Irrelevant", "Wrong")


def keypoint_scores(labels: Sequence[str]) -> dict[str, float | None]:
    """Completeness, hallucination and irrelevance of one answer from its keypoint labels."""
    if not labels:
        return {"completeness": None, "hallucination": None, "irrelevance": None}
    unknown = [lab for lab in labels if lab not in KEYPOINT_LABELS]
    if unknown:
        raise ValueError(f"unknown keypoint labels {unknown}; expected one of {KEYPOINT_LABELS}")
    n = len(labels)
    return {"completeness": labels.count("Relevant") / n,
            "hallucination": labels.count("Wrong") / n,
            "irrelevance": labels.count("Irrelevant") / n}  # = 1 − completeness − hallucination


# --- system ---------------------------------------------------------------------------------


def percentile(values: Sequence[float], p: float) -> float | None:
    """The p-th percentile with linear interpolation between ranks (numpy's default); None when empty."""
    if not 0 <= p <= 100:
        raise ValueError(f"percentile must be within 0..100, got {p}")
    data = sorted(values)
    if not data:
        return None
    pos = (len(data) - 1) * p / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(data) - 1)
    return float(data[lo] + (data[hi] - data[lo]) * (pos - lo))
