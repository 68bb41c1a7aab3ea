"""The `dragonforge` command line.

Commands run in this process by default; ``--prefect`` (or a configured ``PREFECT_API_URL``)
runs them as Prefect flows. Either way, arguments, inputs and endpoints are checked, and the
output directory guarded, before any work starts, so a bad command fails in a fraction of a
second and leaves everything as it was.
"""

from __future__ import annotations

import argparse
import json
import re
import signal
import sys
import time
from pathlib import Path
from typing import NoReturn

from dragonforge import __version__
from dragonforge.errors import DragonforgeError, InputError
from dragonforge.models import DEFAULT_QUESTION_MIX, DOMAINS, LANGUAGES, BuildParams, QueryType

EXIT_USAGE = 2
EXIT_TOO_MANY_FAILURES = 3  # evaluate: scores written, but more queries failed than --allow-failures permits
EXIT_INTERRUPTED = 130
# evaluate: the share of queries that may fail (a system error, a timeout, a missing prediction)
# before the command exits EXIT_TOO_MANY_FAILURES; an outage must not read as a result.
DEFAULT_ALLOWED_FAILURES = 0.05
DEFAULT_OUT = "output/benchmark"


class _Parser(argparse.ArgumentParser):
    """argparse whose errors are one line: `dragonforge build: error: ...`."""

    def error(self, message: str) -> NoReturn:
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def _csv(kind: str, allowed: tuple[str, ...] | None):
    """A comma-separated list; ``allowed`` None: checked later (domains, once packs are loaded)."""
    def parse(text: str) -> list[str]:
        items = [x.strip() for x in text.split(",") if x.strip()]
        if not items:
            raise argparse.ArgumentTypeError(f"no {kind} given")
        for item in items:
            if allowed is not None and item not in allowed:
                raise argparse.ArgumentTypeError(f"unknown {kind} {item!r}; choose from {', '.join(allowed)}")
        return list(dict.fromkeys(items))
    return parse


def _whole(name: str, minimum: int = 1, maximum: int | None = 100_000):
    """A whole-number argument within [minimum, maximum], with a one-line error naming it."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a whole number, not {text!r}") from None
        if value < minimum or (maximum is not None and value > maximum):
            bound = f"between {minimum} and {maximum:,}" if maximum is not None else f"at least {minimum}"
            raise argparse.ArgumentTypeError(f"{name} must be {bound}, not {value}")
        return value
    return parse


def _positive(name: str, maximum: int = 100_000):
    return _whole(name, 1, maximum)


def _non_negative(name: str):
    return _whole(name, 0, None)


def _share(name: str):
    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be a number from 0 to 1, not {text!r}") from None
        if not 0.0 <= value <= 1.0:  # also refuses nan
            raise argparse.ArgumentTypeError(f"{name} must be from 0 to 1, not {text}")
        return value
    return parse


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"seed must be a whole number, not {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"seed must not be negative, not {value}")
    return value


def parse_question_mix(text: str) -> dict[str, float]:
    """`factual=0.3,summary=0.2,...`: types left out get no questions; weights are normalised."""
    names = [qt.short for qt in QueryType]
    mix = {name: 0.0 for name in names}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, weight = part.partition("=")
        name = name.strip()
        if not sep:
            raise argparse.ArgumentTypeError(f"question mix entry {part!r} is not TYPE=WEIGHT")
        if name not in mix:
            raise argparse.ArgumentTypeError(f"unknown question type {name!r}; choose from {', '.join(names)}")
        try:
            value = float(weight)
        except ValueError:
            raise argparse.ArgumentTypeError(f"weight of {name} must be a number, not {weight.strip()!r}") from None
        if value < 0 or value != value:
            raise argparse.ArgumentTypeError(f"weight of {name} must not be negative")
        mix[name] = value
    total = sum(mix.values())
    if total <= 0:
        raise argparse.ArgumentTypeError("question mix gives every type weight 0")
    return {k: round(v / total, 6) for k, v in mix.items()}


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="dragonforge", description=(
        "Build private, bilingual (Chinese/English) RAG benchmarks in the DRAGONBall format from a "
        "domain's schema, the way RAGEval does, and check them. Runs offline by default."))
    parser.add_argument("--version", action="version", version=f"dragonforge {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    build = sub.add_parser("build", help="build a benchmark (documents, questions, answers, references, keypoints)",
                           description="Build a DRAGONBall-format benchmark into --out. Re-running the same "
                                       "command into the same directory finishes an interrupted build, reusing "
                                       "finished work.")
    build.add_argument("--out", type=Path, default=Path(DEFAULT_OUT),
                       help=f"output directory; must be empty, new, or hold this same build (default: {DEFAULT_OUT})")
    build.add_argument("--domains", type=_csv("domain", None), default=None,
                       help="comma-separated domains: the curated finance, law, medical, and any installed "
                            "pack (default: finance,law,medical)")
    build.add_argument("--genre", type=Path, action="append", default=[], metavar="DIR",
                       help="a genre pack folder (genre.yaml, en.yaml, zh.yaml); repeatable. Its documents are "
                            "built alongside --domains, or alone when --domains is not given")
    build.add_argument("--languages", type=_csv("language", LANGUAGES), default=list(LANGUAGES),
                       help="comma-separated languages (default: en,zh)")
    build.add_argument("--docs", type=_positive("--docs"), default=8,
                       help="documents per domain and language (default: 8)")
    build.add_argument("--queries-per-doc", type=_positive("--queries-per-doc", 200), default=10,
                       help="questions per document, spread over the question types (default: 10)")
    build.add_argument("--seed", type=_seed, default=0, help="build seed; the same seed gives identical files (default: 0)")
    default_mix = ",".join(f"{k}={v:g}" for k, v in DEFAULT_QUESTION_MIX.items())
    build.add_argument("--question-mix", type=parse_question_mix, default=dict(DEFAULT_QUESTION_MIX),
                       metavar="TYPE=WEIGHT,...",
                       help=f"share of each question type; types left out get none (default, DRAGONBall's: {default_mix})")
    build.add_argument("--engine", choices=["offline", "hybrid", "llm"], default="offline",
                       help="offline: rules and templates, no LLM (default); hybrid: rule configs and questions, "
                            "LLM-written prose and refined answers; llm: every stage through the LLM")
    _add_llm_arguments(build)
    build.add_argument("--batch-size", type=_positive("--batch-size", 10_000), default=50,
                       help="documents per stage result (and Prefect task) (default: 50)")
    build.add_argument("--workers", type=_whole("--workers", 0, 64), metavar="N",
                       help="processes for the offline stages (default: one per core for large builds, none for "
                            "small ones; 0: none)")
    build.add_argument("--corpus", type=Path, metavar="DIR",
                       help="build over your own documents in DIR (UTF-8 text, Markdown, HTML) instead of generated "
                            "ones: their facts are extracted with the one --genre pack given; every document keeps "
                            "its file name, and extraction.md lists what each gave (or why it gave nothing)")
    _add_prefect_argument(build)
    build.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    build.add_argument("-v", "--verbose", action="store_true", help="show Prefect's own logs (with --prefect)")
    build.set_defaults(handler=_cmd_build)

    induce = sub.add_parser(
        "induce", help="induce a genre pack from seed documents (offline; --engine llm: grounded in the seeds)",
        description="Read 3 to 8 seed documents of one genre and write a genre pack you can review: slots with "
                    "their label aliases, kinds and value generators, groups, constraints that hold in every seed, "
                    "the entity, and induction-report.md. Seeds teach form, never facts: the pack holds keyed hashes "
                    "of the seeds' distinctive values and prose (leak.json), and every build of it is linted "
                    "against them.")
    induce.add_argument("seeds", nargs="+", type=Path, metavar="SEED_FILE",
                        help="seed documents (UTF-8 text, Markdown or HTML)")
    induce.add_argument("--genre", required=True, metavar="NAME",
                        help="the genre's name (lower-case letters, digits and _), e.g. insurance_claim")
    induce.add_argument("--language", required=True, choices=LANGUAGES, help="language of the seed documents")
    induce.add_argument("--out", type=Path, required=True, metavar="PACK_DIR", help="folder to write the pack into")
    induce.add_argument("--force", action="store_true", help="replace the pack files in a folder that holds some")
    induce.add_argument("--engine", choices=["offline", "llm"], default="offline",
                        help="offline: from the seeds' structure (default); llm: the model proposes a pack from the "
                             "seeds and the offline draft, and only what is grounded in the seeds is kept")
    _add_llm_arguments(induce)
    induce.set_defaults(handler=_cmd_induce)

    summarize = sub.add_parser("summarize", help="retired: use `dragonforge induce`",
                               description="Retired: `dragonforge induce` writes a reviewable genre pack instead.")
    summarize.add_argument("rest", nargs=argparse.REMAINDER)
    summarize.set_defaults(handler=_cmd_summarize)

    evaluate = sub.add_parser(
        "evaluate", help="score a RAG system (or a predictions file) on a benchmark",
        description="Score a RAG system on a benchmark with every metric of the method: retrieval (recall, EIR, "
                    "precision, Recall@K, MRR, nDCG@K, context precision/recall), keypoints (completeness, "
                    "hallucination, irrelevance), ROUGE-L, refusal accuracy, latency, and a failure label per "
                    "missed query. Writes scores.json, per_query.jsonl/.parquet and predictions.jsonl to --out. "
                    "Re-running the same command resumes: answers already received are kept.")
    evaluate.add_argument("bench", nargs="?", type=Path, metavar="BENCH_DIR", help="benchmark directory")
    evaluate.add_argument("--benchmark", type=Path, dest="benchmark_opt", metavar="BENCH_DIR",
                          help="benchmark directory (same as the positional; with --predictions, optional)")
    source = evaluate.add_mutually_exclusive_group(required=True)
    source.add_argument("--system", help="bm25 or dense (the built-in baseline with a BM25 or an embeddings "
                                         "retriever), an http(s):// endpoint taking {query, language} and returning "
                                         "{answer, contexts}, or python:module:function")
    source.add_argument("--predictions", type=Path, metavar="FILE",
                        help="a DRAGONBall-format file with prediction.content and prediction.references filled")
    evaluate.add_argument("--out", type=Path, required=True, help="evaluation directory to write")
    evaluate.add_argument("--top-k", type=_positive("--top-k", 1000), default=5,
                          help="chunks retrieved (bm25/dense; default 5)")
    evaluate.add_argument("--chunk-size", type=_positive("--chunk-size", 100_000), default=512,
                          help="characters per chunk (bm25/dense; default 512)")
    evaluate.add_argument("--overlap", type=_non_negative("--overlap"), default=64,
                          help="characters carried into the next chunk (bm25/dense; default 64)")
    evaluate.add_argument("--metadata-prefix", action="store_true",
                          help="start each chunk with its document's entity, as the paper does (bm25/dense)")
    evaluate.add_argument("--generator", choices=["extractive", "llm"], default="extractive",
                          help="answer writer of the baseline (default: extractive, offline)")
    evaluate.add_argument("--embedding-model", metavar="NAME",
                          help="embeddings model, for --system dense and, with --judge llm, answer relevancy")
    evaluate.add_argument("--embedding-base-url", metavar="URL",
                          help="embeddings endpoint (default: --base-url); the key is read from --api-key-env")
    evaluate.add_argument("--judge", choices=["lexical", "llm", "none"], default="lexical",
                          help="keypoint judge (default: lexical, offline); none: no keypoint metrics, only the "
                               "retrieval and text ones (fastest)")
    evaluate.add_argument("--k", type=_positive("--k", 1000), default=5, help="K of Recall@K, nDCG@K, context precision@K")
    evaluate.add_argument("--compat", choices=["rageval"],
                          help="reproduce the reference implementation's conventions exactly")
    evaluate.add_argument("--allow-failures", type=_share("--allow-failures"), default=DEFAULT_ALLOWED_FAILURES,
                          metavar="SHARE",
                          help=f"share of queries that may fail (system error, timeout, missing prediction) with "
                               f"exit status 0 (default {DEFAULT_ALLOWED_FAILURES}); past it the scores are still "
                               f"written and the command exits {EXIT_TOO_MANY_FAILURES}; 1 accepts any")
    evaluate.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    _add_prefect_argument(evaluate)
    _add_llm_arguments(evaluate, engine_flag=False)
    evaluate.set_defaults(handler=_cmd_evaluate, engine="offline")

    validate = sub.add_parser("validate", help="check a benchmark directory; list every problem",
                              description="Check every rule a finished benchmark satisfies. Exits 0 when valid; "
                                          "otherwise lists every problem and exits 1.")
    validate.add_argument("dir", type=Path, metavar="DIR", help="benchmark directory")
    validate.set_defaults(handler=_cmd_validate)

    calibrate = sub.add_parser(
        "calibrate", help="check the keypoint judge against human labels",
        description="Calibrate an evaluation's keypoint judge against people, as the RAGEval paper validated its "
                    "judge. --sample N writes N judged keypoints for annotation (stratified by question type, "
                    "language and the judge's label; the judge's label left out) as JSONL with \"label\": null. "
                    "--labels FILE reads that file back once people filled in Relevant, Irrelevant or Wrong and "
                    "reports accuracy, Cohen's kappa, each label's recall and precision, and how far the judge's "
                    "completeness, hallucination and irrelevance lie from the humans', overall and by language.")
    calibrate.add_argument("eval_dir", type=Path, metavar="EVAL_DIR",
                           help="an evaluate --out folder (per_query.jsonl, predictions.jsonl)")
    what = calibrate.add_mutually_exclusive_group(required=True)
    what.add_argument("--sample", type=_positive("--sample", 100000), metavar="N",
                      help="export N keypoints for annotation")
    what.add_argument("--labels", type=Path, metavar="FILE", help="the annotated sample: report agreement")
    calibrate.add_argument("--out", type=Path, default=None,
                           help="--sample: where to write (default: EVAL_DIR/calibration_sample.jsonl; never "
                                "overwritten); --labels: also write the report as JSON here")
    calibrate.add_argument("--seed", type=int, default=0, help="--sample: the draw's seed (default: 0)")
    calibrate.set_defaults(handler=_cmd_calibrate)

    check = sub.add_parser("check-genre", help="lint a genre pack before a build",
                           description="Load a genre pack folder, draw --samples documents per language (every "
                                       "constraint solved, every unit rendered), draft questions over them, and say "
                                       "which question types it cannot give and why. Exits 1 on any problem.")
    check.add_argument("dir", type=Path, metavar="DIR", help="genre pack folder (genre.yaml, en.yaml, zh.yaml)")
    check.add_argument("--samples", type=_positive("--samples", 5000), default=200,
                       help="documents drawn per language (default: 200)")
    check.set_defaults(handler=_cmd_check_genre)
    return parser


def _cmd_check_genre(args: argparse.Namespace) -> int:
    from dragonforge.genre.check import check_genre

    report = check_genre(args.dir, samples=args.samples)
    for line in report.lines():
        print(line)
    return 1 if report.problems else 0


def _add_prefect_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--prefect", action=argparse.BooleanOptionalAction, default=None,
                        help="run as a Prefect flow (run and task state, retries, artifacts, the UI) instead of in "
                             "this process; the default is in-process unless PREFECT_API_URL is configured (in the "
                             "environment or the active Prefect profile), and --no-prefect forces in-process. "
                             "Both give identical files")


def _use_prefect(args: argparse.Namespace) -> bool:
    if args.prefect is not None:
        return args.prefect
    from dragonforge.flows._env import configured_api_url

    return configured_api_url() is not None


def _on_sigterm(signum, frame):
    """SIGTERM ends the command the way Ctrl-C does: finished work kept, children stopped."""
    raise KeyboardInterrupt


def _add_llm_arguments(parser: argparse.ArgumentParser, engine_flag: bool = True) -> None:
    group = parser.add_argument_group(
        "LLM endpoint (--engine llm or hybrid)" if engine_flag else "LLM endpoint (--generator llm or --judge llm)",
        "Any OpenAI-compatible endpoint: OpenAI, vLLM, Ollama, llama.cpp's server. The key is read from the "
        "environment variable named by --api-key-env and is never written anywhere.")
    group.add_argument("--base-url", help="endpoint, e.g. https://api.openai.com/v1 or http://127.0.0.1:8089/v1")
    group.add_argument("--model", help="model name as the endpoint knows it")
    group.add_argument("--api-key-env", default="OPENAI_API_KEY", metavar="NAME",
                       help="environment variable holding the API key (default: OPENAI_API_KEY; local servers need none)")
    group.add_argument("--concurrency", type=_positive("--concurrency", 1024), default=8,
                       help="requests in flight at once (default: 8)")
    group.add_argument("--rpm", type=_positive("--rpm", 10_000_000), help="requests-per-minute limit")
    group.add_argument("--tpm", type=_positive("--tpm", 1_000_000_000), help="tokens-per-minute limit")
    group.add_argument("--timeout", type=_positive("--timeout", 3600), default=120,
                       help="seconds per request (default: 120); evaluate: also per query to an HTTP system")
    group.add_argument("--max-retries", type=_non_negative("--max-retries"), default=6,
                       help="retries on 429, 5xx, timeouts and connection errors (default: 6)")
    group.add_argument("--max-repairs", type=_non_negative("--max-repairs"), default=2,
                       help="times an invalid reply is sent back with its error before the item fails (default: 2)")
    group.add_argument("--temperature", type=float, default=0.0, help="sampling temperature (default: 0)")
    group.add_argument("--max-tokens", type=_positive("--max-tokens", 100_000), default=1024,
                       help="longest reply in tokens (default: 1024)")
    group.add_argument("--price-in", type=float, default=0.0, metavar="USD", help="price per million prompt tokens")
    group.add_argument("--price-out", type=float, default=0.0, metavar="USD", help="price per million completion tokens")
    group.add_argument("--max-calls", type=_non_negative("--max-calls"),
                       help="stop cleanly after this many requests (finished work is kept)")
    group.add_argument("--max-cost", type=float, metavar="USD", help="stop cleanly once this much is spent")
    group.add_argument("--no-cache", action="store_true", help="do not read or write the response cache")


def _llm_settings(args: argparse.Namespace):
    """The endpoint settings, or None for the offline engine; checked before anything starts."""
    if args.engine == "offline":
        return None
    from dragonforge.llm import LLMSettings

    if not args.base_url or not args.model:
        what = "--judge llm and --generator llm need" if args.command == "evaluate" else f"--engine {args.engine} needs"
        raise InputError(f"{what} --base-url and --model")
    if not re.match(r"https?://[^/\s]+", args.base_url):
        raise InputError(f"--base-url {args.base_url!r} is not an http(s) URL")
    if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", args.api_key_env):
        raise InputError(f"--api-key-env {args.api_key_env!r} is not an environment variable name")
    for name in ("price_in", "price_out", "max_cost", "temperature"):
        value = getattr(args, name)
        if value is not None and (value < 0 or value != value):
            raise InputError(f"--{name.replace('_', '-')} must not be negative")
    return LLMSettings(base_url=args.base_url, model=args.model, api_key_env=args.api_key_env,
                       concurrency=args.concurrency, requests_per_minute=args.rpm, tokens_per_minute=args.tpm,
                       timeout_s=args.timeout, max_retries=args.max_retries, max_repairs=args.max_repairs,
                       temperature=args.temperature,
                       max_tokens=args.max_tokens, price_input_per_mtok=args.price_in,
                       price_output_per_mtok=args.price_out, max_calls=args.max_calls, max_cost=args.max_cost,
                       use_cache=not args.no_cache)


def _cmd_build(args: argparse.Namespace) -> int:
    from dragonforge.benchmark import check_output_dir
    from dragonforge.models import LLMIdentity

    settings = _llm_settings(args)
    identity = (LLMIdentity(model=settings.model, temperature=settings.temperature, max_tokens=settings.max_tokens,
                            seed=settings.seed) if settings else None)
    from dragonforge.registry import registry

    genre_packs = [registry().load_folder(folder) for folder in args.genre]
    if args.corpus is not None:
        return _cmd_build_corpus(args, genre_packs, settings, identity)
    if args.domains is not None:
        domains = list(dict.fromkeys(args.domains + [p.name for p in genre_packs]))
    else:
        domains = [p.name for p in genre_packs] or list(DOMAINS)
    if args.languages == list(LANGUAGES) and genre_packs:  # not given: the languages every domain writes
        shared = [lang for lang in LANGUAGES if all(lang in registry().get(n).languages for n in domains)]
        args.languages = shared or args.languages
    for name in domains:
        pack = registry().get(name)  # an unknown domain: one line naming the known ones
        missing = [lang for lang in args.languages if lang not in pack.languages]
        if missing:
            raise InputError(f"domain {name} writes {', '.join(pack.languages)}, not {', '.join(missing)}; "
                             f"pass --languages {','.join(pack.languages)}")
    # every domain that is not a curated one (genre packs, installed plugins): its content hash
    packs = {name: registry().get(name).content_hash() for name in domains if name not in DOMAINS}
    for pack in genre_packs:
        pack.preflight(args.languages)  # type: ignore[attr-defined]
    params = BuildParams(domains=domains, languages=args.languages, docs=args.docs,
                         queries_per_doc=args.queries_per_doc, seed=args.seed, question_mix=args.question_mix,
                         engine=args.engine, llm=identity, packs=packs)
    check_output_dir(args.out, params)
    if settings is not None and not _finished_build(args.out, params):
        from dragonforge.reach import check_reachable

        check_reachable(settings.base_url, "--base-url")
    from dragonforge.files import exclusive_lock, make_out_dir

    make_out_dir(args.out)

    with exclusive_lock(args.out, "dragonforge build"):
        check_output_dir(args.out, params)  # again, now that no other run can be writing
        return _run_build(args, params, settings)


def _cmd_build_corpus(args: argparse.Namespace, genre_packs: list, settings, identity) -> int:
    from dragonforge.benchmark import check_output_dir
    from dragonforge.corpus import build_corpus, corpus_files, corpus_hash
    from dragonforge.files import exclusive_lock, make_out_dir

    if len(genre_packs) != 1:
        raise InputError("--corpus needs exactly one --genre PACK_DIR: the pack whose slots the documents hold")
    pack = genre_packs[0]
    languages = [lang for lang in args.languages if lang in pack.languages]
    given = args.languages != list(LANGUAGES)
    if given:
        if len(args.languages) != 1 or not languages:
            raise InputError(f"--corpus reads documents of one language the pack writes ({', '.join(pack.languages)}); "
                             "pass --languages with one of them")
    language = languages[0] if given else pack.languages[0]
    if args.engine == "hybrid":
        raise InputError("--corpus takes --engine offline or llm (the documents are yours: nothing to write)")
    files = corpus_files(args.corpus)
    params = BuildParams(domains=[pack.name], languages=[language], docs=len(files),
                         queries_per_doc=args.queries_per_doc, seed=args.seed, question_mix=args.question_mix,
                         engine=args.engine, llm=identity, packs={pack.name: pack.content_hash()},
                         corpus=corpus_hash(args.corpus, files))
    check_output_dir(args.out, params)
    if (args.out / "manifest.json").exists():
        raise InputError(f"--out {args.out} already holds this corpus build; nothing to do "
                         f"(check it with: dragonforge validate {args.out})")
    if settings is not None:
        from dragonforge.reach import check_reachable

        check_reachable(settings.base_url, "--base-url")
    make_out_dir(args.out)
    t0 = time.perf_counter()
    with exclusive_lock(args.out, "dragonforge build"):
        check_output_dir(args.out, params)
        manifest, report = build_corpus(args.corpus, pack, language, args.out, params, llm_settings=settings)
    unfit = [r for r in report if r.status != "used"]
    for r in unfit:
        print(f"note: {r.file}: {r.status}: {r.reason}", file=sys.stderr)
    print(f"Built {manifest.documents} documents ({len(unfit)} of {len(report)} files not used, see extraction.md) "
          f"and {manifest.queries} queries ({manifest.rejected} rejected) in {args.out} "
          f"in {time.perf_counter() - t0:.1f}s. Check it with: dragonforge validate {args.out}")
    return 0


def _finished_build(out: Path, params: BuildParams) -> bool:
    """``out`` holds a finished build of ``params`` (a rerun replays it from its caches)."""
    import json

    try:
        data = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
        return BuildParams.model_validate(data["params"]) == params
    except (OSError, ValueError, KeyError, TypeError):
        return False


def _run_build(args: argparse.Namespace, params: BuildParams, settings) -> int:
    import contextlib

    from dragonforge.progress import make_progress

    progress = make_progress(quiet=args.quiet)
    t0 = time.perf_counter()
    prefect = _use_prefect(args)
    try:
        with contextlib.ExitStack() as stack:
            if prefect:
                from dragonforge.flows._env import prefect_engine

                where = stack.enter_context(prefect_engine(verbose=args.verbose))
                from dragonforge.flows.build import build_benchmark, set_progress

                set_progress(progress)
                progress.note(f"Building {params.docs} documents per domain and language into {args.out} ({where})")
                manifest = build_benchmark(str(args.out), params, batch_size=args.batch_size, llm_settings=settings,
                                           workers=args.workers)
            else:
                from dragonforge.builder import build

                where = "in-process"
                progress.note(f"Building {params.docs} documents per domain and language into {args.out} ({where})")
                manifest = build(args.out, params, llm_settings=settings, batch_size=args.batch_size,
                                 progress=progress, workers=args.workers)
    except DragonforgeError as exc:
        progress.close()
        raise _stopped(exc, f"Every reply received so far is cached in {args.out}") from None
    except KeyboardInterrupt:
        progress.close()
        print(f"dragonforge build: interrupted; finished work is kept in {args.out}. "
              f"Run the same command again to finish the build.", file=sys.stderr)
        return EXIT_INTERRUPTED
    progress.close()
    for domain, by_lang in manifest.shortfall.items():
        for language, missing in by_lang.items():
            detail = ", ".join(f"{n} {t}" for t, n in missing.items())
            print(f"note: {domain}/{language} has fewer questions than the mix asked for ({detail} missing); "
                  f"more documents give more candidates", file=sys.stderr)
    print(f"Built {manifest.documents} documents and {manifest.queries} queries "
          f"({manifest.rejected} rejected, see rejected.jsonl) in {args.out} "
          f"in {time.perf_counter() - t0:.1f}s ({where}). Check it with: dragonforge validate {args.out}")
    return 0


def _stopped(exc: DragonforgeError, kept: str) -> DragonforgeError:
    """A spent budget or a dead endpoint says what is kept and how to finish; other errors as they are."""
    from dragonforge.llm import BudgetExceeded, LLMUnavailable

    if isinstance(exc, (BudgetExceeded, LLMUnavailable)):
        return type(exc)(f"stopped: {exc}. {kept}; run the command again (with a larger budget) to finish")
    return exc


_RETIRED = ("summarize was retired: `dragonforge induce SEED_FILES... --genre NAME --language en|zh --out "
            "PACK_DIR` writes a genre pack you can review, check (check-genre) and build (build --genre)")


def _cmd_summarize(args: argparse.Namespace) -> int:
    raise InputError(_RETIRED)


def _cmd_induce(args: argparse.Namespace) -> int:
    from dragonforge.induce import induce_pack

    settings = _llm_settings(args)
    t0 = time.perf_counter()
    llm = None
    if settings is not None:
        from dragonforge.reach import check_reachable

        check_reachable(settings.base_url, "--base-url")
        from dragonforge.induce.grounded import PackLLM

        llm = PackLLM(settings, args.out.parent / ".dragonforge-cache" / "llm-cache.sqlite")
    result = induce_pack(args.seeds, args.genre, args.language, args.out, force=args.force, llm=llm)
    ind = result.induction
    groups = len([g for g in ind.groups.values() if not g.spec.get("_drop")])
    print(f"Induced genre pack {ind.genre} ({args.language}) from {len(ind.documents)} seeds into {args.out}: "
          f"{len(ind.slots)} slots, {groups} groups, entity {ind.entity}, {len(ind.constraints)} constraints; "
          f"leak lint on {result.lint.get('documents', 0)} drawn documents: {result.lint.get('problems', 0)} problems "
          f"({time.perf_counter() - t0:.1f}s).")
    for warning in ind.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    if result.llm:
        print("llm: " + ", ".join(f"{k} {v}" for k, v in result.llm.items()), file=sys.stderr)
    print(f"Review {args.out / 'induction-report.md'}, then: dragonforge check-genre {args.out}")
    return 0


def _cmd_evaluate(args: argparse.Namespace) -> int:
    from dragonforge.evaluate import EvalConfig

    bench = args.bench or args.benchmark_opt
    if args.bench and args.benchmark_opt and args.bench != args.benchmark_opt:
        raise InputError("give the benchmark once, as BENCH_DIR or --benchmark")
    if args.system and not bench:
        raise InputError("--system needs a benchmark directory (BENCH_DIR)")
    if bench and not (bench / "queries.jsonl").exists():
        raise InputError(f"{bench} has no queries.jsonl: not a benchmark directory")
    if args.predictions and not args.predictions.is_file():
        raise InputError(f"--predictions {args.predictions} is not a file")
    builtin = args.system in ("bm25", "dense")
    if args.system and not (builtin or args.system.startswith(("http://", "https://", "python:"))):
        raise InputError(f"--system {args.system!r}: use bm25, dense, an http(s):// URL or python:module:function")
    needs_llm = args.judge == "llm" or (builtin and args.generator == "llm")
    args.engine = "llm" if needs_llm else "offline"
    settings = _llm_settings(args)
    embedder = _embedder_settings(args, needed=args.system == "dense")
    config = EvalConfig(system=args.system or f"predictions:{args.predictions}", judge=args.judge,
                        compat=args.compat or "default", k=args.k,
                        top_k=args.top_k if builtin else None,
                        chunk_size=args.chunk_size if builtin else None,
                        overlap=args.overlap if builtin else None,
                        metadata_prefix=args.metadata_prefix, generator=args.generator if builtin else None,
                        benchmark=str(bench.resolve()) if bench else None,
                        predictions=str(args.predictions.resolve()) if args.predictions else None,
                        llm_model=settings.model if settings else None,
                        embedding_model=embedder.model if embedder else None)
    _check_eval_dir(args.out, config)
    # Every input is checked before anything is written: the benchmark and predictions files
    # (naming a bad line), the python: system (it must import), and each endpoint (one probe).
    from dragonforge.evaluate import load_inputs
    from dragonforge.reach import check_reachable

    if args.system and args.system.startswith(("http://", "https://")):
        check_reachable(args.system, "--system")
    if settings is not None:
        check_reachable(settings.base_url, "--base-url")
    if embedder is not None and (settings is None or embedder.base_url != settings.base_url):
        check_reachable(embedder.base_url, "--embedding-base-url")
    if args.system and args.system.startswith("python:"):
        from dragonforge.systems import PythonSystem

        PythonSystem(args.system.removeprefix("python:"))
    if bench and not (bench / "manifest.json").is_file():
        print(f"dragonforge evaluate: note: {bench} has no manifest.json (an unfinished build, or a benchmark put "
              f"together by hand): its records are checked, its build is not", file=sys.stderr)
    warm = False
    if not _use_prefect(args):
        from dragonforge.evaluator import warm_workers

        warm = warm_workers(config)  # a large evaluation's workers start while its inputs are read
    from dragonforge.files import exclusive_lock, make_out_dir, write_text_atomic

    try:
        inputs = load_inputs(config)
        make_out_dir(args.out)
    except BaseException:
        if warm:
            from dragonforge.workers import stop_fork_server

            stop_fork_server()
        raise

    with exclusive_lock(args.out, "dragonforge evaluate"):
        write_text_atomic(args.out / ".dragonforge" / "config.json", config.model_dump_json(indent=2))
        return _run_evaluate(args, config, settings, embedder, inputs)


def _embedder_settings(args: argparse.Namespace, needed: bool):
    """Where embeddings come from, or None when nothing needs them."""
    if needed and not args.embedding_model:
        raise InputError("--system dense needs --embedding-model (and --embedding-base-url or --base-url)")
    if not args.embedding_model:
        if args.embedding_base_url:
            raise InputError("--embedding-base-url needs --embedding-model")
        return None
    if not (needed or args.judge == "llm"):
        raise InputError("--embedding-model is used by --system dense and by --judge llm (answer relevancy); "
                         "this run uses neither")
    from dragonforge.rag import EmbedderSettings

    url = args.embedding_base_url or args.base_url
    if not url:
        raise InputError("--embedding-model needs --embedding-base-url or --base-url")
    if not re.match(r"https?://[^/\s]+", url):
        raise InputError(f"--embedding-base-url {url!r} is not an http(s) URL")
    return EmbedderSettings(base_url=url, model=args.embedding_model, api_key_env=args.api_key_env,
                            timeout_s=args.timeout)


def _run_evaluate(args: argparse.Namespace, config, settings, embedder=None, inputs=None) -> int:
    import contextlib

    from dragonforge.progress import make_progress

    progress = make_progress(quiet=args.quiet)
    t0 = time.perf_counter()
    prefect = _use_prefect(args)
    options = dict(llm_settings=settings, concurrency=args.concurrency, embedder=embedder, timeout_s=args.timeout)
    try:
        with contextlib.ExitStack() as stack:
            if prefect:
                from dragonforge.flows._env import prefect_engine

                where = stack.enter_context(prefect_engine())
                from dragonforge.flows.evaluate import evaluate_flow, set_progress

                set_progress(progress)
                progress.note(f"Evaluating {config.system} into {args.out} ({where})")
                scores = evaluate_flow(str(args.out), config, **options)
            else:
                from dragonforge.evaluator import evaluate

                where = "in-process"
                progress.note(f"Evaluating {config.system} into {args.out} ({where})")
                scores = evaluate(args.out, config, progress=progress, inputs=inputs, **options)
    except DragonforgeError as exc:
        progress.close()
        raise _stopped(exc, f"Answers and replies received so far are kept in {args.out}") from None
    except KeyboardInterrupt:
        progress.close()
        print(f"dragonforge evaluate: interrupted; answers so far are kept in {args.out}. "
              f"Run the same command again to finish.", file=sys.stderr)
        return EXIT_INTERRUPTED
    progress.close()
    overall = scores["overall"]
    shown = ", ".join(f"{k} {overall[k]:.3f}" for k in ("recall", "eir", "completeness", "hallucination",
                                                          "irrelevance", "rouge_l") if overall.get(k) is not None)
    counts = scores["counts"]
    state = args.out / ".dragonforge" / "failed.json"
    failed, total = counts["system_errors"], counts["queries"]
    print(f"Scored {total} queries in {time.perf_counter() - t0:.1f}s ({where}): {shown}. "
          f"Details in {args.out}/scores.json")
    if total and failed / total > args.allow_failures:
        missing = counts.get("missing_predictions", 0)
        what = f"{failed} of {total} queries failed" + (f" ({missing} missing from the predictions file)"
                                                        if missing else "")
        from dragonforge.files import write_text_atomic

        write_text_atomic(state, json.dumps({"failed": failed, "queries": total}) + "\n")
        print(f"dragonforge evaluate: {what}, more than --allow-failures {args.allow_failures:g} allows; the "
              f"scores count them as misses (see per_query.jsonl, field error)", file=sys.stderr)
        return EXIT_TOO_MANY_FAILURES
    state.unlink(missing_ok=True)
    return 0


def _check_eval_dir(out: Path, config) -> None:
    """An evaluation directory is new, empty, or holds this same evaluation (to resume)."""
    import json

    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} exists and is not a directory")
    from dragonforge.benchmark import holds_nothing

    if not out.exists() or holds_nothing(out):
        return
    marker = out / ".dragonforge" / "config.json"
    if not marker.exists():
        raise InputError(f"--out {out} is not empty and holds no dragonforge evaluation; choose another directory")
    if not (out / "scores.json").exists() or (out / ".dragonforge" / "failed.json").exists():
        # an evaluation that never finished (or ended with too many failures) left only resumable
        # state, keyed by content (a changed system or benchmark is asked again): the corrected
        # command may take it over
        return
    try:
        theirs = json.loads(marker.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        theirs = None
    if not isinstance(theirs, dict):
        raise InputError(f"--out {out} holds scores but its {marker.name} is unreadable; choose another directory "
                         f"or remove it")
    if theirs != config.model_dump(mode="json"):
        diffs = [f"{k} {theirs.get(k)} there, {v} here" for k, v in config.model_dump(mode="json").items()
                 if theirs.get(k) != v]
        raise InputError(f"--out {out} holds the scores of a different evaluation ({'; '.join(diffs[:3])}); "
                         f"choose another directory or remove it")


def _cmd_calibrate(args: argparse.Namespace) -> int:
    import json

    from dragonforge import calibrate as cal
    from dragonforge.files import write_bytes_atomic

    if not args.eval_dir.is_dir():
        raise InputError(f"{args.eval_dir} is not a folder (give an evaluate --out folder)")
    if args.sample:
        out = args.out or args.eval_dir / cal.SAMPLE_FILE
        rows = cal.export_sample(args.eval_dir, args.sample, out, args.seed)
        strata = len({(r["query_type"], r["language"]) for r in rows})
        print(f"wrote {len(rows)} keypoints for annotation to {out} ({strata} question type × language strata); "
              f"fill in each \"label\" with Relevant, Irrelevant or Wrong, then: dragonforge calibrate "
              f"{args.eval_dir} --labels {out}")
        return 0
    if args.out and args.out.exists():
        from dragonforge.errors import OutputConflictError

        raise OutputConflictError(f"{args.out} exists: give another --out for the report or move it away")
    pairs, unlabelled = cal.read_labels(args.eval_dir, args.labels)
    result = cal.agreement(pairs)
    print(cal.report_text(result, unlabelled))
    if args.out:
        write_bytes_atomic(args.out, (json.dumps(result, indent=2, ensure_ascii=False) + "\n").encode("utf-8"))
    return 0


def _cmd_validate(args: argparse.Namespace) -> int:
    from dragonforge.validate import validate_benchmark

    problems = validate_benchmark(args.dir)
    if problems:
        for problem in problems:
            print(problem)
        print(f"{args.dir}: {len(problems)} problem(s); not a valid benchmark", file=sys.stderr)
        return 1
    import json

    manifest = json.loads((args.dir / "manifest.json").read_text(encoding="utf-8"))
    print(f"{args.dir}: valid benchmark ({manifest['documents']} documents, {manifest['queries']} queries)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["summarize"] and not {"-h", "--help"} & set(given[1:2]):  # retired, whatever it is given
        print(f"dragonforge summarize: error: {_RETIRED}", file=sys.stderr)
        return 1
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return EXIT_USAGE
    signal.signal(signal.SIGTERM, _on_sigterm)
    import sqlite3

    try:
        _keep_credentials(args)
        return args.handler(args)
    except DragonforgeError as exc:
        message = str(exc)
    except OSError as exc:  # the machine's side: a full disk, a read-only or vanished directory
        message = _os_error(exc, getattr(args, "out", None))
    except sqlite3.Error as exc:  # the resume store or LLM cache could not be written or read
        where = getattr(args, "out", None)
        from dragonforge.resume import primary_code

        full = primary_code(exc) in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR)
        message = (f"the state in {where}/.dragonforge could not be written or read ({exc}"
                   f"{'; is the disk full?' if full else ''}); finished work is kept there: free some space or "
                   f"fix the directory, then run the command again")
    print(f"dragonforge {args.command}: error: {message}", file=sys.stderr)
    return 1


def _keep_credentials(args: argparse.Namespace) -> None:
    """Take the credentials out of every URL option: they stay in this process (dragonforge.urls)."""
    from dragonforge import urls

    for name in ("base_url", "embedding_base_url", "system"):
        value = getattr(args, name, None)
        if isinstance(value, str) and value.startswith(("http://", "https://")):
            setattr(args, name, urls.register(value, "--" + name.replace("_", "-")))


def _os_error(exc: OSError, out: Path | None) -> str:
    """One line for an OSError: what failed, on which file, and what is kept."""
    import errno

    what = exc.strerror or str(exc)
    where = f" ({exc.filename})" if exc.filename else ""
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG) and out is not None:
        return (f"{what}{where}; finished work is kept in {out}: free some space and run the same command "
                f"again to finish")
    return f"{what}{where}"


if __name__ == "__main__":
    sys.exit(main())
