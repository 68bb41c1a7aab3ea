"""Polarity: negation, reversed direction, opposite words and comparisons.

A keypoint is Wrong when the answer says its topic did not happen ("did not grow", 否认), states the reverse
direction (fell for rose) or the opposite member of an exclusive pair (benign for malignant, 阴性 for 阳性),
or the other sex. A statement that something was not mentioned is not a denial."""

from __future__ import annotations

import re

from dragonforge.judge.analysis import _Text
from dragonforge.judge.scene import _kp_words, _Scene, _unnamed
from dragonforge.judge.values import Value
from dragonforge.judge.words import _P_DIR_WORD_EN, _STOP_EN, _frame_tokens, _has_word, _share, _stem

# --- direction and polarity ----------------------------------------------------------------------

_UP, _DOWN = 1, -1
_DIRECTION_EN = {**{w: _UP for w in "increase increased increases increasing grew grow grows growth rose rise rises "
                    "risen rising up gain gained climbed climb jumped surged expanded higher-than enlarged enlarging raised boosted"
                    .split()},
                 **{w: _DOWN for w in "decrease decreased decreases decreasing decline declined declines declining "
                    "fell fall falls fallen falling drop dropped drops down reduced reduction shrank contracted "
                    "slipped shrunk shrinking cut cuts cutting reduce reduces reducing lowered slashed trimmed".split()}}
_DIRECTION_ZH = [(re.compile(r"增长|上升|提高|增加|上涨|增至|升高|升至|提升|扩大"), _UP),
                 (re.compile(r"下降|减少|降低|下滑|下跌|减至|降至|缩小|回落"), _DOWN)]
_OPPOSITES_EN = [("above", "below"), ("positive", "negative"), ("benign", "malignant"), ("lighter", "heavier"),
                 ("mitigated", "aggravated"), ("lenient", "severe"), ("qualified", "unqualified"),
                 ("approved", "rejected"), ("guilty", "innocent"), ("accepted", "rejected"), ("passed", "rejected"),
                 ("approved", "voted down"),
                 # superlatives: which end of a ranking
                 ("largest", "smallest"), ("biggest", "smallest"), ("highest", "lowest"), ("longest", "shortest"),
                 ("oldest", "youngest"), ("earliest", "latest"), ("maximum", "minimum"),
                 # which side of a deal
                 ("acquired", "sold"), ("bought", "sold"), ("purchased", "sold"), ("acquisition", "sale"),
                 ("convicted", "acquitted"), ("upper", "lower"), ("elevation", "depression"),
                 ("enlarged", "normal-sized"), ("dilated", "normal-sized"),
                 # the time of day a dose is taken
                 ("nightly", "morning"), ("bedtime", "morning"), ("evening", "morning")]
_OPPOSITES_ZH = [("从轻", "从重"), ("减轻", "加重"), ("阳性", "阴性"), ("良性", "恶性"), ("无前科", "有前科"),
                 ("初犯", "累犯"), ("高于参考", "低于参考"), ("偏高", "偏低"), ("升高", "降低"), ("同意", "反对"),
                 ("批准", "驳回"), ("盈利", "亏损"), ("无罪", "有罪"), ("参考范围内", "低于参考"), ("参考范围内", "高于参考"),
                 ("正常范围内", "低于正常"), ("正常范围内", "高于正常"), ("参考范围内", "超出参考范围"),
                 ("参考范围内", "超过参考范围"), ("正常范围内", "超出正常范围"),
                 ("最大", "最小"), ("最高", "最低"), ("最多", "最少"), ("最长", "最短"), ("最早", "最晚"),
                 ("收购", "出售"), ("买入", "卖出"), ("增持", "减持"), ("上腹", "下腹"),
                 ("Ⅰ型", "Ⅱ型"), ("I型", "II型"), ("1型", "2型"), ("左侧", "右侧"), ("左肺", "右肺"), ("上叶", "下叶"), ("上叶", "中叶"), ("中叶", "下叶"), ("抬高", "压低"),
                 ("审议通过", "否决"), ("控制不佳", "控制良好"), ("控制欠佳", "控制良好"),
                 ("睡前", "晨起"), ("每晚", "每晨"), ("睡前", "早晨"), ("每晚", "早晨")]


def _direction(text: str, language: str) -> int:
    """+1 for growth words, -1 for decline words, 0 for none or both."""
    if language == "zh":
        found = {sign for pattern, sign in _DIRECTION_ZH if pattern.search(text)}
    else:
        found = {_DIRECTION_EN[w] for w in _P_DIR_WORD_EN.findall(text.lower()) if w in _DIRECTION_EN}
    return found.pop() if len(found) == 1 else 0


_P_ZH_NO = re.compile(r"没有|并无|未有|没")


_P_SIDE_EN = re.compile(r"\b(left|right)\s+([a-z]+(?:\s+[a-z]+)?)")


def _other_side(kp: str, answer: str, language: str) -> str | None:
    """The keypoint's side of a body part said as the other side ("左髋部着地" for "右髋部着地", "the left pleural
    space" for "the right pleural space"), where the answer never says the keypoint's side of it."""
    if language == "zh":
        for m in re.finditer(r"([左右])([\u4e00-\u9fff]{1,2})", kp):
            other = ("右" if m[1] == "左" else "左") + m[2]
            if other in answer and m[0] not in answer:
                return f"answer says {other} where keypoint says {m[0]}"
        return None
    for m in _P_SIDE_EN.finditer(kp):
        part = m[2].split()[0]
        if part in ("and", "or", "to", "of", "in", "on", "side", "sided"):
            continue
        other = ("right" if m[1] == "left" else "left") + " " + part
        if re.search(rf"\b{other}\b", answer) and not re.search(rf"\b{m[1]} {part}\b", answer):
            return f"answer says {other} where keypoint says {m[1]} {part}"
    return None


_P_SUBTYPE = re.compile(r"([\u4e00-\u9fff]{2,}|\b[A-Za-z]{4,})\s?([A-Z])(?![A-Za-z])")


def _other_subtype(kp: str, answer: str) -> str | None:
    """A term's lettered subtype said as another ("肌钙蛋白T" for "肌钙蛋白I", "hepatitis C" for "hepatitis B"), where the
    answer never says the keypoint's."""
    for m in _P_SUBTYPE.finditer(kp):
        stem = m[1][-4:] if re.match(r"[\u4e00-\u9fff]", m[1]) else m[1]
        if m[0] in answer or re.search(rf"{re.escape(stem)}\s?{m[2]}(?![A-Za-z])", answer, re.I):
            continue
        other = re.search(rf"{re.escape(stem)}\s?([A-Z])(?![A-Za-z])", answer, re.I if not re.match(r"[\u4e00-\u9fff]", stem) else 0)
        if other and other[1] != m[2]:
            return f"answer says {other[0]} where keypoint says {m[0]}"
    return None


# the words that place a reading against its reference range (their pairs are left out where the reading's own
# status already agrees: "白细胞计数…，正常" beside "…均高于参考范围")
_P_STATUS_WORD = re.compile(r"参考|正常|偏高|偏低|升高|降低|\b(?:above|below|normal|elevated)\b")


def _opposite_word(kp: str, answer: str, language: str, statuses: bool = True) -> str | None:
    """Why ``answer`` says the opposite: a polar word of the keypoint whose opposite (not itself) it uses (without
    ``statuses``, no pair that places a reading against its range)."""
    low_kp, low_ans = (kp, answer) if language == "zh" else (kp.lower(), answer.lower())
    if language == "zh":  # 没有前科 is 无前科, not 有前科
        low_kp, low_ans = _P_ZH_NO.sub("无", low_kp), _P_ZH_NO.sub("无", low_ans)
    side = _other_side(low_kp, low_ans, language) or _other_subtype(kp, answer)
    if side:
        return side
    pairs = _OPPOSITES_ZH if language == "zh" else _OPPOSITES_EN
    for a, b in pairs:
        if not statuses and (_P_STATUS_WORD.search(a) or _P_STATUS_WORD.search(b)):
            continue
        if _has_word(low_kp, a, language) and _has_word(low_kp, b, language):
            continue  # the keypoint says both ("morning and evening"): no one side to contradict
        for mine, other in ((a, b), (b, a)):
            if _has_word(low_kp, mine, language) and _has_word(low_ans, other, language) \
                    and not _has_word(low_ans, mine, language) \
                    and not (language == "zh" and re.search(rf"(?:避免|勿|不宜|禁止|不要){re.escape(other)}", low_ans)):
                return f"answer says {other} where keypoint says {mine}"  # (not "避免睡前服用": a time to avoid)
    return None


# --- comparatives --------------------------------------------------------------------------------

_MORE, _LESS = 1, -1
_CMP_EN = {**{w: _MORE for w in "more larger bigger greater higher longer older later after exceeded exceeds "
              "heavier costlier".split()},
           **{w: _LESS for w in "less fewer smaller lower shorter younger earlier before sooner first lighter "
              "cheaper precedes preceded precede predates predated predate".split()},
           **{w: _MORE for w in "postdates postdated".split()}}
_P_CMP_EN = re.compile(r"\b(" + "|".join(_CMP_EN) + r")\b", re.I)
_P_NOT_IN_TIME = re.compile(r"\s+(?:tax|deducting|income|the\b|(?:this|that|a|an)\s+"
                            r"(?:court|judge|tribunal|panel|bench)\b|(?:a|an)\s+\d+[- ](?:day|week|month|year|hour)|"
                            r"\d+\s+(?:days?|weeks?|months?|years?|hours?)\b)")  # ("after an 11-day stay": no order)
_P_OUTDO_EN = re.compile(r"\bout-?(?:earn|perform|sell|sold|pac|grew|grow|number|spen|last)[a-z]*",
                         re.I)  # "out-earned": more
_P_CMP_ZH = re.compile(r"(?:更|较|比较|略|稍|要)(年轻|年长|高|低|多|少|大|小|长|短|早|晚|快|慢|久|靠前|靠后)|([高低多少大小长短早晚])于|"
                       r"(年长|年轻)(?=约?[\d一二三四五六七八九十两半]|[，。；,;]|$)|"
                       r"(?<![\u4e00-\u9fff][大小多少高低长短])([早晚])了?(?=约?[\d一二三四五六七八九十两半]+[年个天日周])|"
                       r"(在先|在前|率先|先于|在后|后于)|(先)(?=出院|入院|召开|发生|作出|完成|成立|上市|就诊|手术|批准|审议|举行|作案|审理|判决|开庭|被|起诉|提起|宣判|受理|"
                       r"立案|披露|逮捕|拘留)|"
                       r"(?<!者相)(?<!人相)(?<!方相)比(?![例较重率对赛])(?:[^，。；,;\d（(]|[（(][^）)]{0,16}[）)]){1,20}?(?:更|还)?(年轻|年长|高|低|多|少|大|小|长|短|早|晚|快|慢)")
_P_TIMES_AS_EN = re.compile(r"\b(?:\d+(?:\.\d+)?\s+times|twice)\s+as\s+(?:much|many|large|high|long|big)\b", re.I)
_ZH_CMP_SIGN = {"年轻": _LESS, "年长": _MORE, "高": _MORE, "低": _LESS, "多": _MORE, "少": _LESS, "大": _MORE,
                "小": _LESS, "长": _MORE, "短": _LESS, "早": _LESS, "晚": _MORE, "快": _LESS, "慢": _MORE,
                "靠前": _LESS, "靠后": _MORE, "久": _MORE, "在先": _LESS, "在前": _LESS, "率先": _LESS, "先于": _LESS,
                "在后": _MORE, "后于": _MORE, "先": _LESS}


_P_NOT_BEFORE_CMP_EN = re.compile(r"(?:\bnot|n't|\bnever)\s+(?:(?!(?:because|since|as|when|while|so|and|but|until|"
                                  r"which|who|that)\b)[\w']+\s+){0,4}$", re.I)  # "was not higher", "isn't any later",
# "did not leave hospital before"
_P_NOT_BEFORE_CMP_ZH = re.compile(r"(?:并不|不|并没有|没有|并非|并未|未)(?:是)?$")  # "并不高于", "不比…高", "并不是更早的"


_P_NOT_BEYOND = re.compile(r"(?:未|没有|没|不|并未)(?:超出|超过|高于|低于)|\bnot\s+(?:above|below|outside|beyond)\b", re.I)
_P_NOT_AS_ZH = re.compile(r"(?:没有|不如)(?!出现|发生|明显|任何|见)[^，。；,;]{1,10}?(?:那么|这么)?"
                          r"(年轻|年长|快|慢|高|低|多|少|大|小|长|短|早|晚)(?![\u4e00-\u9fff]{0,1}[于期度搏])")  # ("没有乙快": 甲 is the slower; not 没有高于)


def _negated_comparison(text: str, language: str) -> bool:
    """Does ``text`` deny a comparison ("并不比乙年轻", "没有乙快", "was not earlier than B")?"""
    if language == "zh" and _P_NOT_AS_ZH.search(text):
        return True
    plain = _ZH_CMP_SIGN if language == "zh" else _CMP_EN
    return any(word in plain and sign != plain[word] for _, sign, word in _comparatives(text, language))


def _comparatives(text: str, language: str) -> list[tuple[int, int, str]]:
    """(position, sign, word) of each comparative: sign +1 more/later/higher, -1 less/earlier/lower; a negated
    one ("was not higher", "并不高于", "不比…高") has the other sign."""
    out = []
    if language == "zh":
        not_as = [(m.start(), m.end(), m[1]) for m in _P_NOT_AS_ZH.finditer(text)]
        for m in _P_CMP_ZH.finditer(text):
            word = next(g for g in m.groups() if g)
            sign = _ZH_CMP_SIGN[word]
            if any(a <= m.start() < b for a, b, _ in not_as):
                sign = -sign  # "没有乙年轻"
            elif _P_NOT_BEFORE_CMP_ZH.search(text[max(0, m.start() - 4):m.start()]):
                sign = -sign
            out.append((m.start(), sign, word))
        for a, b, word in not_as:
            if not any(a <= p < b for p, _, _ in out):
                out.append((b - len(word), -_ZH_CMP_SIGN[word], word))
        out.sort()
    else:
        for m in _P_CMP_EN.finditer(text):
            word = m[1].lower()
            if word == "first":
                rest = text[m.end():m.end() + 20]
                if re.match(r"\s+(?!on\b|in\b|at\b|by\b|with\b|and\b|among\b|of\b)[A-Za-z]", rest):
                    continue  # "its first extraordinary general meeting" is an ordinal, not a comparison
            if word in ("before", "after") and _P_NOT_IN_TIME.match(text, m.end()):
                continue  # "before tax", "prosecuted before this court": not an order in time
            sign = _CMP_EN[word]
            out.append((m.start(), -sign if _P_NOT_BEFORE_CMP_EN.search(text[max(0, m.start() - 40):m.start()])
                        else sign, word))
        out += [(m.start(), _MORE, "more") for m in _P_OUTDO_EN.finditer(text)]
        out += [(m.start(), _MORE, "more") for m in _P_TIMES_AS_EN.finditer(text)]  # "3.8 times as much"
        out.sort()
    return out


_P_NEGATION_EN = re.compile(r"\b(?:no|not|never|none|denies|denied|deny|without|neither|nor|unremarkable|ruled out|"
                            r"rules out|rule out|"
                            r"free of|negative for|declined to|absence of|absent|acquitted)\b|n't\b|\bnon-(?=[a-z])", re.I)
# (不 inside a term is no negation: 尿不尽, 胸闷不适, 不良反应, 心律不齐, 食欲不振; nor 无: 无创, 肢体无力)
_P_NEGATION_ZH = re.compile(r"否认|没有|并未|尚未|未(?!来|成年|婚)|不(?!同|但|仅|过(?!敏)|久|少|断|足(?!以)|等|论|限|尽|适|良|全|齐|规则|清|振|畅|宁|稳|均)|无(?!锡|期|创|菌|保留|偿|息|限|机|线|力|故|事生非)|"
                            r"非(?!常|法|凡|典型)|阴性|不成立|宣告.{0,4}无罪")
# "not disclosed", "未在资料中披露": a clause saying the information is missing, not a denial
_P_NOT_SAID = re.compile(r"(?:未|没有|不|并未)[^，。；]{0,8}(?:提及|披露|记载|说明|找到|显示|给出|列明|提到|写明|注明|载明)|"
                         r"(?:不太|不|并不|无法)(?:确定|清楚)|"  # (unsure: 我不太确定, 无法确定)
                         r"(?:资料|记录|文件|文档|报告|材料|病历|文书)[^，。；]{0,4}未见|未见[^，。；]{0,16}(?:数据|信息|记载)|"
                         r"\b(?:not|n't|no)\b(?:\s+\w+){0,3}\s+(?:mention|state|disclos|record|specif|provid|report|"
                         r"give(?!n\s+(?!in\b|by\b|there\b)[a-z])|list|found(?!\s*[.;,]|\s+(?:at|on|during)\b)|"
                         r"availab)|\bno\s+(?:information|details?|data|records?|mention)\b(?:\s+\w+){0,3}\s+found",
                         re.I)  # ("not given X": X withheld; "with no stones found." denies the stones)


def _negated(text: str, language: str) -> bool:
    return bool((_P_NEGATION_ZH if language == "zh" else _P_NEGATION_EN).search(text))


def _topic_negated(kt: _Text, scene: _Scene, kp_parties: list[int], unnamed_too: bool = False) -> str | None:
    """The answer's clause on the keypoint's topic says the opposite: negated where the keypoint
    affirms ("the loan was not repaid" for "the loan was repaid", 宣告无罪 for a conviction) or affirmed
    where it denies (有某药物过敏史 for 否认药物过敏史). The topic: the keypoint's head word (its last content word) or most of
    its words, in a clause that names the keypoint's party when it names one (``unnamed_too``: or no one)."""
    lang, ans = scene.language, scene.answer
    body = re.sub(r"^\s*\d+[.、)]\s*", "", kt.masked)
    negation = _P_NEGATION_ZH if lang == "zh" else _P_NEGATION_EN
    if "negated" not in scene._memo:
        scene._memo["negated"] = bool(negation.search(ans.masked))
    if not scene._memo["negated"] and not negation.search(body):
        return None  # nothing negated on either side
    kp = [s for s, _ in _frame_tokens(_unnamed(scene, body), lang)]
    if not kp:
        return None
    head = kp[-1]
    # the keypoint's own polarity is its head's clause's ("..., and no masses on palpation" denies the
    # masses, not the examination's other findings)
    parts = [p for p in re.split(r"[,;，；]", body) if p.strip()]
    head_part = next((p for p in reversed(parts) if head in {s for s, _ in _frame_tokens(_unnamed(scene, p), lang)}),
                     body)
    kp_neg = _negated(head_part, lang)
    target = head
    after: tuple[tuple[str, str], ...] = ()
    if kp_neg:  # what the keypoint denies: the first content word after its negation ("no masses")
        m = (_P_NEGATION_ZH if lang == "zh" else _P_NEGATION_EN).search(head_part)
        after = _frame_tokens(_unnamed(scene, head_part[m.end():]), lang) if m else ()
        target = after[0][0] if after else head
    mine = set(kp_parties)
    flips = []
    clauses = []
    kp_cmp = {w.lower() for _, _, w in _comparatives(body, lang)}
    for c in ans.clauses:
        if c.refusal:
            continue
        named = scene.parties(c.span[0]) if mine else set()
        if mine and not named & mine and (named or not unnamed_too):
            continue
        text = ans.masked[c.span[0]:c.span[1]]
        if _P_NOT_BEYOND.search(text):
            continue  # "没有超出参考范围": a reading's status said by a negation, not a denial
        seg = ans.masked[c.span[0]:c.span[1] + 3]  # (a clause may end at its 晚于)
        if _negated_comparison(seg, lang) and not {w for _, _, w in _comparatives(seg, lang)} & kp_cmp:
            continue  # a negated comparison ("并不比乙年轻", "没有乙快") denies the comparison, not the reading (unless
            # the keypoint's own term is the comparative: "did not justify a lighter sentence")
        clauses.append((c, text, {s for s, _ in _frame_tokens(_unnamed(scene, text), lang)}))
    for part in parts:  # what the keypoint denies ("否认高血压、糖尿病病史"), the answer must not affirm
        m = negation.search(part)
        if not m or _P_NOT_SAID.search(part):
            continue
        denied = part[m.end():]
        if lang == "en":  # what is denied ends where a preposition starts its place: "no nodules | on rectal exam"
            denied = re.split(r"\b(?:on|in|at|during|from|after|before|over|under|within)\b", denied, maxsplit=1)[0]
        items = [w for w, _ in _frame_tokens(_unnamed(scene, denied), lang)]
        if not items:
            continue
        for c, text, toks in clauses:
            here = [w for w in items if (w in text if lang == "zh" else w in toks)]  # zh: 哮喘 in 哮喘病史
            if len(toks) > 1 and (items[-1] in here or len(here) >= 2) and not negation.search(text) \
                    and not _P_NOT_SAID.search(text):  # (a bare label, "过敏史：", says nothing yet)
                return f"answer states what keypoint denies: {c.text.strip()[:60]}"
    if not negation.search(body):  # a keypoint that negates nothing: none of its words may be denied
        for c, text, toks in clauses:
            if _P_NOT_SAID.search(text) or not negation.search(text):
                continue
            if any(w in toks and len(w) >= 4 and _negated_near(text, {w}, lang, strict=True) for w in kp) \
                    and not _denies_another_keypoint(scene, kt, text, set(kp)):
                return f"answer denies what keypoint states: {c.text.strip()[:60]}"  # "alert but not flushed"
            strong = _P_STRONG_NOT_ZH.search(text) if lang == "zh" else None
            if strong:  # 并不从事X: a strong negation over two of the keypoint's words in a row
                said = [s for s, _ in _frame_tokens(_unnamed(scene, text[strong.end():strong.end() + 16]), lang)]
                if any(a in kp and b in kp and len(a) >= 2 and len(b) >= 2 for a, b in zip(said[:3], said[1:4],
                                                                                            strict=False)) \
                        and not _denies_another_keypoint(scene, kt, text, set(kp)):
                    return f"answer denies what keypoint states: {c.text.strip()[:60]}"
    # a clause that says all of a keypoint of two or more words speaks for it over one that says only its head
    # ("董事会由9名董事组成，但其中没有独立董事" for "其中独立董事3名")
    whole = [x for x in clauses if len(kp) >= 2 and all(w in x[2] for w in kp)]
    affirmed, flip_share = -1.0, -1.0
    for c, text, toks in whole or clauses:
        share = sum(1 for s in kp if s in toks) / len(kp)
        if lang == "zh" and head not in toks and len(head) >= 2:  # 辩护人 says the keypoint's 辩护
            toks = toks | {head for t in toks if t[:-1] == head and t[-1] in "人者员方"}  # (not 董事会 for 董事)
        if not (head in toks or (share >= 0.6 and len(kp) >= 2)) or len(toks) <= 1 and not _negated(text, lang):
            continue  # off the topic, or a bare label ("史：") whose value is the next clause
        if _P_NOT_SAID.search(text):
            continue  # says it is not in the documents: a refusal, not a denial
        # the denied word the answer has: "no known drug allergies" is said by "denies any drug allergies"
        target_here = next((w for w, _ in after if w in toks), target)
        near = {target_here} if target_here in toks else {head} if head in toks else set(kp)
        if lang == "zh" and not kp_neg and share >= 0.5:  # a denial of any of the keypoint's words here denies it: "无尿不尽感及尿后滴沥" for "伴有尿不尽感及尿后滴沥"
            near |= {w for w in kp if w in toks and len(w) >= 2}
        if _negated_near(text, near, lang) == kp_neg:
            affirmed = max(affirmed, share)  # the answer says it the keypoint's way round here
            continue
        if _denies_another_keypoint(scene, kt, text, set(kp)):
            continue  # "生于DATE，但并非出生于PLACE": the denial is the other keypoint's (its place), not this one's
        flips.append(c.text.strip())
        flip_share = max(flip_share, share)
    if affirmed >= 0 and (not flips or affirmed >= flip_share):
        return None  # (said the keypoint's way round where it says as much of it as any denial does)
    if not flips and not kp_neg and len(parts) > 1:
        # one part of a keypoint of several, denied by its head where no clause affirms it ("股票在X上市，证券代码为N":
        # "公司股票也没有在X上市")
        for part in parts:
            ptoks = [s for s, _ in _frame_tokens(_unnamed(scene, part), lang)]
            if len(ptoks) < 2 or negation.search(part):
                continue
            hits = [(c, text) for c, text, toks in clauses if ptoks[-1] in toks
                    and sum(1 for w in ptoks if w in toks) >= 1 and not _P_NOT_SAID.search(text)]
            denying = [(c, text) for c, text in hits if _negated_near(text, {ptoks[-1]}, lang)]
            if denying and len(denying) == len(hits) and not _denies_another_keypoint(scene, kt, denying[0][1], set(kp)):
                flips.append(denying[0][0].text.strip())
                break
    if not flips and not kp_neg:
        # the keypoint's topic (its first word: 缓刑 of 缓刑考验期, 辩护人 of 辩护人系…; a procedure's kind, 手术) denied
        # outright in a clause about its party: "未宣告缓刑", "未委托辩护人", "未接受手术"
        topic_words = {kp[0]} if len(kp[0]) >= 2 and len(kp) <= 3 else set()  # (a short keypoint's first word)
        if lang == "zh" and any(w.endswith("术") for w in kp):
            topic_words.add("手术")
        procedure = lang == "en" and any(_P_PROCEDURE_EN.search(w) for w in re.findall(r"[a-z]+", body.lower()))
        for c, text, toks in clauses:
            if procedure and _P_NO_OPERATION_EN.search(text) and not _P_NOT_SAID.search(text):
                flips.append(c.text.strip())  # "had no operation during this stay" for "underwent X-ectomy"
                break
            found = {w for w in topic_words if w in toks}
            if found and not _P_NOT_SAID.search(text) and _negated_near(text, found, lang, strict=True) \
                    and not _denies_another_keypoint(scene, kt, text, set(kp)):
                flips.append(c.text.strip())
                break
    if flips:
        return ("answer denies what keypoint states" if not kp_neg else "answer states what keypoint denies") + \
            f": {flips[0][:60]}"
    return None


# a value said not to exist: a negation a few words before the value's label ("no training hours", 未收取任何对价,
# "none of whom is independent"), or "was zero/nil" after it
_P_NONE_BEFORE_EN = re.compile(r"\b(?:no|none|zero|nil|without|never)\b(?:\W+\w+){0,3}\W*$", re.I)
_P_NONE_AFTER_EN = re.compile(r"^(?:\W+\w+){0,4}?\W+(?:was|were|is|are|stood at|came to)\s+(?:zero|nil|none|(?<![\d.])0(?![.\d]))\b",
                              re.I)
_P_NONE_BEFORE_ZH = re.compile(r"(?:没有|未(?!来|成年|婚)|并无|并未|无(?![锡期创菌偿息限机线力故形])|不存在|[均都全](?:非|不是))"
                               r"[^，。；;,\d]{0,4}$")  # (均不是执行董事: none of them is one)
_P_NONE_AFTER_ZH = re.compile(r"^[^，。；;,\d]{0,4}?(?:为|是)?(?:零|(?<![\d.])0|空白)(?![.\d])")


def _value_said_none(scene: _Scene, words: tuple[str, ...], mine: set[int]) -> str | None:
    """The words that label a keypoint's value (its own, none of another keypoint's), said in a clause about its
    party with a negation before them or "zero" after: the answer says the value does not exist ("there were no
    training hours to report", "公司未收取任何对价", "没有证券代码"). Not a clause that says the value is missing."""
    lang = scene.language
    if not words:
        return None
    before_p, after_p = (_P_NONE_BEFORE_ZH, _P_NONE_AFTER_ZH) if lang == "zh" else (_P_NONE_BEFORE_EN, _P_NONE_AFTER_EN)
    for c in scene.clauses_about(mine):
        if _P_NOT_SAID.search(c.text) or _P_NOT_BEYOND.search(c.text):
            continue
        spots = [(w, t) for t, w in _frame_tokens(c.text, lang) if t in words] if lang == "en" else \
            [(w, w) for w in words if w in c.text]  # (a Chinese label by its characters: jieba may cut 对价为 as 对/价为)
        if not spots or len({t for _, t in spots}) * 2 < len(words) or words[-1] not in {t for _, t in spots}:
            continue  # (most of the label, with its head: "training hours", not "employees" alone)
        low = c.text if lang == "zh" else c.text.lower()
        at = [(low.find(w if lang == "zh" else w.lower()), len(w)) for w, _ in spots]
        at = [(a, n) for a, n in at if a >= 0]
        if not at:
            continue
        first, last = min(a for a, _ in at), max(a + n for a, n in at)
        if before_p.search(low[:first]) or after_p.search(low[last:]):
            return f"answer says there is none: {c.text.strip()[:60]}"
    return None


# an allergy the keypoint states, and the answer's denial of any ("否认药物及食物过敏史", "no known drug allergies")
_P_ALLERGY_KP = {"zh": re.compile(r"过敏史|过敏"), "en": re.compile(r"\ballerg(?:y|ic|ies)\b", re.I)}
_P_ALLERGY_DENIED = {"zh": re.compile(r"(?:否认|无|没有|未见|并无)[^，。；;]{0,10}过敏史|(?:对[^，。；;]{0,10})?(?:均|都)?不过敏"),
                     "en": re.compile(r"\b(?:no|denies|denied|without)\s+(?:known\s+|any\s+)?(?:drug\s+|food\s+|medication\s+)?"
                                      r"(?:or\s+(?:drug|food)\s+)?allerg(?:y|ies)\b|\bnkda\b|\bnot allergic\b", re.I)}


def _allergy_denied(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint states an allergy (有磺胺类药物过敏史, "an allergy to pollen"); a clause about its party denies any
    ("否认药物及食物过敏史", "no known drug allergies"), and the answer affirms no allergy."""
    lang = scene.language
    kp = kt.text if lang == "zh" else kt.text.lower()
    if not _P_ALLERGY_KP[lang].search(kp) or _P_ALLERGY_DENIED[lang].search(kp):
        return None
    if lang == "zh" and re.search(r"(?:否认|无|没有)[^，。；]{0,10}过敏", kp):
        return None  # (the keypoint itself denies one)
    rest = _P_ALLERGY_DENIED[lang].sub(" ", scene.blank(scene.answer.text))
    if _P_ALLERGY_KP[lang].search(rest):
        return None  # an allergy said elsewhere ("无食物过敏，有青霉素过敏史")
    for c in scene.clauses_about(set(kp_parties)):
        text = c.text if lang == "zh" else c.text.lower()
        if _P_ALLERGY_DENIED[lang].search(text) and not _P_NOT_SAID.search(c.text):
            return f"answer denies the allergy: {c.text.strip()[:60]}"
    return None


def _denies_another_keypoint(scene: _Scene, kt: _Text, text: str, kp_words: set[str]) -> bool:
    """Does a clause deny as much of another keypoint's words as of this one's (all it denies past this keypoint's
    words being the other's)?"""
    lang = scene.language
    m = (_P_NEGATION_ZH if lang == "zh" else _P_NEGATION_EN).search(text)
    if m is None:
        return False
    denied = {s for s, _ in _frame_tokens(_unnamed(scene, text[m.end():]), lang)}
    theirs = denied - kp_words
    if not theirs:
        return False
    return any(theirs <= {w for w, _ in _frame_tokens(_unnamed(scene, sib.text.masked), lang)}
               and len(theirs) >= len(denied & kp_words) for sib in scene.others(kt))


_P_PROCEDURE_EN = re.compile(r"(?:ectomy|otomy|ostomy|plasty|pexy|rrhaphy)$|^(?:surgery|operation|resection|excision|"
                             r"amputation|transplantation)$")
# no operation at all (not "no further surgery", not "no operation on the liver")
_P_NO_OPERATION_EN = re.compile(r"\b(?:no|never had an?|did not have an?|didn't have an?|did not undergo an?|"
                                r"didn't undergo an?|without an?)\s+(?:operation|surgery|surgical procedure)\b"
                                r"(?!\s+(?:on|to|of|for|was needed|was required)\b)", re.I)


_P_RULED_OUT_ZH = re.compile(r"(?:已|均|并|予以|可以|基本)?(?:排除|除外)(?:了)?")
_P_KP_EXCLUDES_ZH = re.compile(r"排除|除外|鉴别")


def _term_ruled_out(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """A Chinese keypoint that states a term (a diagnosis) the answer says was ruled out for its party: "已排除糖尿病
    酮症酸中毒" for "诊断为1型糖尿病合并糖尿病酮症酸中毒". Only the keypoint's own term, four characters or more,
    right after 排除; a keypoint that itself excludes or weighs differentials is left to the other checks."""
    if scene.language != "zh" or _P_KP_EXCLUDES_ZH.search(kt.text):
        return None
    ans, mine = scene.answer, set(kp_parties)
    for c in ans.clauses:
        if c.refusal or not _P_RULED_OUT_ZH.search(c.text):
            continue
        if mine and not scene.parties(c.span[0]) & mine:
            continue
        for m in _P_RULED_OUT_ZH.finditer(c.text):
            rest = c.text[m.end():]
            size = next((n for n in range(min(len(rest), 12), 3, -1)
                         if rest[:n] in kt.text and re.fullmatch(r"[\u4e00-\u9fff]+", rest[:n])), 0)
            if size:
                return f"answer says {rest[:size]} was ruled out: {c.text.strip()[:40]}"
    return None


# A prior conviction, as a judgment records it, and its denial (a general legal reading, either language)
_P_PRIOR_CONVICTION = re.compile(r"曾(?:于[^，。；]{0,14})?因(?:犯)?[^，。；]{0,16}被判处|有前科|系累犯|\bprior conviction|"
                                 r"\b(?:previously|earlier|once)\b[^.;]{0,40}\b(?:convicted|sentenced)\b|"
                                 r"\bhas a (?:previous |prior )?criminal record|\brecidivist|\brepeat offender|"
                                 r"\bhad (?:a |one |two |\d+ )?(?:previous|prior) (?:convictions?|criminal record)", re.I)
_P_NO_PRIOR = re.compile(r"无前科|没有前科|无犯罪记录|没有犯罪记录|系初犯|是初犯|初犯|\bno (?:prior|previous) (?:criminal )?"
                         r"(?:record|convictions?)\b|\bno criminal record\b|\bfirst[- ]time offender\b|"
                         r"\bnever (?:been )?(?:previously )?(?:convicted|sentenced)\b", re.I)


def _prior_record_denied(kt: _Text, scene: _Scene, kp_parties: list[int]) -> str | None:
    """The keypoint records a prior conviction (曾于…因犯…被判处, "was previously sentenced"), and the answer says its
    party has none (无前科, 初犯, "no prior record")."""
    mine = set(kp_parties)
    if _P_NO_PRIOR.search(kt.text) and not _P_PRIOR_CONVICTION.search(kt.text):
        # the other way round: the keypoint says none, the answer records one ("had one prior conviction")
        for c in scene.answer.clauses:
            m = _P_PRIOR_CONVICTION.search(c.text)
            if c.refusal or not m or _P_NO_PRIOR.search(c.text) or _negated(c.text[:m.start()][-12:], scene.language):
                continue
            if mine and (named := scene.parties(c.span[0])) and not named & mine:
                continue
            return f"answer says {m.group()} where keypoint says no prior record"
        return None
    if not _P_PRIOR_CONVICTION.search(kt.text) or _P_NO_PRIOR.search(kt.text):
        return None
    for c in scene.answer.clauses:
        m = _P_NO_PRIOR.search(c.text)
        if c.refusal or not m:
            continue
        said = _P_NOT_SAID.search(c.text)
        if said and said.start() != m.start():
            continue  # "the documents do not record any prior conviction": not said, not denied ("no prior record" is)
        if mine and (named := scene.parties(c.span[0])) and not named & mine:
            continue
        return f"answer says {m.group()} where keypoint records a prior conviction"
    return None


_P_JOIN = re.compile(r"\b(?:and|or|but|with|while)\b|[,;]|和|及|与|、|并|且|但")


_P_NO_BEFORE_NAME = re.compile(r"\b(?:no|without)\b")


_P_NOT_DONE_AFTER_EN = re.compile(r"(?:\s+(?!and\b|but\b|or\b|which\b)[a-z-]+){0,3}?\s+(?:was|were|is|are|has been|had been)"
                                  r"(?:(?: not|n't) (?:given|performed|done|administered|carried out|started|prescribed|"
                                  r"used|found|seen|detected|observed|present|made)| ruled out)\b")
_P_NOT_DO_EN = re.compile(r"\b(?:declined to|refused to|failed to|did not|does not|do not|was not|were not|never)\s+"
                          r"(?:(?!and\b|but\b|or\b|which\b|who\b|while\b|although\b|of\b|despite\b|until\b|after\b|"
                          r"before\b)[a-z-]+\s+){1,3}$|\b(?:acquitted|cleared)\s+(?:[a-z-]+\s+){0,4}?of\s+$")
# "未见明显ST段抬高", "未闻及干湿性啰音": an examination's finding not seen, to the end of its phrase
_P_NOT_SEEN_ZH = re.compile(r"(?:未见|未发现|未闻及|未触及|未扪及|未探及|没有认定|未认定|不认定|不构成|未构成)"
                            r"(?:(?!诱因|后|即|遂|予|给予|行)[^，,。；;、：:])*$")  # (不构成X罪: the charge denied)


def _negated_near(text: str, topic: set[str], language: str, strict: bool = False) -> bool:
    """A negation whose scope reaches the topic: right before one of its words (three English words,
    four Chinese characters), or in Chinese right after it (罪名不成立); "had no debts and paid in
    cash" does not deny the payment, nor does 无明显诱因 deny the pain that follows."""
    pattern = _P_NEGATION_ZH if language == "zh" else _P_NEGATION_EN
    low = text if language == "zh" else text.lower()
    spans = []
    for stem, word in _frame_tokens(text, language):
        if stem in topic:
            if language == "zh" and pattern.match(word):
                return True  # jieba keeps the negation in the word: 无前科, 未见异常
            pos = low.find(word.lower() if language == "en" else word)
            if pos >= 0:
                spans.append((pos, pos + len(word)))
    if not spans:
        return bool(pattern.search(text))
    for a, b in spans:
        if language == "en" and low[max(0, a - 4):a] == "non-":
            return True  # "non-tender": the prefix denies its word
        before = low[max(0, a - 4):a] if language == "zh" else " ".join(low[:a].split()[-3:])
        if strict:  # the negation governs the word itself: nothing joins another phrase in between
            before = _P_JOIN.split(before)[-1]
        elif language == "en" and _P_NO_BEFORE_NAME.search(_P_JOIN.split(" ".join(low[:a].split()[-5:]))[-1]):
            return True  # "no left atrial appendage thrombus": "no" before a longer name, nothing joined between
        if language == "zh" and not strict and _P_NOT_SEEN_ZH.search(low[:a]):
            return True  # a finding not seen governs its whole phrase: 未见明显ST段抬高
        if language == "zh" and not strict and (_P_NOT_AT_ZH.search(low[max(0, a - 9):a])
                                                 or _P_NOT_AT_THEN_ZH.search(low[max(0, a - 20):a])):
            return True  # a place after a negated verb of place: 并非出生于X, 没有在X上市, 不在X
        if language == "en" and not strict and _P_NOT_DONE_AFTER_EN.match(low, b):
            return True  # "thrombolysis with alteplase was not given": a passive denial after its subject
        if language == "en" and not strict and _P_NOT_DO_EN.search(low[max(0, a - 60):a]):
            return True  # "declined to give an unqualified opinion": the verb's object, nothing joined between
        after = pattern.search(low, b) if language == "zh" and not strict else None  # (read past the window: 无力)
        if pattern.search(before) or (after is not None and after.start() < b + 5):
            return True
    return False


# the negations that deny a statement, not a finding (并不从事X, 并非由X提起): 无/没有/未 deny findings too often
_P_STRONG_NOT_ZH = re.compile(r"并不|并未|并非|并没有|不是|否认")
# a negation, then a verb that takes a place by 于/在 (or 在 alone): what follows is the place denied
# …and the verb after that place: 没有在上海证券交易所|上市, 未在规定期限内|缴纳
_P_NOT_AT_THEN_ZH = re.compile(r"(?:并非|并不|不是|没有|并没有|未|并未)在[^，。；,;：:]{2,14}$")
_P_NOT_AT_ZH = re.compile(r"(?:并非|并不|不是|没有|并没有|未|不)(?:[\u4e00-\u9fff]{0,3}?[于在]|在)$")


def _signed(v: Value) -> int:
    """-1 for a percentage written with a minus sign (a fall), else 0."""
    return _DOWN if v.kind == "percent" and float(v.value) < 0 else 0


_P_POLAR_ZH = re.compile("|".join(w for pair in _OPPOSITES_ZH for w in pair) + r"|无|没有|未|男|女|左|右")
_P_POLAR_EN = re.compile(r"\b(?:" + "|".join(w for pair in _OPPOSITES_EN for w in pair) +
                         r"|no|not|never|without|non|male|female|man|woman|left|right)\b", re.I)


def _polarity_clash(kp: str, words: tuple[str, ...], scene: _Scene, kp_parties: list[int]) -> str | None:
    """An answer sentence on the keypoint's topic (its party or another of its words) using the opposite polar word."""
    ans, lang = scene.answer, scene.language
    if not _P_POLAR_ZH.search(kp) if lang == "zh" else not _P_POLAR_EN.search(kp):
        return None  # no polar, negated or sexed word to contradict
    polar = {w for pair in (_OPPOSITES_ZH if lang == "zh" else _OPPOSITES_EN) for w in pair}
    topic = tuple(w for w in words if not any(p in w or w in p for p in polar)) if lang == "zh" else \
        tuple(w for w in words if w not in {_stem(p) for p in polar})
    for si in range(len(ans.sentences)):
        text = " ".join(c.text for c in ans.clauses if c.sentence == si and not c.refusal)
        clash = text and (_opposite_word(kp, text, lang) or _negation_flip(kp, text, lang) or _sex_clash(kp, text, lang))
        if not clash:
            continue
        named = scene.named_in_sentence(si)
        if kp_parties and named and not named & set(kp_parties):
            continue
        rest = tuple(w for w in topic if w not in clash.lower()) if lang == "en" else tuple(w for w in topic if w not in clash)
        if not rest or _share(rest, scene.blank(text), lang) > 0 or named & set(kp_parties):
            return clash
    return None


def _direction_clash(kt: _Text, scene: _Scene) -> str | None:
    """A clause of the answer on a keypoint clause's topic that moves the other way (增加 for 减少)."""
    lang, ans = scene.language, scene.answer
    for kc in kt.clauses:
        mine = _direction(kc.text, lang)
        if not mine:
            continue
        topic = tuple(w for w in _kp_words(kt, scene, kc.span) if not _direction(w, lang))
        if not topic:
            continue
        for c in ans.clauses:
            theirs = _direction(c.text, lang)
            if not c.refusal and theirs == -mine and _share(topic, scene.blank(c.text), lang) >= 0.5:
                return (f"reversed direction: answer says it {'rose' if theirs > 0 else 'fell'} "
                        f"where keypoint says it {'rose' if mine > 0 else 'fell'}")
    return None


_P_SEX_ZH = re.compile(r"(?:^|(?<=[，,：:为是\s（(、]))(男|女)(?:性)?(?=[，,。；;、\s)）]|$)")
_P_SEX_EN = re.compile(r"\b(male|female|man|woman)\b", re.I)


def _sex_clash(kp: str, text: str, language: str) -> str | None:
    """The keypoint says male and the answer female, or the reverse."""
    pattern = _P_SEX_ZH if language == "zh" else _P_SEX_EN
    norm = {"男": "M", "女": "F", "male": "M", "man": "M", "female": "F", "woman": "F"}
    mine = {norm[m[1].lower()] for m in pattern.finditer(kp)}
    theirs = {norm[m[1].lower()] for m in pattern.finditer(text)}
    if len(mine) == 1 and len(theirs) == 1 and mine != theirs:
        said, kept = ("女" if "F" in theirs else "男"), ("男" if "M" in mine else "女")
        if language == "en":
            said, kept = ("female" if "F" in theirs else "male"), ("male" if "M" in mine else "female")
        return f"answer says {said} where keypoint says {kept}"
    return None


_P_NEG_EN = re.compile(r"\b(?:no|not|never|without|non)\s+(?:a\s+|any\s+)?([a-z]+)")


def _negation_flip(kp: str, text: str, language: str) -> str | None:
    """The keypoint negates a word (无X / no X) that the answer asserts (有X / X)."""
    if language == "zh":
        for m in re.finditer(r"(?:无|没有|未)([\u4e00-\u9fff]{2})", kp):
            word = m[1]
            if ("有" + word) in text and not re.search(rf"(?:无|没有|未){word}", text):
                return f"answer says 有{word} where keypoint says {m[0]}"
        # one finding of a list the keypoint affirms, denied by the answer word for word ("未见胸腔积液" for
        # "右肺实变，胸腔积液，…"), where the answer never affirms it
        for part in re.split(r"[，,；;、。：:]", re.sub(r"^\s*\d+[.、)]\s*", "", kp)):
            core = re.sub(r"^(?:提示|示|可见|见|伴有|伴|并)?(?:少量|中量|大量|少许|轻度|中度|重度|明显)?", "", part.strip())
            if len(core) < 3 or not re.fullmatch(r"[\u4e00-\u9fff]+", core) or _P_NEGATION_ZH.search(part):
                continue
            denied = list(re.finditer(rf"(?:未见|未发现|未闻及|未触及|无明显|无|没有|不伴|并无){re.escape(core)}", text))
            if denied and text.count(core) == len(denied):
                return f"answer says {denied[0][0]} where keypoint says {core}"
        return None
    low = text.lower()
    for m in _P_NEG_EN.finditer(kp.lower()):
        word = m[1]
        if word in _STOP_EN:
            continue
        if re.search(rf"\b{word}\b", low) and not re.search(
                rf"\b(?:no|not|never|without|non)\s+(?:a\s+|any\s+)?(?:\w+\s+){{0,3}}{word}\b", low):
            return f"answer states {word} where keypoint says {m[0]}"
    return None
