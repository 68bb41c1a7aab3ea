"""An induction written out: a genre pack folder (``genre.yaml``, ``<language>.yaml``, the seeds'
fingerprint ``leak.json``) and ``induction-report.md``, all at once (a temporary folder renamed
into place), never over a folder that holds anything unless asked.
"""

from __future__ import annotations

import shutil
import tempfile
from collections import Counter
from pathlib import Path

import yaml

from dragonforge.errors import InputError
from dragonforge.induce.infer import Induction
from dragonforge.induce.leak import FILE as LEAK_FILE

REPORT = "induction-report.md"
_CURRENCY = {"USD": "$", "US$": "$", "GBP": "£", "EUR": "€", "RMB": "元", "CNY": "元", "人民币": "元", "￥": "¥"}


def _clean(spec: dict) -> dict:
    return {k: v for k, v in spec.items() if not k.startswith("_")}


def pack_files(ind: Induction) -> dict[str, str]:
    """The pack's files as text, by name."""
    n = len(ind.documents)
    lang = ind.language
    slots: dict[str, dict] = {}
    text_slots: dict[str, dict] = {}
    units: dict[str, str] = {}
    currencies = []
    for name, slot in ind.slots.items():
        spec = {"kind": slot.kind, **_clean(slot.spec)}
        if slot.derived:
            spec = {"kind": slot.kind, "derived": slot.derived, **({"decimals": slot.spec["decimals"]}
                                                                    if "decimals" in slot.spec else {})}
        support = len(slot.seeds) / n
        if support < 0.75 and name != ind.entity and not slot.derived:
            spec["presence"] = round(max(0.3, support), 2)
        slots[name] = spec
        labels = [lab for lab in slot.labels if not ind.fingerprint.value_in(lab)] or [name.replace("_", " ")]
        entry: dict = {"labels": labels, "description": _describe(labels[0], lang)}
        for key in ("pool", "style"):
            if key in slot.text:
                entry[key] = slot.text[key]
        units.update(slot.text.get("_units", {}))
        if "_currency" in slot.text:
            currencies.append(slot.text["_currency"])
        text_slots[name] = entry
    for gname, group in ind.groups.items():
        if group.spec.get("_drop"):
            continue
        fields = {f: _clean(spec) for f, spec in group.spec["fields"].items()}
        slots[gname] = {"kind": "group", "count": group.spec["count"], "fields": fields,
                        **({"order_by": group.spec["order_by"]} if group.spec.get("order_by") else {})}
        titles = [t for t in group.titles if not ind.fingerprint.value_in(t)]
        text_slots[gname] = {"labels": [titles[0]] if titles else [gname.replace("_", " ")], "line": group.line}
        for fname, ftext in group.text.get("fields", {}).items():
            entry = {"labels": [fname.replace("_", " ") if lang == "en" else _zh_field(fname)]}
            if ftext.get("pool"):
                entry["pool"] = ftext["pool"]
            units.update(ftext.get("_units", {}))
            text_slots[f"{gname}.{fname}"] = entry
    sections = []
    section_titles = {}
    for s in ind.sections:
        entry = {"id": s["id"], "layout": s["layout"]}
        if s["layout"] == "fields":
            entry["slots"] = s["slots"]
        else:
            entry["group"] = s["group"]
            if s.get("after"):
                entry["after"] = s["after"]
        if s.get("presence", 1) < 0.75:
            entry["presence"] = round(max(0.3, s["presence"]), 2)
        sections.append(entry)
        section_titles[s["id"]] = {"titles": s["titles"]}
    genre = {
        "name": ind.genre,
        "label": ind.genre.replace("_", " ").title()[:60],
        "entity": {"slot": ind.entity, "field": _entity_field(ind.entity)},
        "slots": slots,
        "sections": sections,
        "constraints": [{"check": c, "name": name} for c, name in ind.constraints],
    }
    language = {
        "genre": ind.genre.replace("_", " "),
        "titles": ind.titles,
        "anchor": ind.anchor,
        "sections": section_titles,
        "slots": text_slots,
    }
    if units:
        language["units"] = units
    if currencies:
        signs = Counter(_CURRENCY.get(c, c) for c in currencies)
        language["currency"] = sorted(signs.items(), key=lambda kv: (-kv[1], kv[0]))[0][0]
    withheld = [w for w in ind.withheld if not ind.fingerprint.value_in(w["label"])]
    if withheld:
        language["withheld"] = withheld[:6]
    header = (f"# Induced offline by `dragonforge induce` from {n} seed document(s) ({lang}).\n"
              f"# Review it (see {REPORT}), edit what you like, then: dragonforge check-genre <this folder>\n")
    return {
        "genre.yaml": header + yaml.safe_dump(genre, sort_keys=False, allow_unicode=True, width=110),
        f"{lang}.yaml": header + yaml.safe_dump(language, sort_keys=False, allow_unicode=True, width=110),
        LEAK_FILE: ind.fingerprint.to_json() + "\n",
    }


def _entity_field(slot: str) -> str:
    name = slot if slot not in {"domain", "language", "doc_id", "content", "entity"} else f"{slot}_name"
    return name[:40]


def _describe(label: str, language: str) -> str:
    return f"the {label[:1].lower() + label[1:]}" if language == "en" and not label[:2].isupper() else label


def _zh_field(name: str) -> str:
    return {"description": "事项", "amount": "金额", "time": "时间", "date": "日期", "person": "负责人",
            "due": "截止日期", "offset": "时间", "number": "数量", "quantity": "数量", "percent": "比例",
            "code": "编号", "organisation": "单位"}.get(name.rstrip("_0123456789"), name)


def write_pack(ind: Induction, out: Path, force: bool = False, report: str = "") -> list[Path]:
    """Write the pack and the report into ``out`` at once; an existing non-empty folder only with
    ``force`` (then its pack files are replaced, anything else in it kept)."""
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out} is a file; give a folder for the pack")
    if out.is_dir() and any(out.iterdir()) and not force:
        raise InputError(f"--out {out} exists and is not empty; choose another folder or pass --force to replace "
                         "its pack files")
    files = pack_files(ind)
    files[REPORT] = report
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        for name, text in files.items():
            (tmp / name).write_text(text, encoding="utf-8")
        if out.is_dir():
            for name in files:
                (tmp / name).replace(out / name)
            for stale in ("en.yaml", "zh.yaml", LEAK_FILE):  # an earlier pack's files this one does not write
                if stale not in files:
                    (out / stale).unlink(missing_ok=True)
            shutil.rmtree(tmp)
        else:
            tmp.rename(out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return [out / name for name in files]
