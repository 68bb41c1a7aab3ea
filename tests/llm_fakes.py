"""A scripted, misbehaving OpenAI-compatible server on loopback, for testing ``StructuredLLM``.

``FakeLLMServer`` is a real HTTP/1.1 server (raw asyncio, keep-alive) on 127.0.0.1 and a free
port, running its own event loop in a background thread. It speaks ``POST /v1/chat/completions``
and ``GET /v1/models``, records every request it receives, and answers each chat completion
with the next *action* of its script::

    with FakeLLMServer([rate_limited(1), ok({"name": "x"})]) as server:
        settings = LLMSettings(base_url=server.base_url, model=server.model)
        ...
        assert server.count == 2

Actions (see the helpers below): ``ok`` (a valid reply with ``usage``), ``empty``, ``truncated``,
``schema_invalid``, ``rate_limited`` (429 + Retry-After), ``server_error`` (500/502/503),
``error`` (any status, optionally echoing the request's Authorization header in the body),
``stall`` (sleep past the client's timeout, then answer), ``drip`` (a reply a byte at a time),
``raw`` (any body and content type with status 200). A script item may also be a callable
``(RecordedRequest) -> Action``. When the script runs out, ``default`` answers (an action or a
callable); without one the server answers 418 "fake script exhausted", which the client treats
as fatal, so an unexpected extra request fails the test loudly.

Other test modules can use the ``fake_llm`` fixture (``from llm_fakes import fake_llm``) or the
context manager directly. Starting takes a few milliseconds; ``stop`` cancels stalled handlers.
"""

from __future__ import annotations

import asyncio
import json
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

import pytest

_REASONS = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 418: "I'm a teapot",
            429: "Too Many Requests", 500: "Internal Server Error", 502: "Bad Gateway",
            503: "Service Unavailable"}


@dataclass
class RecordedRequest:
    """One request as the server saw it."""

    method: str
    path: str
    headers: dict[str, str]  # lower-cased names
    body: Any  # parsed JSON, or the raw text if it was not JSON, or None
    received_at: float  # time.monotonic()

    @property
    def messages(self) -> list[dict[str, Any]]:
        return (self.body or {}).get("messages", []) if isinstance(self.body, dict) else []

    @property
    def response_format(self) -> dict[str, Any] | None:
        return self.body.get("response_format") if isinstance(self.body, dict) else None


@dataclass
class Action:
    """How to answer one chat completion."""

    status: int = 200
    content: str | None = None  # the assistant message content, for status 200
    prompt_tokens: int = 10
    completion_tokens: int = 5
    finish_reason: str = "stop"
    headers: dict[str, str] = field(default_factory=dict)
    error_message: str = ""  # for status != 200: the OpenAI-style error message
    echo_auth: bool = False  # append the request's Authorization header to the error message
    delay: float = 0.0  # seconds to sleep before answering (a stall past the client timeout)
    label: str = "ok"
    body: bytes | None = None  # sent as it is instead of a chat completion (with content_type)
    content_type: str = "application/json"
    drip: float = 0.0  # seconds between the body's bytes (a server that never quite stalls)


Responder = Callable[[RecordedRequest], Action]


def ok(content: Any, prompt_tokens: int = 10, completion_tokens: int = 5) -> Action:
    """A good reply: ``content`` (a dict/list is sent as its JSON text) with ``usage`` counts."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Action(content=text, prompt_tokens=prompt_tokens, completion_tokens=completion_tokens, label="ok")


def schema_invalid(content: Any) -> Action:
    """Well-formed JSON that does not match the requested schema."""
    action = ok(content)
    action.label = "schema_invalid"
    return action


def truncated(content: Any, keep: float = 0.5) -> Action:
    """The JSON text of ``content`` cut off part-way, as when ``max_tokens`` runs out."""
    text = content if isinstance(content, str) else json.dumps(content)
    return Action(content=text[: max(1, int(len(text) * keep))], finish_reason="length", label="truncated")


def empty() -> Action:
    """A reply whose content is the empty string."""
    return Action(content="", label="empty")


def rate_limited(retry_after: float | str = 1, echo_auth: bool = False) -> Action:
    return Action(status=429, headers={"Retry-After": str(retry_after)}, error_message="Rate limit reached",
                  echo_auth=echo_auth, label="http_429")


def server_error(status: int = 500, echo_auth: bool = False, retry_after: float | None = None) -> Action:
    headers = {"Retry-After": str(retry_after)} if retry_after is not None else {}
    return Action(status=status, headers=headers, error_message="The server had an error",
                  echo_auth=echo_auth, label=f"http_{status}")


def error(status: int, message: str, echo_auth: bool = False) -> Action:
    return Action(status=status, error_message=message, echo_auth=echo_auth, label=f"http_{status}")


def stall(seconds: float, then: Action | None = None) -> Action:
    """Sleep ``seconds`` before answering with ``then`` (a good reply by default)."""
    action = then or ok({"stalled": True})
    return Action(**{**action.__dict__, "headers": dict(action.headers), "delay": seconds, "label": "stall"})


def raw(body: bytes, content_type: str = "application/json", label: str = "raw") -> Action:
    """Status 200 with ``body`` as it is: an HTML page, JSON that is not a chat completion, ..."""
    return Action(body=body, content_type=content_type, label=label)


def drip(content: Any, seconds_per_byte: float) -> Action:
    """A good reply sent one byte at a time: each read succeeds, the whole never ends in time."""
    action = ok(content)
    action.drip, action.label = seconds_per_byte, "drip"
    return action


def reject_json_schema(then: Action | Responder, schema_in_json_object: bool = False) -> Responder:
    """A server without json_schema mode: 400 about response_format for ``{"type": "json_schema"}``
    (and, with ``schema_in_json_object``, for ``{"type": "json_object", "schema": ...}`` too),
    otherwise ``then``."""
    def respond(request: RecordedRequest) -> Action:
        fmt = request.response_format or {}
        if fmt.get("type") == "json_schema":
            return error(400, "Invalid parameter: 'response_format' of type 'json_schema' is not supported "
                              "with this model.")
        if schema_in_json_object and fmt.get("type") == "json_object" and "schema" in fmt:
            return error(400, "Invalid parameter: 'response_format.schema' is not supported.")
        return then(request) if callable(then) else then
    return respond


class FakeLLMServer:
    """The server; use as a context manager, or ``start()``/``stop()``."""

    def __init__(self, script: Iterable[Action | Responder] = (), default: Action | Responder | None = None,
                 model: str = "fake-model"):
        self.model = model
        self._script: list[Action | Responder] = list(script)
        self._default = default
        self._lock = threading.Lock()
        self.requests: list[RecordedRequest] = []  # every request, in arrival order
        self.served: list[str] = []  # the label of each chat completion's answer
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._server: asyncio.base_events.Server | None = None
        self._tasks: set[asyncio.Task] = set()
        self.port = 0

    # -- scripting and inspection (from the test's thread) ----------------------------

    def script(self, *actions: Action | Responder, default: Action | Responder | None = None) -> None:
        """Replace the remaining script (and the default)."""
        with self._lock:
            self._script = list(actions)
            self._default = default

    def add(self, *actions: Action | Responder) -> None:
        with self._lock:
            self._script.extend(actions)

    def reset(self) -> None:
        """Forget the recorded requests."""
        with self._lock:
            self.requests.clear()
            self.served.clear()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    @property
    def chat_requests(self) -> list[RecordedRequest]:
        with self._lock:
            return [r for r in self.requests if r.path.endswith("/chat/completions")]

    @property
    def count(self) -> int:
        """Number of chat completion requests received."""
        return len(self.chat_requests)

    # -- lifecycle ----------------------------------------------------------------------

    def start(self) -> FakeLLMServer:
        ready = threading.Event()
        failure: list[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            self._loop = loop
            try:
                self._server = loop.run_until_complete(
                    asyncio.start_server(self._connection, "127.0.0.1", 0, reuse_address=True))
                self.port = self._server.sockets[0].getsockname()[1]
            except BaseException as exc:  # noqa: BLE001 - reported to start()
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_forever()
            finally:
                loop.close()

        self._thread = threading.Thread(target=run, name="fake-llm-server", daemon=True)
        self._thread.start()
        if not ready.wait(5):
            raise RuntimeError("fake LLM server did not start")
        if failure:
            raise failure[0]
        return self

    def stop(self) -> None:
        loop, thread = self._loop, self._thread
        if loop is None or thread is None or loop.is_closed():
            return

        async def shutdown() -> None:
            assert self._server is not None
            self._server.close()
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            await self._server.wait_closed()

        asyncio.run_coroutine_threadsafe(shutdown(), loop).result(5)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(5)
        self._thread = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # -- HTTP -----------------------------------------------------------------------------

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None
        self._tasks.add(task)
        try:
            while True:
                request_line = await reader.readline()
                if not request_line.strip():
                    break
                method, target, _ = request_line.decode("latin-1").split(" ", 2)
                headers: dict[str, str] = {}
                while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                    name, _, value = line.decode("latin-1").partition(":")
                    headers[name.strip().lower()] = value.strip()
                if "content-length" in headers:
                    raw = await reader.readexactly(int(headers["content-length"]))
                elif headers.get("transfer-encoding", "").lower() == "chunked":
                    raw = await _read_chunked(reader)
                else:
                    raw = b""
                status, extra, body, action = await self._answer(method, target, headers, raw)
                content_type = action.content_type if action else "application/json"
                head = [f"HTTP/1.1 {status} {_REASONS.get(status, 'Status')}", f"Content-Type: {content_type}",
                        f"Content-Length: {len(body)}"]
                head += [f"{k}: {v}" for k, v in extra.items()]
                if action is not None and action.drip:
                    writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1"))
                    for i in range(len(body)):
                        writer.write(body[i:i + 1])
                        await writer.drain()
                        await asyncio.sleep(action.drip)
                else:
                    writer.write(("\r\n".join(head) + "\r\n\r\n").encode("latin-1") + body)
                await writer.drain()
                if headers.get("connection", "").lower() == "close":
                    break
        except (ConnectionError, asyncio.IncompleteReadError, asyncio.CancelledError, ValueError):
            pass
        finally:
            self._tasks.discard(task)
            writer.close()

    async def _answer(self, method: str, target: str, headers: dict[str, str],
                      raw: bytes) -> tuple[int, dict[str, str], bytes, Action | None]:
        path = target.split("?", 1)[0]
        try:
            body: Any = json.loads(raw) if raw else None
        except ValueError:
            body = raw.decode("utf-8", "replace")
        request = RecordedRequest(method, path, headers, body, time.monotonic())
        with self._lock:
            self.requests.append(request)
        if method == "GET" and path.rstrip("/").endswith("/models"):
            data = {"object": "list", "data": [{"id": self.model, "object": "model", "created": 0,
                                                "owned_by": "fake"}]}
            return 200, {}, json.dumps(data).encode(), None
        if method != "POST" or not path.endswith("/chat/completions"):
            return 404, {}, _error_body(f"no route for {method} {path}", "not_found"), None
        with self._lock:
            item = self._script.pop(0) if self._script else self._default
        if item is None:
            action = error(418, "fake script exhausted: unexpected request")
        else:
            action = item(request) if callable(item) else item
        with self._lock:
            self.served.append(action.label)
        if action.delay:
            await asyncio.sleep(action.delay)
        if action.status != 200:
            message = action.error_message
            if action.echo_auth:
                message += f" (request had Authorization: {headers.get('authorization', '')})"
            return action.status, dict(action.headers), _error_body(message, "server_error"
                                                                    if action.status >= 500 else
                                                                    "invalid_request_error"), action
        if action.body is not None:
            return 200, dict(action.headers), action.body, action
        model = body.get("model", self.model) if isinstance(body, dict) else self.model
        reply = {
            "id": f"chatcmpl-fake-{len(self.requests)}", "object": "chat.completion", "created": int(time.time()),
            "model": model,
            "choices": [{"index": 0, "message": {"role": "assistant", "content": action.content},
                         "finish_reason": action.finish_reason}],
            "usage": {"prompt_tokens": action.prompt_tokens, "completion_tokens": action.completion_tokens,
                      "total_tokens": action.prompt_tokens + action.completion_tokens},
        }
        return 200, dict(action.headers), json.dumps(reply).encode(), action


def _error_body(message: str, kind: str) -> bytes:
    return json.dumps({"error": {"message": message, "type": kind, "param": None, "code": None}}).encode()


async def _read_chunked(reader: asyncio.StreamReader) -> bytes:
    chunks = []
    while True:
        size = int((await reader.readline()).split(b";", 1)[0].strip(), 16)
        if size == 0:
            while (await reader.readline()) not in (b"\r\n", b"\n", b""):
                pass
            return b"".join(chunks)
        chunks.append(await reader.readexactly(size))
        await reader.readline()


@pytest.fixture
def fake_llm():
    """A started ``FakeLLMServer`` with an empty script; set it with ``fake_llm.script(...)``."""
    with FakeLLMServer() as server:
        yield server
