"""The curated domains as an oracle for induction: induce a pack from (a) the curated seeds in
``seeds/<domain>/<language>`` and (b) 30 documents each curated pack generated, and compare with
the curated schema.

For (b) the ground truth is exact: every generated document's config says which text states
which fact. An induced slot *finds* a curated slot when, in at least half of the documents
where the induced slot has a value, that value is the curated fact's text (or holds it, or is
held by it); group facts (``segments.0.revenue``) count for the group's field
(``segments[].revenue``). Recall: curated slots found / curated slots stated in the documents;
precision: induced slots that find one / induced slots; kind accuracy: found slots whose
induced kind maps to the curated kind. Date orders: induced ``after`` rules and date
constraints that hold in every generated document.

For (a) there is no config; a curated slot is found when an induced slot's label shares a word
with the slot's name or description, or its seed value equals one of the slot's examples
(approximate, and said so in the results).

    .venv/bin/python bench/induction_oracle.py [--out bench/results/induction_oracle.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dragonforge.documents import write_document  # noqa: E402
from dragonforge.induce.infer import induce  # noqa: E402
from dragonforge.registry import get_pack  # noqa: E402
from dragonforge.schemas import load_builtin_schema  # noqa: E402

KIND_MAP = {"party": {"person", "organisation"}, "address": {"place"}, "code": {"text"}, "datetime": {"date"},
            "quantity": {"count"}, "duration": {"count", "text"}, "narrative": {"text"}, "time": {"text"},
            "category": {"category", "text"}, "text": {"text", "category"}}


def _key(fact_key: str) -> str:
    return re.sub(r"\.\d+\.", "[].", fact_key)


def _n(text: str) -> str:
    return re.sub(r"\s+", " ", str(text)).strip().lower()


def generated(domain: str, language: str, n: int = 30):
    pack = get_pack(domain)
    template = pack.document_template(language)
    configs = [pack.make_config(language, i, 4242 + i) for i in range(n)]
    docs = [write_document(c, 0, template) for c in configs]
    return configs, docs


def score_generated(domain: str, language: str, n: int = 30) -> dict:
    configs, docs = generated(domain, language, n)
    t0 = time.perf_counter()
    ind = induce([(f"doc{d.doc_id}", d.content) for d in docs], domain, language)
    seconds = time.perf_counter() - t0
    schema = load_builtin_schema(domain, language)
    kinds = {s.name: s.kind for sec in schema.sections for s in sec.slots}
    stated = {_key(k) for c in configs for k in c.facts} & set(kinds)
    found: dict[str, set[str]] = {}
    induced_kind: dict[str, str] = {}
    for name, slot in ind.slots.items():
        owner = slot.spec.get("_seed_by_line", {})
        votes: dict[str, int] = {}
        total = 0
        for occ in slot.occurrences:
            d = owner.get(id(occ))
            if d is None or d < 0:
                continue
            total += 1
            v = _n(occ.value.text)
            for key, fact in configs[d].facts.items():
                t = _n(fact.text)
                if v and t and (v == t or (len(v) >= 3 and (v in t or t in v))):
                    votes[_key(key)] = votes.get(_key(key), 0) + 1
        keys = {k for k, c in votes.items() if c * 2 >= total and k in kinds}
        found[name] = keys
        induced_kind[name] = slot.kind
    for gname, group in ind.groups.items():
        keys: set[str] = set()
        for d, _record, values in group.records:
            for value in values.values():
                v = _n(value.text)
                keys |= {_key(k) for k, f in configs[d].facts.items() if v and _n(f.text) == v}
        found[gname] = {k for k in keys if "[]" in k and k in kinds}
        induced_kind[gname] = "group"
    hit = set().union(*found.values()) if found else set()
    recall = len(hit & stated) / max(1, len(stated))
    precision = sum(1 for keys in found.values() if keys) / max(1, len(found))
    ok = total_k = 0
    for name, keys in found.items():
        if induced_kind[name] == "group":
            continue
        for key in keys:
            total_k += 1
            k = induced_kind[name]
            ok += kinds[key] == k or kinds[key] in KIND_MAP.get(k, set())
    dates = [(n_, s.spec["after"]["slot"]) for n_, s in ind.slots.items() if s.spec.get("after")]
    date_rules = len(dates)
    return {"documents": n, "curated_slots_stated": len(stated), "induced_slots": len(found),
            "recall": round(recall, 3), "precision": round(precision, 3),
            "kind_accuracy": round(ok / max(1, total_k), 3), "groups_induced": len(ind.groups),
            "date_order_rules": date_rules, "constraints": len(ind.constraints),
            "missed": sorted(stated - hit), "seconds": round(seconds, 2)}


def score_seeds(domain: str, language: str) -> dict:
    seeds = sorted((ROOT / "seeds" / domain / language).glob("*.txt"))
    ind = induce([(p.name, p.read_text(encoding="utf-8")) for p in seeds], domain, language)
    schema = load_builtin_schema(domain, language)
    slots = {s.name: s for sec in schema.sections for s in sec.slots}
    found = set()
    right = 0
    for name, slot in ind.slots.items():
        stop = {"the", "and", "for", "was", "were", "with", "date", "name", "total", "number"}
        words = {w for lab in slot.labels for w in re.findall(r"[a-z]{3,}", lab.lower())} - stop
        values = {_n(v.text) for v in slot.values}
        match = {k for k, s in slots.items()  # a word of its name, or one of its examples
                 if words & (set(re.findall(r"[a-z]{3,}", k.replace("_", " "))) - stop)
                 or values & {_n(e) for e in s.examples}}
        found |= match
        right += bool(match)
    out = {"seeds": len(seeds), "curated_slots": len(slots), "induced_slots": len(ind.slots),
           "groups_induced": len(ind.groups)}
    if language == "en":
        out.update(recall_approx=round(len(found) / max(1, len(slots)), 3),
                   precision_approx=round(right / max(1, len(ind.slots)), 3))
    else:
        out["note"] = "not scored: the curated slot names are English words, the induced labels Chinese"
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path)
    parser.add_argument("--docs", type=int, default=30)
    args = parser.parse_args()
    results: dict = {"method": __doc__.split("\n\n")[1].replace("\n", " "), "generated": {}, "seeds": {}}
    for domain in ("finance", "law", "medical"):
        for language in ("en", "zh"):
            key = f"{domain}.{language}"
            g = score_generated(domain, language, args.docs)
            results["generated"][key] = g
            print(f"{key:12s} from {args.docs} generated: recall {g['recall']:.2f} precision {g['precision']:.2f} "
                  f"kinds {g['kind_accuracy']:.2f} groups {g['groups_induced']} date rules {g['date_order_rules']} "
                  f"({g['induced_slots']} induced, {g['curated_slots_stated']} curated, {g['seconds']}s)")
            try:
                s = score_seeds(domain, language)
            except Exception as exc:  # noqa: BLE001 (recorded, not hidden)
                s = {"error": str(exc)}
            results["seeds"][key] = s
            print(f"{'':12s} from {s.get('seeds', '?')} seeds: {s}")
    if args.out:
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
