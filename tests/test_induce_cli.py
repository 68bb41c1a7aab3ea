"""`induce`, `check-genre`, `build --corpus` and the retired `summarize`, through the real CLI.

Every command runs in a subprocess, as a user would run it; the checks read the files the
commands write (packs, benchmarks, extraction reports), never the code's internals. One pack
is induced per language for the whole module (insurance_claim/en, site_daily_log/zh).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT / "seeds"
CORPUS = ROOT / "corpora" / "insurance_claim" / "en"
CLI = [sys.executable, "-m", "dragonforge.cli"]
NOT_CLAIMS = {"memo_parking_policy_2023.txt", "room_booking_notice.md"}
PLANTED = "Cole & Daughters Bakery LLC"  # the insured business of seeds/insurance_claim/en/cole_bakery_fire.txt

# (genre, language) -> the five seed files the module's packs are induced from
PACKS = {"en": ("insurance_claim", "en"), "zh": ("site_daily_log", "zh")}


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*CLI, *args], capture_output=True, text=True, cwd=cwd, timeout=300)


def seeds(genre: str, language: str) -> list[Path]:
    files = sorted((SEEDS / genre / language).glob("*.txt"))
    assert len(files) == 5, files
    return files


def induce(out: Path, genre: str, language: str, *extra: str, files: list[Path] | None = None):
    files = seeds(genre, language) if files is None else files
    return run("induce", *map(str, files), "--genre", genre, "--language", language, "--out", str(out), *extra,
               cwd=out.parent)


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def records(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def one_line(proc: subprocess.CompletedProcess) -> str:
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def assert_references_verbatim(out: Path) -> None:
    by_id = {d["doc_id"]: d["content"] for d in records(out / "documents.jsonl")}
    queries = records(out / "queries.jsonl")
    assert queries
    for q in queries:
        for ref in q["ground_truth"]["references"]:
            assert any(ref in by_id[i] for i in q["ground_truth"]["doc_ids"]), (q["query"], ref)


@pytest.fixture(scope="module")
def packs(tmp_path_factory) -> dict[str, Path]:
    """One pack induced per language, unedited; the tests copy before changing anything."""
    root = tmp_path_factory.mktemp("packs")
    out = {}
    for language, (genre, lang) in PACKS.items():
        folder = root / f"{genre}_{lang}"
        proc = induce(folder, genre, lang)
        assert proc.returncode == 0, proc.stderr
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            ["genre.yaml", f"{lang}.yaml", "leak.json", "induction-report.md"]), list(folder.iterdir())
        out[language] = folder
    return out


@pytest.fixture(scope="module")
def builds(packs, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("builds")
    out = {}
    for language, pack in packs.items():
        bench = root / f"bench_{language}"
        proc = run("build", "--genre", str(pack), "--docs", "20", "--out", str(bench), "-q", cwd=root)
        assert proc.returncode == 0, proc.stderr
        out[language] = bench
    return out


# --- 1. induce -> check-genre -> build -> validate, unedited --------------------------------------

@pytest.mark.parametrize("language", ["en", "zh"])
def test_an_induced_pack_checks_builds_and_validates_unedited(packs, builds, language, tmp_path):
    genre, _ = PACKS[language]
    check = run("check-genre", str(packs[language]), cwd=tmp_path)
    assert check.returncode == 0, check.stdout + check.stderr
    said = check.stdout + check.stderr
    assert re.search(r"^ok$", said, re.M), said
    lint = [line for line in said.splitlines() if "leak lint" in line]
    assert lint and all("0 problem" in line for line in lint), said

    bench = builds[language]
    valid = run("validate", str(bench), cwd=tmp_path)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    assert "valid benchmark" in valid.stdout
    documents = records(bench / "documents.jsonl")
    assert len(documents) == 20 and {d["language"] for d in documents} == {language}
    assert_references_verbatim(bench)
    leak = json.loads((bench / "manifest.json").read_text())["leak"]
    assert leak[genre]["checked"] is True and leak[genre]["problems"] == 0, leak
    assert leak[genre]["documents"] == 20, leak


# --- 2. determinism --------------------------------------------------------------------------------

@pytest.mark.parametrize("language", ["en", "zh"])
def test_induce_is_deterministic(packs, language, tmp_path):
    genre, lang = PACKS[language]
    again = tmp_path / "again"
    proc = induce(again, genre, lang)
    assert proc.returncode == 0, proc.stderr
    first = packs[language]
    for name in ("genre.yaml", f"{lang}.yaml"):
        assert (again / name).read_bytes() == (first / name).read_bytes(), name
    # leak.json holds keyed hashes under a fresh random salt: only its shape can match
    a, b = (json.loads((p / "leak.json").read_text()) for p in (first, again))
    assert a.keys() == b.keys()
    for key in ("language", "allow_prose", "value_lengths"):
        assert a[key] == b[key], key
    for key in ("values", "runs"):
        assert len(a[key]) == len(b[key]) > 0, key
    assert [len(s) for s in a["shingles"]] == [len(s) for s in b["shingles"]]


# --- 3. the leak lint catches a planted seed value -------------------------------------------------

def _category_slot_with_pool(pack: Path) -> str:
    genre = yaml.safe_load((pack / "genre.yaml").read_text(encoding="utf-8"))
    text = yaml.safe_load((pack / "en.yaml").read_text(encoding="utf-8"))
    for name, slot in genre["slots"].items():
        if slot.get("kind") == "category" and text["slots"].get(name, {}).get("pool"):
            return name
    raise AssertionError("the induced en.yaml has no category slot with a pool")


def _planted_pack(packs, tmp_path: Path, plant) -> Path:
    pack = tmp_path / "planted"
    shutil.copytree(packs["en"], pack)
    path = pack / "en.yaml"
    text = yaml.safe_load(path.read_text(encoding="utf-8"))
    plant(text, _category_slot_with_pool(pack))
    path.write_text(yaml.safe_dump(text, allow_unicode=True, sort_keys=False), encoding="utf-8")
    assert PLANTED in path.read_text(encoding="utf-8")
    return pack


def _assert_leak_refused(pack: Path, tmp_path: Path) -> None:
    out = tmp_path / "bench"
    proc = run("build", "--genre", str(pack), "--docs", "20", "--out", str(out), "-q", cwd=tmp_path)
    assert proc.returncode != 0, f"a pack holding {PLANTED!r} built:\n{proc.stdout}{proc.stderr}"
    assert "leak lint" in one_line(proc), proc.stderr
    assert PLANTED not in proc.stderr  # the lint masks what it found
    assert not (out / "manifest.json").exists()

    check = run("check-genre", str(pack), cwd=tmp_path)
    said = check.stdout + check.stderr
    assert check.returncode != 0, said
    assert "leak lint" in said and not re.search(r"^ok$", said, re.M), said


def test_a_seed_value_planted_in_a_title_stops_the_build_and_check_genre(packs, tmp_path):
    def plant(text, _slot):
        text["titles"] = [f"{PLANTED} — Claim Assessment"]

    _assert_leak_refused(_planted_pack(packs, tmp_path, plant), tmp_path)


@pytest.mark.parametrize("how", ["added_to_pool", "pool_of_only_it"])
def test_a_seed_value_planted_in_a_pool_stops_the_build_and_check_genre(packs, tmp_path, how):
    def plant(text, slot):
        pool = text["slots"][slot]["pool"]
        text["slots"][slot]["pool"] = pool + [PLANTED] if how == "added_to_pool" else [PLANTED]

    _assert_leak_refused(_planted_pack(packs, tmp_path, plant), tmp_path)


# --- 4. no seed name or number reaches a generated document ---------------------------------------

_EN_FIELD = re.compile(
    r"^\s*(?:Insured(?: business)?|Named insured|Policyholder|Insured\(s\)|Insurer|Underwriter|Prepared for"
    r"|(?:Assessing |Loss |Field )?[Aa]djuster|Claim (?:reference|number|No\.)|File no\.|Policy(?: number| No\.| #)?"
    r"|Our ref|Police crime reference)\s*:\s*(?P<value>.+?)\s*$", re.M)
_ZH_FIELD = re.compile(r"^\s*[^：\n]{0,8}(?:单位|施工员|项目经理|负责人|编号|许可证|项目名称|工程名称)：\s*(?P<value>.+?)\s*$", re.M)


def _seed_values(language: str) -> set[str]:
    genre, lang = PACKS[language]
    pattern = _EN_FIELD if language == "en" else _ZH_FIELD
    found: set[str] = set()
    for path in seeds(genre, lang):
        for m in pattern.finditer(path.read_text(encoding="utf-8")):
            value = m.group("value")
            found.add(value)
            found.add(re.sub(r"\s+[A-Z]{3,5}$", "", value))  # "Colm Brennan ACII" -> "Colm Brennan"
    return {v for v in found if len(v) >= 3}


@pytest.mark.parametrize("language", ["en", "zh"])
def test_no_seed_name_or_number_reaches_a_generated_document(builds, language):
    values = _seed_values(language)
    assert len(values) >= 25, values  # the regexes found the seeds' names and numbers
    if language == "en":
        assert {PLANTED, "Thomas Dawson", "CLM-2024-100934", "CP-HB-7781046", "Colm Brennan"} <= values
    else:
        assert {"临江市政建设集团有限公司", "韩启航", "BHL-RB-0211"} <= values
    contents = "\n".join(d["content"] for d in records(builds[language] / "documents.jsonl"))
    leaked = sorted(v for v in values if v in contents)
    assert not leaked, leaked


# --- 5. bad input ----------------------------------------------------------------------------------

def _ic(*names: str) -> list[Path]:
    return [SEEDS / "insurance_claim" / "en" / n for n in names]


IC3 = ("cole_bakery_fire.txt", "dawson_storm_roof.txt", "quarry_road_burglary.txt")
BAD = {
    # name: (seed files, given the tmp folder; --genre; --language; words the one line must hold)
    "one_seed": (lambda d: _ic("cole_bakery_fire.txt"), "insurance_claim", "en", ["at least 2"]),
    "two_genres": (lambda d: _ic(*IC3[:2]) + [SEEDS / "supplier_audit" / "en" / "kestrel_castings_2024.txt",
                                              SEEDS / "supplier_audit" / "en" / "lindqvist_polymer_2023.txt"],
                   "insurance_claim", "en", ["one genre"]),
    "wrong_language": (lambda d: _ic(*IC3), "insurance_claim", "zh", ["--language"]),
    "binary_file": (lambda d: _ic(*IC3) + [d / "scan.txt"], "insurance_claim", "en", ["scan.txt"]),
    "empty_file": (lambda d: _ic(*IC3) + [d / "empty.txt"], "insurance_claim", "en", ["empty.txt", "empty"]),
    "bad_genre_name": (lambda d: _ic(*IC3), "Bad Name", "en", ["--genre", "Bad Name"]),
}


def _bad_files(folder: Path) -> None:
    (folder / "prose.txt").write_text(
        "We walked along the river in the afternoon and talked about the garden, the weather and the long "
        "summer holidays before going home for tea and an early night.\n", encoding="utf-8")
    (folder / "scan.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 8)
    (folder / "empty.txt").write_bytes(b"")


@pytest.mark.parametrize("target", ["new_folder", "earlier_pack_with_force"])
@pytest.mark.parametrize("case", list(BAD))
def test_bad_induce_input_is_refused_in_one_line_and_nothing_is_overwritten(packs, tmp_path, case, target):
    files, genre, language, words = BAD[case]
    _bad_files(tmp_path)
    out = tmp_path / "pack"
    extra: tuple[str, ...] = ()
    if target == "earlier_pack_with_force":
        shutil.copytree(packs["en"], out)
        extra = ("--force",)
    before = snapshot(out) if out.exists() else None
    proc = induce(out, genre, language, *extra, files=files(tmp_path))
    assert proc.returncode != 0, f"{case}: induce accepted it:\n{proc.stdout}{proc.stderr}"
    line = one_line(proc)
    for word in words:
        assert word in line, line
    if before is None:
        assert not out.exists(), list(out.iterdir())
    else:
        assert snapshot(out) == before


def test_a_seed_with_no_fields_is_named_in_a_warning(tmp_path):
    """A seed that is only prose teaches nothing but its prose: the pack is written from the
    others, and the seed is named in an explicit warning (and in the report)."""
    _bad_files(tmp_path)
    out = tmp_path / "pack"
    proc = induce(out, "insurance_claim", "en", files=_ic(*IC3) + [tmp_path / "prose.txt"])
    assert proc.returncode == 0, proc.stderr
    warnings = [line for line in proc.stderr.splitlines() if line.startswith("warning:")]
    assert len(warnings) == 1 and "prose.txt" in warnings[0] and "no labelled fields" in warnings[0], proc.stderr
    report = (out / "induction-report.md").read_text(encoding="utf-8")
    # the report numbers the seeds in the order given (file names may name what they are about)
    assert "- seed 4: no labelled fields" in report and "prose.txt" not in report


def test_an_existing_non_empty_out_is_refused_without_force_and_kept(packs, tmp_path):
    notes = tmp_path / "notes"
    notes.mkdir()
    (notes / "notes.txt").write_text("mine\n")
    earlier = tmp_path / "earlier"
    shutil.copytree(packs["en"], earlier)
    for out in (notes, earlier):
        before = snapshot(out)
        proc = induce(out, "insurance_claim", "en")
        assert proc.returncode != 0, proc.stdout
        line = one_line(proc)
        assert "--force" in line and str(out.name) in line, line
        assert snapshot(out) == before
    # with --force the pack files are written beside what was there
    proc = induce(notes, "insurance_claim", "en", "--force")
    assert proc.returncode == 0, proc.stderr
    assert (notes / "notes.txt").read_text() == "mine\n"
    assert (notes / "genre.yaml").read_bytes() == (packs["en"] / "genre.yaml").read_bytes()


# --- 6. build --corpus -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus_build(packs, tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    root = tmp_path_factory.mktemp("corpus")
    out = root / "bench"
    proc = run("build", "--corpus", str(CORPUS), "--genre", str(packs["en"]), "--out", str(out), "-q", cwd=root)
    return proc, out


def test_a_corpus_build_over_real_claims_is_valid_and_lists_what_it_left_out(corpus_build, tmp_path):
    proc, out = corpus_build
    assert proc.returncode == 0, proc.stderr
    valid = run("validate", str(out), cwd=tmp_path)
    assert valid.returncode == 0 and "valid benchmark" in valid.stdout, valid.stdout + valid.stderr
    assert (out / "extraction.md").read_text(encoding="utf-8").strip()

    files = sorted(p.name for p in CORPUS.iterdir())
    report = {r["file"]: r for r in records(out / "extraction.jsonl")}
    assert sorted(report) == files  # one line per file, none dropped silently
    for name in NOT_CLAIMS:
        assert report[name]["status"] == "unfit" and report[name]["reason"].strip(), report[name]
        assert report[name]["doc_id"] is None
    used = {name: r for name, r in report.items() if r["status"] == "used"}
    assert len(used) >= 25, sorted(set(files) - set(used))
    assert not NOT_CLAIMS & set(used)

    documents = records(out / "documents.jsonl")
    by_id = {d["doc_id"]: d for d in documents}
    assert sorted(d["source_file"] for d in documents) == sorted(used)
    for name, r in used.items():
        doc = by_id[r["doc_id"]]
        assert doc["source_file"] == name and doc["source_id"] == Path(name).stem
        # every extracted fact is verbatim in the line (1-based) of the document it names
        assert r["facts"]
        lines = doc["content"].splitlines()
        for fact in r["facts"]:
            assert {"key", "text", "line", "how"} <= fact.keys(), fact
            assert 1 <= fact["line"] <= len(lines) and fact["text"] in lines[fact["line"] - 1], (name, fact)
    assert_references_verbatim(out)


def test_a_corpus_with_a_non_utf8_file_builds_warns_and_lists_it_unreadable(packs, tmp_path):
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for name in ("CLM-2021-005702.html", "CLM-2022-008840.md", "CLM-2023-010943.html"):
        shutil.copy(CORPUS / name, corpus / name)
    (corpus / "legacy_latin1.txt").write_bytes(
        "Claim reference: CLM-2019-004410\nInsured: François Müller Café\nNet payable: £1,250\n".encode("latin-1"))
    out = tmp_path / "bench"
    proc = run("build", "--corpus", str(corpus), "--genre", str(packs["en"]), "--out", str(out), "-q",
               cwd=tmp_path)
    warnings = [line for line in proc.stderr.splitlines() if "legacy_latin1.txt" in line]
    assert warnings and "warning" in warnings[0].lower(), proc.stderr
    assert proc.returncode == 0, proc.stderr
    valid = run("validate", str(out), cwd=tmp_path)
    assert valid.returncode == 0, valid.stdout + valid.stderr
    report = {r["file"]: r for r in records(out / "extraction.jsonl")}
    assert report["legacy_latin1.txt"]["status"] == "unreadable" and report["legacy_latin1.txt"]["reason"]
    assert "legacy_latin1.txt" not in {d["source_file"] for d in records(out / "documents.jsonl")}


# --- 7. summarize is retired -----------------------------------------------------------------------

@pytest.mark.parametrize("args", [[], ["seeds/insurance_claim/en/cole_bakery_fire.txt", "--out", "x"]])
def test_summarize_is_retired_and_points_to_induce(tmp_path, args):
    proc = run("summarize", *args, cwd=tmp_path)
    assert proc.returncode != 0
    line = one_line(proc)
    assert "induce" in line and "retired" in line, line
    assert not list(tmp_path.iterdir())
