"""Systems under test: the common interface, predictions files, HTTP endpoints, Python functions.

Every system answers one ``Query`` with a ``SystemAnswer``. A failure of one query (an endpoint
error, a timeout, a reply that does not parse, an exception in the user's function) is recorded
in ``SystemAnswer.error`` and never raised, so one bad query cannot stop a run. What is raised,
as ``InputError``, is what makes the whole run meaningless: a predictions file that does not
validate, an endpoint that cannot be reached at all, a function that cannot be imported.
"""

from __future__ import annotations

import asyncio
import importlib
import importlib.util
import inspect
import json
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable
from urllib.parse import urlparse

from pydantic import BaseModel, Field

from dragonforge.errors import InputError
from dragonforge.files import check_value, iter_jsonl, parse_json
from dragonforge.models import LANGUAGES, QueryType
from dragonforge.text import detect_language
from dragonforge.urls import with_credentials

if TYPE_CHECKING:
    import httpx

MAX_LISTED_PROBLEMS = 20
# The most a system may answer to one query, answer and retrieved chunks together: past it the
# reply is cut off unread and the query fails (a RAG answer with its top-K chunks is some kB).
MAX_ANSWER_BYTES = 8 * 1024 * 1024
# A predictions file written as one JSON list is read whole; JSONL is read a line at a time.
MAX_LIST_BYTES = 512 * 1024 * 1024
QUERY_TYPE_LABELS = frozenset(t.value for t in QueryType)


class SystemAnswer(BaseModel):
    """What a system said for one query, and what it cost."""

    query_id: int
    answer: str = ""
    contexts: list[str] = Field(default_factory=list)  # retrieved chunks, rank order
    latency_ms: float | None = None
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    cost: float | None = None
    error: str | None = None  # set when this query failed: recorded, never raised
    # The answer the same generator writes from the gold references (built-in systems only;
    # LLM-retEval compares it with ``answer``).
    oracle_answer: str | None = None


class Query(BaseModel):
    """The part of a benchmark query a system under test may see (no ground truth)."""

    query_id: int
    language: str
    domain: str
    question: str

    @classmethod
    def from_record(cls, record: dict[str, Any]) -> Query:
        """From a DRAGONBall query record."""
        return cls(query_id=record["query"]["query_id"], language=record["language"], domain=record["domain"],
                   question=record["query"]["content"])


@runtime_checkable
class System(Protocol):
    name: str

    async def answer(self, query: Query) -> SystemAnswer: ...


# --- shared reply parsing ---------------------------------------------------------------------


def _answer_from_reply(query_id: int, reply: Any, measured_ms: float) -> SystemAnswer:
    """A ``SystemAnswer`` from a reply dict or object; a malformed reply becomes an error."""
    if isinstance(reply, str):
        return SystemAnswer(query_id=query_id, answer=reply, latency_ms=measured_ms)
    if isinstance(reply, dict):
        get = reply.get
    elif hasattr(reply, "answer"):
        def get(key: str, default: Any = None) -> Any:
            return getattr(reply, key, default)
    else:
        return SystemAnswer(query_id=query_id, latency_ms=measured_ms,
                            error=f"bad reply: expected an object with 'answer' and 'contexts', got "
                                  f"{type(reply).__name__}")
    answer, contexts = get("answer"), get("contexts", [])
    contexts = [] if contexts is None else contexts
    if not isinstance(answer, str):
        return SystemAnswer(query_id=query_id, latency_ms=measured_ms,
                            error=f"bad reply: 'answer' must be a string, got {type(answer).__name__}")
    if not isinstance(contexts, (list, tuple)) or not all(isinstance(c, str) for c in contexts):
        return SystemAnswer(query_id=query_id, answer=answer, latency_ms=measured_ms,
                            error="bad reply: 'contexts' must be a list of strings")
    if len(answer) + sum(len(c) for c in contexts) > MAX_ANSWER_BYTES:
        return SystemAnswer(query_id=query_id, latency_ms=measured_ms, error=_TOO_LARGE)
    bad = _not_text(answer) or next((_not_text(c) for c in contexts if _not_text(c)), None)
    if bad:
        return SystemAnswer(query_id=query_id, latency_ms=measured_ms, error=f"bad reply: {bad}")
    latency = get("latency_ms")
    usage = get("usage") or {}
    if not isinstance(usage, dict):
        usage = {}
    return SystemAnswer(query_id=query_id, answer=answer, contexts=list(contexts),
                        latency_ms=float(latency) if latency is not None and _is_number(latency) else measured_ms,
                        prompt_tokens=_int_or_none(usage.get("prompt_tokens")),
                        completion_tokens=_int_or_none(usage.get("completion_tokens")),
                        cost=float(usage["cost"]) if _is_number(usage.get("cost")) else None)


_TOO_LARGE = f"reply larger than {MAX_ANSWER_BYTES >> 20} MiB (answer and contexts): cut off"


def _not_text(value: str) -> str | None:
    """Why ``value`` cannot be written to a UTF-8 file (a lone surrogate), or None."""
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return "a lone surrogate (\\ud800-\\udfff) in the text, which UTF-8 cannot hold"
    return None


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _int_or_none(value: Any) -> int | None:
    return int(value) if _is_number(value) else None


def _elapsed_ms(t0: float) -> float:
    return round((time.perf_counter() - t0) * 1000, 3)


# --- HTTP systems -----------------------------------------------------------------------------


class HTTPSystem:
    """A RAG system behind ``POST url`` taking ``{"query", "language"}`` and answering
    ``{"answer", "contexts"}`` (optionally ``latency_ms`` and ``usage``).

    The first request doubles as the reachability probe: if it cannot connect, ``answer`` raises
    ``InputError("cannot reach URL: ...")`` for it and every later query, so a mistyped URL fails
    the run at once. After that, any failure is recorded on its query. Latency is the endpoint's
    own ``latency_ms`` when it reports one, else the measured round trip (not counting the wait
    for a free connection slot).
    """

    def __init__(self, url: str, concurrency: int = 8, timeout_s: float = 60.0, name: str | None = None):
        parsed = urlparse(url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise InputError(f"cannot reach URL: {url!r} is not an http(s) URL")
        if concurrency < 1 or timeout_s <= 0:
            raise InputError("HTTP system: concurrency must be >= 1 and timeout_s > 0")
        self.url = url
        self.name = name or url
        self.concurrency = concurrency
        self.timeout_s = timeout_s
        self._client: httpx.AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._semaphore: asyncio.Semaphore | None = None
        self._probe_lock: asyncio.Lock | None = None
        self._reachable = False
        self._unreachable: InputError | None = None

    def _ensure_client(self) -> None:
        """One client per event loop: a system may be reused across ``asyncio.run`` calls."""
        import httpx  # here: scoring a predictions file never needs it

        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._loop = loop
            limits = httpx.Limits(max_connections=self.concurrency, max_keepalive_connections=self.concurrency)
            self._client = httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(self.timeout_s))
            self._semaphore = asyncio.Semaphore(self.concurrency)
            self._probe_lock = asyncio.Lock()

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None
            self._loop = None

    async def __aenter__(self) -> HTTPSystem:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def answer(self, query: Query) -> SystemAnswer:
        self._ensure_client()
        if self._unreachable:
            raise self._unreachable
        if not self._reachable:
            assert self._probe_lock is not None
            async with self._probe_lock:
                if self._unreachable:
                    raise self._unreachable
                if not self._reachable:
                    result = await self._post(query, probe=True)
                    self._reachable = True
                    return result
        return await self._post(query, probe=False)

    async def _post(self, query: Query, probe: bool) -> SystemAnswer:
        import httpx

        assert self._client is not None and self._semaphore is not None
        async with self._semaphore:
            t0 = time.perf_counter()
            try:
                status, body = await asyncio.wait_for(self._fetch(query), timeout=self.timeout_s)
            except _ReplyTooLarge:
                return SystemAnswer(query_id=query.query_id, latency_ms=_elapsed_ms(t0), error=_TOO_LARGE)
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.UnsupportedProtocol) as exc:
                if probe:
                    self._unreachable = InputError(f"cannot reach URL: {self.url} ({type(exc).__name__}: {exc})")
                    raise self._unreachable from None
                return SystemAnswer(query_id=query.query_id, latency_ms=_elapsed_ms(t0),
                                    error=f"connection error: {type(exc).__name__}: {exc}")
            except (TimeoutError, httpx.TimeoutException):
                return SystemAnswer(query_id=query.query_id, latency_ms=_elapsed_ms(t0),
                                    error=f"timeout after {self.timeout_s:g}s")
            except httpx.HTTPError as exc:
                return SystemAnswer(query_id=query.query_id, latency_ms=_elapsed_ms(t0),
                                    error=f"HTTP error: {type(exc).__name__}: {exc}")
            measured = _elapsed_ms(t0)
        if status >= 400:
            return SystemAnswer(query_id=query.query_id, latency_ms=measured,
                                error=f"HTTP {status}: {body[:200].decode('utf-8', 'replace')}")
        try:
            reply = parse_json(body)
        except ValueError as exc:
            return SystemAnswer(query_id=query.query_id, latency_ms=measured,
                                error=f"bad JSON in reply: {exc}; body starts {body[:80].decode('utf-8', 'replace')!r}")
        if not isinstance(reply, dict):
            return SystemAnswer(query_id=query.query_id, latency_ms=measured,
                                error=f"bad reply: expected a JSON object, got {type(reply).__name__}")
        return _answer_from_reply(query.query_id, reply, measured)

    async def _fetch(self, query: Query) -> tuple[int, bytes]:
        """The status and body of the system's reply, read no further than MAX_ANSWER_BYTES."""
        assert self._client is not None
        async with self._client.stream("POST", with_credentials(self.url),
                                       json={"query": query.question, "language": query.language}) as response:
            chunks: list[bytes] = []  # joined once: a growing buffer would be copied at each step
            size = 0
            async for chunk in response.aiter_bytes():  # decoded (gzip, ...) as it arrives
                chunks.append(chunk)
                size += len(chunk)
                if size > MAX_ANSWER_BYTES:
                    # freed now: this frame lives on in the exception's traceback, held in a
                    # cycle (through wait_for's task) until the garbage collector next runs
                    chunks.clear()
                    raise _ReplyTooLarge
            return response.status_code, b"".join(chunks)


class _ReplyTooLarge(Exception):
    pass


# --- Python systems ---------------------------------------------------------------------------


class PythonSystem:
    """A function ``(question, language) -> {"answer", "contexts"}`` (or an object with those
    attributes, or a plain answer string), sync or async, named ``"module:function"`` or
    ``"path/to/file.py:function"``. Sync functions run on the event loop, one at a time."""

    def __init__(self, spec: str, name: str | None = None):
        self.spec = spec
        self.name = name or spec
        self.function = _import_function(spec)

    async def answer(self, query: Query) -> SystemAnswer:
        t0 = time.perf_counter()
        try:
            reply = self.function(query.question, query.language)
            if inspect.isawaitable(reply):
                reply = await reply
        except Exception as exc:  # the user's code: any failure is that query's failure
            return SystemAnswer(query_id=query.query_id, latency_ms=_elapsed_ms(t0),
                                error=f"{type(exc).__name__}: {exc}")
        return _answer_from_reply(query.query_id, reply, _elapsed_ms(t0))


def _import_function(spec: str) -> Callable[..., Any]:
    """The callable a ``module:function`` spec names, or an InputError saying why not."""
    module_name, sep, attr = spec.rpartition(":")
    if not sep or not module_name or not attr:
        raise InputError(f"python system {spec!r}: expected 'module:function' or 'file.py:function'")
    try:
        if module_name.endswith(".py"):
            path = Path(module_name)
            if not path.is_file():
                raise InputError(f"python system {spec!r}: no such file {path}")
            unique = f"dragonforge_system_{abs(hash(str(path.resolve())))}"
            module_spec = importlib.util.spec_from_file_location(unique, path)
            assert module_spec and module_spec.loader
            module = importlib.util.module_from_spec(module_spec)
            sys.modules[unique] = module
            module_spec.loader.exec_module(module)
        else:
            module = importlib.import_module(module_name)
    except InputError:
        raise
    except Exception as exc:
        raise InputError(f"python system {spec!r}: cannot import {module_name}: {type(exc).__name__}: {exc}") from None
    function = module
    for part in attr.split("."):
        if not hasattr(function, part):
            raise InputError(f"python system {spec!r}: {module_name} has no attribute {attr!r}")
        function = getattr(function, part)
    if not callable(function):
        raise InputError(f"python system {spec!r}: {attr} is not callable")
    return function


# --- predictions files ------------------------------------------------------------------------


def load_predictions(path: str | Path, benchmark_queries: Mapping[int, dict | BaseModel] | None = None) -> list[dict]:
    """The records of a DRAGONBall predictions file (JSONL, or one JSON list), validated.

    Without a benchmark the file must carry everything scoring needs (domain, query,
    ground_truth, prediction). With one, each record needs only ``query.query_id`` and
    ``prediction``; the domain, language, question and ground truth come from the benchmark,
    whatever the file says. Records missing ``language`` get it from the benchmark or, without
    one, from their script, which must then be the same for all of them. Every problem is
    collected and raised as one ``InputError``.
    """
    path = Path(path)
    problems: list[str] = []
    try:
        items = _parse_items(path, problems)
    except OSError as exc:
        raise InputError(f"cannot read predictions file {path}: {exc.strerror or exc}") from None
    records: list[dict] = []
    seen: dict[int, str] = {}
    unlabelled: list[tuple[str, int | None, str]] = []  # (where, query id, detected language)
    for where, raw in items:
        record = _check_record(where, raw, benchmark_queries, problems)
        if record is None:
            continue
        qid = record["query"]["query_id"]
        if qid in seen:
            problems.append(f"{where} (query {qid}): duplicate query id (first at {seen[qid]})")
            continue
        seen[qid] = where
        if "language" not in raw and benchmark_queries is None:
            probe = record["query"].get("content", "") + " " + record["prediction"]["content"]
            unlabelled.append((where, qid, detect_language(probe)))
            record["language"] = unlabelled[-1][2]
        records.append(record)
    if len({lang for _, _, lang in unlabelled}) > 1:
        where, qid, lang = unlabelled[0]
        other = next(u for u in unlabelled if u[2] != lang)
        problems.append(f"{where} (query {qid}): no 'language' field, and the records without one mix English "
                        f"and Chinese (e.g. {other[0]}, query {other[1]}, reads as {other[2]!r}); add "
                        f"'language' to every record")
    if not items and not problems:
        problems.append("line 1: the file holds no records")
    if problems:
        listed = "\n  ".join(problems[:MAX_LISTED_PROBLEMS])
        more = f"\n  ... and {len(problems) - MAX_LISTED_PROBLEMS} more" if len(problems) > MAX_LISTED_PROBLEMS else ""
        raise InputError(f"predictions file {path}: {len(problems)} problem(s):\n  {listed}{more}")
    return records


def _parse_items(path: Path, problems: list[str]) -> list[tuple[str, Any]]:
    """(where, parsed value) per record: 'line N' for JSONL, 'record N' for a JSON list."""
    with path.open("rb") as fh:
        start = fh.read(4096).lstrip()
    if start.startswith(b"["):  # one JSON list: read whole, so it has a cap of its own
        if path.stat().st_size > MAX_LIST_BYTES:
            problems.append(f"line 1: a JSON list larger than {MAX_LIST_BYTES >> 20} MiB; write one record per "
                            f"line (JSONL) instead")
            return []
        try:
            values = json.loads(path.read_bytes())
        except RecursionError:
            problems.append("the JSON list: nested too deeply")
            return []
        except ValueError as exc:
            where = f"line {exc.lineno}" if isinstance(exc, json.JSONDecodeError) else "the JSON list"
            problems.append(f"{where}: not JSON ({getattr(exc, 'msg', exc)})")
            return []
        if not isinstance(values, list):
            problems.append("the file starts like a JSON list but is not one")
            return []
        items = []
        for i, value in enumerate(values, 1):
            try:
                check_value(value)
            except ValueError as exc:
                problems.append(f"record {i}: {exc}")
                continue
            items.append((f"record {i}", value))
        return items
    return [(f"line {number}", value) for number, value in iter_jsonl(path, problems=problems)]


def _check_record(where: str, raw: Any, benchmark: Mapping[int, dict | BaseModel] | None,
                  problems: list[str]) -> dict | None:
    """The record to score, or None after adding its problems to ``problems``."""
    if not isinstance(raw, dict):
        problems.append(f"{where}: expected a JSON object, got {type(raw).__name__}")
        return None
    query = raw.get("query")
    qid = query.get("query_id") if isinstance(query, dict) else None
    if isinstance(qid, bool) or not isinstance(qid, int):
        qid_problem = ("missing query" if query is None else "query must be an object" if not isinstance(query, dict)
                       else "missing query.query_id" if "query_id" not in query
                       else f"query.query_id must be an integer, got {json.dumps(qid)}")
        problems.append(f"{where}: {qid_problem}")
        return None
    found: list[str] = []
    _check_prediction(raw.get("prediction"), found)
    language = raw.get("language")
    if language is not None and language not in LANGUAGES:
        found.append(f"language must be one of {', '.join(LANGUAGES)}, got {json.dumps(language)}")
    if benchmark is not None:
        known = benchmark.get(qid)
        gold = known.model_dump(mode="json", exclude_unset=True) if isinstance(known, BaseModel) else known
        if gold is None:
            found.append("unknown query id: not in the benchmark")
        elif language is not None and language != gold.get("language"):
            found.append(f"language is {language!r} but the benchmark's query is {gold.get('language')!r}")
        record = None if gold is None else {**{k: v for k, v in gold.items() if k != "prediction"},
                                            "prediction": raw.get("prediction")}
    else:
        _check_standalone(raw, found)
        record = dict(raw)
    problems.extend(f"{where} (query {qid}): {p}" for p in found)
    return None if found else record


def _check_prediction(prediction: Any, found: list[str]) -> None:
    if prediction is None:
        found.append("missing prediction")
    elif not isinstance(prediction, dict):
        found.append("prediction must be an object")
    else:
        if not isinstance(prediction.get("content"), str):
            found.append("missing prediction.content" if "content" not in prediction
                         else "prediction.content must be a string")
        if not _is_str_list(prediction.get("references")):
            found.append("missing prediction.references" if "references" not in prediction
                         else "prediction.references must be a list of strings")


def _check_standalone(raw: dict, found: list[str]) -> None:
    """A record scored without a benchmark must carry its question and ground truth."""
    if not isinstance(raw.get("domain"), str):
        found.append("missing domain" if "domain" not in raw else "domain must be a string")
    query = raw["query"]
    if not isinstance(query.get("content"), str):
        found.append("missing query.content" if "content" not in query else "query.content must be a string")
    if query.get("query_type") not in QUERY_TYPE_LABELS:
        found.append("missing query.query_type" if "query_type" not in query
                     else f"query.query_type {json.dumps(query.get('query_type'))} is not one of the seven labels")
    gt = raw.get("ground_truth")
    if not isinstance(gt, dict):
        found.append("missing ground_truth (needed without a benchmark)" if gt is None
                     else "ground_truth must be an object")
        return
    doc_ids = gt.get("doc_ids")
    if not isinstance(doc_ids, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in doc_ids):
        found.append("missing ground_truth.doc_ids" if "doc_ids" not in gt
                     else "ground_truth.doc_ids must be a list of integers")
    if not isinstance(gt.get("content"), str):
        found.append("missing ground_truth.content" if "content" not in gt
                     else "ground_truth.content must be a string")
    for key in ("references", "keypoints"):
        if not _is_str_list(gt.get(key)):
            found.append(f"missing ground_truth.{key}" if key not in gt
                         else f"ground_truth.{key} must be a list of strings")


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)
