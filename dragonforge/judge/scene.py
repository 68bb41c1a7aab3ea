"""The scene: one answer judged against all keypoints of one query, with the parties they share.

``_Scene.parties`` and ``_Scene.owner`` say whom a value in the answer is said of; the other keypoints of the
query (``_Sibling``) tell which values belong to other facts."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from dragonforge.judge.analysis import _analyse, _Clause, _clause_of, _sentence_index, _Text
from dragonforge.judge.entities import _Entity, _mentions, _party_kind
from dragonforge.judge.values import Value, ValueKind, _find_all_values
from dragonforge.judge.words import _content_tokens, _share, _token_spans
from dragonforge.models import KeypointFact

_P_CODE_EN = re.compile(r"\b[A-Z]{2,6}\b")
_NO_CLAUSE = _Clause((0, 0), 0, False, "")


@dataclass(frozen=True, slots=True)
class _Sibling:
    """Another keypoint of the same query: its text, values, parties and content words."""

    text: _Text
    values: tuple[Value, ...]
    parties: frozenset[int]
    words: tuple[str, ...]


@dataclass(slots=True)
class _Scene:
    """One answer judged against the keypoints of one query, with the named parties they share."""

    answer: _Text
    language: str
    entities: list[_Entity]
    mentions: list[tuple[int, int, int]]
    from_keypoints: int  # entities[:from_keypoints] are named by the keypoints; the rest only by the answer
    keypoints: list[_Sibling] = field(default_factory=list)  # every keypoint of the query
    question: str = ""  # the question (lower case in English): the parties it names are its premise
    _memo: dict = field(default_factory=dict)

    @property
    def premise(self) -> frozenset[str]:
        """The question's content words: what it asks about, not what it asks (read once, when first needed)."""
        return self._premise()[0]

    @property
    def premise_values(self) -> tuple[Value, ...]:
        """The question's values ("born on March 3, 1970": which one?)."""
        return self._premise()[1]

    def _premise(self) -> tuple[frozenset[str], tuple[Value, ...]]:
        found = self._memo.get("premise")
        if found is None:
            found = self._memo["premise"] = _read_question(self.question, self.language) if self.question \
                else (frozenset(), ())
        return found

    @property
    def asked(self) -> frozenset[str]:
        """The kinds of value the question asks for ("how much …?" a money amount, "when …?" a date)."""
        found = self._memo.get("asked")
        if found is None:
            found = self._memo["asked"] = _asked_kinds(self.question, self.language)
        return found

    def others(self, kt: _Text) -> list[_Sibling]:
        """The query's other keypoints: what they assert tells whose a value is."""
        return [s for s in self.keypoints if s.text is not kt]

    def mentions_in(self, text: str) -> list[tuple[int, int, int]]:
        """Mentions of the known parties in a keypoint's text (memoised: each keypoint asks often)."""
        found = self._memo.get(text)
        if found is None:
            found = self._memo[text] = _mentions(text, self.entities, self.language)
        return found

    def parties(self, pos: int, kinds: set[str] | None = None) -> set[int]:
        """Whom a value at ``pos`` is said of: the parties in its clause, else those of the nearest clause before
        it in its sentence that names any ("A spent X, 5.69%, while B spent Y, or 4.6%": 4.6% is B's), else the
        party that opens the next clause when the value opens the sentence ("2022年8月10日，徐华因…"), else the
        parties of the nearest earlier sentence that names any. ``kinds`` keeps only parties of those kinds
        (_party_kind): a person's value is not said of the bureau he works for, nor a company's of its exchange."""
        ans = self.answer
        mentions = [m for m in self.mentions if kinds is None or _party_kind(self.entities[m[2]]) in kinds]
        clause = _clause_of(ans, pos)
        if clause is not None and _P_RESPECTIVELY.search(ans.text, *ans.sentences[clause.sentence]):
            ordered = self._respectively(pos, clause.sentence, mentions)
            if ordered is not None:
                return {ordered}
        if clause is not None:
            inside = {i for p, _, i in mentions if clause.span[0] <= p < clause.span[1]
                      and not self._counterparty(p, clause.span[0])}
            if inside:
                return inside
        si = _sentence_index(ans, pos)
        before = [m for m in mentions if m[1] <= pos]
        here = [m for m in before if _sentence_index(ans, m[0]) == si
                and not self._counterparty(m[0], (_clause_of(ans, m[0]) or _NO_CLAUSE).span[0])]
        here = [m for m in here if not self._appositive(m[0])] or here
        if here:
            last = _clause_of(ans, here[-1][0])
            return {i for p, _, i in here if last is None or last.span[0] <= p < last.span[1]}
        if clause is not None and _P_LEAD_ONLY.fullmatch(ans.masked[clause.span[0]:clause.span[1]]):
            nxt = next((c for c in ans.clauses if c.span[0] >= clause.span[1] and c.sentence == clause.sentence), None)
            opener = [m for m in mentions if nxt is not None and nxt.span[0] <= m[0] <= nxt.span[0] + 1]
            if opener:
                return {opener[0][2]}
        before = [m for m in before if _sentence_index(ans, m[0]) != si]  # (the sentence's own counterparty is not
        # whom it is about: "The first was a partnership with C on DATE" is the company's of the sentence before)
        if not before:
            return set()
        nearest = _sentence_index(ans, before[-1][0])  # else everyone the nearest earlier sentence names
        return {i for p, _, i in before if _sentence_index(ans, p) == nearest}

    def _respectively(self, pos: int, si: int, mentions: list[tuple[int, int, int]]) -> int | None:
        """The party a value in a "respectively" sentence belongs to, by order: "A和B的碳排放强度分别下降了15.5%和13%",
        "A and B earned $X and $Y, respectively". The sentence's values of the kind at ``pos`` (no party named among
        them) and the parties named before the first of them (else in the sentence before) must be as many, two or
        more."""
        ans = self.answer
        me = next((v for v in ans.values if v.span[0] == pos), None)
        if me is None:
            return None
        a, b = ans.sentences[si]
        same = [v for v in ans.values if v.kind == me.kind and a <= v.span[0] < b]
        if len(same) < 2 or any(same[0].span[0] <= p < same[-1].span[1] for p, _, _ in mentions):
            return None  # ("X（恒明化学）和Y（德丰）": each value is named where it stands)
        for sent in (si, si - 1):
            if sent < 0:
                break
            start = ans.sentences[sent][0]
            order = list(dict.fromkeys(i for p, _, i in mentions if start <= p < same[0].span[0]
                                       and _sentence_index(ans, p) == sent))
            if order:
                return order[same.index(me)] if len(order) == len(same) else None
        return None

    def _appositive(self, pos: int) -> bool:
        """Is the party named at ``pos`` inside an English appositive that describes the party named just before
        it ("A (the defendant in the B case) — …", "A, the victim's employer, …")? Its
        names modify; they are not whom the sentence goes on about."""
        if self.language == "zh":
            return False
        ans = self.answer
        clause = _clause_of(ans, pos)
        if clause is None or not _P_APPOSITIVE_EN.match(ans.text, clause.span[0]):
            return False
        lead = ans.text[:clause.span[0]].rstrip()
        if not lead.endswith(("(", ",")):
            return False
        lead = lead[:-1].rstrip()
        return any(b == len(lead) for _, b, _ in self.mentions)  # (right after a name)

    def _counterparty(self, pos: int, clause_start: int) -> bool:
        """Is the party named at ``pos`` the other side of its clause's act ("… became involved in litigation with
        C", "a claim against C"), named inside the clause after "with" or "against"? (An English clause the
        splitter opened at "compared with" starts at the name, which is then its subject.)"""
        if self.language == "zh" or pos <= clause_start:
            return False
        before = self.answer.text[max(0, pos - 40):pos]
        return bool(_P_COUNTERPARTY_EN.search(before)) and not _P_COMPARED_EN.search(before)

    def owner(self, pos: int) -> int | None:
        """The one party a value at ``pos`` belongs to: the last named before it in its clause, else the first
        after it there, else the last named before it in the answer."""
        clause = _clause_of(self.answer, pos)
        if clause is not None:
            before = [m for m in self.mentions if clause.span[0] <= m[0] and m[1] <= pos]
            if before:
                return before[-1][2]
            after = [m for m in self.mentions if pos <= m[0] < clause.span[1]]
            if after:
                return after[0][2]
        before = [m for m in self.mentions if m[1] <= pos]
        ans = self.answer
        si = _sentence_index(ans, pos)
        start = ans.sentences[si][0] if si is not None else 0
        if before and before[-1][0] < start and _P_PRONOUN.search(ans.text[start:pos]):
            # "… convicted A of fraud after he took $X from B. His term ends on DATE": a pronoun that opens a
            # sentence naming no one stands for the subject (the first person named) of the last sentence naming one
            people = [m for m in before if not self.entities[m[2]].org]
            if people:
                last = _sentence_index(ans, people[-1][0])
                return next(m[2] for m in people if _sentence_index(ans, m[0]) == last)
        return before[-1][2] if before else None

    def clauses_about(self, mine: set[int]) -> list[_Clause]:
        """The answer's clauses that assert something (no refusal) and name none but ``mine`` (or no one)."""
        out = []
        kinds = {_party_kind(self.entities[i]) for i in mine}
        last: dict[int, set[int]] = {}  # sentence -> the parties its latest clause named
        for c in self.answer.clauses:
            here = {i for p, _, i in self.mentions if c.span[0] <= p < c.span[1]}
            # (a clause naming no one is about the party of the clause before it in its sentence: "A的审计机构为X，
            # 出具了保留意见")
            named = here or (last.get(c.sentence, set()) if self.language == "zh" and mine else set())
            of_kind = {i for i in here if _party_kind(self.entities[i]) in kinds}  # (a firm named in passing is no
            if of_kind and self.answer.text[max(0, c.span[0] - 1):c.span[0]] not in ("（", "("):  # subject)
                last[c.sentence] = of_kind  # (nor a name in brackets: "林成（辩护人龙淑华）被判处…")
            if c.refusal:
                continue
            if not (mine and named and not named & mine):
                out.append(c)
        return out

    def mentioned(self, idx: int) -> bool:
        """Is party ``idx`` named outside the answer's refusal clauses?"""
        return any(i == idx and not (_clause_of(self.answer, a) or _NO_CLAUSE).refusal for a, _, i in self.mentions)

    def named_in_sentence(self, si: int) -> set[int]:
        return {i for p, _, i in self.mentions if _sentence_index(self.answer, p) == si}

    def blank(self, text: str) -> str:
        """``text`` with every party's name blanked: names are judged apart from words."""
        low = text if self.language == "zh" else text.lower()
        for ent in self.entities:
            for alias in ent.aliases:
                low = low.replace(alias, " ")
        return low


_P_COMPARED_EN = re.compile(r"\b(?:compared|comparison|contrast|together|along)\s+(?:with|to)\s+(?:the\s+)?$", re.I)
# the company a deal is made for ("the acquisition of C", "bought 60% of C", "a 75% interest in C"): the other side
_DEAL_OF = (r"\b(?:acquisition|purchase|takeover|acquired|bought|purchased|acquiring|buying)\s+(?:of\s+)?(?:(?:a|an|the)\s+)?"
            r"(?:[\d.]+%\s+(?:(?:stake|interest|equity(?:\s+interest)?|holding)\s+)?(?:in|of)\s+)?$")
_P_RESPECTIVELY = re.compile(r"分别|各为|\brespectively\b", re.I)
_P_COUNTERPARTY_EN = re.compile(r"\b(?:(?:with|against)\s+(?:the\s+)?|by\s+(?:doctor|dr\.?|judge|surgeon)\s+)$|" + _DEAL_OF,
                                re.I)
_P_PRONOUN = re.compile(r"\b(?:he|his|him|she|her)\b|他|她|其", re.I)
_P_LEAD_ONLY = re.compile(r"[\W_]*(?:on|in|at|by|于|在)?[\W_]*", re.I)  # a clause holding nothing but its value


_P_JOINT_SUBJECT = re.compile(r"[两二三]人|[两二三]家|[两二]名(?:被告人|患者)")
_P_JOINT_FIGURE = re.compile(r"[\u4e00-\u9fff]{0,2}?(?:合计|共计|总计|一共|累计|共)")


_P_APPOSITIVE_EN = re.compile(r"\s*(?:the|a|an|who|whose)\b", re.I)


def _fact_values(kt: _Text, facts: list[KeypointFact]) -> list[Value]:
    """The keypoint's values, completed from its build facts where extraction missed one. "两人" that opens a joint
    figure ("两人合计住院11天") names who, not a count to state."""
    values = [v for v in kt.values if not (v.kind == "count" and _P_JOINT_SUBJECT.fullmatch(v.text)
                                           and _P_JOINT_FIGURE.match(kt.text, v.span[1]))]
    for fact in facts:
        kind, text = fact.kind, fact.text or ""
        if kind not in ("date", "money", "percent", "count") or not text:
            continue
        pos = kt.text.find(text)
        if pos >= 0 and any(v.span[0] < pos + len(text) and pos < v.span[1] for v in values):
            continue
        span = (max(pos, 0), max(pos, 0) + len(text))
        found = _analyse(text, kt.language).values
        if found:
            values.extend(Value(v.kind, v.value, v.text, span, v.unit, v.step) for v in found)
        elif kind == "date" and isinstance(fact.value, str):
            values.append(Value("date", fact.value, text, span))
        elif isinstance(fact.value, (int, float)):
            vkind: ValueKind = "money" if kind == "money" else "percent" if kind == "percent" else "count"
            unit = fact.unit
            values.append(Value(vkind, float(fact.value), text, span, unit if unit in ("USD", "CNY") or
                                vkind != "money" else None))
    return sorted(values, key=lambda v: v.span)


def _kp_words(kt: _Text, scene: _Scene, span: tuple[int, int] | None = None) -> tuple[str, ...]:
    """The keypoint's content words (within ``span``), leaving out its values and the parties it names."""
    a, b = span or (0, len(kt.text))
    skip = [v.span for v in kt.values] + [(m[0], m[1]) for m in scene.mentions_in(kt.text)]
    return tuple(dict.fromkeys(w for w, p, q in _token_spans(kt.text, scene.language)
                               if a <= p and q <= b and not any(p < y and x < q for x, y in skip)))


# what a question asks for, by the words that ask it: general question words, not any benchmark's questions
_ASKED = {
    "en": {"money": re.compile(r"\bhow much\b|\b(?:value|worth|amount|price|cost|fine)\b", re.I),
           "date": re.compile(r"\bwhen\b|\bwhat date\b|\bon which (?:date|day)\b", re.I),
           "percent": re.compile(r"\b(?:what|which) (?:share|percentage|proportion|percent)\b|\bhow (?:large|big) a share\b",
                                 re.I)},
    "zh": {"money": re.compile(r"金额|多少钱|价格|价款|数额|罚金|多少万?元"),
           "date": re.compile(r"何时|什么时候|哪一?天|哪一?日|日期"),
           "percent": re.compile(r"占比(?:多少|为多少|是多少|几何)|比例(?:是|为)?多少|百分之几|多少%")},
}


def _asked_kinds(question: str, language: str) -> frozenset[str]:
    return frozenset(kind for kind, p in _ASKED.get(language, {}).items() if p.search(question))


def _read_question(question: str, language: str) -> tuple[frozenset[str], tuple[Value, ...]]:
    """A question's content words and values (its values blanked before its words are read)."""
    found = _find_all_values(question, language)
    masked = "".join(" " if found.taken[i] else c for i, c in enumerate(question))
    return frozenset(_content_tokens(masked, language)), tuple(found.values)


def _blank_names(text: str, aliases: list[str]) -> str:
    """``text`` with each alias (lower case, longest first) blanked where it stands as whole words, any case."""
    low = text.lower()
    out = None
    for alias in aliases:
        at = low.find(alias)
        while at >= 0:
            end = at + len(alias)
            if (at == 0 or not low[at - 1].isalnum()) and (end == len(low) or not low[end].isalnum()):
                out = (out if out is not None else text)[:at] + " " * len(alias) + (out if out is not None else text)[end:]
                low = low[:at] + " " * len(alias) + low[end:]
            at = low.find(alias, end)
    return out if out is not None else text


# a clause that leaves out its verb, the one before's ("…, and B in Y"): a conjunction, the party's name (blanked),
# then a preposition and a few words with no verb of their own; not a linking phrase ("and B in turn appointed …")
_P_ELLIPTICAL_EN = re.compile(r"^\s*(?:and|while|whereas|but)\s+(?:'s\s+)?(?:in|at|on|to|for|of|with|by)\s+(.{1,60})$",
                              re.I)
_P_NOT_ELLIPTICAL_EN = re.compile(r"^(?:turn|contrast|addition|comparison|(?:her|his|its|their) part|the other hand)\b|"
                                  r"\b(?:was|is|were|are|has|had|have|been|did|does)\b|\b[a-z]+ed\b", re.I)


def _elliptical(clause: str) -> bool:
    """Does an English clause (names blanked) leave out its verb, taking the one of the clause before it?"""
    m = _P_ELLIPTICAL_EN.match(clause.strip())
    return m is not None and not _P_NOT_ELLIPTICAL_EN.search(m[1])


def _unnamed(scene: _Scene, text: str) -> str:
    """``text`` with every party's name blanked, its case kept (a proper name is a kind of word)."""
    key = ("unnamed", text)
    if key in scene._memo:
        return scene._memo[key]
    if scene.language == "en":
        if "names" not in scene._memo:
            scene._memo["names"] = sorted({a for ent in scene.entities for a in ent.aliases}, key=len, reverse=True)
        out = _blank_names(text, scene._memo["names"])
    else:
        out = text
        for ent in scene.entities:
            for alias in ent.aliases:
                out = out.replace(alias, " ")
    scene._memo[key] = out
    return out


def _refused_here(scene: _Scene, words: tuple[str, ...], kp_parties: list[int]) -> bool:
    """Does a refusal clause (with the value-free clause that may introduce it) say this fact is missing?"""
    ans = scene.answer
    for n, c in enumerate(ans.clauses):
        if not c.refusal:
            continue
        a = c.span[0]
        if n and ans.clauses[n - 1].sentence == c.sentence:
            prev = ans.clauses[n - 1]
            if not any(prev.span[0] <= v.span[0] < prev.span[1] for v in ans.values):
                a = prev.span[0]
        text = ans.text[a:c.span[1]]
        named = {i for p, _, i in scene.mentions if a <= p < c.span[1]}
        if named and kp_parties and not named & set(kp_parties):
            continue  # says another party's fact is missing
        if _share(words, scene.blank(text), scene.language) >= 0.5 or named & set(kp_parties):
            return True
    return False
