"""Attribution: which party or label a value belongs to.

A value the keypoint asserts of one party is not matched by the same value the answer says of another;
a comparison is Wrong when the answer makes the other party the winner; a role (judge, physician,
defendant) held by someone else in the answer is a swapped party."""

from __future__ import annotations

import re
from functools import lru_cache

from dragonforge.judge.analysis import _clause_of, _context_span, _sentence_index, _Text
from dragonforge.judge.entities import _org_kind, _party_kind
from dragonforge.judge.labels import COVERAGE_RELEVANT, Label
from dragonforge.judge.polarity import _P_NOT_SAID, _comparatives
from dragonforge.judge.scene import _DEAL_OF, _NO_CLAUSE, _elliptical, _Scene, _Sibling, _unnamed
from dragonforge.judge.values import Value, _conflicts, _same_value
from dragonforge.judge.words import _coverage, _frame_tokens, _share, _stem, _word_spans


def _under_other_label(a: Value, words: tuple[str, ...], others: list[_Sibling], scene: _Scene,
                       ours: tuple[str, ...] = (), least: float = 0.0) -> bool:
    """Is answer value ``a`` said under another keypoint's label (one of its words, none of ours, in the words that
    lead up to it) for a quantity of the same kind ("medications were $1,988 and examinations $2,405": $2,405 is
    the examinations')?"""
    if not words or not others:
        return False
    ans = scene.answer
    start = _context_span(ans, a, ans.values)[0]
    ctx = scene.blank(ans.masked[start:a.span[0]])
    rivals = [s for s in others if any(_same_value(v, a) or _conflicts(v, a) for v in s.values)]
    theirs_all = {w for s in rivals for w in s.words}
    mine_only = tuple(w for w in words if w not in theirs_all) or words  # (召开 is both keypoints' word)
    if _share(mine_only, ctx, scene.language) > 0:
        return False
    # another keypoint's own words (none of this keypoint's) lead up to the value; ``least``: how many of them
    return any(_share(tuple(w for w in s.words if w not in words and w not in ours), ctx, scene.language) > least
               for s in others if any(_same_value(v, a) or _conflicts(v, a) for v in s.values))


def _parallel(a: Value, scene: _Scene, live: list[Value]) -> bool:
    """Does ``a``'s clause hold another value of its kind (a list of parties, each with its own value)?"""
    clause = _clause_of(scene.answer, a.span[0])
    return clause is not None and any(v is not a and v.kind == a.kind and clause.span[0] <= v.span[0] < clause.span[1]
                                      for v in live)


def _other_record(a: Value, kp_dates: list[Value], scene: _Scene, live: list[Value]) -> bool:
    """Is answer value ``a`` dated, in its sentence, differently from every date the keypoint gives?"""
    if not kp_dates or a.kind == "date":
        return False  # a date is the event's own: "from A to B" for the keypoint's "from X to Y" gives two dates
    i = _sentence_index(scene.answer, a.span[0])
    owner = scene.owner(a.span[0])  # a date said of another party in the sentence dates that party's event
    here = [v for v in live if v.kind == "date" and v is not a and _sentence_index(scene.answer, v.span[0]) == i
            and scene.owner(v.span[0]) == owner]
    return bool(here) and not any(_same_value(k, v) for k in kp_dates for v in here) and \
        any(_conflicts(k, v) for k in kp_dates for v in here)


def _role_binding(kt: _Text, scene: _Scene, kp_parties: list[int], words: tuple[str, ...]
                  ) -> tuple[Label, str] | None:
    """A role keypoint ("审判长为王红霞", "Tina Chavez was the clerk"): whom the answer names next to the role."""
    if len(kp_parties) != 1 or not words or not _is_role_keypoint(kt, scene, kp_parties[0]):
        return None
    lang, ans = scene.language, scene.answer
    target = kp_parties[0]
    wrong: tuple[Label, str] | None = None  # (the keypoint's person named in the role in a later clause wins:
    # "由审判员甲担任审判长，审判员乙…参加")
    for c in ans.clauses:
        if c.refusal or _coverage(words, scene.blank(c.text), lang) < COVERAGE_RELEVANT:
            continue
        spans = _word_spans(c.text, words, lang)
        inside = [m for m in scene.mentions if c.span[0] <= m[0] < c.span[1]
                  and not ans.text.startswith(("'s", "’s"), m[1])  # "the clerk at Bryan Robinson's trial": not his role
                  and not _other_title(ans.text[max(0, m[0] - 25):m[0]], kt.text)  # "defendant Bryan Robinson"
                  and (m[2] == target or scene.entities[m[2]].org
                       or not any(a in scene.question for a in scene.entities[m[2]].aliases))]
        # (a person the question names is its premise: "the panel that tried NAME consisted of …")
        if not spans or not inside:
            continue
        p, q = c.span[0] + spans[0][0], c.span[0] + spans[-1][1]
        nearest = min(inside, key=lambda m: max(m[0] - q, p - m[1], 0))[2]
        if nearest == target:
            return "Relevant", f"names {scene.entities[target].name} in that role"
        kp_role = _kp_roles(kt, scene).get(target, set())
        theirs = _answer_roles(scene).get(nearest, set())
        if kp_role and theirs and not kp_role & theirs:
            continue  # named in another role ("B's chief executive is Y" does not fill "A is chaired by X")
        if scene.entities[nearest].org == scene.entities[target].org and wrong is None:
            wrong = "Wrong", f"answer names {scene.entities[nearest].name} where keypoint names {scene.entities[target].name}"
    return wrong


_P_COPULA = re.compile(r"^\s*(?:(?:was|is|were|are)(?:\s+the)?|为|是|系|担任)\s*", re.I)


_ROLE_TITLES = (r"prosecutor|presiding judge|judge|clerk|(?:people's )?assessor|attending physician|doctor|dr\.?|"
                r"defen[cs]e (?:counsel|lawyer)|审判长|审判员|人民陪审员|书记员|检察员|检察官|公诉人|主治医师|辩护人")


_P_TITLE_BEFORE = re.compile(rf"(?:{_ROLE_TITLES}|defendant|victim|witness|patient|被告人|被害人|证人|患者|原告)\s*$", re.I)


def _other_title(before: str, keypoint: str) -> str | None:
    """The title written just before a name, when the keypoint does not use it: that person holds another role."""
    m = _P_TITLE_BEFORE.search(before)
    return m[0] if m and m[0].strip().lower() not in keypoint.lower() else None


def _is_role_keypoint(kt: _Text, scene: _Scene, target: int) -> bool:
    """Is the keypoint "ROLE is PARTY" or "PARTY is the ROLE", a role only one party holds?"""
    ms = [m for m in scene.mentions_in(kt.text) if m[2] == target]
    if not ms:
        return False
    a, b, _ = ms[0]
    before, after = kt.text[:a], kt.text[b:]
    if re.search(r"(?:was|is|were|are|为|是|系)\s*(?:doctor|dr\.?|judge|prosecutor)?\s*$", before, re.I) \
            and not after.strip(" .。"):
        return True  # "The attending physician was Doctor X", "审判长为X"
    if re.fullmatch(rf"\s*(?:the\s+)?(?:{_ROLE_TITLES})\s*", before, re.I):
        return True  # "Prosecutor Yvonne Green appeared in court", "检察员柳璐出庭"
    return bool(not before.strip() and _P_COPULA.match(after) and
                (scene.language == "zh" or re.match(r"^\s*(?:was|is)\s+the\b", after, re.I)))


_P_LIST_GAP = re.compile(r"\s*(?:、|，|,|和|与|及|&|and)\s*")


def _related_parties(kt: _Text, scene: _Scene) -> int:
    """How many separate parties the keypoint relates; a list (翁秀芳、徐建华; A and B) counts as one."""
    ms = scene.mentions_in(kt.text)
    groups = 0
    for n, (a, _, _) in enumerate(ms):
        if n == 0 or not _P_LIST_GAP.fullmatch(kt.text[ms[n - 1][1]:a]):
            groups += 1
    return groups


_GENERIC_COMPARATIVES = {"more", "less", "fewer", "多", "少"}


def _judge_comparison(kt: _Text, scene: _Scene, kp_cmp: tuple[int, int, str], words: tuple[str, ...]
                      ) -> tuple[Label, str] | None:
    """Whom the answer says is more/less/earlier: the keypoint's party or another; None when it does not say."""
    lang, ans = scene.language, scene.answer
    _, sign, kp_word = kp_cmp
    first = next(iter(scene.mentions_in(kt.text)), None)
    if first is None:
        return None
    subject = first[2]
    dims = tuple(w for w in words if not _comparatives(w, lang))
    votes: list[tuple[float, float, int, int, int]] = []
    for si, (sa, sb) in enumerate(ans.sentences):
        clauses = [c for c in ans.clauses if c.sentence == si]
        if all(c.refusal for c in clauses):
            continue
        sent = ans.text[sa:sb]
        overlap = _coverage(dims, scene.blank(sent), lang) if dims else 1.0
        for pos, a_sign, word in _comparatives(sent, lang):
            clause = _clause_of(ans, sa + pos) or _NO_CLAUSE
            if clause.refusal:
                continue  # "so I can't say who was younger": a comparison declined
            who = _comparison_subject(scene, sa + pos, si, subject)
            if who is None:
                continue
            if overlap == 0 and who >= scene.from_keypoints and (word != kp_word or word in _GENERIC_COMPARATIVES
                                                                or lang == "zh"):
                continue  # a comparison of something else, by a party no keypoint names
            # (the measure said in the comparative's own clause first: "尽管B收入更大，但A的毛利率更高")
            own = _coverage(dims, scene.blank(clause.text), lang) if dims and clause.text else overlap
            votes.append((overlap, own, -len(votes), who, a_sign))
    if not votes:
        return None
    overlap, _, _, who, a_sign = max(votes)
    name, mine = scene.entities[who].name, scene.entities[subject].name
    if (who == subject) == (a_sign == sign):
        if who != subject and overlap == 0 and dims:
            return None  # "the other one was higher" only helps on the same measure
        return "Relevant", f"names {mine} the same way round"
    if who == subject:
        return "Wrong", f"answer reverses the comparison for {name}"
    return "Wrong", f"answer names {name} where keypoint names {mine}"


_P_NAMED_AFTER = re.compile(r"(?:更|较|比较)?[\u4e00-\u9fff]{1,2}的(?:是|为)\s*|[a-z]+(?:\s+one)?\s+(?:was|is)\s+", re.I)


_P_THAN = re.compile(r"(?:(?<!者相)(?<!人相)(?<!方相)比|没有|不如|than\s+)$", re.I)  # (not 两人相比: "comparing the two")


def _comparison_subject(scene: _Scene, pos: int, si: int, subject: int) -> int | None:
    """The party a comparative word at ``pos`` is said of: one named before it in its own clause, else the
    sentence's first party, else the first named after it."""
    ans = scene.answer
    sa, sb = ans.sentences[si]
    kind = _party_kind(scene.entities[subject])
    mentions = [m for m in scene.mentions if _party_kind(scene.entities[m[2]]) == kind]  # (a patient's hospital is no
    # rival patient: only parties of the keypoint's subject's kind are compared)
    named = _P_NAMED_AFTER.match(ans.text, pos)  # "较快的是NAME", "the earlier one was NAME": the name that follows
    if named:
        after = [m for m in mentions if m[0] == named.end()]
        if after:
            return after[0][2]
    clause = _clause_of(ans, pos)
    if clause is None and ans.text[pos - 1:pos + 1] == "相比" and any(m[0] == pos + 1 for m in mentions):
        # "张兵的刑期|相比|李林更短": 相比 then the party compared with, so the subject is the party before it
        lead = [m for m in mentions if sa <= m[0] < pos - 1]
        if lead:
            return lead[-1][2]
    start = clause.span[0] if clause else sa
    own = [m for m in mentions if start <= m[0] < pos
           and not _P_THAN.search(ans.text[max(0, m[0] - 6):m[0]])]  # (the party it is compared with)
    if own:
        return subject if any(m[2] == subject for m in own) else own[-1][2]
    before = [m for m in mentions if sa <= m[0] < pos]
    if before:
        return before[0][2]
    after = [m for m in mentions if pos <= m[0] < sb]
    return after[0][2] if after else None


def _member_clash(scene: _Scene, kp_parties: list[int]) -> str | None:
    """A person the keypoint places in a firm, court or hospital, whom the answer names next to another one of
    that kind ("Becky Rivera of Redfern & Brown Law Firm" where the keypoint has Sterling & Rogers Law Firm)."""
    people = [i for i in kp_parties if not scene.entities[i].org]
    places = [i for i in kp_parties if scene.entities[i].org and _org_kind(scene.entities[i])]
    if len(people) != 1 or len(places) != 1:
        return None
    person, place = people[0], places[0]
    kind = _org_kind(scene.entities[place])
    ans = scene.answer
    for a, b, i in scene.mentions:
        if i != person or (_clause_of(ans, a) or _NO_CLAUSE).refusal:
            continue
        seg = next(((x, y) for x, y in _segments(ans) if x <= a < y), (0, len(ans.text)))
        near = [(max(p - b, a - q, 0), j) for p, q, j in scene.mentions
                if j != person and scene.entities[j].org and _org_kind(scene.entities[j]) == kind
                and seg[0] <= p < seg[1]]  # in its stretch: "A的辩护人为X所律师甲；B的辩护人为乙" puts 乙 nowhere
        if near:
            j = min(near)[1]
            if j != place:
                names = scene.entities[person].name, scene.entities[j].name, scene.entities[place].name
                return "answer places {} at {}, not {}".format(*names)
    return None


def _swapped_clause(kt: _Text, scene: _Scene) -> str | None:
    """What the keypoint says of one party, the answer says of another, and something else of this one: each
    clause of the keypoint that names one party is looked for in the answer's clauses that name one party
    ("A was convicted of X" against "B was convicted of X, and A of Y"; 向丹诊断为X against 孙雷被诊断为X)."""
    lang, ans = scene.language, scene.answer
    single: list[tuple[int, int, set[str], list[Value], set[str]]] = []  # the answer's clauses that name one party:
    # (party, sentence, words, values, the words before its first preposition: its verb)
    for c in ans.clauses:
        if c.refusal:
            continue
        named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
        if len(named) == 1:
            words = {s for s, _ in _frame_tokens(_unnamed(scene, ans.masked[c.span[0]:c.span[1]]), lang)}
            said = [v for v in ans.values if c.span[0] <= v.span[0] < c.span[1]]
            if lang == "en" and single and single[-1][1] == c.sentence and _elliptical(scene.blank(c.text)):
                words = words | single[-1][4]  # "A is based in X, and B in Y": B's clause has A's verb
            verb = {s for s, _ in _frame_tokens(_unnamed(scene, re.split(r"\b(?:in|at|on|to|for|of|with|by)\b",
                                                                     ans.masked[c.span[0]:c.span[1]])[0]), lang)}
            single.append((next(iter(named)), c.sentence, words, said, verb))
    if len(single) < 2:
        return None
    counterparts = {i for a, _, i in scene.mentions if _P_COUNTERPARTY.search(ans.text[max(0, a - 40):a])
                    or _P_THAN.search(ans.text[max(0, a - 6):a])}  # (and the party compared with: 比B, than B)
    for kc in kt.clauses:
        named = {i for _, _, i in scene.mentions_in(kc.text)}
        if len(named) != 1:
            continue
        mine = next(iter(named))
        want = {s for s, _ in _frame_tokens(_unnamed(scene, kt.masked[kc.span[0]:kc.span[1]]), lang)}
        if len(want) < 2:
            continue
        own = [(si, w) for p, si, w, _, _ in single if p == mine]
        if not own or any(want <= w for _, w in own):
            continue  # the answer says nothing of this party alone, or says the keypoint's clause of it
        values = [v for v in kt.values if kc.span[0] <= v.span[0] < kc.span[1]]
        if any(_same_value(k, a) for k in values for p, _, _, said, _ in single if p == mine for a in said):
            continue  # the keypoint's value is said of its party, in other words
        if values and all(any(_same_value(k, a) and mine in scene.parties(a.span[0]) for a in ans.values)
                          for k in values):
            continue  # … or in a clause that names no one ("than B, whose meeting was on DATE")
        # what the answer does not say of this party, apart from what the question names (a label: "diagnosis")
        lacking = want - set().union(*(w for _, w in own)) - scene.premise
        if not lacking:
            continue
        for p, si, words, _, _ in single:
            if p in counterparts or any(p in sib.parties and lacking <= _frame_set(scene, sib.text)
                                        for sib in scene.keypoints if sib.text is not kt):
                continue  # a counterparty ("litigation with C"), or what another keypoint says of that party
            if p != mine and lacking <= words and any(s == si for s, _ in own):
                return (f"answer says of {scene.entities[p].name} what keypoint says of "
                        f"{scene.entities[mine].name}")
    return None


# a party named after one of these is the other side of the clause's act, not whom it is about
_P_COUNTERPARTY = re.compile(r"(?:\b(?:with|against|versus|vs\.?|by)|与|和|同|向|跟)\s*(?:the\s+)?$|" + _DEAL_OF, re.I)


def _frame_set(scene: _Scene, t: _Text) -> set[str]:
    return {s for s, _ in _frame_tokens(_unnamed(scene, t.masked), scene.language)}


_P_PIECE = re.compile(r"[,;:，；：。.]|\band\b|\bwhile\b|\bwhereas\b|而")  # not 、: a list is one piece


def _pieces(scene: _Scene, text: str) -> list[list[str]]:
    """The stems of each comma- or "and"-separated piece of ``text``, in order, names and values blanked."""
    return [[s for s, _ in _frame_tokens(piece, scene.language)] for piece in _P_PIECE.split(_unnamed(scene, text))]


def _swapped_roles(kt: _Text, scene: _Scene) -> str | None:
    """A keypoint of parallel pieces, each opened by its own subject word ("her father had X and her mother
    had Y", 父亲患X，母亲患Y), whose pieces the answer says with the subjects exchanged: the piece of one
    subject holds none of its own words but all of another's."""
    kp = [p for p in _pieces(scene, kt.masked) if len(p) >= 2]
    subjects = [p[0] for p in kp]
    if len(kp) < 2 or len(set(subjects)) < len(subjects):
        return None
    rest = [set(p[1:]) - set(subjects) for p in kp]
    answer = scene._memo.get("pieces")
    if answer is None:
        answer = scene._memo["pieces"] = [set(p) for p in _pieces(scene, scene.answer.masked) if p]
    for i, subject in enumerate(subjects):
        if any(subject in piece and rest[i] & piece for piece in answer):
            continue  # the answer says this piece as the keypoint does somewhere
        for piece in answer:
            if subject not in piece or len(piece & set(subjects)) != 1 or not rest[i] or rest[i] & piece:
                continue
            for j, other in enumerate(rest):
                if j != i and other and not other & rest[i] and other <= piece:
                    return f"answer says of {kp[i][0]} what keypoint says of {kp[j][0]}"
    return None


_P_PASSIVE = re.compile(r"\bby\b|被|由")


# verbs that say one relation between two parties (A succeeded B = A replaced B = A接替B), read as one
_RELATION_SAME = {_stem(w): group.split()[0] for group in (
    "succeeded replaced succeeds replaces succeed replace", "defended represented defends represents defend represent",
    "acquired bought purchased acquires buys purchases") for w in group.split()} | {
    w: group[0] for group in (("接替", "接任", "替代", "取代"), ("辩护", "代理")) for w in group}


def _relations(scene: _Scene, masked: str, mentions: list[tuple[int, int, int]]
               ) -> list[tuple[int, int, frozenset[str]]]:
    """(agent, patient, stems of the words between) for each two parties named close together in a clause of
    ``masked`` (a text with its values blanked), in the active voice: "A succeeded B", "B was succeeded by A" and "B由A接替" give (A, B, …)."""
    out = []
    for (_, e1, i), (p2, _, j) in zip(mentions, mentions[1:], strict=False):
        between = masked[e1:p2]
        if i == j or re.search(r"[,;:，；：。.!?]", between) or len(between.split()) > 6 or len(between) > 40:
            continue
        if not _P_PASSIVE.search(between) and re.search(r"\b(?:is|are|was|were)\b|['’]s\b|的|为|是", between):
            continue  # "A's chair is B", "A的董事长为B": a role named by a copula, not an act done by one to the other
        words = frozenset(_RELATION_SAME.get(s, s) for s, _ in _frame_tokens(between, scene.language))
        if not words:
            continue
        out.append((j, i, words) if _P_PASSIVE.search(between) else (i, j, words))
    return out


def _reversed_relation(kt: _Text, scene: _Scene) -> str | None:
    """The keypoint's relation between two parties said the other way round ("B succeeded A" for "A succeeded
    B"), with the answer saying it nowhere the keypoint's way."""
    kp = _relations(scene, kt.masked, scene.mentions_in(kt.text))
    if not kp:
        return None
    theirs = scene._memo.get("relations")
    if theirs is None:
        theirs = scene._memo["relations"] = _relations(scene, scene.answer.masked, scene.mentions)
    for agent, patient, words in kp:
        if any(a == agent and p == patient and w & words for a, p, w in theirs):
            continue
        for a, p, w in theirs:
            if a == patient and p == agent and w & words:
                return (f"answer says {scene.entities[a].name} did to {scene.entities[p].name} what keypoint says "
                        f"{scene.entities[agent].name} did to {scene.entities[patient].name}")
    return None


# The events a record dates, each in the words either language names it with (English as stems): a date
# said beside one of them is that event's date. General to the genres' records: a person's life, a case's
# procedure, a stay in hospital, a company's dealings.
DATE_EVENTS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "birth": (("born", "birth"), ("出生", "生于")),
    "death": (("die", "death", "deceas"), ("死亡", "去世", "逝世")),
    "offence": (("offenc", "offens", "crime", "commit"), ("作案", "犯罪", "案发", "实施")),
    "detention": (("detain", "detent", "custod"), ("拘留", "羁押")),
    "arrest": (("arrest",), ("逮捕",)),
    "bail": (("bail",), ("取保候审",)),
    "prosecution": (("prosec", "indict", "file", "charg"), ("起诉", "公诉")),
    "hearing": (("hear", "heard", "trial", "tri"), ("开庭", "庭审")),
    "judgment": (("judgme", "senten", "verdic", "convic"), ("判决", "宣判", "判处")),
    "admission": (("admit", "admiss"), ("入院", "收治", "入住")),
    "discharge": (("discha",), ("出院",)),
    "surgery": (("surger",), ("手术",)),
    "follow-up": (("follow-up", "followup", "review", "revisit", "clinic", "appoint"), ("复诊", "复查", "随访")),
    "onset": (("onset",), ("发病", "起病")),
    "founding": (("establ", "incorp", "founded", "founding"), ("成立", "设立", "创立", "创建", "创办")),
    "listing": (("ipo",), ("上市",)),
    "meeting": (("meet",), ("会议", "大会")),
    "term start": (("commen",), ("起算",)),
    "term end": (("expir", "expiri"), ("届满",)),
}


# steps of one course that never fall on one day: a criminal case's (an arrest is approved days after the
# detention, a prosecution weeks before the hearing) and a hospital stay's. A hearing and its judgment may share a
# day, as may an admission and an operation.
_APART = frozenset(frozenset(p) for p in (
    ("detention", "arrest"), ("detention", "prosecution"), ("arrest", "prosecution"), ("bail", "prosecution"),
    ("detention", "hearing"), ("arrest", "hearing"), ("prosecution", "hearing"), ("detention", "judgment"),
    ("arrest", "judgment"), ("prosecution", "judgment"), ("admission", "discharge"), ("discharge", "follow-up"),
    ("admission", "follow-up")))


def _same_course(a: str, b: str) -> bool:
    """Are events ``a`` and ``b`` two steps of one course that fall on different days (an arrest and a detention,
    an admission and a discharge)? Then a date given to one is not the other's."""
    return frozenset((a, b)) in _APART


def _date_event(t: _Text, v: Value, language: str, near: bool = False) -> str | None:
    """The event (``DATE_EVENTS``) named nearest to date ``v``: in its clause, else in the words of its sentence
    that lead up to it ("was born in X, Y on DATE"); short of the neighbouring values either way."""
    if language == "zh" and re.match(r"(?:出)?生[，,。；;\s]", t.masked[v.span[1]:v.span[1] + 3]):
        return "birth"  # "1984年12月23日生，": a date of birth, as a record writes it
    i = _sentence_index(t, v.span[0])
    start = t.sentences[i][0] if i is not None else 0
    start = max([start] + [o.span[1] for o in t.values if o is not v and start <= o.span[1] <= v.span[0]])
    windows = [_context_span(t, v, t.values)]
    ahead = _zh_ahead(t, v, i) if language == "zh" else None
    if ahead:
        windows.append(ahead)
    if not near:  # (``near``: only the date's own clause and, in Chinese, the words right after it)
        windows.append((start, v.span[0]))
    for a, b in windows:
        best: tuple[int, str] | None = None
        for event, (en, _zh) in DATE_EVENTS.items():
            if language == "zh":
                spots = [(m.start(), m.end()) for m in _zh_event_pattern(event).finditer(t.masked, a, b)]
            else:
                spots = [(m.start() + a, m.end() + a) for m in re.finditer(r"[A-Za-z][A-Za-z-]*", t.masked[a:b])
                         if _stem(m.group()) in en or m.group().lower() in en]  # (follow-up, not followed)
            for lo, hi in spots:
                # English names an event before its date ("detained on DATE and prosecuted on …"), unless the
                # date opens the clause ("On DATE, he was detained")
                # (Chinese names it after: "于DATE被拘留", "DATE作出判决")
                gap = v.span[0] - hi + (0 if language == "en" else 4) if hi <= v.span[0] else \
                    lo - v.span[1] + (12 if language == "en" else 0)
                if best is None or gap < best[0]:
                    best = (gap, event)
        if best:
            return best[1]
    return None


def _zh_ahead(t: _Text, v: Value, i: int | None) -> tuple[int, int] | None:
    """Chinese names an event after its date, past a comma, when the date ends its clause ("DATE，甲检察院提起公诉；…",
    "- DATE：开庭"): the words after it up to the next value or semicolon. Not past a clause that goes on
    ("自DATE起至DATE止，判决…")."""
    clause = _clause_of(t, v.span[0])
    if clause is not None and re.sub(r"[\s的许左右前后，,：:]", "", t.masked[v.span[1]:clause.span[1]]):
        return None
    end = t.sentences[i][1] if i is not None else len(t.text)
    end = min([end] + [o.span[0] for o in t.values if o is not v and v.span[1] <= o.span[0] <= end])
    stop = re.search(r"[；;。]", t.masked[v.span[1]:end])
    return v.span[1], v.span[1] + stop.start() if stop else end


def _names_event(t: _Text, v: Value, event: str, language: str) -> bool:
    """Does the clause of date ``v`` (or the words after it: "to DATE (judgment)", "DATE：开庭并当庭宣判") name
    ``event`` at all, nearest or not ("heard the case and gave judgment on DATE" names the hearing too)?"""
    a, b = _context_span(t, v, t.values)
    if language == "zh":
        ahead = _zh_ahead(t, v, _sentence_index(t, v.span[0]))
        return _zh_event_pattern(event).search(t.masked, a, b) is not None or (
            ahead is not None and _zh_event_pattern(event).search(t.masked, *ahead) is not None)
    b = max(b, min(len(t.masked), v.span[1] + 24))
    en = DATE_EVENTS[event][0]
    return any(_stem(m.group()) in en or m.group().lower() in en for m in re.finditer(r"[A-Za-z][A-Za-z-]*", t.masked[a:b]))


@lru_cache(maxsize=64)
def _zh_event_pattern(event: str) -> re.Pattern[str]:
    # (生于 of 发生于, 产生于 is no birth)
    return re.compile("|".join(re.escape(w) if w != "生于" else "(?<![发产])生于" for w in DATE_EVENTS[event][1]))


def _other_event(kt: _Text | None, k: Value, ans: _Text, a: Value, language: str) -> bool:
    """Does the answer name, nearest to its date, another event than the keypoint names nearest to its own ("born on
    DATE" against "the prosecution was filed on DATE")? A date of another event states nothing about this one."""
    theirs = _date_event(ans, a, language)
    return theirs is not None and (kt is None or theirs != _date_event(kt, k, language))


_P_SEGMENT = re.compile(r"[；;\n]|[。.!?！？](?:\s|$)")


def _segments(t: _Text) -> list[tuple[int, int]]:
    """The stretches of a text said together: its sentences, cut again at semicolons and line ends (a list, a
    table's rows, "A's case: …; B's case: …")."""
    out, start = [], 0
    for m in _P_SEGMENT.finditer(t.text):
        if m.end() > start:
            out.append((start, m.end()))
        start = m.end()
    if start < len(t.text):
        out.append((start, len(t.text)))
    return out


def _crossed_pair(kt: _Text, scene: _Scene, kp_parties: list[int], words: tuple[str, ...]) -> str | None:
    """The keypoint pairs two parties (a prosecutor and a defendant's case, a CEO and a company); the answer never
    says them together, but says each, with the keypoint's words, beside another party of the other's kind:
    "A's case: prosecutor Q …; B's case: prosecutor P" for "prosecutor P appeared in A's case"."""
    pair = list(dict.fromkeys(kp_parties))
    if len(pair) != 2 or not words or not all(scene.mentioned(i) for i in pair):
        return None
    lang, ans = scene.language, scene.answer
    together: list[set[int]] = []
    said: list[str] = []
    headed: list[bool] = []  # the segment opens "PARTY：…" ("安宏网络：达宏会计师事务所，…"): a pairing said by layout
    for a, b in _segments(ans):
        clause = _clause_of(ans, a)
        if clause is not None and clause.refusal:
            continue
        together.append({i for p, _, i in scene.mentions if a <= p < b})
        said.append(scene.blank(ans.masked[a:b]))
        headed.append(any(a <= p < b and not ans.text[a:p].strip(" -*•|\n") and re.match(r"(?:股份|集团|控股|公司)?\s*\**\s*[：:]", ans.text[q:b])
                          for p, q, _ in scene.mentions))
    if any(set(pair) <= named for named in together):
        return None
    kinds = [_party_kind(scene.entities[i]) for i in pair]
    crossed = []
    for me, other, other_kind in ((pair[0], pair[1], kinds[1]), (pair[1], pair[0], kinds[0])):
        stand_in = next((j for named, text, head in zip(together, said, headed, strict=True) if me in named
                         and (_share(words, text, lang) > 0 or (head and len(named) == 2))
                         for j in named if j != other and j not in pair
                         and _party_kind(scene.entities[j]) == other_kind), None)
        if stand_in is None:
            return None
        crossed.append(stand_in)
    return (f"answer pairs {scene.entities[pair[0]].name} with {scene.entities[crossed[0]].name} and "
            f"{scene.entities[pair[1]].name} with {scene.entities[crossed[1]].name}")


# Roles one person holds in a record, by the words either language names them with: a company's officers, a
# court's members and the parties to a case, a ward's physicians. Generic titles (doctor, judge, 医生) name no
# role of their own and are left out.
ROLES: dict[str, tuple[str, ...]] = {
    "chair": (r"chair(?:man|woman|person)?", r"chairs", r"chaired", "董事长"),
    "chief executive": (r"chief executive(?: officer)?", "首席执行官"),
    "chief financial officer": (r"chief financial officer", r"finance director", "首席财务官", "财务总监"),
    "chief operating officer": (r"chief operating officer", "首席运营官"),
    "chief technology officer": (r"chief technology officer", "首席技术官"),
    "general manager": (r"general manager", "总经理"),
    "board secretary": (r"(?:board|company) secretary", "董事会秘书", "董秘"),
    "presiding judge": (r"presiding judge", r"presided", "审判长"),
    "associate judge": ("审判员",),
    "people's assessor": (r"(?:people's |lay )?assessor", "人民陪审员"),
    "clerk": (r"(?:court )?clerk", "书记员"),
    "prosecutor": (r"prosecutor", r"procurator", "检察员", "检察官", "公诉人"),
    "defence counsel": (r"defen[cs]e (?:counsel|lawyer|attorney)", "辩护人"),
    "defendant": (r"defendant", "被告人"),
    "victim": (r"victim", "被害人"),
    "witness": (r"witness", "证人"),
    "attending physician": (r"attending (?:physician|doctor)", "主治医师"),
    "chief physician": (r"chief physician", "主任医师"),
    "resident physician": (r"resident (?:physician|doctor)", "住院医师"),
}
_P_ROLE_EN = re.compile("|".join(rf"(?P<r{n}>\b(?:{'|'.join(p for p in ps if p.isascii())})\b)"
                                 for n, ps in enumerate(ROLES.values()) if any(p.isascii() for p in ps)), re.I)
_P_ROLE_ZH = re.compile("|".join(f"(?P<r{n}>{'|'.join(p for p in ps if not p.isascii())})"
                                 for n, ps in enumerate(ROLES.values()) if not all(p.isascii() for p in ps)))
_ROLE_NAMES = list(ROLES)
_P_ROLE_PIECE = re.compile(r"[,;:，；：。\n|]|(?<=[a-z])\.\s|\bwhile\b|\bwhereas\b|而")
# a role said right after the name: "NAME defended B", "NAME辩护的被告人", "NAME was the prosecutor in B's case"
_P_ROLE_VERB_AFTER = {"en": re.compile(r"\s+(?:defended|defends|was defending)\b"), "zh": re.compile(r"(?:为其)?辩护(?!人)")}
_P_FOR_ZH = re.compile(r"(?:为|替|给)(?:被告人)?$")
_P_COPULA_EN = re.compile(r"\s+(?:was|is|served as|acted as)\s+(?:the|a|an)\s+(?:\w+\s+)?$")


def _roles_held(text: str, mentions: list[tuple[int, int, int]], scene: _Scene) -> dict[int, set[str]]:
    """The roles each person is named in: the title written just before the name ("CEO Jo Lin", "CEO: Jo Lin", "检察员师淑华"),
    and, in a piece of the text (cut at commas, colons, semicolons) that names one person, every role it names
    ("Jo Lin chairs X", "with Jo Lin as chief executive")."""
    pattern = _P_ROLE_ZH if scene.language == "zh" else _P_ROLE_EN
    roles = [(m.start(), m.end(), _ROLE_NAMES[int(str(m.lastgroup)[1:])])
             for m in pattern.finditer(text)]
    people = [m for m in mentions if not scene.entities[m[2]].org]
    if not roles and not any(_P_ROLE_VERB_AFTER[scene.language].match(text, b) for _, b, _ in people):
        return {}
    held: dict[int, set[str]] = {}
    for a, _, i in people:
        before = [r for s, e, r in roles if 0 <= a - e <= 3 and text[e:a].strip() in ("", ":", "：", "为", "是", "系")]
        if before:
            held.setdefault(i, set()).add(before[-1])
    for a, b, i in people:
        if _P_ROLE_VERB_AFTER[scene.language].match(text, b) and not _P_FOR_ZH.search(text, 0, a):
            held.setdefault(i, set()).add("defence counsel")  # (not 为被告人NAME辩护: the one defended)
        elif scene.language == "en":
            after = [r for s, e, r in roles if 0 < s - b <= 40 and _P_COPULA_EN.fullmatch(text[b:s])]
            if after:
                held.setdefault(i, set()).add(after[0])
    cuts = [0] + [m.end() for m in _P_ROLE_PIECE.finditer(text)] + [len(text)]
    for lo, hi in zip(cuts, cuts[1:], strict=False):
        here = {i for a, _, i in people if lo <= a < hi}
        if len(here) == 1:
            named = {r for s, _, r in roles if lo <= s < hi}
            if named:
                held.setdefault(here.pop(), set()).update(named)
    return held


def _other_role(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """A person the keypoint names in a role, whom the answer names in other roles and never in that one: "Chairman
    Tim Day, CEO Mia Ross" for "the company is chaired by Mia Ross"."""
    people = [i for i in dict.fromkeys(kp_parties) if not scene.entities[i].org]
    if not people:
        return None
    kp_held = _kp_roles(kt, scene)
    if not kp_held:
        return None
    held = _answer_roles(scene)
    for i in people:
        ours, theirs = kp_held.get(i, set()), held.get(i, set())
        if len(ours) == 1 and theirs and not ours & theirs:
            return (f"answer names {scene.entities[i].name} as {sorted(theirs)[0]} where keypoint names them "
                    f"as {next(iter(ours))}")
    return None


def _role_stand_in(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """Another person in the keypoint's role, where the answer never names the keypoint's person: "Oliver Mining
    Group – Chair: Danny Hart" for "Oliver Mining Group is chaired by Ada Cole". The role must be said in the
    keypoint's other party's stretch (its line, else its sentence) when the keypoint names one."""
    people = [i for i in dict.fromkeys(kp_parties) if not scene.entities[i].org]
    if not people:
        return None
    kp_held = _kp_roles(kt, scene)
    held = _answer_roles(scene)
    for person in people:
        ours = kp_held.get(person, set())
        if len(ours) != 1 or scene.mentioned(person):
            continue
        role = next(iter(ours))
        scope = set(kp_parties) - {person}
        # (one of the query's parties in the same role by another keypoint: the answer speaks of that one, as
        # "被告人是乙" answers for 乙, not in 甲's place)
        peers = {i for sib in scene.others(kt) for i, r in _kp_roles(sib.text, scene).items() if role in r}
        for other, roles in held.items():
            if other == person or role not in roles or other in kp_parties or other in peers:
                continue
            if not scope or _in_scope(scene, other, scope):
                return f"answer names {scene.entities[other].name} as {role} where keypoint names {scene.entities[person].name}"
    return None


_P_NO_ONE_EN = r"\b(?:no|not\s+(?:a|an|any)|without\s+(?:a|an|any)?|neither)\s+(?:\w+\s+)?"
_P_NO_ONE_ZH = r"(?:没有|未|无|并无|不设|未设)(?:委托|聘请|指派|安排|设|由)?(?:任何)?"


def _role_denied(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint names its person in a role, and the answer, which never names that person, says no one held it
    ("No people's assessor took part", "No prosecutor appeared", 未委托辩护人)."""
    people = [i for i in dict.fromkeys(kp_parties) if not scene.entities[i].org and not scene.mentioned(i)]
    if not people:
        return None
    kp_held = _kp_roles(kt, scene)
    lang, ans = scene.language, scene.answer
    for person in people:
        for role in kp_held.get(person, set()):
            forms = [f for f in ROLES[role] if f.isascii() == (lang == "en")]
            if not forms:
                continue
            pattern = re.compile((_P_NO_ONE_EN if lang == "en" else _P_NO_ONE_ZH) + f"(?:{'|'.join(forms)})",
                                 re.I if lang == "en" else 0)
            for c in ans.clauses:
                if not c.refusal and not _P_NOT_SAID.search(c.text) and pattern.search(c.text):
                    return f"answer says no {role} took part: {c.text.strip()[:50]}"
    return None


def _in_scope(scene: _Scene, person: int, scope: set[int]) -> bool:
    """Is ``person`` named in the stretch of one of ``scope``'s parties: the nearest party of their kind named before
    them in their line (else after them in their segment) is one of them?"""
    text = scene.answer.text
    kinds = {_party_kind(scene.entities[i]) for i in scope}
    for pos, _, i in scene.mentions:
        if i != person:
            continue
        line_start = text.rfind("\n", 0, pos) + 1
        before = [j for p, _, j in scene.mentions if line_start <= p < pos and j != person
                  and _party_kind(scene.entities[j]) in kinds]
        if before:
            if before[-1] in scope:
                return True
            continue
        seg = next(((a, b) for a, b in _segments(scene.answer) if a <= pos < b), (pos, len(text)))
        after = [j for p, _, j in scene.mentions if pos < p < seg[1] and j != person
                 and _party_kind(scene.entities[j]) in kinds]
        if after and after[0] in scope:
            return True
    return False


def _kp_roles(kt: _Text, scene: _Scene) -> dict[int, set[str]]:
    """The roles the keypoint names each of its people in (``_roles_held``; memoised per keypoint)."""
    key = ("roles", kt.text)
    held = scene._memo.get(key)
    if held is None:
        held = scene._memo[key] = _roles_held(kt.masked, scene.mentions_in(kt.text), scene)
    return held


def _answer_roles(scene: _Scene) -> dict[int, set[str]]:
    """The roles the answer names each person in, outside its refusals (``_roles_held``; memoised)."""
    held = scene._memo.get("roles held")
    if held is None:
        live = [m for m in scene.mentions if not (_clause_of(scene.answer, m[0]) or _NO_CLAUSE).refusal]
        held = scene._memo["roles held"] = _roles_held(scene.answer.masked, live, scene)
    return held
