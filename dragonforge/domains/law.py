"""Config generator for the ``law`` domain: a first-instance criminal judgment of a people's court.

One config is one case: the court and the parties, the offence the court found, the evidence,
its reasoning and the verdict. The generator keeps a judgment's internal logic:

* the charge comes from a closed list, cited by its correct Criminal Law article, and the
  narrative facts fit it (an amount for property and duty crimes, an injury grade for violence,
  a blood alcohol content for drunk driving, a drug weight for drug trafficking ...);
* the statutory bracket follows from the amount or severity, the sentence lies within it
  (lower for surrender, confession, restitution and an accessory, higher for a recidivist),
  fines follow the statute's rules, and a bracket that allows life imprisonment is tried by an
  intermediate court, everything else by a basic court (smuggling always by an intermediate one);
* the dates are strictly ordered, crime < detention < arrest or bail < indictment < hearing <
  judgment, and a custodial term is counted from the detention date and still runs at judgment;
* ages are computed from the birth date at the crime date; probation is only given for terms of
  three years or less, never to a recidivist, and a defendant on probation was released on bail.

English configs place a Chinese-style people's court in a fictional English-speaking city and use
US dollars; Chinese configs use real province, city and district names and yuan.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass, field
from typing import NotRequired, TypedDict

from faker import Faker

from dragonforge.domains._common import (
    count_fact,
    date_fact,
    faker_for,
    format_date,
    format_term,
    money_fact,
    text_fact,
)
from dragonforge.models import Config, Fact, Language, ValueKind

CRIME_START, CRIME_END = dt.date(2019, 1, 1), dt.date(2023, 6, 30)

# --- places -----------------------------------------------------------------------------------

# (province, court-code abbreviation, city, city code, districts)
ZH_CITIES: tuple[tuple[str, str, str, int, tuple[str, ...]], ...] = (
    ("江苏省", "苏", "南京市", 1, ("玄武区", "秦淮区", "鼓楼区", "建邺区", "栖霞区", "江宁区")),
    ("江苏省", "苏", "无锡市", 2, ("梁溪区", "滨湖区", "锡山区", "惠山区")),
    ("江苏省", "苏", "徐州市", 3, ("云龙区", "泉山区", "铜山区")),
    ("江苏省", "苏", "常州市", 4, ("天宁区", "钟楼区", "武进区", "新北区")),
    ("江苏省", "苏", "苏州市", 5, ("姑苏区", "吴中区", "相城区", "虎丘区")),
    ("江苏省", "苏", "扬州市", 10, ("广陵区", "邗江区", "江都区")),
    ("浙江省", "浙", "杭州市", 1, ("上城区", "拱墅区", "西湖区", "滨江区", "萧山区", "余杭区")),
    ("浙江省", "浙", "宁波市", 2, ("海曙区", "江北区", "鄞州区", "北仑区")),
    ("浙江省", "浙", "温州市", 3, ("鹿城区", "龙湾区", "瓯海区")),
    ("浙江省", "浙", "绍兴市", 6, ("越城区", "柯桥区", "上虞区")),
    ("广东省", "粤", "广州市", 1, ("越秀区", "海珠区", "天河区", "白云区", "番禺区")),
    ("广东省", "粤", "深圳市", 3, ("福田区", "罗湖区", "南山区", "宝安区", "龙岗区")),
    ("广东省", "粤", "珠海市", 4, ("香洲区", "斗门区", "金湾区")),
    ("广东省", "粤", "佛山市", 6, ("禅城区", "南海区", "顺德区")),
    ("山东省", "鲁", "济南市", 1, ("历下区", "市中区", "槐荫区", "天桥区", "历城区")),
    ("山东省", "鲁", "青岛市", 2, ("市南区", "市北区", "黄岛区", "崂山区", "李沧区")),
    ("山东省", "鲁", "烟台市", 6, ("芝罘区", "福山区", "莱山区")),
    ("河南省", "豫", "郑州市", 1, ("中原区", "二七区", "金水区", "惠济区")),
    ("河南省", "豫", "洛阳市", 3, ("老城区", "西工区", "涧西区", "洛龙区")),
    ("湖北省", "鄂", "武汉市", 1, ("江岸区", "江汉区", "汉阳区", "武昌区", "洪山区")),
    ("湖北省", "鄂", "宜昌市", 5, ("西陵区", "伍家岗区", "点军区")),
    ("湖南省", "湘", "长沙市", 1, ("芙蓉区", "天心区", "岳麓区", "开福区", "雨花区")),
    ("湖南省", "湘", "株洲市", 2, ("荷塘区", "芦淞区", "石峰区")),
    ("四川省", "川", "成都市", 1, ("锦江区", "青羊区", "金牛区", "武侯区", "成华区")),
    ("四川省", "川", "绵阳市", 7, ("涪城区", "游仙区")),
    ("福建省", "闽", "福州市", 1, ("鼓楼区", "台江区", "仓山区", "晋安区")),
    ("福建省", "闽", "厦门市", 2, ("思明区", "湖里区", "集美区", "海沧区")),
    ("福建省", "闽", "泉州市", 5, ("鲤城区", "丰泽区", "洛江区")),
    ("安徽省", "皖", "合肥市", 1, ("瑶海区", "庐阳区", "蜀山区", "包河区")),
    ("安徽省", "皖", "芜湖市", 2, ("镜湖区", "鸠江区", "弋江区")),
    ("江西省", "赣", "南昌市", 1, ("东湖区", "西湖区", "青云谱区", "青山湖区")),
    ("河北省", "冀", "石家庄市", 1, ("长安区", "桥西区", "新华区", "裕华区")),
    ("河北省", "冀", "唐山市", 2, ("路南区", "路北区", "丰南区")),
    ("陕西省", "陕", "西安市", 1, ("新城区", "碑林区", "莲湖区", "雁塔区", "未央区")),
    ("辽宁省", "辽", "沈阳市", 1, ("和平区", "沈河区", "大东区", "皇姑区", "铁西区")),
    ("辽宁省", "辽", "大连市", 2, ("中山区", "西岗区", "沙河口区", "甘井子区")),
    ("吉林省", "吉", "长春市", 1, ("南关区", "宽城区", "朝阳区", "二道区")),
    ("黑龙江省", "黑", "哈尔滨市", 1, ("道里区", "南岗区", "道外区", "香坊区")),
    ("广西壮族自治区", "桂", "南宁市", 1, ("兴宁区", "青秀区", "江南区", "西乡塘区")),
    ("云南省", "云", "昆明市", 1, ("五华区", "盘龙区", "官渡区", "西山区")),
    ("贵州省", "黔", "贵阳市", 1, ("南明区", "云岩区", "花溪区", "乌当区")),
    ("山西省", "晋", "太原市", 1, ("小店区", "迎泽区", "杏花岭区", "万柏林区")),
)

US_STATES: dict[str, str] = {
    "Alabama": "AL", "Alaska": "AK", "Arizona": "AZ", "Arkansas": "AR", "California": "CA",
    "Colorado": "CO", "Connecticut": "CT", "Delaware": "DE", "Florida": "FL", "Georgia": "GA",
    "Hawaii": "HI", "Idaho": "ID", "Illinois": "IL", "Indiana": "IN", "Iowa": "IA", "Kansas": "KS",
    "Kentucky": "KY", "Louisiana": "LA", "Maine": "ME", "Maryland": "MD", "Massachusetts": "MA",
    "Michigan": "MI", "Minnesota": "MN", "Mississippi": "MS", "Missouri": "MO", "Montana": "MT",
    "Nebraska": "NE", "Nevada": "NV", "New Hampshire": "NH", "New Jersey": "NJ",
    "New Mexico": "NM", "New York": "NY", "North Carolina": "NC", "North Dakota": "ND",
    "Ohio": "OH", "Oklahoma": "OK", "Oregon": "OR", "Pennsylvania": "PA", "Rhode Island": "RI",
    "South Carolina": "SC", "South Dakota": "SD", "Tennessee": "TN", "Texas": "TX", "Utah": "UT",
    "Vermont": "VT", "Virginia": "VA", "Washington": "WA", "West Virginia": "WV",
    "Wisconsin": "WI", "Wyoming": "WY",
}
EN_DISTRICTS = ("Riverside", "Lakeside", "Hillcrest", "Northgate", "Eastfield", "Westbrook",
                "Old Town", "Harborview", "Central", "Southgate", "Maplewood", "Cedar Hill",
                "Fairview", "Greenwood", "Brookside", "Highland", "Stonebridge", "Elmwood")

# Named venues for places of crime: (en kind, zh kind)
SHOP_NAMES = (("Sunrise", "华联"), ("Golden Harvest", "金穗"), ("Liberty", "福满"),
              ("Evergreen", "常青"), ("Lucky Star", "吉星"), ("Silver Moon", "银月"),
              ("Red Lantern", "红灯笼"), ("Maple Leaf", "枫叶"))
VENUES = {
    "shop": (("Supermarket", "超市"), ("Mobile Phone Store", "手机店"), ("Jewelry Store", "金店"),
             ("Convenience Store", "便利店")),
    "bar": (("Barbecue Restaurant", "烧烤店"), ("Karaoke Club", "歌舞厅"), ("Night Snack Bar", "夜宵店"),
            ("Hot Pot Restaurant", "火锅店")),
    "public": (("bus stop", "公交站台"), ("farmers market", "农贸市场"), ("underground car park", "地下停车场"),
               ("train station square", "火车站广场")),
}

# --- people -----------------------------------------------------------------------------------

ETHNICITIES = (("汉族", 88), ("回族", 3), ("满族", 2), ("壮族", 2), ("土家族", 2), ("苗族", 1), ("蒙古族", 1),
               ("彝族", 1))
EDUCATION = (  # (en, zh)
    ("primary school", "小学文化"), ("junior high school", "初中文化"), ("senior high school", "高中文化"),
    ("technical secondary school", "中专文化"), ("junior college", "大专文化"),
    ("university undergraduate", "大学本科文化"), ("postgraduate", "研究生文化"),
)
OCCUPATIONS = (  # (en, zh)
    ("unemployed", "无业"), ("a migrant worker", "务工人员"), ("a self-employed trader", "个体工商户"),
    ("a farmer", "农民"), ("a truck driver", "货车司机"), ("a ride-hailing driver", "网约车司机"),
    ("a company employee", "公司职员"), ("a cook", "厨师"), ("a salesperson", "销售员"),
    ("a decoration worker", "装修工人"), ("a delivery rider", "外卖骑手"), ("a security guard", "保安员"),
)
DRIVER_OCCUPATIONS = (("a truck driver", "货车司机"), ("a ride-hailing driver", "网约车司机"),
                      ("a delivery rider", "外卖骑手"), ("a company employee", "公司职员"),
                      ("a self-employed trader", "个体工商户"))
UNITS = (("Housing and Urban-Rural Development Bureau", "住房和城乡建设局"),
         ("Natural Resources Bureau", "自然资源局"), ("Transport Bureau", "交通运输局"),
         ("Water Affairs Bureau", "水务局"), ("Agriculture and Rural Affairs Bureau", "农业农村局"),
         ("Market Supervision Bureau", "市场监督管理局"), ("Education Bureau", "教育局"))
POSTS = (("deputy director", "副局长"), ("head of the project management section", "工程管理科科长"),
         ("head of the finance section", "财务科科长"), ("head of the planning section", "规划科科长"),
         ("director of the general office", "办公室主任"))
FIRM_WORDS = (("Hartley", "衡正"), ("Meridian", "明诚"), ("Crossfield", "致远"), ("Brightwater", "正平"),
              ("Ashford", "恒信"), ("Kingsley", "弘德"), ("Norwood", "博仁"), ("Whitmore", "同泰"),
              ("Redfern", "瑞衡"), ("Langley", "坤元"), ("Prescott", "汇典"), ("Sterling", "鼎立"))
AUDIT_WORDS = (("Harper", "正明"), ("Bellamy", "信达"), ("Calloway", "华审"), ("Dunmore", "公信"))
PRIOR_CHARGES = (("theft", "盗窃罪"), ("fraud", "诈骗罪"), ("intentional injury", "故意伤害罪"),
                 ("picking quarrels and provoking trouble", "寻衅滋事罪"), ("robbery", "抢劫罪"),
                 ("drug trafficking", "贩卖毒品罪"))

# --- the Criminal Law: general provisions cited beside the charge's own article ------------------

ARTICLES = {  # key: (en token, zh text)
    "joint": ("25(1)", "第二十五条第一款"),
    "principal": ("26(1)", "第二十六条第一款"),
    "principal_4": ("26(4)", "第二十六条第四款"),
    "accessory": ("27", "第二十七条"),
    "recidivism": ("65(1)", "第六十五条第一款"),
    "surrender": ("67(1)", "第六十七条第一款"),
    "confession": ("67(3)", "第六十七条第三款"),
    "probation": ("72(1)", "第七十二条第一款"),
    "probation_3": ("72(3)", "第七十二条第三款"),
    "probation_term": ("73(2)", "第七十三条第二款"),
    "probation_term_detention": ("73(1)", "第七十三条第一款"),
    "probation_start": ("73(3)", "第七十三条第三款"),
    "fine": ("52", "第五十二条"),
    "fine_2": ("53", "第五十三条"),
    "recovery": ("64", "第六十四条"),
}
_ARTICLE_ORDER = list(ARTICLES)

IMPRISONMENT = ("fixed-term imprisonment", "有期徒刑")
DETENTION = ("criminal detention", "拘役")


@dataclass
class Bracket:
    """The statutory bracket that applies, and how the sentence is measured within it."""

    term: tuple[int, int]                 # months of the principal penalty
    article_en: tuple[str, ...]           # article tokens of the charge, e.g. ("264",)
    article_zh: str
    level: str = "basic"                  # basic | intermediate
    sentence: tuple[str, str] = IMPRISONMENT
    severity: tuple[str, str] | None = None  # the court's characterisation (en, zh)
    position: float = 0.5                 # how grave the case is within the bracket, 0..1


@dataclass
class Crime:
    charge: str                           # key of CHARGES
    bracket: Bracket
    facts: list[Fact] = field(default_factory=list)
    extras: dict = field(default_factory=dict)
    amount: float | None = None           # the amount involved, in currency units
    fine: str | None = None               # fine rule, see _fine
    restitution: str | None = None        # refund | compensation | surrender_of_proceeds
    victim: bool = False
    co_offender: bool = False             # a second defendant is possible
    official: bool = False
    detention_gap: tuple[int, int] = (1, 20)   # days from the crime to criminal detention


# (en, zh, weight)
CHARGES: dict[str, tuple[str, str, int]] = {
    "theft": ("theft", "盗窃罪", 14),
    "fraud": ("fraud", "诈骗罪", 12),
    "injury": ("intentional injury", "故意伤害罪", 10),
    "robbery": ("robbery", "抢劫罪", 6),
    "drunk_driving": ("dangerous driving", "危险驾驶罪", 10),
    "traffic": ("causing a traffic accident", "交通肇事罪", 8),
    "embezzlement": ("embezzlement", "贪污罪", 6),
    "bribery": ("taking bribes", "受贿罪", 7),
    "drugs": ("drug trafficking", "贩卖毒品罪", 9),
    "smuggling": ("smuggling ordinary goods", "走私普通货物罪", 5),
    "quarrels": ("picking quarrels and provoking trouble", "寻衅滋事罪", 7),
    "illegal_business": ("illegal business operation", "非法经营罪", 6),
}

# Charge-specific phrases the templates weave into sentences; they are not facts. (en, zh)
# amount_label names the amount involved; detected says how the case came to light; act is what
# the indictment alleges; witness_saw what the witness confirms; interest the legal interest harmed.
PHRASES: dict[str, dict[str, tuple[str, str]]] = {
    "theft": {
        "amount_label": ("value of the stolen property",
                         "被盗财物价值"),
        "detected": ("the victim discovered the theft and called the police, who identified the suspect from surveillance footage",
                     "被害人发现财物被盗后报警，公安机关经调取监控锁定了犯罪嫌疑人"),
        "act": ("stole property from another person",
                "盗窃他人财物"),
        "witness_saw": ("the defendant was seen near the scene around the time of the theft",
                        "案发前后曾在现场附近看到被告人"),
        "interest": ("the property rights of citizens",
                     "公民的财产所有权"),
    },
    "fraud": {
        "amount_label": ("amount obtained by fraud",
                         "诈骗数额"),
        "detected": ("the victim realised the deception after repeated demands for repayment failed and reported it to the police",
                     "被害人多次催要未果后察觉被骗，遂向公安机关报案"),
        "act": ("obtained money from another person by deception",
                "骗取他人财物"),
        "witness_saw": ("the victim had told the witness about the promises made by the defendant",
                        "被害人曾向其提及被告人承诺的事项"),
        "interest": ("public and private property rights",
                     "公私财产所有权"),
    },
    "injury": {
        "detected": ("bystanders called the police and the victim was taken to hospital",
                     "在场群众拨打了报警电话，被害人被送往医院救治"),
        "act": ("intentionally injured another person",
                "故意伤害他人身体"),
        "witness_saw": ("the defendant attacked the victim after the argument",
                        "目睹了双方发生争执及被告人动手的经过"),
        "interest": ("the physical health of others",
                     "他人的身体健康权"),
    },
    "robbery": {
        "amount_label": ("value of the property robbed",
                         "抢劫财物价值"),
        "detected": ("the victim called the police at once, and investigators identified the suspect",
                     "被害人随即报警，公安机关经侦查锁定了犯罪嫌疑人"),
        "act": ("robbed another person with a weapon",
                "持械抢劫他人财物"),
        "witness_saw": ("the victim asked the witness for help right after the robbery",
                        "案发后被害人立即向其求助"),
        "interest": ("the personal and property rights of others",
                     "他人的人身权利和财产权利"),
    },
    "drunk_driving": {
        "detected": ("officers gave the defendant a breath test, which indicated drunk driving",
                     "执勤民警对被告人进行呼气酒精测试，结果显示其涉嫌醉酒驾驶"),
        "act": ("drove a motor vehicle while drunk",
                "醉酒驾驶机动车"),
        "witness_saw": ("the defendant drove away after drinking that night",
                        "案发当晚被告人饮酒后驾车离开"),
        "interest": ("road traffic safety",
                     "道路交通安全"),
    },
    "traffic": {
        "detected": ("traffic police were called to the scene and examined it",
                     "交警部门接警后赶赴现场进行了勘查处置"),
        "act": ("caused a fatal traffic accident",
                "驾驶机动车肇事致人死亡"),
        "witness_saw": ("the collision happened as described",
                        "目睹了事故发生的经过"),
        "interest": ("the safety of road transport",
                     "交通运输安全"),
    },
    "embezzlement": {
        "amount_label": ("amount of public funds embezzled",
                         "贪污数额"),
        "detected": ("a special audit uncovered the problem and the leads were passed to the supervisory authority",
                     "上级单位在专项审计中发现上述问题，并将线索移送监察机关"),
        "act": ("embezzled public funds by abusing the position",
                "利用职务便利侵吞公款"),
        "witness_saw": ("the payments were released on the defendant's signature",
                        "相关款项系经被告人签批后拨付"),
        "interest": ("the integrity of public office and public property",
                     "国家工作人员职务行为的廉洁性和公共财物所有权"),
    },
    "bribery": {
        "amount_label": ("amount of bribes accepted",
                         "受贿数额"),
        "detected": ("the supervisory authority found leads on the defendant while investigating another case",
                     "监察机关在调查其他案件时发现了被告人的上述问题线索"),
        "act": ("accepted money by abusing the position",
                "利用职务便利收受他人财物"),
        "witness_saw": ("the defendant had put in a word for the company",
                        "被告人曾为相关公司的事项打过招呼"),
        "interest": ("the integrity of public office",
                     "国家工作人员职务行为的廉洁性"),
    },
    "drugs": {
        "amount_label": ("price of the drugs sold",
                         "毒品交易价格"),
        "detected": ("acting on a tip-off, the police had put the meeting place under surveillance",
                     "公安机关根据线索对交易地点进行了布控"),
        "act": ("sold drugs",
                "贩卖毒品"),
        "witness_saw": ("the defendant had met others near the scene several times",
                        "被告人曾多次与他人在案发地点附近见面"),
        "interest": ("the state control of narcotics and public health",
                     "国家对毒品的管理制度和公众身体健康"),
    },
    "smuggling": {
        "amount_label": ("amount of duties evaded",
                         "偷逃应缴税额"),
        "detected": ("the customs anti-smuggling service found irregularities in a later inspection and opened a case",
                     "海关缉私部门在后续稽查中发现异常，依法立案侦查"),
        "act": ("smuggled ordinary goods into the country",
                "走私普通货物入境"),
        "witness_saw": ("the customs declaration papers came from the defendant",
                        "涉案货物的报关资料由被告人提供"),
        "interest": ("foreign trade control and customs supervision",
                     "国家对外贸易管制和海关监管秩序"),
    },
    "quarrels": {
        "detected": ("the restaurant owner called the police, who arrived and restrained the defendant",
                     "店主见状报警，民警赶到现场后将被告人控制"),
        "act": ("assaulted another person at random",
                "随意殴打他人"),
        "witness_saw": ("the defendant started the fight and attacked the victim",
                        "被告人首先挑起事端并动手打人"),
        "interest": ("public order",
                     "社会公共秩序"),
    },
    "illegal_business": {
        "amount_label": ("illegal business turnover",
                         "非法经营数额"),
        "detected": ("the authorities received a report and carried out a joint inspection",
                     "有关主管部门接到举报后开展了联合执法检查"),
        "act": ("traded in monopoly goods without a licence",
                "未经许可经营专营专卖物品"),
        "witness_saw": ("the witness had bought the goods from the defendant several times",
                        "其曾多次从被告人处购买涉案物品"),
        "interest": ("the state monopoly system and market order",
                     "国家专营专卖制度和市场秩序"),
    },
}


def make_config(doc_id: int, language: Language, seed: int) -> Config:
    rng = random.Random(seed)
    fake = faker_for(language, seed)
    return _Builder(doc_id, language, seed, rng, fake).build()


# --- helpers ----------------------------------------------------------------------------------


def add_months(day: dt.date, months: int) -> dt.date:
    """``day`` plus whole calendar months, clamped to the end of a shorter month."""
    year, month0 = divmod(day.month - 1 + months, 12)
    year += day.year
    month = month0 + 1
    last = (dt.date(year + (month == 12), month % 12 + 1, 1) - dt.timedelta(days=1)).day
    return dt.date(year, month, min(day.day, last))


def term_end(start: dt.date, months: int) -> dt.date:
    """Last day of a term of ``months`` counted from ``start`` (inclusive)."""
    return add_months(start, months) - dt.timedelta(days=1)


def age_on(birth: dt.date, day: dt.date) -> int:
    return day.year - birth.year - ((day.month, day.day) < (birth.month, birth.day))


def round_amount(x: float) -> int:
    """An amount the formatter writes exactly: tens below 10,000, hundreds below a million,
    ten-thousands above."""
    step = 10 if x < 1e4 else 100 if x < 1e6 else 10_000
    return max(step, int(round(x / step)) * step)


def round_fine(x: float) -> int:
    step = 500 if x < 2e4 else 1000 if x < 2e5 else 10_000
    return max(step, int(round(x / step)) * step)


def log_uniform(rng: random.Random, lo: float, hi: float) -> float:
    return math.exp(rng.uniform(math.log(lo), math.log(hi)))


def log_position(x: float, lo: float, hi: float) -> float:
    return min(1.0, max(0.0, math.log(x / lo) / math.log(hi / lo)))


class _Place(TypedDict):
    """The court's city: an English one names its state, a Chinese one its province and districts."""

    city: str
    district: str
    abbr: str
    city_code: int
    district_code: int
    state: NotRequired[str]
    province: NotRequired[str]
    districts: NotRequired[tuple[str, ...]]


class _Builder:
    place: _Place  # set by locate()

    def __init__(self, doc_id: int, language: Language, seed: int, rng: random.Random, fake: Faker):
        self.doc_id, self.lang, self.seed, self.rng, self.fake = doc_id, language, seed, rng, fake
        self.en = language == "en"
        self.facts: dict[str, Fact] = {}
        self.extras: dict = {}
        self.used_names: set[str] = set()

    # -- small utilities --

    def t(self, pair: tuple[str, str]) -> str:
        return pair[0] if self.en else pair[1]

    def add(self, fact: Fact) -> None:
        assert fact.key not in self.facts, fact.key
        self.facts[fact.key] = fact

    def text(self, key: str, text: str, kind: ValueKind = "text") -> None:
        self.add(text_fact(key, text, kind))

    def person(self, gender: str | None = None) -> tuple[str, str]:
        gender = gender or self.rng.choice(("m", "f"))
        for _ in range(50):
            if self.en:
                first = self.fake.first_name_male() if gender == "m" else self.fake.first_name_female()
                name = f"{first} {self.fake.last_name()}"
            else:
                first = self.fake.first_name_male() if gender == "m" else self.fake.first_name_female()
                name = self.fake.last_name() + first
            if name not in self.used_names:
                self.used_names.add(name)
                return name, gender
        raise RuntimeError("could not draw a distinct name")

    def pronouns(self, gender: str) -> dict[str, str]:
        if self.en:
            he, his, him = ("he", "his", "him") if gender == "m" else ("she", "her", "her")
            return {"he": he, "his": his, "him": him, "He": he.capitalize(), "His": his.capitalize()}
        return {"he": "他" if gender == "m" else "她"}

    def street(self) -> str:
        return self.fake.street_name()

    # -- the court --

    def locate(self) -> None:
        """The court's city (and district, for a basic court and for places of crime)."""
        rng = self.rng
        if self.en:
            city, state = self.fake.city(), self.fake.state()
            self.place = {"city": city, "state": state, "abbr": US_STATES[state],
                          "district": f"{rng.choice(EN_DISTRICTS)} District",
                          "city_code": rng.randint(1, 19), "district_code": rng.randint(2, 14)}
        else:
            province, abbr, city, city_code, districts = rng.choice(ZH_CITIES)
            index = rng.randrange(len(districts))
            self.place = {"city": city, "province": province, "abbr": abbr, "district": districts[index],
                          "districts": districts, "city_code": city_code, "district_code": index + 2}

    def court(self, level: str) -> None:
        p = self.place
        city, district = p["city"], p["district"]
        intermediate = level == "intermediate"
        if self.en:
            if intermediate:
                court, procuratorate = f"Intermediate People's Court of {city}", f"People's Procuratorate of {city}"
                appeal, psb = f"Higher People's Court of {p['state']}", f"{city} Public Security Bureau"
                detention_house, supervisor = f"{city} Detention House", f"Supervisory Commission of {city}"
            else:
                court = f"{district} People's Court of {city}"
                procuratorate = f"{district} People's Procuratorate of {city}"
                appeal, psb = f"Intermediate People's Court of {city}", f"{district} Branch of the {city} Public Security Bureau"
                detention_house = f"{district} Detention House of {city}"
                supervisor = f"{district} Supervisory Commission of {city}"
        else:
            province = p["province"]
            if intermediate:
                court, procuratorate = f"{province}{city}中级人民法院", f"{city}人民检察院"
                appeal, psb = f"{province}高级人民法院", f"{city}公安局"
                detention_house, supervisor = f"{city}看守所", f"{city}监察委员会"
            else:
                court, procuratorate = f"{province}{city}{district}人民法院", f"{city}{district}人民检察院"
                appeal, psb = f"{province}{city}中级人民法院", f"{city}公安局{district[:-1]}分局"
                detention_house, supervisor = f"{city}{district}看守所", f"{city}{district}监察委员会"
        self.case_code = f"{p['abbr']}{p['city_code']:02d}" + ("" if intermediate else f"{p['district_code']:02d}")
        self.text("court_name", court, "organisation")
        level_text = (("intermediate people's court", "中级人民法院") if intermediate
                      else ("basic people's court", "基层人民法院"))
        self.add(text_fact("court_level", self.t(level_text), "category").model_copy(update={"value": level}))
        self.text("city", city, "place")
        self.text("procuratorate", procuratorate, "organisation")
        self.text("appeal_court", appeal, "organisation")
        self.add(count_fact("appeal_days", 10, self.lang, unit="days", text="10 days" if self.en else "十日"))
        self.extras.update(detention_house=detention_house, supervisor=supervisor, authority=psb)
        for key in ("prosecutor", "presiding_judge", "judge", "people_assessor", "clerk"):
            self.text(key, self.person()[0], "person")

    # -- places --

    def shop(self, kind: str) -> str:
        name = self.t(self.rng.choice(SHOP_NAMES))
        venue = self.t(self.rng.choice(VENUES[kind]))
        number = self.rng.randint(3, 388)
        if self.en:
            return f"the {name} {venue} at {number} {self.street()}, {self.place['district']}, {self.place['city']}"
        return f"{self.place['city']}{self.place['district']}{self.street()}{number}号{name}{venue}"

    def public_place(self) -> str:
        venue = self.t(self.rng.choice(VENUES["public"]))
        if self.en:
            return f"the {venue} on {self.street()} in {self.place['district']}, {self.place['city']}"
        return f"{self.place['city']}{self.place['district']}{self.street()}{venue}"

    def home(self) -> str:
        number, unit, room = self.rng.randint(3, 288), self.rng.randint(1, 6), self.rng.randint(1, 18) * 100 + self.rng.randint(1, 4)
        if self.en:
            return f"Apartment {room}, {number} {self.street()}, {self.place['district']}, {self.place['city']}"
        return f"{self.place['city']}{self.place['district']}{self.street()}{number}号{unit}单元{room}室"

    def road(self) -> str:
        a, b = self.street(), self.street()
        while b == a:
            b = self.street()
        if self.en:
            return f"the intersection of {a} and {b} in {self.place['district']}, {self.place['city']}"
        return f"{self.place['city']}{self.place['district']}{a}与{b}交叉路口"

    def address(self) -> str:
        """A residence somewhere in the court's city."""
        number = self.rng.randint(1, 399)
        if self.en:
            return f"{number} {self.street()}, {self.place['city']}"
        district = self.rng.choice(self.place["districts"])
        return f"{self.place['city']}{district}{self.street()}{number}号"

    def birthplace(self) -> str:
        if self.en:
            if self.rng.random() < 0.5:
                return f"{self.place['city']}, {self.place['state']}"
            return f"{self.fake.city()}, {self.fake.state()}"
        if self.rng.random() < 0.5:
            return f"{self.place['province']}{self.place['city']}"
        province, _, city, _, _ = self.rng.choice(ZH_CITIES)
        return f"{province}{city}"

    def time_of_day(self, hours: tuple[int, ...]) -> str:
        hour, minute = self.rng.choice(hours), self.rng.choice((0, 10, 20, 30, 40, 50))
        if self.en:
            suffix = "am" if hour < 12 else "pm"
            h12 = hour % 12 or 12
            return f"around {h12}:{minute:02d} {suffix}"
        return f"{hour}时{minute}分许" if minute else f"{hour}时许"

    # -- the offence, by charge ----------------------------------------------------------------

    def crime(self, charge: str) -> Crime:
        return getattr(self, f"_crime_{charge}")()

    def _amount_bracket(self, brackets, weights):
        i = self.rng.choices(range(len(brackets)), weights)[0]
        lo, hi = brackets[i][0]
        amount = round_amount(log_uniform(self.rng, lo, hi))
        return i, amount, log_position(amount, lo, hi)

    def _crime_theft(self) -> Crime:
        brackets = [((2_000, 48_000), (6, 34), ("a relatively large amount", "数额较大")),
                    ((50_000, 450_000), (36, 118), ("a huge amount", "数额巨大"))]
        i, amount, pos = self._amount_bracket(brackets, (7, 3))
        _, term, severity = brackets[i]
        burglary = self.rng.random() < 0.5
        if burglary:
            method = self.rng.choice((("by prying open the door lock", "撬锁入户"),
                                      ("by climbing in through a window", "翻窗入室"),
                                      ("by opening the door with a duplicated key", "用私配的钥匙开门入户")))
            place = self.home()
        elif self.rng.random() < 0.5:
            method, place = ("by pickpocketing while the victim was distracted", "趁被害人不备扒窃"), self.public_place()
        else:
            method, place = ("by taking the goods from an unattended counter", "趁店内无人看管顺手拿走"), self.shop("shop")
        items = self.rng.sample((("two mobile phones", "手机二部"), ("a laptop computer", "笔记本电脑一台"),
                                 ("a gold bracelet", "金手镯一只"), ("a designer wristwatch", "名表一块"),
                                 ("a gold necklace", "金项链一条"), ("a tablet computer", "平板电脑一台"),
                                 ("twelve cartons of cigarettes", "香烟十二条"), ("a camera", "照相机一台")), 2)
        crime = Crime("theft", Bracket(term, ("264",), "第二百六十四条", severity=severity, position=pos),
                      amount=amount, fine="property", restitution="refund", victim=True, co_offender=True,
                      detention_gap=(2, 90))
        crime.facts += [text_fact("crime_place", place, "place"), text_fact("method", self.t(method)),
                        text_fact("stolen_items", self.t(items[0]) + (" and " if self.en else "、") + self.t(items[1]))]
        crime.extras.update(burglary=burglary, hours=(1, 2, 3, 4, 10, 14, 15, 23) if burglary else (9, 10, 11, 16, 17, 18, 19))
        return crime

    def _crime_fraud(self) -> Crime:
        brackets = [((6_000, 48_000), (6, 34), ("a relatively large amount", "数额较大")),
                    ((50_000, 480_000), (36, 118), ("a huge amount", "数额巨大")),
                    ((520_000, 3_000_000), (120, 168), ("an especially huge amount", "数额特别巨大"))]
        i, amount, pos = self._amount_bracket(brackets, (4, 4, 2))
        _, term, severity = brackets[i]
        pretext = self.rng.choice((
            ("under the pretext of arranging a school place for the victim's child", "以帮助被害人子女办理入学为由"),
            ("by claiming to be able to obtain a low-interest bank loan for the victim", "以能够帮助被害人办理低息贷款为由"),
            ("by promising high returns from a virtual currency investment", "以投资虚拟货币可获高额回报为由"),
            ("by posing as a relative of the victim in urgent need of money", "冒充被害人亲属急需用钱"),
            ("by offering a share in a restaurant business that did not exist", "以合伙经营餐饮店为由"),
            ("by claiming to be able to arrange a job in a state-owned enterprise", "以能够安排被害人进入国有企业工作为由")))
        crime = Crime("fraud", Bracket(term, ("266",), "第二百六十六条",
                                       level="intermediate" if i == 2 else "basic", severity=severity, position=pos),
                      amount=amount, fine="property", restitution="refund", victim=True, co_offender=True,
                      detention_gap=(20, 200))
        crime.facts += [text_fact("crime_place", self.shop("bar") if self.rng.random() < 0.5 else self.home(), "place"),
                        text_fact("method", self.t(pretext))]
        crime.extras["hours"] = (10, 11, 14, 15, 16, 19, 20)
        return crime

    def _weapon(self):
        return self.rng.choice((("a fruit knife", "水果刀", "stabbed", "捅刺"),
                                ("a folding knife", "折叠刀", "stabbed", "捅刺"),
                                ("a wooden stick", "木棍", "beat", "击打"),
                                ("an iron pipe", "铁管", "beat", "击打"),
                                ("a beer bottle", "啤酒瓶", "struck", "砸击")))

    def _motive(self):
        return self.rng.choice((("a quarrel over a parking space", "因停车问题发生争执"),
                                ("a dispute over a debt", "因债务纠纷发生争执"),
                                ("a neighbourhood dispute", "因邻里纠纷发生争吵"),
                                ("a trivial argument", "因琐事发生口角"),
                                ("a dispute over a restaurant bill", "因结账问题发生争执")))

    def _crime_injury(self) -> Crime:
        grade_i = self.rng.choices(range(3), (55, 25, 20))[0]
        grade = (("minor injury of the second grade", "轻伤二级"), ("minor injury of the first grade", "轻伤一级"),
                 ("serious injury of the second grade", "重伤二级"))[grade_i]
        if grade_i < 2:
            bracket = Bracket((6, 34), ("234(1)",), "第二百三十四条第一款", position=0.3 + 0.3 * grade_i)
        else:
            bracket = Bracket((36, 96), ("234(2)",), "第二百三十四条第二款", position=0.4)
        weapon, motive = self._weapon(), self._motive()
        crime = Crime("injury", bracket, restitution="compensation", victim=True, co_offender=True,
                      detention_gap=(1, 30))
        crime.facts += [text_fact("crime_place", self.shop("bar") if self.rng.random() < 0.6 else self.public_place(), "place"),
                        text_fact("injury_grade", self.t(grade), "category"),
                        text_fact("weapon", self.t(weapon[:2])), text_fact("motive", self.t(motive))]
        crime.extras.update(weapon_verb=weapon[2] if self.en else weapon[3], hours=(12, 18, 20, 21, 22, 23, 0, 1))
        return crime

    def _crime_robbery(self) -> Crime:
        aggravated = self.rng.random() < 0.25
        if aggravated:
            amount = round_amount(log_uniform(self.rng, 2_000, 30_000))
            bracket = Bracket((120, 168), ("263(1)",), "第二百六十三条第（一）项", level="intermediate",
                              position=log_position(amount, 2_000, 30_000))
        else:
            amount = round_amount(log_uniform(self.rng, 300, 9_000))
            bracket = Bracket((36, 110), ("263",), "第二百六十三条", position=log_position(amount, 300, 9_000))
        weapon = self._weapon()
        items = self.rng.choice((("cash and a mobile phone", "现金及手机一部"), ("a handbag containing cash", "内有现金的手提包一个"),
                                 ("a mobile phone and a bank card", "手机一部、银行卡一张"), ("a gold necklace and cash", "金项链一条及现金")))
        crime = Crime("robbery", bracket, amount=amount, fine="robbery", restitution="refund", victim=True,
                      co_offender=True, detention_gap=(1, 40))
        crime.facts += [text_fact("crime_place", self.home() if aggravated else self.public_place(), "place"),
                        text_fact("weapon", self.t(weapon[:2])), text_fact("stolen_items", self.t(items))]
        crime.extras.update(burglary=aggravated, hours=(0, 1, 2, 3, 21, 22, 23))
        return crime

    def _crime_drunk_driving(self) -> Crime:
        bac = self.rng.randint(82, 268)
        months = min(6, max(1, round(1 + (bac - 80) / 36 + self.rng.uniform(-0.8, 0.8))))
        bracket = Bracket((1, 6), ("133-1(1)(2)",), "第一百三十三条之一第一款第（二）项", sentence=DETENTION,
                          position=(months - 1) / 5)
        vehicle = self.rng.choice((("a small passenger car", "小型普通客车"), ("a sedan", "小型轿车"),
                                   ("a two-wheeled motorcycle", "普通二轮摩托车"), ("a light van", "轻型厢式货车")))
        crime = Crime("drunk_driving", bracket, fine="drunk_driving", detention_gap=(1, 3))
        crime.facts += [text_fact("crime_place", self.road(), "place"), text_fact("vehicle", self.t(vehicle)),
                        count_fact("blood_alcohol", bac, self.lang, unit="mg/100ml",
                                   text=f"{bac} mg/100 ml" if self.en else f"{bac}毫克/100毫升")]
        crime.extras.update(hours=(0, 1, 2, 21, 22, 23), fixed_months=months)
        return crime

    def _crime_traffic(self) -> Crime:
        liability = self.rng.choice((("full responsibility", "全部责任"), ("primary responsibility", "主要责任")))
        full = liability[0].startswith("full")
        vehicle = self.rng.choice((("a heavy semi-trailer truck", "重型半挂牵引车"), ("a sedan", "小型轿车"),
                                   ("a light van", "轻型厢式货车"), ("a small passenger car", "小型普通客车")))
        bracket = Bracket((8, 36), ("133",), "第一百三十三条", position=0.65 if full else 0.35)
        crime = Crime("traffic", bracket, restitution="compensation", victim=True, detention_gap=(1, 10))
        crime.facts += [text_fact("crime_place", self.road(), "place"), text_fact("vehicle", self.t(vehicle)),
                        text_fact("liability", self.t(liability), "category")]
        crime.extras.update(hours=(6, 7, 8, 17, 18, 19, 20, 21),
                            victim_mode=self.rng.choice((("riding an electric bicycle", "驾驶电动自行车"),
                                                         ("crossing the road on foot", "步行横过道路"),
                                                         ("riding a motorcycle", "驾驶二轮摩托车")))[0 if self.en else 1])
        return crime

    def _duty_brackets(self):
        brackets = [((30_000, 190_000), (6, 34), ("a relatively large amount", "数额较大"), "一"),
                    ((200_000, 2_900_000), (36, 118), ("a huge amount", "数额巨大"), "二"),
                    ((3_000_000, 12_000_000), (120, 180), ("an especially huge amount", "数额特别巨大"), "三")]
        i, amount, pos = self._amount_bracket(brackets, (3, 5, 2))
        return i, amount, pos, brackets[i]

    def _official_post(self, level: str) -> str:
        """A state functionary's post, in a bureau of the court's city (or district, for a basic court)."""
        unit, post = self.rng.choice(UNITS), self.rng.choice(POSTS)
        if self.en:
            where = (f"the {self.place['city']} {unit[0]}" if level == "intermediate"
                     else f"the {self.place['district']} {unit[0]} of {self.place['city']}")
            return f"the {post[0]} of {where}"
        where = (f"{self.place['city']}{unit[1]}" if level == "intermediate"
                 else f"{self.place['city']}{self.place['district']}{unit[1]}")
        return where + post[1]

    def _crime_embezzlement(self) -> Crime:
        i, amount, pos, (_, term, severity, item) = self._duty_brackets()
        method = self.rng.choice((("by falsely reporting project payments", "虚报冒领工程款"),
                                  ("by listing fictitious labour costs", "虚列劳务费用"),
                                  ("by withholding demolition compensation funds", "截留拆迁补偿款"),
                                  ("by diverting special poverty-relief funds", "侵吞专项扶贫资金"),
                                  ("by using false invoices to draw public funds", "虚开发票套取公款")))
        crime = Crime("embezzlement", Bracket(term, ("382(1)", f"383(1)({i + 1})"),
                                              f"第三百八十二条第一款、第三百八十三条第一款第（{item}）项",
                                              level="intermediate" if i == 2 else "basic", severity=severity,
                                              position=pos),
                      amount=amount, fine="duty", restitution="surrender_of_proceeds", official=True,
                      detention_gap=(40, 300))
        crime.facts += [text_fact("method", self.t(method)),
                        text_fact("crime_place", self.t(("the defendant's office", "被告人办公室")), "place")]
        crime.extras["hours"] = (9, 10, 11, 14, 15, 16)
        return crime

    def _crime_bribery(self) -> Crime:
        i, amount, pos, (_, term, severity, item) = self._duty_brackets()
        favour = self.rng.choice((("winning construction contracts", "工程项目承揽"),
                                  ("the approval of construction land", "建设用地审批"),
                                  ("the payment of project funds", "工程款拨付"),
                                  ("the procurement of equipment", "设备采购"),
                                  ("obtaining enterprise qualifications", "企业资质办理")))
        crime = Crime("bribery", Bracket(term, ("385(1)", "386", f"383(1)({i + 1})"),
                                         f"第三百八十五条第一款、第三百八十六条、第三百八十三条第一款第（{item}）项",
                                         level="intermediate" if i == 2 else "basic", severity=severity,
                                         position=pos),
                      amount=amount, fine="duty", restitution="surrender_of_proceeds", official=True,
                      detention_gap=(40, 300))
        briber, _ = self.person()
        if self.en:
            company = f"{self.fake.last_name()} {self.rng.choice(('Construction', 'Engineering', 'Building Materials', 'Trading', 'Real Estate'))} Company"
        else:
            company = (self.place["city"][:-1] + self.fake.company_prefix()
                       + self.rng.choice(("建筑工程", "市政工程", "建材", "物资贸易", "房地产开发")) + "有限公司")
        crime.facts += [text_fact("briber", briber, "person"), text_fact("briber_company", company, "organisation"),
                        text_fact("favour", self.t(favour)),
                        text_fact("crime_place", self.t(("the defendant's office", "被告人办公室")) if self.rng.random() < 0.5
                                  else self.shop("bar"), "place")]
        crime.extras["hours"] = (10, 11, 15, 16, 19, 20)
        return crime

    def _crime_drugs(self) -> Crime:
        drug = self.rng.choice((("methamphetamine", "甲基苯丙胺"), ("heroin", "海洛因")))
        serious = self.rng.random() < 0.35
        if serious:
            weight = round(self.rng.uniform(10.2, 48.5), 2)
            price = round_amount(weight * self.rng.uniform(250, 420))
            bracket = Bracket((84, 156), ("347(1)", "347(3)"), "第三百四十七条第一款、第三款",
                              position=log_position(weight, 10, 50))
        else:
            weight = round(self.rng.uniform(0.3, 9.6), 2)
            price = round_amount(max(100, weight * self.rng.uniform(250, 450)))
            bracket = Bracket((6, 34), ("347(1)", "347(4)"), "第三百四十七条第一款、第四款",
                              position=log_position(weight, 0.3, 10))
        buyer, _ = self.person()
        crime = Crime("drugs", bracket, amount=price, fine="drugs", co_offender=True, detention_gap=(1, 25))
        crime.facts += [text_fact("crime_place", self.shop("bar") if self.rng.random() < 0.4 else self.public_place(), "place"),
                        text_fact("drug_type", self.t(drug), "category"),
                        text_fact("drug_weight", f"{weight:.2f} grams" if self.en else f"{weight:.2f}克"),
                        text_fact("buyer", buyer, "person")]
        crime.extras.update(hours=(13, 15, 19, 20, 21, 22, 23), serious=serious)
        return crime

    def _crime_smuggling(self) -> Crime:
        brackets = [((110_000, 480_000), (8, 34), ("a relatively large amount", "数额较大"), "一"),
                    ((520_000, 2_400_000), (36, 118), ("a huge amount", "数额巨大"), "二"),
                    ((2_600_000, 9_000_000), (120, 168), ("an especially huge amount", "数额特别巨大"), "三")]
        i, amount, pos = self._amount_bracket(brackets, (4, 4, 2))
        _, term, severity, item = brackets[i]
        goods = self.rng.choice((("frozen beef", "冷冻牛肉"), ("foreign cigarettes", "境外卷烟"),
                                 ("second-hand electronics", "旧电子产品"), ("infant formula", "婴幼儿配方奶粉"),
                                 ("red wine", "红酒"), ("cosmetics", "化妆品")))
        method = self.rng.choice((("by under-declaring the price of the goods", "低报货物价格"),
                                  ("by falsely declaring the name of the goods", "伪报货物品名"),
                                  ("by hiding the goods among declared cargo", "夹藏瞒报")))
        crime = Crime("smuggling", Bracket(term, (f"153(1)({i + 1})",), f"第一百五十三条第一款第（{item}）项",
                                           level="intermediate", severity=severity, position=pos),
                      amount=amount, fine="smuggling", detention_gap=(30, 240))
        port = self.t(("the port of " + self.place["city"], self.place["city"].removesuffix("市") + "口岸"))
        crime.facts += [text_fact("goods", self.t(goods)), text_fact("method", self.t(method)),
                        text_fact("crime_place", port, "place")]
        crime.extras["hours"] = (8, 9, 10, 14, 15)
        return crime

    def _crime_quarrels(self) -> Crime:
        grade = self.rng.choice((("slight injury", "轻微伤"), ("minor injury of the second grade", "轻伤二级")))
        bracket = Bracket((6, 40), ("293(1)(1)",), "第二百九十三条第一款第（一）项",
                          position=0.3 if grade[1] == "轻微伤" else 0.6)
        weapon = self._weapon()
        crime = Crime("quarrels", bracket, restitution="compensation", victim=True, co_offender=True,
                      detention_gap=(1, 40))
        motive = self.rng.choice((("started trouble for no reason after drinking", "酒后无故挑起事端"),
                                  ("picked a quarrel over a trivial matter", "借故生非、无事生非"),
                                  ("provoked the victim for having glanced at the group", "因被害人多看了几眼便上前挑衅")))
        crime.facts += [text_fact("crime_place", self.shop("bar"), "place"),
                        text_fact("injury_grade", self.t(grade), "category"),
                        text_fact("weapon", self.t(weapon[:2])), text_fact("motive", self.t(motive))]
        crime.extras.update(weapon_verb=weapon[2] if self.en else weapon[3], hours=(21, 22, 23, 0, 1, 2))
        return crime

    def _crime_illegal_business(self) -> Crime:
        especially = self.rng.random() < 0.35
        lo, hi = (260_000, 2_000_000) if especially else (60_000, 240_000)
        amount = round_amount(log_uniform(self.rng, lo, hi))
        bracket = Bracket((60, 110) if especially else (6, 40), ("225(1)",), "第二百二十五条第（一）项",
                          severity=(("especially serious circumstances", "情节特别严重") if especially
                                    else ("serious circumstances", "情节严重")),
                          position=log_position(amount, lo, hi))
        goods = self.rng.choice((("cigarettes", "卷烟"), ("refined oil products", "成品油")))
        gains = round_amount(amount * self.rng.uniform(0.08, 0.25))
        crime = Crime("illegal_business", bracket, amount=amount, fine="illegal_business", detention_gap=(20, 180))
        crime.facts += [text_fact("goods", self.t(goods)), money_fact("illegal_gains", gains, self.lang),
                        text_fact("crime_place", self.shop("shop"), "place")]
        crime.extras.update(hours=(9, 10, 14, 16), gains=gains)
        return crime

    # -- the whole config ------------------------------------------------------------------------

    def build(self) -> Config:
        charge = self.rng.choices(list(CHARGES), [w for _, _, w in CHARGES.values()])[0]
        self.locate()
        crime = self.crime(charge)  # the bracket decides the court's level
        self.court(crime.bracket.level)
        return self._finish(charge, crime)

    def _finish(self, charge: str, crime: Crime) -> Config:
        rng, lang = self.rng, self.lang
        b = crime.bracket
        en_charge, zh_charge, _ = CHARGES[charge]
        self.text("charge", en_charge if self.en else zh_charge, "category")
        self.text("charge_article", self._article_text(b.article_en) if self.en else b.article_zh)
        if b.severity:
            self.text("severity", self.t(b.severity), "category")
        for fact in crime.facts:
            self.add(fact)
        if crime.amount is not None:
            self.add(money_fact("amount_involved", crime.amount, lang))

        # dates of the offence
        crime_date = CRIME_START + dt.timedelta(days=rng.randrange((CRIME_END - CRIME_START).days))
        self.add(date_fact("crime_date", crime_date, lang))
        self.text("crime_time", self.time_of_day(crime.extras.get("hours", (10, 15, 20))))

        # victim
        if crime.victim:
            name, gender = self.person()
            self.text("victim", name, "person")
            self.extras["vp"] = self.pronouns(gender)

        # defendants
        n_def = 2 if crime.co_offender and rng.random() < 0.3 else 1
        defendants = [self._defendant(i, n_def, crime, crime_date) for i in range(n_def)]

        # restitution, decided before sentencing because it mitigates
        restitution: float | None = None
        if crime.restitution and rng.random() < (0.75 if crime.restitution != "refund" else 0.55):
            if crime.restitution == "compensation":
                lo, hi = (200_000, 900_000) if charge == "traffic" else (10_000, 160_000)
                restitution = round_fine(log_uniform(rng, lo, hi))
            else:
                amount = crime.amount
                assert amount is not None, charge  # what is refunded or surrendered is the amount involved
                share = 1.0 if rng.random() < 0.6 else rng.uniform(0.3, 0.9)
                restitution = round_amount(amount * share) if share < 1 else amount
                restitution = min(restitution, amount)
            self.add(money_fact("restitution", restitution, lang))
        self.extras.update(
            restitution_kind=crime.restitution, full_restitution=bool(restitution and crime.amount
                                                                      and restitution >= crime.amount),
            forgiven=bool(restitution) and crime.victim and rng.random() < 0.85,
        )

        self._sentence(defendants, crime, restitution)
        self._timeline(defendants, crime, crime_date)

        # evidence
        self.text("witness", self.person()[0], "person")
        self.text("appraisal_agency", self._appraisal_agency(charge), "organisation")

        # counsel
        firms = rng.sample(FIRM_WORDS, n_def)
        for i, _d in enumerate(defendants):
            self.text(f"defendants.{i}.counsel", self.person()[0], "person")
            if self.en:
                firm = f"{firms[i][0]} & {self.fake.last_name()} Law Firm"
            else:
                firm = f"{self.place['province'].removesuffix('省').removesuffix('壮族自治区')}{firms[i][1]}律师事务所"
            self.text(f"defendants.{i}.law_firm", firm, "organisation")

        self._articles(defendants, crime)
        self._grammar(charge, crime, defendants)
        return Config(doc_id=self.doc_id, domain="law", language=lang, entity=self.facts["court_name"].text,
                      seed=self.seed, facts=self.facts, extras=self.extras)

    def _grammar(self, charge: str, crime: Crime, defendants: list[dict]) -> None:
        """Non-fact helpers the templates use: names, pronouns, verb agreement, phrases."""
        b, en, plural = crime.bracket, self.en, len(defendants) == 2
        pron = [self.pronouns(d["gender"]) for d in defendants]
        extras = self.extras
        extras.update(
            charge_id=charge, level=b.level, n_def=len(defendants), official=crime.official,
            pron=pron, names=self._join([d["name"] for d in defendants]),
            any_probation=any(d["probation"] for d in defendants),
            defn=("defendants" if plural else "defendant") if en else "被告人",
            their=("their" if plural else pron[0]["his"]) if en else "其",
            recommendation=[self._recommendation(d, b, crime.fine is not None) for d in defendants],
            numbered=self.rng.random() < 0.5,  # section headings numbered (I., II. / 一、二、) or not
            days_to_judgment=(self._day("judgment_date") - self._day("indictment_date")).days,
        )
        if en:  # verb agreement, and how later sentences refer back to the defendants
            names = extras["names"]
            extras.update(is_="are" if plural else "is", has_="have" if plural else "has",
                          was_="were" if plural else "was",
                          who="the two defendants" if plural else f"defendant {names}",
                          Who="The two defendants" if plural else f"Defendant {names}")
        extras.setdefault("vp", self.pronouns("m"))  # the victim's pronouns, when there is one
        extras.update({name: self.t(pair) for name, pair in PHRASES[charge].items()})
        if en and plural:
            extras["witness_saw"] = extras["witness_saw"].replace("the defendant", "the defendants")
        extras.update({k: v for k, v in crime.extras.items() if k in ("burglary", "weapon_verb", "victim_mode")})
        if crime.official:  # duty crimes: the procuratorate detains after the supervisory commission
            extras["authority"] = self.facts["procuratorate"].text
        elif charge == "smuggling":
            city = self.place["city"]
            extras["authority"] = (f"Anti-Smuggling Bureau of {city} Customs" if en
                                   else f"{city.removesuffix('市')}海关缉私局")

    def _day(self, key: str) -> dt.date:
        value = self.facts[key].value
        assert isinstance(value, str), key  # a date fact's value is its ISO date
        return dt.date.fromisoformat(value)

    def _recommendation(self, d: dict, b: Bracket, fine: bool) -> str:
        """The prosecutor's sentencing recommendation: a range around the term the court gives."""
        months = d["months"]
        unit = 1 if b.sentence is DETENTION else 2 if months < 24 else 6
        lo = max(1 if b.sentence is DETENTION else 6, months - unit * self.rng.randint(0, 2))
        hi = max(lo + unit, months + unit * self.rng.randint(0, 2))
        if self.en:
            text = f"{b.sentence[0]} of {format_term(lo, 'en')} to {format_term(hi, 'en')}"
            text += " with probation" if d["probation"] else ""
            return text + (" and a fine" if fine else "")
        text = f"{b.sentence[1]}{format_term(lo, 'zh')}至{format_term(hi, 'zh')}"
        text += "，可适用缓刑" if d["probation"] else ""
        return text + ("，并处罚金" if fine else "")

    def _join(self, names: list[str]) -> str:
        if len(names) == 1:
            return names[0]
        return f"{names[0]} and {names[1]}" if self.en else f"{names[0]}、{names[1]}"

    def _defendant(self, i: int, n_def: int, crime: Crime, crime_date: dt.date) -> dict:
        rng, lang = self.rng, self.lang
        k = f"defendants.{i}."
        gender = "m" if rng.random() < (0.88 if crime.charge != "fraud" else 0.7) else "f"
        name, _ = self.person(gender)
        if crime.official:
            age = rng.randint(34, 58)
        elif crime.charge in ("drunk_driving", "traffic"):
            age = rng.randint(22, 60)
        else:
            age = rng.randint(19, 55)
        birth = crime_date - dt.timedelta(days=int(age * 365.25) + rng.randint(0, 360))
        age = age_on(birth, crime_date)
        self.text(k + "name", name, "person")
        self.add(text_fact(k + "gender", self.t(("male", "男") if gender == "m" else ("female", "女")), "category"))
        self.add(date_fact(k + "birth_date", birth, lang))
        self.add(count_fact(k + "age", age, lang, unit="years", text=f"{age} years old" if self.en else f"{age}周岁"))
        self.text(k + "birthplace", self.birthplace(), "place")
        if not self.en:
            self.text(k + "ethnicity", rng.choices([e for e, _ in ETHNICITIES], [w for _, w in ETHNICITIES])[0], "category")
        if crime.official:  # state functionaries are graduates holding a post
            education = EDUCATION[rng.choice((5, 5, 5, 6))]
            occupation = self._official_post(crime.bracket.level)
        else:
            education = EDUCATION[rng.choices(range(6), (6, 30, 25, 12, 17, 10))[0]]
            occupation = self.t(rng.choice(DRIVER_OCCUPATIONS if crime.charge == "traffic" else OCCUPATIONS))
            if crime.charge == "smuggling":
                occupation = self.t(("the manager of a trading company", "贸易公司负责人"))
        self.text(k + "education", self.t(education), "category")
        self.text(k + "occupation", occupation)
        self.text(k + "residence", self.address(), "place")

        # prior record: never for officials; a recidivist is one released within five years who
        # now earns fixed-term imprisonment
        prior = not crime.official and rng.random() < 0.25
        recidivist = False
        if prior:
            release = crime_date - dt.timedelta(days=rng.randint(200, 2900))
            prior_months = rng.choice((6, 8, 10, 12, 14, 18, 24, 30, 36))
            convicted = add_months(release, -prior_months) + dt.timedelta(days=1)
            if age_on(birth, convicted - dt.timedelta(days=120)) < 18:
                prior = False
        if prior:
            prior_charge = rng.choice(PRIOR_CHARGES)
            month = format_date(convicted, lang, "month")
            if self.en:
                record = (f"sentenced in {month} to {format_term(prior_months, 'en')} of fixed-term "
                          f"imprisonment for {prior_charge[0]}")
            else:
                record = f"{month}因犯{prior_charge[1]}被判处有期徒刑{format_term(prior_months, 'zh')}"
            self.text(k + "prior_record", record)
            self.add(date_fact(k + "release_date", release, lang))
            recidivist = (crime_date - release).days < 5 * 365 and crime.bracket.sentence is IMPRISONMENT
            if recidivist:
                self.text(k + "recidivism", self.t(("recidivist", "累犯")), "category")
        else:
            self.text(k + "prior_record", self.t(("no previous criminal record", "无前科")))
        surrender = rng.random() < (0.45 if crime.official else 0.3)
        self.text(k + "confession", self.t(("voluntary surrender", "自首") if surrender
                                           else ("truthful confession", "坦白")), "category")
        if n_def == 2:
            self.text(k + "role", self.t(("principal", "主犯") if i == 0 else ("accessory", "从犯")), "category")
        return {"i": i, "name": name, "gender": gender, "surrender": surrender, "recidivist": recidivist,
                "prior": prior, "accessory": n_def == 2 and i == 1, "probation": False}

    # -- sentencing ------------------------------------------------------------------------------

    def _sentence(self, defendants: list[dict], crime: Crime, restitution: float | None) -> None:
        rng, b = self.rng, crime.bracket
        lo, hi = b.term
        for d in defendants:
            if crime.charge == "drunk_driving":
                months = crime.extras["fixed_months"]
            else:
                x = 0.12 + 0.7 * b.position + rng.uniform(-0.1, 0.12)
                if d["surrender"]:
                    x -= 0.12
                else:
                    x -= 0.05
                if restitution:
                    x -= 0.1
                if d["recidivist"]:
                    x += 0.18
                elif d["prior"]:
                    x += 0.06
                months = round(lo + (hi - lo) * min(1.0, max(0.0, x)))
                if d["accessory"]:
                    principal = defendants[0]["months"]
                    months = max(6, min(principal - 2, round(principal * rng.uniform(0.5, 0.8))))
                    if months >= principal:  # the principal sits at the floor: raise the principal
                        defendants[0]["months"] = principal = months + 3
            d["months"] = months
        # probation: a term of three years or less, no recidivism, and remorse shown by restitution
        # (or the nature of the offence for drunk and careless driving)
        for d in defendants:
            if d["accessory"] and defendants[0]["months"] <= d["months"]:
                raise AssertionError("accessory sentenced above the principal")
            eligible = (d["months"] <= 36 and not d["recidivist"]
                        and (restitution or crime.charge in ("drunk_driving", "traffic"))
                        and crime.charge not in ("drugs", "robbery")
                        and (len(defendants) == 1 or d["accessory"]))
            if crime.charge == "drunk_driving" and d["months"] < 3:
                eligible = True  # a short detention with custody before trial would already be served
            d["probation"] = bool(eligible and (rng.random() < 0.6 or (crime.charge == "drunk_driving" and d["months"] < 3)))
        fine0 = None
        for d in defendants:
            k = f"defendants.{d['i']}."
            months = d["months"]
            self.add(text_fact(k + "sentence_type", self.t(b.sentence), "category"))
            self.add(count_fact(k + "term", months, self.lang, unit="months", text=format_term(months, self.lang)))
            if d["probation"]:
                if b.sentence is DETENTION:
                    p = rng.randint(max(2, months + 1), 12)
                else:
                    p = rng.randint(max(12, months + 1), min(60, max(12, months + 1) + 18))
                    p = max(p, 12)
                self.add(count_fact(k + "probation", p, self.lang, unit="months", text=format_term(p, self.lang)))
            if crime.fine:
                fine = self._fine(crime, months)
                if d["accessory"] and fine0 is not None:
                    fine = max(1000, min(fine0 - 500 if fine0 <= 2e4 else fine0 - 1000,
                                         round_fine(fine0 * rng.uniform(0.4, 0.8))))
                fine0 = fine if fine0 is None else fine0
                self.add(money_fact(k + "fine", fine, self.lang))

    def _fine(self, crime: Crime, months: int) -> int:
        rng, amount = self.rng, crime.amount
        rule = crime.fine
        if rule == "property":
            assert amount is not None, rule  # the rules that scale with the amount: crimes that have one
            return round_fine(min(max(amount * rng.uniform(0.15, 0.5), 2_000), 200_000))
        if rule == "robbery":
            return round_fine(rng.uniform(2_000, 12_000) * (2 if crime.bracket.level == "intermediate" else 1))
        if rule == "drunk_driving":
            return round_fine(1_500 + months * rng.uniform(900, 2_200))
        if rule == "duty":
            assert amount is not None, rule
            lo_hi = {0: (100_000, 500_000), 1: (200_000, min(2 * amount, 1_500_000)),
                     2: (500_000, min(2 * amount, 5_000_000))}
            bracket = 0 if amount < 200_000 else 1 if amount < 3_000_000 else 2
            lo, hi = lo_hi[bracket]
            return round_fine(rng.uniform(lo, max(lo, hi)))
        if rule == "drugs":
            lo, hi = (10_000, 60_000) if crime.extras.get("serious") else (2_000, 12_000)
            return round_fine(rng.uniform(lo, hi))
        if rule == "smuggling":  # one to five times the evaded duty: never below it
            assert amount is not None, rule
            step = 10_000
            return int(math.ceil(amount * rng.uniform(1.0, 1.6) / step) * step)
        if rule == "illegal_business":  # one to five times the illegal gains
            gains = crime.extras["gains"]
            step = 1000 if gains < 2e5 else 10_000
            return int(math.ceil(gains * rng.uniform(1.0, 2.5) / step) * step)
        raise ValueError(rule)

    # -- dates -----------------------------------------------------------------------------------

    def _timeline(self, defendants: list[dict], crime: Crime, crime_date: dt.date) -> None:
        rng, lang = self.rng, self.lang
        lo, hi = crime.detention_gap
        first = crime_date + dt.timedelta(days=rng.randint(lo, hi))
        detentions = [first] + [first + dt.timedelta(days=rng.randint(0, 25)) for _ in defendants[1:]]
        # gaps: detention -> arrest/bail, latest custody -> indictment, -> hearing, -> judgment
        mins = (3, 20, 10, 1)
        gaps = [rng.randint(5, 30), rng.randint(35, 160), rng.randint(12, 60), rng.randint(1, 28)]
        custodial = [d for d in defendants if not d["probation"]]
        if custodial:
            # a term counted from detention must still be running three weeks after judgment:
            # judgment <= latest detention + sum(gaps) <= earliest term end - 21 days
            budget = min((term_end(detentions[d["i"]], d["months"]) - max(detentions)).days
                         for d in custodial) - 21
            spare, room = sum(gaps) - sum(mins), budget - sum(mins)
            if room < 0:
                raise AssertionError("term too short for the minimum procedure")
            if spare > room:
                gaps = [m + (g - m) * room // spare for g, m in zip(gaps, mins, strict=False)]
        custody = [det + dt.timedelta(days=rng.randint(mins[0], max(mins[0], gaps[0]))) for det in detentions]
        indictment = max(custody) + dt.timedelta(days=gaps[1])
        hearing = indictment + dt.timedelta(days=gaps[2])
        judgment = hearing + dt.timedelta(days=gaps[3])
        for d, det, cus in zip(defendants, detentions, custody, strict=False):
            k = f"defendants.{d['i']}."
            self.add(date_fact(k + "detention_date", det, lang))
            if d["probation"]:
                self.add(date_fact(k + "bail_date", cus, lang))
            else:
                self.add(date_fact(k + "arrest_date", cus, lang))
                self.add(date_fact(k + "term_start", det, lang))
                self.add(date_fact(k + "term_end", term_end(det, d["months"]), lang))
        self.add(date_fact("indictment_date", indictment, lang))
        self.add(date_fact("hearing_date", hearing, lang))
        self.add(date_fact("judgment_date", judgment, lang))
        serial = self.rng.randint(12, 1480) if crime.bracket.level == "basic" else self.rng.randint(3, 260)
        if self.en:
            case_number = f"({indictment.year}) {self.case_code} Xing Chu No {serial}"
        else:
            case_number = f"（{indictment.year}）{self.case_code}刑初{serial}号"
        self.text("case_number", case_number)
        number = self.rng.randint(20, 2600)
        if self.en:
            self.extras["indictment_no"] = f"Indictment ({indictment.year}) No {number}"
        else:
            short = self.place["city"][0] + ("" if crime.bracket.level == "intermediate" else self.place["district"][0])
            self.extras["indictment_no"] = f"{short}检刑诉〔{indictment.year}〕{number}号"

    # -- statutes --------------------------------------------------------------------------------

    def _article_text(self, tokens: tuple[str, ...]) -> str:
        if len(tokens) == 1:
            return f"Article {tokens[0]}"
        return "Articles " + ", ".join(tokens[:-1]) + " and " + tokens[-1]

    def _articles(self, defendants: list[dict], crime: Crime) -> None:
        used: set[str] = set()
        if len(defendants) == 2:
            used |= {"joint", "principal", "principal_4", "accessory"}
        for d in defendants:
            used.add("surrender" if d["surrender"] else "confession")
            if d["recidivist"]:
                used.add("recidivism")
            if d["probation"]:
                used |= {"probation", "probation_3", "probation_start",
                         "probation_term_detention" if crime.bracket.sentence is DETENTION else "probation_term"}
        if crime.fine:
            used |= {"fine", "fine_2"}
        if crime.amount is not None or "weapon" in {f.key for f in crime.facts}:
            used.add("recovery")
        general = [ARTICLES[k] for k in _ARTICLE_ORDER if k in used]
        if self.en:
            tokens = list(crime.bracket.article_en) + [en for en, _ in general]
            text = self._article_text(tuple(tokens))
        else:
            text = "、".join([crime.bracket.article_zh] + [zh for _, zh in general])
        self.text("articles_cited", text)

    def _appraisal_agency(self, charge: str) -> str:
        city = self.place["city"]
        tobacco = charge == "illegal_business" and self.facts["goods"].text in ("cigarettes", "卷烟")
        if self.en:
            return {
                "theft": f"{city} Price Certification Center", "robbery": f"{city} Price Certification Center",
                "fraud": f"{self.rng.choice(AUDIT_WORDS)[0]} Certified Public Accountants",
                "embezzlement": f"{self.rng.choice(AUDIT_WORDS)[0]} Certified Public Accountants",
                "bribery": f"{self.rng.choice(AUDIT_WORDS)[0]} Certified Public Accountants",
                "injury": f"Forensic Identification Office of the {city} Public Security Bureau",
                "quarrels": f"Forensic Identification Office of the {city} Public Security Bureau",
                "drunk_driving": f"Forensic Identification Office of the {city} Public Security Bureau",
                "drugs": f"Forensic Identification Office of the {city} Public Security Bureau",
                "traffic": f"{self.place['district']} Brigade of the {city} Traffic Police Detachment",
                "smuggling": f"{city} Customs",
                "illegal_business": f"{city} Tobacco Monopoly Bureau" if tobacco
                else f"{city} Price Certification Center",
            }[charge]
        audit = self.place["province"].removesuffix("省").removesuffix("壮族自治区") + self.rng.choice(AUDIT_WORDS)[1] + "会计师事务所"
        return {
            "theft": f"{city}价格认证中心", "robbery": f"{city}价格认证中心",
            "fraud": audit, "embezzlement": audit, "bribery": audit,
            "injury": f"{city}公安局物证鉴定所", "quarrels": f"{city}公安局物证鉴定所",
            "drunk_driving": f"{city}公安局物证鉴定所", "drugs": f"{city}公安局物证鉴定所",
            "traffic": f"{city}公安局交通警察支队{self.place['district']}大队",
            "smuggling": f"{city.removesuffix('市')}海关",
            "illegal_business": f"{city}烟草专卖局" if tobacco else f"{city}价格认证中心",
        }[charge]
