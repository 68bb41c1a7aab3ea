"""Judge against human labels: agreement, Cohen's kappa, per-label recall and precision, and how far
the keypoint metrics the judge gives lie from the ones the human labels give (the way the RAGEval
paper validated its judge). Used by ``dragonforge calibrate --labels`` and ``bench/judge_sealed.py``."""

from __future__ import annotations

import json
import random
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dragonforge.errors import InputError, OutputConflictError
from dragonforge.files import jsonl_bytes, write_bytes_atomic

LABELS = ("Relevant", "Irrelevant", "Wrong")
METRIC_OF = {"completeness": "Relevant", "hallucination": "Wrong", "irrelevance": "Irrelevant"}


@dataclass(frozen=True)
class Pair:
    """One keypoint judged twice: ``unit`` names the answer it belongs to (metrics are per answer)."""

    unit: str
    language: str
    human: str
    judge: str


def cohen_kappa(pairs: list[Pair]) -> float | None:
    """Cohen's kappa of judge and human over the three labels (None for no pairs; 1.0 when both
    always give the one same label)."""
    n = len(pairs)
    if not n:
        return None
    observed = sum(p.human == p.judge for p in pairs) / n
    human, judge = Counter(p.human for p in pairs), Counter(p.judge for p in pairs)
    expected = sum(human[lab] * judge[lab] for lab in set(human) | set(judge)) / (n * n)
    return 1.0 if expected == 1 else (observed - expected) / (1 - expected)


def keypoint_metrics(pairs: Iterable[Pair], who: str) -> dict[str, float | None]:
    """Completeness, hallucination and irrelevance as evaluate computes them: per answer, the share
    of its keypoints with that label, then the mean over answers."""
    units: dict[str, list[str]] = defaultdict(list)
    for p in pairs:
        units[p.unit].append(p.human if who == "human" else p.judge)
    out: dict[str, float | None] = {}
    for metric, label in METRIC_OF.items():
        shares = [labels.count(label) / len(labels) for labels in units.values()]
        out[metric] = sum(shares) / len(shares) if shares else None
    return out


def agreement(pairs: list[Pair], by_language: bool = True) -> dict[str, Any]:
    n = len(pairs)
    out: dict[str, Any] = {"keypoints": n, "answers": len({p.unit for p in pairs}),
                           "accuracy": round(sum(p.human == p.judge for p in pairs) / n, 4) if n else None}
    kappa = cohen_kappa(pairs)
    out["kappa"] = round(kappa, 4) if kappa is not None else None
    labels: dict[str, dict[str, Any]] = {}
    for lab in LABELS:
        human = [p for p in pairs if p.human == lab]
        judged = [p for p in pairs if p.judge == lab]
        labels[lab] = {"human": len(human), "judge": len(judged),
                       "recall": round(sum(p.judge == lab for p in human) / len(human), 4) if human else None,
                       "precision": round(sum(p.human == lab for p in judged) / len(judged), 4) if judged else None}
    out["labels"] = labels
    out["confusion"] = {h: {j: sum(1 for p in pairs if p.human == h and p.judge == j) for j in LABELS} for h in LABELS}
    human_m, judge_m = keypoint_metrics(pairs, "human"), keypoint_metrics(pairs, "judge")
    out["metrics"] = {m: {"human": _r(h), "judge": _r(j), "gap": _r(abs(j - h)) if h is not None and j is not None
                          else None} for m in METRIC_OF for h, j in ((human_m[m], judge_m[m]),)}
    if by_language:
        out["by_language"] = {lang: agreement([p for p in pairs if p.language == lang], by_language=False)
                              for lang in sorted({p.language for p in pairs})}
    return out


def _r(x: float | None) -> float | None:
    return None if x is None else round(x, 4)


# --- the command: export a stratified sample, read the labels back -----------------------------

SAMPLE_FILE = "calibration_sample.jsonl"


def _read_jsonl(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        raise InputError(f"{path} not found")
    try:
        text = path.read_text(encoding="utf-8-sig")  # a byte-order mark (a spreadsheet's export) is fine
    except UnicodeDecodeError:
        raise InputError(f"{path} is not UTF-8 text (save it as UTF-8 JSON Lines)") from None
    rows = []
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as exc:
            raise InputError(f"{path} line {number}: not JSON ({exc.msg})") from None
        if not isinstance(row, dict):
            raise InputError(f"{path} line {number}: not a JSON object")
        rows.append(row)
    return rows


def judged_keypoints(eval_dir: Path) -> list[dict[str, Any]]:
    """Every keypoint the run judged, with what an annotator needs to label it again: the question
    and answer (predictions.jsonl), the keypoint and the judge's label (per_query.jsonl)."""
    records = _read_jsonl(eval_dir / "per_query.jsonl")
    questions: dict[Any, str] = {}
    if (eval_dir / "predictions.jsonl").is_file():
        for row in _read_jsonl(eval_dir / "predictions.jsonl"):
            q = row.get("query") or {}
            questions[q.get("query_id")] = q.get("content", "")
    out = []
    for record in records:
        for index, label in enumerate(record.get("labels") or []):
            if not label:
                continue  # the judge failed on this keypoint: nothing to calibrate
            out.append({"query_id": record["query_id"], "keypoint_index": index,
                        "query_type": record.get("query_type"), "language": record.get("language"),
                        "domain": record.get("domain"), "question": questions.get(record["query_id"], ""),
                        "answer": record.get("answer", ""), "keypoint": label["keypoint"], "judge": label["label"]})
    if not out:
        raise InputError(f"{eval_dir}: no judged keypoints in per_query.jsonl (was the run made with --judge none?)")
    return out


def stratified_sample(items: list[dict[str, Any]], n: int, seed: int = 0) -> list[dict[str, Any]]:
    """``n`` keypoints drawn so that every (question type, language, judge label) stratum is
    represented in proportion to its size, each non-empty stratum by at least one when ``n``
    allows (largest remainders first); deterministic for a seed."""
    strata: dict[tuple, list[dict[str, Any]]] = defaultdict(list)
    for item in items:
        strata[(item["query_type"], item["language"], item["judge"])].append(item)
    keys = sorted(strata, key=str)
    n = min(n, len(items))
    quota = {k: 0 for k in keys}
    if n >= len(keys):
        quota = {k: 1 for k in keys}
    rest = n - sum(quota.values())
    shares = {k: rest * len(strata[k]) / len(items) for k in keys}
    for k in keys:
        quota[k] += int(shares[k])
    left = n - sum(quota.values())
    for k in sorted(keys, key=lambda k: (-(shares[k] - int(shares[k])), str(k)))[:left]:
        quota[k] += 1
    # a stratum cannot give more than it has: its excess goes to the largest strata with room
    while True:
        excess = sum(max(0, quota[k] - len(strata[k])) for k in keys)
        if not excess:
            break
        for k in keys:
            quota[k] = min(quota[k], len(strata[k]))
        for k in sorted(keys, key=lambda k: (-(len(strata[k]) - quota[k]), str(k))):
            take = min(excess, len(strata[k]) - quota[k])
            quota[k] += take
            excess -= take
    rng = random.Random(seed)
    chosen = []
    for k in keys:
        pool = sorted(strata[k], key=lambda it: (it["query_id"], it["keypoint_index"]))
        chosen += rng.sample(pool, min(quota[k], len(pool)))
    return sorted(chosen, key=lambda it: (it["query_id"], it["keypoint_index"]))


def export_sample(eval_dir: Path, n: int, out: Path, seed: int = 0) -> list[dict[str, Any]]:
    """Write the sample for annotation: each row has ``label`` null for the annotator to fill in
    (Relevant, Irrelevant or Wrong); the judge's label is left out so it cannot sway them."""
    if out.exists():
        raise OutputConflictError(f"{out} exists (it may hold labels): give another --out or move it away")
    sample = stratified_sample(judged_keypoints(eval_dir), n, seed)
    rows = [{"id": f"q{it['query_id']}-k{it['keypoint_index']}", "query_id": it["query_id"],
             "keypoint_index": it["keypoint_index"], "query_type": it["query_type"], "language": it["language"],
             "domain": it["domain"], "question": it["question"], "answer": it["answer"], "keypoint": it["keypoint"],
             "label": None} for it in sample]
    write_bytes_atomic(out, jsonl_bytes(rows))
    return rows


def read_labels(eval_dir: Path, labels_file: Path) -> tuple[list[Pair], int]:
    """The human labels of ``labels_file`` paired with the judge's labels of the run, and how many
    rows had no label yet (skipped). An unknown label or a keypoint the run has not is an error."""
    judged = {(it["query_id"], it["keypoint_index"]): it for it in judged_keypoints(eval_dir)}
    names = {lab.lower(): lab for lab in LABELS}
    pairs, unlabelled = [], 0
    seen: dict[tuple, int] = {}
    for number, row in enumerate(_read_jsonl(labels_file), start=1):
        raw = row.get("label")
        if raw in (None, ""):
            unlabelled += 1
            continue
        label = names.get(str(raw).strip().lower())
        if label is None:
            raise InputError(f"{labels_file} line {number}: label {raw!r} is not one of {', '.join(LABELS)}")
        key = (row.get("query_id"), row.get("keypoint_index"))
        if key in seen:
            raise InputError(f"{labels_file} line {number}: query {key[0]} keypoint {key[1]} is labelled twice "
                             f"(first on line {seen[key]})")
        seen[key] = number
        item = judged.get(key)
        if item is None:
            raise InputError(f"{labels_file} line {number}: query {key[0]} keypoint {key[1]} is not in "
                             f"{eval_dir}/per_query.jsonl (labels from another run?)")
        if row.get("keypoint") not in (None, item["keypoint"]):
            raise InputError(f"{labels_file} line {number}: its keypoint text differs from the run's "
                             f"(labels from another benchmark?)")
        pairs.append(Pair(str(item["query_id"]), item["language"] or "", label, item["judge"]))
    if not pairs:
        raise InputError(f"{labels_file}: no row has a label yet (fill in \"label\" with Relevant, Irrelevant or "
                         "Wrong)")
    return pairs, unlabelled


def report_text(result: dict[str, Any], unlabelled: int = 0) -> str:
    lines = [f"judge vs human labels: {result['keypoints']} keypoints of {result['answers']} answers"
             + (f" ({unlabelled} rows without a label skipped)" if unlabelled else ""),
             f"accuracy {result['accuracy']:.3f}   Cohen's kappa {result['kappa']:.3f}", "",
             f"{'label':<12}{'human':>7}{'judge':>7}{'recall':>8}{'precision':>11}"]
    for lab, s in result["labels"].items():
        fmt = lambda x: "-" if x is None else f"{x:.3f}"  # noqa: E731
        lines.append(f"{lab:<12}{s['human']:>7}{s['judge']:>7}{fmt(s['recall']):>8}{fmt(s['precision']):>11}")
    lines += ["", f"{'metric':<15}{'human':>8}{'judge':>8}{'|diff|':>8}"]
    for metric, s in result["metrics"].items():
        lines.append(f"{metric:<15}{s['human']:>8.3f}{s['judge']:>8.3f}{s['gap']:>8.3f}")
    for lang, s in (result.get("by_language") or {}).items():
        gaps = "  ".join(f"{m} |diff| {v['gap']:.3f}" for m, v in s["metrics"].items())
        lines.append(f"{lang}: {s['keypoints']} keypoints, accuracy {s['accuracy']:.3f}, kappa "
                     f"{s['kappa']:.3f}; {gaps}")
    return "\n".join(lines)
