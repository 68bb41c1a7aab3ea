"""``induction-report.md``: what the inducer found and how sure it is, for the team's review.

It names labels, kinds and counts, never a seed's values (the report travels with the pack).
"""

from __future__ import annotations

from dragonforge.induce.infer import Induction


def report(ind: Induction, check_lines: list[str], lint: dict, dropped: list[tuple[str, str]], llm: dict) -> str:
    n = len(ind.documents)
    safe = ind.fingerprint.value_in

    def _cell(text: str) -> str:  # a label or heading that holds a seed's value is masked
        text = str(text)
        return ("(a label holding a seed value)" if safe(text) else text).replace("|", "\\|").replace("\n", " ")

    out = [f"# Induction report: `{ind.genre}` ({ind.language})", "",
           f"Induced from {n} seed document(s), numbered here in the order given (their file names may name "
           "what they are about, so the report does not print them).",
           f"Engine: {'offline + LLM (grounded)' if llm else 'offline'}. The pack holds labels, headings, value "
           "shapes and ranges; no seed value except short category words (see *Pools*).", "",
           "## Entity", "",
           f"`{ind.entity}` ({ind.slots[ind.entity].kind}), labelled "
           + ", ".join(f"“{_cell(lab)}”" for lab in ind.slots[ind.entity].labels)
           + f"; questions name a document as: `{_cell(ind.anchor)}`.", "",
           "## Slots by support", "",
           "| slot | kind | labels (aliases) | seeds | confidence | how values are drawn |",
           "|---|---|---|---|---|---|"]
    for name, slot in sorted(ind.slots.items(), key=lambda kv: (-len(kv[1].seeds), kv[0])):
        how = _how(slot)
        out.append(f"| `{name}` | {slot.kind} | {_cell(' / '.join(slot.labels))} | {len(slot.seeds)}/{n} | "
                   f"{slot.confidence:.2f} | {_cell(how)} |")
    groups = {g: grp for g, grp in ind.groups.items() if not grp.spec.get("_drop")}
    out += ["", "## Groups (repeated record lines)", ""]
    if not groups:
        out.append("None found.")
    for name, group in groups.items():
        fields = ", ".join(f"{f} ({k})" for f, k in group.fields.items())
        out.append(f"- `{name}` ({group.layout}, in {len(group.seeds)}/{n} seeds, {len(group.records)} records): "
                   f"fields {fields}; record line `{_cell(group.line)}`"
                   + (f"; totals derived from it: {', '.join('`' + t + '`' for t in group.totals)}" if group.totals else ""))
    out += ["", "## Merged aliases", ""]
    merged = [(name, labels) for name, labels in ind.merged if name in ind.slots]
    out += [f"- `{name}`: " + " = ".join(f"“{_cell(lab)}”" for lab in labels) for name, labels in merged] or ["None."]
    out += ["", "## Constraints that hold in every seed", ""]
    derived = [(n_, s.derived) for n_, s in ind.slots.items() if s.derived]
    out += [f"- `{n_} = {_cell(d)}` (derived)" for n_, d in derived]
    afters = [(n_, s.spec["after"]) for n_, s in ind.slots.items() if s.spec.get("after")]
    out += [f"- `{n_}` is {a['days'][0]} to {a['days'][1]} days after `{a['slot']}`" for n_, a in afters]
    out += [f"- `{c}`: {_cell(name)}" for c, name in ind.constraints]
    if not (derived or afters or ind.constraints):
        out.append("None found.")
    opens = [(n_, s) for n_, s in ind.slots.items() if s.kind in ("category", "text", "narrative") and
             not s.spec.get("closed", True)]
    out += ["", "## Pools and open categories", ""]
    for n_, s in ind.slots.items():
        if s.text.get("pool"):
            state = "closed" if s.spec.get("closed", True) else "open"
            out.append(f"- `{n_}` ({state}): {len(s.text['pool'])} value(s) from the seeds")
    if opens:
        out.append("")
        out.append("Open categories whose only vocabulary is the seeds' own values (add more values to the pool):"
                   + " " + ", ".join(f"`{n_}`" for n_, _ in opens))
    out += ["", "## Left out", ""]
    left = list(ind.left_out) + dropped
    out += [f"- {what}: {_cell(why)}" for what, why in left] or ["Nothing."]
    if ind.warnings:
        names = {d.name: f"seed {i + 1}" for i, d in enumerate(ind.documents)}
        out += ["", "## Warnings", ""]
        for w in ind.warnings:
            for name, number in names.items():
                w = w.replace(f"seed {name}", number)
            out.append(f"- {w}")
    out += ["", "## Check (as `dragonforge check-genre`)", "", "```"] + check_lines + ["```"]
    whys = [line for line in check_lines if line.startswith("no ")]
    out += ["", "## Question types that will lack candidates", ""]
    out += [f"- {line}" for line in whys] or ["None: every type has candidates."]
    out += ["", "## Leak lint on the drawn documents", "",
            f"{lint.get('documents', 0)} documents drawn: {lint.get('problems', 0)} problem(s); the closest is "
            f"{lint.get('max_similarity_to_a_seed', 0):.3f} (shingle Jaccard) to a seed, the limit "
            f"{lint.get('close_threshold', 0.5)}. The pack's `leak.json` holds keyed hashes of the seeds' "
            "distinctive values and prose runs, so every build of the pack runs this lint without the seeds."]
    if llm:
        out += ["", "## LLM proposal", ""]
        out += [f"- {k}: {_cell(v)}" for k, v in llm.items()]
    return "\n".join(out) + "\n"


def _how(slot) -> str:
    spec = slot.spec
    if slot.derived:
        return f"derived: {slot.derived}"
    parts = []
    if spec.get("pattern"):
        parts.append(f"pattern {spec['pattern']}")
    if spec.get("range"):
        parts.append(f"range {spec['range'][0]}–{spec['range'][1]}" + (f" {spec['unit']}" if spec.get("unit") else ""))
    if spec.get("window"):
        parts.append(f"window {spec['window'][0]}–{spec['window'][1]}")
    if spec.get("after"):
        parts.append(f"after {spec['after']['slot']}")
    if slot.text.get("style"):
        parts.append(f"style {slot.text['style']}")
    if slot.text.get("pool"):
        parts.append(f"pool of {len(slot.text['pool'])}")
    if slot.kind in ("person", "organisation", "party", "address", "place"):
        parts.append("Faker")
    if slot.note:
        parts.append(slot.note)
    return ", ".join(parts) or "-"
