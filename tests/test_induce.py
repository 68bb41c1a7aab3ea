"""Induction from seeds: value kinds, parsing, the leak lint, grounding of LLM proposals, the
figures against the hand-written gold sheets and the curated oracle, and the LLM paths against
the real local model. CLI behaviour end to end: tests/test_induce_cli.py."""

from __future__ import annotations

import datetime as dt
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from dragonforge.induce.infer import induce
from dragonforge.induce.leak import lint
from dragonforge.induce.parse import parse
from dragonforge.induce.values import classify

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))


def seeds(genre: str, language: str) -> list[tuple[str, str]]:
    return [(p.name, p.read_text(encoding="utf-8")) for p in sorted((ROOT / "seeds" / genre / language).glob("*.txt"))]


@pytest.mark.parametrize(("text", "language", "kind"), [
    ("March 4, 2024", "en", "date"), ("4 March 2024", "en", "date"), ("2024-03-04", "en", "date"),
    ("2024年3月4日", "zh", "date"), ("May 2025", "en", "date"),
    ("01/19/2025, approx. 6:15 PM", "en", "datetime"),
    ("$1,200,000", "en", "money"), ("USD 12,400.00", "en", "money"), ("$1.2 million", "en", "money"),
    ("2.1万元", "zh", "money"), ("41,700元", "zh", "money"),
    ("33.7%", "en", "percent"), ("2 hours 10 minutes", "en", "duration"), ("2小时15分钟", "zh", "duration"),
    ("42 m³", "en", "quantity"), ("24.6吨", "zh", "quantity"), ("51人", "zh", "count"), ("18/25", "en", "count"),
    ("CLM-2024-100934", "en", "code"), ("Cole & Daughters Bakery LLC", "en", "organisation"),
    ("锦江财产保险有限公司", "zh", "organisation"), ("Priya Raman", "en", "person"), ("罗婷", "zh", "person"),
    ("402 Market Street, Fairhaven, OH 43221", "en", "address"), ("四川省成都市武侯区玉林北路17号2栋8楼", "zh", "address"),
    # a composite value is the kind of its head; a formula is the kind of its result
    ("Gareth Lomax, Senior Supplier Quality Engineer, joined 2019", "en", "person"),
    ("GB-Q-118842 (valid until 11 March 2026)", "en", "code"), ("8小时×450元=3,600元", "zh", "money"),
    # approximate counts; a long digit string is an identifier; a long Chinese name is not prose
    ("约320人", "zh", "count"), ("共6人", "zh", "count"), ("近320人", "zh", "count"), ("320506202311200301", "zh", "code"),
    ("滨江新城轨道交通3号线土建施工第5标段鹭洲站", "zh", "text"),
    ("今日完成管片拼装12环，累计完成486环，盾构姿态正常。", "zh", "narrative"),
])
def test_values_are_typed_by_their_form(text, language, kind):
    assert classify(text, language).kind == kind


def test_dates_and_amounts_are_read_as_what_they_stand_for():
    assert classify("4 March 2024", "en").day == dt.date(2024, 3, 4)
    assert classify("$1.2 million", "en").number == 1_200_000
    assert classify("2.1万元", "zh").number == 21_000
    assert classify("2 hours 10 minutes", "en").number == 130


def test_parsing_tells_numbered_headings_from_numbered_lists_and_reads_dot_leaders():
    doc = parse("Claim Report\n\n1. Claim Details\nPolicy No.: HP-1\nInsured ........ Ann Lee\n\n"
                "2. Actions\n1. Call the insured\n2. Order the survey\n", "a.txt", "en")
    assert [s.title for s in doc.sections if s.title] == ["Claim Details", "Actions"]
    assert [(f.label, f.value.text) for f in doc.fields] == [("Policy No.", "HP-1"), ("Insured", "Ann Lee")]
    assert [len(run) for s in doc.sections for run in s.runs] == [2]


def test_a_clock_time_is_no_label():
    doc = parse("Log\n\nTimeline\n09:12 UTC - alert fired\n09:30 UTC - rollback started\n", "a.txt", "en")
    assert doc.fields == [] and [r.marker for s in doc.sections for run in s.runs for r in run] == ["time", "time"]


@pytest.fixture(scope="module")
def claim_en():
    return induce(seeds("insurance_claim", "en"), "insurance_claim", "en")


def test_induction_merges_label_aliases_and_finds_items_totals_and_date_order(claim_en):
    ind = claim_en
    insured = next(s for s in ind.slots.values() if "Policyholder" in s.labels)
    assert {"Insured", "Named insured", "Insured business"} <= set(insured.labels) and ind.entity == insured.name
    assert any(g.layout == "items" and g.totals for g in ind.groups.values())
    total = ind.slots[next(g for g in ind.groups.values() if g.totals).totals[0]]
    assert total.derived and "sum(attribute='amount')" in total.derived
    assert any(s.spec.get("after") for s in ind.slots.values())  # a date drawn after another


def test_the_pack_holds_no_seed_value_but_genre_vocabulary(claim_en):
    from dragonforge.induce.write import pack_files

    files = pack_files(claim_en)
    text = files["genre.yaml"] + files["en.yaml"] + files["leak.json"]
    for value in ("Cole & Daughters Bakery LLC", "CLM-2024-100934", "Priya Raman", "402 Market Street", "$69,480",
                  "an electrical fault in the proving cabinet"):
        assert value not in text


def _drawn(ind, tmp_path: Path, n: int = 20) -> list[tuple[str, str]]:
    from dragonforge.genre.pack import load_genre
    from dragonforge.induce import _drawn_documents
    from dragonforge.induce.write import pack_files

    for name, text in pack_files(ind).items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return _drawn_documents(load_genre(tmp_path), ind.language, n)


def test_the_leak_lint_is_clean_on_drawn_documents_and_fails_on_a_planted_seed_value(claim_en, tmp_path):
    docs = _drawn(claim_en, tmp_path)
    assert lint(docs, claim_en.fingerprint).problems == []
    planted = [(i, t.replace("\n", "\nInsured: Margaret Ellison\n", 1)) for i, t in docs[:1]] + docs[1:]
    result = lint(planted, claim_en.fingerprint)
    assert len(result.problems) == 1 and "distinctive seed value" in result.problems[0]
    assert "Margaret Ellison" not in result.problems[0]  # the lint's output may be shared: masked


def test_the_leak_lint_fails_on_a_run_of_seed_prose_and_on_a_copied_seed(claim_en, tmp_path):
    docs = _drawn(claim_en, tmp_path, 3)
    seed_sentence = ("The fire investigator's report confirms that the fire started inside the cabinet and spread no "
                     "further than the bakehouse.")
    problems = lint([(d, t + "\n" + seed_sentence) for d, t in docs[:1]], claim_en.fingerprint).problems
    assert any("run of seed prose" in p for p in problems)
    copied = seeds("insurance_claim", "en")[0][1]
    problems = lint([("copy", copied.replace("Cole", "Kole"))], claim_en.fingerprint).problems
    assert any("close to seed 1" in p for p in problems)


def test_the_fingerprint_round_trips_and_carries_no_seed_text(claim_en):
    from dragonforge.induce.leak import Fingerprint

    text = claim_en.fingerprint.to_json()
    assert "Cole" not in text and "Raman" not in text
    again = Fingerprint.from_json(text)
    assert again.values == claim_en.fingerprint.values and again.h("Priya Raman") in again.values


def test_seeds_of_two_genres_are_refused():
    from dragonforge.errors import InputError

    mixed = seeds("insurance_claim", "en")[:2] + seeds("supplier_audit", "en")[:2]
    with pytest.raises(InputError, match="one genre"):
        induce(mixed, "x", "en")


# --- grounding of the LLM's proposal (error paths: the reply is scripted) ------------------------


class _Scripted:
    """A PackLLM whose one reply is given (the real model: test_induce_llm_* below)."""

    def __init__(self, reply: dict):
        from dragonforge.induce.grounded import PackProposal
        from dragonforge.llm import Completion

        self.settings = type("S", (), {"model": "scripted"})()
        self.done = Completion(value=PackProposal.model_validate(reply))

    def propose(self, messages, language):
        return self.done, {"induce": {"scripted": {"calls": 1}}}


def test_only_grounded_proposals_survive_and_every_rejection_is_counted():
    from dragonforge.induce.grounded import refine_with_llm

    texts = seeds("insurance_claim", "en")
    ind = induce(texts, "insurance_claim", "en")
    insured = next(n for n, s in ind.slots.items() if "Policyholder" in s.labels)
    reply = {"slots": [
        {"name": "police_reference", "kind": "code", "labels": ["Police crime reference"],
         "seed_value": "SB/24/33871"},  # a seed writes it, under that label: grounded
        {"name": "vehicle", "kind": "text", "labels": ["Vehicle"], "seed_value": "a red van"},  # in no seed
        {"name": "broker", "kind": "organisation", "labels": ["Broker"], "synthetic": True},  # synthetic, Faker
        {"name": "loss_weather", "kind": "weather", "labels": ["Weather"], "seed_value": "rain"},  # no such kind
        {"name": insured, "kind": "party", "labels": ["The Insured Party"]},  # a label no seed writes
    ], "constraints": [f"{insured} > 3", "no_such_slot > 1"]}
    ind, report = refine_with_llm(_Scripted(reply), ind, texts)
    reasons = report["rejected_by_reason"]
    assert reasons["slot: its seed value is in no seed"] == 1 and reasons["slot: unknown kind"] == 1
    assert reasons["label: in no seed"] == 1 and reasons["constraint: names no slot of the pack"] == 1
    assert "broker" in ind.slots and "vehicle" not in ind.slots and "loss_weather" not in ind.slots
    assert "police_reference" in ind.slots and ind.slots["police_reference"].spec["pattern"] == "??/##/#####"
    assert report["rejected"] == sum(reasons.values()) >= 5


def _site_log(title: str, label: str, name: str, code: str, org: str, city: str, extra: str = "") -> str:
    return (f"{title}\n\n{label}：{name}\n项目编号：{code}\n日期：2024-0{len(name) % 9 + 1}-12\n"
            f"施工单位：{city}{org}建设有限公司\n地址：浙江省{city}市和平路{len(name)}号\n天气：晴\n{extra}"
            f"记录人：韩启航\n")


def test_labels_no_seed_writes_together_join_into_one_slot_and_it_names_the_document():
    """Four seeds name their project under four labels (工程名称, 工程, 项目名称, 项目) that pair
    off by shared words: the pairs are one slot, and that slot, not the contractor that shares the
    city in its name with the title, is the entity."""
    texts = [
        ("a.txt", _site_log("临江区滨河路改造工程施工日志", "工程名称", "临江区滨河路改造工程", "LJ-2024-018", "临江市政", "临江")),
        ("b.txt", _site_log("施工日志", "工程", "澄湖雅苑二期7#住宅楼", "CH-2023-007", "恒基筑城", "苏州")),
        ("c.txt", _site_log("施工日报", "项目名称", "滨江新城轨道交通3号线土建施工第5标段鹭洲站", "BJ-2022-305",
                            "华晟轨道", "福州")),
        ("d.txt", _site_log("项目日报", "项目", "宁远智能装备产业园3#厂房钢结构工程", "NY-2025-003", "鼎冶钢构", "合肥")),
    ]
    ind = induce(texts, "site_log", "zh")
    project = next(s for s in ind.slots.values() if "工程名称" in s.labels)
    assert set(project.labels) == {"工程名称", "工程", "项目名称", "项目"} and len(project.seeds) == 4
    assert ind.entity == project.name


def test_working_hours_do_not_join_a_permit_number_but_a_certificate_written_in_words_does():
    base = "施工日报\n\n项目编号：{code}\n日期：2024-05-1{n}\n施工单位：{org}建设有限公司\n{line}\n"
    texts = [
        ("a.txt", base.format(code="AB-2024-01", n=1, org="恒基", line="动火作业许可证：DH-20250116-02")),
        ("b.txt", base.format(code="AB-2024-02", n=2, org="华晟", line="占道施工许可证：临占许字〔2024〕第0417号")),
        ("c.txt", base.format(code="AB-2024-03", n=3, org="鼎冶", line="作业时间：白班07:00—19:00，夜班20:00—次日06:00")),
        ("d.txt", base.format(code="AB-2024-04", n=4, org="木语", line="施工许可证号：320506202311200301")),
    ]
    ind = induce(texts, "site_log", "zh")
    permit = next(s for s in ind.slots.values() if "动火作业许可证" in s.labels)
    assert set(permit.labels) == {"动火作业许可证", "占道施工许可证", "施工许可证号"}
    assert "作业时间" not in {label for s in ind.slots.values() for label in s.labels}
    assert not any("\u4e00" <= ch <= "\u9fff" or ":" in ch for ch in permit.spec["pattern"]), permit.spec


def test_a_date_written_after_a_name_is_a_slot_of_its_own_under_the_label_a_seed_wrote():
    texts = [
        ("a.txt", "INCIDENT REVIEW — auth-gateway outage\n\nService: auth-gateway\nIncident: INC-2023-1183\n"
                  "Reviewed by: Claire Dubois on 2024-07-24\n"),
        ("b.txt", "Postmortem: checkout-api latency\n\nService: checkout-api\nIncident: INC-2024-1107\n"
                  "Reviewed by: Helen Osei\nReview date: 2024-11-14\n"),
        ("c.txt", "INCIDENT REVIEW — search-indexer stall\n\nService: search-indexer\nIncident: INC-2025-0412\n"
                  "Sign-off: Oliver Grant, 2025-04-09\n"),
    ]
    ind = induce(texts, "postmortem", "en")
    reviewer = next(s for s in ind.slots.values() if "Reviewed by" in s.labels)
    date = next(s for s in ind.slots.values() if "Review date" in s.labels)
    assert reviewer.kind == "person"
    assert sorted(v.text for v in reviewer.values) == ["Claire Dubois", "Helen Osei", "Oliver Grant"]
    assert date.kind == "date" and len(date.seeds) == 3 and date.labels[0] == "Review date"
    # a title in capitals is quoted as it stands, not lower-cased into "the iNCIDENT REVIEW"
    assert ind.anchor.startswith("the document titled INCIDENT REVIEW — {{ "), ind.anchor


# --- the figures: gold sheets and the curated oracle (bench/induction_*.py) ----------------------

# The targets, on every gold sheet written before the inducer existed; the README quotes
# the full table (bench/results/induction.json).
HELD = {path.stem: dict(recall=0.8, precision=0.7, kinds=0.85, entity=True)
        for path in sorted((ROOT / "bench" / "induction" / "gold").glob("*.yaml"))}


@pytest.mark.parametrize("key", sorted(HELD))
def test_induced_slots_match_the_gold_sheet(key):
    from induction_gold import GOLD, run

    result = run(GOLD / f"{key}.yaml")
    held = HELD[key]
    assert result["recall"] >= held["recall"] and result["precision"] >= held["precision"], result
    assert result["kind_accuracy"] >= held["kinds"] and result["entity_right"] == held["entity"], result
    assert result["groups_found"] >= 1 and result["lint_problems"] == 0, result


def test_every_gold_genre_goes_from_seeds_to_a_valid_leak_free_benchmark_unedited(tmp_path):
    """Four genres, both languages: induce, check (inside induce), build, validate; and the
    slots found hold at least what the README's table says."""
    import yaml
    from induction_gold import GOLD, score

    from dragonforge.induce import induce_pack
    from dragonforge.validate import validate_benchmark

    for path in sorted(GOLD.glob("*.yaml")):
        gold = yaml.safe_load(path.read_text(encoding="utf-8"))
        pack = tmp_path / path.stem / "pack"
        result = induce_pack(sorted((ROOT / gold["seeds"]).glob("*.txt")), gold["genre"], gold["language"], pack)
        figures = score(result.induction, gold)
        assert figures["recall"] >= 0.8 and figures["precision"] >= 0.9, (path.name, figures)
        assert figures["kind_accuracy"] >= 0.84, (path.name, figures)
        assert figures["groups_found"] >= 1 and result.lint["problems"] == 0, (path.name, figures)
        out = tmp_path / path.stem / "bench"
        proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "build", "--genre", str(pack), "--docs", "12",
                               "--out", str(out), "-q"], capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, (path.name, proc.stderr)
        assert validate_benchmark(out) == [], path.name
        leak = json.loads((out / "manifest.json").read_text())["leak"][gold["genre"]]
        assert leak["checked"] and leak["problems"] == 0, (path.name, leak)


def test_self_induction_from_30_generated_finance_documents_recovers_the_curated_slots():
    from induction_oracle import score_generated

    result = score_generated("finance", "en", 30)
    assert result["recall"] >= 0.85, result
    assert result["precision"] >= 0.8, result


# --- the LLM paths against the real local model ---------------------------------------------------


@pytest.mark.llm
def test_induce_with_the_local_model_keeps_only_grounded_proposals_and_counts_the_rest(llama_server, tmp_path):
    out = tmp_path / "pack"
    files = sorted((ROOT / "seeds" / "insurance_claim" / "en").glob("*.txt"))
    proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "induce", *map(str, files), "--genre",
                           "insurance_claim", "--language", "en", "--out", str(out), "--engine", "llm",
                           "--base-url", llama_server.base_url, "--model", llama_server.model, "--max-tokens", "400"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    report = (out / "induction-report.md").read_text(encoding="utf-8")
    # one proposal call, and a retry when the model's reply was cut off or the server was slow
    calls = re.search(r"^- calls: (\d+)$", report, re.M)
    assert "## LLM proposal" in report and calls and 1 <= int(calls.group(1)) <= 8, report
    llm_line = next(line for line in proc.stderr.splitlines() if line.startswith("llm:"))
    assert "proposed" in llm_line or "no valid proposal" in llm_line
    check = subprocess.run([sys.executable, "-m", "dragonforge.cli", "check-genre", str(out), "--samples", "20"],
                           capture_output=True, text=True, timeout=120)
    assert check.returncode == 0, check.stdout + check.stderr


@pytest.mark.llm
def test_a_corpus_build_with_the_local_model_checks_every_fact_verbatim(llama_server, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("CLM-2023-004512.txt", "claim_77310.html", "memo_parking_policy_2023.txt"):
        (corpus / name).write_bytes((ROOT / "corpora" / "insurance_claim" / "en" / name).read_bytes())
    pack = tmp_path / "pack"
    files = sorted((ROOT / "seeds" / "insurance_claim" / "en").glob("*.txt"))
    cli = [sys.executable, "-m", "dragonforge.cli"]
    assert subprocess.run(cli + ["induce", *map(str, files), "--genre", "insurance_claim", "--language", "en",
                                 "--out", str(pack)], capture_output=True, timeout=120).returncode == 0
    out = tmp_path / "bench"
    proc = subprocess.run(cli + ["build", "--corpus", str(corpus), "--genre", str(pack), "--out", str(out), "-q",
                                 "--engine", "llm", "--base-url", llama_server.base_url, "--model", llama_server.model,
                                 "--max-tokens", "300"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    from dragonforge.validate import validate_benchmark

    assert validate_benchmark(out) == []
    manifest = json.loads((out / "manifest.json").read_text())
    rows = [json.loads(line) for line in (out / "extraction.jsonl").read_text().splitlines()]
    counted = sum(len(r["llm_rejected"]) for r in rows)
    assert manifest["fallbacks"]["llm_facts_rejected"] == counted
    assert manifest["llm_usage"]["extract"][llama_server.model]["calls"] == 3
    docs = {json.loads(line)["doc_id"]: json.loads(line) for line in (out / "documents.jsonl").read_text().splitlines()}
    for row in rows:
        for fact in row["facts"]:
            if fact.get("how") == "LLM, checked verbatim":
                assert fact["text"] in docs[row["doc_id"]]["content"]
