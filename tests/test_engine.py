"""The generic stages (documents, QRA, references, refinement, keypoints) on a toy domain."""

from __future__ import annotations

import pytest

from dragonforge.documents import DocumentTemplate, write_document
from dragonforge.errors import TemplateError
from dragonforge.keypoints import check_keypoints, numbered
from dragonforge.models import QRA, BoundFact, Config, Fact, Keypoint, QueryType, Reference, Rejection
from dragonforge.qra import QRATemplateSet, allocate, generate_qra
from dragonforge.references import extract_references
from dragonforge.refine import refine

TOY_DOC = DocumentTemplate.model_validate({
    "domain": "toy", "language": "en", "titles": ["Report of {{ name }}"],
    "sections": [
        {"id": "intro", "titles": ["1. Overview"], "paragraphs": [{"sentences": [
            {"facts": ["name", "founded"], "variants": ["{{ name }} was founded on {{ founded }}."]},
            {"facts": ["revenue"], "variants": ["Revenue reached {{ revenue }}.", "It earned {{ revenue }} in revenue."]},
            {"variants": ["The year was eventful."]},
        ]}]},
        {"id": "events", "titles": ["2. Events"], "paragraphs": [{"foreach": "events", "sentences": [
            {"facts": ["events.{i}.date", "events.{i}.name"], "variants": ["On {{ item.date }}, it completed {{ item.name }}."]},
        ]}]},
        {"id": "recap", "titles": ["3. Recap"], "paragraphs": [{"sentences": [
            {"facts": ["revenue", "name"], "variants": ["In sum, {{ name }} earned {{ revenue }}."]},
        ]}]},
    ],
})

TOY_QRA = QRATemplateSet.model_validate({"domain": "toy", "language": "en", "templates": [
    {"id": "f.revenue", "type": "factual", "questions": ["What was the revenue of {{ name }}?"],
     "answer": "{{ name }} earned {{ revenue }}.", "facts": ["revenue"],
     "keypoints": [{"text": "Revenue was {{ revenue }}.", "facts": ["revenue"]}]},
    {"id": "f.event", "type": "factual", "foreach": "events", "questions": ["When did {{ name }} complete {{ item.name }}?"],
     "answer": "{{ name }} completed {{ item.name }} on {{ item.date }}.", "facts": ["events.{i}.name", "events.{i}.date"],
     "keypoints": [{"text": "{{ item.name }} was completed on {{ item.date }}.", "facts": ["events.{i}.name", "events.{i}.date"]}]},
    {"id": "c.revenue", "type": "comparison", "compare": "revenue",
     "questions": ["Which earned more, {{ a.name }} or {{ b.name }}?"],
     "answer": "{{ winner.name }} earned {{ winner.revenue }}, more than {{ loser.name }} with {{ loser.revenue }}.",
     "facts": ["winner:revenue", "loser:revenue"],
     "keypoints": [{"text": "{{ winner.name }} earned {{ winner.revenue }}.", "facts": ["winner:revenue"]},
                   {"text": "{{ loser.name }} earned {{ loser.revenue }}.", "facts": ["loser:revenue"]},
                   {"text": "{{ winner.name }} earned more."}]},
    {"id": "t.founded", "type": "time_sequence", "compare": "founded", "pick": "min",
     "questions": ["Which was founded first, {{ a.name }} or {{ b.name }}?"],
     "answer": "{{ winner.name }} was founded first, on {{ winner.founded }}; {{ loser.name }} followed on {{ loser.founded }}.",
     "facts": ["winner:founded", "loser:founded"],
     "keypoints": [{"text": "{{ winner.name }} was founded on {{ winner.founded }}.", "facts": ["winner:founded"]},
                   {"text": "{{ loser.name }} was founded on {{ loser.founded }}.", "facts": ["loser:founded"]}]},
    {"id": "u.salary", "type": "unanswerable", "questions": ["What is the CEO salary at {{ name }}?"],
     "absent": ["salary"]},
    {"id": "u.eventful", "type": "unanswerable", "questions": ["How eventful was the year for {{ name }}?"],
     "absent": ["eventful"]},
]})


def toy_config(doc_id: int, name: str, revenue: float, founded: str) -> Config:
    facts = {
        "name": Fact(key="name", kind="organisation", text=name, value=name),
        "revenue": Fact(key="revenue", kind="money", text=f"${revenue:g} million", value=revenue * 1e6, unit="USD"),
        "founded": Fact(key="founded", kind="date", text=founded, value=founded),
        "events.0.date": Fact(key="events.0.date", kind="date", text="2021-02-01", value="2021-02-01"),
        "events.0.name": Fact(key="events.0.name", kind="text", text=f"the {name} merger", value="merger"),
        "events.1.date": Fact(key="events.1.date", kind="date", text="2021-06-09", value="2021-06-09"),
        "events.1.name": Fact(key="events.1.name", kind="text", text=f"the {name} bond issue", value="bond"),
    }
    return Config(doc_id=doc_id, domain="toy", language="en", entity=name, seed=doc_id, facts=facts)


@pytest.fixture()
def corpus():
    configs = [toy_config(0, "Acme", 12.5, "2001-05-04"), toy_config(1, "Globex", 30, "1999-01-02"),
               toy_config(2, "Initech", 12.5, "2010-03-03")]
    docs = [write_document(c, seed=7, template=TOY_DOC) for c in configs]
    return configs, docs, {d.doc_id: d for d in docs}


def test_every_sentence_records_the_facts_it_states(corpus):
    _, docs, _ = corpus
    doc = docs[0]
    stated = {key for s in doc.sentences for key in s.facts}
    assert {"name", "founded", "revenue", "events.0.date", "events.1.name"} <= stated
    for sentence in doc.sentences:
        assert sentence.text in doc.content
    assert doc.content.startswith("Report of Acme\n\n1. Overview\n")


def test_a_sentence_that_omits_a_declared_fact_is_a_template_error():
    bad = TOY_DOC.model_copy(deep=True)
    bad.sections[0].paragraphs[0].sentences[1].variants = ["Revenue was strong."]
    with pytest.raises(TemplateError, match="does not state"):
        write_document(toy_config(0, "Acme", 1, "2001-01-01"), seed=1, template=bad)


def test_same_seed_renders_the_same_document_and_phrasings_vary_with_it():
    config = toy_config(0, "Acme", 1, "2001-01-01")
    a = write_document(config, seed=1, template=TOY_DOC)
    assert a == write_document(config, seed=1, template=TOY_DOC)
    phrasings = {write_document(config, seed=s, template=TOY_DOC).content for s in range(20)}
    assert len(phrasings) == 2


def test_allocate_keeps_the_total_and_gives_every_type_a_question():
    mix = {"a": 0.9, "b": 0.05, "c": 0.05}
    assert allocate(10, mix) == {"a": 8, "b": 1, "c": 1}
    assert sum(allocate(97, mix).values()) == 97
    assert allocate(2, {"a": 0.5, "b": 0.3, "c": 0.2}) == {"a": 1, "b": 1, "c": 0}


def test_references_are_the_fewest_sentences_stating_every_answer_fact(corpus):
    _, docs, by_id = corpus
    rev = docs[0].sentences_stating("revenue")
    qra = QRA(domain="toy", language="en", query_type=QueryType.MULTI_HOP, template="t", question="q?",
              answer="Acme earned x", doc_ids=[0],
              facts=[_bound(docs, 0, "revenue"), _bound(docs, 0, "name")])
    refs = extract_references(qra, by_id).references
    assert len(rev) == 2
    # The recap sentence states both facts, so one reference suffices.
    assert [r.text for r in refs] == [f"In sum, Acme earned $12.5 million."]


def _bound(docs, doc_id, key) -> BoundFact:
    config_fact = next(s for s in docs[doc_id].sentences if key in s.facts)
    assert config_fact
    facts = {0: toy_config(0, "Acme", 12.5, "2001-05-04"), 1: toy_config(1, "Globex", 30, "1999-01-02")}
    return BoundFact(doc_id=doc_id, **facts[doc_id].facts[key].model_dump())


def test_refinement_adds_a_missed_supporting_sentence_and_drops_a_useless_one(corpus):
    _, docs, by_id = corpus
    filler = next(i for i, s in enumerate(docs[0].sentences) if not s.facts)
    qra = QRA(domain="toy", language="en", query_type=QueryType.FACTUAL, template="t", question="Revenue?",
              answer="Acme earned $12.5 million.", doc_ids=[0], facts=[_bound(docs, 0, "revenue")],
              references=[Reference(doc_id=0, sentence=filler, text=docs[0].sentences[filler].text)])
    refined, repairs = refine(qra, by_id)
    assert [r.sentence for r in refined.references] == [docs[0].sentences_stating("revenue")[0]]
    assert any("added" in r for r in repairs) and any("dropped" in r for r in repairs)


def test_refinement_rejects_an_answer_fact_no_sentence_supports(corpus):
    _, docs, by_id = corpus
    ghost = BoundFact(doc_id=0, key="ceo", kind="person", text="Jane Roe", value="Jane Roe")
    qra = QRA(domain="toy", language="en", query_type=QueryType.FACTUAL, template="t", question="Who?",
              answer="The CEO is Jane Roe.", doc_ids=[0], facts=[ghost])
    result = refine(qra, by_id)
    assert isinstance(result, Rejection) and "supports ceo" in result.reason


def test_refinement_rejects_an_answer_in_the_wrong_language(corpus):
    _, docs, by_id = corpus
    qra = QRA(domain="toy", language="en", query_type=QueryType.FACTUAL, template="t", question="Revenue?",
              answer="营收为 $12.5 million。", doc_ids=[0], facts=[_bound(docs, 0, "revenue")])
    result = refine(qra, by_id)
    assert isinstance(result, Rejection) and "not in en" in result.reason


def test_comparison_answers_are_computed_and_ties_rejected(corpus):
    configs, docs, _ = corpus
    qras, rejections = generate_qra(configs, docs, total=30, mix={"comparison": 1.0}, seed=3, templates=TOY_QRA)
    assert qras, "expected comparison questions"
    for q in qras:
        assert q.query_type is QueryType.COMPARISON and len(q.doc_ids) == 2
        winner = max(q.facts, key=lambda f: f.value)
        assert q.answer.startswith(configs[winner.doc_id].entity)
    # Acme and Initech both earned $12.5 million: that pair cannot be compared.
    assert any("tie on revenue" in r.reason and set(r.doc_ids) == {0, 2} for r in rejections)


def test_time_sequence_names_the_earlier_document_first(corpus):
    configs, docs, _ = corpus
    qras, _ = generate_qra(configs, docs, total=10, mix={"time_sequence": 1.0}, seed=3, templates=TOY_QRA)
    for q in qras:
        earlier = min(q.facts, key=lambda f: f.value)
        assert q.answer.startswith(f"{configs[earlier.doc_id].entity} was founded first")


def test_unanswerable_questions_are_rejected_when_the_corpus_states_the_term(corpus):
    configs, docs, _ = corpus
    qras, rejections = generate_qra(configs, docs, total=6, mix={"unanswerable": 1.0}, seed=3, templates=TOY_QRA)
    assert qras and all(q.template == "u.salary" for q in qras)
    assert all(q.answer == "Unable to answer" and not q.doc_ids and not q.references for q in qras)
    assert any(r.template == "u.eventful" and "eventful" in r.reason for r in rejections)


def test_generated_questions_are_distinct_and_spread_over_documents(corpus):
    configs, docs, _ = corpus
    qras, _ = generate_qra(configs, docs, total=6, mix={"factual": 1.0}, seed=3, templates=TOY_QRA)
    assert len({q.question for q in qras}) == len(qras) == 6
    assert {q.doc_ids[0] for q in qras} == {0, 1, 2}


def test_keypoints_must_carry_every_answer_fact(corpus):
    _, docs, _ = corpus
    fact = _bound(docs, 0, "revenue")
    base = QRA(domain="toy", language="en", query_type=QueryType.FACTUAL, template="t", question="q?",
               answer="Acme earned $12.5 million.", doc_ids=[0], facts=[fact])
    ok = base.model_copy(update={"keypoints": [Keypoint(text="Acme earned $12.5 million.", facts=[fact])]})
    assert check_keypoints(ok) == ok
    assert numbered(ok) == ["1. Acme earned $12.5 million."]
    missing = base.model_copy(update={"keypoints": [Keypoint(text="Acme did well.")]})
    assert isinstance(check_keypoints(missing), Rejection)
    too_many = base.model_copy(update={"keypoints": [Keypoint(text=f"k{i}") for i in range(9)]})
    assert "between 1 and 8" in check_keypoints(too_many).reason


def test_configs_are_the_same_when_groups_are_generated_on_parallel_threads():
    """The flow writes several groups at once; Faker's per-config reseeding must not race."""
    from concurrent.futures import ThreadPoolExecutor

    from dragonforge.domains import make_configs

    groups = [(d, lang) for d in ("finance", "law", "medical") for lang in ("en", "zh")]
    sequential = {g: make_configs(g[0], g[1], list(range(30)), seed=5) for g in groups}
    for _ in range(3):
        with ThreadPoolExecutor(max_workers=6) as pool:
            parallel = dict(zip(groups, pool.map(lambda g: make_configs(g[0], g[1], list(range(30)), seed=5), groups)))
        assert parallel == sequential


def test_a_corpus_states_a_latin_term_as_a_whole_word_in_any_case_even_through_unicode_folds():
    from dragonforge.qra import _states_term

    assert _states_term("The year was Eventful.", "eventful")
    assert not _states_term("The year was uneventful.", "eventful")
    assert not _states_term("Nothing here.", "salary")
    # re.IGNORECASE lets ſ (long s) and K (Kelvin sign) match s and k: the shortcut must not hide that
    assert _states_term("Annual ſalary paid.", "salary")
    assert _states_term("The \u212aey date.", "key")
    assert _states_term("年薪为30万元。", "年薪") and not _states_term("年薪为30万元。", "月薪")


def test_compiled_templates_are_cached_on_disk_and_an_unusable_cache_only_costs_time(tmp_path):
    import os
    import subprocess
    import sys

    script = ("from dragonforge.templating import render; "
              "print(render('{% for x in xs %}{{ x }}-{% endfor %}{{ name|upper }}', {'xs': [1, 2], 'name': 'ab'}))")

    def run(cache: str) -> str:
        env = {**os.environ, "DRAGONFORGE_CACHE_DIR": cache}
        proc = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
        return proc.stdout.strip()

    cache = tmp_path / "cache"
    assert run(str(cache)) == "1-2-AB"
    files = list((cache / "jinja").iterdir())
    assert files  # compiled once ...
    before = {f: f.stat().st_mtime_ns for f in files}
    assert run(str(cache)) == "1-2-AB"  # ... and read back, not rewritten
    assert {f: f.stat().st_mtime_ns for f in (cache / "jinja").iterdir()} == before
    for f in files:
        f.write_bytes(b"garbage")  # a damaged entry is recompiled
    assert run(str(cache)) == "1-2-AB"
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    assert run(str(blocked)) == "1-2-AB"  # cannot be created: no cache
    assert run("off") == "1-2-AB"
