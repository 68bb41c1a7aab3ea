"""Genre packs: a domain written in YAML, built offline with no Python, through the real CLI.

The checks of generated values parse the documents' text with their own small parser (labels
from the pack's language file, amounts and dates read back from their written form), never
the configs the generator drew, so a generator that wrote one value and recorded another fails.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest
import yaml

from dragonforge.validate import validate_benchmark

ROOT = Path(__file__).resolve().parent.parent
PACKS = ROOT / "packs"
INSURANCE = PACKS / "insurance_claim"
ALL_TYPES = {"Factual Question", "Multi-hop Reasoning Question", "Summary Question",
             "Multi-document Information Integration Question", "Multi-document Comparison Question",
             "Multi-document Time Sequence Question", "Irrelevant Unsolvable Question"}


def _cli(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "dragonforge.cli", *args], capture_output=True, text=True,
                          cwd=cwd, timeout=300)


def _records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def insurance(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("genre") / "insurance"
    proc = _cli("build", "--genre", str(INSURANCE), "--docs", "20", "--queries-per-doc", "10", "--out", str(out),
                "--quiet", cwd=out.parent)
    assert proc.returncode == 0, proc.stderr
    return out


def test_a_genre_pack_builds_a_valid_benchmark_of_every_question_type_in_both_languages(insurance):
    assert validate_benchmark(insurance) == []
    documents = _records(insurance / "documents.jsonl")
    queries = _records(insurance / "queries.jsonl")
    assert Counter((d["domain"], d["language"]) for d in documents) == {("Insurance", "en"): 20, ("Insurance", "zh"): 20}
    for language in ("en", "zh"):
        types = {q["query"]["query_type"] for q in queries if q["language"] == language}
        manifest = json.loads((insurance / "manifest.json").read_text())
        missing = ALL_TYPES - types
        assert not missing or manifest["shortfall"], (language, missing)
        assert types == ALL_TYPES, (language, missing)
    by_id = {d["doc_id"]: d for d in documents}
    for q in queries:
        for ref in q["ground_truth"]["references"]:
            assert any(ref in by_id[i]["content"] for i in q["ground_truth"]["doc_ids"]), (q["query"], ref)
    # the pack's own entity field and the uniform one
    assert all(d["policyholder_name"] == d["entity"] and d["entity"] for d in documents)


def test_the_same_seed_gives_byte_identical_files(insurance, tmp_path):
    again = tmp_path / "again"
    proc = _cli("build", "--genre", str(INSURANCE), "--docs", "20", "--queries-per-doc", "10", "--out", str(again),
                "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    for name in ("documents.jsonl", "queries.jsonl", "configs.jsonl", "provenance.jsonl", "rejected.jsonl"):
        assert (again / name).read_bytes() == (insurance / name).read_bytes(), name


def test_a_pack_built_beside_a_curated_domain_gives_what_it_gives_alone(tmp_path):
    mixed, alone = tmp_path / "mixed", tmp_path / "alone"
    assert _cli("build", "--domains", "finance", "--genre", str(INSURANCE), "--docs", "5", "--out", str(mixed),
                "--quiet", cwd=tmp_path).returncode == 0
    assert _cli("build", "--genre", str(INSURANCE), "--docs", "5", "--out", str(alone), "--quiet",
                cwd=tmp_path).returncode == 0
    assert validate_benchmark(mixed) == []

    def group(out: Path, label: str):
        docs = [d for d in _records(out / "documents.jsonl") if d["domain"] == label]
        order = {d["doc_id"]: i for i, d in enumerate(docs)}  # ids differ: documents by position
        queries = [(q["query"]["query_type"], q["query"]["content"], q["ground_truth"]["content"],
                    [order[i] for i in q["ground_truth"]["doc_ids"]], q["ground_truth"]["references"],
                    q["ground_truth"]["keypoints"])
                   for q in _records(out / "queries.jsonl") if q["domain"] == label]
        return [(d["language"], d["content"]) for d in docs], queries

    assert group(mixed, "Insurance") == group(alone, "Insurance")
    assert {d["domain"] for d in _records(mixed / "documents.jsonl")} == {"Finance", "Insurance"}


# --- values read back from the text -----------------------------------------------------------------

_MONTHS = {m: i for i, m in enumerate(["January", "February", "March", "April", "May", "June", "July", "August",
                                      "September", "October", "November", "December"], 1)}


def _money(text: str) -> float:
    text = text.strip().rstrip("。.")
    m = re.fullmatch(r"\$([\d,]+(?:\.\d+)?)(?: (million|billion))?", text)
    if m:
        return float(m.group(1).replace(",", "")) * {None: 1, "million": 1e6, "billion": 1e9}[m.group(2)]
    m = re.fullmatch(r"([\d,]+(?:\.\d+)?)(万|亿)?元", text)
    assert m, f"not an amount: {text!r}"
    return float(m.group(1).replace(",", "")) * {None: 1, "万": 1e4, "亿": 1e8}[m.group(2)]


def _date(text: str) -> dt.date:
    text = text.strip().rstrip("。.")
    m = re.fullmatch(r"(\w+) (\d{1,2}), (\d{4})", text)
    if m:
        return dt.date(int(m.group(3)), _MONTHS[m.group(1)], int(m.group(2)))
    m = re.fullmatch(r"(\d{4})年(\d{1,2})月(\d{1,2})日", text)
    assert m, f"not a date: {text!r}"
    return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))


def _labelled(content: str, labels: list[str]) -> list[str]:
    """Values of ``Label: value`` lines for any of the labels."""
    found = []
    for line in content.splitlines():
        for label in labels:
            for sep in (": ", "："):
                if line.startswith(label + sep):
                    found.append(line[len(label + sep):])
    return found


def test_values_read_back_from_the_text_satisfy_the_constraints_and_totals_add_up(insurance):
    for language in ("en", "zh"):
        text = yaml.safe_load((INSURANCE / f"{language}.yaml").read_text(encoding="utf-8"))["slots"]
        section = {"en": ("Damage Assessment", "Assessment of Loss", "Quantum"),
                   "zh": ("损失核定", "定损明细", "损失金额核定")}[language]
        for doc in (d for d in _records(insurance / "documents.jsonl") if d["language"] == language):
            content = doc["content"]
            [total] = _labelled(content, text["total_loss"]["labels"])
            [deductible] = _labelled(content, text["deductible"]["labels"])
            [net] = _labelled(content, text["net_payable"]["labels"])
            # the item lines: between the assessment heading and the total line
            block = next(b for b in content.split("\n\n") if b.splitlines()[0].endswith(section))
            items = [line.split("：" if language == "zh" else ": ", 1)[1] for line in block.splitlines()[1:]
                     if not any(line.startswith(lab) for key in ("total_loss", "deductible", "net_payable")
                                for lab in text[key]["labels"])]
            assert 2 <= len(items) <= 5, block
            assert abs(sum(map(_money, items)) - _money(total)) < 0.01, block
            assert abs(_money(total) - _money(deductible) - _money(net)) < 0.01, block
            assert _money(net) > 0
            [loss] = _labelled(content, text["loss_date"]["labels"])
            [reported] = _labelled(content, text["reported_date"]["labels"])
            [inspected] = _labelled(content, text["inspection_date"]["labels"])
            assert _date(loss) <= _date(reported) <= _date(loss) + dt.timedelta(days=6)
            assert _date(reported) < _date(inspected)


def test_a_hundred_documents_of_a_pack_are_diverse(tmp_path):
    """Open slots (names, addresses, codes) take a value of their own in nearly every document;
    the entity is unique; and no two documents share half their lines. A document has about 20
    lines, 4 to 6 of which come from closed pools of 4 to 12 values (claim type, cause, item
    names, recommendation): two documents sharing half their lines would mean the open values
    repeat, which is what a generator that ignored its seed would do."""
    out = tmp_path / "hundred"
    proc = _cli("build", "--genre", str(INSURANCE), "--languages", "en", "--docs", "100", "--queries-per-doc", "1",
                "--out", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    documents = _records(out / "documents.jsonl")
    assert len({d["entity"] for d in documents}) == 100
    text = yaml.safe_load((INSURANCE / "en.yaml").read_text(encoding="utf-8"))["slots"]
    for slot in ("claim_number", "policy_number", "property_address", "adjuster"):
        values = [v for d in documents for v in _labelled(d["content"], text[slot]["labels"])]
        assert len(values) == 100 and len(set(values)) >= 95, (slot, len(set(values)))
    lines = [set(d["content"].splitlines()[1:]) for d in documents]
    overlap = max(len(a & b) / min(len(a), len(b)) for a, b in combinations(lines, 2))
    assert overlap < 0.5, overlap


def test_the_manifest_records_the_pack_and_a_changed_pack_is_a_different_build(insurance, tmp_path):
    manifest = json.loads((insurance / "manifest.json").read_text())
    assert manifest["domains"]["insurance_claim"]["label"] == "Insurance"
    sha = manifest["params"]["packs"]["insurance_claim"]
    assert manifest["domains"]["insurance_claim"]["sha256"] == sha and len(sha) == 64
    pack = tmp_path / "pack"
    shutil.copytree(INSURANCE, pack)
    out = tmp_path / "out"
    assert _cli("build", "--genre", str(pack), "--docs", "2", "--out", str(out), "--quiet",
                cwd=tmp_path).returncode == 0
    before = {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and ".dragonforge" not in p.parts}
    genre = pack / "genre.yaml"
    genre.write_text(genre.read_text().replace("range: [250, 5000], round: 250", "range: [500, 5000], round: 500"))
    proc = _cli("build", "--genre", str(pack), "--docs", "2", "--out", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode != 0 and "different" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert {p: p.read_bytes() for p in out.rglob("*") if p.is_file() and ".dragonforge" not in p.parts} == before


# --- bad packs ------------------------------------------------------------------------------------


def _broken(tmp_path: Path, file: str, old: str, new: str) -> Path:
    pack = tmp_path / "pack"
    shutil.copytree(INSURANCE, pack)
    path = pack / file
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return pack


@pytest.mark.parametrize("file, old, new, words", [
    ("genre.yaml", "repair_days:    {kind: duration", "repair_days:    {kind: durations",
     ["genre.yaml:", "slots.repair_days.kind", "Input should be"]),
    ("genre.yaml", '"total_loss < sum_insured"', '"total_loss > sum_insured * 100"',
     ["the loss stays below the sum insured", "200 draws"]),
    ("genre.yaml", "slots: [sum_insured, repair_days, finding, recommendation]",
     "slots: [sum_insured, finding, recommendation]", ["genre.yaml:", "repair_days", "stated by no section"]),
    ("genre.yaml", 'deductible:     {kind: money, range: [250, 5000], round: 250}',
     'deductible:     {kind: money, derived: "net_payable - total_loss"}', ["cycle", "deductible"]),
    ("en.yaml", "anchor: \"the claim of {{ policyholder }}\"", "anchor: [the claim of",
     ["en.yaml:", "broken YAML"]),
    ("en.yaml", 'anchor: "the claim of {{ policyholder }}"',
     "anchor: \"{{ policyholder.__class__.__mro__[1].__subclasses__() }}\"", ["en.yaml", "unsafe"]),
])
def test_a_bad_pack_is_refused_in_one_line_before_anything_is_written(tmp_path, file, old, new, words):
    pack = _broken(tmp_path, file, old, new)
    out = tmp_path / "out"
    out.mkdir()
    (out / "mine.txt").write_text("kept")
    proc = _cli("build", "--genre", str(pack), "--docs", "3", "--out", str(out), cwd=tmp_path)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


def test_check_genre_reports_what_a_pack_gives_and_what_it_cannot(tmp_path):
    proc = _cli("check-genre", str(INSURANCE), "--samples", "40", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    out = proc.stdout
    assert "40 documents drawn and rendered" in out and out.strip().endswith("ok")
    for short in ("factual", "multi_hop", "summary", "integration", "comparison", "time_sequence", "unanswerable"):
        assert re.search(rf"en: .*\b{short} [1-9]", out), short
    # a pack without numbers or dates says which types it cannot give, and why
    pack = tmp_path / "plain"
    shutil.copytree(INSURANCE, pack)
    genre = yaml.safe_load((pack / "genre.yaml").read_text())
    genre["questions"] = {"comparable": [], "ordered": []}
    (pack / "genre.yaml").write_text(yaml.safe_dump(genre, allow_unicode=True))
    proc = _cli("check-genre", str(pack), "--samples", "10", cwd=tmp_path)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "no comparison questions: no numeric slot" in proc.stdout
    assert "no time_sequence questions: no date" in proc.stdout


def test_an_installed_plugin_registers_its_pack_through_the_entry_point_group(tmp_path):
    """A package installed with an entry point in ``dragonforge.packs`` adds a domain that
    ``--domains`` accepts, without --genre."""
    pack = tmp_path / "pack"
    shutil.copytree(INSURANCE, pack)
    genre = pack / "genre.yaml"
    genre.write_text(genre.read_text().replace("name: insurance_claim", "name: marine_claim")
                     .replace("label: Insurance", "label: Marine"))
    site = tmp_path / "site"
    (site / "marine_plugin-1.0.dist-info").mkdir(parents=True)
    (site / "marine_plugin-1.0.dist-info" / "METADATA").write_text("Metadata-Version: 2.1\nName: marine-plugin\n"
                                                                     "Version: 1.0\n")
    (site / "marine_plugin-1.0.dist-info" / "entry_points.txt").write_text(
        "[dragonforge.packs]\nmarine = marine_plugin:pack\n")
    (site / "marine_plugin.py").write_text(
        "from pathlib import Path\nfrom dragonforge.genre.pack import load_genre\n\n"
        f"def pack():\n    return load_genre(Path({str(pack)!r}))\n")
    out = tmp_path / "out"
    env = {**__import__("os").environ, "PYTHONPATH": str(site)}
    proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "build", "--domains", "marine_claim,law",
                           "--docs", "2", "--out", str(out), "--quiet"], capture_output=True, text=True, cwd=tmp_path,
                          env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    assert {d["domain"] for d in _records(out / "documents.jsonl")} == {"Marine", "Law"}
    assert validate_benchmark(out) == []


@pytest.mark.parametrize("pack", ["insurance_claim", "incident_postmortem"])
def test_the_shipped_seeds_teach_form_only_no_seed_value_or_sentence_reaches_a_document(pack, tmp_path):
    """The packs were written beside their seeds; nothing distinctive of a seed (an English run
    of 8 words, a Chinese run of 15 characters, a code or an amount with digits) may appear in
    what the pack generates."""
    out = tmp_path / "out"
    assert _cli("build", "--genre", str(PACKS / pack), "--docs", "30", "--queries-per-doc", "2", "--out", str(out),
                "--quiet", cwd=tmp_path).returncode == 0
    corpus = "\n".join(d["content"] for d in _records(out / "documents.jsonl"))
    def eight_grams(text: str) -> set[str]:  # within a line: a heading above a label line is form
        return {" ".join(w[i:i + 8]) for line in text.splitlines() if (w := re.findall(r"\w+", line))
                for i in range(len(w) - 7)}

    grams = eight_grams(corpus)
    for seed in sorted((ROOT / "seeds" / pack).rglob("*.txt")):
        text = seed.read_text(encoding="utf-8")
        leaked = sorted(g for g in eight_grams(text) & grams if re.search(r"[A-Za-z]", g))
        assert not leaked, (seed.name, leaked[:3])
        corpus_cjk = "\n".join(re.sub(r"[^\u4e00-\u9fff]", "", line) for line in corpus.splitlines())
        runs = [c[i:i + 15] for line in text.splitlines() if (c := re.sub(r"[^\u4e00-\u9fff]", "", line))
                for i in range(len(c) - 14) if c[i:i + 15] in corpus_cjk]
        assert not runs, (seed.name, runs[:3])
        codes = re.findall(r"[A-Z]{2,}-[A-Z0-9-]*\d{3,}", text)
        amounts = [a for a in re.findall(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?", text)
                   if float(a.replace(",", "")) % 100]  # round amounts ($2,500) are no one's secret
        # values are drawn, never copied: no seed code in the output, no seed amount in the pack
        # (a drawn amount may equal a seed's by chance; the leak lint of a build is issue 11's)
        pack_text = "\n".join(p.read_text(encoding="utf-8") for p in (PACKS / pack).glob("*.yaml"))
        for token in set(codes):
            assert token not in corpus, (seed.name, token)
        for token in set(amounts + codes):
            assert not re.search(rf"(?<![\d,]){re.escape(token)}(?![\d,])", pack_text), (seed.name, token)


def test_the_postmortem_pack_builds_every_type_and_its_timeline_reads_in_order(tmp_path):
    out = tmp_path / "postmortem"
    proc = _cli("build", "--genre", str(PACKS / "incident_postmortem"), "--docs", "20", "--queries-per-doc", "10",
                "--out", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert validate_benchmark(out) == []
    queries = _records(out / "queries.jsonl")
    for language in ("en", "zh"):
        assert {q["query"]["query_type"] for q in queries if q["language"] == language} == ALL_TYPES
    for doc in _records(out / "documents.jsonl"):
        pattern = r"^\+(\d+) min: " if doc["language"] == "en" else r"^第(\d+)分钟："
        minutes = [int(m) for m in re.findall(pattern, doc["content"], re.MULTILINE)]
        assert 3 <= len(minutes) <= 5 and minutes == sorted(minutes), doc["content"]
        # the time to detect is shorter than the outage (a constraint), both read from the text
        detect = re.search(r"(?:Time to detect|Detection delay|发现耗时|故障发现时长)[:：] ?(\d+)", doc["content"])
        outage = re.search(r"(?:duration of the outage|outage duration|故障持续时长|服务中断时长)\D{0,12}?(\d[\d,]*)",
                           doc["content"])
        assert detect and outage, doc["content"]
        assert int(detect.group(1)) < int(outage.group(1).replace(",", ""))


_EVERY_KIND = {
    "genre.yaml": """
name: site_survey
label: Survey
entity: {slot: site, field: site_name}
slots:
  site: {kind: party, mix: {organisation: 1.0}}
  surveyor: {kind: person}
  town: {kind: place}
  address: {kind: address}
  ref: {kind: code, pattern: "SV-{year:visit}-###"}
  visit: {kind: datetime, window: [2022-01-01, 2024-12-31]}
  survey_date: {kind: date, window: [2022-01-01, 2024-12-31]}
  works: {kind: date_range, window: [2025-01-01, 2025-06-30], range: [10, 60]}
  area: {kind: quantity, range: [120, 4800], decimals: 1, unit: sqm}
  rooms: {kind: count, range: [2, 40]}
  share: {kind: percent, range: [5, 95]}
  budget: {kind: money, range: [20000, 900000], scale: log, round: 100}
  stay: {kind: duration, range: [1, 14], unit: day}
  grade: {kind: category}
  note: {kind: text}
  remark: {kind: narrative}
  defects:
    kind: group
    count: [2, 4]
    fields: {what: {kind: category}, cost: {kind: money, range: [100, 9000], round: 10}}
  defect_total: {kind: money, derived: "defects|sum(attribute='cost')"}
sections:
  - {id: head, layout: fields, slots: [ref, site, surveyor, town, address, visit, survey_date]}
  - {id: body, layout: prose, slots: [works, area, rooms, share, budget, stay, grade, note, remark]}
  - {id: defects, layout: items, group: defects, after: [defect_total]}
constraints: ["defect_total < budget"]
""",
    "en.yaml": """
genre: building survey
titles: ["Survey of {{ site }}"]
anchor: "the survey of {{ site }}"
sections: {head: {titles: [Details]}, body: {titles: [Findings]}, defects: {titles: [Defects]}}
slots:
  site: {labels: [Site]}
  surveyor: {labels: [Surveyor]}
  town: {labels: [Town]}
  address: {labels: [Address]}
  ref: {labels: [Reference]}
  visit: {labels: [Visit]}
  survey_date: {labels: [Survey date]}
  works: {labels: [planned works]}
  area: {labels: [floor area]}
  rooms: {labels: [number of rooms]}
  share: {labels: [share of rooms inspected]}
  budget: {labels: [repair budget]}
  stay: {labels: [length of the site stay]}
  grade: {labels: [overall grade], pool: [good, fair, poor]}
  note: {labels: [access note], pool: [access by the rear gate, keys held by the caretaker]}
  remark: {pool: ["The roof void was dry at the time of the visit.", "Damp readings were normal throughout."]}
  defects.what: {labels: [Defect], pool: [cracked render, loose tiles, rotten sill, blocked drain, failed sealant]}
  defects.cost: {labels: [Cost]}
  defect_total: {labels: [Total of defects]}
units: {sqm: "square metre|square metres", day: "day|days"}
withheld: [{label: asbestos register number, terms: [asbestos register]}]
""",
    "zh.yaml": """
genre: 房屋查勘报告
titles: ["{{ site }}查勘报告"]
anchor: "{{ site }}的查勘"
sections: {head: {titles: [基本信息]}, body: {titles: [查勘结论]}, defects: {titles: [缺陷清单]}}
slots:
  site: {labels: [查勘对象]}
  surveyor: {labels: [查勘人]}
  town: {labels: [所在地]}
  address: {labels: [地址]}
  ref: {labels: [查勘编号]}
  visit: {labels: [到场时间]}
  survey_date: {labels: [查勘日期]}
  works: {labels: [计划施工期]}
  area: {labels: [建筑面积]}
  rooms: {labels: [房间数]}
  share: {labels: [已查勘房间占比]}
  budget: {labels: [维修预算]}
  stay: {labels: [驻场时长]}
  grade: {labels: [总体评级], pool: [良好, 一般, 较差]}
  note: {labels: [进场说明], pool: [经后门进入, 钥匙由物业保管]}
  remark: {pool: ["查勘时屋顶夹层干燥。", "各处湿度读数正常。"]}
  defects.what: {labels: [缺陷], pool: [外墙抹灰开裂, 瓦片松动, 窗台腐朽, 排水管堵塞, 密封胶失效]}
  defects.cost: {labels: [费用]}
  defect_total: {labels: [缺陷费用合计]}
units: {sqm: "平方米", day: "天"}
withheld: [{label: 石棉登记编号, terms: [石棉登记]}]
""",
}


def test_a_pack_using_every_slot_kind_builds_a_valid_benchmark_in_both_languages(tmp_path):
    pack = tmp_path / "every_kind"
    pack.mkdir()
    for name, text in _EVERY_KIND.items():
        (pack / name).write_text(text.lstrip(), encoding="utf-8")
    out = tmp_path / "out"
    proc = _cli("build", "--genre", str(pack), "--docs", "6", "--out", str(out), "--quiet", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert validate_benchmark(out) == []
    documents = _records(out / "documents.jsonl")
    en = next(d["content"] for d in documents if d["language"] == "en")
    zh = next(d["content"] for d in documents if d["language"] == "zh")
    assert re.search(r"\bSV-20\d\d-\d{3}\b", en) and re.search(r"\d{1,2}:\d{2}", en)  # code, datetime
    assert re.search(r"\d{4} to \w+ \d{1,2}, 2025", en) and re.search(r"square metres?", en)  # range, quantity
    assert re.search(r"年\d{1,2}月\d{1,2}日至2025年", zh) and "平方米" in zh


def test_value_styles_write_dates_and_amounts_as_a_pack_asks():
    from dragonforge.genre.interpret import format_day, format_money, format_time

    day = dt.date(2021, 3, 5)
    assert [format_day(day, "en", s) for s in (None, "iso", "numeric")] == ["March 5, 2021", "2021-03-05", "03/05/2021"]
    assert [format_day(day, "zh", s) for s in (None, "iso", "numeric")] == ["2021年3月5日", "2021-03-05", "2021/3/5"]
    assert format_time(dt.datetime(2021, 3, 5, 9, 7), "en", None) == "March 5, 2021, 09:07"
    assert format_money(1_250_000, "en", None, None, 0) == "$1.25 million"
    assert format_money(1_250_000, "en", None, "plain", 0) == "$1,250,000"
    assert format_money(1_234.5, "en", "€", "plain", 2) == "€1,234.50"
    assert format_money(1_250_000, "zh", None, None, 0) == "125万元"
    assert format_money(12_860, "zh", None, None, 0) == "12,860元"  # 1.286万元 would not be exact at 2 places
    assert format_money(21_000, "zh", None, "plain", 0) == "21,000元"
