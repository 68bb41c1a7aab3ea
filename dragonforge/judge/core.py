"""The judge's order of decisions for one keypoint (see the package docstring)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pydantic import ValidationError

from dragonforge.judge.abbreviations import expand
from dragonforge.judge.analysis import (
    _P_REFUSAL_EN_ANYWHERE,
    _P_REFUSAL_ZH,
    _analyse,
    _clause_of,
    _context,
    _context_span,
    _sentence,
    _sentence_index,
    _Text,
)
from dragonforge.judge.entities import (
    _add_entity,
    _Entity,
    _fact_entity,
    _mentions,
    _org_kind,
    _party_kind,
    _same_entity,
    _with_short_names,
)
from dragonforge.judge.labels import (
    CONTEXT_SAME_FACT,
    CONTEXT_SOLE_FACT,
    COVERAGE_RELEVANT,
    RESIDUAL_RELEVANT,
    KeypointLabel,
    Label,
)
from dragonforge.judge.parties import (
    _RELATION_SAME,
    DATE_EVENTS,
    _answer_roles,
    _crossed_pair,
    _date_event,
    _judge_comparison,
    _kp_roles,
    _member_clash,
    _names_event,
    _other_event,
    _other_record,
    _other_role,
    _parallel,
    _related_parties,
    _reversed_relation,
    _role_binding,
    _role_denied,
    _role_stand_in,
    _same_course,
    _swapped_clause,
    _swapped_roles,
    _under_other_label,
)
from dragonforge.judge.polarity import (
    _allergy_denied,
    _comparatives,
    _direction,
    _direction_clash,
    _negated,
    _negation_flip,
    _opposite_word,
    _polarity_clash,
    _prior_record_denied,
    _signed,
    _term_ruled_out,
    _topic_negated,
    _value_said_none,
)
from dragonforge.judge.refusal import _is_unanswerable_keypoint, _judge_unanswerable
from dragonforge.judge.scene import _NO_CLAUSE, _P_CODE_EN, _fact_values, _kp_words, _refused_here, _Scene, _Sibling
from dragonforge.judge.substitution import (
    _P_NOT_A_FILLER,
    _P_UNIT_OF_ORG,
    _category_after_is_a,
    _closed_class_swap,
    _code_swap,
    _drug_denied,
    _drug_swap,
    _drugs,
    _en_diagnosis_swap,
    _fact_given_to_other,
    _fact_lead_swap,
    _field_label_swap,
    _filler_clash,
    _frame_substitution,
    _kind_swap,
    _label_value,
    _lead_swap,
    _place_swap,
    _procedure_swap,
    _said_otherwise_zh,
    _shares_drug,
    _substitution,
    _terms,
    _value_swap,
    _zh_diagnosis_swap,
    _zh_member_swap,
    _zh_occupation_swap,
)
from dragonforge.judge.values import (
    Value,
    _close,
    _conflicts,
    _same_value,
    _specific,
    _value_phrase,
    en_number_words,
)
from dragonforge.judge.words import _P_CJK, _STOP_EN, _content_tokens, _coverage, _share, _stem, _token_spans
from dragonforge.models import KeypointFact

_P_NUMBERING = re.compile(r"^\s*\d+\s*[.、)）]\s*")


def _strip_keypoint(kp: str) -> str:
    return _P_NUMBERING.sub("", kp).strip()


def judge_keypoints(answer: str, keypoints: list[str], language: str,
                    keypoint_facts: Sequence[Sequence[KeypointFact | dict]] | None = None,
                    unanswerable: bool = False, question: str | None = None) -> list[KeypointLabel]:
    """Label every keypoint of one query against one answer (offline, deterministic). ``question``, where
    given, tells an off-topic answer to an unanswerable question (Irrelevant) from a made-up one (Wrong)."""
    language = "zh" if language == "zh" else "en"
    answer = expand(answer or "", language)
    texts = [expand(_strip_keypoint(kp), language) for kp in keypoints]
    if language == "en":
        answer, texts = en_number_words(answer), [en_number_words(t) for t in texts]
    if unanswerable or (texts and all(_is_unanswerable_keypoint(t) for t in texts)):
        return [_judge_unanswerable(kp, answer, language, question) for kp in keypoints]
    if not answer.strip():
        return [KeypointLabel(keypoint=kp, label="Irrelevant", reason="empty answer") for kp in keypoints]
    ans = _analyse(answer, language)
    kp_texts = [_analyse(t, language) for t in texts]
    facts = [_facts(keypoint_facts[i] if keypoint_facts and i < len(keypoint_facts) else None) for i in range(len(texts))]
    if language == "en":  # (a fact is read as its keypoint is: "Medical Centre" is "Medical Center")
        facts = [[f.model_copy(update={"text": expand(f.text, language)}) if f.text else f for f in kp_facts]
                 for kp_facts in facts]
    entities: list[_Entity] = []
    for kt, kp_facts in zip(kp_texts, facts, strict=False):
        for fact in kp_facts:
            if fact.kind in ("person", "organisation") and fact.text:
                _add_entity(entities, _fact_entity(fact, language))
        for ent in kt.entities:
            _add_entity(entities, ent)
    known = len(entities)
    for ent in ans.entities:
        _add_entity(entities, ent)
    if language == "en":
        entities = _with_short_names(entities)
    scene = _Scene(ans, language, entities, _mentions(answer, entities, language), known)
    if question:  # what the question already says is its premise, not what a keypoint asks the answer to state
        question = expand(question, language)
        scene.question = question if language == "zh" else en_number_words(question).lower()
    scene.keypoints = [_Sibling(kt, tuple(_fact_values(kt, kp_facts)),
                                frozenset(i for _, _, i in scene.mentions_in(kt.text)), _kp_words(kt, scene))
                       for kt, kp_facts in zip(kp_texts, facts, strict=False)]
    out = []
    for kp, kt, kp_facts in zip(keypoints, kp_texts, facts, strict=False):
        if _is_unanswerable_keypoint(kt.text):
            out.append(_judge_unanswerable(kp, answer, language, question))
            continue
        label, reason = _judge_one(kt, scene, kp_facts)
        out.append(KeypointLabel(keypoint=kp, label=label, reason=reason))
    return out


def _facts(given: Sequence[KeypointFact | dict] | None) -> list[KeypointFact]:
    """A keypoint's build facts as models; a fact that is not one (no kind or text) tells nothing and is left out."""
    out = []
    for fact in given or ():
        if isinstance(fact, KeypointFact):
            out.append(fact)
            continue
        try:
            out.append(KeypointFact.model_validate(fact))
        except ValidationError:
            continue
    return out


def _judge_one(kt: _Text, scene: _Scene, facts: list[KeypointFact]) -> tuple[Label, str]:
    lang = scene.language
    kp_parties = list(dict.fromkeys(i for _, _, i in scene.mentions_in(kt.text)))
    named_by_facts = []
    for fact in facts:
        if fact.kind in ("person", "organisation") and fact.text:
            ent = _fact_entity(fact, scene.language)
            named_by_facts += [i for i, e in enumerate(scene.entities) if _same_entity(e, ent)]
    kp_parties += [i for i in named_by_facts if i not in kp_parties]
    values = _fact_values(kt, facts)
    asked_for = False
    if scene.premise_values:
        asked = [v for v in values if any(_same_value(v, q) for q in scene.premise_values)]
        said = scene.answer.values
        if asked and len(asked) == len(values) and (kp_parties or facts) and not any(
                not any(_same_value(v, a) or (v.kind == "date" and _same_value(a, v)) for a in said) and any(
                    _conflicts(v, a) and (  # (a date said without its year, 11月19日, is said)
                    v.kind != "date" or _same_dated_event(kt, v, scene, a))
                    for a in said) for v in asked):
            values, asked_for = [], True  # "出生于DATE的被告人是NAME" asked as "who was born on DATE?": the name is the point
            # (unless the answer gives another value for it, not the question's, "at the hearing held on DATE2":
            # then it is judged by its values)
    label, reason = (_judge_values(kt, scene, values, kp_parties, facts) if values
                     else _judge_words(kt, scene, kp_parties, facts))
    if asked_for and label == "Irrelevant" and named_by_facts:
        if all(scene.mentioned(i) for i in named_by_facts):  # (still open to the checks for Wrong below)
            label, reason = "Relevant", f"names {scene.entities[named_by_facts[0]].name}, the party of the question's value"
        other = _owner_of_asked_value(scene, named_by_facts)
        if other is not None:
            return "Wrong", f"answer gives the question's value to {scene.entities[other].name}"
    if label != "Wrong":
        # whom the keypoint speaks of: not the party that is its fact's value ("辩护人系X律师事务所律师" is the
        # defendant's, whom the question names), so "王军没有委托辩护人" denies it
        valued = bool(named_by_facts) and all(i in named_by_facts for i in kp_parties) and not any(
            i in named_by_facts and not _negated((_clause_of(scene.answer, a) or _NO_CLAUSE).text, lang)
            for a, _, i in scene.mentions)  # (the fact's party said plainly, "指派律师李明为其辩护", answers it)
        subject = kp_parties + [i for i, e in enumerate(scene.entities) if i not in kp_parties
                                and any(a in scene.question for a in e.aliases)] if valued else kp_parties
        swapped = _frame_substitution(kt, scene, kp_parties) or _swapped_clause(kt, scene) or \
            _topic_negated(kt, scene, subject, unnamed_too=valued) or _value_swap(kt, scene, kp_parties, facts) or \
            _swapped_roles(kt, scene) or _reversed_relation(kt, scene) or _closed_class_swap(kt, scene, kp_parties) \
            or _crossed_pair(kt, scene, kp_parties, _kp_words(kt, scene)) or _other_role(kt, scene, kp_parties) \
            or _role_stand_in(kt, scene, kp_parties) or _drug_swap(kt, scene, kp_parties) \
            or _procedure_swap(kt, scene, kp_parties) or _zh_member_swap(kt, scene, kp_parties, facts) \
            or _fact_lead_swap(kt, scene, kp_parties, facts) or _code_swap(kt, scene) \
            or _place_swap(kt, scene, kp_parties, facts) or _role_denied(kt, scene, kp_parties) \
            or _term_ruled_out(kt, scene, kp_parties) or _category_after_is_a(kt, scene, kp_parties, facts) \
            or _prior_record_denied(kt, scene, kp_parties) or _field_label_swap(kt, scene, kp_parties, facts) \
            or _lead_swap(kt, scene) or _kind_swap(kt, scene, kp_parties) or _drug_denied(kt, scene, kp_parties) \
            or _allergy_denied(kt, scene, kp_parties) or _fact_given_to_other(kt, scene, kp_parties, facts) \
            or _zh_diagnosis_swap(kt, scene, kp_parties, facts) or _zh_occupation_swap(kt, scene, kp_parties, facts) \
            or _en_diagnosis_swap(kt, scene, kp_parties, facts)
        if swapped:
            return "Wrong", swapped
    denied = next((i for i in named_by_facts if _party_denied(scene, i, kt)), None)
    if denied is not None and label != "Wrong":
        return "Wrong", f"answer denies {scene.entities[denied].name} the keypoint's part"
    absent = [i for i in named_by_facts if not scene.mentioned(i)
              and not any(a in scene.question for a in scene.entities[i].aliases)]  # the question names it
    if absent:
        other = _stand_in(kt, scene, absent[0], kp_parties)
        if other is not None:
            return "Wrong", f"answer names {scene.entities[other].name} where keypoint names {scene.entities[absent[0]].name}"
    if label == "Relevant" and absent:
        return "Irrelevant", f"does not name {scene.entities[absent[0]].name}"  # a build fact's name is the value
    return label, reason


# a party said not to have taken the part the keypoint gives it: "并非由X实施", "X并未参与", "not with X", "X did not
# take part"
_P_PARTY_DENIED_BEFORE = re.compile(r"(?:并非|并不是|不是|而非)(?:由|是)?$|\b(?:not|never)\s+(?:by|with|from|at)\s+(?:the\s+)?$|"
                                    r"\b(?:rather than|instead of|other than)\s+(?:the\s+)?$", re.I)
_P_PARTY_DENIED_AFTER = re.compile(r"^(?:医师|医生|律师|检察员|审判员|书记员)?(?:并未|未曾|未|没有|并没有|从未|不曾)(?:参与|参加|出庭|实施|负责|担任|到庭)|"
                                   r"^\s+(?:(?:was|is|were)\s+not\s+(?:involved|present|a party)|did\s+not\s+(?:take part|"
                                   r"participate|appear|attend|act)|(?:had|has)\s+no\s+(?:role|part))\b", re.I)


def _party_denied(scene: _Scene, party: int, kt: _Text) -> bool:
    """Is every mention of a party (the keypoint's fact's) in the answer one that denies it its part, in a keypoint
    that denies nothing, where no other clause says the keypoint's words ("X未参与本次认购，其仍为控股股东")?"""
    ans, lang = scene.answer, scene.language
    text = ans.text
    if _negated(kt.text, lang):
        return False  # (the keypoint's own denial, "X未参与该手术", is said, not denied)
    spots = [(a, b) for a, b, i in scene.mentions if i == party]
    if not spots or not all(_P_PARTY_DENIED_BEFORE.search(text[max(0, a - 12):a])
                            or _P_PARTY_DENIED_AFTER.search(text[b:b + 24]) for a, b in spots):
        return False
    words = _kp_words(kt, scene)
    ours = {party} | {i for _, _, i in scene.mentions_in(kt.text)}
    denying = {i for i, c in enumerate(ans.clauses) for a, _ in spots if c.span[0] <= a < c.span[1]}
    return not any(i not in denying and words and _coverage(words, scene.blank(c.text), lang) >= 0.5
                   and {j for a, _, j in scene.mentions if c.span[0] <= a < c.span[1]} <= ours
                   for i, c in enumerate(ans.clauses))  # (a clause naming only its parties, or none, that says it)




def _owner_of_asked_value(scene: _Scene, parties: list[int]) -> int | None:
    """Another party of the kind of ``parties``, named by the answer alone, in a clause that gives the value the
    question asks about ("李强受贿13.52万元" for "王丹一案的受贿数额为13.52万元" asked as "受贿13.52万元的案件…")."""
    ans = scene.answer
    for c in ans.clauses:
        if c.refusal or not any(_same_value(q, v) for q in scene.premise_values for v in ans.values
                                if c.span[0] <= v.span[0] < c.span[1]):
            continue
        for p, _, i in scene.mentions:
            if c.span[0] <= p < c.span[1] and i >= scene.from_keypoints and i not in parties \
                    and any(scene.entities[i].org == scene.entities[j].org for j in parties) \
                    and not any(a in scene.question for a in scene.entities[i].aliases):
                return i
    return None


def _stand_in(kt: _Text, scene: _Scene, person: int, kp_parties: list[int]) -> int | None:
    """Another person, named by the answer alone, in a clause that says the keypoint's role words about the
    keypoint's other party (or no one): "performed by Doctor B" for "Doctor A was in charge of the operation",
    "由丙出庭支持公诉" for "检察员甲在乙一案中出庭"."""
    lang, ans = scene.language, scene.answer
    org = scene.entities[person].org
    institution = org and (_org_kind(scene.entities[person]) is not None or _P_UNIT_OF_ORG.search(
        scene.entities[person].name) is not None)  # (a court's or a department's place is not a person's; a
    # shareholder's may be)
    words = set(_kp_words(kt, scene))
    rest = set(kp_parties) - {person}
    kp_role = _kp_roles(kt, scene).get(person, set())
    held = _answer_roles(scene)
    # (an organisation's place, an auditor's, may be taken by a person or another organisation; a person's by a person)
    rest_kinds = {_party_kind(scene.entities[i]) for i in rest}
    relation = {_RELATION_SAME.get(w, w) for w in words}  # (the keypoint's verb, read as its relation: "represented" = "defended")
    asked: set[str] = set()
    if scene.question:  # and the question's that no other keypoint answers ("Which lawyer represented B?"
        # for "The counsel was A": "represented by C" puts C in A's place)
        asked = {_RELATION_SAME.get(w, w) for w in _asked_words(scene.blank(scene.question), lang)} - relation - {
            _RELATION_SAME.get(w, w) for sib in scene.keypoints if sib.text is not kt
            for w in _content_tokens(scene.blank(sib.text.text), lang)}
    spans = [(c.span, c.text, ans.sentences[c.sentence][0]) for c in ans.clauses if not c.refusal]
    # "Audit committee chair: NAME", "audited by NAME, the director who …": said over a sentence (a person's place
    # in a sentence that names no other party of the query)
    spans += [(sp, ans.text[sp[0]:sp[1]], sp[0]) for si, sp in enumerate(ans.sentences)
              if not all(c.refusal for c in ans.clauses if c.sentence == si)
              and (org or not {i for i in scene.named_in_sentence(si) if i < scene.from_keypoints} - rest)]
    for (a, b), text, start in spans:
        mentions = [(p, i) for p, _, i in scene.mentions if a <= p < b]
        # (the parties named before the clause in its sentence: "For B, the largest shareholder is NAME" is B's)
        lead = {i for p, _, i in scene.mentions if start <= p < a and i < scene.from_keypoints} \
            if not any(i < scene.from_keypoints for _, i in mentions) else set()
        named = [i for _, i in mentions]
        others = [i for p, i in mentions if i >= scene.from_keypoints
                  and (not scene.entities[i].org if not org else scene.entities[i].org or not institution
                       or _P_AGENT.search(ans.text[max(0, p - 6):p]))  # (a person in a firm's place: "audited by NAME")
                  and not (kp_role and held.get(i) and not kp_role & held[i])  # named in another role
                  and (scene.entities[i].org or not any(al in scene.question for al in scene.entities[i].aliases))]
                  # (a person the question names is its premise, not a stand-in)
        said = {_RELATION_SAME.get(w, w) for w in _content_tokens(scene.blank(text), lang)}
        if others and not relation & said:  # said in the question's words only: a party of its kind, not the
            # question's own, in a sentence that declines nothing, of no other side than the keypoint's (公诉机关)
            sentence = _sentence(ans, a)
            if not asked & said or _P_REFUSAL_ZH.search(sentence) or _P_REFUSAL_EN_ANYWHERE.search(sentence) or any(
                    m[0] not in kt.text and m[0].lower() not in scene.question.lower()
                    for m in _P_OTHER_SIDE.finditer(text)):
                continue
            others = [i for i in others if scene.entities[i].org >= org
                      and not any(al in scene.question for al in scene.entities[i].aliases)]
        others = [i for i in others if not _part_of_name(scene.entities[i], scene.entities[person])]
        if not others:
            continue
        if rest and not (scene.parties(a) | set(named) | lead) & rest and (any(
                i < scene.from_keypoints or any(al in scene.question for al in scene.entities[i].aliases)
                for i in (scene.parties(a) | set(named) | lead) - set(others)) or not (all(
                any(al in scene.question for al in scene.entities[r].aliases) for r in rest) or not any(
                i not in rest and _party_kind(scene.entities[i]) in rest_kinds for _, _, i in scene.mentions))):
            continue  # the role in another party's case or company (unless the question names that party, or the
            # answer names no other party of its kind, and the answer names no other party of the query there)
        return others[0]
    return None


# the other side of a case, or another defendant: a lawyer "represented" them, not the keypoint's party
_P_OTHER_SIDE = re.compile(r"\b(?:prosecut\w*|plaintiff|claimant|respondent|victim|co-defendant|other defendant)\b|"
                           r"公诉|检察|原告|被害人|同案|另一被告", re.I)


def _part_of_name(ent: _Entity, of: _Entity) -> bool:
    """Is one party's name the other's said shorter ("Highland District People's Procuratorate" for "… of
    Snydermouth")? Then it is the same party, not one in its place."""
    a, b = ent.name.lower(), of.name.lower()
    return len(a) >= 6 and len(b) >= 6 and (b.startswith(a) or a.startswith(b))


# what an English question asks: the words after its wh-word, up to the first preposition ("Who presided over the
# trial | of the offence committed …", "Which lawyer represented | at …"); the rest describes what it asks about
_P_ASKED_EN = re.compile(r"\b(?:who|whom|whose|which|what|where|when|how)\b((?:\s+(?!(?:of|at|in|on|for|during|from|with|"
                         r"and|to|by|after|before|under)\b)[\w'-]+){1,5})", re.I)


def _asked_words(question: str, language: str) -> tuple[str, ...]:
    """The content words of what a question asks (in Chinese, all of them)."""
    if language == "zh":
        return _content_tokens(question, language)
    return tuple(w for m in _P_ASKED_EN.finditer(question) for w in _content_tokens(m[1], language))


_P_AGENT = re.compile(r"\bby\s+$|由$", re.I)


def _judge_values(kt: _Text, scene: _Scene, values: list[Value], kp_parties: list[int],
                  facts: Sequence[KeypointFact] = ()) -> tuple[Label, str]:
    lang, ans = scene.language, scene.answer
    mine = set(kp_parties)
    kinds = {_party_kind(scene.entities[i]) for i in mine} or None
    live = [v for v in ans.values if not (_clause_of(ans, v.span[0]) or _NO_CLAUSE).refusal]
    found: list[tuple[Value, Value, bool]] = []
    missing: list[tuple[Value, tuple[str, ...], bool]] = []
    wrong: list[str] = []
    others = scene.others(kt)
    all_words = _kp_words(kt, scene)
    relabelled: list[tuple[Value, Value]] = []
    given: list[tuple[Value, Value, set[int]]] = []  # the keypoint's value, said of another party
    as_event: dict[int, tuple[Value, str, str]] = {}  # the keypoint's date, said as another event's of its course
    kp_drugs = _drugs(kt.text, lang)
    for k in values:
        kp_ctx = _context(kt, k, values)
        words = _kp_words(kt, scene, _context_span(kt, k, values)) or _kp_words(
            kt, scene, (_clause_of(kt, k.span[0]) or _NO_CLAUSE).span)  # "Revenue in 2020 was $407.89 million"
        good, elsewhere = [], False
        bounded: list[Value] = []
        for a in (a for a in live if _same_value(k, a)):
            said_of = scene.parties(a.span[0], kinds)
            if _bound(ans, a) and not _bound(kt, k) and k.kind != "date" and not _bound_holds(ans, a, k) and (
                    a.value != k.value or isinstance(a.value, float | int)
                    and _P_STRICT_BOUND.search(ans.text[max(0, a.span[0] - 20):a.span[0]])):  # (not a range)
                bounded.append(a)  # "不足三成" for 31.6%, "under 40 hours" for 40: a bound the value breaks
            elif mine and said_of and not said_of & mine and not _names_counterparty(kt, scene, a, mine):
                elsewhere = True  # the value is there, but said of another party
                given.append((k, a, said_of))
            elif mine and len(said_of) > 1 and scene.owner(a.span[0]) not in mine and _parallel(a, scene, live):
                elsewhere = True  # "A was 45 and B was 80": 45 is A's
            elif _under_other_label(a, words, [s for s in others if not (  # (a total's words label no one's own)
                    _P_JOINT.search(s.text.text) and not _P_JOINT.search(kt.text) and not _total_beside(ans, a))],
                    scene, all_words, least=0.0 if not said_of & mine else 0.5):  # own party: most of them
                elsewhere = True  # "examinations $2,405" does not state "medications cost $2,405"; nor does
                # "probation of three years" state "a sentence of three years", of the same party
                relabelled.append((k, a))
            elif _other_row(a, all_words, scene):
                elsewhere = True  # a table row labelled otherwise, where another row carries the keypoint's label
            elif kp_drugs and (d := _drugs((_clause_of(ans, a.span[0]) or _NO_CLAUSE).text, lang)) and not _shares_drug(d, kp_drugs):
                elsewhere = True  # a dose or frequency said of another drug ("头孢呋辛1.5g ivgtt bid；氟比洛芬酯50mg iv qd")
            elif k.kind == "date" and not _bare_year(k) and (k_ev := _date_event(kt, k, lang)) is not None \
                    and (a_ev := _date_event(ans, a, lang, near=True)) is not None and a_ev != k_ev \
                    and not _names_event(ans, a, k_ev, lang):
                elsewhere = True  # the keypoint's date said as another event's ("DATE作出判决" for "DATE开庭审理")
                if _same_course(k_ev, a_ev) and not (lang == "en" and {k_ev, a_ev} == {"detention", "arrest"}):
                    # (in English an arrest is often the taking into custody itself)
                    as_event[id(k)] = (a, a_ev, k_ev)
            elif _other_period(kt, k, values, a, scene, live):
                elsewhere = True  # "2018年营业收入为X，上年同期为Y": X is this year's, not "上年同期营业收入为X"
            else:
                good.append((a, bool(said_of & mine)))
        if not good and bounded:
            wrong.append(f"answer says {'over' if _bound(ans, bounded[0]) > 0 else 'under'} {bounded[0].text} where "
                         f"keypoint has {k.text}")
            continue
        if not good:
            missing.append((k, words, elsewhere))
            continue
        best, own = max(good, key=lambda g: (g[1], _share(words, scene.blank(_context(ans, g[0], ans.values)), lang)))
        k_dir = _signed(k) or _direction(kp_ctx, lang) or (_direction(kt.text, lang) if len(values) == 1 else 0)
        a_dir = _signed(best) or _direction(_context(ans, best, ans.values), lang) or _direction(
            (_clause_of(ans, best.span[0]) or _NO_CLAUSE).text, lang)
        if k_dir and a_dir and k_dir != a_dir:
            wrong.append(f"reversed direction: answer says it {'rose' if a_dir > 0 else 'fell'} ({best.text}) "
                         f"where keypoint says it {'rose' if k_dir > 0 else 'fell'}")
        k_bound, a_bound = _bound(kt, k), _bound(ans, best)
        if k_bound and a_bound and k_bound != a_bound:
            wrong.append(f"answer says {'over' if a_bound > 0 else 'under'} {best.text} where keypoint says "
                         f"{'over' if k_bound > 0 else 'under'} {k.text}")
        k_status, a_status = _range_status(kt, k), _range_status(ans, best)
        if k_status and a_status and k_status != a_status:
            wrong.append(f"answer says {best.text} is {_STATUS_NAMES[a_status]} where keypoint says "
                         f"{_STATUS_NAMES[k_status]}")
        found.append((k, best, own or (k_status is not None and k_status == a_status)  # "偏低" says "低于参考范围"
                      or (not mine and sum(v.kind == best.kind for v in live) == 1)  # the answer's one term
                      or (_P_JOINT.search(kp_ctx or kt.text) is not None and _said_as_total(ans, best))))
    # the keypoint's values said together in one sentence, one of them under another keypoint's label: the
    # answer gives this event's figure to another event ("March 17 - a financing of $29.74 million" for "the
    # restructuring on March 17 involved $29.74 million")
    if len(values) >= 2:
        mates = [a for _, a, _ in found] + [a for _, a in relabelled]
        for _, a in relabelled:
            si = _sentence_index(ans, a.span[0])
            if any(b is not a and _sentence_index(ans, b.span[0]) == si for b in mates):
                wrong.append(f"answer gives {a.text} under another keypoint's label")
                break
        # two values the keypoint states together, found apart, where the first one stands beside another value
        # of the second's kind: the answer pairs them otherwise ("restructuring on March 17 worth $79.43 million;
        # a financing … raising $29.74 million" for "the restructuring on March 17 involved $29.74 million")
        for k1, a1, _ in found:
            for k2, a2, _ in found:
                if k1 is k2 or k1.kind == k2.kind or _beside(ans, a1, a2) or re.fullmatch(r"\d{4}", str(k1.value)):
                    continue  # (a year alone dates a period, where a figure and its last year's may both stand)
                other = [b for b in live if b is not a1 and b is not a2 and _beside(ans, a1, b)
                         and not any(_same_value(v, b) for v in values)  # (the keypoint's own other value)
                         and b.kind == k2.kind and _conflicts(k2, b)]
                if len(other) == 1:
                    wrong.append(f"answer gives {other[0].text} with {a1.text} where keypoint has {k2.text}")
                    break
            if wrong:
                break
    exchanged = _exchanged(kt, scene, found) or _term_for_probation(kt, scene, found, live)
    if exchanged:
        wrong.append(exchanged)
    kp_words = _kp_words(kt, scene)
    # a year the keypoint names alone ("its First EGM of 2020 on April 28, 2020") does not use up the answer's full
    # date that holds it: that date may still be the answer's other date for the keypoint's full one
    used = {id(a) for k, a, _ in found if not (_bare_year(k) and not _bare_year(a)
                                                and any(m.kind == "date" and not _bare_year(m) for m, _, _ in missing))}
    for k, words, elsewhere in missing:
        if _refused_here(scene, words or kp_words, kp_parties):
            continue
        k_status = _range_status(kt, k)
        said = _status_said(scene, words, k, mine) if k_status else None
        if said and k_status and said != k_status:  # "血糖和白细胞计数均在正常范围内" for "血糖为8.5mmol/L，高于参考范围"
            wrong.append(f"answer says it is {_STATUS_NAMES[said]} where keypoint says {_STATUS_NAMES[k_status]}")
            continue
        gap = _gap(kt, k)
        rival = _rival(k, words, kp_words, scene, [a for a in live if id(a) not in used and (gap or not _gap(ans, a))],
                       mine, values,
                       swapped=elsewhere, kinds=kinds, others=others) or (None if _labelling_year(k, kt) else (
            _listed(k, scene, live, used, found) or _paired(k, scene, live, used, found, others)))
        if rival is None:
            rival = _range_rival(kt, k, ans, [a for a in live if id(a) not in used and not (
                mine and (p := scene.parties(a.span[0], kinds)) and not p & mine)])  # (not another party's term)
        if rival is None and k.kind == "money" and k.unit:
            rival = next((a for a in live if a.kind == "money" and a.unit and a.unit != k.unit and _close(
                float(k.value), float(a.value), k.step, a.step)), None)  # 2.21亿美元 for 2.21亿元: another currency
        if rival is None and k.kind != "date":
            rival = _dated_with(k, ans, found, values, [a for a in live if not (kp_drugs and (
                d := _drugs((_clause_of(ans, a.span[0]) or _NO_CLAUSE).text, lang)) and not _shares_drug(d, kp_drugs))],
                others, mine)  # (a dose of another drug is that drug's)
        if rival is None and not any(scene.mentioned(i) for i in mine):
            # the keypoint's party never named, its value said of a party the answer alone names: "The largest
            # shareholder is NAME, who holds 36.48%" for "Adams Capital holds 36.48%"
            to = next((w for kk, _, w in given if kk is k and any(j >= scene.from_keypoints for j in w)), None)
            if to:
                wrong.append(f"answer gives {k.text} to {scene.entities[min(to)].name}")
                continue
        if rival is None and id(k) in as_event and not any(
                _date_event(ans, v, lang) == as_event[id(k)][2] for v in live if v.kind == "date"):
            a, a_ev, k_ev = as_event[id(k)]  # the answer names the keypoint's event with no date of its own
            wrong.append(f"answer gives {a.text} as the date of {a_ev} where keypoint has it for {k_ev}")
            continue
        if rival is not None:
            wrong.append(f"answer gives {rival.text} where keypoint has {k.text}")
            continue
        # the value's label: its own words (none of another keypoint's), then the words of its unit ("36 training
        # hours"); in Chinese, the characters before it back to a stop (交易对价为 | 3,188.37万元)
        label = tuple(w for w in words if not any(w in s.words for s in others)) + tuple(
            w for w in _content_tokens(re.sub(r"[\d.,]+", " ", k.text), lang) if lang == "en")
        if lang == "zh":
            lead = re.search(r"([\u4e00-\u9fff]{2,8}?)(?:为|是|达|约|共|合计)?$", kt.text[:k.span[0]])
            label = (lead[1][-2:],) if lead else ()
        none = _value_said_none(scene, label, mine)
        if none:
            wrong.append(none)
    if wrong:
        return "Wrong", "; ".join(wrong)
    if found:  # a year that names what the event is about ("召开2019年年度股东大会", "its 2021 annual report") may go
        missing = [m for m in missing if not _labelling_year(m[0], kt) and not _labelling_ordinal(m[0], kt)]
    if not missing:
        near = " ".join(_sentence(ans, a.span[0], before=1) for _, a, _ in found)
        residual = tuple(w for w in kp_words if w not in scene.premise)  # (what the question says is no label)
        if not any(own or _specific(a) for _, a, own in found) \
                and max(_coverage(kp_words, scene.blank(near), lang),
                        _coverage(residual, scene.blank(near), lang)) < RESIDUAL_RELEVANT:
            return "Irrelevant", f"{', '.join(a.text for _, a, _ in found)} appears in another role"
        denied = next((a for k, a, _ in found if _value_denied(ans, a) and not _value_denied(kt, k)), None)
        if denied is not None:
            return "Wrong", f"answer says it did not reach {denied.text}"
        negated = next((a for k, a, _ in found if _value_negated(ans, a) and not _value_negated(kt, k)), None)
        if negated is not None:
            return "Wrong", f"answer denies it of {negated.text}"
        agreed = any((st := _range_status(kt, k)) is not None and _range_status(ans, a) == st for k, a, _ in found)
        clash = _opposite_word(kt.text, near, lang, statuses=not agreed) or _negation_flip(kt.text, near, lang)
        # (a reading said in range at its side is not made high by the high reading before it)
        if clash:
            return "Wrong", clash
        party = _substitution(scene, kp_parties, kp_words, _kp_roles(kt, scene))
        if party:
            return "Wrong", party
        other_text = _text_fact_said_otherwise(kt, scene, facts, found)
        if other_text:
            return other_text
        relabel = _label_said_otherwise(kt, scene, found) or _ratio_base_swap(kt, scene, found) \
            or _share_said_as_change(kt, scene, found)
        if relabel:
            return "Wrong", relabel
        total = _P_JOINT.search(kt.text) is not None and any(_said_as_total(ans, a) for _, a, _ in found)
        said_instead = None if total or any(_specific(a) for _, a, _ in found) else \
            _said_of_something_else(kt, scene, residual, near)  # (a specific value is its fact's own)
        if said_instead:
            return "Wrong", said_instead
        return "Relevant", "states " + ", ".join(_value_phrase(k, a) for k, a, _ in found)
    if _refused_here(scene, kp_words, kp_parties):
        return "Irrelevant", "answer says this information is not available"
    flagged = _substitution(scene, kp_parties, kp_words, _kp_roles(kt, scene)) or _polarity_clash(kt.text, kp_words, scene, kp_parties) \
        or _direction_clash(kt, scene)
    if flagged:
        return "Wrong", flagged
    absent = ", ".join(k.text for k, _, _ in missing)
    if found:
        return "Irrelevant", f"partial: states {', '.join(a.text for _, a, _ in found)} but not {absent}"
    return "Irrelevant", f"not addressed ({absent} not stated)"


def _text_fact_said_otherwise(kt: _Text, scene: _Scene, facts: Sequence[KeypointFact],
                              found: list[tuple[Value, Value, bool]]) -> tuple[Label, str] | None:
    """A keypoint that dates (or sizes) a named thing ("underwent X on DATE", "DATE接受X", "the financing on DATE
    concerned X"): the answer gives the value, but the thing in the value's clause is another ("had Y on DATE") -
    Wrong; or it is not said at all - the keypoint is only partly stated."""
    lang, ans = scene.language, scene.answer
    for f in facts:
        if f.kind not in ("text", "category") or not f.text or f.text not in kt.text:
            continue
        words = tuple(w for w in _content_tokens(scene.blank(f.text), lang) if w not in scene.premise)
        said = scene.blank(ans.masked)
        if not words or (_share(words[-1:], said, lang) > 0 if f.kind == "category" else
                         _coverage(words, said, lang) >= 0.5):
            continue  # (a category is said when its head word is: "retired teacher" does not say "retired farmer")
        kp_all = set(_content_tokens(scene.blank(kt.masked), lang))
        for k, a, _ in found:
            if not ((k.kind == "date" and f.kind == "text") or (f.kind == "category" and k.unit == "age")) \
                    or _bare_year(k):
                continue  # (a thing is dated; a person's category goes with an age: "a retired farmer aged 77")
            clause = _clause_of(ans, a.span[0])
            if clause is None:
                continue
            # the date's clause, and the words before it in its sentence back to the value before ("underwent
            # left lumpectomy (breast-conserving) on DATE": a bracket or comma cuts no thing from its date)
            si = _sentence_index(ans, a.span[0])
            start = max([ans.sentences[si][0] if si is not None else clause.span[0],
                         ans.text.rfind("\n", 0, a.span[0]) + 1] +
                        [v.span[1] for v in ans.values if v.span[1] <= a.span[0]])
            start = min(start, clause.span[0])
            leftover = [w for w in _content_tokens(scene.blank(ans.masked[start:clause.span[1]]), lang)
                        if w not in kp_all and w not in scene.premise]
            if leftover:
                sep = "" if lang == "zh" else " "
                return "Wrong", f"answer says {sep.join(leftover)} where keypoint says {f.text}"
    return None


# head words that name one member of a company's parts: "the X segment", "X板块"
_MEMBER_HEADS = frozenset({_stem(w) for w in ("segment", "business", "division")} | {"板块", "业务", "分部"})


# what a share is of, in a company's accounts: each one a different whole ("3.17% of revenue" is not "3.17% of net
# profit"); the words that name each
_RATIO_BASES = {
    "revenue": r"revenues?|sales|turnover|营业收入|营收|收入",
    "net profit": r"net (?:profit|income|earnings)|profits?|earnings|净利润|利润",
    "total assets": r"(?:total )?assets|总资产|资产总额",
    "costs": r"(?:operating )?costs?|expenses|营业成本|成本|费用",
    "equity": r"(?:shareholders'? )?equity|net assets|净资产|所有者权益",
}
_P_BASE_AFTER = re.compile(r"^\s*(?:of\s+(?:the\s+|its\s+|their\s+|(?:the\s+)?(?:company|group)'s\s+)?(?:annual\s+|total\s+)?)"
                           r"(" + "|".join(_RATIO_BASES.values()) + r")\b", re.I)
_P_BASE_BEFORE_ZH = re.compile(r"(?:占|相当于)(?:公司|集团|其)?(?:全年|年度|当年)?(" + "|".join(_RATIO_BASES.values()) + r")的?\s*$")


# "had not yet turned 60", "did not reach the threshold of", "并未住满12天", "未达到": the value denied, not stated
_P_NOT_REACHED = {"en": re.compile(r"(?:\bnot|\bnever|n't)\s+(?:yet\s+)?(?:turn|turned|reach|reached|attain|attained|hit)\s+"
                                   r"(?:(?:the\s+)?(?:age|threshold|level|mark)\s+of\s+)?(?:an?\s+)?$", re.I),
                  "zh": re.compile(r"(?:并未|未|没有|尚未|不)(?:住满|满|达到|达|到)$")}


# a value said not to be the keypoint's: a strong negation right before it in its clause (并未在DATE出院, 并非由X提起,
# "was not held on DATE") or right after it (DATE并不是…的时间)
_P_NEGATED_BEFORE = {"zh": re.compile(r"(?:并非|并不是|并未|并没有|未曾|未在|未于|没有在)[^，。；;,\d]{0,6}$"),
                     "en": re.compile(r"\b(?:not|never)\s+(?:on|in|at|from|by)?\s*(?:the\s+)?$", re.I)}
_P_NEGATED_AFTER = {"zh": re.compile(r"^[^，。；;,\d]{0,4}?(?:并不是|并非)"),
                    "en": re.compile(r"^\s*(?:was|is)\s+not\s+(?:the\s+(?:date|day|time)|when)\b", re.I)}
# (a deadline, "未于DATE前", is no denial of the date; "not until DATE" affirms it)
_P_DEADLINE_AFTER = re.compile(r"^\s*(?:之?前|以前|之?后|以后)")


def _value_negated(t: _Text, v: Value) -> bool:
    lang = t.language
    start, end = v.span
    for w in sorted(t.values, key=lambda x: x.span[0]):
        if end <= w.span[0] <= end + 1:
            end = w.span[1]  # a date and its time of day (2020年8月28日20时50分许并不是…)
    for w in sorted(t.values, key=lambda x: -x.span[0]):
        if w.span[1] <= start and re.fullmatch(r"\s*(?:上午|下午|中午|凌晨|早上|晚上|夜间|傍晚|at|,)?\s*",
                                                  t.text[w.span[1]:start]):
            start = w.span[0]  # a time of day after its date (并不是在DATE晚上21时15分许)
    return (_P_NEGATED_BEFORE[lang].search(t.text[max(0, start - 12):start]) is not None
            and not _P_DEADLINE_AFTER.match(t.text[end:end + 4])
            or _P_NEGATED_AFTER[lang].search(t.text[end:end + 12]) is not None)


def _value_denied(t: _Text, v: Value) -> bool:
    return _P_NOT_REACHED[t.language].search(t.text[max(0, v.span[0] - 40):v.span[0]]) is not None


def _ratio_base(t: _Text, v: Value) -> str | None:
    """What a share is said to be of: "2.4% of its total assets", "占营业收入的31.5%", "相当于公司营业成本的31.5%"."""
    m = _P_BASE_AFTER.match(t.text[v.span[1]:v.span[1] + 48]) if t.language == "en" else \
        _P_BASE_BEFORE_ZH.search(t.text[max(0, v.span[0] - 16):v.span[0]])
    if not m:
        return None
    word = m[1].lower()
    return next((name for name, words in _RATIO_BASES.items() if re.fullmatch(words, word, re.I)), None)


def _ratio_base_swap(kt: _Text, scene: _Scene, found: list[tuple[Value, Value, bool]]) -> str | None:
    """The keypoint's share said of another whole: "2.4% of its total assets" for "2.4% of the revenue"."""
    for k, a, _ in found:
        if k.kind != "percent":
            continue
        ours, theirs = _ratio_base(kt, k), _ratio_base(scene.answer, a)
        if ours and theirs and ours != theirs:
            return f"answer gives {a.text} of {theirs} where keypoint gives it of {ours}"
    return None


# a percentage said as a change on a year before ("同比下降12.3%", "较上年增长", "down 12.3% year on year")
_P_CHANGE_BEFORE = {"zh": re.compile(r"(?:同比|较上年|较去年|比上年|比去年|环比)(?:同期)?[^，。；,;\d]{0,3}$"),
                    "en": re.compile(r"\b(?:rose|fell|grew|declined|dropped|increased|decreased|climbed|was (?:up|down)|"
                                     r"(?<!made )(?<!makes )(?<!making )(?<!make )(?:up|down)|growth of|decline of|increase of|decrease of)\s+(?:by\s+)?(?:about\s+)?$",
                                     re.I)}
_P_CHANGE_AFTER = {"zh": re.compile(r"^\s*(?:的)?(?:同比|增幅|降幅)"),
                   "en": re.compile(r"^\s*(?:year[- ]on[- ]year|year[- ]over[- ]year|yoy|from (?:the )?(?:prior|previous|last) "
                                    r"year|on (?:the )?(?:prior|previous|last) year)\b", re.I)}


def _as_change(t: _Text, v: Value) -> bool:
    lang = t.language
    return (_P_CHANGE_BEFORE[lang].search(t.text[max(0, v.span[0] - 24):v.span[0]]) is not None
            or _P_CHANGE_AFTER[lang].match(t.text[v.span[1]:v.span[1] + 24]) is not None)


def _share_said_as_change(kt: _Text, scene: _Scene, found: list[tuple[Value, Value, bool]]) -> str | None:
    """The keypoint's share of a whole ("占营业收入的12.3%", "12.3% of revenue") said as a change on the year before
    ("同比下降12.3%"), or the keypoint's change said as a share: the figure is another measure."""
    for k, a, _ in found:
        if k.kind != "percent":
            continue
        k_share, a_share = _ratio_base(kt, k) is not None, _ratio_base(scene.answer, a) is not None
        k_change, a_change = _as_change(kt, k), _as_change(scene.answer, a)
        if k_share and not k_change and a_change and not a_share:
            return f"answer gives {a.text} as a change on the year before where keypoint gives a share"
        if k_change and not k_share and a_share and not a_change:
            return f"answer gives {a.text} as a share where keypoint gives a change on the year before"
    return None


def _label_said_otherwise(kt: _Text, scene: _Scene, found: list[tuple[Value, Value, bool]]) -> str | None:
    """The keypoint's figure said under another member's name: the keypoint names its member before the value
    ("精密部件板块实现收入2.14亿元", "the vaccines segment generated $X"), the answer says the same head word
    before the same value with other words before it ("工程机械板块实现收入2.14亿元") and never says the keypoint's."""
    lang, ans = scene.language, scene.answer
    said_all = scene.blank(ans.masked)
    kp_all = set(_content_tokens(scene.blank(kt.masked), lang))

    def piece_before(t: _Text, v: Value) -> str:
        start = max([x.span[1] for x in t.values if x.span[1] <= v.span[0]] + [0])
        pieces = re.split(r"[,，;；:：。.()（）|\n]", t.masked[start:v.span[0]])
        if len(pieces) > 1 and not pieces[-1].strip() and re.search(r"[（(]\s*$", t.masked[start:v.span[0]]):
            return pieces[-2]  # "景区运营（9,000万元": the name before the bracket
        return pieces[-1]

    def named(t: _Text, v: Value) -> tuple[list[str], str] | None:
        words = _content_tokens(scene.blank(piece_before(t, v)), lang)
        at = next((i for i, w in enumerate(words) if w in _MEMBER_HEADS), None)
        if not at:
            return None
        return [w for w in words[:at] if w not in scene.premise and (lang == "en" or len(w) >= 2)], words[at]

    def listed(t: _Text, v: Value) -> list[str]:
        """A member named before its figure with no head word, as lists write it ("备件销售1.73亿元",
        "medical devices brought in $X"): the piece's words that are not verbs, nor the keypoint's or question's."""
        piece = scene.blank(piece_before(t, v))
        if lang == "en":
            piece = " ".join(w for w in re.findall(r"[A-Za-z][A-Za-z'-]*", piece) if not _P_NOT_A_FILLER.fullmatch(w))
        return [w for w in _content_tokens(piece, lang) if (lang == "en" or len(w) >= 2)
                and w not in kp_all and w not in scene.premise]

    for k, a, _ in found:
        ours = named(kt, k)
        theirs = named(ans, a)
        if ours and ours[0] and theirs is None and (members := listed(ans, a)):
            theirs = members, ours[1]  # (read under the keypoint's head)
        if not ours or not theirs or ours[1] != theirs[1] or not ours[0]:
            continue
        if _share(tuple(ours[0]), said_all, lang) > 0 or (lang == "zh" and any(
                w[i:i + 2] in said_all for w in ours[0] for i in range(len(w) - 1))):
            continue  # the answer names the keypoint's member somewhere (部件 says 零部件)
        other = [w for w in theirs[0] if w not in kp_all]
        if other:
            sep = "" if lang == "zh" else " "
            return (f"answer gives {a.text} to {sep.join(other)} {theirs[1]} where keypoint gives it to "
                    f"{sep.join(ours[0])}")
    return None


def _said_of_something_else(kt: _Text, scene: _Scene, residual: tuple[str, ...], near: str) -> str | None:
    """The keypoint's values said of something else: the keypoint has three or more words of its own (the question's
    aside), the sentences holding the values say almost none of them and two or more words the keypoint lacks
    ("a 44-year-old office clerk" for "a civil servant aged 44", "blood in the urine for 2 years" for "frequent
    urination at night for 2 years")."""
    lang = scene.language
    if len(residual) < 3:
        return None
    said = scene.blank(near)
    if _coverage(residual, said, lang) > 0:
        return None
    kp_all = set(_content_tokens(scene.blank(kt.masked), lang)) | scene.premise
    other = [w for w in _content_tokens(said, lang) if w not in kp_all]
    if len(set(other)) < 2:
        return None
    return f"answer says its values of {' '.join(other[:4])}, where keypoint says {' '.join(residual[:4])}"


def _other_member(kp_text: str, ctx: str, language: str) -> bool:
    """Does ``ctx`` name another member of a kind the keypoint names: one of its Chinese terms with another
    part before the same head (房屋建筑板块 for 工程设计板块)?"""
    if language != "zh":
        return False
    for term in _terms(kp_text, "zh", least=2):  # each pair of words of a run: 工程设计|板块, 板块|实现 …
        for left, head in zip(term, term[1:], strict=False):
            if len(left) >= 2 and len(head) >= 2 and _said_otherwise_zh(left + head, ctx, ctx) is not None:
                return True
    return False


_P_LABELLED = re.compile(r"\s*(?:年度|年年度|年报|annual|fiscal|financial year|report)", re.I)


def _labelling_year(k: Value, kt: _Text) -> bool:
    """A year alone, written as the label of a report or meeting ("2019年年度股东大会", "2021 annual report")."""
    if k.kind != "date" or not re.fullmatch(r"\d{4}", str(k.value)):
        return False
    after = kt.text[k.span[1]:k.span[1] + 20]
    return bool(_P_LABELLED.match(after)) or bool(re.match(r"年?年度", after))


def _labelling_ordinal(k: Value, kt: _Text) -> bool:
    """An ordinal that names which item a Chinese keypoint is about ("第一项重大事项是DATE的收购"), not a statute's item
    (第三百八十三条第一款第（二）项): the keypoint's other values say the fact."""
    return k.kind == "count" and k.text.startswith("第") and k.unit in ("项", "次", "个") \
        and not re.search(r"[条款）)]$", kt.text[:k.span[0]]) and bool(re.match(r"[\u4e00-\u9fff]", kt.text[k.span[1]:]))


def _modifier_clash(kp: str, ctx: str, language: str) -> bool:
    """Do the keypoint and the answer put different words before the same head word ("net income" / "operating
    income", "R&D investment" / "environmental investment"): another quantity of the same kind?"""
    if language == "zh":
        return False
    kp_words = [w.lower() for w in re.findall(r"[A-Za-z&]+", kp)]
    ans_words = [w.lower() for w in re.findall(r"[A-Za-z&]+", ctx)]
    for i, w in enumerate(ans_words):
        if i == 0 or w in _STOP_EN:
            continue
        for j, v in enumerate(kp_words):
            if j and _stem(v) == _stem(w):
                mine, theirs = kp_words[j - 1], ans_words[i - 1]
                if mine not in _STOP_EN and theirs not in _STOP_EN and _stem(mine) != _stem(theirs) \
                        and mine not in ans_words:
                    return True
    return False


_P_JOINT = re.compile(r"两人|二人|三人|双方|二者|两者|两家|\b(?:both|combined|altogether|between them|together(?!\s+with)|"
                      r"adds? up to|added up to)\b", re.I)


# a total said of several together (the answer's side of a keypoint said with _P_JOINT)
_P_TOTAL = re.compile(r"合计|共计|总计|一共|共|\b(?:in total|in all|total|combined|altogether|together|adds? up to|"
                      r"added up to|between them)\b", re.I)
_P_OVER = re.compile(r"(?:\b(?:more|longer|greater|higher|larger|later) than|\bover|\bexceeding|\babove|\bat least|超过|大于|多于|长于|"
                     r"高于|逾)\s*$|^\s*(?:以上|余)", re.I)
_P_UNDER = re.compile(r"(?:\b(?:less|shorter|fewer|lower|smaller|earlier) than|\bunder|\bbelow|\bat most|(?<!adds )(?<!add )"
                      r"(?<!added )\bup to|\bwithin|不足|不到|少于|小于|短于|低于|未满)\s*$|^\s*(?:以下|以内|之内)", re.I)
# a bound the value itself breaks ("under 40 hours" for 40 hours; not "at most", "up to", "以内")
_P_STRICT_BOUND = re.compile(r"(?:\b(?:less|shorter|fewer|lower|smaller|more|longer|greater|higher|larger) than|\bunder|"
                             r"\bbelow|\bover|\babove|\bexceeding|不足|不到|少于|低于|超过|多于|高于|未满|逾)\s*$", re.I)
# a bound word negated ("不超过两周", "no more than 14 days", "not less than"): the other side
_P_BOUND_NOT = re.compile(r"(?:不|未|没有|并未|\bnot|\bno)\s*$", re.I)


def _bound(t: _Text, v: Value) -> int:
    """+1 where ``v`` is said as a lower bound ("more than 7 days", 超过7天, 7天以上), -1 as an upper bound ("less
    than 7 days", 不足7天), 0 where it is said as the value itself."""
    before, after = t.text[max(0, v.span[0] - 20):v.span[0]], t.text[v.span[1]:v.span[1] + 3]
    over_m, under_m = _P_OVER.search(before), _P_UNDER.search(before)
    over = bool(over_m or _P_OVER.match(after))
    under = bool(under_m or _P_UNDER.match(after))
    side = 1 if over and not under else -1 if under and not over else 0
    m = over_m or under_m
    if side and m and _P_BOUND_NOT.search(before[:m.start()]):
        return -side  # "不超过两周" is at most two weeks
    return side


# a term's ends, as a keypoint says one ("The term ends on DATE", 刑期至DATE届满) and an answer gives a range
_P_TERM_END = {"en": re.compile(r"\b(?:ends?|ended|ending|expires?|expired|expiring|runs? (?:until|to|through))\b", re.I),
               "zh": re.compile(r"届满|止")}
_P_TERM_START = {"en": re.compile(r"\b(?:starts?|started|begins?|began|commences?|commenced|runs? from)\b", re.I),
                 "zh": re.compile(r"起算")}
_P_RANGE_TO = re.compile(r"\s*(?:to|through|thru|until|till|[-–—~]|至|到)\s*", re.I)
_P_UNTIL = re.compile(r"(?:\b(?:until|till|through)|至)\s*$", re.I)


def _range_rival(kt: _Text, k: Value, ans: _Text, live: list[Value]) -> Value | None:
    """The keypoint dates one end of a term ("The term ends on DATE"); the answer gives the term as a range
    ("from DATE1 through DATE2", "until DATE2") whose end, another date, is the keypoint's: it contradicts ``k``."""
    if k.kind != "date" or _bare_year(k):
        return None
    lang = kt.language
    end, start = _P_TERM_END[lang].search(kt.text), _P_TERM_START[lang].search(kt.text)
    if bool(end) == bool(start):
        return None  # (a keypoint giving both ends, 自DATE1起至DATE2止, is read by its values)
    dates = sorted((v for v in live if v.kind == "date" and not _bare_year(v)), key=lambda v: v.span)
    if any(_same_value(k, v) for v in dates):
        return None
    for d1, d2 in zip(dates, dates[1:], strict=False):
        if _P_RANGE_TO.fullmatch(ans.text[d1.span[1]:d2.span[0]]):
            target = d2 if end else d1
            return target if _conflicts(k, target) else None
    if end:
        return next((v for v in dates if _P_UNTIL.search(ans.text[max(0, v.span[0] - 12):v.span[0]])
                     and _conflicts(k, v)), None)
    return None


def _same_dated_event(kt: _Text, k: Value, scene: _Scene, a: Value) -> bool:
    """Do keypoint date ``k`` and answer date ``a`` date the same event: the same known event, or, where neither
    clause names one, a word of the keypoint's own (not the question's) in both ("DATE的新产品发布事项涉及X" and
    "于DATE发布X")?"""
    lang, ans = scene.language, scene.answer
    ek, ea = _date_event(kt, k, lang), _date_event(ans, a, lang)
    if ek is not None or ea is not None:
        return ek == ea
    mine = set(_content_tokens(scene.blank((_clause_of(kt, k.span[0]) or _NO_CLAUSE).text), lang)) - scene.premise
    theirs = set(_content_tokens(scene.blank((_clause_of(ans, a.span[0]) or _NO_CLAUSE).text), lang))
    return bool({w for w in mine & theirs if len(w) >= 2})


# words that hedge or join a value to its party, saying nothing of what it is ("B公司大约是12.5%")
_HEDGE_WORDS = frozenset({"大约", "约", "大概", "左右", "应该", "似乎", "可能", "则", "而", "是", "为", "约为", "大约是"} |
                         {_stem(w) for w in ("roughly", "about", "around", "approximately", "nearly", "almost")})


def _bound_holds(ans: _Text, a: Value, k: Value) -> bool:
    """Answer value ``a`` is said as a bound ("不足50%", "more than half of") that keypoint value ``k`` keeps: it
    does not contradict ``k`` (41.5% is under 50%), though it does not state it either."""
    side = _bound(ans, a)
    if not side or k.kind == "date" or a.unit != k.unit or not isinstance(a.value, float | int) \
            or not isinstance(k.value, float | int):
        return False
    return float(k.value) > float(a.value) if side > 0 else float(k.value) < float(a.value)


def _said_as_total(ans: _Text, a: Value) -> bool:
    """Is answer value ``a`` said as a total of several ("23 days in total", "combined, 23 days", "合计")?"""
    return _P_TOTAL.search(ans.text[max(0, a.span[0] - 24):a.span[1] + 16]) is not None


def _also_names(ans: _Text, a: Value, event: str, language: str) -> bool:
    """Does date ``a``'s own stretch (its clause, between the values either side of it) name ``event`` as well
    ("DATE公开开庭审理并当庭作出判决" dates the judgment too; "… → DATE作出判决" after "DATE2 公开开庭 →" does not)?"""
    clause = _clause_of(ans, a.span[0]) or _NO_CLAUSE
    start = max([clause.span[0]] + [v.span[1] for v in ans.values if v.span[1] <= a.span[0]])
    end = min([clause.span[1] if clause.span[1] > a.span[0] else len(ans.text)] +
              [v.span[0] for v in ans.values if v.span[0] >= a.span[1]])
    words = DATE_EVENTS[event][1 if language == "zh" else 0]
    if language == "zh":  # (a Chinese date leads its events: the words after it)
        return any(w in ans.masked[a.span[1]:end] for w in words)
    return any(_stem(m.group()) in words or m.group().lower() in words
               for m in re.finditer(r"[A-Za-z][A-Za-z-]*", ans.masked[start:end]))


def _total_beside(ans: _Text, a: Value) -> bool:
    """Is answer value ``a`` itself said as a total: a total word between it and the value before it, or right after
    it ("…5天，合计11天", "10 days, 22 days in total"; not the 10 days)?"""
    before = max([v.span[1] for v in ans.values if v.span[1] <= a.span[0]] + [a.span[0] - 24, 0])
    after = min([v.span[0] for v in ans.values if v.span[0] >= a.span[1]] + [a.span[1] + 16])
    return _P_TOTAL.search(ans.text[before:a.span[0]]) is not None or \
        _P_TOTAL.search(re.split(r"[，。；,;]", ans.text[a.span[1]:after], maxsplit=1)[0]) is not None


_P_PRIOR = re.compile(r"上年同期|上年|去年|上一年|前一年|同比上年|\b(?:prior|previous|preceding|last) year\b|"
                      r"\ba year earlier\b|\bthe year before\b", re.I)


def _prior(text: str) -> bool:
    """Does ``text`` say its figure is last year's (上年同期, prior year)?"""
    return bool(_P_PRIOR.search(text))


def _other_period(kt: _Text, k: Value, values: list[Value], a: Value, scene: _Scene, live: list[Value]) -> bool:
    """Is answer value ``a`` the other period's: said as last year's where the keypoint's is this year's, or said
    plainly beside another value of its kind said as last year's, where the keypoint's is last year's?"""
    ans = scene.answer
    if k.kind == "percent":
        return False  # a rate "较上年下降2.8%" compares with last year; it is no figure of last year's
    k_prior, a_prior = _prior(_context(kt, k, values)), _prior(_context(ans, a, ans.values))
    if not k_prior:
        return a_prior
    if a_prior:
        return False
    si = _sentence_index(ans, a.span[0])
    return any(v is not a and v.kind == a.kind and _sentence_index(ans, v.span[0]) == si
               and _prior(_context(ans, v, ans.values)) for v in live)


def _label_before(t: _Text, v: Value, language: str) -> str | None:
    """The content word written last before value ``v`` since the value before it ("residual of 160 mL": residual)."""
    start = max([x.span[1] for x in t.values if x.span[1] <= v.span[0]] + [0])
    words = [w for w in _content_tokens(t.masked[start:v.span[0]], language)
             if w not in _AMOUNT_VERBS and w not in ("总额", "总数", "总量")]
    return words[-1] if words else None  # (how an amount is said is no label: 负债总额 and 负债合计 are 负债)


def _exchanged(kt: _Text, scene: _Scene, found: list[tuple[Value, Value, bool]]) -> str | None:
    """Two values of a kind the keypoint labels each its own way, which the answer says under each other's label
    ("a prostate of about 160 mL …, a residual of 55 mL" for "a prostate of about 55 mL …, a residual of 160 mL")."""
    lang, ans = scene.language, scene.answer
    for n, (k1, a1, _) in enumerate(found):
        for k2, a2, _ in found[n + 1:]:
            if k1.kind != k2.kind or _same_value(k1, k2) or a1 is a2:
                continue
            l1, l2 = _label_before(kt, k1, lang), _label_before(kt, k2, lang)
            m1, m2 = _label_before(ans, a1, lang), _label_before(ans, a2, lang)
            if l1 and l2 and l1 != l2 and m1 == l2 and m2 == l1:
                return f"answer gives {a1.text} under {m1} and {a2.text} under {m2}: the keypoint's the other way round"
    return None


# the two terms a criminal judgment gives, each named its own way: the prison term and the probation
_TERM_LABELS = {"prison": re.compile(r"有期徒刑|刑期|拘役|\b(?:imprisonment|sentenced|sentence|prison|jail)\b", re.I),
                "probation": re.compile(r"缓刑|考验期|\b(?:probation|suspended)\b", re.I)}


def _term_kind(t: _Text, v: Value) -> str | None:
    """Which of a judgment's terms the words right before duration ``v`` name (since the value before it)."""
    start = max([x.span[1] for x in t.values if x.span[1] <= v.span[0]] + [0, v.span[0] - 40])
    before = t.masked[start:v.span[0]]
    hits = [(m.end(), kind) for kind, p in _TERM_LABELS.items() for m in p.finditer(before)]
    if hits:
        return max(hits)[1]
    after = re.split(r"[,，;；。]", t.masked[v.span[1]:v.span[1] + 40])[0]  # "2 years of fixed-term imprisonment"
    hits = [(-m.start(), kind) for kind, p in _TERM_LABELS.items() for m in p.finditer(after)]
    return max(hits)[1] if hits else None


def _term_for_probation(kt: _Text, scene: _Scene, found: list[tuple[Value, Value, bool]],
                        live: list[Value]) -> str | None:
    """The keypoint's prison term found as the answer's probation (or the reverse), while the answer gives the
    keypoint's term another length: "有期徒刑一年三个月，缓刑一年" for "有期徒刑一年"."""
    ans = scene.answer
    for k, a, _ in found:
        if k.kind != "duration" or (mine := _term_kind(kt, k)) is None or _term_kind(ans, a) in (None, mine):
            continue
        for b in live:
            if b is not a and b.kind == "duration" and _conflicts(k, b) and _term_kind(ans, b) == mine and \
                    _sentence_index(ans, b.span[0]) == _sentence_index(ans, a.span[0]):
                return f"answer gives {b.text} as the {mine} term and {a.text} as the other"
    return None


def _row_label(t: _Text, pos: int) -> str | None:
    """The first cell of the Markdown table row holding ``pos`` ("| Zinc | $555.54M | 41.2% |": "Zinc")."""
    start = t.text.rfind("\n", 0, pos) + 1
    line = t.masked[start:t.text.find("\n", pos) if "\n" in t.text[pos:] else len(t.text)]
    if not line.lstrip().startswith("|"):
        return None
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    return cells[0] if cells else None


def _other_row(a: Value, words: tuple[str, ...], scene: _Scene) -> bool:
    """Is ``a`` in a table row whose label has none of the keypoint's words, while another row's label has some?"""
    lang, ans = scene.language, scene.answer
    label = _row_label(ans, a.span[0])
    if label is None or not words or _share(words, scene.blank(label), lang) > 0:
        return False
    labels = [_row_label(ans, m.start() + 1) for m in re.finditer(r"\n", ans.text)]
    return any(lab and _share(words, scene.blank(lab), lang) > 0 for lab in labels)


def _comparable(k: Value, v: Value) -> bool:
    """Is ``v`` a value ``k`` can be told equal or different to (a dose against a dose, not a dose against "once a
    day")?"""
    return _same_value(k, v) or _conflicts(k, v)


_P_GAP_BEFORE_ZH = re.compile(r"(?:相差|相隔|间隔|差了?|高出|低出|多出|超出|比[^，。；]{1,20}?[大小多少早晚高低长短]了?|"
                              r"[院后前]后|之后|以后)(?:第|约)?$")  # (出院后33天: a gap from discharge)
_P_GAP_AFTER_EN = re.compile(r"^\s*(?:older|younger|longer|shorter|earlier|later|more|less|fewer|higher|lower|apart|after|before|passed|"
                             r"elapsed|between)\b")
_P_GAP_AFTER_ZH = re.compile(r"^(?:之?后|之?前|以后|以前)")
_P_GAP_BEFORE_EN = re.compile(r"\b(?:by|difference of|gap of)\s+(?:about|around|some|roughly)?\s*$")


def _gap(t: _Text, v: Value) -> bool:
    """Is ``v`` said as a gap between two values ("王宇比吕荣大2岁", "2 years older", "相差8天", "later by 3 days")?
    A gap is no reading of either."""
    before = t.text[max(0, v.span[0] - 24):v.span[0]]
    if t.language == "zh":
        return _P_GAP_BEFORE_ZH.search(before) is not None or _P_GAP_AFTER_ZH.match(t.text[v.span[1]:]) is not None
    return _P_GAP_AFTER_EN.match(t.text[v.span[1]:v.span[1] + 12]) is not None or \
        _P_GAP_BEFORE_EN.search(before) is not None


def _bare_year(v: Value) -> bool:
    return v.kind == "date" and re.fullmatch(r"\d{4}", str(v.value)) is not None


def _same_digits(k: Value, a: Value) -> bool:
    """The same significant digits at another scale or unit of the same kind ($435.98 million / billion)."""
    if k.kind != a.kind or k.kind not in ("money", "count", "number") or isinstance(k.value, str) \
            or isinstance(a.value, str) or not k.value or not a.value:
        return False
    digits = [re.sub(r"\D", "", v.text).lstrip("0") for v in (k, a)]
    return len(digits[0]) >= 3 and digits[0] == digits[1]


def _keypoint_of(k: Value, scene: _Scene) -> _Text | None:
    """The keypoint whose value ``k`` is."""
    return next((s.text for s in scene.keypoints if any(v is k for v in s.values)), None)


def _event_word(k: Value, scene: _Scene) -> str | None:
    """The content word written next to a keypoint's date, naming its event (出生 in "DATE出生于X", "born")."""
    kt = _keypoint_of(k, scene)
    if kt is None:
        return None
    if scene.language == "zh":  # the two characters written after the date, else before it (jieba may cut 出生于 as 出/生于)
        after, before = kt.text[k.span[1]:k.span[1] + 2], kt.text[max(k.span[0] - 2, 0):k.span[0]]
        return next((w for w in (after, before) if len(w) == 2 and all(_P_CJK.match(c) for c in w)
                     and not any(c in "的了于在为是和与及至到起止" for c in w)), None)
    spans = [(min(abs(a - k.span[1]), abs(k.span[0] - b)), w) for w, a, b in _token_spans(kt.masked, scene.language)]
    near = min(spans, default=None)
    return near[1] if near and near[0] <= 4 else None


# A reading against its reference range: below, within, above (a general clinical reading, either language)
_P_STATUS = {
    "low": re.compile(r"低于(?:参考|正常)|偏低|降低|减低|下降|缩短|↓|\bbelow (?:the )?(?:reference|normal)|\b(?:low|decreased|"
                      r"reduced)\b", re.I),
    "high": re.compile(r"高于(?:参考|正常)|(?<![未没不])(?<!没有)(?:超出|超过)了?(?:参考|正常)|偏高|升高|增高|延长|↑|\babove (?:the )?"
                       r"(?:reference|normal)|\b(?:high|elevated|raised|increased|prolonged)\b", re.I),
    "normal": re.compile(r"(?:参考|正常)(?:值)?范围(?:之)?内|处于正常范围|(?<![不非异])正常|(?:未|没有|没|不)(?:超出|超过)了?(?:参考|正常)|"
                         r"\bwithin (?:the )?(?:reference|normal)|\bnormal\b(?!\s+(?:range|limits?|values?)\b)", re.I),
}
_STATUS_NAMES = {"low": "below the reference range", "high": "above the reference range",
                 "normal": "within the reference range"}
_P_STATUS_END = re.compile(r"[；;。\n]|[,，]\s*[A-Za-z\u4e00-\u9fff-]{1,12}[：:]|\s(?:and|while|whereas)\s|[和及、]|"
                           r"[,，]\s*(?:his|her|its|their|the)\s+[a-z-]+(?:\s+[a-z-]+)?\s+(?:was|is|were|are)\b")
# (", his hemoglobin was low …": the next reading's clause, not this one's)


_P_ALL_NORMAL = re.compile(r"\b(?:all|every|each)\b[^:：.;]{0,60}\b(?:within normal limits|normal|within the (?:reference|normal) "
                           r"ranges?)[^:：.;]{0,20}[:：]|(?:均|都|全部)[^：:。；]{0,10}(?:正常|参考范围内)[^：:。；]{0,6}[：:]", re.I)


_P_RANGE_WORD = re.compile(r"范围|区间|\b(?:range|limits)\b", re.I)


def _range_status(t: _Text, v: Value) -> str | None:
    """Where a reading is said to lie against its reference range, in the words right after it (up to the next
    value or item): "68 mmHg，偏低", "9 mm/h, within the normal range", "(↓, ref 80-100)"."""
    end = min([x.span[0] for x in t.values if x.span[0] > v.span[0]] + [len(t.text)])
    after = t.text[v.span[1]:end]
    stop = _P_STATUS_END.search(after)
    after = after[:stop.start() if stop else len(after)][:40]
    found = {name for name, pattern in _P_STATUS.items() if pattern.search(after)}
    if not found:  # "All laboratory values were within normal limits: A X, B Y": said of the list it heads
        lead = t.text[max(0, v.span[0] - 160):v.span[0]]
        head = _P_ALL_NORMAL.search(lead)
        if head and not re.search(r"[.;。；\n]", lead[head.end():]):
            return "normal"
    if not found:  # "88.4%, within the reference range of 40-75%": said of the range, before it
        start = v.span[0]
        prev = [x for x in t.values if x.span[1] <= start]
        while prev and re.fullmatch(r"\s*[-–~～至到]\s*", t.text[prev[-1].span[1]:start]):
            start, prev = prev[-1].span[0], prev[:-1]
        before = re.split(r"[,，;；。\n]", t.text[max([x.span[1] for x in prev] + [0]):start])[-1][-40:]
        if _P_RANGE_WORD.search(before):
            found = {name for name, pattern in _P_STATUS.items() if pattern.search(before)}
    if not found and stop and stop.group() in "和及、":  # "A 184U/L和B 3.98mmol/L均未超出参考范围": said of both
        rest = re.split(r"[；;。\n]", t.text[v.span[1]:], maxsplit=1)[0]
        both = re.search(r"(?:均|都|皆)(.{0,12})", rest)
        found = {name for name, pattern in _P_STATUS.items() if both and pattern.search(both.group(1))}
    return found.pop() if len(found) == 1 else None


def _status_said(scene: _Scene, words: tuple[str, ...], k: Value, mine: set[int]) -> str | None:
    """Where the answer says the keypoint's reading lies against its range without giving a value: a clause
    naming the reading (one of the keypoint's words before its value) and one status, and no value of its kind."""
    lang, ans = scene.language, scene.answer
    label = [w for w in words if len(w) >= 2]
    for c in ans.clauses:
        if c.refusal or any(v.kind == k.kind and c.span[0] <= v.span[0] < c.span[1] for v in ans.values):
            continue
        if mine and (named := scene.parties(c.span[0])) and not named & mine:
            continue
        text = c.text if lang == "zh" else c.text.lower()
        if not label or _coverage(tuple(label), scene.blank(text), lang) < 0.5:
            continue  # (the reading must be named: most of the keypoint's words for it)
        found = {name for name, pattern in _P_STATUS.items() if pattern.search(text)}
        if len(found) == 1:
            return found.pop()
    return None


# words that say a value is the amount of something ("is worth", "valued at", "totalling", "共计"): no label
_STATUS_WORDS = frozenset(_stem(w) for w in ("raised", "elevated", "high", "low", "normal", "abnormal", "decreased",
                                               "increased", "reduced", "mildly", "markedly", "slightly"))
_AMOUNT_VERBS = frozenset({_stem(w) for w in ("worth", "valued", "value", "amount", "amounting", "totalling",
                                                "totaling", "total", "involved", "involving", "sum", "came",
                                                "stood", "reached", "represented", "represents", "made",
                                                "makes", "constituted", "comprised", "accounted", "billed",
                                                "bill", "charged", "cost", "costing", "priced")} |
                           {"共计", "合计", "总计", "金额", "价值", "涉及", "达到", "占", "约占", "构成"})
# words for the whole a share is of ("30.4% of the group's revenue", "21.7% of the total"): no label of their own
_WHOLE_WORDS = frozenset({_stem(w) for w in ("group", "company", "firm", "corporation", "total", "overall", "whole",
                                             "entire", "business", "its", "all")} | {"公司", "集团", "全部", "整体", "总"})


_P_OPENS_WITH_PRONOUN = re.compile(r"\s*(?:it|its|this|that|these|they|their|he|she|his|her|which)\b|\s*[其该它此这]",
                                   re.I)


def _topic_sentence(ans: _Text, pos: int) -> str:
    """The sentence holding ``pos``, with the one before it when it opens with a pronoun ("Cross-border logistics was
    the largest line. It brought in …"): what the pronoun stands for is its topic."""
    i = _sentence_index(ans, pos)
    if i is not None and i > 0 and _P_OPENS_WITH_PRONOUN.match(ans.text[ans.sentences[i][0]:]):
        return _sentence(ans, pos, before=1)
    return _sentence(ans, pos)


def _clause_drugs(ans: _Text, pos: int, language: str) -> set[str]:
    """The drugs a value's clause names; a clause naming none ("…4.5g静脉滴注，每12小时1次") takes those of the clause
    before it in its sentence."""
    clause = _clause_of(ans, pos)
    if clause is None:
        return set()
    found = _drugs(clause.text, language)
    if not found:
        before = [c for c in ans.clauses if c.sentence == clause.sentence and c.span[1] <= clause.span[0]]
        if before:
            found = _drugs(before[-1].text, language)
    return found


def _dated_with(k: Value, ans: _Text, found: list[tuple[Value, Value, bool]], values: list[Value],
                live: list[Value], others: list[_Sibling], mine: set[int] | None = None) -> Value | None:
    """The value of ``k``'s kind the answer says next to the keypoint's own full date ("acquired a 75% stake on
    November 17 for $333.54 million" for "the acquisition on November 17 involved $87.57 million"): that dated
    event's figure, said otherwise. A value the answer pairs with another keypoint's other value is that
    keypoint's."""
    def claimed(b: Value) -> bool:
        for s in others:
            if any(_same_value(v, b) for v in s.values):
                mates = [v for v in s.values if not _same_value(v, b)]
                if any(c is not b and _beside(ans, b, c) and any(_same_value(w, c) for w in mates) for c in live):
                    return True
        return any(_same_value(v, b) for v in values)

    anchors = [(kd, ad) for kd, ad, _ in found]
    # the event's full date given by another keypoint of the same party (or of none), the answer saying it: "the
    # acquisition was on May 8, 2022" beside "the amount involved was $1.83 billion" (one event, two keypoints)
    kin = [s for s in others if s.parties == frozenset(mine or ())]
    dates = {str(v.value) for s in kin for v in s.values if v.kind == "date" and not _bare_year(v)}
    if len(dates) == 1:
        anchors += [(v, a) for s in kin for v in s.values if v.kind == "date" and not _bare_year(v)
                    for a in live if a.kind == "date" and _same_value(v, a)]
    for kd, ad in anchors:
        if kd.kind != "date" or _bare_year(kd) or ad.kind != "date":
            continue
        kind = [b for b in live if b.kind == k.kind and _beside(ans, ad, b)]
        if not kind:
            continue
        nearest = min(kind, key=lambda b: abs(b.span[0] - ad.span[0]))
        if _conflicts(k, nearest) and not claimed(nearest):
            return nearest
    return None


def _beside(ans: _Text, a: Value, b: Value) -> bool:
    """Are two values of a text said together: in one clause, or 40 characters apart in one sentence?"""
    lo, hi = sorted((a.span[0], b.span[0]))
    if "\n" in ans.text[lo:hi]:
        return False  # a line of a list or table ends what is said together
    clause = _clause_of(ans, a.span[0])
    return (clause is not None and clause.span[0] <= b.span[0] < clause.span[1]) or (
        _sentence_index(ans, a.span[0]) == _sentence_index(ans, b.span[0]) and hi - lo <= 40)


def _paired(k: Value, scene: _Scene, live: list[Value], used: set[int], found: list[tuple[Value, Value, bool]],
            others: list[_Sibling]) -> Value | None:
    """The keypoint's other value is in the answer, and the clause that holds it gives, in this value's place, the
    one value of its kind there, which no keypoint states: "acquired … on October 27 ($87.57 million)" for "the
    acquisition on November 17 involved $87.57 million"."""
    ans = scene.answer
    stated = [v for s in others for v in s.values]
    for _, mate, _ in found:
        clause = _clause_of(ans, mate.span[0])
        if clause is None:
            continue
        here = [a for a in live if a is not mate and (a.kind == k.kind or _conflicts(k, a)) and _beside(ans, mate, a)]
        if len(here) == 1 and id(here[0]) not in used and _conflicts(k, here[0]) \
                and not any(_same_value(v, here[0]) for v in stated):
            return here[0]
    return None


def _listed(k: Value, scene: _Scene, live: list[Value], used: set[int], found: list[tuple[Value, Value, bool]]
            ) -> Value | None:
    """A number of the keypoint's list ("Articles 153, 67, 52 and 64") the answer replaces in the same list: an
    unclaimed number in the sentence that holds two or more of the keypoint's own numbers."""
    if k.kind != "number":
        return None
    ans = scene.answer
    for a in live:
        if id(a) in used or not _conflicts(k, a):
            continue
        si = _sentence_index(ans, a.span[0])
        if si is not None and sum(_sentence_index(ans, f.span[0]) == si for _, f, _ in found) >= 2:
            return a
    return None


_P_WITH_BEFORE = re.compile(r"(?:\bwith|\bagainst|与|同)\s*$", re.I)
_P_DEAL_WITH = re.compile(r"(?:\bwith|\bto|\bfrom|与|同|向|从)\s*$", re.I)  # the other side of a deal


def _names_counterparty(kt: _Text, scene: _Scene, a: Value, mine: set[int]) -> bool:
    """Does answer value ``a``'s clause name the keypoint's counterparty ("the restructuring with B": B's value too,
    though the clause is the company's: "A carried out its restructuring with B on DATE")?"""
    counter = {i for p, _, i in scene.mentions_in(kt.text) if i in mine and _P_WITH_BEFORE.search(kt.text[max(0, p - 8):p])}
    clause = _clause_of(scene.answer, a.span[0]) if counter else None
    if clause is None:
        return False
    named = {i for p, _, i in scene.mentions if clause.span[0] <= p < clause.span[1]}
    if not named:  # a clause that names no one, in a sentence that names the counterparty after it ("公司于DATE启动资产重组，
        si = clause.sentence  # 向B转让…")
        named = {i for p, _, i in scene.mentions if clause.span[1] <= p < scene.answer.sentences[si][1]
                 and _P_DEAL_WITH.search(scene.answer.text[max(0, p - 8):p])}
    return bool(named & counter)


# words a record puts after a test's name to say it was measured ("the hemoglobin result was", 血红蛋白检测结果为): the
# name says which value it is, these do not
_MEASURE_WORDS = frozenset({_stem(w) for w in ("result", "results", "level", "levels", "value", "reading", "measurement",
                                               "test")} | {"结果", "检测", "检测结果", "数值", "水平", "测定"})


def _rival(k: Value, words: tuple[str, ...], kp_words: tuple[str, ...], scene: _Scene, live: list[Value],
           mine: set[int], kp_values: list[Value], swapped: bool, kinds: set[str] | None = None,
           others: list[_Sibling] | tuple[()] = ()) -> Value | None:
    """An answer value of the same kind said of the same fact and party: it contradicts ``k``."""
    lang, ans = scene.language, scene.answer
    words = tuple(w for w in words if w not in _MEASURE_WORDS) or words  # ("the hemoglobin result": hemoglobin)
    kp_dates = [v for v in kp_values if v.kind == "date" and v is not k]
    theirs = {w for s in others for w in s.words}
    distinct = tuple(w for w in words if w not in theirs)  # the words only this keypoint has
    best, best_score = None, -1.0
    event_word = _event_word(k, scene)
    own_kp = _keypoint_of(k, scene)
    kp_bounded = own_kp is not None and _bound(own_kp, k) != 0  # (a bound against a bound: "within 48 hours" for 18)
    candidates = [a for a in live if _conflicts(k, a) and (kp_bounded or not _bound_holds(ans, a, k))]
    own_text = own_kp.masked if own_kp is not None else ""
    own_kp_text = own_kp.text if own_kp is not None else ""
    k_drugs = _drugs(own_kp_text, lang)
    k_prior = own_kp is not None and k.kind != "percent" and _prior(_context(own_kp, k, own_kp.values))
    k_event = _date_event(own_kp, k, lang) if k.kind == "date" and own_kp is not None else None
    # the keypoint's own words just before its value, after any party's name and short of how an amount is said
    # ("净利润为X": labelled; "the first event of A involved $X": not)
    k_label = False
    if own_kp is not None:
        start = max([k.span[0] - (6 if lang == "zh" else 24)] + [
            b for _, b, _ in scene.mentions_in(own_kp.text) if b <= k.span[0]])
        k_label = bool(set(_content_tokens(own_kp.masked[max(0, start):k.span[0]], lang)) - _AMOUNT_VERBS)

    # candidates not said of another party, and the keypoint's slot: no other keypoint of the query gives
    # a value of this kind (for this party)
    stated = [v for s in others for v in s.values] + [v for v in kp_values if v is not k]
    own = [a for a in candidates if not (mine and (p := scene.parties(a.span[0], kinds)) and (
        not p & mine or (len(p) > 1 and scene.owner(a.span[0]) not in mine and _parallel(a, scene, live))))
           and not any(_same_value(v, a) and not (_bare_year(v) and not _bare_year(a)) for v in stated)]
    # other keypoints whose value of this kind (for this party) the answer does not state: they compete
    # with this one for the answer's unclaimed values
    rivals_of = [s for s in others if any(v.kind == k.kind and (_conflicts(k, v) or _same_value(k, v))  # comparable
                                          and (not mine or not s.parties or s.parties & mine)
                                          and not any(_same_value(v, a) for a in live) for v in s.values)]
    alone = not rivals_of
    for a in candidates:
        said_of = scene.parties(a.span[0], kinds)
        if mine and said_of and not said_of & mine and not (
                own_kp is not None and _names_counterparty(own_kp, scene, a, mine)):
            continue  # said of another party
        if any(s.parties and not s.parties & mine and (not said_of or said_of <= s.parties)
               and any(_same_value(v, a) for v in s.values) for s in others) and (mine or said_of):
            continue  # what another keypoint gives another party (said of it, or of no one): that party's value
        if mine and len(said_of) > 1 and scene.owner(a.span[0]) not in mine and _parallel(a, scene, live):
            continue  # "A was 45 and B was 25": 25 is B's
        if _other_record(a, kp_dates, scene, live):
            continue  # belongs to another dated event
        a_drugs = _clause_drugs(ans, a.span[0], lang) if k_drugs else set()
        if a_drugs and not _shares_drug(a_drugs, k_drugs):
            continue  # a dose or frequency of another drug
        if k_prior and not _prior(_context(ans, a, ans.values)):
            continue  # the keypoint's is last year's figure; one said without "上年"/"prior year" is this year's
        a_event = _date_event(ans, a, lang) if k_event is not None else None
        if a_event is not None and a_event != k_event and not (k_event and _also_names(ans, a, k_event, lang)):
            continue  # a date said as another event's, both named ("刑期自DATE起算" for "刑期至DATE届满"), unless
            # said of the keypoint's event too ("DATE开庭审理并当庭作出判决" dates the judgment)
        if k_event is not None and a_event is None and _bare_year(k) and _bare_year(a):
            continue  # "In 2020 its revenue rose" is no founding year: a bare year must name the keypoint's event
        if not _P_JOINT.search(own_kp_text) and (_P_JOINT.search((_clause_of(ans, a.span[0]) or _NO_CLAUSE).text) or (
                _total_beside(ans, a) and any(_P_JOINT.search(s.text.text) for s in others) and not any(
                    b is not a and b.kind == a.kind and _P_JOINT.search((_clause_of(ans, b.span[0]) or _NO_CLAUSE).text)
                    for b in ans.values))):
            continue  # said of several together ("两人合计住院11天", "combined"; "22 days in total" where another
            # keypoint gives the total, and the answer says no other value as the joint one: "共住院13天…两人合计19天"
            # leaves 13天 one party's): no one party's value
        same_party = bool(said_of & mine)
        ctx = scene.blank(_context(ans, a, ans.values))
        score = _share(words, ctx, lang)
        if score == 0 and same_party:
            # an elliptical second half ("A stayed 5 days and B 4 days", "A的资产负债率为X，B约为Y"): B's value has
            # A's words
            prev = [b for b in live if b.kind == a.kind and b.span[1] <= a.span[0]
                    and _sentence_index(ans, b.span[0]) == _sentence_index(ans, a.span[0])]
            gap = ans.text[prev[-1].span[1]:a.span[0]] if prev else ""
            if gap and not set(_content_tokens(scene.blank(gap), lang)) - _HEDGE_WORDS and any(
                        prev[-1].span[1] <= p < a.span[0] and i in mine for p, _, i in scene.mentions):
                score = _share(words, scene.blank(_context(ans, prev[-1], ans.values)), lang)
        # the word written next to the keypoint's value, next to this one too ("a fine of $9,000" / "a fine of
        # $3,320", "DATE出生"), the only value of the kind in its sentence: the same fact; a date's event word
        # may stand anywhere in its context, another value's must be at its side
        beside = ctx if k.kind == "date" else scene.blank(ans.masked[max(0, a.span[0] - (6 if lang == "zh" else 24)):
                                                                     a.span[1] + (4 if lang == "zh" else 12)])
        named_event = event_word is not None and _share((event_word,), beside, lang) > 0 and sum(
            _sentence_index(ans, b.span[0]) == _sentence_index(ans, a.span[0]) for b in candidates) == 1
        if named_event and k.kind != "date" and _other_member(own_text, ctx, lang):
            named_event = False  # "房屋建筑板块收入占比66.5%" is another segment's share, not "工程设计板块…占比"
        if k_event is not None and a_event == k_event and not (
                mine and (named := scene.named_in_sentence(_sentence_index(ans, a.span[0]) or 0)) and not named & mine):
            named_event = True  # "detained on DATE" for "placed in criminal detention on DATE": the same event
        if k_prior or _shares_drug(a_drugs, k_drugs):
            named_event = True  # last year's figure said as last year's; the keypoint's drug's own dose
        row = _row_label(ans, a.span[0])
        if row is not None and _share(kp_words, scene.blank(row), lang) > 0 and not (mine and said_of - mine):
            named_event = True  # the table row the keypoint's label heads: "| Zinc | $555.54M | 41.2% |"
        if _P_JOINT.search(own_kp_text) and _total_beside(ans, a) and not (mine and said_of - mine):
            named_event = True  # the keypoint's total, the answer's total ("23 days in total" for "together 22 days")
        if named_event or _same_digits(k, a):  # or the keypoint's own digits at another scale ($435.98 billion)
            named_event = True
            score = max(score, CONTEXT_SAME_FACT)
        exact = score >= CONTEXT_SAME_FACT and not set(_content_tokens(ctx, lang)) - set(kp_words) - set(words) \
            - _STATUS_WORDS - _AMOUNT_VERBS  # ("hemoglobin was low at 83 g/L": where it lies is no other label)
        extra = set(_content_tokens(ctx, lang)) - set(kp_words) - set(words)  # the value's own label words
        if lang == "zh":  # a word sharing a character with the keypoint's is mostly the same word (相隔/间隔)
            extra = {w for w in extra if not any(c in kw for kw in kp_words for c in w)
                     and not all(c in own_kp_text for c in w)}  # (jieba's 率为 of 沉降率为: the keypoint's own characters)
        if extra and _share(words or kp_words, ctx, lang) >= CONTEXT_SAME_FACT:
            extra = set()  # the keypoint's own label is there: more words only say more
        extra -= _AMOUNT_VERBS  # "valued at", "totalling", "共计": how an amount is said, not what it is of
        extra -= _STATUS_WORDS  # "a raised PSA of X": where a reading lies, not what it is
        if k.kind == "percent":
            extra -= _WHOLE_WORDS  # "around 30.4% of the group's revenue": the whole, not another label
        # an answer of one value, on the keypoint's topic, and for an amount under no label of its own
        # ("operating income" is not "net income"; a date's words name its event, said otherwise)
        single = len(ans.values) == 1 and not said_of and score > 0 and (not extra or k.kind == "date")
        # a keypoint of no party (the question names it: "the offence took place on DATE") and the answer's one
        # date (or term) of the kind, for no other event: its answer to that slot, whatever words it uses
        # (a date whose event the keypoint names in words of no known event must be said with one of its words:
        # "发布新产品" on DATE is no answer to "DATE发生诉讼事项")
        unnamed_slot = not mine and alone and own == [a] and sum(
            _comparable(k, v) and not (k.kind == "date" and v is not a and (ev := _date_event(ans, v, lang)) is not None
                                       and ev != k_event)  # (a date said as another event's is no rival for the slot)
            for v in live) == 1 and (
            (k.kind == "duration" and (a.unit == k.unit or score > 0)) or (k.kind == "date" and not _other_event(own_kp, k, ans, a, lang) and (
                k_event is not None or "date" in scene.asked  # (the question asks when: its one date is the answer)
                or _share(words, scene.blank(_sentence(ans, a.span[0])), lang) > 0))
            or (k.kind not in ("date", "duration") and (score > 0 or k.kind in scene.asked or k.unit == "time of day")
                and not _modifier_clash(own_text, ctx, lang)))
        # ("the zinc business contributed $X" for "the zinc segment generated $Y"; not "operating income" for
        # "net income": another line item)
        if not same_party and not exact and not single and not named_event and not unnamed_slot and \
                _share(kp_words, scene.blank(_topic_sentence(ans, a.span[0])), lang) < CONTEXT_SOLE_FACT:
            continue  # a sentence on another topic
        # The only value of its kind counts on weaker evidence, unless its label adds words the keypoint
        # lacks ("environmental investment" is not "planned investment").
        only = len(candidates) == 1
        sole = only and not extra
        # The keypoint's slot is alone and no keypoint gives this value: then the one value of the kind the
        # answer says of the party, or on the keypoint's topic, can only be its answer to this fact.
        # a term (of prison, of treatment) said of the keypoint's party is its answer to this slot, whatever
        # words come with it ("got 5 years"); a date too ("caused the crash on DATE" for "the offence was
        # committed on DATE"), unless its words name another event than the keypoint's ("born on DATE")
        event = (same_party or (not mine and (k.kind == "duration" or k_event is not None or _share(
            words, scene.blank(_sentence(ans, a.span[0])), lang) > 0))) and (
            k.kind == "duration" or (k.kind == "date" and not _other_event(own_kp, k, ans, a, lang)))
        # the one amount (share, count) of the kind the answer says of the keypoint's party, on its topic
        # (or on the question's topic: every word of the keypoint's label is the question's, "What did A and B
        # each disclose as their first major event?" for "A's first major event involved $X")
        party_slot = same_party and k.kind not in ("date", "duration") and (
            score > 0 or k.unit in ("age", "time of day") or (alone and bool(words) and all(
                w in scene.premise or w in _AMOUNT_VERBS for w in words) and not k_label)) and sum(  # (an age said of the party is its age)
            _comparable(k, v) and bool(scene.parties(v.span[0], kinds) & mine) for v in live) == 1
        slot = a in own and (
            (alone and len(own) == 1 and (not extra or event or unnamed_slot or party_slot)) or
            (rivals_of and score > 0 and all(_share(tuple(w for w in s.words if w not in words), ctx, lang) < score
                                             for s in rivals_of)))
        if score >= CONTEXT_SAME_FACT or (sole and score > 0) or (same_party and (
                swapped or not words or score >= CONTEXT_SOLE_FACT or (only and len(ans.values) == 1))) or (
                swapped and distinct and _share(distinct, ctx, lang) > 0) or single or (
                slot and (score > 0 or same_party or event or unnamed_slot or _share(kp_words, scene.blank(
                    _sentence(ans, a.span[0])), lang) > 0)):
            if score > best_score:
                best, best_score = a, score
    return best


def _judge_words(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> tuple[Label, str]:
    lang, ans = scene.language, scene.answer
    words = _kp_words(kt, scene)
    kp_cmp = _comparatives(kt.text, lang)
    if kp_cmp and kp_parties:
        verdict = _judge_comparison(kt, scene, kp_cmp[0], words)
        if verdict is not None:
            return verdict
        if not any(not (_clause_of(ans, p) or _NO_CLAUSE).refusal for p, _, _ in _comparatives(ans.text, lang)):
            # a figure for each party does not say who had more: the keypoint's point is the comparison
            return "Irrelevant", "makes no comparison"
    # Two named parties in one sentence carry a relation ("X's physician was Y"); a lone party carries
    # little, the keypoint's words must.
    role = _role_binding(kt, scene, kp_parties, words)
    if role is not None:
        return role
    point = tuple(w for w in words if w not in scene.premise)
    if (point or kp_parties) and len(point) < len(words):
        # the keypoint's words the question does not already say ("突发胸痛系X所致" asked as "突发胸痛的原因"); with
        # none left, the party it names is the point ("出生于DATE的被告人是NAME" asked as "谁出生于DATE")
        words = point
    word_weight = sum(len(w) for w in words)
    related = _related_parties(kt, scene) >= 2
    unit = word_weight / len(words) if words else 4.0
    codes = set(_P_CODE_EN.findall(kt.text)) - {"USD", "CNY", "RMB", "CEO", "CFO", "COO"} if lang == "en" else set()
    best_cov, eligible = 0.0, []
    before: set[int] = set()
    for si in range(len(ans.sentences)):
        clauses = [c for c in ans.clauses if c.sentence == si and not c.refusal]
        if not clauses:
            continue
        named = {i for p, _, i in scene.mentions if any(c.span[0] <= p < c.span[1] for c in clauses)}
        # a sentence that names no one goes on about the keypoint's party when the sentence before named it
        # ("X is 70. He lives in Y.")
        if not named and before & set(kp_parties):
            named = before
        before = named or before
        if kp_parties and named and not named & set(kp_parties):
            continue  # a sentence about someone else (a party named only where it declines is not its subject)
        text = " ".join(c.text for c in clauses)
        if kp_parties and named & set(kp_parties) and any(
                i < scene.from_keypoints and scene.entities[i].org == scene.entities[kp_parties[0]].org
                for i in named - set(kp_parties)):
            # a sentence about the keypoint's party and another of its kind: its clauses about this one ("Appeals in
            # A's case go to X, and in B's case to Y": Y is B's)
            own = [c for c in clauses if scene.parties(c.span[0]) & set(kp_parties)]
            text = " ".join(c.text for c in own) if own else text
        eligible.append(text)
        if codes and not all(re.search(rf"\b{code}\b", text) for code in codes):
            continue  # a ticker or code the keypoint names must be there as written
        if related and set(kp_parties) <= named:
            # Two named parties in one sentence carry a relation ("X's physician was Y").
            party_hit = party_total = float(sum(2 * (sum(len(w) for w in scene.entities[i].name.split()) if lang == "en"
                                               else len(scene.entities[i].name)) for i in kp_parties))
        else:  # otherwise the parties named weigh as one of the keypoint's words
            party_total = unit if kp_parties else 0.0
            party_hit = unit if named & set(kp_parties) else 0.0
        hit = _coverage(words, scene.blank(text), lang) * word_weight + party_hit
        cov = hit / (word_weight + party_total) if word_weight + party_total else 0.0
        if cov > best_cov:
            best_cov = cov
    surfaces = [f.text for f in facts if f.kind in ("category", "text", "place") and f.text]
    said = scene.blank(" ".join(eligible))
    if surfaces and all((s if lang == "zh" else s.lower()) in said for s in surfaces):
        best_cov = max(best_cov, COVERAGE_RELEVANT)  # a build fact's exact words, said of the right party
    names = [f for f in facts if f.kind in ("person", "organisation") and f.text]
    if names and len(names) == len(facts) and eligible:
        # a keypoint whose fact is a name ("X audited the company's statements", asked as "who audited it?"): the
        # answer names it, and the keypoint's other parties are named or asked about
        fact_ents = {i for f in names for i, e in enumerate(scene.entities) if _same_entity(e, _fact_entity(f, lang))}
        if fact_ents and all(scene.mentioned(i) for i in fact_ents) and all(
                scene.mentioned(i) or any(a in scene.question for a in scene.entities[i].aliases)
                for i in set(kp_parties) - fact_ents):
            best_cov = max(best_cov, COVERAGE_RELEVANT)
    value = _label_value(kt.text, lang)
    if value and not kp_parties and _coverage(_content_tokens(value, lang), said, lang) >= 0.99:
        best_cov = max(best_cov, COVERAGE_RELEVANT)  # "职业情况为厨师" is stated by "系厨师": the value is the point
    elif value and len(kp_parties) == 1 and scene.mentioned(kp_parties[0]) and \
            any(value.strip().rstrip("。.").lower() == a for a in scene.entities[kp_parties[0]].aliases):
        best_cov = max(best_cov, COVERAGE_RELEVANT)  # "The counterparty was NAME": naming the party is the point
    flagged = _substitution(scene, kp_parties, words, _kp_roles(kt, scene)) or _member_clash(scene, kp_parties) \
        or _polarity_clash(kt.text, words, scene, kp_parties) or _direction_clash(kt, scene) \
        or _filler_clash(kt, scene)
    if flagged:
        return "Wrong", flagged
    if best_cov >= COVERAGE_RELEVANT:
        return "Relevant", f"states it ({best_cov:.0%} of its content)"
    if _refused_here(scene, words, kp_parties):
        return "Irrelevant", "answer says this information is not available"
    return "Irrelevant", f"not addressed ({best_cov:.0%} of its content found)"
