"""Stage 4: question and initial answer generation from configs, over the seven types.

QRA templates live in ``templates/qra/<domain>.<language>.yaml``. Questions are generated
from configs, not prose, so the answer's facts are known exactly. Multi-document templates
see the pair as ``a`` and ``b``; comparison and time-sequence templates also see ``winner``
and ``loser``, computed here from the canonical values of the compared fact.
"""

from __future__ import annotations

import math
import random
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from functools import cache, lru_cache
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from dragonforge.errors import TemplateError
from dragonforge.models import (
    QRA,
    UNANSWERABLE_ANSWER,
    BoundFact,
    Config,
    Document,
    Keypoint,
    QueryType,
    Rejection,
)
from dragonforge.rng import rng_for
from dragonforge.templating import config_context, evaluate, load_template_model, render


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class KeypointTemplate(_Strict):
    text: str
    facts: list[str] = Field(default_factory=list)
    when: str | None = None


class QRATemplate(_Strict):
    id: str
    type: str  # short type name, e.g. "factual"
    questions: list[str]
    answer: str = ""
    facts: list[str] = Field(default_factory=list)
    keypoints: list[KeypointTemplate] = Field(default_factory=list)
    foreach: str | None = None
    when: str | None = None
    compare: str | None = None  # comparison / time sequence: the fact key compared
    pick: Literal["max", "min"] = "max"  # the winner holds the max (or min) value
    absent: list[str] = Field(default_factory=list)  # unanswerable: terms no document states
    sandboxed: bool = False  # compiled from a genre pack: rendered in Jinja's sandbox
    unique: str | None = None  # a fact key whose value must name one document of the group (a bridge)

    @property
    def query_type(self) -> QueryType:
        return QueryType.from_short(self.type)


class QRATemplateSet(_Strict):
    domain: str
    language: str
    templates: list[QRATemplate]


@cache
def load_qra_templates(domain: str, language: str) -> QRATemplateSet:
    templates = load_template_model("qra", domain, language, QRATemplateSet)
    for t in templates.templates:
        try:
            qtype = t.query_type
        except ValueError as exc:
            raise TemplateError(f"QRA template {t.id} ({domain}/{language}): {exc}") from None
        if qtype in (QueryType.COMPARISON, QueryType.TIME_SEQUENCE) and not t.compare:
            raise TemplateError(f"QRA template {t.id} ({domain}/{language}) needs 'compare'")
    return templates


# --- quotas -------------------------------------------------------------------------------


def allocate(total: int, mix: dict[str, float]) -> dict[str, int]:
    """Split ``total`` questions over types by ``mix`` (largest remainder), giving every type
    with a positive share at least one question whenever ``total`` allows."""
    shares = {k: v for k, v in mix.items() if v > 0}
    weight = sum(shares.values())
    exact = {k: total * v / weight for k, v in shares.items()}
    counts = {k: math.floor(x) for k, x in exact.items()}
    for k in sorted(shares, key=lambda k: exact[k] - counts[k], reverse=True)[: total - sum(counts.values())]:
        counts[k] += 1
    if total >= len(shares):
        for k in shares:
            while counts[k] == 0:
                donor = max(counts, key=lambda d: (counts[d], d))
                counts[donor] -= 1
                counts[k] += 1
    return {k: counts.get(k, 0) for k in mix}


# --- candidates ---------------------------------------------------------------------------


class _Candidate:
    __slots__ = ("template", "configs", "item")

    def __init__(self, template: QRATemplate, configs: tuple[Config, ...], item: int | None = None):
        self.template = template
        self.configs = configs
        self.item = item


def _single_doc_candidates(template: QRATemplate, config: Config, context: dict[str, Any]) -> list[_Candidate]:
    if template.foreach is None:
        ok = template.when is None or evaluate(template.when, context, template.sandboxed)
        return [_Candidate(template, (config,))] if ok else []
    items = context.get(template.foreach) or []
    out = []
    for i in range(len(items)):
        scope = _item_scope(context, template.foreach, i)
        if template.when is None or evaluate(template.when, scope, template.sandboxed):
            out.append(_Candidate(template, (config,), i))
    return out


def _item_scope(context: dict[str, Any], name: str, i: int) -> dict[str, Any]:
    return {**context, "item": context[name][i], "item_val": context["val"][name][i], "i": i,
            "n": len(context[name])}


def generate_qra(
    configs: list[Config],
    documents: list[Document],
    total: int,
    mix: dict[str, float],
    seed: int,
    templates: QRATemplateSet | None = None,
) -> tuple[list[QRA], list[Rejection]]:
    """Draft ``total`` QRAs (question, initial answer, facts) for one domain and language.

    References and keypoints are filled by later stages. Candidates that cannot be asked
    (a tie in a comparison, an "absent" term that a document does state) are returned as
    rejections with their reason, never silently dropped.
    """
    if not configs:
        return [], []
    domain, language = configs[0].domain, configs[0].language
    rng = rng_for(seed, "qra", domain, language)
    if templates is None:
        from dragonforge.registry import get_pack

        templates = get_pack(domain).qra_templates(language)
    pool_all = templates.templates
    contexts = {c.doc_id: config_context(c) for c in configs}
    quotas = allocate(total, mix)
    corpus = "\n".join(d.content for d in documents)

    by_type: dict[str, list[QRATemplate]] = defaultdict(list)
    for t in pool_all:
        by_type[t.type].append(t)

    drafts: list[QRA] = []
    rejections: list[Rejection] = []
    seen_questions: set[str] = set()

    for type_name, quota in quotas.items():
        if quota <= 0:
            continue
        qtype = QueryType.from_short(type_name)
        pool = by_type.get(type_name, [])
        candidates: Iterable[_Candidate]
        if qtype.multi_document:
            candidates = _pair_candidates(pool, configs, rng)
        else:
            candidates = _spread_single(pool, configs, contexts, rng)
        made = 0
        for cand in candidates:
            if made >= quota:
                break
            result = _instantiate(cand, contexts, rng, corpus, configs)
            if result is None:
                continue
            if isinstance(result, Rejection):
                rejections.append(result)
                continue
            if result.question in seen_questions:
                continue
            seen_questions.add(result.question)
            drafts.append(result)
            made += 1
    return drafts, rejections


def _spread_single(pool: list[QRATemplate], configs: list[Config], contexts: dict[int, dict[str, Any]],
                   rng: random.Random) -> list[_Candidate]:
    """Candidates ordered round-robin over documents, so every document gets questions,
    and within a document each template is used once before any is repeated."""
    per_doc: list[list[_Candidate]] = []
    for config in configs:
        cands = [c for t in pool for c in _single_doc_candidates(t, config, contexts[config.doc_id])]
        rng.shuffle(cands)
        per_doc.append(_by_template_rank(cands))
    return _interleave(per_doc, rng)


def _by_template_rank(cands: list[_Candidate]) -> list[_Candidate]:
    uses: dict[str, int] = defaultdict(int)
    ranked = []
    for c in cands:
        ranked.append((uses[c.template.id], c))
        uses[c.template.id] += 1
    return [c for _, c in sorted(ranked, key=lambda rc: rc[0])]


def _interleave(lists: list[list[_Candidate]], rng: random.Random) -> list[_Candidate]:
    order = list(range(len(lists)))
    rng.shuffle(order)
    out: list[_Candidate] = []
    for depth in range(max((len(x) for x in lists), default=0)):
        out.extend(lists[i][depth] for i in order if depth < len(lists[i]))
    return out


def _pair_candidates(pool: list[QRATemplate], configs: list[Config], rng: random.Random) -> Iterator[_Candidate]:
    """Every (pair, template) once, lazily, spread so consecutive picks use different pairs:
    each pair's first template, then each pair's second, and so on."""
    if len(configs) < 2 or not pool:
        return
    pairs = [(i, j) for i in range(len(configs)) for j in range(i + 1, len(configs))]
    rng.shuffle(pairs)
    orders: dict[tuple[int, int], tuple[tuple[Config, Config], list[QRATemplate]]] = {}
    for depth in range(len(pool)):
        for i, j in pairs:
            if (i, j) not in orders:
                a, b = configs[i], configs[j]
                templates = list(pool)
                rng.shuffle(templates)
                orders[(i, j)] = ((a, b) if rng.random() < 0.5 else (b, a), templates)
            pair, templates = orders[(i, j)]
            yield _Candidate(templates[depth], pair)


def _instantiate(cand: _Candidate, contexts: dict[int, dict[str, Any]], rng: random.Random,
                 corpus: str, group: list[Config] = ()) -> QRA | Rejection | None:  # type: ignore[assignment]
    t = cand.template
    qtype = t.query_type
    first = cand.configs[0]
    bindings: dict[str, Config] = {}
    if qtype.multi_document:
        a, b = cand.configs
        scope: dict[str, Any] = {"a": contexts[a.doc_id], "b": contexts[b.doc_id]}
        bindings = {"a": a, "b": b}
        if t.when and not evaluate(t.when, scope, t.sandboxed):
            return None  # the template does not apply to this pair
        if t.compare:
            va, vb = _compared_value(a, t.compare), _compared_value(b, t.compare)
            if va is None or vb is None:
                return None  # a document of the pair lacks the compared fact
            if va == vb:
                return _reject(cand, f"tie on {t.compare}: the comparison has no answer", None)
            a_wins = (va > vb) == (t.pick == "max")
            winner, loser = (a, b) if a_wins else (b, a)
            scope.update(winner=contexts[winner.doc_id], loser=contexts[loser.doc_id])
            bindings.update(winner=winner, loser=loser)
    else:
        scope = contexts[first.doc_id]
        if cand.item is not None:
            assert t.foreach is not None  # an item is drawn from a foreach template's list
            scope = _item_scope(scope, t.foreach, cand.item)

    if t.unique:
        value = first.facts[t.unique].text if t.unique in first.facts else None
        sharing = sum(1 for c in group if t.unique in c.facts and c.facts[t.unique].text == value)
        if value is None or sharing > 1:
            return _reject(cand, f"{t.unique} {value!r} names {sharing} documents, not one", None)
    question = render(rng.choice(t.questions), scope, t.sandboxed)
    if qtype is QueryType.UNANSWERABLE:
        stated = [term for term in t.absent if _states_term(corpus, term)]
        if stated:
            return _reject(cand, f"corpus states {stated[0]!r}, so the question is answerable", question)
        return QRA(domain=first.domain, language=first.language, query_type=qtype, template=t.id,
                   question=question, answer=UNANSWERABLE_ANSWER[first.language], doc_ids=[],
                   keypoints=[Keypoint(text=UNANSWERABLE_ANSWER[first.language])])

    answer = render(t.answer, scope, t.sandboxed)
    facts = _bind_all(t.facts, cand, bindings, scope)
    keypoints = [
        Keypoint(text=render(kp.text, scope, t.sandboxed), facts=_bind_all(kp.facts, cand, bindings, scope))
        for kp in t.keypoints
        if kp.when is None or evaluate(kp.when, scope, t.sandboxed)
    ]
    doc_ids = [c.doc_id for c in cand.configs]
    return QRA(domain=first.domain, language=first.language, query_type=qtype, template=t.id,
               question=question, answer=answer, doc_ids=doc_ids, facts=_unique(facts),
               keypoints=keypoints)


def _compared_value(config: Config, key: str) -> Any:
    fact = config.facts.get(key)
    return None if fact is None else fact.value


@lru_cache(maxsize=4096)
def _states_term(corpus: str, term: str) -> bool:
    """Whether the corpus states ``term``: as a whole word, any case, for Latin terms; as a
    substring for Chinese ones. Cached: a group's questions ask about the same terms of the
    same corpus again and again, and each search scans every document."""
    if term.isascii():
        if not _MAY_FOLD_TO_ASCII.search(corpus) and term.lower() not in _lower(corpus):
            return False  # the regex below needs ~10 ms a search on a large corpus
        return re.search(rf"\b{re.escape(term)}\b", corpus, re.IGNORECASE) is not None
    return term in corpus


# Characters other than ASCII letters that a case-insensitive ASCII pattern can match (ı, İ, ſ, K):
# without them, an ASCII term matches only where the lower-cased corpus holds it lower-cased.
_MAY_FOLD_TO_ASCII = re.compile("[\u0130\u0131\u017f\u212a]")


@lru_cache(maxsize=16)
def _lower(corpus: str) -> str:
    return corpus.lower()


def _bind_all(keys: list[str], cand: _Candidate, bindings: dict[str, Config], scope: dict[str, Any]) -> list[BoundFact]:
    """Bind template fact keys; a key starting with ``?`` is optional and skipped when the
    document lacks that fact."""
    out = []
    for key in keys:
        optional = key.startswith("?")
        bound = _bind(key[1:] if optional else key, cand, bindings, scope, optional)
        if bound is not None:
            out.append(bound)
    return out


def _bind(key: str, cand: _Candidate, bindings: dict[str, Config], scope: dict[str, Any],
          optional: bool = False) -> BoundFact | None:
    """Resolve a template's fact key: ``{i}`` is the foreach index, ``{{ ... }}`` is rendered
    against the template scope (``a:events.{{ a.acq_index }}.date``), a ``role:`` prefix
    picks the document of a pair."""
    if "{{" in key:
        key = render(key, scope, cand.template.sandboxed)
    if cand.item is not None:
        key = key.replace("{i}", str(cand.item))
    if ":" in key:
        role, key = key.split(":", 1)
        if role not in bindings:
            raise TemplateError(f"template {cand.template.id}: fact prefix {role!r} is not bound")
        config = bindings[role]
    else:
        config = cand.configs[0]
    if optional and key not in config.facts:
        return None
    fact = config.fact(key)
    return BoundFact(doc_id=config.doc_id, **fact.model_dump())


def _unique(facts: list[BoundFact]) -> list[BoundFact]:
    seen: set[tuple[int, str]] = set()
    out = []
    for f in facts:
        if (f.doc_id, f.key) not in seen:
            seen.add((f.doc_id, f.key))
            out.append(f)
    return out


def _reject(cand: _Candidate, reason: str, question: str | None) -> Rejection:
    first = cand.configs[0]
    return Rejection(domain=first.domain, language=first.language, stage="qra", reason=reason,
                     query_type=cand.template.query_type, template=cand.template.id,
                     question=question, doc_ids=[c.doc_id for c in cand.configs])
