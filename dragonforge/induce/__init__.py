"""``dragonforge induce``: seed documents in, a genre pack a team can review out.

:func:`induce_pack` reads the seeds, induces the pack offline (:mod:`.infer`), optionally lets a
model propose a better one, keeping only what is grounded in the seeds (:mod:`.grounded`),
checks the result the way ``check-genre`` does (a slot that makes the pack fail is dropped and
reported), lints the drawn documents for seed leaks, and writes the folder with its report.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from dragonforge.errors import InputError, TemplateError
from dragonforge.induce.infer import Induction, induce
from dragonforge.induce.read import read_document
from dragonforge.text import detect_language

MAX_SEEDS = 50


@dataclass
class InduceResult:
    induction: Induction
    files: list[Path]
    check_lines: list[str]
    lint: dict
    dropped: list[tuple[str, str]] = field(default_factory=list)
    llm: dict = field(default_factory=dict)


def read_seeds(paths: list[Path], language: str) -> list[tuple[str, str]]:
    if not paths:
        raise InputError("no seed files given")
    if len(paths) > MAX_SEEDS:
        raise InputError(f"{len(paths)} seed files: induction reads at most {MAX_SEEDS} (3 to 8 are best)")
    texts = []
    for path in paths:
        path = Path(path)
        if path.is_dir():
            raise InputError(f"seed {path} is a folder; give the seed files (e.g. {path}/*.txt)")
        text = read_document(path)
        found = detect_language(text)
        if found != language:
            raise InputError(f"seed {path} looks like {found!r} text but --language is {language!r}")
        texts.append((path.name, text))
    names = [n for n, _ in texts]
    if len(set(names)) < len(names):
        raise InputError("two seeds have the same file name; give each seed once")
    return texts


def induce_pack(paths: list[Path], genre: str, language: str, out: Path, force: bool = False,
                llm=None, samples: int = 40) -> InduceResult:
    from dragonforge.genre.check import check_pack
    from dragonforge.genre.pack import PackError, load_genre
    from dragonforge.induce.leak import lint
    from dragonforge.induce.report import report
    from dragonforge.induce.write import pack_files, write_pack

    if not re.fullmatch(r"[a-z][a-z0-9_]{0,39}", genre):
        raise InputError(f"--genre {genre!r}: a name of lower-case letters, digits and _ (at most 40), "
                         "starting with a letter")
    out = Path(out)
    if out.is_dir() and any(out.iterdir()) and not force:
        raise InputError(f"--out {out} exists and is not empty; choose another folder or pass --force to replace "
                         "its pack files")
    texts = read_seeds(paths, language)
    ind = induce(texts, genre, language)
    llm_report: dict = {}
    if llm is not None:
        from dragonforge.induce.grounded import refine_with_llm

        ind, llm_report = refine_with_llm(llm, ind, texts)
    dropped: list[tuple[str, str]] = []
    check_lines: list[str] = []
    lint_summary: dict = {}
    for _ in range(8):  # the pack as check-genre sees it; a slot that breaks it is dropped and reported
        with tempfile.TemporaryDirectory() as tmp:
            for name, text in pack_files(ind).items():
                (Path(tmp) / name).write_text(text, encoding="utf-8")
            try:
                pack = load_genre(Path(tmp))
                checked = check_pack(pack, samples)
            except (PackError, TemplateError) as exc:
                if not _drop_named(ind, str(exc), dropped):
                    raise InputError(f"the induced pack does not load: {exc}") from None
                continue
            if checked.problems:
                if any("leak lint" in p for p in checked.problems):
                    if _prune_pools(ind, _drawn_documents(pack, language, samples), dropped):
                        continue
                if not any(_drop_named(ind, p, dropped) for p in checked.problems):
                    raise InputError(f"the induced pack fails its check: {checked.problems[0]}")
                continue
            check_lines = [line.replace(tmp, str(out)) for line in checked.lines()]
            docs = _drawn_documents(pack, language, samples)
            result = lint(docs, ind.fingerprint)
            lint_summary = result.summary()
            break
    else:
        raise InputError("the induced pack kept failing its check; see the seeds' fields")
    text = report(ind, check_lines, lint_summary, dropped, llm_report)
    files = write_pack(ind, out, force=force, report=text)
    return InduceResult(ind, files, check_lines, lint_summary, dropped, llm_report)


def _prune_pools(ind: Induction, documents: list[tuple[str, str]], dropped: list[tuple[str, str]]) -> bool:
    """Drop the pool values that, written beside their neighbours, formed a seed run or value."""
    from dragonforge.induce.leak import _tokens, leaking

    runs = [f" {r} " for r in leaking([t for _, t in documents], ind.fingerprint)]
    pruned = False
    pools = [(f"`{n}`", s.text) for n, s in ind.slots.items() if s.text.get("pool")]
    pools += [(f"`{g}.{f}`", t) for g, grp in ind.groups.items() for f, t in grp.text.get("fields", {}).items()
              if t.get("pool")]
    for where, text in pools:
        keep = []
        for value in text["pool"]:
            toks = " ".join(_tokens(value))
            if toks and any(f" {toks} " in r for r in runs):
                dropped.append((f"pool value of {where}", "written in a document it completed a run of seed prose"))
                pruned = True
            else:
                keep.append(value)
        text["pool"] = keep or text["pool"][:0]
    for name in [n for n, s in ind.slots.items() if "pool" in s.text and not s.text["pool"]]:
        ind.slots.pop(name)
        for s in ind.sections:
            if name in s.get("slots", []):
                s["slots"].remove(name)
        ind.sections[:] = [s for s in ind.sections if s["layout"] != "fields" or s["slots"]]
        dropped.append((f"slot `{name}`", "no pool value left that does not leak"))
    for g, grp in list(ind.groups.items()):
        if any("pool" in t and not t["pool"] for t in grp.text.get("fields", {}).values()):
            ind.groups.pop(g)
            ind.sections[:] = [s for s in ind.sections if s.get("group") != g]
            dropped.append((f"group `{g}`", "no pool value left that does not leak"))
    return pruned


def _drop_named(ind: Induction, message: str, dropped: list[tuple[str, str]]) -> bool:
    """Drop the slot, group or constraint a problem names; False when it names none."""
    for i, (check, name) in enumerate(ind.constraints):
        if check in message or (name and name in message):
            del ind.constraints[i]
            dropped.append((f"constraint `{check}`", message))
            return True
    for name in sorted(ind.slots, key=len, reverse=True):
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message) and name != ind.entity:
            slot = ind.slots.pop(name)
            for other in ind.slots.values():
                if other.derived and re.search(rf"\b{re.escape(name)}\b", other.derived):
                    other.derived = None
            ind.constraints = [(c, n) for c, n in ind.constraints if not re.search(rf"\b{re.escape(name)}\b", c)]
            for s in ind.sections:
                for key in ("slots", "after"):
                    if name in s.get(key, []):
                        s[key].remove(name)
            ind.sections[:] = [s for s in ind.sections if s["layout"] != "fields" or s["slots"]]
            dropped.append((f"slot `{name}` ({slot.labels[0]})", message))
            return True
    for name in sorted(ind.groups, key=len, reverse=True):
        if re.search(rf"(?<![\w]){re.escape(name)}(?![\w])", message):
            ind.groups.pop(name)
            ind.sections[:] = [s for s in ind.sections if s.get("group") != name]
            dropped.append((f"group `{name}`", message))
            return True
    return False


def _drawn_documents(pack, language: str, samples: int) -> list[tuple[str, str]]:
    from dragonforge.documents import write_document

    template = pack.document_template(language)
    out = []
    for i in range(samples):
        config = pack.make_config(language, i, 7919 * (i + 1))
        out.append((str(i), write_document(config, 0, template).content))
    return out
