"""The one LLM interface: "complete this prompt as this pydantic type".

``StructuredLLM.complete`` sends a prompt to any OpenAI-compatible endpoint (OpenAI, vLLM,
Ollama, llama.cpp's server) and returns a validated instance of the requested model, or a
``Failure`` carrying the raw output and the reason. Around each call:

- structured output: the model's JSON schema as ``response_format`` json_schema where the
  server takes it, JSON mode otherwise; a reply that does not parse or validate is sent back
  with the error, at most ``max_repairs`` times;
- retries with exponential backoff and jitter on 429, 5xx, timeouts and connection errors,
  honouring ``Retry-After`` up to ``RETRY_AFTER_CAP_S`` (a longer wait stops the run with
  ``LLMUnavailable`` rather than sleeping for it);
- a wall-clock bound: each attempt ends after ``timeout_s`` however slowly the server sends its
  bytes, so one request takes at most ``timeout_s * (1 + max_retries)`` plus the waits between
  attempts; a reply body over ``reply_limit(max_tokens)`` is cut off and fails that request;
- bounded concurrency and optional requests- and tokens-per-minute limits;
- a persistent response cache keyed by (model, messages, sampling parameters, schema), so a
  rerun, or a run resumed after a crash, makes no call it already made;
- token and cost accounting per stage and model, budgets that stop the run cleanly (requests
  already sent are awaited and their replies cached before the stop), and a log of every call.

The API key is read from the environment and held only by the HTTP client: it is never part
of a cache key, a log record, a manifest or an error message.
"""

from __future__ import annotations

import asyncio
import email.utils
import functools
import hashlib
import json
import math
import os
import random
import sqlite3
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Generic, Literal, Protocol, TextIO, TypeVar

import httpx
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from dragonforge import urls
from dragonforge.errors import DragonforgeError
from dragonforge.resume import Recovering, damaged
from dragonforge.urls import with_credentials

if TYPE_CHECKING:
    import openai

T = TypeVar("T", bound=BaseModel)

# The longest Retry-After honoured; a server asking for more (a daily quota, "inf") stops the run.
RETRY_AFTER_CAP_S = 60.0


def reply_limit(max_tokens: int) -> int:
    """The longest reply body read from an endpoint: a chat completion of ``max_tokens`` tokens
    is far smaller (no token is 64 bytes long), so more is a broken or hostile server."""
    return 1024 * 1024 + 64 * max_tokens

Message = dict[str, str]


class BudgetExceeded(DragonforgeError):
    """A --max-calls or --max-cost budget was reached; finished work is kept in the cache."""


class LLMUnavailable(DragonforgeError):
    """The endpoint kept failing after every retry; finished work is kept in the cache."""


class LLMSettings(BaseModel):
    """Everything about the endpoint except the key, which stays in the environment."""

    model_config = ConfigDict(extra="forbid")

    base_url: str
    model: str
    api_key_env: str = "OPENAI_API_KEY"
    concurrency: int = Field(default=8, ge=1, le=1024)
    requests_per_minute: float | None = Field(default=None, gt=0)
    tokens_per_minute: float | None = Field(default=None, gt=0)
    timeout_s: float = Field(default=120.0, gt=0)
    max_retries: int = Field(default=6, ge=0)
    max_repairs: int = Field(default=2, ge=0)
    temperature: float = 0.0
    max_tokens: int = Field(default=1024, ge=1)
    seed: int | None = 0
    structured: Literal["auto", "json_schema", "json_object"] = "auto"
    price_input_per_mtok: float = Field(default=0.0, ge=0)
    price_output_per_mtok: float = Field(default=0.0, ge=0)
    max_calls: int | None = Field(default=None, ge=0)
    max_cost: float | None = Field(default=None, ge=0)
    use_cache: bool = True


@dataclass
class Failure:
    """A prompt whose replies never gave a valid object: what came back and why."""

    reason: str
    raw: str = ""


@dataclass
class Completion(Generic[T]):
    value: T | None
    failure: Failure | None = None

    @property
    def ok(self) -> bool:
        return self.value is not None


@dataclass
class StageUsage:
    calls: int = 0  # requests sent to the endpoint
    cache_hits: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost: float = 0.0
    retries: int = 0
    repairs: int = 0  # replies sent back because they did not parse or validate
    failures: int = 0  # prompts that never gave a valid object

    def as_dict(self) -> dict[str, Any]:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in self.__dict__.items()}


class LLMAccount:
    """Usage, budget and the calls log, shared by every client of one build. The budget and
    the log are guarded by a lock; usage counters are updated by one event loop at a time
    (a build runs its groups one after another)."""

    def __init__(self, settings: LLMSettings, calls_path: Path | None = None, spent: LLMAccount | None = None):
        """``spent``: an account of the same command whose calls and cost count against this
        one's budget too (an evaluation's answers, then its judge: one --max-calls for both)."""
        self.settings = settings
        self.usage: dict[tuple[str, str], StageUsage] = defaultdict(StageUsage)
        self.reserved_calls: int = spent.reserved_calls if spent else 0
        self._cost_before = spent.cost if spent else 0.0
        self.in_flight = 0  # requests sent whose reply has not come back yet
        self.halted: str | None = None  # why the endpoint is given up: no request is sent after it
        self.lock = threading.Lock()
        # optional callback(stage) after each reply, for live progress
        self.on_call: Callable[[str], None] | None = None
        self._calls_file: TextIO | None = None
        if calls_path:
            calls_path.parent.mkdir(parents=True, exist_ok=True)
            self._calls_file = calls_path.open("a", encoding="utf-8")

    @property
    def calls(self) -> int:
        return sum(u.calls for u in self.usage.values())

    @property
    def cache_hits(self) -> int:
        return sum(u.cache_hits for u in self.usage.values())

    @property
    def tokens(self) -> int:
        return sum(u.prompt_tokens + u.completion_tokens for u in self.usage.values())

    @property
    def cost(self) -> float:
        return self._cost_before + sum(u.cost for u in self.usage.values())

    def report(self) -> dict[str, dict[str, Any]]:
        """Usage by stage, then model: what the manifest records."""
        out: dict[str, dict[str, Any]] = {}
        for (stage, model), usage in sorted(self.usage.items()):
            out.setdefault(stage, {})[model] = usage.as_dict()
        return out

    def log(self, record: dict[str, Any]) -> None:
        if self._calls_file:
            with self.lock:
                self._calls_file.write(json.dumps(record, ensure_ascii=False) + "\n")
                self._calls_file.flush()

    def reserve(self) -> None:
        """Count one request about to be sent, or raise ``BudgetExceeded``."""
        with self.lock:
            if self.halted:
                raise LLMUnavailable(self.halted)
            limit = self.settings.max_calls
            if limit is not None and self.reserved_calls >= limit:
                raise BudgetExceeded(f"--max-calls {limit} reached")
            if self.settings.max_cost is not None and self.cost >= self.settings.max_cost:
                raise BudgetExceeded(f"--max-cost {self.settings.max_cost:g} reached (spent {self.cost:.4f})")
            self.reserved_calls += 1
            self.in_flight += 1

    def landed(self, refund: bool = False) -> None:
        """A reserved request is over (``refund``: it does not count against the budget)."""
        with self.lock:
            self.in_flight -= 1
            if refund:
                self.reserved_calls -= 1

    async def drained(self) -> None:
        """Wait until every request already sent has its reply (and so its cache entry): a
        spent budget or a dead endpoint stops new requests, never the ones the endpoint is
        already answering."""
        while self.in_flight > 0:
            await asyncio.sleep(0.02)

    def halt(self, why: str) -> None:
        with self.lock:
            self.halted = self.halted or why

    def close(self) -> None:
        if self._calls_file:
            self._calls_file.close()
            self._calls_file = None


# --- cache ---------------------------------------------------------------------------------


class ResponseCache(Recovering):
    """SQLite table of replies keyed by the hash of everything that determines them."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._lock = threading.Lock()
        try:
            self._db = self._open()
        except sqlite3.DatabaseError as exc:
            if not damaged(exc):
                raise
            self._db = self._recover()

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("CREATE TABLE IF NOT EXISTS replies (key TEXT PRIMARY KEY, content TEXT NOT NULL, "
                       "prompt_tokens INTEGER, completion_tokens INTEGER)")
        except sqlite3.DatabaseError:
            db.close()
            raise
        return db

    def _recover(self) -> sqlite3.Connection:
        """A damaged cache is moved aside with its write-ahead log, not deleted (its replies
        were paid for), and a new one started."""
        aside = f"{self.path}.damaged-{time.strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"
        for suffix in ("", "-wal"):
            if Path(f"{self.path}{suffix}").exists():
                Path(f"{self.path}{suffix}").replace(f"{aside}{suffix}")
        Path(f"{self.path}-shm").unlink(missing_ok=True)
        return self._open()

    def get(self, key: str) -> tuple[str, int, int] | None:
        with self._lock:
            row = self._execute("SELECT content, prompt_tokens, completion_tokens FROM replies WHERE key = ?",
                                (key,)).fetchone()
        return row

    def put(self, key: str, content: str, prompt_tokens: int, completion_tokens: int) -> None:
        with self._lock:
            self._execute("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?)",
                          (key, content, prompt_tokens, completion_tokens))

    def close(self) -> None:
        with self._lock:
            self._db.close()


# --- rate limits ---------------------------------------------------------------------------


class _Bucket:
    """Token bucket refilled at ``per_minute / 60`` per second, holding at most a minute's worth."""

    def __init__(self, per_minute: float):
        self.rate = per_minute / 60.0
        self.capacity = per_minute
        self.level = per_minute
        self.stamp = time.monotonic()
        self.lock = asyncio.Lock()

    async def take(self, amount: float) -> None:
        amount = min(amount, self.capacity)
        async with self.lock:
            while True:
                now = time.monotonic()
                self.level = min(self.capacity, self.level + (now - self.stamp) * self.rate)
                self.stamp = now
                if self.level >= amount:
                    self.level -= amount
                    return
                await asyncio.sleep((amount - self.level) / self.rate)


# --- the client ----------------------------------------------------------------------------


def prompt_hash(messages: list[Message]) -> str:
    return hashlib.sha256(json.dumps(messages, ensure_ascii=False, sort_keys=True).encode()).hexdigest()[:16]


class StructuredLLM:
    """An OpenAI-compatible endpoint behind "complete this prompt as this pydantic type"."""

    def __init__(self, settings: LLMSettings, cache_path: Path | None = None, calls_path: Path | None = None,
                 transport: httpx.AsyncBaseTransport | None = None, account: LLMAccount | None = None):
        self.settings = settings
        self._key = os.environ.get(settings.api_key_env) or "no-key"
        self._transport = transport
        self._client: openai.AsyncOpenAI | None = None
        self._cache = ResponseCache(cache_path) if cache_path and settings.use_cache else None
        self._own_account = account is None
        self.account = account or LLMAccount(settings, calls_path)
        self._semaphore: asyncio.Semaphore | None = None
        self._rpm = _Bucket(settings.requests_per_minute) if settings.requests_per_minute else None
        self._tpm = _Bucket(settings.tokens_per_minute) if settings.tokens_per_minute else None
        self._format: str = "json_schema" if settings.structured in ("auto", "json_schema") else "json_object"

    # -- accounting ----------------------------------------------------------------------

    @property
    def usage(self) -> dict[tuple[str, str], StageUsage]:
        return self.account.usage

    @property
    def calls(self) -> int:
        return self.account.calls

    @property
    def cost(self) -> float:
        return self.account.cost

    def usage_report(self) -> dict[str, dict[str, Any]]:
        return self.account.report()

    def _log(self, record: dict[str, Any]) -> None:
        self.account.log(record)

    def _redact(self, text: str) -> str:
        text = urls.redact(text)  # a password of the URL, or its basic-auth token, echoed back
        return text.replace(self._key, "***") if self._key and self._key != "no-key" else text

    # -- the call ------------------------------------------------------------------------

    def _get_client(self) -> openai.AsyncOpenAI:
        import openai  # here, not at module level: an offline build never pays for importing it

        if self._client is None:
            limits = httpx.Limits(max_connections=self.settings.concurrency,
                                  max_keepalive_connections=self.settings.concurrency)
            inner = self._transport or httpx.AsyncHTTPTransport(limits=limits)
            capped = CappedTransport(inner, reply_limit(self.settings.max_tokens))
            http = httpx.AsyncClient(limits=limits, timeout=self.settings.timeout_s, transport=capped)
            self._client = openai.AsyncOpenAI(base_url=with_credentials(self.settings.base_url), api_key=self._key,
                                              max_retries=0,
                                              timeout=self.settings.timeout_s,
                                              # the SDK is typed for httpx2's client only, yet takes an httpx one
                                              # (openai._httpx2 handles the legacy module)
                                              http_client=http)  # type: ignore[arg-type]
            self._semaphore = asyncio.Semaphore(self.settings.concurrency)
        return self._client

    async def aclose(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None
        if self._cache:
            self._cache.close()
            self._cache = None
        if self._own_account:
            self.account.close()

    async def complete(self, stage: str, messages: list[Message], schema: type[T],
                       language: str = "en") -> Completion[T]:
        """A validated ``schema`` instance for ``messages``, or the failure with the raw reply.
        Repair turns are written in ``language``, so a Chinese exchange stays Chinese."""
        messages = list(messages)
        raw = ""
        reason = ""
        for repair in range(self.settings.max_repairs + 1):
            try:
                raw = await self._exchange(stage, messages, schema)
            except _RequestRejected as exc:
                self.usage[(stage, self.settings.model)].failures += 1
                return Completion(value=None, failure=Failure(reason=str(exc), raw=raw))
            try:
                return Completion(value=schema.model_validate_json(_strip_fences(raw)))
            except ValidationError as exc:
                reason = _describe_validation(exc)
            if repair < self.settings.max_repairs:
                self.usage[(stage, self.settings.model)].repairs += 1
                messages = messages + [{"role": "assistant", "content": raw},
                                       {"role": "user", "content": repair_message(reason, language)}]
        self.usage[(stage, self.settings.model)].failures += 1
        return Completion(value=None, failure=Failure(reason=f"invalid output after {self.settings.max_repairs + 1} "
                                                             f"attempt(s): {reason}", raw=raw))

    def _request(self, messages: list[Message], schema: type[BaseModel]) -> dict[str, Any]:
        json_schema = _json_schema(schema)
        if self._format == "json_schema":
            response_format = {"type": "json_schema",
                               "json_schema": {"name": schema.__name__, "schema": json_schema, "strict": False}}
        elif self._format == "json_object_schema":
            # llama.cpp's and vLLM's JSON mode take the schema beside the type and enforce it.
            response_format = {"type": "json_object", "schema": json_schema}
        else:
            response_format = {"type": "json_object"}
        request: dict[str, Any] = {"model": self.settings.model, "messages": messages,
                                   "temperature": self.settings.temperature, "max_tokens": self.settings.max_tokens,
                                   "response_format": response_format}
        if self.settings.seed is not None:
            request["seed"] = self.settings.seed
        return request

    def _cache_key(self, request: dict[str, Any], schema: type[BaseModel]) -> str:
        keyed = {**request, "schema": _schema_digest(schema)}
        keyed["response_format"] = None  # the schema is keyed itself; the wire format is not
        return hashlib.sha256(json.dumps(keyed, ensure_ascii=False, sort_keys=True).encode()).hexdigest()

    async def _exchange(self, stage: str, messages: list[Message], schema: type[BaseModel]) -> str:
        """One reply for ``messages``: from the cache, or from the endpoint with retries."""
        request = self._request(messages, schema)
        key = self._cache_key(request, schema)
        usage = self.usage[(stage, self.settings.model)]
        phash = prompt_hash(messages)
        if self._cache and (hit := self._cache.get(key)) is not None:
            usage.cache_hits += 1
            self._log({"stage": stage, "prompt_hash": phash, "model": self.settings.model, "outcome": "cache_hit",
                       "latency_ms": 0, "prompt_tokens": hit[1], "completion_tokens": hit[2], "attempt": 0})
            if self.account.on_call:
                self.account.on_call(stage)
            return hit[0]

        try:
            return await self._ask(stage, messages, schema, request, key, usage, phash)
        except LLMUnavailable as exc:
            self.account.halt(str(exc))  # no more requests; the ones in flight are awaited, cached
            await self.account.drained()
            raise

    async def _ask(self, stage: str, messages: list[Message], schema: type[BaseModel], request: dict[str, Any],
                   key: str, usage: StageUsage, phash: str) -> str:
        """The endpoint's reply, with retries, stepping down the structured-output mode."""
        import openai

        client = self._get_client()
        assert self._semaphore is not None
        attempt = 0
        while True:
            if self._rpm:
                await self._rpm.take(1)
            if self._tpm:
                await self._tpm.take(sum(len(m["content"]) for m in messages) / 4 + self.settings.max_tokens)
            t0 = time.perf_counter()
            outcome, delay, error = "ok", None, ""
            try:
                async with self._semaphore:
                    try:
                        self.account.reserve()  # counted when it is really sent, not while it waits
                    except (BudgetExceeded, LLMUnavailable):
                        await self.account.drained()
                        raise
                    refund = False
                    try:
                        t0 = time.perf_counter()
                        # response_format goes as a plain body field: the SDK would otherwise walk the
                        # whole JSON schema on every request (the costliest part of a call). The
                        # whole attempt is bounded, not only each read: a server dripping a byte at
                        # a time would otherwise hold it for ever.
                        fields = {k: v for k, v in request.items() if k != "response_format"}
                        response = await asyncio.wait_for(client.chat.completions.create(
                            **fields, extra_body={"response_format": request["response_format"]}),
                            timeout=self.settings.timeout_s)
                    except openai.APIStatusError as exc:
                        refund = self._steps_down(exc, request)
                        raise
                    except ValueError as exc:  # a body that says JSON and is not (the SDK's own json())
                        raise _NotACompletion(f"not JSON: {exc}") from None
                    finally:
                        self.account.landed(refund)
                content, p_tok, c_tok = _reply_parts(response)
            except openai.APIStatusError as exc:
                status = exc.status_code
                if self._steps_down(exc, request):
                    # This server lacks that structured-output mode: step down to the next one
                    # (json_schema -> JSON mode with the schema -> plain JSON mode), unless a
                    # concurrent request already did.
                    if _sent_format(request) == _FORMAT_SHAPES[self._format]:
                        self._format = "json_object_schema" if self._format == "json_schema" else "json_object"
                    request = self._request(messages, schema)
                    self._log_call(stage, phash, f"http_{status}", t0, attempt,
                                   error="structured-output mode not supported; stepping down")
                    continue
                if status == 429 or status >= 500:
                    outcome, delay = f"http_{status}", _retry_after(exc.response)
                else:
                    error = self._redact(_error_text(exc))[:300]
                    usage.calls += 1
                    self._log_call(stage, phash, f"http_{status}", t0, attempt, error=error)
                    if status in (401, 403, 404):
                        raise LLMUnavailable(f"the endpoint answered {status} to a {stage} request: {error}") from None
                    raise _RequestRejected(f"the endpoint rejected the request ({status}): {error}") from None
            except (TimeoutError, openai.APITimeoutError):
                outcome = "timeout"
            except (openai.APIConnectionError, ReplyTooLarge) as exc:
                too_large = exc if isinstance(exc, ReplyTooLarge) else exc.__cause__
                if isinstance(too_large, ReplyTooLarge):
                    usage.calls += 1
                    self._log_call(stage, phash, "too_large", t0, attempt, error=str(too_large))
                    raise _RequestRejected(str(too_large)) from None
                outcome = "connection_error"
            except (openai.APIResponseValidationError, _NotACompletion) as exc:
                # An HTML page or some other JSON where a chat completion belongs: a proxy, a web
                # UI or another API at --base-url. Retrying would only repeat it.
                usage.calls += 1
                what = str(exc) if isinstance(exc, _NotACompletion) else _content_type_of(exc)
                self._log_call(stage, phash, "not_a_completion", t0, attempt, error=what)
                raise LLMUnavailable(f"the endpoint's reply to a {stage} request is not a chat completion ({what}); "
                                     f"check --base-url (it should end in /v1)") from None
            if outcome == "ok":
                usage.calls += 1
                usage.prompt_tokens += p_tok
                usage.completion_tokens += c_tok
                usage.cost += (p_tok * self.settings.price_input_per_mtok
                               + c_tok * self.settings.price_output_per_mtok) / 1e6
                self._log_call(stage, phash, outcome, t0, attempt, p_tok, c_tok)
                if self._cache:
                    self._cache.put(key, content, p_tok, c_tok)
                if self.account.on_call:
                    self.account.on_call(stage)
                return content
            usage.calls += 1
            self._log_call(stage, phash, outcome, t0, attempt)
            if attempt >= self.settings.max_retries:
                raise LLMUnavailable(f"the endpoint failed {attempt + 1} times on a {stage} request "
                                     f"(last: {outcome}); finished work is cached, re-run to continue")
            if delay is not None and delay > RETRY_AFTER_CAP_S:
                raise LLMUnavailable(f"the endpoint asks to wait {_seconds(delay)} before the next {stage} request "
                                     f"(Retry-After), longer than the {RETRY_AFTER_CAP_S:g} s dragonforge waits; "
                                     f"finished work is cached, re-run later to continue")
            usage.retries += 1
            backoff = min(30.0, 0.5 * 2 ** attempt) * (0.5 + random.random())
            await asyncio.sleep(backoff if delay is None else delay)
            attempt += 1

    def _steps_down(self, exc: openai.APIStatusError, request: dict[str, Any]) -> bool:  # noqa: F821
        """The server refused the request's structured-output mode and a simpler one is left."""
        return (self.settings.structured == "auto" and _sent_format(request) != ("json_object", False)
                and _about_format(exc))

    def _log_call(self, stage: str, phash: str, outcome: str, t0: float, attempt: int, p_tok: int = 0,
                  c_tok: int = 0, error: str = "") -> None:
        record = {"stage": stage, "prompt_hash": phash, "model": self.settings.model, "outcome": outcome,
                  "latency_ms": round((time.perf_counter() - t0) * 1000, 1), "prompt_tokens": p_tok,
                  "completion_tokens": c_tok, "attempt": attempt}
        if error:
            record["error"] = error[:500]
        self._log(record)


def _sent_format(request: dict[str, Any]) -> tuple[str, bool]:
    return request["response_format"].get("type"), "schema" in request["response_format"]


class ReplyTooLarge(httpx.ReadError):
    """A reply body past ``reply_limit`` (raised by the transport while it reads; the SDK
    wraps it in ``APIConnectionError``)."""


class _NotACompletion(Exception):
    """JSON that is not a chat completion (no ``choices``, no message)."""


def _reply_parts(response: Any) -> tuple[str, int, int]:
    """The content and token counts of a chat completion, or ``_NotACompletion``."""
    if isinstance(response, (str, bytes)):  # the SDK hands back a body that is not JSON as it is
        start = response[:40] if isinstance(response, str) else response[:40].decode("utf-8", "replace")
        raise _NotACompletion(f"text, not JSON: {' '.join(start.split())!r}")
    choices = getattr(response, "choices", None)
    if not isinstance(choices, list) or not choices:
        raise _NotACompletion("a reply without choices")
    message = getattr(choices[0], "message", None)
    content = getattr(message, "content", None) if message is not None else None
    if content is not None and not isinstance(content, str):
        raise _NotACompletion("a reply whose message content is not text")
    usage = getattr(response, "usage", None)
    p_tok = getattr(usage, "prompt_tokens", 0) if usage is not None else 0
    c_tok = getattr(usage, "completion_tokens", 0) if usage is not None else 0
    return content or "", p_tok if isinstance(p_tok, int) else 0, c_tok if isinstance(c_tok, int) else 0


def _content_type_of(exc: Exception) -> str:
    response = getattr(exc, "response", None)
    kind = response.headers.get("content-type", "no content type") if response is not None else "unknown"
    return f"status {response.status_code if response is not None else '?'}, {kind.split(';')[0]}"


def _seconds(value: float) -> str:
    return "for ever" if value == float("inf") else f"{value:g} s"


class CappedTransport(httpx.AsyncBaseTransport):
    """An HTTP transport that stops reading a reply body past ``limit`` bytes."""

    def __init__(self, inner: httpx.AsyncBaseTransport, limit: int):
        self._inner = inner
        self._limit = limit

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await self._inner.handle_async_request(request)
        return httpx.Response(status_code=response.status_code, headers=response.headers,
                              stream=_CappedStream(response.stream, self._limit), extensions=response.extensions)

    async def aclose(self) -> None:
        await self._inner.aclose()


class _CappedStream(httpx.AsyncByteStream):
    def __init__(self, inner: Any, limit: int):
        self._inner, self._limit = inner, limit

    async def __aiter__(self):
        seen = 0
        async for chunk in self._inner:
            seen += len(chunk)
            if seen > self._limit:
                raise ReplyTooLarge(f"the reply is larger than {self._limit:,} bytes; cut off")
            yield chunk

    async def aclose(self) -> None:
        close = getattr(self._inner, "aclose", None)
        if close is not None:
            await close()


_FORMAT_SHAPES = {"json_schema": ("json_schema", False), "json_object_schema": ("json_object", True),
                  "json_object": ("json_object", False)}


@functools.cache
def _json_schema(schema: type[BaseModel]) -> dict[str, Any]:
    return schema.model_json_schema()


@functools.cache
def _schema_digest(schema: type[BaseModel]) -> str:
    return hashlib.sha256(json.dumps(_json_schema(schema), sort_keys=True).encode()).hexdigest()


def repair_message(problems: str, language: str) -> str:
    """The turn that sends a reply back with what is wrong with it."""
    if language == "zh":
        return f"上面的回复不符合要求：{problems}。请重新回复，只输出一个符合 JSON Schema 的 JSON 对象，不要输出其他内容。"
    return (f"That reply is not valid: {problems}. Reply again with only a JSON object that matches the "
            f"schema, and nothing else.")


class _RequestRejected(Exception):
    """A 4xx other than 429 for one request (e.g. a prompt over the context length): that
    item fails, the run goes on."""


def _error_text(exc: openai.APIStatusError) -> str:  # noqa: F821 (imported where raised)
    """The server's own message (whole: it is redacted before it is cut)."""
    try:
        body = exc.response.json()
        message = body.get("error", {}).get("message") if isinstance(body.get("error"), dict) else body.get("detail")
        return str(message or body)
    except Exception:
        return exc.response.text if exc.response is not None else str(exc)


def _strip_fences(text: str) -> str:
    """Small models wrap JSON in ```json fences even in JSON mode; take what is inside."""
    text = text.strip()
    if text.startswith("```"):
        text = text.split("\n", 1)[1] if "\n" in text else ""
        text = text.rsplit("```", 1)[0]
    return text.strip()


def _describe_validation(exc: ValidationError) -> str:
    errors = exc.errors()
    parts = []
    for err in errors[:3]:
        loc = ".".join(map(str, err["loc"])) or "the reply"
        parts.append(f"{loc}: {err['msg']}")
    more = f" (+{len(errors) - 3} more)" if len(errors) > 3 else ""
    return "; ".join(parts) + more


def _about_format(exc: openai.APIStatusError) -> bool:  # noqa: F821 (imported where raised)
    text = (str(exc) + (exc.response.text if exc.response is not None else "")).lower()
    return "response_format" in text or "json_schema" in text


class _HasHeaders(Protocol):
    """A reply with headers: httpx's, or httpx2's as the openai SDK types its errors' replies."""

    @property
    def headers(self) -> Mapping[str, str]: ...


def _retry_after(response: _HasHeaders | None) -> float | None:
    """Seconds to wait from a Retry-After header (seconds or HTTP date), if any."""
    if response is None:
        return None
    value = response.headers.get("retry-after")
    if not value:
        return None
    try:
        seconds = float(value)
    except ValueError:
        try:
            parsed = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None  # not seconds, not a date ("soon"): ignored, the usual backoff applies
        seconds = parsed.timestamp() - time.time()
    if math.isnan(seconds):
        return None
    return max(0.0, seconds)
