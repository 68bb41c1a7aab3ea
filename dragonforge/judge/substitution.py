"""Substitution: the answer puts another value of the same kind where the keypoint's value stands.

Non-numeric values (a place, person, organisation, category, charge, drug or finding) are compared in their
frame, the words around them: the same frame holding another member of the same class (a drug of the same
stem family, another charge ending in 罪, another party) is a substitution, so Wrong."""

from __future__ import annotations

import difflib
import re
from functools import lru_cache

from dragonforge.judge.analysis import (
    _P_REFUSAL_EN_ANYWHERE,
    _P_REFUSAL_ZH,
    _analyse,
    _Clause,
    _clause_of,
    _sentence,
    _Text,
)
from dragonforge.judge.entities import _Entity, _org_kind, _party_kind
from dragonforge.judge.parties import _answer_roles
from dragonforge.judge.polarity import _P_NOT_SAID
from dragonforge.judge.scene import _NO_CLAUSE, _elliptical, _Scene, _unnamed
from dragonforge.judge.values import _CN_DIGITS, _MONTH_RE, Value, _same_value
from dragonforge.judge.words import (
    _P_CJK,
    _STOP_EN,
    _STOP_ZH,
    ZH_CLASS_HEADS,
    _content_tokens,
    _coverage,
    _frame_tokens,
    _jieba,
    _share,
    _stem,
)
from dragonforge.models import KeypointFact

# --- substitution in the same frame ---------------------------------------------------------------

# Pairs that exclude each other in every genre (sides, positions, test results, course, direction):
# a general table of opposites, not a list of any benchmark's values.
_OPPOSITES = {frozenset(p) for p in (
    ("left", "right"), ("upper", "lower"), ("anterior", "posterior"), ("proximal", "distal"), ("positive", "negative"),
    ("benign", "malignant"), ("acute", "chronic"), ("increase", "decrease"), ("rise", "fall"), ("higher", "lower"),
    ("profit", "loss"), ("gain", "loss"), ("plaintiff", "defendant"), ("appellant", "appellee"), ("male", "female"),
    ("左", "右"), ("左侧", "右侧"), ("上", "下"), ("阳性", "阴性"), ("良性", "恶性"), ("急性", "慢性"), ("增加", "减少"),
    ("上升", "下降"), ("升高", "降低"), ("增长", "下降"), ("盈利", "亏损"), ("原告", "被告"), ("男", "女"), ("男性", "女性"),
    ("Ⅰ型", "Ⅱ型"), ("i型", "ii型"))}


_INN_SUFFIXES = ("olol", "pril", "sartan", "statin", "dipine", "cillin", "mycin", "floxacin", "prazole", "tidine",
                 "azole", "cycline", "gliptin", "glitazone", "semide", "thiazide", "parin", "xaban", "gatran",
                 "mab", "tinib", "vir", "setron", "triptan", "profen", "sone", "olone", "azepam", "oxetine",
                 "tropium", "terol", "formin")
_INN_PREFIXES = ("cef", "sulfa")
_P_INN = re.compile(rf"^({'|'.join(_INN_PREFIXES)})|({'|'.join(sorted(_INN_SUFFIXES, key=len, reverse=True))})$")


def _same_class(k: str, a: str, language: str) -> bool:
    """Two words that name different members of one kind: a table's opposites (left/right), in
    Chinese two names built alike on one head (one charge for another: both end in 罪), in English
    two drugs of one class (a shared INN stem: -olol, -pril, cef-). Shared letters alone are not
    enough (physician/clinician), nor are two capitalised words (Board/Directors)."""
    kl, al = k.lower(), a.lower()
    if kl == al or kl in al or al in kl:
        return False
    if frozenset((kl, al)) in _OPPOSITES:
        return True
    if language == "zh":
        # names of one kind share their head and are built alike (盗窃罪/抢劫罪 both three characters);
        # a longer or shorter word with the same last character is mostly the same act said otherwise
        return (len(k) == len(a) >= 3 and k[-1] == a[-1] and _P_CJK.search(k[-1]) is not None
                and k[-1] not in "的了人者") or (len(k) >= 3 and len(a) >= 3 and k[:2] == a[:2]) or (
            min(len(k), len(a)) >= 3 and k[-1] == a[-1] and k[-1] in ZH_CLASS_HEADS)  # 危险驾驶罪 / 受贿罪
    # two drugs of one class share the class's stem (the WHO INN stems): a general table
    if _P_INN.search(kl) is None or _P_INN.search(al) is None:
        return False  # (the common case, found by one search)
    return any(kl.endswith(stem) and al.endswith(stem) for stem in _INN_SUFFIXES) or \
        any(kl.startswith(stem) and al.startswith(stem) for stem in _INN_PREFIXES)


def _inn_stem(word: str) -> bool:
    """Does an (English, lower-case) word carry a WHO INN drug stem?"""
    return _P_INN.search(word) is not None


def _party_substitution(kp: tuple[tuple[str, str], ...], said: set[str], scene: _Scene, mine: set[int]) -> str | None:
    """In a clause that names the keypoint's party, a word of the keypoint's kind in place of the
    keypoint's word (one charge for another, said of the same defendant). Any other word where the
    frame ends is not enough: with the names blanked, "the physician was NAME" ends in "physician".)"""
    lang, ans = scene.language, scene.answer
    ks = [s for s, _ in kp]
    gone = [(s, w) for s, w in kp if s not in said]  # the keypoint's words the answer never says
    clauses = []
    for c in ans.clauses:
        if not c.refusal:
            named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
            clauses.append((c, named, _frame_tokens(_unnamed(scene, ans.masked[c.span[0]:c.span[1]]), lang)))
    # the keypoint's words said of another party only (a swap: "A of X, B of Y" for "A of Y")
    elsewhere = {t for _, named, toks in clauses if named and not named & mine for t, _ in toks}
    if not gone and len(mine) < 2 and not elsewhere & set(ks):
        return None
    for _, named, toks in clauses:
        if not named & mine or named - mine:
            continue
        missing = gone
        if (len(mine) >= 2 and len(named) == 1) or elsewhere & set(ks):
            # a keypoint of several parties ("A and B were convicted of X") holds for each of them, and one
            # whose words the answer says of someone else is checked clause by clause: the clause of the
            # keypoint's party must not give it another member of the kind
            here = {t for t, _ in toks}
            missing = [(s, w) for s, w in kp if s not in here]
        for _, k_w in missing:
            for a_s, a_w in toks:
                if a_s not in ks and _same_class(k_w, a_w, lang) and not (lang == "en" and a_w[:1].isupper()
                                                                          and a_w is toks[0][1]):
                    return f"answer says {a_w} where keypoint says {k_w} of the same party"
    # a Chinese class word (…罪, …病) the answer never says, where a sentence about the keypoint's party alone
    # says another of that class, in a clause of its own ("该被告人是赵峰，法院认定其犯抢劫罪")
    heads = [w for _, w in gone if lang == "zh" and w[-1:] in ZH_CLASS_HEADS and len(w) >= 3]
    for k_w in heads:
        for si, (sa, sb) in enumerate(ans.sentences):
            named = scene.named_in_sentence(si)
            if not named or not named <= mine:
                continue
            for a_s, a_w in _frame_tokens(_unnamed(scene, ans.masked[sa:sb]), lang):
                if a_s not in ks and a_w[-1] == k_w[-1] and _same_class(k_w, a_w, lang):
                    return f"answer says {a_w} where keypoint says {k_w} of the same party"
    return None


def _frame_substitution(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """An answer that says the keypoint in its own frame with another member of the same kind in
    one place: in a clause naming the keypoint's party (``_party_substitution``), or, for a keypoint
    naming no one, in a sentence whose words before or after the place match the keypoint's (a
    side, a test result, a drug of the same class, another proper name)."""
    lang, ans = scene.language, scene.answer
    kp = _frame_tokens(_unnamed(scene, kt.masked), lang)
    said = scene._memo.get("said")
    if said is None:
        said = scene._memo["said"] = {s for s, _ in _frame_tokens(_unnamed(scene, ans.masked), lang)}
    mine = set(kp_parties)
    if all(s in said for s, _ in kp) and not mine:
        return None  # every word of the keypoint is in the answer: none was put in another's place
    if mine and kp:
        found = _party_substitution(kp, said, scene, mine)
        if found:
            return found
    if len(kp) < 2 or all(s in said for s, _ in kp):
        return None
    for si, (a, b) in enumerate(ans.sentences):
        clauses = [c for c in ans.clauses if c.sentence == si]
        if not clauses or any(c.refusal for c in clauses):
            continue
        named = scene.named_in_sentence(si)
        if mine and not named & mine:
            continue  # about someone else, or no one the keypoint names
        sent = _frame_tokens(_unnamed(scene, ans.masked[a:b]), lang)
        ks, ss = [s for s, _ in kp], [s for s, _ in sent]
        ops = difflib.SequenceMatcher(None, ks, ss, autojunk=False).get_opcodes()
        matched = sum(i2 - i1 for tag, i1, i2, _, _ in ops if tag == "equal")
        for n, (tag, i1, i2, j1, j2) in enumerate(ops):
            if tag != "replace" or i2 - i1 > 3 or j2 - j1 > 4:
                continue
            if any(s in said for s in ks[i1:i2]):
                continue  # the answer says the keypoint's word too (elsewhere, or as a paraphrase's part)
            left = n > 0 and ops[n - 1][0] == "equal"
            right = n + 1 < len(ops) and ops[n + 1][0] == "equal"
            if not (left or right) or matched < max(1, (len(ks) - (i2 - i1)) * 0.6):
                continue
            kw, aw = [w for _, w in kp[i1:i2]], [w for _, w in sent[j1:j2]]
            # a capital that only opens a sentence or a clause says nothing of a name
            opens = {j1} if j1 == 0 or re.search(r"[:;,(]\s*$", ans.masked[a:b].split(sent[j1][1])[0]) else set()
            aw_names = [x for j, x in zip(range(j1, j2), aw, strict=True) if j not in opens or lang == "zh"]
            kw_names = kw if i1 > 0 or lang == "zh" else kw[1:]
            same = any(_same_class(k, x, lang) for k in kw_names for x in aw_names)
            kp_said = kt.text if lang == "zh" else kt.text.lower()
            if same and all((x if lang == "zh" else x.lower()) in kp_said for x in aw):
                continue  # the answer's word is the keypoint's own, said elsewhere in it (全国合同 of 全国合同物流服务协议)
            if same and lang == "zh" and _P_ADMIN.sub("", "".join(kw)) == _P_ADMIN.sub("", "".join(aw)):
                continue  # 吉林长春 is 吉林省长春市, written without its levels
            if same:
                return f"answer says {' '.join(aw) if lang == 'en' else ''.join(aw)} where keypoint says " \
                       f"{' '.join(kw) if lang == 'en' else ''.join(kw)}"
    return None


_P_LABEL_VALUE_ZH = re.compile(r"^([^，。；、\d]{2,10}?)(?:位于|为|是|系)([^，。；]{2,30})[。.]?$")
# how an answer may write the same (总部设在X, 总部在X, 总部：X)
_P_LABEL_VALUE_ZH_SAID = re.compile(r"^([^，。；、\d：:]{2,10}?)(?:位于|设在|为|是|系|在|：|:)([^，。；]{2,30})[。.]?$")
_P_LABEL_VALUE_EN = re.compile(r"^(?:the|its|his|her|their)\s+([a-z][\w\s'-]{2,40}?)\s+(?:was|is|were|are)\s+([^,;]{2,80}?)\.?$",
                               re.I)


_P_NOT_A_FILLER = re.compile(r"(?:made|given|done|not|also|on|in|at|by|for|from|due|because|that|when|still|then|"
                             r"brought|held|taken|paid|sold|won|found|set|put|led|sent|spent|told|known|shown|"
                             r"[a-z]+ed|[a-z]+ing|[a-z]+en)\b|由|在|于|根据|基于|按照|经|因|未|不|也|还|已", re.I)  # not a noun phrase


def _filler_clash(kt: _Text, scene: _Scene) -> str | None:
    """A "LABEL is VALUE" keypoint (or a piece of one: "所属行业为制造业，主营业务为…") whose label the answer fills
    with another value ("The drug was finasteride" / "The drug was tamsulosin", "总部位于河南省郑州市" /
    "总部位于江苏省无锡市", "相关方为A公司" / "该事项相关方为B银行")."""
    lang, ans = scene.language, scene.answer
    pattern = _P_LABEL_VALUE_ZH if lang == "zh" else _P_LABEL_VALUE_EN
    pieces = [kt.text.strip()] if lang == "en" else [p for p in re.split(r"[，；]", kt.text.strip().rstrip("。")) if p]
    owners: dict[str, set[int]] = {}
    if lang == "zh":  # a piece that opens with its party: the label follows it ("甲公司总部位于X", "乙的诊断为X")
        cut = []
        for p in pieces:
            opening = [(b, i) for a, b, i in scene.mentions_in(p) if a == 0]
            if opening:
                rest = p[opening[0][0]:].lstrip("的")
                owners[rest] = {i for _, i in opening}
                p = rest
            cut.append(p)
        pieces = cut
    kp_parties = {i for _, _, i in scene.mentions_in(kt.text)}
    party_kinds = {_party_kind(scene.entities[i]) for i in kp_parties} or None  # (a patient's, not her hospital's)
    said = scene.blank(" ".join(c.text for c in ans.clauses if not c.refusal and not (
        kp_parties and (named := scene.parties(c.span[0], party_kinds)) and not named & kp_parties)))
    # (what the answer says of another party is not said of this one)
    for piece in pieces:
        m = pattern.match(piece)
        if not m or _P_NOT_A_FILLER.match(m[2].strip()):
            continue
        label, value = _content_tokens(scene.blank(m[1]), lang), _content_tokens(scene.blank(m[2]), lang)
        named = {i for _, _, i in scene.mentions_in(m[2])}  # a value that is a party ("相关方为A公司")
        if not (label or lang == "zh") or not (value or named) or (value and _coverage(value, said, lang) >= 0.5) or \
                any(scene.mentioned(i) for i in named):
            continue  # no label of its own, or the answer gives this value somewhere
        for c in ans.clauses:
            if c.refusal:
                continue
            text = c.text.strip()
            said_pattern = _P_LABEL_VALUE_ZH_SAID if lang == "zh" else pattern
            theirs = said_pattern.match(text)
            if lang == "zh" and not theirs:  # the label inside the clause: "该事项相关方为B银行"
                at = text.find(m[1].strip())
                theirs = said_pattern.match(text[at:]) if at > 0 else None
            if not theirs or _P_NOT_A_FILLER.match(theirs[2].strip()):
                continue
            if not (lang == "zh" and theirs[1].strip().endswith(m[1].strip())) and (
                    not label or _coverage(label, scene.blank(theirs[1]), lang) < 0.99):
                continue  # (a Chinese label is matched as written: 相关方 is all stop words and one character)
            ours_of = {i for _, _, i in scene.mentions_in(m[1])} | owners.get(piece, set())
            upto = c.span[0] + max(0, c.text.find(theirs[1].strip()))  # (up to the label: "乙则因…被诊断为X")
            lead = [i for p, _, i in scene.mentions if ans.sentences[c.sentence][0] <= p < upto
                    and i < scene.from_keypoints] if ours_of else []
            theirs_of = {i for _, _, i in scene.mentions_in(theirs[1])} or set(lead[-1:])
            # (the clause's party, when the query names it: "B住院，主治医师为X" is B's; an answer's own party may be
            # a stand-in for the keypoint's)
            if ours_of and theirs_of and not ours_of & theirs_of:
                continue  # the label of another party ("被告人乙的辩护人为…" for "被告人甲的辩护人为…")
            if lang == "zh" and _P_ADMIN.sub("", theirs[2].strip(" 。")) == _P_ADMIN.sub("", m[2].strip(" 。")):
                continue  # 吉林长春 is 吉林省长春市
            other = _content_tokens(scene.blank(theirs[2]), lang)
            kinds = {scene.entities[i].org for i in named}
            others = {i for _, _, i in scene.mentions_in(theirs[2]) if scene.entities[i].org in kinds} - named
            if (named and others) or (not named and other):  # a party's place is taken by a party of its kind
                return f"answer gives {theirs[2].strip()} where keypoint has {m[2].strip()}"
    return None


_P_ADMIN = re.compile(r"[省市区县]")  # the administrative level a Chinese place name may leave out


def _label_value(kp: str, language: str) -> str | None:
    """The value side of a "LABEL为VALUE" / "The LABEL was VALUE" keypoint, or None."""
    m = (_P_LABEL_VALUE_ZH if language == "zh" else _P_LABEL_VALUE_EN).match(kp.strip())
    return m[2] if m else None


def _substitution(scene: _Scene, kp_parties: list[int], words: tuple[str, ...],
                  kp_roles: dict[int, set[str]] | None = None) -> str | None:
    """A clause on the keypoint's topic that keeps one of its parties but names someone else in the other's
    place ("Eddie White was defended by Sheri Reid"), or names a same-kind organisation in place of its one
    organisation (上海证券交易所 for 深圳证券交易所). Someone the answer names in another role than the keypoint's
    person (``kp_roles``) is not in that person's place."""
    ans, lang = scene.answer, scene.language
    held = _answer_roles(scene) if kp_roles else {}
    together = [{i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]} for c in ans.clauses if not c.refusal]
    if any(set(kp_parties) <= named for named in together):
        return None  # the answer states the keypoint's own pairing somewhere
    for c in ans.clauses:
        if c.refusal:
            continue
        named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
        absent = [i for i in kp_parties if i not in named]
        if not absent or not named - set(kp_parties):
            continue
        topic = _coverage(words, scene.blank(c.text), lang) if words else 1.0
        for i in absent:
            for j in named - set(kp_parties):
                if kp_roles and kp_roles.get(i) and held.get(j) and not kp_roles[i] & held[j]:
                    continue
                same_kind = scene.entities[j].org == scene.entities[i].org
                if same_kind and named & set(kp_parties) and topic >= 0.5:
                    return f"answer names {scene.entities[j].name} where keypoint names {scene.entities[i].name}"
                # the keypoint's other parties in the clause, or, for a party named by the answer alone, asked
                # about by the question ("its auditor was Y" for "X audited the company")
                others_here = all(o in named or j >= scene.from_keypoints and named <= set(kp_parties) | {j}
                                  and any(a in scene.question for a in scene.entities[o].aliases)
                                  for o in set(kp_parties) - {i})
                # (a company another keypoint or the question names is theirs: a partial answer, no substitution)
                kind = _kind_of_org(scene.entities[i])
                # or, for a firm, court or hospital named by the answer alone and in a clause of no other party, on
                # what the question asks ("its auditor was Y" for "X audited the company")
                on_topic = topic > 0 or j >= scene.from_keypoints and kind != "company" and scene.premise \
                    and named <= set(kp_parties) | {j} and _coverage(tuple(scene.premise), scene.blank(c.text), lang) > 0
                if same_kind and scene.entities[i].org and others_here and not scene.mentioned(i) and on_topic \
                        and kind == _kind_of_org(scene.entities[j]) is not None \
                        and (kind != "company" or j >= scene.from_keypoints
                             and not any(a in scene.question for a in scene.entities[j].aliases)):
                    return f"answer names {scene.entities[j].name} where keypoint names {scene.entities[i].name}"
    return None


_P_COMPANY = re.compile(r"(?:股份有限公司|有限责任公司|有限公司|集团)$|\b(?:inc|corp|corporation|group|holdings|ltd|llc|plc|"
                        r"co)\.?$", re.I)


def _kind_of_org(ent: _Entity) -> str | None:
    """An organisation's kind (a court, a law firm, a hospital …), or "company" for a company's name."""
    return _org_kind(ent) or ("company" if _P_COMPANY.search(ent.name) else None)


# --- the fact's own value said otherwise -------------------------------------------------------------

_P_TOKEN_EN = re.compile(r"[A-Za-z][A-Za-z0-9]*|\d+(?:\.\d+)?")
_NOT_A_MODIFIER_EN = _STOP_EN | {"no", "non", "not", "without", "never", "nor"}
# qualifiers that rank or size a thing without naming its kind ("a major contract" = "a supply contract")
_GENERIC_MODIFIERS_EN = {"major", "main", "key", "significant", "total", "overall", "new", "large", "big", "important",
                         "general", "notable", "material", "principal", "large-scale", "long-term", "short-term"}
# the same in Chinese, and words that say only "a business" or "the other one" ("业务板块" = "住宅开发板块")
_GENERIC_MODIFIERS_ZH = {"主要", "重大", "重要", "重点", "核心", "相关", "有关", "其他", "其它", "业务", "具体", "整体",
                         "全部", "部分", "一般", "大型", "长期", "短期", "新的", "所述", "上述", "该项"}
_DIRECTION_ZH = set("低高增减升降超")  # 低于/高于: direction is polarity's to judge
_NOT_A_MODIFIER_ZH = set("的了和与及或并且而为是于在由被将对把从向给以按据经之其该此本无未不非没有患犯因成") | {
    "否认", "没有", "未见", "并无", "不是", "并非", "未曾", "从未"}  # negation is polarity's to judge


def _tokens(text: str, language: str) -> list[str]:
    """Words in order, English as stems, Chinese as jieba's words; punctuation and blanks dropped."""
    return [key for key, _ in _words(text, language)]


@lru_cache(maxsize=16384)
def _words(text: str, language: str) -> tuple[tuple[str, str], ...]:
    """(key, word as written) of each word in order: the key is the English stem or the Chinese word."""
    if language == "zh":
        return tuple((w, w) for w in _jieba().lcut(text) if _P_CJK.search(w) or w.isalnum())
    return tuple((_stem(w.lower()), w) for w in _P_TOKEN_EN.findall(text))


def _terms(value: str, language: str, least: int = 2) -> list[list[str]]:
    """The value's runs of two or more words that no stopword or punctuation breaks ("continuous intravenous
    insulin infusion | with | aggressive fluid replacement"), as _tokens gives them."""
    stop = _NOT_A_MODIFIER_ZH if language == "zh" else _NOT_A_MODIFIER_EN
    out = []
    for piece in re.split(r"[,;:，。；：、()（）/+&]|\s-\s", value):
        run: list[str] = []
        for w in _tokens(piece, language):
            if w in stop or (language == "zh" and w in _STOP_ZH):
                out.append(run)
                run = []
            else:
                run.append(w)
        out.append(run)
    return [t for t in out if len(t) >= least]


_GENERIC_STEMS = {_stem(w) for w in _GENERIC_MODIFIERS_EN}


def _said_otherwise(value: str, clause: list[str], said: set[str], value_words: set[str], language: str
                    ) -> tuple[int, int] | None:
    """Where ``clause`` (words) says ``value`` with one word swapped for another member of its kind: the same
    head and every other word in place ("Chief Operating Officer" for "Chief Financial Officer"), or, for a
    one-word value, a word of its class (静脉注射 for 静脉滴注)."""
    words = _tokens(value, language)
    if len(words) == 1:
        for a in clause:
            if a not in value_words and a not in said - set(clause) and _same_class(words[0], a, language):
                return clause.index(a), clause.index(a) + 1
        return None
    for w in words:  # a word of a named class in the value (切除术, a charge, a drug) for another of that class
        if w not in said and (language == "en" or (len(w) >= 3 and w[-1] in ZH_CLASS_HEADS)):
            for a in clause:
                if a not in value_words and (language == "en" or a[-1] == w[-1]) and _same_class(w, a, language) \
                        and (language == "zh" or _inn_stem(w)):
                    return clause.index(a), clause.index(a) + 1
    if language == "zh":
        return None  # Chinese terms are compared by their characters (_said_otherwise_zh)
    for term in _terms(value, language):
        n = len(term)
        for start in range(len(clause) - n + 1):
            window = clause[start:start + n]
            if window[-1] != term[-1]:
                continue  # another head: another kind of thing
            diff = [i for i in range(n - 1) if window[i] != term[i]]
            if len(diff) != 1:
                continue
            k, a = term[diff[0]], window[diff[0]]
            if k in said or a in value_words or a in _NOT_A_MODIFIER_EN or not k.isalpha() or not a.isalpha() \
                    or len(a) <= 3 or k.startswith(a) or k in _GENERIC_STEMS or a in _GENERIC_STEMS:
                continue  # the answer says the keypoint's word too, its own word is no modifier, or shortens it
            return start, start + n
    return None


@lru_cache(maxsize=4096)
def _word_starts(text: str) -> frozenset[int]:
    return frozenset(a for _, a, _ in _jieba().tokenize(text))


def _said_otherwise_zh(value: str, clause: str, said: str) -> str | None:
    """Where ``clause`` says a Chinese term of ``value`` with one part before its head said otherwise, by
    characters, as jieba may cut the two differently (首席财务官 for 首席运营官, 继发性气胸 for 原发性气胸):
    the keypoint's part is said nowhere in the answer, and the answer's shares no character with the term."""
    for term in ("".join(t) for t in _terms(value, "zh", least=1)):
        if term in said or len(term) < 3:
            continue
        n = len(term)
        for left in range(n - 1):
            for size in range(1, 5):
                right = n - left - size
                if right < 1 or size + right < 3 or left + right < 2:
                    continue
                lead, mod, head = term[:left], term[left:left + size], term[left + size:]
                if mod in said or head not in clause or lead not in clause:
                    continue
                middle = r"([\u4e00-\u9fff]{1,4}?)" if lead else rf"([\u4e00-\u9fff]{{{size}}}|[\u4e00-\u9fff]{{2,4}}?)"
                pattern = re.compile(re.escape(lead) + middle + re.escape(head))
                for m in (pattern.match(clause, at) for at in sorted(_word_starts(clause))):
                    if m is None:
                        continue  # (tried at each word's start only: a match opening inside a word, 收入按…, is no term)
                    other = m.group(1)
                    if any(c in term or c in _NOT_A_MODIFIER_ZH or c in _CN_DIGITS for c in other) \
                            or other in _GENERIC_MODIFIERS_ZH \
                            or any(c in _DIRECTION_ZH for c in other + mod) \
                            or any(w in other for w in _NOT_A_MODIFIER_ZH if len(w) > 1):
                        continue
                    return m.group(0)
    return None


_P_ZH_CLAUSE = re.compile(r"[着了]|标志|表明|意味|成功")  # a value with its own verb is a clause, not a name


def _mostly_value(text: str, language: str) -> bool:
    """Is a fact's text mostly a figure, date or time ("19时40分许")? Then the value judge compares it, not the
    word-swap detectors."""
    return sum(b - a for a, b in (v.span for v in _analyse(text, language).values)) * 2 >= len(text.strip())


def _value_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """The keypoint's non-numeric value (its build fact's words, else the value side of "LABEL is VALUE")
    absent from the answer, which says it with one word swapped for another of the kind, in a clause about
    the keypoint's party or no one."""
    lang, ans = scene.language, scene.answer
    # (a text fact that is a clause of its own, "该合同标志着公司成功开拓新的客户群体", is paraphrased, not swapped)
    values = [f.text for f in facts if f.kind in ("category", "text", "place") and f.text]
    if not values and not facts:
        value = _label_value(kt.text, lang)
        values = [value] if value and not _P_NOT_A_FILLER.match(value.strip()) else []  # "was filed first": no value
    text = ans.text if lang == "zh" else ans.text.lower()
    values = [v for v in values if not (_P_ZH_CLAUSE.search(v) if lang == "zh" else len(v.split()) > 6)
              and not _mostly_value(v, lang)]
    values = [v for v in values if (v if lang == "zh" else v.lower()) not in text
              and not (lang == "zh" and _P_ADMIN.sub("", v) in _P_ADMIN.sub("", text))]  # 吉林长春: 吉林省长春市
    if not values:
        return None  # the answer says every value as the keypoint does
    memo = scene._memo.get("value_swap")
    if memo is None:  # the answer's clauses, their words and all it says: once per answer
        said_text = _unnamed(scene, ans.masked)
        memo = scene._memo["value_swap"] = (said_text, set(_tokens(said_text, lang)), [
            (c, {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}, piece, _words(piece, lang))
            for c in ans.clauses if not c.refusal
            for piece in (_unnamed(scene, ans.masked[c.span[0]:c.span[1]]),)])
    said_text, said, all_clauses = memo
    mine = set(kp_parties)
    kp_drugs = _drugs(kt.text, lang)
    clauses = [(piece, words) for c, named, piece, words in all_clauses
               if not (mine and named and not named & mine)  # not a clause about someone else
               and not (kp_drugs and (theirs := _drugs(c.text, lang)) and not _shares_drug(theirs, kp_drugs))]  # nor another drug
    value_words = set(_tokens(kt.text, lang))
    for value in values:
        for clause, words in clauses:
            found = _said_otherwise(value, [k for k, _ in words], said, value_words, lang)
            if found:
                swapped = ("" if lang == "zh" else " ").join(w for _, w in words[found[0]:found[1]])
                return f"answer says {swapped} where keypoint says {value}"
            if lang == "zh" and (other := _said_otherwise_zh(value, clause, said_text)):
                return f"answer says {other} where keypoint says {value}"
    return None


# --- members of a closed class ----------------------------------------------------------------------

# Classes whose members exclude each other, general to the genres' records: the principal punishments of a
# criminal judgment and common offences named in English (Chinese ones share the head 罪, see ZH_CLASS_HEADS);
# the routes a drug is given by; laterality; a person's sex, education and marital status; an auditor's
# opinion; a trial's procedure; a listing's exchange. A member is one or more forms, "|" between them;
# forms of either language may stand in one member (each text is searched for those of its own language).
# kin (a family history: whose illness), said on the keypoint's topic only (_NEEDS_TOPIC)
_KIN = ("father|父亲", "mother|母亲", "brother|哥哥|弟弟", "sister|姐姐|妹妹", "son|儿子", "daughter|女儿", "husband|丈夫",
        "wife|妻子")
# the kinds of a company's major event, as its annual report discloses them: said on the keypoint's event only, in a
# clause that gives its date, as an answer lists other events of the year too (_NEEDS_ANCHOR)
_EVENT_KINDS = ("acquisition|acquired|acquiring|bought|purchased|purchase of|收购|并购|购买", "asset restructuring|restructuring|资产重组|重组",
                "strategic partnership|strategic cooperation|战略合作", "financing|raised|raising|placement|bond issue|loan|融资|募资|募集资金|定向增发|非公开发行|发行债券|贷款",
                "litigation|lawsuit|诉讼", "new product launch|product launch|新产品发布|发布新产品|新品发布",
                "major contract|重大合同", "share buyback|share repurchase|buyback|股份回购|回购股份")
# a company's senior posts: said in a clause that fills one (担任, 接替, "appointed … as"), as an answer names other
# officers in passing (_NEEDS_POST_VERB)
_POSTS = ("chairman|chairwoman|chairperson|chair of the board|董事长", "chief executive officer|chief executive|ceo|首席执行官",
          "general manager|总经理", "chief financial officer|cfo|财务总监|首席财务官|财务负责人",
          "chief operating officer|coo|首席运营官", "chief technology officer|cto|首席技术官",
          "corporate secretary|company secretary|board secretary|secretary of the board|董事会秘书|董秘")
_P_POST_VERB = re.compile(r"担任|出任|接任|接替|任命|聘任|改任|聘为|\b(?:appointed|named|became|succeeded|replaced|took over|"
                          r"as)\b", re.I)
CLOSED_CLASSES: tuple[tuple[str, ...], ...] = (
    ("fixed-term imprisonment", "criminal detention", "public surveillance", "life imprisonment", "death penalty"),
    ("有期徒刑", "拘役", "管制", "无期徒刑", "死刑"),
    ("theft", "robbery", "fraud", "embezzlement", "burglary", "arson", "murder", "manslaughter", "smuggling",
     "extortion", "forgery", "kidnapping", "assault", "intentional injury|intentionally injuring",
     "dangerous driving|drunk driving|drink-driving|drink driving", "drug trafficking",
     "picking quarrels and provoking trouble|picking quarrels|provoking trouble",
     "causing a traffic accident|traffic accident crime|traffic offence|traffic offense", "rape", "illegal detention",
     "gambling|running a gambling house|opening a casino", "contract fraud", "credit card fraud",
     "illegally absorbing public deposits|illegal fundraising", "duty encroachment|job embezzlement",
     "misappropriation of funds|misappropriating funds", "obstructing official duties|obstruction of official duties",
     "bribery|taking bribes|accepting bribes", "offering bribes", "abuse of power", "dereliction of duty",
     "money laundering", "illegal business operation", "illegal possession of drugs|drug possession",
     "transporting drugs|drug transportation"),
    # the same offences named by their acts in Chinese (李鑫诈骗他人财物 for 被盗财物; charges with 罪 share that head)
    ("盗窃|被盗|偷窃|窃取", "抢劫|被抢", "诈骗|骗取|被骗", "抢夺", "敲诈勒索", "贪污", "受贿|收受贿赂|收受", "行贿", "职务侵占",
     "挪用"),
    ("intravenous|intravenously|intravenous infusion|静脉给药|静脉滴注|静脉注射|静滴|静注|静脉输注|经静脉",
     "oral|orally|by mouth|口服", "intramuscular|intramuscularly|肌内注射|肌肉注射|肌注",
     "subcutaneous|subcutaneously|皮下注射", "topical|topically|外用", "sublingual|sublingually|舌下含服",
     "inhaled|by inhalation|雾化吸入"),
    ("左侧", "右侧", "双侧"),
    ("male|man|boy|男性", "female|woman|girl|女性"),
    _KIN,
    ("primary school|elementary school|小学", "junior high school|junior middle school|初中",
     "senior high school|senior middle school|高中", "technical secondary school|中专",
     "junior college|associate degree|大专", "undergraduate|bachelor's degree|本科",
     "postgraduate|master's degree|研究生|硕士", "doctorate|doctoral degree|phd|博士"),
    ("married|已婚", "unmarried|never married|未婚", "divorced|离异|离婚", "widowed|丧偶"),
    ("standard unqualified opinion|unqualified opinion|clean opinion|标准无保留意见",
     "unqualified opinion with an emphasis of matter|emphasis of matter|带强调事项段的无保留意见|带强调事项段",
     "qualified opinion|保留意见", "adverse opinion|否定意见",
     "disclaimer of opinion|无法表示意见"),
    ("summary procedure|简易程序", "ordinary procedure|普通程序", "fast-track procedure|速裁程序"),
    # how a defendant came to confess, as a sentence weighs it: surrendered, or confessed once caught
    ("自首|voluntary surrender|surrendered voluntarily|voluntarily surrendered|turned himself in|turned herself in",
     "坦白|如实供述|truthful confession|confessed truthfully|truthfully confessed"),
    ("shanghai stock exchange|上海证券交易所|上交所", "shenzhen stock exchange|深圳证券交易所|深交所",
     "new york stock exchange|nyse", "nasdaq", "hong kong stock exchange|香港联合交易所|港交所",
     "london stock exchange", "beijing stock exchange|北京证券交易所|北交所"),
    _EVENT_KINDS,
    _POSTS,
    # a shareholders' meeting: the annual one or an extraordinary one
    ("年度股东大会|annual general meeting|annual shareholders' meeting", "临时股东大会|extraordinary general meeting"),
    # the grades of an amount the criminal law weighs (数额较大 / 巨大 / 特别巨大)
    ("数额较大|relatively large", "数额巨大|huge amount|a huge amount", "数额特别巨大|especially huge|particularly huge"),
)


def _opens_clause(ans: _Text, v: Value, c: _Clause) -> bool:
    """Is value ``v`` a clause of its own that opens the clause ``c`` follows ("2021年5月12日，公司回购股份")?"""
    before = [d for d in ans.clauses if d.sentence == c.sentence and d.span[1] <= c.span[0]]
    return bool(before) and before[-1].span[0] <= v.span[0] < before[-1].span[1] and \
        len(before[-1].text.strip(" ，,")) <= len(v.text) + 2


def _closed_class_swap(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint names a member of a closed class (a punishment, an offence, a route, a sex, an education)
    that the answer never names, and a clause about the keypoint's party (or no one) names another member:
    "criminal detention" for "fixed-term imprisonment", 拘役 for 有期徒刑, theft for robbery, "by mouth" for
    "intravenously"."""
    lang, ans = scene.language, scene.answer
    kp_low = kt.text if lang == "zh" else kt.text.lower()
    if lang == "en" and _P_TERM_SENTENCE.search(kp_low) and not _P_ANY_MEMBER.search(kp_low):
        # "sentenced to 11 years and 6 months": a term, which no life or death sentence of the same party is
        for c in ans.clauses:
            life = _P_LIFE_OR_DEATH.search(c.text)
            if life and not c.refusal and set(kp_parties) & scene.parties(c.span[0]) and not _P_NOT_GIVEN_EN.search(
                    c.text[max(0, life.start() - 24):life.start()]):
                return f"answer says {life.group()} where keypoint gives a term"
        return None
    if not _P_ANY_MEMBER.search(kp_low):
        return None  # (the common case, found by one search)
    kp_drugs = _drugs(kt.text, lang)
    if kp_drugs:  # a route said of another drug says nothing of the keypoint's
        text = " ".join(c.text for c in ans.clauses if not ((d := _drugs(c.text, lang)) and not _shares_drug(d, kp_drugs)))
    else:
        text = ans.text
    # (a party that is itself a member, an exchange the keypoint names, is the value, not whom it is said of)
    mine = {i for i in kp_parties if not _P_ANY_MEMBER.fullmatch(scene.entities[i].name if lang == "zh"
                                                                  else scene.entities[i].name.lower())}
    if mine:  # the keypoint's member said only of another party is not said of this one
        text = " ".join(c.text for c in scene.clauses_about(mine) if c.text in text or not kp_drugs)
    text = text if lang == "zh" else text.lower()
    kp_low = _P_MEASURE.sub(" ", kp_low)  # "placed in criminal detention": a measure before trial, not a punishment
    for members in CLOSED_CLASSES:
        ours = [m for m in members if _has_member(kp_low, m, lang)]
        if len(ours) != 1:
            continue  # (a keypoint naming two members of a class is about both)
        said = _P_DENIED_MEMBER.sub(" ", text)
        for m in members:  # a longer member that holds the keypoint's form ("unqualified opinion with an emphasis of
            if m != ours[0]:  # matter", 带强调事项段的无保留意见) does not say the keypoint's
                for f in _forms(m, lang):
                    if any(o in f and o != f for o in _forms(ours[0], lang)):
                        said = re.sub(re.escape(f), " ", said, flags=re.I)
        if len(ours) != 1 or _has_member(said, ours[0], lang):
            continue  # (a keypoint naming two members of a class is about both; "并非标准无保留意见" does not say it)
        topic = set(_content_tokens(_P_ANY_MEMBER.sub(" ", kp_low), lang)) - scene.premise \
            if members in _NEEDS_TOPIC else set()
        for c in scene.clauses_about(mine):  # (not a clause about someone else)
            if kp_drugs and (d := _drugs(c.text, lang)) and not _shares_drug(d, kp_drugs):
                continue  # a clause about another drug
            clause = c.text if lang == "zh" else c.text.lower()
            if topic and not topic & set(_content_tokens(clause, lang)):
                continue  # (the father's hypertension says nothing of the mother's heart disease)
            if members is _POSTS and not _P_POST_VERB.search(clause):
                continue  # (an officer named in passing fills no post)
            if members in _NEEDS_ANCHOR and not any(
                    _same_value(k, v) for k in kt.values if k.kind == "date" for v in ans.values
                    if c.span[0] <= v.span[0] < c.span[1] or _opens_clause(ans, v, c)):
                continue  # (another event of the year, in a clause without the keypoint's date, is no answer for it)
            theirs = [m for m in members if m != ours[0] and _has_member(clause, m, lang)
                      and not (any(f in o for f in _forms(m, lang) for o in _forms(ours[0], lang))
                               and _has_member(clause, ours[0], lang))]  # (保留意见 inside 标准无保留意见)
            if theirs:
                return f"answer says {_forms(theirs[0], lang)[0]} where keypoint says {_forms(ours[0], lang)[0]}"
    return None


# Heads that say what kind of item a record's entry is, in groups that name one thing: a contract or agreement;
# a dispute or lawsuit. Two entries whose heads are of one group, with modifiers that differ, are two kinds of that
# thing ("融资租赁服务合同" and "基金托管运营服务合同"; "a patent infringement case" and "a contract dispute").
_KIND_HEADS_ZH = (("合同", "协议", "协定", "契约"), ("纠纷", "争议", "诉讼", "案件"), ("行业", "产业"))
_ZH_KIND_HEADS = frozenset(h for hs in _KIND_HEADS_ZH for h in hs)
_KIND_HEADS_EN = (("contract", "agreement"), ("dispute", "lawsuit", "suit", "litigation", "case"), ("industry", "sector"))
_LABELLED = _KIND_HEADS_ZH.index(("行业", "产业"))  # the group whose head may label its kind (所属行业为X)
# a Chinese kind said after its head ("所属行业为交通运输与物流")
_P_ZH_KIND_AFTER = re.compile(r"\s*(?:为|是|属于|：|:)\s*([\u4e00-\u9fff与和及、]{2,16})")
# a Chinese kind's modifiers that place or rank it without naming it (民事诉讼, 刑事案件)
_LABELLED_EN = _KIND_HEADS_EN.index(("industry", "sector"))
_GENERIC_KIND_ZH = frozenset({"民事", "刑事", "行政", "商事", "一审", "二审", "相关", "该起", "本案"})
_EN_KIND_HEADS = frozenset(h for hs in _KIND_HEADS_EN for h in hs)
# modifiers that place or rank a dispute or a contract without naming its kind (a civil case, a pending suit)
_GENERIC_KIND_EN = frozenset(_stem(w) for w in (
    "civil", "criminal", "administrative", "commercial", "legal", "court", "pending", "ongoing", "related", "same",
    "other", "first", "second", "instance", "appeal", "appellate", "this", "that", "such", "one", "two", "multi-year",
    "year", "signed", "written", "formal", "binding", "framework", "relevant", "whole", "entire", "same")) | _GENERIC_STEMS
# words a Chinese kind's modifier cannot run back over (the verb or copula before it: 签订的是X合同, 涉及X纠纷)
_ZH_BEFORE_KIND = frozenset({"签订", "签署", "订立", "达成", "涉及", "属于", "构成", "系", "为", "是", "签约", "订", "一起",
                             "一份", "一项", "这起", "这是", "该项", "该起", "一宗", "进入", "提起", "发生", "出现",
                             "引发", "卷入", "产生", "存在", "所属", "所在", "所处"})
# a head that opens a longer noun is not the entry's kind (诉讼程序, 诉讼请求, 合同期限)
_P_ZH_KIND_GOES_ON = re.compile(r"程序|请求|时效|费|过程|阶段|代理|事项|期限|条款|双方|一方|相对方|对方|方")
_P_EN_KIND_PIECE = re.compile(r"[^,;:.()\[\]!?]+")


_NOT_IN_A_MODIFIER_WORD_ZH = set("的了为是于在被将把从无未不非没否患犯")


def _kinds(text: str, language: str) -> list[tuple[int, frozenset[str], int, str]]:
    """Each (group, modifier words, position, as written) of an entry named by a kind head in ``text`` (names blanked):
    the words before the head back to a verb, a stop word or punctuation, less those that only rank it."""
    out = []
    if language == "zh":
        for g, heads in enumerate(_KIND_HEADS_ZH):
            for head in heads:
                for m in re.finditer(head, text):
                    if _P_ZH_KIND_GOES_ON.match(text, m.end()):
                        continue
                    run = re.search(r"[\u4e00-\u9fff]{0,16}$", text[:m.start()])
                    before = run.group() if run else ""
                    words = [w for w in _jieba().lcut(before) if w]
                    mod: list[str] = []
                    for w in reversed(words):
                        if w in _ZH_BEFORE_KIND or w in _STOP_ZH or len(mod) >= 6 or any(
                                c in (_NOT_A_MODIFIER_ZH if len(w) == 1 else _NOT_IN_A_MODIFIER_WORD_ZH) for c in w):
                            # (a word of its own, 经营 of 合资经营 or 对外 of 对外授权, is no function word)
                            break
                        mod.append(w)
                    shown = "".join(reversed(mod)) + head
                    after = _P_ZH_KIND_AFTER.match(text, m.end()) if g == _LABELLED else None
                    if not mod and after:
                        mod = [w for w in _jieba().lcut(after[1]) if w not in _STOP_ZH and w not in "与和及、"]
                        shown = after[1]
                    mod = [w for w in mod if w not in _GENERIC_MODIFIERS_ZH and w not in _GENERIC_KIND_ZH and len(w) >= 2
                           and not re.search(r"\d|年|月|日", w)]
                    mod = [w for w in mod if w not in _ZH_KIND_HEADS] or mod  # (买卖 of 买卖合同纠纷 says its kind)
                    out.append((g, frozenset(mod), m.start(), shown))
        return out
    for piece in _P_EN_KIND_PIECE.finditer(text.lower()):
        words = [(w.group(), piece.start() + w.start()) for w in re.finditer(r"[a-z][a-z'-]*|\d[\d.,]*", piece.group())]
        for n, (w, at) in enumerate(words):
            group = next((g for g, heads in enumerate(_KIND_HEADS_EN) if w.rstrip("s") in heads or w in heads), None)
            if group is None or (w == "suit" and n and words[n - 1][0].startswith("follow")):
                continue  # ("followed suit" is no lawsuit)
            lead: list[str] = []
            for prev, _ in reversed(words[max(0, n - 4):n]):
                if prev in _NOT_A_MODIFIER_EN or len(prev) < 2 or not prev[0].isalpha() \
                        or prev.rstrip("s") in _KIND_HEADS_EN[group]:
                    break
                lead.append(prev)
            lead = [m for m in lead if not re.fullmatch(r"[\w]+-(?:year|month|week|day)s?", m)]  # (a five-year lease)
            kind = frozenset(_stem(m) for m in lead) - _GENERIC_KIND_EN  # (a contract dispute; a supply contract dispute)
            out.append((group, frozenset(_stem(m) for m in lead if m.rstrip("s") not in _EN_KIND_HEADS) - _GENERIC_KIND_EN
                        or kind, at,
                        " ".join([*reversed(lead), w])))
    return out


def _kind_swap(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint names an entry's kind by a head of one group (a contract, a dispute) that the answer never
    says, and a clause about the keypoint's party names another kind on a head of that group, where the answer
    speaks of this entry: the clause's sentence gives a value or party of the query's keypoints, or the answer names
    no other entry of that group ("签订的是融资租赁服务合同" for "合同内容为多年期基金托管运营服务合同")."""
    lang, ans = scene.language, scene.answer
    heads = _KIND_HEADS_ZH if lang == "zh" else _KIND_HEADS_EN
    kp_text = scene.blank(kt.text)
    if not any(h in kp_text for hs in heads for h in hs):
        return None  # (the common case, found by one search)
    ours = [(g, mod, shown) for g, mod, _, shown in _kinds(kp_text, lang) if mod]
    if not ours:
        return None
    said_text = scene.blank(" ".join(c.text for c in ans.clauses if not c.refusal))
    said = said_text if lang == "zh" else set(_tokens(said_text, "en"))
    kp_words = kp_text if lang == "zh" else set(_tokens(kp_text, "en"))
    clauses = scene.clauses_about(set(kp_parties))
    found: dict[int, list[tuple[frozenset[str], int, str]]] = {}
    for c in clauses:
        text = scene.blank(c.text)
        for g, mod, at, shown in _kinds(text, lang):
            if mod and not _P_DENIED_MEMBER.search(text[max(0, at - 30):at].split("，")[-1].split(",")[-1]):
                found.setdefault(g, []).append((mod, c.sentence, shown))
    anchors = [v for s in scene.keypoints for v in s.values] + list(scene.premise_values)
    query_parties = {i for s in scene.keypoints for i in s.parties}
    for g, mod, kp_shown in ours:
        if sum(w in said or (lang == "zh" and w.rstrip("业类") in said) for w in mod) * 2 >= len(mod):
            continue  # the answer says the keypoint's kind (or most of it: 制造 of 制造业)
        # another kind: a modifier word the keypoint lacks (in English two, as one word may be a synonym: an
        # employment contract is a labour contract)
        least = 2 if lang == "en" and g != _LABELLED_EN else 1
        theirs = [(m, si, shown) for m, si, shown in found.get(g, []) if sum(w not in kp_words for w in m) >= least]
        kinds_named = {m for m, _, _ in found.get(g, [])}
        for _, si, shown in theirs:
            a, b = ans.sentences[si]
            anchored = len(kinds_named) == 1 or any(
                any(_same_value(v, x) for v in anchors) for x in ans.values if a <= x.span[0] < b) \
                or scene.named_in_sentence(si) & query_parties
            if anchored:
                return f"answer says {shown} where keypoint says {kp_shown}"
    return None


# a member said only to be denied ("并非标准无保留意见，而是保留意见", "not a qualified opinion")
_P_DENIED_MEMBER = re.compile(r"(?:并非|并不是|不是|而非|not\s+(?:an?\s+)?)(?:[\u4e00-\u9fff]{2,12}|[a-z-]+(?:\s+[a-z-]+){0,2})",
                              re.I)
_P_NOT_GIVEN_EN = re.compile(r"\b(?:avoid\w*|spar\w*|sought|seek\w*|request\w*|instead of|not|no|rather than)\b[^.;]*$", re.I)
_P_LIFE_OR_DEATH = re.compile(r"\b(?:life imprisonment|life in prison|death penalty|sentenced to death)\b", re.I)
_P_TERM_SENTENCE = re.compile(r"\bsentenced to (?:a term of )?\d+ (?:years?|months?)\b", re.I)
_P_MEASURE = re.compile(r"\b(?:placed|taken|held|kept)\s+(?:in|into|under)\s+criminal detention\b")


_NEEDS_TOPIC = (_KIN,)
_NEEDS_ANCHOR = (_EVENT_KINDS,)


def _forms(member: str, language: str) -> list[str]:
    """A member's forms in one language (Chinese ones hold CJK characters)."""
    forms = [f for f in member.split("|") if bool(_P_CJK.search(f)) == (language == "zh")]
    return forms or ([] if language == "zh" else member.split("|"))


_P_ANY_MEMBER = re.compile("|".join(
    re.escape(f) if _P_CJK.search(f) else rf"\b{re.escape(f)}\b"
    for members in CLOSED_CLASSES for m in members for f in m.split("|")), re.I)


@lru_cache(maxsize=1024)
def _member_pattern(member: str) -> re.Pattern[str]:
    """One English member's forms as a whole-word pattern."""
    return re.compile("|".join(rf"\b{re.escape(f)}\b" for f in _forms(member, "en")))


def _has_member(text: str, member: str, language: str) -> bool:
    forms = _forms(member, language)
    if language == "zh":
        return any(f in text and not (f == "管制" and "管制刀具" in text) and
                   not (f == "保留意见" and "无保留意见" in text and text.count("保留意见") == text.count("无保留意见"))
                   for f in forms)
    return forms != [] and _member_pattern(member).search(text) is not None

# --- another drug -------------------------------------------------------------------------------------

# Drug names by the stems the WHO's International Nonproprietary Names give each class (-cillin, cef-, -floxacin,
# -profen, -olol, -pril, -sartan, -statin, -prazole, -tidine …), with the common names no stem covers; in Chinese
# by the characters the approved transliterations give the same stems (头孢, 沙星, 洛芬, 普利, 他汀, 拉唑 …).
_P_DRUG_EN = re.compile(
    r"\b(?:[a-z]+(?:cillin|[a-z]{2}dil|mycin|micin|cycline|floxacin|conazole|prazole|[a-z]vir|profen|fenac|coxib|olol|pril|"
    r"sartan|dipine|statin|parin|xaban|grel|grelor|tidine|setron|gliptin|glinide|glitazone|formin|azepam|zolam|triptan|cobalamin|"
    r"[a-z]mab|tinib|nisone|olone|methasone|semide|sulosin|azosin|steride|tropium|terol|sonide|phylline|lukast|metacin|methacin|dronate|gliflozin|oxetine|triptyline|peridol|apine|caine|cortisone|teplase|kinase)|cef[a-z]{3,}|insulin|aspirin|"
    r"acetaminophen|paracetamol|morphine|tramadol|ambroxol|warfarin|digoxin|nitroglycerin|dexamethasone)\b", re.I)
_P_DRUG_ZH = re.compile(r"头孢|西林|霉素|环素|沙星|康唑|洛韦|他韦|洛芬|芬酸|昔布|洛尔|普利|沙坦|地平|他汀|肝素|沙班|格雷|拉唑|替丁|司琼|"
                        r"列汀|格列|双胍|西泮|唑仑|曲坦|单抗|替尼|尼松|米松|塞米|罗辛|雄胺|胰岛素|阿司匹林|对乙酰氨基酚|吗啡|"
                        r"曲马多|氨溴索|华法林|地高辛|硝酸甘油|尼龙|松龙|奈德|胺醇|巴坦|特罗|溴铵|氯铵|噻嗪|"
                        r"美辛|膦酸|西汀|替林|卡因|硝唑|可的松|普酶|地尔")


_ZH_DRUG_PREFIXES = ("头孢", "格列")  # stems that open the name (头孢曲松); the others close it (左氧氟沙星)
_ZH_WHOLE_DRUGS = ("胰岛素", "阿司匹林", "对乙酰氨基酚", "吗啡", "曲马多", "氨溴索", "华法林", "地高辛", "硝酸甘油")


_ZH_GIVING = frozenset({"所用", "使用", "给予", "予以", "应用", "采用", "服用", "用药", "选用", "选择"})
_ZH_BEFORE_DRUG = "用予给服及和与并或为是行以经后改换停加联括到有了含"  # words that come before a short name (予甲硝唑)
_P_DRUG_LABEL = re.compile(r"\b(?:drug|medication|medicine|agent)\b|药物|药品|用药", re.I)


def _same_drug(a: str, b: str) -> bool:
    """One drug, however much of the text before its stem was read with it (到泼尼松 and 泼尼松; not 奥硝唑 and 甲硝唑,
    泼尼龙 and 甲泼尼龙, ofloxacin and levofloxacin)."""
    if a == b:
        return True
    longer, shorter = (a, b) if len(a) > len(b) else (b, a)
    extra = longer[:len(longer) - len(shorter)]
    return bool(_P_CJK.match(shorter[:1])) and longer.endswith(shorter) and (
        all(c in _ZH_BEFORE_DRUG for c in extra)  # (包括泼尼松: words before it)
        or len(shorter) >= 3 and not any(c in _ZH_CHEMICAL_PREFIX for c in extra))  # (郑秀云泼尼松: a name before it;
    # 甲泼尼龙 is another drug than 泼尼龙)


_ZH_CHEMICAL_PREFIX = "甲乙丙丁左右消氢氯溴碘氟去脱异双复"  # methyl-, ethyl-, levo-, dextro-, hydro-, chloro-, de-, iso-, bi-


def _shares_drug(these: set[str], those: set[str]) -> bool:
    return any(_same_drug(a, b) for a in these for b in those)


def _other_drugs(these: set[str], *others: set[str]) -> set[str]:
    return {a for a in these if not any(_shares_drug({a}, o) for o in others)}


def _drugs(text: str, language: str) -> set[str]:
    """The drugs a text names: English names whole (lower case); Chinese ones by their stem and the two characters
    that tell the class's members apart (头孢曲松 / 头孢呋辛, 氟沙星 of 左氧氟沙星)."""
    if language != "zh":
        return {m.lower() for m in _P_DRUG_EN.findall(text)}
    out = set()
    for m in _P_DRUG_ZH.finditer(text):
        if m[0] in _ZH_WHOLE_DRUGS:
            out.add(m[0])
        elif m[0] in _ZH_DRUG_PREFIXES:
            out.add(m[0] + "".join(c for c in text[m.end():m.end() + 2] if _P_CJK.match(c)))
        else:
            lead = "".join(c for c in text[max(m.start() - 2, 0):m.start()] if _P_CJK.match(c))
            out.add(lead.lstrip(_ZH_BEFORE_DRUG) + m[0])  # (予甲硝唑 names 甲硝唑: a verb is not its lead)
    return out


def _drug_swap(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint names a drug the answer never names, and a clause about the keypoint's party (or no one), on
    the keypoint's topic, names another: ceftriaxone for cefuroxime, "analgesia was acetaminophen" for "the drug
    was flurbiprofen axetil", 阿司匹林 for 丙种球蛋白's neighbour … A drug the question names is its premise."""
    lang, ans = scene.language, scene.answer
    ours = _drugs(kt.text, lang)
    if not ours:  # "The drug was butylphthalide injection": a drug the stems do not know, named as the drug
        value = _label_value(kt.text, lang)
        label = kt.text.split(value)[0] if value else ""
        if not value or not _P_DRUG_LABEL.search(label):
            return None
        ours = {value.strip(" .。").lower() if lang == "en" else value.strip(" .。")}
    text = ans.text if lang == "zh" else ans.text.lower()
    if any(d in text for d in ours):
        return None
    asked = _drugs(scene.question, lang) | {d for sib in scene.keypoints if sib.text is not kt
                                            for d in _drugs(sib.text.text, lang)}  # the question's, the others' own
    # the keypoint's topic: its words but the drug's name (and the word after it: "flurbiprofen axetil", "sodium")
    # and the question's
    body = kt.masked if lang == "zh" else re.sub(rf"(?:{_P_DRUG_EN.pattern})(?:\s+[a-z]+)?", " ", kt.masked, flags=re.I)
    names = set(ours)
    if lang == "zh":  # the name with the salt written before it (盐酸贝那普利)
        for d in ours:
            at = a = kt.text.find(d)
            while a > 0 and _P_CJK.match(kt.text[a - 1]) and kt.text[a - 1] not in _ZH_BEFORE_DRUG:
                a -= 1
            if at >= 0:
                names.add(kt.text[a:at + len(d)])
    words = {w for w in _content_tokens(scene.blank(body), lang) if not _drugs(w, lang)} - scene.premise \
        - {w for d in names for w in _content_tokens(d, lang)} - _ZH_GIVING  # (a name the stems do not know is no
    # topic word, nor is a verb of giving: "所用药物为X" is about X as "the drug given was X" is)
    mine = set(kp_parties)
    for c in scene.clauses_about(mine):  # (not a clause about someone else)
        theirs = _other_drugs(_drugs(c.text, lang), ours, asked)
        if not theirs or any(d.refusal and d.sentence == c.sentence for d in ans.clauses):
            continue  # (… "lists X and Y but does not mention an analgesic": what is missing is said)
        theirs = {d for d in theirs if not _dosed_as_another(d, c.span, kt, scene)}
        if not theirs:
            continue
        if words and not words & set(_content_tokens(scene.blank(c.text), lang)) and \
                not words & set(_content_tokens(scene.blank(_sentence(ans, c.span[0])), lang)):
            continue  # a drug said on another topic
        return f"answer names {sorted(theirs)[0]} where keypoint names {sorted(ours)[0]}"
    return None


# Procedures by the Greek and Latin suffixes surgery names them with (-ectomy, -otomy, -ostomy, -plasty, -scopy,
# -pexy, -rrhaphy, -centesis, -tripsy, -graphy): a general table, as the INN stems are for drugs.
_PROCEDURE_SUFFIXES = ("ectomy", "otomy", "ostomy", "plasty", "scopy", "pexy", "rrhaphy", "centesis", "tripsy", "graphy")
# and the nouns surgery names an operation's act with ("transurethral resection of a bladder tumour")
_PROCEDURE_NOUNS = ("resection", "incision", "excision", "ablation", "amputation")  # (not "replacement": an
# arthroplasty is one)
_P_PROCEDURE_EN = re.compile(rf"\b(?:[a-z]+(?:{'|'.join(_PROCEDURE_SUFFIXES)})|{'|'.join(_PROCEDURE_NOUNS)})\b", re.I)
_P_NOT_DONE_EN = re.compile(r"\b(?:no|not|never|without|nor|instead of|rather than|planned|scheduled|will|would|"
                            r"later|future|recommended|advised|considered|deferred|declined|refused)\b", re.I)


def _procedure_root(word: str) -> str:
    """A procedure's word without its suffix (myom of myomectomy, angio of angiography): the root any form of it
    keeps (angiogram, mastectomies)."""
    root = word.lower()
    for suffix in sorted(_PROCEDURE_SUFFIXES, key=len, reverse=True):
        if root.endswith(suffix):
            root = root[:-len(suffix)]
            break
    return root.rstrip("o") if len(root.rstrip("o")) >= 4 else root


def _procedure_swap(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint names a procedure by its surgical suffix and the answer says nothing built on its root; a clause
    about the keypoint's party (or no one), on the keypoint's topic and not one planned, denied or put in its place,
    names another: hysterectomy for myomectomy, lumpectomy for mastectomy."""
    if scene.language != "en":
        return None
    ours = {m.lower() for m in _P_PROCEDURE_EN.findall(kt.text)}
    roots = {_procedure_root(p) for p in ours}
    low = scene.answer.text.lower()
    if not ours or any(len(r) >= 3 and r in low for r in roots):
        return None
    asked = {m.lower() for m in _P_PROCEDURE_EN.findall(scene.question)} | {
        m.lower() for sib in scene.keypoints if sib.text is not kt for m in _P_PROCEDURE_EN.findall(sib.text.text)}
    body = _P_PROCEDURE_EN.sub(" ", kt.masked)
    words = set(_content_tokens(scene.blank(body), "en")) - scene.premise
    for c in scene.clauses_about(set(kp_parties)):
        if any(d.refusal and d.sentence == c.sentence for d in scene.answer.clauses) or _P_NOT_DONE_EN.search(c.text):
            continue
        theirs = {m.lower() for m in _P_PROCEDURE_EN.findall(c.text) if not m.lower().endswith(("graphy", "scopy"))
                  or any(p.endswith(("graphy", "scopy")) for p in ours)} - ours - asked
        # (a test beside an operation, ultrasonography, is no other operation; another test for a test is)
        theirs = {p for p in theirs if _procedure_root(p) not in scene.question.lower() and not any(
            _procedure_root(p) in o or _procedure_root(o) in p for o in ours)}  # (the keypoint's own, said otherwise)
        if not theirs:
            continue
        sentence = scene.answer.sentences[c.sentence]
        dated = any(sentence[0] <= a.span[0] < sentence[1] and any(_same_value(k, a) for k in kt.values)
                    for a in scene.answer.values)  # ("On July 1, 2021 … performed a lumpectomy": the day is its topic)
        if words and not dated and not words & set(_content_tokens(scene.blank(c.text), "en")) and \
                not words & set(_content_tokens(scene.blank(_sentence(scene.answer, c.span[0])), "en")):
            continue  # a procedure said on another topic
        return f"answer names {sorted(theirs)[0]} where keypoint names {sorted(ours)[0]}"
    return None


# a drug said not to be given: the negation, then at most a verb of giving (未使用X, 并未给予X, "was not given X",
# "never received X", "without X")
_P_DRUG_NOT_GIVEN_ZH = re.compile(r"(?:未|没有|并未|未曾|并没有|无需|不需|无须|不必)(?:再|曾)?"
                                  r"(?:使用|给予|予以|予|服用|应用|用|加用|静滴|静脉滴注|口服|注射|开具|处方)?(?:了|过)?$")
_P_DRUG_NOT_GIVEN_EN = re.compile(r"(?:not|never|no|without|nor)\s+(?:(?:been|be|being|receive|received|receiving|given|"
                                  r"giving|prescribed|started|start|on|taking|take|use|used|using|any|treated|with)\s+){0,3}$")
# a negation before a drug in the keypoint itself (未使用华法林, "not given warfarin")
_P_KP_NEGATED = re.compile(r"(?:未|没有|不|否认|无|\b(?:not|no|never|without|denied))[^，。；,;.]{0,8}$", re.I)


def _drug_denied(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint says a drug was given; a clause about its party says it was not (未使用甲泼尼龙, "was never given
    metoprolol"), and the answer gives that drug nowhere else."""
    lang, ans = scene.language, scene.answer
    low_kp = kt.text if lang == "zh" else kt.text.lower()
    ours = {d for d in _drugs(kt.text, lang) if not any(
        _P_KP_NEGATED.search(low_kp[:m.start()]) for m in re.finditer(re.escape(d), low_kp))}
    # (a drug the keypoint itself denies is polarity's to judge)
    if not ours:
        return None
    pattern = _P_DRUG_NOT_GIVEN_ZH if lang == "zh" else _P_DRUG_NOT_GIVEN_EN
    text = ans.text if lang == "zh" else ans.text.lower()
    about = [c.span for c in scene.clauses_about(set(kp_parties))]
    for d in sorted(ours):
        spots = [m.start() for m in re.finditer(re.escape(d), text)]
        denied = [at for at in spots if pattern.search(text[max(0, at - 24):at])]
        if denied and len(denied) == len(spots) and any(a <= denied[0] < b for a, b in about):
            return f"answer says {d} was not given"
    return None


def _dosed_as_another(drug: str, span: tuple[int, int], kt: _Text, scene: _Scene) -> bool:
    """Is ``drug`` given, in the answer's clause at ``span``, in the dose another keypoint gives its own drug (the
    drug in that keypoint's place, "diclofenac 50 mg" for "flurbiprofen axetil 50 mg")?"""
    ans, lang = scene.answer, scene.language
    text = ans.text if lang == "zh" else ans.text.lower()
    at = text.find(drug, span[0], span[1])
    if at < 0:
        return False
    dose = next((v for v in ans.values if at < v.span[0] <= at + len(drug) + 25 and v.span[0] < span[1]), None)
    return dose is not None and any(_same_value(k, dose) for sib in scene.keypoints
                                    if sib.text is not kt and _drugs(sib.text.text, lang) for k in sib.values)


# --- another filler after the fact's own lead words ----------------------------------------------------

_P_HOW = re.compile(r"(?:given|made|done|taken|not|also|[a-z]+ed)\b", re.I)  # a participle says how, not what
_P_ZH_COPULA_END = re.compile(r"(?:为|是|系|于|在|位于|患有|患)$")
_P_EN_LEAD_WORD = re.compile(r"[A-Za-z][A-Za-z'-]*")


_P_UNIT_OF_ORG = re.compile(r"科$|\b(?:department|ward|unit|clinic)\b", re.I)


def _fact_lead_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """A build fact's words (a category, a place, a finding) the answer does not state, where a clause about the
    keypoint's party (or no one) says the words that lead up to the fact in the keypoint ("diagnosed with",
    "took place at", 诊断为, 地点为) and then something else: "diagnosed with acute pancreatitis" for "diagnosed
    with acute calculous cholecystitis"."""
    lang, ans = scene.language, scene.answer
    mine = set(kp_parties)
    said_raw = " ".join(c.text for c in ans.clauses if not c.refusal)
    said = scene.blank(said_raw)
    for fact in facts:
        if fact.kind not in ("category", "place", "text", "organisation") or not fact.text or _mostly_value(fact.text, lang):
            continue
        if fact.kind == "organisation" and not _P_UNIT_OF_ORG.search(fact.text):
            continue  # (a company, a court: named parties, see core._stand_in; a hospital's department is no party)
        at = kt.text.find(fact.text) if lang == "zh" else kt.text.lower().find(fact.text.lower())
        org = fact.kind == "organisation"  # (its name is a party's: blanked in the answer, so read it unblanked)
        own = _content_tokens(fact.text if org else scene.blank(fact.text), lang)
        if at <= 0 or not own or _coverage(own, said_raw if org else said, lang) >= 0.5 or (fact.kind == "text" and len(own) > 4):
            continue  # (a text fact that is a clause of its own has no single place to fill)
        before = kt.text[:at]
        name: str | None = None
        verb = ""
        if lang == "zh":
            lead = _P_ZH_COPULA_END.sub("", before.rstrip())[-4:]
            if any(lead.endswith(a) or a.endswith(lead) for e in scene.entities for a in e.aliases):
                lead = before.rstrip()[-4:]  # a name alone leads to no slot: keep its verb ("张某在")
            # a name then a short verb ("甲犯"): the verb may come a few words after the name ("甲被认定犯")
            name = next((a for e in scene.entities for a in e.aliases if len(a) >= 2 and before.rstrip().endswith(a, 0, -1)
                         and 1 <= len(before.rstrip()) - before.rstrip().rindex(a) - len(a) <= 2), None)
            verb = before.rstrip()[before.rstrip().rindex(name) + len(name):] if name else ""
            if len(lead) < 2 or not all(_P_CJK.match(c) for c in lead):
                continue
        else:
            lead_words = _P_EN_LEAD_WORD.findall(before)[-2:]
            if len(lead_words) < 2 or all(w.lower() in _NOT_A_MODIFIER_EN for w in lead_words):
                continue  # ("has no": no lead of its own)
            lead = " ".join(lead_words).lower()
        for c in ans.clauses:
            if c.refusal or _P_NOT_SAID.search(c.text):
                continue  # (nor one saying the record leaves it out: "病历未写明用法")
            named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
            if mine and named and not named & mine:
                continue  # a clause about someone else
            text = c.text if lang == "zh" else c.text.lower()
            i = text.find(lead)
            if i < 0 and lang == "en" and " " in lead:  # "convicted him of Y" for "A was convicted of X"
                verb, _, prep = lead.partition(" ")
                said_lead = re.search(rf"\b{re.escape(verb)}\s+(?:him|her|them|it)\s+{re.escape(prep)}\b", text)
                if said_lead:
                    i, lead = said_lead.start(), said_lead[0]
            if i < 0 and lang == "zh" and verb and name is not None and name in text:
                gap = re.compile(rf"{re.escape(name)}[\u4e00-\u9fff]{{1,4}}?{re.escape(verb)}").search(text)
                if gap:  # "甲被认定犯X" for "甲犯Y"
                    i, lead = gap.start(), gap.group()
            if i < 0:
                continue
            rest = text[i + len(lead):]
            if lang == "zh":
                rest = re.sub(r"^(?:为|是|系|于|在|位于|患有|患)", "", rest)
            filler = _content_tokens(scene.blank(rest), lang)
            if _P_HOW.match(rest.strip()):
                continue  # "the drug was given orally": how, not what
            if _P_REFUSAL_ZH.search(rest) or _P_REFUSAL_EN_ANYWHERE.search(rest):
                continue  # "…的诊断在资料中未明确": the value is said to be missing
            if filler and _coverage(own, rest if org else scene.blank(rest), lang) < 0.5:
                return f"answer says {rest.strip(' .。，,;；')[:40]} where keypoint says {fact.text}"
        if org:  # another department named in a clause about the party ("由内分泌科收治" for "收治科室为神经内科")
            for c in ans.clauses:
                named = {i for p, _, i in scene.mentions if c.span[0] <= p < c.span[1]}
                if c.refusal or (mine and named and not named & mine):
                    continue
                other = next((d for d in _departments(c.text) if d.lower() != fact.text.lower()
                              and not fact.text.lower().endswith(d.lower())), None)
                if other:
                    return f"answer names {other} where keypoint names {fact.text}"
    return None


_ZH_DIGITS = str.maketrans({c: str(d) for c, d in _CN_DIGITS.items()})  # (二型 is 2型)


def _common_suffix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[-1 - n] == b[-1 - n]:
        n += 1
    return a[len(a) - n:]


def _in_order(short: str, long: str) -> bool:
    """Are the characters of ``short`` all in ``long``, in order (急性缺血性卒中 in 急性缺血性脑卒中: one name)?"""
    chars = iter(long)
    return all(c in chars for c in short)


def _zh_member_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """A Chinese category fact after its label and copula ("诊断为肺炎支原体肺炎") that the answer fills, after the same
    label, in a clause about the keypoint's party (or no one), with another member of its kind: the same head, other
    words before it (细菌性肺炎), neither name inside the other."""
    if scene.language != "zh":
        return None
    ans, mine = scene.answer, set(kp_parties)
    for fact in facts:
        name = fact.text.strip()
        if fact.kind != "category" or len(name) < 4 or name in ans.text:
            continue
        at = kt.text.find(name)
        lead = re.search(r"([\u4e00-\u9fff]{2})(?:为|是|系)$", kt.text[:at]) if at > 0 else None
        if lead is None:
            continue
        for c in scene.clauses_about(mine):
            if c.refusal:
                continue
            said = re.search(rf"{lead[1]}(?:为|是|系)([\u4e00-\u9fff0-9]{{3,20}})", c.text)
            if said is None:
                continue
            other = said[1].translate(_ZH_DIGITS)
            head = len(_common_suffix(other, name.translate(_ZH_DIGITS)))
            ours, theirs = name.translate(_ZH_DIGITS)[:-head or None], other[:-head or None]
            if head >= 2 and not set(ours) & set(theirs) and ours not in ans.text.translate(_ZH_DIGITS) and \
                    not _in_order(other, name) and not _in_order(name, other) and \
                    not re.search(r"未|没有|并非|不是|否认|排除|除外", c.text[max(0, said.start() - 4):said.start()]):
                return f"answer says {other} where keypoint says {name}"
    return None


_P_DEPARTMENT_EN = re.compile(r"\b(?:[A-Z][a-z]+ )+Department\b|\bDepartment of (?:[A-Z][a-z]+ ?)+")
_ZH_BEFORE_DEPARTMENT = "由在于入住至往为是的和及与经后、，,。；;：:（( "


def _departments(text: str) -> list[str]:
    """The hospital departments a text names: 内分泌科, 急诊内科 (back to the word before: 由, 在, 收住 …),
    "Emergency Department", "Department of Cardiology"."""
    out = [m[0].strip() for m in _P_DEPARTMENT_EN.finditer(text)]
    for m in re.finditer(r"科(?![技学研室普])", text):
        start = m.start()
        while start > 0 and m.start() - start < 8 and _P_CJK.match(text[start - 1]) \
                and text[start - 1] not in _ZH_BEFORE_DEPARTMENT and text[start - 2:start] not in ("收住", "转入", "收入"):
            start -= 1
        name = text[start:m.end()]
        if len(name) >= 2 and name not in ("本科", "专科", "学科", "转科") and not (
                name.endswith("学科") and not name.endswith("医学科")):  # (多学科会诊 names no department)
            out.append(name)
    return out


# --- another category after "is a" ------------------------------------------------------------------------

_P_IS_A = r"\b(?:is|was|works as|worked as|is employed as|appears to be|seems to be|is listed as)\s+(?:a|an)\s+"
_P_IS_A_FILLER = re.compile(_P_IS_A + r"((?:[a-z][a-z-]*\s+){0,3}?[a-z][a-z-]*?)(?=\s+(?:living|who|aged|from|in|at|"
                            r"and|with|based|residing|for|of)\b|\s*[,.;:()]|\s*$)", re.I)
# words that say what a person is without a category of the kind (a woman of 45 is no occupation)
_GENERIC_PERSONS = frozenset(_stem(w) for w in (
    "man", "woman", "person", "patient", "female", "male", "resident", "citizen", "adult", "mother", "father", "local",
    "individual", "defendant", "girl", "boy", "native"))


def _category_after_is_a(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """An English keypoint that gives its party a category after "is a" ("Ada Cole is a sales manager"), where the
    answer, saying the category's head word nowhere, says another one after "is a" of that party or of a pronoun
    ("She appears to be an architect")."""
    if scene.language != "en":
        return None
    ans, mine = scene.answer, set(kp_parties)
    for fact in facts:
        if fact.kind != "category" or not fact.text:
            continue
        if not re.search(_P_IS_A + re.escape(fact.text), kt.text, re.I):
            continue
        own = _content_tokens(fact.text, "en")
        if not own or _share(own[-1:], scene.blank(ans.masked), "en") > 0:
            continue  # the answer says the category's head word somewhere
        for c in ans.clauses:
            if c.refusal:
                continue
            if mine and (named := scene.parties(c.span[0])) and not named & mine:
                continue  # a clause about someone else
            for m in _P_IS_A_FILLER.finditer(c.text):
                filler = m.group(1).lower()
                words = _content_tokens(filler, "en")
                if words and words[-1] not in _GENERIC_PERSONS and not set(words) & set(own):
                    return f"answer says {filler} where keypoint says {fact.text}"
    return None


# --- another value under the fact's own field label -----------------------------------------------------------


def _field_label_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """An English answer written as fields ("Occupation: retired engineer | Residence: …") that fills the field a
    build fact comes from (its key, "occupation", "audit_opinion") with something else, for the keypoint's party or
    no one named."""
    if scene.language != "en":
        return None
    ans, mine = scene.answer, set(kp_parties)
    for fact in facts:
        if fact.kind not in ("category", "text", "place") or not fact.text or not fact.key:
            continue
        label = fact.key.split(".")[-1].replace("_", " ").strip()
        if not re.fullmatch(r"[a-z][a-z ]{3,30}", label):
            continue
        own = _content_tokens(scene.blank(fact.text), "en")
        if not own:
            continue
        for m in re.finditer(rf"(?:^|[\n|;])\s*(?:[-*•]\s*)?\**\s*{re.escape(label)}\s*\**\s*[:：]\s*\**\s*([^|;\n]+)",
                             ans.text, re.I):
            filler = m.group(1).strip(" *.")
            if not filler or _P_REFUSAL_EN_ANYWHERE.search(filler) or re.search(r"\b[A-Z]{2,6}\b", filler):
                continue  # (an abbreviation the judge cannot write out, "Dx: IDC", may well be the fact)
            if mine and (named := scene.parties(m.start(1))) and not named & mine:
                continue  # a field of another party's record
            if _coverage(own, scene.blank(filler).lower(), "en") < 0.5 and _content_tokens(scene.blank(filler), "en"):
                return f"answer's {label} is {filler[:40]} where keypoint says {fact.text}"
    return None


# --- another code ----------------------------------------------------------------------------------------

_P_CODE = re.compile(r"\b[A-Z]{2,6}\b|(?<![\d.])\d{6}(?![\d.])")  # a ticker (STRH), a Chinese securities code (000640)
_NOT_CODES = frozenset({"USD", "CNY", "RMB", "HKD", "EUR", "CEO", "CFO", "COO", "CTO", "NYSE", "LLC", "INC", "LTD",
                        "PLC", "AG", "SA", "IPO", "EGM", "AGM", "ESG", "GDP", "IV", "PO", "CT", "MRI", "ICU", "ER"})


def _code_swap(kt: _Text, scene: _Scene) -> str | None:
    """The keypoint names a code (a ticker, a securities code) the answer never writes, and a clause of the answer
    on the keypoint's topic writes another: "under the symbol STRX" for "its ticker symbol is STRH"."""
    ours = {c for c in _P_CODE.findall(kt.text) if c not in _NOT_CODES}
    if not ours or any(c in scene.answer.text for c in ours):
        return None
    lang, ans = scene.language, scene.answer
    asked = set(_P_CODE.findall(scene.question if lang == "zh" else scene.question.upper()))
    words = set(_content_tokens(scene.blank(_P_CODE.sub(" ", kt.text)), lang))
    for c in ans.clauses:
        if c.refusal:
            continue
        theirs = {x for x in _P_CODE.findall(c.text) if x not in _NOT_CODES and x not in asked}
        if theirs and (not words or words & set(_content_tokens(scene.blank(c.text), lang))):
            return f"answer gives {sorted(theirs)[0]} where keypoint has {sorted(ours)[0]}"
    return None


# --- another place ---------------------------------------------------------------------------------------

# verbs and nouns that say where something is or happened, one frame whatever the word ("headquartered in",
# "based in", "located in"; "born in"; "committed at", "took place at"): general words of the genres' records
_PLACE_FRAMES_EN = tuple(frozenset(_stem(w) for w in words.split()) for words in (
    "headquartered headquarters based located situated hq head office", "born birth birthplace",
    "committed occurred happened took place scene offence offense crime", "lives lived resides resided resident address"))
_P_PLACE_AFTER_EN = re.compile(r"\b(?:in|at|near)\s+(?:the\s+)?((?:[A-Z][a-z]+[\s,]*){1,4})")
_P_ZH_PLACE = re.compile(r"[\u4e00-\u9fff]{2,6}?(?:市|县|区|镇|乡)")


def _place_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """A place fact ("born in Andersonfort, Alabama", "总部位于黑龙江省哈尔滨市") whose own name the answer never says,
    where a clause about the keypoint's party (or no one), in the same frame (born, headquartered or based, committed
    or took place, lived), names another place: "born … in Kelseyhaven", "总部设在黑龙江大庆"."""
    lang, ans = scene.language, scene.answer
    places = [f.text for f in facts if f.kind == "place" and f.text]
    if not places:
        return None
    mine = set(kp_parties)
    clauses = scene.clauses_about(mine)
    for place in places:
        if lang == "zh":
            units = [u for u in _P_ZH_PLACE.findall(_P_PROVINCE.sub(" ", place)) if len(u) >= 3]
            own = units[-1] if units else None  # the most specific unit: 哈尔滨市 of 黑龙江省哈尔滨市
            if own is None or own[:-1] in ans.text and (not mine or any(own[:-1] in c.text for c in clauses)):
                continue  # (the answer names the place, unless only of another party)
            lead = kt.text[:kt.text.find(place)][-4:] if place in kt.text else ""
            provinces = [p[:-1] if p.endswith("省") else p for p in _P_PROVINCE.findall(place)]
            for c in clauses:
                for w in _zh_frame(lead) if lead else []:
                    at = c.text.find(w)
                    if at < 0:
                        continue
                    said = re.match(r"[于在为：:]?([\u4e00-\u9fff]{2,12})", c.text[at + len(w):])
                    if not said:
                        continue
                    other = said[1]
                    for prov in provinces:
                        other = other.replace(prov + "省", "").replace(prov, "")
                    other = _P_ADMIN.sub("", other)
                    if len(other) >= 2 and own[:-1] not in other and not other.startswith(("的", "地")):
                        return f"answer says {said[1]} where keypoint says {place}"
            continue
        words = [w for w in re.findall(r"[A-Z][a-z]+", place) if w.lower() not in _STOP_EN]
        if not words or re.search(rf"\b{words[0]}\b", ans.text) and (not mine or any(
                re.search(rf"\b{words[0]}\b", c.text) for c in clauses)):
            continue  # (the answer names the place, its first, most specific name, unless only of another party)
        rest = kt.text.replace(place, " ")
        frame = {_stem(w) for w in re.findall(r"[A-Za-z]+", rest)}
        kinds = [f for f in _PLACE_FRAMES_EN if f & frame]
        if not kinds:
            continue
        names = {a for e in scene.entities for a in e.aliases}
        for c in clauses:
            stems = {_stem(w) for w in re.findall(r"[A-Za-z]+", c.text)}
            if not any(f & stems for f in kinds) and (_elliptical(scene.blank(c.text)) or _P_BARE_PLACE_EN.match(c.text)):
                # "…, and B in Y", "born on July 27, 1967, in Y": the verb is the clause before's, in its sentence
                stems = {_stem(w) for w in re.findall(r"[A-Za-z]+", ans.text[ans.sentences[c.sentence][0]:c.span[0]])}
            if not any(f & stems for f in kinds):
                continue
            for m in _P_PLACE_AFTER_EN.finditer(c.text):
                other = m[1].strip(" ,")
                if other.lower() in names and _named_as_party(other, scene) or re.match(_MONTH_RE, other, re.I) or \
                        other.split()[0].lower() in _STOP_EN:
                    continue
                return f"answer says {other} where keypoint says {place}"
    return None


_P_PROVINCE = re.compile(r"[\u4e00-\u9fff]{2,8}?(?:省|自治区)")
_P_BARE_PLACE_EN = re.compile(r"\s*(?:in|at|near)\s+(?:the\s+)?[A-Z][a-z]+(?:\s+[A-Z][a-z]+){0,3}\s*[.]?\s*$")  # "…, in Y"


def _named_as_party(name: str, scene: _Scene) -> bool:
    """Is a capitalised name a party's (the question's or a keypoint's, or said by the answer other than after
    in/at/near), not a place's that only looks like a person's name ("lives in Des Moines")?"""
    if name in scene.question or any(name in kp.text.text for kp in scene.keypoints):
        return True
    return any(not re.search(r"\b(?:in|at|near)\s+(?:the\s+)?$", scene.answer.text[:m.start()])
               for m in re.finditer(re.escape(name), scene.answer.text))



def _zh_frame(lead: str) -> list[str]:
    """The words that put a place in a Chinese keypoint's frame (总部位于, 出生于, 案发地点为, 住), as they may be said."""
    if "总部" in lead or "位于" in lead:
        return ["总部位于", "总部设在", "总部在", "总部为", "位于", "设在", "坐落于"]
    if "出生" in lead or "生于" in lead:
        return ["出生", "生于"]
    if "住" in lead:
        return ["住", "居住"]
    return [lead[-2:]] if len(lead) >= 2 else []


# --- another set of ECG leads --------------------------------------------------------------------------

_P_LEAD_TOKEN = re.compile(r"aV[RLF]|V[1-6](?:\s*[～~\-–至到]\s*V?[1-6])?|Ⅰ|Ⅱ|Ⅲ|\bI{1,3}\b", re.I)
_P_LEADS_ZH = re.compile(r"((?:(?:aV[RLF]|V[1-6](?:\s*[～~\-–至到]\s*V?[1-6])?|Ⅰ|Ⅱ|Ⅲ|I{1,3})[、，,及和与\s]*)+)导联", re.I)
_P_LEADS_EN = re.compile(r"\bleads?\s+((?:(?:aV[RLF]|V[1-6](?:\s*[～~\-–]\s*V?[1-6])?|I{1,3})(?:,\s*|\s+and\s+|\s*/\s*|\s+)?)+)"
                         r"|((?:(?:aV[RLF]|V[1-6](?:\s*[～~\-–]\s*V?[1-6])?|I{1,3})(?:,\s*|\s+and\s+|\s*/\s*|\s+)?)+)\s*leads\b",
                         re.I)
_ROMAN_LEADS = {"Ⅰ": "I", "Ⅱ": "II", "Ⅲ": "III"}


def _leads(text: str, language: str) -> set[str]:
    """The ECG leads a text names before 导联 or around "leads": Ⅱ、Ⅲ、aVF; V1～V4 (each of V1 to V4)."""
    out: set[str] = set()
    pattern = _P_LEADS_ZH if language == "zh" else _P_LEADS_EN
    for m in pattern.finditer(text):
        for t in _P_LEAD_TOKEN.finditer(next(g for g in m.groups() if g)):
            tok = _ROMAN_LEADS.get(t[0], t[0]).upper().replace(" ", "")
            span = re.fullmatch(r"V([1-6])[～~\-–至到]V?([1-6])", tok)
            if span:
                out |= {f"V{i}" for i in range(int(span[1]), int(span[2]) + 1)}
            else:
                out.add(tok)
    return out


def _lead_swap(kt: _Text, scene: _Scene) -> str | None:
    """The keypoint's finding in one set of ECG leads, the answer's in another that shares none ("V1～V4导联ST段抬高"
    for "Ⅱ、Ⅲ、aVF导联ST段抬高"): another territory of the heart."""
    lang = scene.language
    ours = _leads(kt.text, lang)
    if not ours:
        return None
    theirs = _leads(scene.answer.text, lang)
    if theirs and not theirs & ours:
        return f"answer names leads {', '.join(sorted(theirs))} where keypoint names {', '.join(sorted(ours))}"
    return None



_P_AND_BETWEEN = re.compile(r"\s*(?:,\s*)?(?:and|as well as|&|和|与|及|、|以及)\s*$", re.I)


def _fact_given_to_other(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """The keypoint's category (a diagnosis, a charge) said of another party the question names, each party with
    its own: "A was diagnosed with Y and B with X" for "A was diagnosed with X". Not where the two share a
    subject ("A and B were both diagnosed with X")."""
    mine = set(kp_parties)
    if len(mine) != 1 or not scene.question:
        return None
    me = next(iter(mine))
    lang, ans = scene.language, scene.answer

    def asked(i: int) -> bool:
        return any(a in scene.question for a in scene.entities[i].aliases)

    if not scene.mentioned(me) or not asked(me):
        return None
    text = ans.text if lang == "zh" else ans.text.lower()
    siblings = [(o.text.text if lang == "zh" else o.text.text.lower()) for o in scene.others(kt)]
    for f in facts:
        if f.kind != "category" or not f.text or len(f.text) < 3:
            continue
        needle = f.text if lang == "zh" else f.text.lower()
        if any(needle in s for s in siblings):
            continue  # a category every party has (有期徒刑 in each defendant's keypoint): no one's own
        spots = [m.start() for m in re.finditer(re.escape(needle), text)
                 if not (_clause_of(ans, m.start()) or _NO_CLAUSE).refusal]
        owners = {scene.owner(p) for p in spots}
        if len(owners) != 1 or None in owners or me in owners:
            continue
        other = next(iter(owners))
        assert other is not None
        if not asked(other) or _party_kind(scene.entities[other]) != _party_kind(scene.entities[me]):
            continue
        if not any(_named_with(scene, me, other, p) for p in spots):
            return f"answer gives {f.text} to {scene.entities[other].name}"
    return None


def _named_with(scene: _Scene, me: int, other: int, pos: int) -> bool:
    """Is ``other``, the last party named before ``pos``, named together with ``me`` ("A and B were both …")?"""
    theirs = [m for m in scene.mentions if m[2] == other and m[1] <= pos]
    ours = [m for m in scene.mentions if m[2] == me and theirs and m[1] <= theirs[-1][0]]
    return bool(theirs and ours) and _P_AND_BETWEEN.fullmatch(scene.answer.text[ours[-1][1]:theirs[-1][0]]) is not None


# the head a Chinese diagnosis ends with (a general table of disease-name heads, as the INN stems are for drugs)
_P_ZH_DISEASE_HEAD = re.compile(r"(?:癌|瘤|炎|病|症|结石|积水|骨折|梗死|梗塞|出血|综合征|衰竭|感染|损伤|囊肿|息肉|增生|狭窄|疝|溃疡|"
                                r"卒中|发作|气胸|栓塞|颤动|中毒|脱位|破裂|畸形|梗阻|穿孔)$")
# words that say what a patient was diagnosed with: 诊断为X, 确诊为X, 患的是X, 诊断：X (not 患有: a history too)
_P_ZH_DIAGNOSED = re.compile(r"诊断(?:为|是|考虑为|：|:)|确诊为|诊为|患的是|所患为")
_P_ZH_NOT_THIS_DX = re.compile(r"既往|曾|以往|此前|初步|鉴别|排除|待查|[其之][父母妻夫子女]|父亲|母亲|妻子|丈夫|儿子|女儿")
_P_ZH_TERM = re.compile(r"[\u4e00-\u9fff0-9ⅠⅡⅢⅣ]+(?:[（(][^）)]{1,16}[）)])?")


def _no_bracket_tail(term: str) -> str:
    """A term without the bracket that closes it (毒性弥漫性甲状腺肿（甲亢） is 毒性弥漫性甲状腺肿)."""
    return re.sub(r"[（(][^）)]*[）)]$", "", term)


def _bigrams(text: str) -> set[str]:
    chars = re.sub(r"[^\u4e00-\u9fff]", "", text)
    return {chars[i:i + 2] for i in range(len(chars) - 1)}


def _zh_diagnosis_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """A Chinese keypoint's diagnosis (诊断为X) the answer never says, where a clause about the keypoint's party (or
    no one) says the patient was diagnosed with, or has, another disease that shares no two characters in a row with
    it ("患的是慢性胃炎" for "诊断为胆总管结石"; "NAME是腰椎间盘突出症")."""
    if scene.language != "zh" or "诊断" not in kt.text:
        return None
    ans = scene.answer
    ours = [f.text for f in facts if f.kind == "category" and f.text and _P_ZH_DISEASE_HEAD.search(
        _no_bracket_tail(f.text))]
    if not ours:
        m = re.search(r"诊断(?:为|是)([^，。；;,]+)", kt.text)
        ours = [m[1]] if m and _P_ZH_DISEASE_HEAD.search(_no_bracket_tail(m[1])) else []
    if not ours or any(o in ans.text or _no_bracket_tail(o) in ans.text for o in ours):
        return None
    mine = set(kp_parties)
    names = [a for i in mine for a in scene.entities[i].aliases if len(a) >= 2]
    ours_grams = set().union(*(_bigrams(o) for o in ours))
    asked = _bigrams(scene.question or "")
    for c in scene.clauses_about(mine):
        if any(d.refusal and d.sentence == c.sentence for d in ans.clauses) or _P_NOT_SAID.search(c.text):
            continue
        leads = [m.end() for m in _P_ZH_DIAGNOSED.finditer(c.text)]
        leads += [c.text.find(n) + len(n) + 1 for n in names if c.text.find(n + "是") >= 0]  # "NAME是腰椎间盘突出症"
        for at in leads:
            if re.match(r"[^，。；;,]{0,2}?(?:未|无|否认|不)", c.text[max(0, at - 6):at]) or _P_ZH_NOT_THIS_DX.search(
                    c.text[max(0, at - 8):at]):
                continue  # (a past, working or differential diagnosis, or a relative's, is not this one)
            term = _P_ZH_TERM.match(c.text, at)
            if term is None:
                continue
            said = _no_bracket_tail(term[0])
            if len(said) < 3 or not _P_ZH_DISEASE_HEAD.search(said) or _bigrams(said) & (ours_grams | asked):
                continue
            return f"answer says the diagnosis is {said} where keypoint says {ours[0]}"
    return None


# common occupations, a general table (the "职业" a Chinese record gives a person)
_ZH_OCCUPATIONS = ("教师", "老师", "警察", "民警", "医生", "医师", "护士", "工人", "农民", "司机", "厨师", "会计", "律师",
                   "公务员", "工程师", "程序员", "设计师", "销售员", "销售", "职员", "干部", "学生", "商人", "个体户", "保安",
                   "快递员", "外卖员", "记者", "军人", "演员", "编辑", "店员", "服务员", "清洁工", "保洁员", "电工", "木工",
                   "技术员", "经理", "文员", "售货员", "理发师", "搬运工", "渔民", "牧民", "矿工", "焊工", "无业", "自由职业者")
_ZH_SAME_OCCUPATION = (("教师", "老师"), ("警察", "民警"), ("医生", "医师"), ("职员", "员工"), ("个体户", "个体经营"),
                       ("司机", "驾驶员"), ("工人", "职工"))
_P_ZH_NOT_OWN_JOB = re.compile(r"[其之][父母妻夫子女]|父亲|母亲|妻子|丈夫|儿子|女儿|配偶|曾|原|以前|此前|退休前")
_P_ZH_OCCUPATION = re.compile(r"(?:^|(?<=[，,；;：:。\s、])|(?<=职业为)|(?<=职业是)|(?<=系)|(?<=是一名)|(?<=为一名)|(?<=从事))"
                              r"(?:一名)?(?:退休)?([\u4e00-\u9fff]{0,4}?(?:" + "|".join(_ZH_OCCUPATIONS) + r"))"
                              r"(?=[，,；;。\s、）)]|工作|$)")


def _zh_occupation_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """A Chinese keypoint's occupation (职业为X) the answer never says, where a clause about the keypoint's party
    (or no one) gives the person another occupation, standing alone in a list ("孟凯，45岁，厨师") or after 职业为, 系,
    从事 ("系退休教师" for "职业为出租车司机")."""
    if scene.language != "zh" or "职业" not in kt.text:
        return None
    m = re.search(r"职业(?:为|是)([^，。；;,]+)", kt.text)
    ours = next((f.text for f in facts if f.kind == "category" and f.text and m and f.text in m[1]), m[1] if m else None)
    ans = scene.answer
    if not ours or ours in ans.text:
        return None
    for c in scene.clauses_about(set(kp_parties)):
        if any(d.refusal and d.sentence == c.sentence for d in ans.clauses):
            continue
        for o in _P_ZH_OCCUPATION.finditer(c.text):
            said = o[1]
            if said in ours or ours in said or any(w in ours for w in _ZH_OCCUPATIONS if w in said) or any(
                    a in said and b in ours or b in said and a in ours for a, b in _ZH_SAME_OCCUPATION) \
                    or _P_ZH_NOT_OWN_JOB.search(c.text[max(0, o.start() - 6):o.start() + 2]):
                continue  # (the same job in another word; a relative's job or a former one)
            return f"answer says the occupation is {said} where keypoint says {ours}"
    return None


# the head an English diagnosis ends with: a general table of nosological suffixes and head nouns
_P_EN_DISEASE_HEAD = re.compile(
    r"(?:itis|oma|omas|osis|emia|aemia|pathy|algia|ia|ism|plasia|disease|syndrome|failure|stroke|infarction|"
    r"fibrillation|flutter|tachycardia|bradycardia|palsy|fracture|cancer|tumou?r|stones?|ulcer|hernia|infection|injury|"
    r"obstruction|stenosis|embolism|thrombosis|ha?emorrhage|ketoacidosis|diabetes|mellitus|hypertension|"
    r"pneumothorax|sepsis|shock|polyps?|cysts?|abscess|effusion|insufficiency|exacerbation|dissection|aneurysm|"
    r"lithiasis|calculus|calculi)$", re.I)
_P_EN_DIAGNOSED = re.compile(r"\b(?:diagnosed with|diagnosis (?:was|is|of)|diagnosis:|diagnosed as having)\s+(?:an?\s+|the\s+)?",
                             re.I)
# heads general enough to name the keypoint's disease in other words ("a lower respiratory tract infection" for
# pneumonia), and the words for stones (gallstones, cholelithiasis, calculi)
_P_EN_GENERIC_HEAD = re.compile(r"infection|disease|disorder|syndrome|condition|injury|illness", re.I)
_P_EN_STONE = re.compile(r"stones?$|lithiasis$|calcul(?:us|i)$", re.I)
_P_ROW_COLON = re.compile(r"\s*:\s*")
_P_EN_TERM = re.compile(r"[A-Za-z][A-Za-z'’-]*(?:\s+(?!and\b|with\b|on\b|at\b|in\b|after\b|for\b|while\b|whereas\b|"
                        r"but\b|which\b|who\b)[A-Za-z][A-Za-z'’-]*){0,5}")


def _en_diagnosis_swap(kt: _Text, scene: _Scene, kp_parties: list[int], facts: list[KeypointFact]) -> str | None:
    """An English keypoint's diagnosis ("A was diagnosed with X") the answer never says, where the answer says of
    the keypoint's party (or of no one) that the diagnosis was another disease sharing no word with it ("diagnosed
    with appendicitis"; where the question asks for the diagnosis, a row "A: pulmonary embolism"). Not "A had X":
    a history or another condition as often as the diagnosis."""
    if scene.language != "en" or "diagnos" not in kt.text.lower():
        return None
    ans = scene.answer
    ours = [f.text for f in facts if f.kind == "category" and f.text]
    if not ours:
        m = re.search(r"\bdiagnos(?:ed with|is (?:was|is|of))\s+(?:an?\s+)?([^,.;]+)", kt.text, re.I)
        ours = [m[1]] if m else []
    said = scene.blank(ans.masked)
    if not ours or any(_coverage(_content_tokens(o, "en"), said, "en") >= 0.5 for o in ours):
        return None
    own = {w for o in ours for w in _content_tokens(o, "en")}
    asked = set(_content_tokens(scene.question or "", "en"))
    leads: list[tuple[int, int]] = [(m.start(), m.end()) for m in _P_EN_DIAGNOSED.finditer(ans.text)]
    if "diagnos" in (scene.question or "").lower():
        leads += [(q, m.end()) for _, q, i in scene.mentions
                  if i in kp_parties and (m := _P_ROW_COLON.match(ans.text, q))]  # a row "A: X"
    mine = set(kp_parties)
    for start, at in leads:
        clause = _clause_of(ans, at) or _clause_of(ans, start)
        if clause is None or clause.refusal or _P_NOT_SAID.search(clause.text):
            continue
        named = scene.parties(start)
        if mine and named and not named & mine:
            continue  # said of another party
        if re.search(r"\b(?:not|no|never|ruled out)\b", ans.text[max(0, start - 16):start], re.I):
            continue
        term = _P_EN_TERM.match(ans.text, at)
        if term is None or not _P_EN_DISEASE_HEAD.search(head := term[0].split()[-1]) \
                or _P_EN_GENERIC_HEAD.fullmatch(head) or (_P_EN_STONE.search(head) and any(
                    _P_EN_STONE.search(o) for o in ours)):
            continue  # ("a chest infection", "gallstones" for cholelithiasis: maybe the keypoint's, said otherwise)
        words = set(_content_tokens(term[0], "en"))
        if not words or words & own or words <= asked:
            continue
        return f"answer says the diagnosis is {term[0]} where keypoint says {ours[0]}"
    return None
