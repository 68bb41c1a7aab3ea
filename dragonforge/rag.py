"""The built-in baseline RAG system: sentence-aware chunking, BM25 or dense retrieval, and an
extractive (offline) or LLM generator.

It exists so that the evaluator can be exercised end to end without any external system, and
as a yardstick: its numbers say what a plain retriever over this corpus already achieves.
"""

from __future__ import annotations

import asyncio
import base64
import functools
import hashlib
import logging
import math
import os
import re
import time
import warnings
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, Protocol

import bm25s
import numpy as np
from pydantic import BaseModel

from dragonforge.llm import BudgetExceeded, LLMUnavailable, ResponseCache, StageUsage, StructuredLLM
from dragonforge.models import UNANSWERABLE_ANSWER
from dragonforge.systems import Query, SystemAnswer

# --- sentences ----------------------------------------------------------------------------------


logging.getLogger("bm25s").setLevel(logging.WARNING)  # its index-building lines are noise in our progress

_ZH_SENTENCE = re.compile(r"[^\n]*?[。！？]|[^\n]+")


@functools.cache
def _pysbd_segmenter() -> Any:
    with warnings.catch_warnings():  # pysbd's own regexes warn on their first compile
        warnings.simplefilter("ignore", DeprecationWarning)
        import pysbd

        return pysbd.Segmenter(language="en", clean=False)


def sentence_spans(text: str, language: str) -> list[tuple[int, int]]:
    """(start, end) of each sentence of ``text``, split as method.md §3 says (English with
    pysbd; Chinese after 。！？ and at newlines), stripped, empty ones dropped."""
    spans: list[tuple[int, int]] = []
    if language == "zh":
        for match in _ZH_SENTENCE.finditer(text):
            _add_stripped(text, match.start(), match.end(), spans)
        return spans
    position = 0
    for sentence in _pysbd_segmenter().segment(text):
        stripped = sentence.strip()
        if not stripped:
            continue
        start = text.find(stripped, position)
        if start < 0:  # pysbd altered the text (it should not with clean=False): keep what it gave
            continue
        spans.append((start, start + len(stripped)))
        position = start + len(stripped)
    return spans


def _add_stripped(text: str, start: int, end: int, spans: list[tuple[int, int]]) -> None:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    if end > start:
        spans.append((start, end))


def split_sentences(text: str, language: str) -> list[str]:
    """The sentences of ``text`` as the metrics split them (method.md §3)."""
    return [text[a:b] for a, b in sentence_spans(text, language)]


# --- chunking -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chunk:
    """A run of whole consecutive sentences of one document; ``text`` is that exact span of the
    document (plus the metadata prefix, if asked for), so any sentence of it is a substring."""

    text: str
    doc_id: int
    index: int  # position among the chunks of its document
    language: str = ""
    domain: str = ""
    entity: str = field(default="", compare=False)  # the document's company / court / patient
    prefix: str = field(default="", compare=False)  # the metadata prefix ``text`` starts with, if any
    sentences: tuple[str, ...] = field(default=(), compare=False, repr=False)


def entity_of(document: dict) -> str:
    """The document's main entity (company, court, patient, policyholder ...), or '' when it
    names none: its uniform ``entity`` field, else the entity field of its domain's pack."""
    if document.get("entity"):
        return str(document["entity"])
    from dragonforge.registry import registry

    pack = registry().by_label(str(document.get("domain", "")))
    names = [pack.entity_field] if pack is not None else [p.entity_field for p in map(registry().get, registry().names())]
    for name in names:
        if document.get(name):
            return str(document[name])
    return ""


def metadata_prefix_for(entity: str, language: str) -> str:
    """The paper's chunk prefix; the EIR and IR metrics strip it up to the first closing bracket."""
    if not entity:
        return ""
    return f"（{entity}）" if language == "zh" else f"({entity}) "


def chunk_documents(documents: list[dict], chunk_size: int = 512, overlap: int = 64,
                    metadata_prefix: bool = False) -> list[Chunk]:
    """Chunks of whole sentences, at most ``chunk_size`` characters of document text each (the
    prefix is not counted), the next chunk starting with the last sentences of the previous one
    totalling at most ``overlap`` characters. A sentence longer than ``chunk_size`` is a chunk
    of its own. Sizes are in characters in both languages."""
    if chunk_size < 1 or overlap < 0:
        raise ValueError("chunk_size must be >= 1 and overlap >= 0")
    chunks: list[Chunk] = []
    for document in documents:
        content, language = document["content"], document.get("language", "en")
        entity = entity_of(document)
        prefix = metadata_prefix_for(entity, language) if metadata_prefix else ""
        spans = sentence_spans(content, language)
        for index, group in enumerate(_pack(spans, chunk_size, overlap)):
            start, end = spans[group[0]][0], spans[group[-1]][1]
            chunks.append(Chunk(text=prefix + content[start:end], doc_id=document["doc_id"], index=index,
                                language=language, domain=str(document.get("domain", "")).lower(),
                                entity=entity, prefix=prefix,
                                sentences=tuple(content[a:b] for a, b in (spans[i] for i in group))))
    return chunks


def _pack(spans: list[tuple[int, int]], chunk_size: int, overlap: int) -> list[list[int]]:
    """Groups of consecutive sentence indices, as ``chunk_documents`` describes."""
    groups: list[list[int]] = []
    current: list[int] = []
    i = 0
    while i < len(spans):
        candidate = current + [i]
        if not current or spans[i][1] - spans[candidate[0]][0] <= chunk_size:
            current = candidate
            i += 1
            continue
        groups.append(current)
        # Carry the tail of the finished chunk, as long as it fits the overlap and leaves room
        # for the next sentence; drop carried sentences from the front until it does.
        carry: list[int] = []
        for j in reversed(current):
            if spans[current[-1]][1] - spans[j][0] > overlap:
                break
            carry.insert(0, j)
        while carry and spans[i][1] - spans[carry[0]][0] > chunk_size:
            carry.pop(0)
        current = carry
    if current:
        groups.append(current)
    return groups


# --- tokens ---------------------------------------------------------------------------------------

_EN_WORD = re.compile(r"[a-z0-9]+(?:[.'’][a-z0-9]+)*")
_ZH_KEEP = re.compile(r"[\w\u3400-\u9fff]")
EN_STOPWORDS = frozenset(
    "a an and are as at be been but by did do does for from had has have he her his how if in into is it its "
    "of on or she such than that the their them then there these they this those to was were what when where "
    "which who whom whose why will with".split())
ZH_STOPWORDS = frozenset("的 了 是 在 和 与 及 其 该 为 对 由 于 之 也 都 而 或 吗 呢 吧 啊 什么 哪 哪个 哪家 哪一家 "
                         "哪一年 哪里 哪些 何时 何种 谁 多少 如何 怎样 是否 有 请 分别 各 中".split())


@functools.cache
def _jieba() -> Any:
    with warnings.catch_warnings():  # as does jieba
        warnings.simplefilter("ignore", DeprecationWarning)
        import jieba

    jieba.setLogLevel(logging.WARNING)
    jieba.initialize()
    return jieba


def tokenize(text: str, language: str) -> list[str]:
    """Content word tokens: lower-cased words for English, jieba words for Chinese, stopwords
    and punctuation dropped."""
    return list(_tokens(text, language))


def chunk_tokens(chunk: Chunk) -> list[str]:
    """A chunk's tokens, from its sentences' (cached) tokens: each sentence is cut once."""
    if not chunk.sentences:
        return tokenize(chunk.text, chunk.language)
    tokens = list(_tokens(chunk.prefix, chunk.language)) if chunk.prefix else []
    for sentence in chunk.sentences:
        tokens += _tokens(sentence, chunk.language)
    return tokens


@functools.lru_cache(maxsize=1 << 18)
def _tokens(text: str, language: str) -> tuple[str, ...]:
    if language == "zh":
        return tuple(t for t in (w.strip().lower() for w in _jieba().lcut_for_search(text))
                     if t and t not in ZH_STOPWORDS and _ZH_KEEP.search(t))
    return tuple(_stem(t) for t in _EN_WORD.findall(text.lower()) if t not in EN_STOPWORDS)


def _stem(word: str) -> str:
    """A light English suffix stripper, so 'generate', 'generated' and 'generates' meet."""
    for suffix in ("ing", "ed", "es", "s", "e"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word[-len(suffix) - 1].isdigit():
            return word[:-len(suffix)]
    return word


# --- retrievers ---------------------------------------------------------------------------------


class Retriever(Protocol):
    def search(self, query: str, k: int) -> Any: ...  # list[Chunk], or an awaitable of one


class BM25Retriever:
    """BM25 (bm25s, default Lucene parameters) over the chunks of one language."""

    def __init__(self, chunks: Sequence[Chunk], language: str):
        self.chunks = list(chunks)
        self.language = language
        self._index = bm25s.BM25()
        self._vocab: dict[str, int] = {}
        if self.chunks:
            corpus = [chunk_tokens(c) or [""] for c in self.chunks]
            # Token ids in order of first appearance: bm25s numbers them in a set's order, which
            # changes with every process's string hashing.
            for doc in corpus:
                for token in doc:
                    self._vocab.setdefault(token, len(self._vocab))
            ids = [[self._vocab[t] for t in doc] for doc in corpus]
            self._index.index((ids, dict(self._vocab)), show_progress=False)

    def search(self, query: str, k: int) -> list[Chunk]:
        """The top ``k`` chunks with a positive score, best first (ties in corpus order)."""
        tokens = [t for t in tokenize(query, self.language) if t in self._vocab]
        if not tokens or k < 1:
            return []
        scores = self._index.get_scores(tokens)
        return _top(self.chunks, scores, k)


def _top(chunks: list[Chunk], scores: np.ndarray, k: int) -> list[Chunk]:
    order = np.argsort(-scores, kind="stable")[:k]
    return [chunks[i] for i in order if scores[i] > 0]


class Embedder:
    """Batched calls to an OpenAI-compatible ``/embeddings`` endpoint, through the same books as
    the LLM's completions: each vector is cached (``cache_path``, keyed by model and text, so a
    resumed run never pays twice for a chunk), and each request is counted in ``usage`` (stage
    ``embeddings``) and, with an ``account``, against its ``--max-calls`` / ``--max-cost``."""

    STAGE = "embeddings"

    def __init__(self, base_url: str, model: str, api_key_env: str = "OPENAI_API_KEY", batch_size: int = 64,
                 timeout_s: float = 60.0, max_retries: int = 2, cache_path: Path | None = None, account=None):
        self.model = model
        self.batch_size = batch_size
        import openai  # here: the offline systems never pay for importing the client (~0.5 s)

        from dragonforge.urls import with_credentials

        self._client = openai.AsyncOpenAI(base_url=with_credentials(base_url),
                                          api_key=os.environ.get(api_key_env) or "no-key",
                                          timeout=timeout_s, max_retries=max_retries)
        self._cache = ResponseCache(cache_path) if cache_path else None
        self.account = account
        self.usage = account.usage[(self.STAGE, model)] if account is not None else StageUsage()

    def _key(self, text: str) -> str:
        return hashlib.sha256(f"embedding\0{self.model}\0{text}".encode()).hexdigest()

    async def embed(self, texts: Sequence[str]) -> np.ndarray:
        """One unit-length row per text."""
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        vectors: dict[str, list[float]] = {}
        todo: list[str] = []
        for text in dict.fromkeys(texts):
            kept = self._cache.get(self._key(text)) if self._cache else None
            if kept is not None:
                vectors[text] = np.frombuffer(base64.b64decode(kept[0]), dtype=np.float32).tolist()
                self.usage.cache_hits += 1
            else:
                todo.append(text)
        for i in range(0, len(todo), self.batch_size):
            batch = todo[i:i + self.batch_size]
            if self.account is not None:
                self.account.reserve()  # raises BudgetExceeded once --max-calls / --max-cost is spent
            try:
                response = await self._client.embeddings.create(model=self.model, input=batch,
                                                                encoding_format="float")
            finally:
                if self.account is not None:
                    self.account.landed()
            tokens = int(getattr(getattr(response, "usage", None), "prompt_tokens", 0) or 0)
            self.usage.calls += 1
            self.usage.prompt_tokens += tokens  # unpriced: --price-in is the chat model's price
            for text, item in zip(batch, sorted(response.data, key=lambda d: d.index), strict=True):
                vector = _pooled(item.embedding)
                vectors[text] = vector
                if self._cache:
                    blob = base64.b64encode(np.asarray(vector, dtype=np.float32).tobytes()).decode("ascii")
                    self._cache.put(self._key(text), blob, tokens // max(1, len(batch)), 0)
        matrix = np.asarray([vectors[t] for t in texts], dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.where(norms == 0, 1, norms)

    async def aclose(self) -> None:
        await self._client.close()
        if self._cache:
            self._cache.close()


class EmbedderSettings(BaseModel):
    """Where embeddings come from: an OpenAI-compatible ``/embeddings`` endpoint."""

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    timeout_s: float = 60.0

    def make(self, cache_path: Path | None = None, account=None) -> Embedder:
        return Embedder(self.base_url, self.model, api_key_env=self.api_key_env, timeout_s=self.timeout_s,
                        cache_path=cache_path, account=account)


def _pooled(embedding: Any) -> list[float]:
    """One vector per text. llama.cpp's server, for a model without a pooling layer (a chat model
    such as SmolLM2), answers one vector per token: those are mean-pooled."""
    if embedding and isinstance(embedding[0], (list, tuple)):
        return np.asarray(embedding, dtype=np.float32).mean(axis=0).tolist()
    return embedding


class DenseRetriever:
    """Cosine similarity between the query's and the chunks' embeddings; the chunks are embedded
    once, on the first search."""

    def __init__(self, chunks: Sequence[Chunk], embedder: Embedder):
        self.chunks = list(chunks)
        self.embedder = embedder
        self._matrix: np.ndarray | None = None
        self._lock: asyncio.Lock | None = None

    async def index(self) -> None:
        if self._matrix is None:
            self._matrix = await self.embedder.embed([c.text for c in self.chunks])

    async def search(self, query: str, k: int) -> list[Chunk]:
        if not self.chunks or k < 1:
            return []
        if self._lock is None:
            self._lock = asyncio.Lock()
        async with self._lock:
            await self.index()
        assert self._matrix is not None
        scores = self._matrix @ (await self.embedder.embed([query]))[0]
        order = np.argsort(-scores, kind="stable")[:k]
        return [self.chunks[i] for i in order]


# --- generators ---------------------------------------------------------------------------------


@dataclass
class Generation:
    answer: str
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None
    error: str | None = None


class Generator(Protocol):
    name: str

    async def generate(self, question: str, chunks: list[Chunk], language: str) -> Generation: ...


class ExtractiveGenerator:
    """Offline answers: the retrieved sentences covering most of the question's content words,
    each word weighted by its IDF over the indexed sentences (after ``fit``), so the rare words
    that carry the question count most. Refuses when even the best sentence covers less than
    ``threshold`` of that weight: a question whose key words the corpus never uses is refused."""

    name = "extractive"

    def __init__(self, threshold: float = 0.5, max_sentences: int = 3, min_gain: float = 0.1):
        self.threshold = threshold
        self.max_sentences = max_sentences
        self.min_gain = min_gain  # a further sentence must add at least this share of the weight
        self._df: dict[str, dict[str, int]] = {}  # language -> token -> sentences holding it
        self._sentences: dict[str, int] = {}  # language -> sentences seen by fit

    def fit(self, chunks: Sequence[Chunk]) -> ExtractiveGenerator:
        """Learn document frequencies from the indexed chunks' sentences."""
        seen: set[tuple[str, str]] = set()
        for chunk in chunks:
            df = self._df.setdefault(chunk.language, {})
            for sentence in chunk.sentences:
                if (sentence, chunk.language) in seen:
                    continue
                seen.add((sentence, chunk.language))
                self._sentences[chunk.language] = self._sentences.get(chunk.language, 0) + 1
                for token in self._sentence_tokens(sentence, chunk.language):
                    df[token] = df.get(token, 0) + 1
        return self

    def _weight(self, token: str, language: str) -> float:
        n = self._sentences.get(language, 0)
        if not n:
            return 1.0
        return math.log((n + 1) / (self._df[language].get(token, 0) + 0.5))

    def _sentence_tokens(self, sentence: str, language: str) -> frozenset[str]:
        return frozenset(_tokens(sentence, language))

    def answer_text(self, question: str, chunks: list[Chunk], language: str) -> str:
        # The document's own entity names which document, not which fact: leave it out.
        named = {t for entity in {c.entity for c in chunks} for t in tokenize(entity, language)}
        wanted = set(tokenize(question, language)) - named or set(tokenize(question, language))
        weights = {t: self._weight(t, language) for t in wanted}
        # math.fsum: the exactly rounded sum, whatever order a set yields its tokens in (that
        # order changes with each process's string hashing; a plain sum then differs in the last
        # bit, and ties between sentences break differently from run to run)
        total = math.fsum(weights.values())
        candidates: dict[str, frozenset[str]] = {}
        for chunk in chunks:
            for sentence in chunk.sentences or tuple(split_sentences(chunk.text, language)):
                candidates.setdefault(sentence, frozenset(wanted & self._sentence_tokens(sentence, language)))
        # Greedy cover: each next sentence adds the most weight not yet covered.
        chosen: list[str] = []
        covered: set[str] = set()
        for _ in range(self.max_sentences):
            gains = [(math.fsum(weights[t] for t in tokens - covered), -i, sentence)
                     for i, (sentence, tokens) in enumerate(candidates.items()) if sentence not in chosen]
            if not gains:
                break
            gain, _, sentence = max(gains)
            if gain <= 0 or (chosen and gain < self.min_gain * total):
                break
            chosen.append(sentence)
            covered |= candidates[sentence]
        if total <= 0 or math.fsum(weights[t] for t in covered) / total < self.threshold:
            return UNANSWERABLE_ANSWER.get(language, UNANSWERABLE_ANSWER["en"])
        order = list(candidates)  # chunks in rank order, sentences in document order
        return ("" if language == "zh" else " ").join(sorted(chosen, key=order.index))

    async def generate(self, question: str, chunks: list[Chunk], language: str) -> Generation:
        return Generation(answer=self.answer_text(question, chunks, language))


class LLMAnswer(BaseModel):
    answer: str


_LLM_PROMPTS = {
    "en": ("You answer questions using only the numbered context passages given. State the facts the "
           "question asks for (names, dates, amounts) exactly as the context gives them, in one to three "
           "sentences. If the context does not contain the answer, reply with exactly \"{refusal}\" and "
           "nothing else. Reply with a JSON object {{\"answer\": \"...\"}}."),
    "zh": ("你只能依据给出的编号上下文段落回答问题。按上下文原样给出问题所问的事实（名称、日期、金额），用一到三句话作答。"
           "如果上下文中没有答案，只回复“{refusal}”，不要输出其他内容。以 JSON 对象 {{\"answer\": \"...\"}} 回复。"),
}
_LLM_USER = {"en": "Context:\n{context}\n\nQuestion: {question}", "zh": "上下文：\n{context}\n\n问题：{question}"}


def answer_messages(question: str, chunks: list[Chunk], language: str) -> list[dict[str, str]]:
    """The generator prompt: instructions, then the numbered chunks and the question."""
    lang = language if language in _LLM_PROMPTS else "en"
    context = "\n\n".join(f"[{i}] {c.text}" for i, c in enumerate(chunks, 1)) or "-"
    return [{"role": "system", "content": _LLM_PROMPTS[lang].format(refusal=UNANSWERABLE_ANSWER[lang])},
            {"role": "user", "content": _LLM_USER[lang].format(context=context, question=question)}]


class LLMGenerator:
    """One structured LLM call per query. Per-query tokens and cost are the change in the
    stage's usage across the call, recorded only when no other call of this generator
    overlapped it (they share the counters); the totals are always in ``llm.usage_report()``."""

    def __init__(self, llm: StructuredLLM, stage: str = "rag_answer"):
        self.llm = llm
        self.stage = stage
        self.name = f"llm:{llm.settings.model}"
        self._active: dict[int, bool] = {}  # call id -> overlapped another call
        self._next_id = 0

    async def generate(self, question: str, chunks: list[Chunk], language: str) -> Generation:
        call_id, self._next_id = self._next_id, self._next_id + 1
        overlapped = bool(self._active)
        for other in self._active:
            self._active[other] = True
        self._active[call_id] = overlapped
        usage = self.llm.usage[(self.stage, self.llm.settings.model)]
        before = (usage.prompt_tokens, usage.completion_tokens, usage.cost)
        try:
            completion = await self.llm.complete(self.stage, answer_messages(question, chunks, language),
                                                 LLMAnswer, language)
        finally:
            overlapped = self._active.pop(call_id)
        tokens: dict[str, Any] = {}
        if not overlapped:
            tokens = {"prompt_tokens": usage.prompt_tokens - before[0],
                      "completion_tokens": usage.completion_tokens - before[1], "cost": usage.cost - before[2]}
        if completion.value is None:
            reason = completion.failure.reason if completion.failure else "no reply"
            return Generation(answer="", error=f"generator failed: {reason}", **tokens)
        return Generation(answer=completion.value.answer.strip(), **tokens)


# --- the system ---------------------------------------------------------------------------------


class BaselineRAG:
    """Chunk, index and answer: the built-in system under test.

    ``scope="domain"`` gives one index per (domain, language), as a RAG system built for one
    scenario would have; ``scope="language"`` one per language over every domain. A query
    only ever searches the index of its own language (and domain).
    """

    def __init__(self, documents: list[dict], chunk_size: int = 512, overlap: int = 64, top_k: int = 5,
                 metadata_prefix: bool = False, generator: Generator | None = None,
                 retriever: Literal["bm25", "dense"] = "bm25", scope: Literal["domain", "language"] = "domain",
                 embedder: Embedder | None = None, name: str | None = None):
        if retriever == "dense" and embedder is None:
            raise ValueError("a dense retriever needs an embedder")
        self.generator = generator or ExtractiveGenerator()
        self.embedder = embedder
        self.top_k = top_k
        self.scope = scope
        self.chunks = chunk_documents(documents, chunk_size, overlap, metadata_prefix)
        self._by_sentence: dict[tuple[str, str], list[Chunk]] | None = None  # for gold_chunks
        if hasattr(self.generator, "fit"):
            self.generator.fit(self.chunks)
        groups: dict[tuple[str, str], list[Chunk]] = {}
        for chunk in self.chunks:
            groups.setdefault(self._key(chunk.domain, chunk.language), []).append(chunk)
        self.retrievers: dict[tuple[str, str], Any] = {
            key: (BM25Retriever(chunks, key[1]) if retriever == "bm25" or embedder is None
                  else DenseRetriever(chunks, embedder))
            for key, chunks in groups.items()}
        self.name = name or (f"baseline-{retriever}-{self.generator.name}-k{top_k}-c{chunk_size}"
                             + ("-meta" if metadata_prefix else ""))
        # Timed only when it waits on an endpoint (dense retrieval, the LLM generator): in-process
        # BM25 with the extractive answerer takes microseconds, and timing it would only make an
        # otherwise byte-reproducible per_query.jsonl differ from run to run.
        self.timed = retriever == "dense" or not isinstance(self.generator, ExtractiveGenerator)

    def _key(self, domain: str, language: str) -> tuple[str, str]:
        return (domain.lower() if self.scope == "domain" else "", language)

    async def aclose(self) -> None:
        """Close the clients this system opened (embeddings endpoint, LLM generator)."""
        if self.embedder is not None:
            await self.embedder.aclose()
        llm = getattr(self.generator, "llm", None)
        if llm is not None:
            await llm.aclose()

    def gold_chunks(self, query: Query, references: list[str]) -> list[Chunk]:
        """What an ideal retriever would return from this index: for each reference, in order,
        the chunks holding its sentences (each chunk once). A reference no chunk holds (another
        chunking of the text) is passed as a chunk of its own."""
        if self._by_sentence is None:
            self._by_sentence = {}
            for chunk in self.chunks:
                for sentence in chunk.sentences:
                    self._by_sentence.setdefault((chunk.language, sentence), []).append(chunk)
        chosen: list[Chunk] = []
        for i, reference in enumerate(references):
            found = [c for sentence in split_sentences(reference, query.language)
                     for c in self._by_sentence.get((query.language, sentence), ())[:1]]
            if not found:
                found = [Chunk(text=reference, doc_id=-1, index=i, language=query.language, domain=query.domain,
                               sentences=tuple(split_sentences(reference, query.language)))]
            chosen += [c for c in found if c not in chosen]
        return chosen

    async def answer_from(self, query: Query, references: list[str]) -> str | None:
        """The answer this system's generator writes from the gold references (the chunks an
        ideal retriever would return, ``gold_chunks``) instead of the retrieved chunks: the
        LLM-retEval oracle. None when the generator failed."""
        chunks = self.gold_chunks(query, references)
        try:
            generation = await self.generator.generate(query.question, chunks, query.language)
        except (BudgetExceeded, LLMUnavailable):
            raise
        except Exception:  # an endpoint error: no oracle answer for this query
            return None
        return None if generation.error else generation.answer

    async def answer(self, query: Query) -> SystemAnswer:
        t0 = time.perf_counter()
        retriever = self.retrievers.get(self._key(query.domain, query.language))
        try:
            found = retriever.search(query.question, self.top_k) if retriever else []
            if asyncio.iscoroutine(found):
                found = await found
            generation = await self.generator.generate(query.question, found, query.language)
        except (BudgetExceeded, LLMUnavailable):
            raise  # a spent budget or a dead endpoint stops the run; it is not one query's failure
        except Exception as exc:  # an endpoint error or timeout: this query's failure
            return SystemAnswer(query_id=query.query_id, latency_ms=_ms(t0), error=f"{type(exc).__name__}: {exc}")
        return SystemAnswer(query_id=query.query_id, answer=generation.answer, contexts=[c.text for c in found],
                            latency_ms=_ms(t0) if self.timed else None, prompt_tokens=generation.prompt_tokens,
                            completion_tokens=generation.completion_tokens, cost=generation.cost,
                            error=generation.error)


def _ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 3)
