"""The built-in baseline RAG system: chunking, retrieval, generation."""

from __future__ import annotations

import asyncio
import json
import threading
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest
from llm_fakes import FakeLLMServer, error, ok

from dragonforge import rag
from dragonforge.benchmark import to_dragonball_document, to_dragonball_query
from dragonforge.llm import LLMSettings, StructuredLLM
from dragonforge.models import BuildParams
from dragonforge.pipeline import run_build
from dragonforge.rag import (
    BaselineRAG, BM25Retriever, Chunk, DenseRetriever, Embedder, ExtractiveGenerator, LLMGenerator, chunk_documents,
    split_sentences,
)
from dragonforge.systems import Query
from dragonforge.text import split_zh


def doc(content: str, doc_id: int = 0, language: str = "zh", domain: str = "Finance", **entity) -> dict:
    return {"domain": domain, "language": language, "doc_id": doc_id, "content": content, **entity}


def texts(chunks: list[Chunk]) -> list[str]:
    return [c.text for c in chunks]


@pytest.fixture(scope="module")
def bench() -> tuple[list[dict], list[dict]]:
    """A small real benchmark, built in-process (about 2 s)."""
    result = run_build(BuildParams(docs=3, queries_per_doc=6, seed=3))
    documents = [to_dragonball_document(d).model_dump(mode="json", exclude_none=True) for d in result.documents]
    queries = [to_dragonball_query(q).model_dump(mode="json") for q in result.qras]
    return documents, queries


# --- sentences and chunks -------------------------------------------------------------------------


def test_chinese_sentences_end_after_each_terminator_and_at_newlines():
    text = "第一句。第二句！\n标题\n第三句？尾巴"
    assert split_sentences(text, "zh") == ["第一句。", "第二句！", "标题", "第三句？", "尾巴"]
    assert split_sentences(text, "zh") == split_zh(text)


def test_english_sentences_come_from_pysbd_with_their_original_text():
    text = "Revenue was $2.58 billion. Mr. Smith chairs the board.\nPart Two\nNet profit rose."
    assert split_sentences(text, "en") == [
        "Revenue was $2.58 billion.", "Mr. Smith chairs the board.", "Part Two", "Net profit rose."]


def test_chunks_pack_whole_consecutive_sentences_up_to_the_size():
    content = "甲甲甲。乙乙乙。丙丙丙。丁丁丁。"  # four sentences of 4 characters
    assert texts(chunk_documents([doc(content)], chunk_size=8, overlap=0)) == ["甲甲甲。乙乙乙。", "丙丙丙。丁丁丁。"]
    assert texts(chunk_documents([doc(content)], chunk_size=11, overlap=0)) == [
        "甲甲甲。乙乙乙。", "丙丙丙。丁丁丁。"]  # never a part of a sentence


def test_overlap_carries_the_last_sentences_that_fit_into_the_next_chunk():
    content = "甲甲甲。乙乙乙。丙丙丙。丁丁丁。"
    chunks = chunk_documents([doc(content, doc_id=7)], chunk_size=8, overlap=4)
    assert texts(chunks) == ["甲甲甲。乙乙乙。", "乙乙乙。丙丙丙。", "丙丙丙。丁丁丁。"]
    assert [(c.doc_id, c.index) for c in chunks] == [(7, 0), (7, 1), (7, 2)]
    assert texts(chunk_documents([doc(content)], chunk_size=8, overlap=3)) == [
        "甲甲甲。乙乙乙。", "丙丙丙。丁丁丁。"]  # a 4-character sentence does not fit a 3-character overlap


def test_a_sentence_longer_than_the_chunk_size_is_a_chunk_of_its_own():
    content = "甲甲甲。乙乙乙乙乙乙乙乙。丙。"
    assert texts(chunk_documents([doc(content)], chunk_size=5, overlap=4)) == ["甲甲甲。", "乙乙乙乙乙乙乙乙。", "丙。"]


def test_english_chunks_keep_the_document_text_between_sentences():
    content = "Part One\nRevenue rose. Profit fell.\nPart Two\nDebt was flat."
    chunks = chunk_documents([doc(content, language="en")], chunk_size=40, overlap=0)
    assert texts(chunks) == ["Part One\nRevenue rose. Profit fell.", "Part Two\nDebt was flat."]
    assert chunks[0].sentences == ("Part One", "Revenue rose.", "Profit fell.")


def test_metadata_prefix_names_the_documents_entity_in_each_language():
    en = chunk_documents([doc("Revenue rose.", language="en", company_name="Acme Corp")], metadata_prefix=True)
    zh = chunk_documents([doc("收入增长。", language="zh", domain="Law", court_name="某某法院")], metadata_prefix=True)
    med = chunk_documents([doc("体温正常。", domain="Medical", hospital_patient_name="某医院_张三")], metadata_prefix=True)
    assert texts(en) == ["(Acme Corp) Revenue rose."]
    assert texts(zh) == ["（某某法院）收入增长。"]
    assert texts(med) == ["（某医院_张三）体温正常。"]
    assert texts(chunk_documents([doc("收入增长。", company_name="甲公司")])) == ["收入增长。"]


@pytest.mark.parametrize("chunk_size,overlap", [(128, 0), (512, 64)])
def test_every_reference_sentence_of_a_built_benchmark_is_verbatim_in_a_chunk(bench, chunk_size, overlap):
    documents, queries = bench
    by_doc: dict[int, list[str]] = {}
    for chunk in chunk_documents(documents, chunk_size, overlap, metadata_prefix=True):
        by_doc.setdefault(chunk.doc_id, []).append(chunk.text)
    missing = [sentence for q in queries for ref in q["ground_truth"]["references"]
               for sentence in split_sentences(ref, q["language"])
               if not any(sentence in text for i in q["ground_truth"]["doc_ids"] for text in by_doc[i])]
    assert sum(len(q["ground_truth"]["references"]) for q in queries) > 200
    assert missing == []


# --- retrieval ------------------------------------------------------------------------------------


@pytest.mark.parametrize("language", ["en", "zh"])
def test_bm25_ranks_the_document_holding_the_answer_first_for_factual_questions(bench, language):
    documents, queries = bench
    system = BaselineRAG(documents, metadata_prefix=True)
    factual = [q for q in queries if q["language"] == language and q["query"]["query_type"] == "Factual Question"]
    first = [system.retrievers[(q["domain"].lower(), language)].search(q["query"]["content"], 5)[0].doc_id
             for q in factual]
    hits = sum(top in q["ground_truth"]["doc_ids"] for top, q in zip(first, factual))
    assert len(factual) == 12
    assert hits >= 10  # 12 and 11 when written


def test_bm25_returns_only_chunks_sharing_a_word_with_the_query_best_first():
    chunks = chunk_documents([doc("Revenue was $5 million.", 0, "en"), doc("The court met in May.", 1, "en"),
                              doc("Revenue and net revenue both rose.", 2, "en")], chunk_size=100)
    retriever = BM25Retriever(chunks, "en")
    assert [c.doc_id for c in retriever.search("What was the revenue?", 5)] == [2, 0]
    assert retriever.search("hospital", 5) == []


def test_a_query_searches_only_its_own_language_and_domain():
    documents = [doc("Revenue was $5 million.", 0, "en", "Finance"),
                 doc("Revenue of the court was $1.", 1, "en", "Law"),
                 doc("收入为五百万元。", 2, "zh", "Finance")]
    by_domain = BaselineRAG(documents, top_k=5)
    by_language = BaselineRAG(documents, top_k=5, scope="language")
    query = Query(query_id=1, language="en", domain="Finance", question="What was the revenue?")
    assert asyncio.run(by_domain.answer(query)).contexts == ["Revenue was $5 million."]
    assert sorted(asyncio.run(by_language.answer(query)).contexts) == [
        "Revenue of the court was $1.", "Revenue was $5 million."]


class _FakeEmbeddings(BaseHTTPRequestHandler):
    """``POST /v1/embeddings``: a hashed bag of words per input, so shared words mean similarity."""

    requests: list[list[str]] = []
    per_token = False  # answer one vector per word, as llama.cpp does for a model without pooling

    def do_POST(self):  # noqa: N802
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        inputs = body["input"] if isinstance(body["input"], list) else [body["input"]]
        type(self).requests.append(inputs)
        if type(self).per_token:
            data = [{"object": "embedding", "index": i,
                     "embedding": [_bag_of_words(word) for word in rag.tokenize(text, "en")]}
                    for i, text in enumerate(inputs)]
        else:
            data = [{"object": "embedding", "index": i, "embedding": _bag_of_words(text)}
                    for i, text in enumerate(inputs)]
        payload = json.dumps({"object": "list", "data": data, "model": body["model"],
                              "usage": {"prompt_tokens": 1, "total_tokens": 1}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def log_message(self, *args):
        pass


def _bag_of_words(text: str) -> list[float]:
    vector = [0.0] * 64
    for word in rag.tokenize(text, "en"):
        vector[zlib.crc32(word.encode()) % 64] += 1.0
    return vector


@pytest.fixture()
def embeddings_server():
    _FakeEmbeddings.requests = []
    _FakeEmbeddings.per_token = False
    server = ThreadingHTTPServer(("127.0.0.1", 0), _FakeEmbeddings)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/v1"
    server.shutdown()
    server.server_close()


def test_dense_retriever_ranks_by_cosine_similarity_and_embeds_chunks_in_batches(embeddings_server):
    chunks = chunk_documents([doc("The hospital admitted the patient.", 0, "en"),
                              doc("Revenue grew strongly.", 1, "en"),
                              doc("The court convicted the defendant.", 2, "en"),
                              doc("Net profit fell.", 3, "en"), doc("The patient was discharged.", 4, "en")])

    async def run() -> list[list[int]]:
        retriever = DenseRetriever(chunks, Embedder(embeddings_server, "fake-embed", batch_size=2))
        first = await retriever.search("Which court convicted the defendant?", 1)
        second = await retriever.search("When was the patient discharged from hospital?", 2)
        return [[c.doc_id for c in first], [c.doc_id for c in second]]

    assert asyncio.run(run()) == [[2], [4, 0]]
    assert [len(batch) for batch in _FakeEmbeddings.requests] == [2, 2, 1, 1, 1]  # chunks once, then each query


def test_baseline_with_a_dense_retriever_answers_from_the_nearest_chunk(embeddings_server):
    documents = [doc("Revenue grew to $5 million.", 0, "en"), doc("The board met twice.", 1, "en")]
    system = BaselineRAG(documents, top_k=1, retriever="dense", embedder=Embedder(embeddings_server, "fake-embed"))
    answer = asyncio.run(system.answer(Query(query_id=3, language="en", domain="Finance",
                                             question="What was the revenue?")))
    assert answer.contexts == ["Revenue grew to $5 million."]
    assert answer.answer == "Revenue grew to $5 million."


def test_per_token_embeddings_are_mean_pooled_into_one_vector_per_text(embeddings_server):
    texts = ["Net profit fell sharply.", "The court convicted the defendant.", "Revenue"]

    async def embed():
        embedder = Embedder(embeddings_server, "fake-embed")
        try:
            return await embedder.embed(texts)
        finally:
            await embedder.aclose()

    pooled = asyncio.run(embed())
    _FakeEmbeddings.per_token = True
    per_token = asyncio.run(embed())
    assert per_token.shape == pooled.shape == (3, 64)
    # The mean of one-hot word vectors points the same way as their sum, the bag of words.
    np.testing.assert_allclose(per_token, pooled, atol=1e-6)


def test_gold_chunks_are_the_indexed_chunks_holding_each_reference_in_order():
    documents = [doc("Revenue was $5 million. Net profit was $1 million. The board met 4 times. "
                     "The auditor was Lee & Co.", 0, "en", company_name="Acme Corp")]
    system = BaselineRAG(documents, chunk_size=50, overlap=0)
    assert texts(system.chunks) == ["Revenue was $5 million. Net profit was $1 million.",
                                    "The board met 4 times. The auditor was Lee & Co."]
    query = Query(query_id=1, language="en", domain="Finance",
                  question="Which firm was the auditor of Acme Corp and how many times was the board met?")
    gold = system.gold_chunks(query, ["The auditor was Lee & Co.", "Net profit was $1 million. The board met 4 times.",
                                      "A sentence no chunk holds."])
    assert texts(gold) == ["The board met 4 times. The auditor was Lee & Co.",
                           "Revenue was $5 million. Net profit was $1 million.", "A sentence no chunk holds."]
    # The oracle answer comes from those chunks; the company's name does not count against them.
    assert asyncio.run(system.answer_from(query, ["The auditor was Lee & Co.", "The board met 4 times."])) == \
        "The board met 4 times. The auditor was Lee & Co."


# --- generation -----------------------------------------------------------------------------------


def test_extractive_generator_answers_with_the_sentences_that_cover_the_question():
    chunks = chunk_documents([doc("The company was founded in 1992. Net profit was $64.77 million. "
                                  "The board met 11 times.", language="en", company_name="Acme Corp")])
    generator = ExtractiveGenerator().fit(chunks)
    assert generator.answer_text("What was the net profit of Acme Corp?", chunks, "en") == \
        "Net profit was $64.77 million."


def test_extractive_generator_joins_sentences_when_one_covers_only_part_of_the_question():
    chunks = chunk_documents([doc("公司成立于1992年。公司总部位于杭州。董事会召开了11次会议。")])
    generator = ExtractiveGenerator().fit(chunks)
    assert generator.answer_text("公司成立于哪一年，总部位于哪里？", chunks, "zh") == "公司成立于1992年。公司总部位于杭州。"


def test_extractive_generator_refuses_without_support():
    chunks = chunk_documents([doc("Net profit was $64.77 million. The board met 11 times.", language="en")])
    generator = ExtractiveGenerator().fit(chunks)
    assert generator.answer_text("What credit rating did the agencies assign?", chunks, "en") == "Unable to answer"
    assert generator.answer_text("评级机构给出的信用评级是什么？", [], "zh") == "无法回答"


def test_baseline_answers_every_query_with_contexts_in_rank_order_and_no_timing_noise(bench):
    """In-process BM25 with the extractive answerer is not timed: its records are the same in
    every run (a system waiting on an endpoint is timed, below)."""
    documents, queries = bench
    system = BaselineRAG(documents, top_k=3, metadata_prefix=True)

    async def run():
        return await asyncio.gather(*(system.answer(Query.from_record(q)) for q in queries))

    answers = asyncio.run(run())
    assert [a.query_id for a in answers] == [q["query"]["query_id"] for q in queries]
    assert all(a.error is None and a.latency_ms is None and len(a.contexts) <= 3 for a in answers)
    assert all(a.answer for a in answers)
    refused = [a.answer in ("Unable to answer", "无法回答") for a in answers]
    assert 0 < sum(refused) < len(answers)


def _llm(server: FakeLLMServer) -> StructuredLLM:
    return StructuredLLM(LLMSettings(base_url=server.base_url, model=server.model, max_retries=0, use_cache=False))


def test_llm_generator_answers_from_the_numbered_context_and_records_its_tokens():
    chunks = chunk_documents([doc("Net profit was $64.77 million.", language="en")])
    with FakeLLMServer([ok({"answer": "Net profit was $64.77 million."}, prompt_tokens=120, completion_tokens=9)]) \
            as server:
        generation = asyncio.run(LLMGenerator(_llm(server)).generate("What was the net profit?", chunks, "en"))
        prompt = server.chat_requests[0].messages
    assert generation.answer == "Net profit was $64.77 million."
    assert (generation.prompt_tokens, generation.completion_tokens, generation.error) == (120, 9, None)
    assert "[1] Net profit was $64.77 million." in prompt[1]["content"]
    assert '"Unable to answer"' in prompt[0]["content"]


def test_a_baseline_that_waits_on_an_endpoint_is_timed():
    documents = [doc("Net profit was $64.77 million.", language="en")]
    with FakeLLMServer(default=ok({"answer": "Net profit was $64.77 million."})) as server:
        system = BaselineRAG(documents, generator=LLMGenerator(_llm(server)))
        answer = asyncio.run(system.answer(Query(query_id=3, language="en", domain="Finance",
                                                 question="What was the net profit?")))
    assert answer.error is None and answer.latency_ms is not None and answer.latency_ms > 0


def test_a_generator_failure_is_recorded_on_its_query_not_raised():
    documents = [doc("收入为五百万元。")]
    with FakeLLMServer([error(400, "context too long")]) as server:
        system = BaselineRAG(documents, generator=LLMGenerator(_llm(server)))
        answer = asyncio.run(system.answer(Query(query_id=9, language="zh", domain="Finance", question="收入是多少？")))
    assert answer.query_id == 9 and answer.answer == ""
    assert "context too long" in answer.error
    assert answer.contexts == ["收入为五百万元。"]


def test_llm_generator_leaves_per_query_tokens_unset_when_calls_overlap():
    chunks = chunk_documents([doc("Net profit was $64.77 million.", language="en")])
    with FakeLLMServer(default=ok({"answer": "x"}, prompt_tokens=100, completion_tokens=5)) as server:
        llm = _llm(server)
        generator = LLMGenerator(llm)

        async def run():
            return await asyncio.gather(generator.generate("Profit?", chunks, "en"),
                                        generator.generate("Net profit?", chunks, "en"))

        both = asyncio.run(run())
    assert [(g.answer, g.prompt_tokens) for g in both] == [("x", None), ("x", None)]
    assert llm.usage_report()  # the totals are still counted
    assert llm.usage[("rag_answer", server.model)].prompt_tokens == 200


# --- embeddings through the same books as completions: cached, counted, budgeted -----------------


def test_embeddings_are_cached_by_model_and_text_and_counted(embeddings_server, tmp_path):
    cache = tmp_path / "embeddings.sqlite"

    async def run(texts: list[str]) -> tuple[np.ndarray, rag.Embedder]:
        embedder = Embedder(embeddings_server, "fake-embed", cache_path=cache)
        try:
            return await embedder.embed(texts), embedder
        finally:
            await embedder.aclose()

    first, e1 = asyncio.run(run(["Revenue grew.", "Net profit fell.", "Revenue grew."]))
    assert _FakeEmbeddings.requests == [["Revenue grew.", "Net profit fell."]]  # a repeated text is sent once
    assert (e1.usage.calls, e1.usage.prompt_tokens, e1.usage.cache_hits) == (1, 1, 0)
    again, e2 = asyncio.run(run(["Net profit fell.", "The board met.", "Revenue grew."]))
    assert _FakeEmbeddings.requests[1:] == [["The board met."]]  # only what was never embedded
    assert (e2.usage.calls, e2.usage.cache_hits) == (1, 2)
    assert np.allclose(again[0], first[1]) and np.allclose(again[2], first[0])


def test_embedding_calls_count_against_the_llm_budget(embeddings_server):
    from dragonforge.llm import BudgetExceeded, LLMAccount

    account = LLMAccount(LLMSettings(base_url=embeddings_server, model="m", max_calls=1))

    async def run() -> None:
        embedder = Embedder(embeddings_server, "fake-embed", batch_size=1, account=account)
        try:
            await embedder.embed(["one text.", "another text."])
        finally:
            await embedder.aclose()

    with pytest.raises(BudgetExceeded):
        asyncio.run(run())
    assert len(_FakeEmbeddings.requests) == 1 and account.report()["embeddings"]["fake-embed"]["calls"] == 1


def test_a_resumed_dense_evaluation_makes_no_embedding_call_it_already_made(embeddings_server, tmp_path,
                                                                            prefect_home):
    import os
    import subprocess
    import sys

    from dragonforge.benchmark import write_benchmark

    params = BuildParams(docs=3, queries_per_doc=3, seed=5)
    write_benchmark(tmp_path / "bench", params, run_build(params), {})
    env = {k: v for k, v in os.environ.items() if not k.startswith("PREFECT_")} | {"PREFECT_HOME": str(prefect_home)}

    def evaluate() -> dict:
        proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "evaluate", str(tmp_path / "bench"),
                               "--system", "dense", "--embedding-model", "fake-embed", "--embedding-base-url",
                               embeddings_server, "--out", str(tmp_path / "eval")], capture_output=True, text=True,
                              env=env, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return json.loads((tmp_path / "eval" / "scores.json").read_text(encoding="utf-8"))

    first = evaluate()
    sent = [t for batch in _FakeEmbeddings.requests for t in batch]
    assert first["llm_usage"]["embeddings"]["fake-embed"]["calls"] == len(_FakeEmbeddings.requests) > 0
    # the answers are lost (an interrupted run keeps only some): every chunk and query is asked again,
    # and every vector comes from the cache
    (tmp_path / "eval" / ".dragonforge" / "resume.sqlite").unlink()
    second = evaluate()
    assert [t for batch in _FakeEmbeddings.requests for t in batch] == sent
    usage = second["llm_usage"]["embeddings"]["fake-embed"]
    assert usage["calls"] == 0 and usage["cache_hits"] == len(set(sent))
    assert second["overall"]["recall"] == first["overall"]["recall"]
