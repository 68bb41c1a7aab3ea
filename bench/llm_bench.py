"""LLM-path benchmark: StructuredLLM against a local OpenAI-compatible server with a fixed delay.

A server in a separate process (so that it does not compete for the client's GIL) answers every
chat completion after DELAY seconds with a valid QRAReply. The client sends CALLS distinct
prompts with ``concurrency=C`` (asyncio.gather over all of them; the client's semaphore bounds
what is in flight) into a fresh response cache, then a new client sends the same CALLS again
(all cache hits, zero requests). The bound is C / DELAY calls/s (32 / 0.2 s = 160/s).

Records medians over REPEATS of achieved calls/s (target >= 90% of the bound), first-run wall,
rerun wall and rerun/first ratio (target < 5%), plus client and server CPU seconds, into
bench/results/llm.json. Two server implementations are measured, interleaved: ``raw`` (a
minimal asyncio HTTP/1.1 keep-alive server) and ``uvicorn`` (uvicorn, --loop asyncio --http h11,
a bare ASGI app); the headline numbers are the faster one's. Also recorded: the 1-minute load
average before each run (the 2-core machine is shared; other load lowers calls/s), client CPU
per call and per cache hit, and ``costs``: sequential per-request client CPU of the openai SDK's
``chat.completions.create`` vs ``client.post(..., cast_to=httpx.Response)``, and of one
``model_json_schema()``. ``--profile`` adds a cProfile of the client's first pass.

Usage: python bench/llm_bench.py [--calls 2000] [--concurrency 32] [--delay 0.2] [--repeats 3]
                                 [--servers raw,uvicorn] [--profile]
       python bench/llm_bench.py serve --impl raw|uvicorn --delay 0.2   (prints the port)
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import io
import json
import os
import platform
import pstats
import resource
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "llm.json"
PROFILE = ROOT / "bench" / "results" / "llm_profile.txt"
MODEL = "bench-model"

REPLY_CONTENT = json.dumps({"question": "What was the revenue of Acme in 2023?",
                            "answer": "Acme earned 12.4 million euros in 2023.",
                            "facts": ["revenue", "name"]})


# --- the server (runs in its own process) --------------------------------------------------


def _reply_body() -> bytes:
    return json.dumps({
        "id": "chatcmpl-bench", "object": "chat.completion", "created": 0, "model": MODEL,
        "choices": [{"index": 0, "message": {"role": "assistant", "content": REPLY_CONTENT},
                     "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 400, "completion_tokens": 40, "total_tokens": 440},
    }).encode()


class _Stats:
    chat = 0


def _stats_body() -> bytes:
    return json.dumps({"chat_requests": _Stats.chat, "cpu_s": time.process_time()}).encode()


async def _serve_raw(sock: socket.socket, delay: float) -> None:
    body = _reply_body()
    reply = (b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"
             b"Connection: keep-alive\r\n\r\n" % len(body)) + body

    async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                head = await reader.readuntil(b"\r\n\r\n")
                length = 0
                lower = head.lower()
                at = lower.find(b"content-length:")
                if at >= 0:
                    length = int(lower[at + 15: lower.index(b"\r\n", at)])
                if length:
                    await reader.readexactly(length)
                if head.startswith(b"POST") and b"/chat/completions" in head[:64]:
                    _Stats.chat += 1
                    await asyncio.sleep(delay)
                    writer.write(reply)
                else:
                    stats = _stats_body()
                    writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n"
                                 % len(stats) + stats)
                await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass  # client gone, or shutting down with the connection open
        finally:
            writer.close()

    server = await asyncio.start_server(connection, sock=sock, backlog=1024)
    async with server:
        await server.serve_forever()


def _serve_uvicorn(sock: socket.socket, delay: float) -> None:
    import uvicorn

    body = _reply_body()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]

    async def app(scope, receive, send):
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                if message["type"] == "lifespan.startup":
                    await send({"type": "lifespan.startup.complete"})
                elif message["type"] == "lifespan.shutdown":
                    await send({"type": "lifespan.shutdown.complete"})
                    return
        more = True
        while more:
            more = (await receive()).get("more_body", False)
        if scope["method"] == "POST" and scope["path"].endswith("/chat/completions"):
            _Stats.chat += 1
            await asyncio.sleep(delay)
            out, out_headers = body, headers
        else:
            out = _stats_body()
            out_headers = [(b"content-type", b"application/json"), (b"content-length", str(len(out)).encode())]
        await send({"type": "http.response.start", "status": 200, "headers": out_headers})
        await send({"type": "http.response.body", "body": out})

    config = uvicorn.Config(app, loop="asyncio", http="h11", log_level="warning", access_log=False,
                            backlog=1024, timeout_keep_alive=60)
    uvicorn.Server(config).run(sockets=[sock])


def serve(impl: str, delay: float) -> None:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    print(sock.getsockname()[1], flush=True)
    if impl == "raw":
        try:
            asyncio.run(_serve_raw(sock, delay))
        except KeyboardInterrupt:
            pass
    else:
        _serve_uvicorn(sock, delay)


class ServerProcess:
    def __init__(self, impl: str, delay: float):
        self.proc = subprocess.Popen([sys.executable, __file__, "serve", "--impl", impl, "--delay", str(delay)],
                                     stdout=subprocess.PIPE, text=True, cwd=ROOT)
        assert self.proc.stdout is not None
        self.port = int(self.proc.stdout.readline())
        self.base_url = f"http://127.0.0.1:{self.port}/v1"

    def stats(self) -> dict:
        import httpx

        for _ in range(50):
            try:
                return httpx.get(f"http://127.0.0.1:{self.port}/stats", timeout=5).json()
            except httpx.TransportError:
                time.sleep(0.1)
        raise RuntimeError("benchmark server did not answer")

    def stop(self) -> None:
        self.proc.send_signal(signal.SIGINT)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


# --- the client ------------------------------------------------------------------------------


def _messages(i: int) -> list[dict[str, str]]:
    document = " ".join(f"Sentence {j} of document {i}: Acme reported revenue of {i + j}.{j} million euros."
                        for j in range(20))
    return [{"role": "system", "content": "You write one question, its answer and the keys of the facts it "
                                          "uses, as JSON matching the schema."},
            {"role": "user", "content": f"Document {i}:\n{document}\n\nWrite one factual question."}]


async def _pass(base_url: str, cache: Path, calls: int, concurrency: int) -> tuple[float, float, int]:
    """Wall seconds, client CPU seconds and number of valid replies for one pass of CALLS prompts."""
    from dragonforge.llm import LLMSettings, StructuredLLM
    from dragonforge.prompts import QRAReply

    settings = LLMSettings(base_url=base_url, model=MODEL, concurrency=concurrency, timeout_s=60)
    llm = StructuredLLM(settings, cache_path=cache / "cache.db", calls_path=cache / "calls.jsonl")
    prompts = [_messages(i) for i in range(calls)]
    cpu0, t0 = time.process_time(), time.perf_counter()
    results = await asyncio.gather(*(llm.complete("qra", p, QRAReply) for p in prompts))
    wall, cpu = time.perf_counter() - t0, time.process_time() - cpu0
    await llm.aclose()
    return wall, cpu, sum(r.ok for r in results)


def run_once(impl: str, args: argparse.Namespace, profile: cProfile.Profile | None = None) -> dict:
    load = os.getloadavg()[0]
    server = ServerProcess(impl, args.delay)
    try:
        with tempfile.TemporaryDirectory() as tmp:
            before = server.stats()
            if profile:
                profile.enable()
            first_wall, first_cpu, first_ok = asyncio.run(_pass(server.base_url, Path(tmp), args.calls,
                                                                args.concurrency))
            if profile:
                profile.disable()
            mid = server.stats()
            re_wall, re_cpu, re_ok = asyncio.run(_pass(server.base_url, Path(tmp), args.calls, args.concurrency))
            after = server.stats()
    finally:
        server.stop()
    return {
        "server": impl,
        "first_wall_s": round(first_wall, 3),
        "calls_per_s": round(args.calls / first_wall, 1),
        "first_client_cpu_s": round(first_cpu, 3),
        "first_server_cpu_s": round(mid["cpu_s"] - before["cpu_s"], 3),
        "first_requests": mid["chat_requests"] - before["chat_requests"],
        "first_valid": first_ok,
        "rerun_wall_s": round(re_wall, 4),
        "rerun_client_cpu_s": round(re_cpu, 3),
        "rerun_requests": after["chat_requests"] - mid["chat_requests"],
        "rerun_valid": re_ok,
        "rerun_ratio": round(re_wall / first_wall, 4),
        "loadavg_1min_before": round(load, 2),
    }


async def _costs(base_url: str, n: int = 300) -> dict:
    """Client CPU per request, sequential against a zero-delay server: the openai SDK's
    ``chat.completions.create`` (what llm.py calls) against ``client.post(..., cast_to=httpx.Response)``
    (the same SDK request, retries and exceptions, without its parameter transform and response
    model), and one ``model_json_schema()`` of the reply model (llm.py calls it twice per
    ``complete()``, cache hits included)."""
    import httpx
    import openai

    from dragonforge.prompts import QRAReply

    schema = QRAReply.model_json_schema()
    rf = {"type": "json_schema", "json_schema": {"name": "QRAReply", "schema": schema, "strict": False}}
    http = httpx.AsyncClient(timeout=60)
    client = openai.AsyncOpenAI(base_url=base_url, api_key="bench", max_retries=0, http_client=http)

    def request(i: int) -> dict:
        return {"model": MODEL, "messages": _messages(i), "temperature": 0.0, "max_tokens": 1024, "seed": 0,
                "response_format": rf}

    async def create(i: int) -> str:
        return (await client.chat.completions.create(**request(i))).choices[0].message.content

    async def post(i: int) -> str:
        reply = await client.post("/chat/completions", body=request(i), cast_to=httpx.Response)
        return json.loads(reply.content)["choices"][0]["message"]["content"]

    out = {}
    for name, fn in (("sdk_create_us", create), ("sdk_post_raw_us", post)):
        await fn(0)
        cpu0 = time.process_time()
        for i in range(n):
            await fn(i)
        out[name] = round((time.process_time() - cpu0) / n * 1e6)
    await http.aclose()
    cpu0 = time.process_time()
    for _ in range(n):
        QRAReply.model_json_schema()
    out["model_json_schema_us"] = round((time.process_time() - cpu0) / n * 1e6)
    return out


def costs() -> dict:
    server = ServerProcess("raw", 0.0)
    try:
        return asyncio.run(_costs(server.base_url))
    finally:
        server.stop()


def _summary(runs: list[dict], bound: float) -> dict:
    med = {k: statistics.median(r[k] for r in runs)
           for k in ("calls_per_s", "first_wall_s", "rerun_wall_s", "rerun_ratio", "first_client_cpu_s",
                     "first_server_cpu_s", "rerun_client_cpu_s")}
    return {
        "median_calls_per_s": round(med["calls_per_s"], 1),
        "share_of_bound": round(med["calls_per_s"] / bound, 3),
        "median_first_wall_s": round(med["first_wall_s"], 3),
        "median_rerun_wall_s": round(med["rerun_wall_s"], 4),
        "median_rerun_ratio": round(med["rerun_ratio"], 4),
        "median_first_client_cpu_s": round(med["first_client_cpu_s"], 3),
        "median_first_server_cpu_s": round(med["first_server_cpu_s"], 3),
        "median_rerun_client_cpu_s": round(med["rerun_client_cpu_s"], 3),
        "all_valid": all(r["first_valid"] == r["first_requests"] == r["rerun_valid"] for r in runs),
        "rerun_requests": sum(r["rerun_requests"] for r in runs),
    }


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "serve":
        parser = argparse.ArgumentParser()
        parser.add_argument("serve")
        parser.add_argument("--impl", choices=("raw", "uvicorn"), default="raw")
        parser.add_argument("--delay", type=float, default=0.2)
        args = parser.parse_args()
        serve(args.impl, args.delay)
        return
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--delay", type=float, default=0.2)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--servers", default="raw,uvicorn")
    parser.add_argument("--profile", action="store_true", help=f"cProfile the client's first pass into {PROFILE}")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    impls = args.servers.split(",")
    bound = args.concurrency / args.delay
    runs: dict[str, list[dict]] = {impl: [] for impl in impls}
    for r in range(args.repeats):
        for impl in impls:
            run = run_once(impl, args)
            runs[impl].append(run)
            print(f"repeat {r} {impl}: {run['calls_per_s']} calls/s, first {run['first_wall_s']}s, "
                  f"rerun {run['rerun_wall_s']}s (ratio {run['rerun_ratio']}), client cpu {run['first_client_cpu_s']}s,"
                  f" server cpu {run['first_server_cpu_s']}s", file=sys.stderr)
    summaries = {impl: _summary(runs[impl], bound) for impl in impls}
    best = max(impls, key=lambda impl: summaries[impl]["median_calls_per_s"])
    head = summaries[best]
    result = {
        "benchmark": f"llm: {args.calls} distinct complete() calls, concurrency {args.concurrency}, server delay "
                     f"{args.delay * 1000:g} ms, then the same calls again from the cache",
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "repeats": args.repeats,
        "calls": args.calls,
        "concurrency": args.concurrency,
        "delay_s": args.delay,
        "bound_calls_per_s": bound,
        "server": best,
        **head,
        "target_calls_per_s": round(0.9 * bound, 1),
        "target_rerun_ratio": 0.05,
        "meets_throughput_target": head["median_calls_per_s"] >= 0.9 * bound,
        "meets_rerun_target": head["median_rerun_ratio"] < 0.05,
        "loadavg_1min_before_runs": [r["loadavg_1min_before"] for impl in impls for r in runs[impl]],
        "client_cpu_per_call_ms": round(head["median_first_client_cpu_s"] / args.calls * 1000, 2),
        "client_cpu_per_cache_hit_us": round(head["median_rerun_client_cpu_s"] / args.calls * 1e6),
        "costs": costs(),
        "servers": summaries,
        "runs": runs,
    }
    if args.profile:
        profile = cProfile.Profile()
        run_once(best, args, profile)
        out = io.StringIO()
        stats = pstats.Stats(profile, stream=out).strip_dirs().sort_stats("cumulative")
        stats.print_stats(45)
        stats.sort_stats("tottime").print_stats(30)
        PROFILE.write_text(out.getvalue())
        result["profile"] = str(PROFILE.relative_to(ROOT))
    result["peak_rss_mib"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps({k: v for k, v in result.items() if k != "runs"}, indent=2))


if __name__ == "__main__":
    main()
