"""StructuredLLM against a real, misbehaving OpenAI-compatible server on loopback.

Each failure mode ends as documented in dragonforge/llm.py: a validated value, a ``Failure``
with the raw reply and the reason, ``BudgetExceeded`` or ``LLMUnavailable``; never an invalid
value, never a lost reply that was already received, never the API key in an artefact.
"""

from __future__ import annotations

import asyncio
import json
import time
import traceback
from pathlib import Path

import httpx
import pytest
from pydantic import BaseModel, ValidationError

import dragonforge.llm as llm_mod
from dragonforge.llm import BudgetExceeded, LLMSettings, LLMUnavailable, StructuredLLM
from llm_fakes import (FakeLLMServer, empty, error, fake_llm, ok, rate_limited, reject_json_schema,  # noqa: F401
                       schema_invalid, server_error, stall, truncated)

SECRET = "sk-test-SECRET1234567890abcdef"


class Person(BaseModel):
    name: str
    age: int


class PersonWithEmail(BaseModel):
    name: str
    age: int
    email: str = ""


GOOD = {"name": "Ada", "age": 36}


def settings(server: FakeLLMServer, **overrides) -> LLMSettings:
    values = {"base_url": server.base_url, "model": server.model, "timeout_s": 5.0, "max_retries": 3}
    return LLMSettings(**{**values, **overrides})


def prompt(text: str = "Who?") -> list[dict[str, str]]:
    return [{"role": "system", "content": "Reply in JSON."}, {"role": "user", "content": text}]


def calls_log(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def validation_message(raw: str, schema: type[BaseModel] = Person) -> str:
    """What pydantic itself says about ``raw``: the repair turn must carry this text."""
    with pytest.raises(ValidationError) as info:
        schema.model_validate_json(raw)
    return info.value.errors()[0]["msg"]


@pytest.fixture
def sleeps(monkeypatch):
    """Record the client's backoff sleeps and skip them; fix the jitter factor at 1.0."""
    recorded: list[float] = []
    real_sleep = asyncio.sleep

    class FastAsyncio:
        def __getattr__(self, name):
            return getattr(asyncio, name)

        @staticmethod
        async def sleep(seconds, result=None):
            recorded.append(seconds)
            await real_sleep(0)
            return result

    monkeypatch.setattr(llm_mod, "asyncio", FastAsyncio())
    monkeypatch.setattr(llm_mod.random, "random", lambda: 0.5)
    return recorded


async def _complete(llm: StructuredLLM, text: str = "Who?", schema: type[BaseModel] = Person, stage: str = "qra"):
    return await llm.complete(stage, prompt(text), schema)


# --- the fake itself -----------------------------------------------------------------------


def test_fake_server_starts_fast_serves_models_and_stops():
    t0 = time.perf_counter()
    with FakeLLMServer(model="m1") as server:
        assert time.perf_counter() - t0 < 1.0
        reply = httpx.get(f"{server.base_url}/models")
        assert reply.status_code == 200 and reply.json()["data"][0]["id"] == "m1"
        assert server.requests[0].method == "GET" and server.count == 0
        port = server.port
    with pytest.raises(httpx.ConnectError):
        httpx.get(f"http://127.0.0.1:{port}/v1/models", timeout=1)


# --- retries -------------------------------------------------------------------------------


def test_429_with_retry_after_waits_then_succeeds(fake_llm, tmp_path):
    fake_llm.script(rate_limited(retry_after=1), ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm), cache_path=tmp_path / "cache.db", calls_path=tmp_path / "calls.jsonl")
        t0 = time.perf_counter()
        result = await _complete(llm)
        elapsed = time.perf_counter() - t0
        await llm.aclose()
        return result, elapsed, llm.usage_report()

    result, elapsed, usage = asyncio.run(main())
    assert result.value == Person(**GOOD) and result.failure is None
    assert elapsed >= 0.95
    first, second = fake_llm.chat_requests
    assert second.received_at - first.received_at >= 0.95
    assert [(r["outcome"], r["attempt"]) for r in calls_log(tmp_path / "calls.jsonl")] == [("http_429", 0), ("ok", 1)]
    assert usage["qra"]["fake-model"]["retries"] == 1 and usage["qra"]["fake-model"]["calls"] == 2


def test_5xx_then_success_is_retried_with_exponential_backoff(fake_llm, tmp_path, sleeps):
    fake_llm.script(server_error(500), server_error(503), server_error(502), ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm, max_retries=3), calls_path=tmp_path / "calls.jsonl")
        result = await _complete(llm)
        await llm.aclose()
        return result, llm.usage_report()

    result, usage = asyncio.run(main())
    assert result.value == Person(**GOOD)
    assert fake_llm.count == 4
    assert sleeps == [0.5, 1.0, 2.0]  # 0.5 * 2**attempt, jitter factor fixed at 1.0
    stats = usage["qra"]["fake-model"]
    assert stats["retries"] == 3 and stats["calls"] == 4 and stats["failures"] == 0
    assert [r["outcome"] for r in calls_log(tmp_path / "calls.jsonl")] == ["http_500", "http_503", "http_502", "ok"]


def test_retry_after_on_503_is_honoured_instead_of_backoff(fake_llm, sleeps):
    fake_llm.script(server_error(503, retry_after=7), ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm))
        result = await _complete(llm)
        await llm.aclose()
        return result

    assert asyncio.run(main()).value == Person(**GOOD)
    assert sleeps == [7.0]


def test_always_500_ends_unavailable_and_keeps_finished_work(fake_llm, tmp_path, sleeps):
    fake_llm.script(ok(GOOD), default=server_error(500))
    cache = tmp_path / "cache.db"

    async def main():
        llm = StructuredLLM(settings(fake_llm, max_retries=2), cache_path=cache)
        done = await _complete(llm, "first")
        try:
            with pytest.raises(LLMUnavailable) as info:
                await _complete(llm, "second")
        finally:
            await llm.aclose()
        return done, info.value, llm.usage_report()

    done, exc, usage = asyncio.run(main())
    assert done.value == Person(**GOOD)
    assert fake_llm.count == 1 + 3  # one good, then the first try and max_retries=2 retries
    assert "3 times" in str(exc) and "http_500" in str(exc)
    assert "finished work is cached" in str(exc)
    assert usage["qra"]["fake-model"]["retries"] == 2
    assert sleeps == [0.5, 1.0]

    fake_llm.reset()

    async def rerun():
        llm = StructuredLLM(settings(fake_llm, max_retries=0), cache_path=cache)
        result = await _complete(llm, "first")
        await llm.aclose()
        return result

    assert asyncio.run(rerun()).value == Person(**GOOD)
    assert fake_llm.count == 0


def test_timeout_is_retried(fake_llm, tmp_path, sleeps):
    fake_llm.script(stall(3.0, then=ok({"name": "Late", "age": 1})), ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm, timeout_s=0.3), calls_path=tmp_path / "calls.jsonl")
        t0 = time.perf_counter()
        result = await _complete(llm)
        elapsed = time.perf_counter() - t0
        await llm.aclose()
        return result, elapsed

    result, elapsed = asyncio.run(main())
    assert result.value == Person(**GOOD)
    assert 0.25 < elapsed < 2.0
    assert fake_llm.count == 2
    assert [r["outcome"] for r in calls_log(tmp_path / "calls.jsonl")] == ["timeout", "ok"]


def test_always_stalling_server_ends_unavailable(fake_llm, sleeps):
    fake_llm.script(default=stall(10.0))

    async def main():
        llm = StructuredLLM(settings(fake_llm, timeout_s=0.2, max_retries=2))
        try:
            with pytest.raises(LLMUnavailable) as info:
                await _complete(llm)
        finally:
            await llm.aclose()
        return info.value

    t0 = time.perf_counter()
    exc = asyncio.run(main())
    assert time.perf_counter() - t0 < 3.0
    assert fake_llm.count == 3
    assert "timeout" in str(exc) and "finished work is cached" in str(exc)


# --- invalid replies and repair turns ------------------------------------------------------

BAD_REPLIES = {
    "truncated": truncated(GOOD),
    "schema_invalid": schema_invalid({"name": "Ada", "age": "thirty-six"}),
    "empty": empty(),
}


@pytest.mark.parametrize("kind", list(BAD_REPLIES))
def test_invalid_reply_gets_a_repair_turn_with_the_error(fake_llm, kind):
    bad = BAD_REPLIES[kind]
    fake_llm.script(bad, ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm, max_repairs=2))
        result = await _complete(llm)
        await llm.aclose()
        return result, llm.usage_report()

    result, usage = asyncio.run(main())
    assert result.value == Person(**GOOD) and result.failure is None
    first, repair = fake_llm.chat_requests
    assert repair.messages[: len(first.messages)] == first.messages
    assistant, user = repair.messages[len(first.messages):]
    assert assistant == {"role": "assistant", "content": bad.content}
    assert user["role"] == "user"
    assert validation_message(bad.content) in user["content"]
    assert usage["qra"]["fake-model"]["repairs"] == 1 and usage["qra"]["fake-model"]["failures"] == 0


@pytest.mark.parametrize("kind", list(BAD_REPLIES))
def test_always_invalid_returns_failure_with_last_raw_reply(fake_llm, kind):
    bad = BAD_REPLIES[kind]
    fake_llm.script(default=bad)

    async def main():
        llm = StructuredLLM(settings(fake_llm, max_repairs=2))
        result = await _complete(llm)
        await llm.aclose()
        return result, llm.usage_report()

    result, usage = asyncio.run(main())
    assert result.value is None and not result.ok
    assert result.failure.raw == bad.content
    assert "invalid output after 3 attempt(s)" in result.failure.reason
    assert validation_message(bad.content) in result.failure.reason
    assert fake_llm.count == 3
    assert usage["qra"]["fake-model"]["failures"] == 1 and usage["qra"]["fake-model"]["repairs"] == 2


def test_failure_carries_the_last_of_different_invalid_replies(fake_llm):
    last = '{"name": "Ada", "age": "three"}'
    fake_llm.script(empty(), truncated(GOOD), schema_invalid(last))

    async def main():
        llm = StructuredLLM(settings(fake_llm, max_repairs=2))
        result = await _complete(llm)
        await llm.aclose()
        return result

    result = asyncio.run(main())
    assert result.value is None
    assert result.failure.raw == last
    assert "age" in result.failure.reason and validation_message(last) in result.failure.reason
    # each repair turn carried the error of the reply before it
    requests = fake_llm.chat_requests
    assert validation_message("") in requests[1].messages[-1]["content"]
    assert validation_message(json.dumps(GOOD)[: len(json.dumps(GOOD)) // 2]) in requests[2].messages[-1]["content"]


def test_fenced_json_is_accepted(fake_llm):
    fake_llm.script(ok("```json\n" + json.dumps(GOOD) + "\n```"))

    async def main():
        llm = StructuredLLM(settings(fake_llm))
        result = await _complete(llm)
        await llm.aclose()
        return result

    assert asyncio.run(main()).value == Person(**GOOD)
    assert fake_llm.count == 1


# --- budgets -------------------------------------------------------------------------------


def _budget_run(server: FakeLLMServer, cache: Path, **overrides):
    async def main():
        llm = StructuredLLM(settings(server, **overrides), cache_path=cache)
        done = []
        try:
            with pytest.raises(BudgetExceeded) as info:
                for i in range(10):
                    done.append(await _complete(llm, f"prompt {i}"))
        finally:
            await llm.aclose()
        return done, info.value, llm

    return asyncio.run(main())


def _replay(server: FakeLLMServer, cache: Path, n: int) -> list:
    server.reset()

    async def main():
        llm = StructuredLLM(settings(server, max_calls=0), cache_path=cache)
        results = [await _complete(llm, f"prompt {i}") for i in range(n)]
        await llm.aclose()
        return results, llm.usage_report()

    results, usage = asyncio.run(main())
    assert server.count == 0
    assert usage["qra"]["fake-model"]["cache_hits"] == n and usage["qra"]["fake-model"]["calls"] == 0
    return results


def test_max_calls_stops_at_the_fourth_call_and_keeps_the_first_three(fake_llm, tmp_path):
    fake_llm.script(default=ok(GOOD))
    done, exc, llm = _budget_run(fake_llm, tmp_path / "cache.db", max_calls=3)
    assert len(done) == 3 and all(r.value == Person(**GOOD) for r in done)
    assert fake_llm.count == 3
    assert "--max-calls 3" in str(exc)
    assert all(r.value == Person(**GOOD) for r in _replay(fake_llm, tmp_path / "cache.db", 3))


def test_max_cost_stops_when_spent_and_keeps_finished_work(fake_llm, tmp_path):
    # 10 prompt tokens at 1000/Mtok + 5 completion tokens at 2000/Mtok = 0.02 per call
    fake_llm.script(default=ok(GOOD, prompt_tokens=10, completion_tokens=5))
    done, exc, llm = _budget_run(fake_llm, tmp_path / "cache.db", max_cost=0.05, price_input_per_mtok=1000.0,
                                 price_output_per_mtok=2000.0)
    assert len(done) == 3 and fake_llm.count == 3  # spent 0.04 < 0.05 before the 3rd, 0.06 before the 4th
    assert llm.usage_report()["qra"]["fake-model"]["cost"] == pytest.approx(0.06)
    assert "--max-cost 0.05" in str(exc)
    assert all(r.value == Person(**GOOD) for r in _replay(fake_llm, tmp_path / "cache.db", 3))


# --- cache ---------------------------------------------------------------------------------


def test_cache_keys_on_request_and_schema(fake_llm, tmp_path):
    fake_llm.script(default=ok(GOOD))
    cache = tmp_path / "cache.db"

    async def run(schema=Person, **overrides):
        llm = StructuredLLM(settings(fake_llm, **overrides), cache_path=cache)
        result = await _complete(llm, schema=schema)
        await llm.aclose()
        assert result.value is not None
        return result

    async def twice():
        llm = StructuredLLM(settings(fake_llm), cache_path=cache)
        a = await _complete(llm)
        b = await _complete(llm)
        await llm.aclose()
        return a, b, llm.usage_report()

    a, b, usage = asyncio.run(twice())
    assert a.value == b.value == Person(**GOOD)
    assert fake_llm.count == 1 and usage["qra"]["fake-model"]["cache_hits"] == 1

    asyncio.run(run())  # a new client on the same cache: still a hit
    assert fake_llm.count == 1
    asyncio.run(run(temperature=0.7))
    assert fake_llm.count == 2
    assert fake_llm.chat_requests[-1].body["temperature"] == 0.7
    asyncio.run(run(temperature=0.7))
    assert fake_llm.count == 2
    asyncio.run(run(schema=PersonWithEmail))
    assert fake_llm.count == 3
    asyncio.run(run(use_cache=False))
    asyncio.run(run(use_cache=False))
    assert fake_llm.count == 5


def test_use_cache_false_always_calls(fake_llm, tmp_path):
    fake_llm.script(default=ok(GOOD))

    async def main():
        llm = StructuredLLM(settings(fake_llm, use_cache=False), cache_path=tmp_path / "cache.db")
        results = [await _complete(llm) for _ in range(3)]
        await llm.aclose()
        return results

    assert all(r.value == Person(**GOOD) for r in asyncio.run(main()))
    assert fake_llm.count == 3


# --- the API key ---------------------------------------------------------------------------


def test_api_key_never_leaks_even_when_echoed_by_the_server(fake_llm, tmp_path, monkeypatch, sleeps):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    cache, log = tmp_path / "cache" / "cache.db", tmp_path / "calls.jsonl"
    texts: list[str] = []  # every exception message and failure reason the user could see

    async def outcome(text, script, **overrides):
        """Run one prompt; the exception or the completion."""
        fake_llm.script(*script)
        llm = StructuredLLM(settings(fake_llm, **overrides), cache_path=cache, calls_path=log)
        try:
            result = await _complete(llm, text)
        except Exception as exc:  # noqa: BLE001 - inspected below
            texts.extend([str(exc), repr(exc), "".join(traceback.format_exception(exc))])
            result = exc
        finally:
            await llm.aclose()
        if isinstance(result, llm_mod.Completion) and result.failure:
            texts.extend([result.failure.reason, result.failure.raw])
        reports.append(llm.usage_report())
        return result

    reports: list[dict] = []

    async def main():
        good = await outcome("good", [server_error(500, echo_auth=True), rate_limited(0, echo_auth=True), ok(GOOD)])
        assert good.value == Person(**GOOD)
        for code in (401, 403, 404):
            assert isinstance(await outcome(f"rejected {code}", [error(code, "Incorrect API key", echo_auth=True)]),
                              LLMUnavailable)
        rejected = await outcome("rejected 400", [error(400, "Bad request", echo_auth=True)])
        # a 400 ends as documented: an exception, or a failure with no value
        assert isinstance(rejected, LLMUnavailable) or (rejected.value is None and rejected.failure is not None)
        assert isinstance(await outcome("always 500", [server_error(500, echo_auth=True)], max_retries=0),
                          LLMUnavailable)
        assert isinstance(await outcome("budget", [], max_calls=0), BudgetExceeded)

    asyncio.run(main())
    # the server really saw the key, and really echoed it back in five error bodies
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in fake_llm.chat_requests)
    assert fake_llm.served.count("http_401") == 1 and fake_llm.served.count("http_400") == 1
    log_text = log.read_text()
    assert "http_401" in log_text and "***" in log_text  # the echoed key reached the log, redacted
    artefacts = {"calls log": log.read_bytes(), "usage": json.dumps(reports).encode(),
                 "exceptions and failures": "\n".join(texts).encode()}
    for path in cache.parent.iterdir():  # cache.db and any -wal/-shm files
        artefacts[path.name] = path.read_bytes()
    assert "cache.db" in artefacts
    for name, data in artefacts.items():
        assert SECRET.encode() not in data, f"API key in {name}"
        assert b"SECRET1234567890" not in data, f"part of the API key in {name}"


@pytest.mark.parametrize("code", [400, 401])
def test_api_key_cut_by_error_truncation_is_still_redacted(fake_llm, tmp_path, monkeypatch, code):
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    echo = " (request had Authorization: Bearer "  # what the fake writes before the header value
    texts = []
    for keep in (4, 8, 15, 25):  # characters of the key before a 300-character cut
        fake_llm.script(error(code, "x" * (300 - keep - len(echo)), echo_auth=True))

        async def main():
            llm = StructuredLLM(settings(fake_llm), calls_path=tmp_path / "calls.jsonl")
            try:
                result = await _complete(llm)
                texts.extend([result.failure.reason, result.failure.raw])
            except Exception as exc:  # noqa: BLE001 - inspected below
                texts.append(str(exc))
            finally:
                await llm.aclose()

        asyncio.run(main())
    texts.append((tmp_path / "calls.jsonl").read_text())
    for text in texts:
        assert "sk-test-S" not in text  # no fragment of the key past its public "sk-test-" prefix


# --- structured-output fallback ------------------------------------------------------------


def test_server_without_json_schema_falls_back_to_json_mode(fake_llm):
    fake_llm.script(default=reject_json_schema(ok(GOOD)))

    async def main():
        # max_calls=2 for two prompts: the rejected json_schema attempt must not use up the budget
        llm = StructuredLLM(settings(fake_llm, structured="auto", max_calls=2))
        first = await _complete(llm, "one")
        second = await _complete(llm, "two")
        await llm.aclose()
        return first, second

    first, second = asyncio.run(main())
    assert first.value == second.value == Person(**GOOD)
    formats = [r.response_format["type"] for r in fake_llm.chat_requests]
    assert formats == ["json_schema", "json_object", "json_object"]  # the fallback sticks for later prompts
    assert fake_llm.chat_requests[0].response_format["json_schema"]["schema"] == Person.model_json_schema()
    # JSON mode; a server-side schema beside the type is allowed (llama.cpp and vLLM enforce it)
    assert set(fake_llm.chat_requests[1].response_format) <= {"type", "schema"}


def test_fallback_steps_down_to_plain_json_mode(fake_llm):
    fake_llm.script(default=reject_json_schema(ok(GOOD), schema_in_json_object=True))

    async def main():
        llm = StructuredLLM(settings(fake_llm, structured="auto"))
        result = await _complete(llm)
        await llm.aclose()
        return result

    assert asyncio.run(main()).value == Person(**GOOD)
    assert fake_llm.chat_requests[0].response_format["type"] == "json_schema"
    assert fake_llm.chat_requests[-1].response_format == {"type": "json_object"}
    assert fake_llm.served[-1] == "ok" and fake_llm.count <= 3


def test_json_schema_mode_does_not_fall_back(fake_llm):
    fake_llm.script(default=reject_json_schema(ok(GOOD)))

    async def main():
        llm = StructuredLLM(settings(fake_llm, structured="json_schema"))
        try:
            return await _complete(llm)
        except LLMUnavailable as exc:
            return exc
        finally:
            await llm.aclose()

    result = asyncio.run(main())
    # documented end: an exception, or a failure with no value; either way it says why
    text = str(result) if isinstance(result, Exception) else result.failure.reason
    assert isinstance(result, Exception) or result.value is None
    assert "response_format" in text
    assert fake_llm.count == 1
