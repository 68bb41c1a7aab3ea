"""Induced packs against gold sheets written by hand before the inducer existed
(``bench/induction/gold/*.yaml``): slot recall and precision, kind accuracy, entity, groups.

A gold slot is found when an induced slot shares a label with it (case and punctuation aside)
or one of its seed values (either contains the other); an induced slot is right when it finds
some gold slot, optional ones included. Kind accuracy: over the non-optional gold slots found,
the share whose induced kind is the gold kind or one of its ``also`` kinds.

    .venv/bin/python bench/induction_gold.py [--out bench/results/induction.json]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import tempfile
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from dragonforge.induce import induce_pack  # noqa: E402

GOLD = ROOT / "bench" / "induction" / "gold"


def _n(text: str) -> str:
    return re.sub(r"[\s.:：#*_()（）]+", " ", str(text).lower()).strip()


def _evidence(ind, name: str) -> tuple[set[str], set[str], str]:
    if name in ind.slots:
        slot = ind.slots[name]
        return {_n(x) for x in slot.labels}, {_n(v.text) for v in slot.values}, slot.kind
    group = ind.groups[name]
    return {_n(t) for t in group.titles}, {_n(r.text) for _, r, _ in group.records}, "group"


def _matches(labels: set[str], values: set[str], gold: dict) -> bool:
    glabels = {_n(x) for x in gold.get("labels") or []}
    if labels & glabels:
        return True
    gvalues = {_n(v) for v in gold.get("values") or [] if len(_n(v)) >= 3}
    return any(v and g and len(v) >= 3 and (v in g or g in v) for v in values for g in gvalues)


def score(ind, gold: dict) -> dict:
    induced = [n for n in ind.slots] + [g for g, grp in ind.groups.items() if not grp.spec.get("_drop")]
    evidence = {n: _evidence(ind, n) for n in induced}
    gslots = gold["slots"]
    found: dict[str, list[str]] = {g: [n for n in induced if _matches(*evidence[n][:2], spec)] for g, spec in gslots.items()}
    required = [g for g, spec in gslots.items() if not spec.get("optional")]
    recall = sum(1 for g in required if found[g]) / max(1, len(required))
    right = [n for n in induced if any(_matches(*evidence[n][:2], spec) for spec in gslots.values())]
    precision = len(right) / max(1, len(induced))
    kinds_ok, kinds_n = 0, 0
    wrong_kinds: list[str] = []
    for g in required:
        if not found[g]:
            continue
        spec = gslots[g]
        ok_kinds = {spec["kind"], *(spec.get("also") or [])}
        # the best induced match (as a one-to-one alignment would pick it): a group for a gold
        # group, then a shared label, then a right kind
        glabels = {_n(x) for x in spec.get("labels") or []}
        best = min(found[g], key=lambda n: ((evidence[n][2] == "group") != (spec["kind"] == "group"),
                                            not (evidence[n][0] & glabels), evidence[n][2] not in ok_kinds))
        kinds_n += 1
        kinds_ok += evidence[best][2] in ok_kinds
        if evidence[best][2] not in ok_kinds:
            wrong_kinds.append(f"{g}: {evidence[best][2]} (gold {spec['kind']})")
    entity_gold = gold["entity"]
    entity_right = ind.entity in found.get(entity_gold, [])
    gold_groups = gold.get("groups") or []
    groups_found = [g for g in gold_groups if any(n in ind.groups for n in found[g])]
    return {"gold_slots": len(required), "induced_slots": len(induced), "recall": round(recall, 3),
            "precision": round(precision, 3), "kind_accuracy": round(kinds_ok / max(1, kinds_n), 3),
            "entity": ind.entity, "entity_gold": entity_gold, "entity_right": entity_right,
            "groups_gold": len(gold_groups), "groups_found": len(groups_found),
            "missed": [g for g in required if not found[g]], "wrong_kinds": wrong_kinds,
            "unmatched_induced": [n for n in induced if n not in right]}


def run(gold_path: Path) -> dict:
    gold = yaml.safe_load(gold_path.read_text(encoding="utf-8"))
    seeds = sorted((ROOT / gold["seeds"]).glob("*.txt"))
    with tempfile.TemporaryDirectory() as tmp:
        result = induce_pack(seeds, gold["genre"], gold["language"], Path(tmp) / "pack")
    out = score(result.induction, gold)
    out["lint_problems"] = result.lint.get("problems")
    out["seeds"] = len(seeds)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--only", default=None, help="genre.language, e.g. insurance_claim.en")
    args = parser.parse_args()
    results = {}
    for path in sorted(GOLD.glob("*.yaml")):
        key = path.name[: -len(".yaml")]
        if args.only and key != args.only:
            continue
        results[key] = run(path)
        r = results[key]
        print(f"{key:26s} recall {r['recall']:.2f} precision {r['precision']:.2f} kinds {r['kind_accuracy']:.2f} "
              f"entity {'ok' if r['entity_right'] else 'WRONG ' + r['entity'] + ' vs ' + r['entity_gold']} "
              f"groups {r['groups_found']}/{r['groups_gold']} lint {r['lint_problems']}")
        if r["missed"]:
            print("   missed:", ", ".join(r["missed"]))
        if r["wrong_kinds"]:
            print("   kinds:", "; ".join(r["wrong_kinds"]))
        if r["unmatched_induced"]:
            print("   extra:", ", ".join(r["unmatched_induced"]))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
