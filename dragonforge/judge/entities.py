"""Parties: the people and organisations a text names, in English and Chinese, and how each is referred to.

An answer may shorten a name (Dr. Taylor, Tyler's, 安华饮品); ``_with_short_names`` and ``_add_entity`` make
each party one entity with all its aliases, so mentions can be attributed to the right party."""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from dragonforge.judge.words import _P_CJK, _initialised_jieba
from dragonforge.models import KeypointFact

# --- names ---------------------------------------------------------------------------------------

_ORG_WORDS_EN = {"inc", "corp", "corporation", "holdings", "holding", "group", "company", "co", "ltd", "limited",
                 "llc", "plc", "technologies", "firm", "court", "hospital", "center", "centre", "procuratorate",
                 "department", "bank", "university", "clinic", "fund", "partners", "industries", "bureau", "office",
                 "agency", "ministry", "committee", "commission", "association", "school", "institute", "restaurant",
                 "hotel", "store", "shop", "market", "exchange", "authority", "council"}
# Addresses and towns are not parties: a capitalised run that starts with a place prefix or holds an area word
# is a place, and so is one with a street word after a house number ("112 Ryan Ways"); "Mark Lane" is a person.
_PLACE_PREFIXES_EN = {"port", "new", "south", "north", "east", "west", "lake", "mount", "fort", "saint", "san", "los",
                      "las"}
_AREA_WORDS_EN = {"city", "county", "province", "state", "heights", "hills", "valley", "island", "bay", "beach",
                  "springs", "village", "town"}
# street suffixes (the common ones of the USPS list of street suffixes, less those that are also common names)
_STREET_WORDS_EN = {"harbor", "harbors", "vista", "manor", "manors", "extension", "extensions", "prairie", "shoal",
                    "shoals", "garden", "gardens", "grove", "groves", "terrace", "trail", "parkway", "pike", "pines",
                    "pine", "meadow", "meadows", "ridge", "ridges", "route", "row", "run", "spur",
                    "station", "stream", "summit", "trace", "track", "turnpike", "view", "views", "walk", "walks",
                    "corner", "corners", "creek", "crest", "court", "courts", "cove", "coves",
                    "expressway", "freeway", "highway", "junction", "knoll", "knolls", "landing", "loop", "mall",
                    "mews", "orchard", "oval", "pass", "passage", "path", "place", "point", "points", "squares",
                    "stravenue", "throughway", "trafficway", "via", "viaduct", "circle", "circles", "cliff", "cliffs",
                    "divide", "estate", "estates", "flat", "flats", "forge", "forges", "fork",
                    "forks", "hollow", "inlet", "isle", "keys", "lights", "locks",
                    "lodge", "neck", "plain", "plains", "radial", "ramp", "ranch", "rapid", "rapids", "rest",
                    "shore", "shores", "skyway", "spring", "springs", "tunnel", "union", "unions", "ville", "wall",
                    "street", "st", "avenue", "ave", "road", "rd", "lane", "drive", "crossing", "ways", "way", "fords",
                    "ford", "boulevard", "blvd", "plaza", "square", "apartment", "suite"}
_ORG_SUFFIX_EN = {"inc", "corp", "corporation", "holdings", "holding", "group", "company", "co", "ltd",
                  "limited", "llc", "plc"}
_TITLES_EN = {"the", "a", "an", "in", "on", "at", "for", "by", "from", "with", "after", "before", "during", "under",
              "according", "based", "doctor", "dr", "mr", "mrs", "ms", "miss", "judge", "prosecutor", "chief",
              "executive", "officer", "president", "chairman", "chairwoman", "director", "professor", "prof",
              "operating", "net", "total", "its", "his", "her", "their", "this", "that", "these", "those", "it",
              "he", "she", "they", "i", "we", "if", "when", "while", "although", "however", "since", "both",
              "neither", "either", "as", "of", "and", "assessor", "clerk", "people's", "attending",
              "physician", "defendant", "lawyer", "counsel", "ceo", "cfo", "mr.", "dr.", "ms.", "mrs.", "no",
              "yes", "sorry", "unable", "not", "there", "which", "who", "what", "where", "how", "why", "following",
              "each", "every", "all", "any", "some", "our", "your", "my", "one", "another", "other",
              # words that open a sentence before a name ("So Linda Shaw left first")
              "so", "thus", "therefore", "hence", "then", "also", "but", "overall", "meanwhile", "instead", "yet",
              "because", "whereas", "unlike", "between", "finally", "moreover", "furthermore", "notably", "namely",
              # hedges and adverbs that open an answer ("Probably Reed Mining …", "Likely Dana Lee")
              "probably", "perhaps", "possibly", "likely", "apparently", "presumably", "seemingly", "maybe",
              "clearly", "evidently", "certainly", "definitely", "actually", "indeed", "specifically", "only"}
_GENERIC_CAPS = set("""first second third annual extraordinary general meeting meetings shareholders board directors
committee corporate secretary chief executive operating financial officer president vice chairman director report
reports article articles section department people's court district intermediate procuratorate hospital center
medical regional university community general company inc corporation holdings group limited law firm january
february march april may june july august september october november december monday tuesday wednesday thursday
friday saturday sunday doctor dr judge prosecutor clerk assessor nasdaq nyse stock exchange new york criminal civil
law act code procedure constitution regulations rules""".split())  # laws are cited, not parties
_TITLE_HEADS_EN = {"officer", "director", "president", "secretary", "chairman", "chairwoman", "chair", "manager",
                   "counsel", "controller", "treasurer", "partner", "administrator", "superintendent", "commissioner"}
# capitalised words in a row, on one line, not past a word that ends a sentence ("… John Ayala. Oliver Mining …")
_P_CAPSEQ = re.compile(r"[A-Z][A-Za-z'’.\-]*(?:(?<![a-z][a-z][a-z]\.)[ \t]+(?:&[ \t]+)?[A-Z][A-Za-z'’.\-]*)*")

_SURNAMES = ("王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢"
             "姜崔钟谭陆汪范金石廖贾夏韦付方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤常温康施文"
             "牛樊葛邢安齐易乔伍庞颜倪庄聂章鲁岳翟殷詹申欧耿关兰焦俞左柳甘祝包宁尚符舒阮柯纪梅童凌毕单季裴霍涂成苗谷盛曲"
             "翁冉骆蓝路游辛靳管柴蒙鲍华喻祁蒲房滕屈饶解牟艾尤阳时穆农司卓古吉缪简车项连芦麦褚娄窦戚岑景党宫费卜冷晏席卫"
             "米柏宗瞿桂全佟应臧闵苟邬边卞姬师仇栾隋商刁沙荣巫寇桑郎甄丛仲虞敖巩明佘池查麻苑迟邝萧傅阎赖洪官封谈匡鞠惠"
             "荆冀郁胥班储栗燕楚鄢劳谌奚皮粟冼蔺楼满闻厉伊仝郜阚权帅屠豆朴盖练廉禹井祖漆巴丰卿狄宣晋芮扈晁阙浦戈伏鹿薄"
             "邸雍辜羊阿乌母裘亓修邰赫杭况宿鲜印逯隆茹诸慕危亢嵇哈湛宾戎茅揭尉冶束檀植衡尧"
             "乐南原盘花强支计索门云容敬普玉银公勾呼居衣展阴昝智幸奉富闭")  # (less those that are common words: 和 区 国 由 …)
_ZH_ROLES = ("被告人|被害人|患者|病人|律师|审判长|审判员|人民陪审员|陪审员|书记员|检察员|检察官|公诉人|主治医师|医师|医生|护士|"
             "董事长|总经理|财务总监|董事会秘书|独立董事|委托人|辩护人|原告|证人|主任委员|法定代表人")
_ZH_AFTER_NAME = ("的|于|为|因|更|较|作案|入院|出院|住院|被|系|是|，|。|、|；|：|和|与|及|先|在|曾|共|担任|（|\\(|获|辩护|犯|主诉|"
                  "复诊|收缩压|血压|等|律师|持股|年龄|刑期|将|已|所|之|无|有|未|不|一案|案|则|就|也|都|又|还|即|便|亦|仍|"
                  "提起|出庭|到庭|接受|判处|涉嫌|构成|签署|供述|认罪|上诉|实施|入住|就诊|手术|负责|主刀|虽|但|却|受贿|收受|贪污|挪用|"
                  "接替|继任|出任|盗窃|诈骗|抢劫|驾驶|醉酒|\\d|$")
_ZH_COPULAS = ("的是", "的为", "则是", "则为", "就是")
# characters no given name holds after the surname: function words (曾因盗窃 is "once, for theft")
_ZH_NOT_IN_NAME = set("因于被在将已曾又也都还就便仍亦即及和与的了是为其该此")
_P_ZH_PERSON = re.compile(
    rf"(?:(?:{_ZH_ROLES})(?:为|是|系)?|(?:聘任|聘请|任命|委任|接替|提名|选举|选任)|^|(?<=[，。；：、（(“\s和与及中由])|(?<=的是)|(?<=的为)|(?<=则是)|(?<=则为)|(?<=就是))"
    rf"([{_SURNAMES}][\u4e00-\u9fff]{{1,2}}?)(?={_ZH_AFTER_NAME})")
_ZH_ORG_SUFFIX = ("股份有限公司|有限责任公司|有限公司|集团|中级人民法院|人民法院|人民检察院|检察院|医院|律师事务所|"
                  "会计师事务所（特殊普通合伙）|会计师事务所|证券交易所|研究院|大学|医疗中心|"
                  "缉私局|公安局|分局|监察委员会")  # (the investigating bodies of a case are parties too)
_KIN_ZH = ("父亲", "母亲", "哥哥", "弟弟", "姐姐", "妹妹", "儿子", "女儿", "丈夫", "妻子", "父母")
_ZH_PARTICLES = "于与和及的为对在由向是被将从日月年即经其该系而但并且或自至据按以把使给称了"
_P_ZH_ORG = re.compile(rf"(?<![^\W\d_{_ZH_PARTICLES}])((?:(?![{_ZH_PARTICLES}])[\u4e00-\u9fff（）]){{2,20}}?)({_ZH_ORG_SUFFIX})")
_P_ZH_ORG_LEAD = re.compile(r"(?:[本该]?公司)?(?:负责|主要|共同|正式|已|拟|将)?(?:收购|并购|聘任|聘请|委托|起诉|审计机构|年审机构|审计|出售|转让|增资|入股|设立|注销|合并|"
                            r"签署|签订|披露|机构)|"  # a verb the organisation regex swallowed
                            r"[\u4e00-\u9fff]{0,4}?(?:未|无法|没有|不)(?:包含|提供|提及|说明|载明|确定|判断|得知|涉及|显示|记载)")
# (or a refusal's: 资料中未包含天恒机械股份有限公司 names 天恒机械股份有限公司)
_ZH_COMPANY_SUFFIX = ("股份有限公司", "有限责任公司", "有限公司", "集团")


@dataclass(frozen=True, slots=True)
class _Entity:
    """A named party: its written name, the aliases that count as a mention, person or organisation."""

    name: str
    aliases: tuple[str, ...]
    org: bool


def _entity_en(name: str, after_number: bool = False, org: bool = False) -> _Entity | None:
    """A party named in English (``org``: the name is known to be an organisation's, whatever its words)."""
    words = [w.rstrip(".") for w in name.split()]
    if words:
        words[-1] = words[-1].removesuffix("'s").removesuffix("’s").rstrip("'’")
    while words and words[0].lower() in _TITLES_EN:
        words = words[1:]
    while words and words[-1].lower() in ("the",):
        words = words[:-1]
    if len([w for w in words if w != "&"]) < 2:
        return None
    if all(w.lower() in _GENERIC_CAPS or w == "&" for w in words):
        return None  # "First Extraordinary General Meeting", "Corporate Secretary": titles, not parties
    org = org or any(w.lower() in _ORG_WORDS_EN for w in words)
    if not org and words[-1].lower() in ("district", "county", "province", "city"):
        return None  # "the Cedar Hill District court": a place (its words are cut below as a title's would be)
    if not org:  # "named NAME Chief Operating Officer": the title after a person's name is not part of it
        cut = next((i for i, w in enumerate(words) if i >= 2 and w.lower() in _GENERIC_CAPS), None)
        words = words[:cut]
        if words and words[-1].lower() in _TITLE_HEADS_EN:
            return None  # "Chief Legal Officer", "Managing Director": a post, not a person
    low = [w.lower() for w in words]
    if not org and (low[0] in _PLACE_PREFIXES_EN or any(w in _AREA_WORDS_EN for w in low)
                    or any(w in _STREET_WORDS_EN or w[:-1] in _STREET_WORDS_EN for w in low)
                    and (after_number or len(words) > 2)):
        return None
    full = " ".join(words)
    core = [w for w in words if w.lower() not in _ORG_SUFFIX_EN]
    aliases = {full.lower()}
    if len(core) < len(words) and len(core) >= 2 and "&" not in core[:2]:
        aliases.add(" ".join(core).lower())
        aliases.add(" ".join(core[:2]).lower())
    if not org and len(words) >= 2 and len(words[0]) > 1 and words[0][0].isalpha():
        aliases.add(f"{words[0][0]}. {words[-1]}".lower())  # "C. Carson" for Corey Carson
    return _Entity(full, tuple(sorted(aliases, key=len, reverse=True)), org)


def _entity_zh(name: str, org: bool) -> _Entity:
    aliases = {name}
    if org and name.endswith("）") and "（" in name:  # 远中会计师事务所（特殊普通合伙） is 远中会计师事务所
        aliases.add(name[:name.rindex("（")])
    if org:
        core = name
        for suffix in _ZH_COMPANY_SUFFIX:
            if name.endswith(suffix):
                core = name[: -len(suffix)]
                aliases.add(core)
                if len(core) >= 4:
                    aliases.add(core[:4])
                    if _initialised_jieba().dt.FREQ.get(core[:2], 0) == 0 and not _P_ZH_PLACE_LEAD.match(core):
                        aliases.add(core[:2])  # a brand of two characters that is no word: 恒泰 for 恒泰新材料股份有限公司
                break
        province = re.match(r"^[\u4e00-\u9fff]{2,3}省(?=[\u4e00-\u9fff]{2,3}市)", name)
        if province:  # 福建省泉州市中级人民法院 is also 泉州市中级人民法院
            aliases.add(name[province.end():])
        m = _P_ZH_AUTHORITY.match(name)
        if m:  # 扬州市广陵区人民检察院 is also 广陵区人民检察院 and 广陵区检察院
            for local in {m[2] + m[3], m[2] + m[3].replace("人民", "")}:
                if len(local) >= 5:
                    aliases.add(local)
    return _Entity(name, tuple(sorted(aliases, key=len, reverse=True)), org)


# a company name that opens with a place (北京…, 上海…): its first two characters are the place, not a brand
_P_ZH_PLACE_LEAD = re.compile(r"(?:北京|上海|天津|重庆|深圳|广州|杭州|南京|武汉|成都|西安|苏州|长沙|郑州|青岛|大连|厦门|宁波|"
                              r"沈阳|济南|合肥|福州|昆明|南昌|贵阳|南宁|太原|石家庄|哈尔滨|长春|兰州|海口|香港|澳门|台湾|中国|中华)")


_P_ZH_AUTHORITY = re.compile(r"^((?:[\u4e00-\u9fff]{2,3}省)?[\u4e00-\u9fff]{2,3}市)([\u4e00-\u9fff]{2,4}[区县])"
                             r"(人民法院|人民检察院|中级人民法院|公安局|公安分局)$")


# fixed names whose characters would otherwise read as a surname and a given name
_P_ZH_NOT_A_NAME = re.compile(r"中华人民共和国|中华民国|人民法院|人民检察院|人民政府|人民医院")


def _entities(text: str, language: str, taken: bytearray) -> list[_Entity]:
    out: list[_Entity] = []
    if language == "zh":
        for m in _P_ZH_ORG.finditer(text):
            lead = _P_ZH_ORG_LEAD.match(m[1])
            cut = lead.end() if lead and len(m[1]) - lead.end() >= 2 else 0
            name = m[0][cut:]
            if name.count("（") > name.count("）"):  # 吴文（大连市甘井子区人民法院: the court opens after the bracket
                name = name[name.rindex("（") + 1:]
            if len(name) - len(m[2]) >= 2:
                out.append(_entity_zh(name, True))  # (公司)收购明嘉环保有限公司: the company is 明嘉环保有限公司
        freq = _initialised_jieba().dt.FREQ
        plain = _P_ZH_NOT_A_NAME.sub(lambda m: "　" * len(m[0]), text)  # 中华人民共和国 holds no 华人民
        for m in _P_ZH_PERSON.finditer(plain):
            common = 5000 if m.start(1) > m.start() else 500  # (after a role word, 被告人王俊: a name, though a word)
            if plain[max(0, m.start(1) - 2):m.start(1)] in _ZH_COPULAS:
                common = 0  # (after 的是, only a word jieba does not know: 毛利率 is a word)
            if freq.get(m[1], 0) <= common and not any(k in m[1] for k in _KIN_ZH) \
                    and not any(c in _ZH_NOT_IN_NAME for c in m[1][1:]):  # 时间, 其中, 高于: words; 母亲: kin; 曾因: words
                out.append(_entity_zh(m[1], False))
    else:
        for m in _P_CAPSEQ.finditer(text):
            a, b = m.span()
            if any(taken[a:b]):  # a capitalised month inside a date
                continue
            if re.fullmatch(r".*\b(?:No|Nos|Number)\.?", m[0]) and re.match(r"\s*\d", text[b:b + 3]):
                continue  # "Xing Chu No 657": the label of a case or file number, not a party
            name = m[0]
            place = _P_OF_PLACE.match(text, b) if _P_INSTITUTION_END.search(name) else None
            if place:  # "the Intermediate People's Court of Port Hale": the place is part of its name
                name += place[0]
            ent = _entity_en(name, after_number=bool(re.search(r"\d[\w-]*,?\s*$|\b(?:on|along|off|of|and|at|near|to|from)\s+$",
                                                               text[max(0, a - 12):a])))  # (or a street's preposition)
            if ent:
                out.append(ent)
    return out


_P_INSTITUTION_END = re.compile(r"\b(?:Court|Procuratorate)$")
_P_OF_PLACE = re.compile(r" of (?:the )?[A-Z][A-Za-z'’\-]*(?: [A-Z][A-Za-z'’\-]*)*")


def _same_entity(a: _Entity, b: _Entity) -> bool:
    return bool(set(a.aliases) & set(b.aliases)) or a.name.lower() in b.aliases or b.name.lower() in a.aliases


def _mentions(text: str, entities: list[_Entity], language: str) -> list[tuple[int, int, int]]:
    """(start, end, entity index) of every mention of the known entities, longest alias first."""
    low = text if language == "zh" else text.lower()
    taken = bytearray(len(text))
    out = []
    for i, ent in sorted(enumerate(entities), key=lambda p: -len(p[1].aliases[0])):
        for alias in ent.aliases:
            start = 0
            while (pos := low.find(alias, start)) >= 0:
                end = pos + len(alias)
                start = end
                if language != "zh" and ((pos and low[pos - 1].isalnum()) or (end < len(low) and low[end].isalnum())
                                         or " " not in alias and not text[pos].isupper()):
                    continue  # inside a word, or a one-word name (Cross, Lane) written in lower case
                if any(taken[pos:end]):
                    continue
                taken[pos:end] = b"\x01" * (end - pos)
                out.append((pos, end, i))
    return sorted(out)


def _party_kind(ent: _Entity) -> str:
    """person, or the kind of organisation (company, court, exchange, law firm ...)."""
    return "person" if not ent.org else _org_kind(ent) or "organisation"


def _add_entity(entities: list[_Entity], ent: _Entity) -> None:
    """Add a party unless known; a zh name that ends with a known one (审计了安华饮品…) is that one."""
    for n, e in enumerate(entities):
        if _same_entity(ent, e):
            return
        if _P_CJK.match(ent.name) and not ent.org and not e.org and len(ent.name) == len(e.name) + 1 \
                and ent.name.startswith(e.name):
            return  # 梁峰虽不具有…: the regex took one character too many of a known person's name
        if _P_CJK.match(ent.name) and not ent.org and e.org and len(ent.name) >= 2 and e.name.startswith(ent.name):
            if ent.name not in e.aliases:  # "安明更低": a company's first characters are its short name
                entities[n] = _Entity(e.name, e.aliases + (ent.name,), e.org)
            return
        if _P_CJK.match(ent.name) and ent.org == e.org and min(len(ent.name), len(e.name)) >= 4:
            if e.name.endswith(ent.name):
                entities[n] = ent  # keep the cleaner, shorter name
                return
            if ent.name.endswith(e.name):
                return
    entities.append(ent)


def _with_short_names(entities: list[_Entity]) -> list[_Entity]:
    """A person is also named by surname alone (Mr. Robinson, Dr. Taylor, Lyons) and a company by its first word
    (Tyler's), when no other party's name holds that word; courts, firms and hospitals are not named by a place."""
    counts = Counter(w for e in entities for w in set(e.name.lower().split()))
    out = []
    for e in entities:
        parts = e.name.lower().split()
        short = parts[0] if e.org else parts[-1]
        if (not e.org or _org_kind(e) is None) and len(short) >= 3 and counts[short] == 1 \
                and short not in _GENERIC_CAPS and short not in _TITLES_EN and short not in e.aliases:
            e = _Entity(e.name, e.aliases + (short,), e.org)
        out.append(e)
    return out


def _fact_entity(fact: KeypointFact, language: str) -> _Entity:
    org = fact.kind == "organisation"
    if language == "zh":
        return _entity_zh(fact.text, org)
    return _entity_en(fact.text, org=org) or _Entity(fact.text, (fact.text.lower(),), org)


_ORG_KINDS = ("证券交易所", "律师事务所", "会计师事务所", "人民法院", "人民检察院", "医院", "stock exchange", "law firm",
              "court", "procuratorate", "hospital", "medical center", "accounting firm")


def _org_kind(ent: _Entity) -> str | None:
    """The kind an organisation's name ends with (law firm, court, exchange ...), when it says one."""
    low = ent.name.lower().rstrip("）)").split("（")[0]
    return next((kind for kind in _ORG_KINDS if low.endswith(kind) or f"{kind} of" in low), None)
