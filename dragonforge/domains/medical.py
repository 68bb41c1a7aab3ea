"""Config generator for the ``medical`` domain: one inpatient record (DRAGONBall Medical).

One config is one hospital stay. The diagnosis is drawn from a closed catalogue of conditions
across the major specialties, and everything else follows from it, so a record keeps its
clinical logic:

* sex and age fit the condition (prostate disease only in men, gynaecological and obstetric
  conditions only in women of the right age, paediatric conditions only in children);
* the chief complaint, symptoms, examination findings, laboratory values (abnormal in the
  direction the diagnosis implies, judged against the stated reference range), imaging,
  procedure, medications, hospital course and follow-up advice all belong to that condition,
  and numbers that recur (a stone size on CT and at ureteroscopy, a hematoma volume and the
  volume aspirated) agree;
* dates are ordered: admission <= imaging before the procedure <= procedure < later imaging <
  discharge < follow-up, and the length of stay is discharge minus admission in days;
* the hospitalisation cost is the exact sum of its four parts (in whole dollars in English,
  in hundreds of yuan in Chinese so that "万元" amounts are exact);
* a drug allergy never names a drug class the record then prescribes;
* routine panel results (hemoglobin, potassium, creatinine ...) are drawn inside their reference
  range and left out where the condition would make them abnormal; Chinese records report more of
  them than English discharge summaries do, as the two genres do.

English configs use Faker en_US names and fictional US towns with dollars; Chinese configs use
Faker zh_CN names, real Chinese cities and districts, and yuan.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from dataclasses import dataclass

from dragonforge.domains._common import (
    count_fact,
    date_fact,
    faker_for,
    money_fact,
    percent_fact,
    text_fact,
)
from dragonforge.models import Config, Fact, Language

T = tuple[str, str]  # (English, Chinese)
ADMISSION_START, ADMISSION_DAYS = dt.date(2021, 1, 1), 4 * 365


# --- catalogue building blocks ----------------------------------------------------------------


@dataclass(frozen=True)
class Lab:
    name: T
    unit: T
    ref: tuple[float, float]
    value: tuple[float, float]  # the range this condition's result is drawn from
    decimals: int = 1
    female_ref: tuple[float, float] | None = None
    female_value: tuple[float, float] | None = None


@dataclass(frozen=True)
class Imaging:
    name: T
    finding: T
    after_procedure: bool = False  # a repeat study done after the procedure


@dataclass(frozen=True)
class Med:
    name: T
    dose: T
    route: str  # key of ROUTES
    freq: str   # key of FREQUENCIES
    beta_lactam: bool = False
    purpose: T | None = None  # overrides PURPOSES where the indication differs

    def why(self) -> T:
        return self.purpose or PURPOSES[self.name[0]]


# Why each drug is given, as an infinitive clause ("to ...") and a Chinese verb phrase ("以...").
PURPOSES: dict[str, T] = {
    "acetaminophen": ("to relieve pain", "止痛"),
    "acetylcysteine": ("to thin the sputum", "稀释痰液"),
    "acetylcysteine solution": ("to thin the sputum", "稀释痰液"),
    "ambroxol": ("to loosen the sputum", "化痰"),
    "amiodarone": ("to maintain sinus rhythm", "维持窦性心律"),
    "amlodipine": ("to control blood pressure", "控制血压"),
    "amoxicillin": ("to eradicate Helicobacter pylori", "根除幽门螺杆菌"),
    "anisodamine": ("to relieve biliary spasm", "解痉止痛"),
    "aspirin": ("to inhibit platelet aggregation", "抗血小板聚集"),
    "atorvastatin": ("to lower cholesterol and stabilize plaque", "调脂稳定斑块"),
    "azithromycin": ("to cover atypical pathogens such as Mycoplasma", "覆盖支原体等非典型病原体"),
    "budesonide suspension": ("to reduce airway inflammation", "减轻气道炎症"),
    "butylphthalide injection": ("to improve collateral circulation", "改善侧支循环"),
    "calcium carbonate with vitamin D3": ("to treat osteoporosis", "抗骨质疏松"),
    "cefazolin": ("to prevent surgical site infection", "预防手术部位感染"),
    "cefoperazone-sulbactam": ("to treat the biliary infection", "控制胆道感染"),
    "ceftriaxone": ("to treat the bacterial infection", "抗细菌感染"),
    "cefuroxime": ("to prevent surgical site infection", "预防手术部位感染"),
    "celecoxib": ("to relieve pain and inflammation", "消炎止痛"),
    "clarithromycin": ("to eradicate Helicobacter pylori", "根除幽门螺杆菌"),
    "dapagliflozin": ("to lower blood glucose", "降糖"),
    "dexamethasone": ("to reduce swelling of the nerve root", "减轻神经根水肿"),
    "diclofenac sodium suppository": ("to relieve renal colic", "缓解肾绞痛"),
    "dipyridamole": ("to prevent platelet aggregation", "抗血小板聚集"),
    "edaravone": ("to scavenge free radicals and protect brain cells", "清除自由基、保护脑细胞"),
    "enoxaparin": ("to prevent venous thrombosis", "预防静脉血栓形成"),
    "esomeprazole": ("to suppress gastric acid", "抑酸"),
    "famotidine": ("to protect the stomach from high-dose aspirin", "抑酸护胃"),
    "ferrous succinate": ("to correct iron-deficiency anemia", "纠正缺铁性贫血"),
    "finasteride": ("to shrink the prostate", "缩小前列腺体积"),
    "flurbiprofen axetil": ("to relieve postoperative pain", "术后镇痛"),
    "insulin aspart": ("to control blood glucose after meals", "控制餐后血糖"),
    "insulin glargine": ("to provide basal insulin", "补充基础胰岛素"),
    "ipratropium bromide solution": ("to open the airways", "扩张支气管"),
    "iron sucrose": ("to replenish iron stores", "补充铁储备"),
    "labetalol": ("to lower blood pressure", "降压"),
    "levofloxacin": ("to prevent or treat infection", "抗感染"),
    "magnesium sulfate": ("to prevent eclamptic seizures", "预防子痫抽搐"),
    "mannitol": ("to reduce tissue swelling", "脱水消肿"),
    "mecobalamin": ("to support nerve repair", "营养神经"),
    "meropenem": ("to treat the severe infection", "抗重症感染"),
    "metformin": ("to lower blood glucose", "降糖"),
    "methylprednisolone": ("to control inflammation", "抗炎"),
    "metoprolol succinate": ("to slow the heart rate and protect the heart muscle", "控制心率、保护心肌"),
    "metoprolol tartrate": ("to control the ventricular rate", "控制心室率"),
    "metronidazole": ("to cover anaerobic bacteria", "抗厌氧菌"),
    "octreotide": ("to reduce pancreatic secretion", "抑制胰液分泌"),
    "omeprazole": ("to protect the stomach", "护胃"),
    "ondansetron": ("to prevent nausea and vomiting", "止吐"),
    "ornidazole": ("to cover anaerobic bacteria", "抗厌氧菌"),
    "oxytocin": ("to help the uterus contract", "促进子宫收缩"),
    "piperacillin-tazobactam": ("to treat the bacterial infection", "抗细菌感染"),
    "potassium chloride sustained-release tablets": ("to replace potassium", "补钾"),
    "prednisone": ("to prevent worsening eye disease after radioiodine", "预防碘-131治疗后突眼加重"),
    "propranolol": ("to control the heart rate and tremor", "控制心率、改善震颤"),
    "rivaroxaban": ("to prevent clots and stroke", "抗凝预防血栓栓塞"),
    "sucralfate suspension": ("to protect the ulcer surface", "保护溃疡面"),
    "tamsulosin": ("to relax the smooth muscle of the urinary tract", "松弛尿路平滑肌"),
    "ticagrelor": ("to add a second antiplatelet agent to aspirin", "与阿司匹林联合双联抗血小板"),
    "ulinastatin": ("to inhibit pancreatic enzymes", "抑制胰酶活性"),
    "urapidil": ("to bring blood pressure down quickly", "快速降压"),
}


@dataclass(frozen=True)
class Procedure:
    name: T
    kind: str  # surgery | procedure | therapy
    day: tuple[int, int]  # days after admission
    finding: T
    cost: tuple[tuple[int, int], tuple[int, int]]  # (USD range, CNY range)
    outcome: bool = False  # the finding is a result (a delivery, a response), not something found

    @property
    def finding_style(self) -> str:
        return "outcome" if self.outcome or self.kind == "therapy" else "found"


@dataclass(frozen=True, kw_only=True)
class Condition:
    key: str
    category: str
    department: T
    diagnosis: T
    age: tuple[int, int]
    sex: str = "any"  # any | male | female
    male_share: float = 0.5
    acute: bool = True  # admitted through the emergency department
    los: tuple[int, int]
    onset: tuple[str, int, int]  # (hours | days | months | years, lo, hi)
    complaint: T
    associated: T
    present: T
    pre_admission: T
    vitals: dict[str, tuple[float, float]]
    appearance: T
    exam: T
    abnormal: frozenset[str] = frozenset()  # body systems whose examination is abnormal
    negatives: T  # pertinent negatives of the history
    basis: T  # the grounds of the diagnosis
    differential: T
    diet: T
    labs: tuple[Lab, Lab, Lab]  # the first is the one the diagnosis turns on
    imaging: tuple[Imaging, ...]
    procedure: Procedure
    meds: tuple[Med, ...]  # the first two are always given, one more is drawn from the rest
    course: T
    course_day: str | None = None  # {d} in the course is a hospital day ("stay") or a postoperative day ("post")
    discharge: T
    followup_days: tuple[int, int]
    instructions: T
    comorbid: tuple[str, ...] = ()
    no_comorbid: float = 0.5
    forced_past: T | None = None
    family: tuple[T, ...] = ()
    params: Callable[[random.Random], dict[str, str | T]] | None = None
    family_informant: bool = False  # the history comes from relatives (impaired consciousness, aphasia)
    gynecologic: bool = False  # menstruation or pregnancy is part of the presenting problem


ROUTES: dict[str, T] = {
    "po": ("orally", "口服"),
    "iv": ("intravenously", "静脉滴注"),
    "ivp": ("by intravenous injection", "静脉注射"),
    "civ": ("by continuous intravenous infusion", "静脉泵入"),
    "sc": ("subcutaneously", "皮下注射"),
    "im": ("intramuscularly", "肌内注射"),
    "neb": ("by nebulization", "雾化吸入"),
    "pr": ("rectally", "纳肛"),
}
FREQUENCIES: dict[str, T] = {
    "qd": ("once daily", "每日1次"),
    "bid": ("twice daily", "每日2次"),
    "tid": ("three times daily", "每日3次"),
    "q8h": ("every 8 hours", "每8小时1次"),
    "q12h": ("every 12 hours", "每12小时1次"),
    "qn": ("once nightly", "每晚1次"),
    "hs": ("once at bedtime", "每晚睡前1次"),
    "ac": ("before each of the three main meals", "每日3次（三餐前）"),
    "prn": ("as needed", "必要时"),
    "qod": ("every other day", "隔日1次"),
    "div3": ("in three divided doses", "分3次"),
    "24h": ("for 24 hours", "持续24小时"),
}

BODY_SYSTEMS = ("head", "mouth", "neck", "chest", "skin", "nodes", "heart", "lungs", "abdomen", "limbs", "neuro")
# Review of systems: the organ systems whose "no history of ..." statement the condition (or a
# past illness) would contradict, so the record leaves them out.
ROS_SYSTEMS = ("respiratory", "cardiovascular", "digestive", "urinary", "endocrine", "nervous", "musculoskeletal",
               "blood")
ROS_AFFECTED: dict[str, tuple[str, ...]] = {
    "stemi": ("cardiovascular",), "af": ("cardiovascular",), "cap": ("respiratory", "cardiovascular"), "copd": ("respiratory",),
    "pneumothorax": ("respiratory", "cardiovascular"), "appendicitis": ("digestive",), "cholecystitis": ("digestive",),
    "ulcer_bleed": ("digestive", "blood", "cardiovascular", "nervous"), "pancreatitis": ("digestive",),
    "t2dm": ("endocrine", "urinary", "nervous"), "dka": ("endocrine", "digestive", "urinary", "nervous"),
    "graves": ("endocrine", "cardiovascular", "digestive", "nervous"), "stroke": ("nervous",), "ich": ("nervous", "digestive"),
    "hip_fracture": ("musculoskeletal",), "disc": ("musculoskeletal", "nervous"), "fibroids": ("blood", "nervous"),
    "ectopic": ("blood", "digestive", "nervous"), "preeclampsia": ("nervous", "digestive", "cardiovascular"),
    "bph": ("urinary",), "ureteral_stone": ("urinary", "digestive"), "colon_cancer": ("digestive", "blood"),
    "lung_cancer": ("respiratory",), "breast_cancer": (), "liver_abscess": ("digestive",), "mpp": ("respiratory",),
    "kawasaki": ("musculoskeletal", "cardiovascular"),
}
COMORBID_ROS: dict[str, str] = {"chd": "cardiovascular", "dm": "endocrine", "bronchitis": "respiratory",
                                "gout": "musculoskeletal", "osteoporosis": "musculoskeletal",
                                "appendectomy": "digestive", "hbv": "digestive"}
SIDES: tuple[T, T] = (("left", "左"), ("right", "右"))
ONSET_UNITS: dict[str, T] = {"hours": ("hour", "小时"), "days": ("day", "天"), "weeks": ("week", "周"),
                             "months": ("month", "个月"), "years": ("year", "年")}


def _n(rng: random.Random, lo: float, hi: float, decimals: int = 0, step: int = 1) -> str:
    if decimals:
        return f"{rng.uniform(lo, hi):.{decimals}f}"
    return str(rng.randrange(int(lo), int(hi) + 1, step))


def _an(number: str) -> T:
    """The English article before a number: 'an 8 mm stone', 'an 11.2 mm stone', 'a 9 mm stone'."""
    whole = int(float(number))
    eight = str(whole).startswith("8") and len(str(whole)) != 2 or 80 <= whole <= 89
    return ("an" if eight or whole in (11, 18) else "a", "")


def _side(rng: random.Random) -> dict[str, str | T]:
    side, other = SIDES if rng.random() < 0.5 else SIDES[::-1]
    return {"side": side, "oside": other}


# --- common laboratory tests ------------------------------------------------------------------

G9 = ("×10⁹/L", "×10⁹/L")
MMOL = ("mmol/L", "mmol/L")
UL = ("U/L", "U/L")
NGML = ("ng/mL", "ng/mL")
MGL = ("mg/L", "mg/L")
GL = ("g/L", "g/L")
UMOL = ("µmol/L", "μmol/L")
MMHG = ("mmHg", "mmHg")
PCT = ("%", "%")


def wbc(lo: float, hi: float) -> Lab:
    return Lab(("white blood cell count", "白细胞计数"), G9, (3.5, 9.5), (lo, hi))


def crp(lo: float, hi: float) -> Lab:
    return Lab(("C-reactive protein", "C反应蛋白"), MGL, (0, 10), (lo, hi))


def hemoglobin(lo: float, hi: float) -> Lab:
    return Lab(("hemoglobin", "血红蛋白"), GL, (130, 175), (lo, hi), 0, female_ref=(115, 150))


def ldl(lo: float, hi: float) -> Lab:
    return Lab(("low-density lipoprotein cholesterol", "低密度脂蛋白胆固醇"), MMOL, (0, 3.4), (lo, hi), 2)


def cea(lo: float, hi: float) -> Lab:
    return Lab(("carcinoembryonic antigen", "癌胚抗原"), NGML, (0, 5), (lo, hi))


def procalcitonin(lo: float, hi: float) -> Lab:
    return Lab(("procalcitonin", "降钙素原"), NGML, (0, 0.05), (lo, hi), 2)


def pao2(lo: float, hi: float) -> Lab:
    return Lab(("arterial partial pressure of oxygen", "动脉血氧分压"), MMHG, (80, 100), (lo, hi), 0)


def bilirubin(lo: float, hi: float) -> Lab:
    return Lab(("total bilirubin", "总胆红素"), UMOL, (3.4, 20.5), (lo, hi))


def creatinine(lo: float, hi: float) -> Lab:
    """Normal for either sex: women's results are drawn from the female reference range."""
    return Lab(("serum creatinine", "血肌酐"), UMOL, (57, 111), (lo, hi), 0, female_ref=(41, 81), female_value=(46, 76))


def platelets(lo: float, hi: float) -> Lab:
    return Lab(("platelet count", "血小板计数"), G9, (125, 350), (lo, hi), 0)


# Routine panel results reported beside the condition's own tests, drawn inside the reference
# range. Chinese records list more of them than English discharge summaries do.
ROUTINE_LABS: tuple[Lab, ...] = (
    Lab(("hemoglobin", "血红蛋白"), GL, (130, 175), (136, 166), 0, female_ref=(115, 150), female_value=(118, 143)),
    Lab(("platelet count", "血小板计数"), G9, (125, 350), (160, 310), 0),
    Lab(("serum potassium", "血钾"), MMOL, (3.5, 5.3), (3.6, 4.9), 1),
    Lab(("serum creatinine", "血肌酐"), UMOL, (57, 111), (62, 98), 0, female_ref=(41, 81), female_value=(46, 74)),
    Lab(("alanine aminotransferase", "丙氨酸氨基转移酶"), UL, (9, 50), (12, 40), 0, female_ref=(7, 40),
        female_value=(10, 34)),
    Lab(("serum albumin", "血清白蛋白"), GL, (40, 55), (41.0, 50.0), 1),
)
ROUTINE_COUNT = {"en": 1, "zh": 4}
# Routine tests a condition would plausibly make abnormal, so they are not reported as normal.
ROUTINE_EXCLUDED: dict[str, tuple[str, ...]] = {
    "pancreatitis": ("alanine aminotransferase",), "dka": ("serum potassium", "serum creatinine"),
    "graves": ("alanine aminotransferase",),
    "preeclampsia": ("alanine aminotransferase", "serum creatinine"), "colon_cancer": ("serum albumin",),
    "liver_abscess": ("alanine aminotransferase", "serum albumin"),
    "mpp": ("alanine aminotransferase",), "kawasaki": ("hemoglobin", "alanine aminotransferase"),
}
# Children have their own reference ranges.
ROUTINE_CHILD_LABS: tuple[Lab, ...] = (
    Lab(("hemoglobin", "血红蛋白"), GL, (110, 150), (116, 138), 0),
    Lab(("serum potassium", "血钾"), MMOL, (3.5, 5.5), (3.8, 5.0), 1),
    Lab(("serum creatinine", "血肌酐"), UMOL, (27, 62), (30, 50), 0),
    Lab(("alanine aminotransferase", "丙氨酸氨基转移酶"), UL, (7, 40), (10, 32), 0),
)

# --- the catalogue of conditions --------------------------------------------------------------

CEFUROXIME = Med(("cefuroxime", "头孢呋辛"), ("1.5 g", "1.5g"), "iv", "bid", beta_lactam=True)
CEFTRIAXONE = Med(("ceftriaxone", "头孢曲松"), ("2 g", "2g"), "iv", "qd", beta_lactam=True)
METRONIDAZOLE = Med(("metronidazole", "甲硝唑"), ("0.5 g", "0.5g"), "iv", "q8h")
ESOMEPRAZOLE = Med(("esomeprazole", "艾司奥美拉唑"), ("40 mg", "40mg"), "ivp", "q12h")
ASPIRIN = Med(("aspirin", "阿司匹林肠溶片"), ("100 mg", "100mg"), "po", "qd")
ATORVASTATIN = Med(("atorvastatin", "阿托伐他汀钙片"), ("40 mg", "40mg"), "po", "qn")
AMBROXOL = Med(("ambroxol", "氨溴索"), ("30 mg", "30mg"), "ivp", "bid")
FLURBIPROFEN = Med(("flurbiprofen axetil", "氟比洛芬酯"), ("50 mg", "50mg"), "ivp", "bid")
CELECOXIB = Med(("celecoxib", "塞来昔布胶囊"), ("200 mg", "0.2g"), "po", "bid")
ENOXAPARIN = Med(("enoxaparin", "依诺肝素钠"), ("4,000 IU", "4000IU"), "sc", "qd")
TAMSULOSIN = Med(("tamsulosin", "坦索罗辛缓释胶囊"), ("0.2 mg", "0.2mg"), "po", "qn")
LEVOFLOXACIN = Med(("levofloxacin", "左氧氟沙星"), ("0.5 g", "0.5g"), "iv", "qd")
FERROUS = Med(("ferrous succinate", "琥珀酸亚铁片"), ("0.1 g", "0.1g"), "po", "tid")


def _stemi_params(rng: random.Random) -> dict[str, str | T]:
    return {"st": _n(rng, 2, 5, 1), "ef": _n(rng, 40, 52), "occ": _n(rng, 90, 99)}


def _copd_params(rng: random.Random) -> dict[str, str | T]:
    return {"yrs": _n(rng, 10, 25), "co2": _n(rng, 44, 52), "d": _n(rng, 4, 6)}


def _pneumothorax_params(rng: random.Random) -> dict[str, str | T]:
    return {**_side(rng), "pct": _n(rng, 40, 75, step=5), "nb": _n(rng, 2, 4),
            "bsize": _n(rng, 1.2, 3.5, 1), "d": _n(rng, 1, 3)}


def _t2dm_params(rng: random.Random) -> dict[str, str | T]:
    return {"yrs": _n(rng, 3, 15), "kg": _n(rng, 4, 9), "g1": _n(rng, 5.6, 6.4, 1),
            "g2": _n(rng, 7.0, 7.8, 1), "dd": _n(rng, 3, 5), "u1": _n(rng, 4, 8), "u2": _n(rng, 10, 20)}


def _preeclampsia_params(rng: random.Random) -> dict[str, str | T]:
    efw = rng.randrange(1800, 3010, 10)
    baby = rng.choice((("baby boy", "男婴"), ("baby girl", "女婴")))
    return {"gw": _n(rng, 32, 37), "fhr": _n(rng, 132, 156), "efw": str(efw), "baby": baby,
            "bw": str(efw + rng.randrange(-150, 160, 10)), "a1": _n(rng, 7, 9), "a2": _n(rng, 9, 10),
            "d": _n(rng, 2, 3)}


def _liver_abscess_params(rng: random.Random) -> dict[str, str | T]:
    size = rng.uniform(5.2, 8.8)
    return _with_article({"s": f"{size:.1f}", "s2": f"{size * rng.uniform(0.4, 0.6):.1f}",
                          "ml": _n(rng, 60, 180, step=10), "d": _n(rng, 3, 6)})


def _ich_params(rng: random.Random) -> dict[str, str | T]:
    vol = rng.randint(32, 55)
    return {**_side(rng), "vol": str(vol), "asp": str(vol - rng.randint(12, 22)), "gcs": _n(rng, 9, 13),
            "g": _n(rng, 1, 3), "d": _n(rng, 3, 5), "yrs": _n(rng, 5, 20)}


def _with_article(params: dict[str, str | T]) -> dict[str, str | T]:
    size = params["s"]
    assert isinstance(size, str)  # a number drawn by _n
    return {**params, "a_s": _an(size)}


CONDITIONS: tuple[Condition, ...] = (
    # --- cardiology ---
    Condition(
        key="stemi", category="cardiology",
        appearance=("alert but anxious and in obvious pain", "神志清楚，精神紧张，急性痛苦面容"),
        negatives=("no fainting, cough or coughing up of blood", "无晕厥、咳嗽及咯血"),
        basis=("typical ischemic chest pain, ST elevation in the inferior leads and a raised troponin", "典型缺血性胸痛、下壁导联ST段抬高及肌钙蛋白升高"),
        differential=("aortic dissection and acute pulmonary embolism", "主动脉夹层及急性肺栓塞"),
        diet=("a low-salt, low-fat diet", "低盐低脂饮食"),
        abnormal=frozenset(("heart", "lungs")),
        department=("Department of Cardiology", "心血管内科"),
        diagnosis=("acute inferior ST-elevation myocardial infarction", "急性下壁ST段抬高型心肌梗死"),
        age=(42, 84), male_share=0.75, los=(6, 12), onset=("hours", 2, 10),
        complaint=("crushing retrosternal chest pain", "胸骨后压榨样疼痛"),
        associated=("profuse sweating, nausea and shortness of breath", "大汗、恶心及胸闷气短"),
        present=("the pain came on at rest, radiated to the left shoulder and jaw, and did not ease with rest",
                 "疼痛于静息状态下突然发作，呈持续性压榨样，范围约手掌大小，向左肩及下颌部放射，伴濒死感，休息后不能缓解"),
        pre_admission=("{he} took sublingual nitroglycerin twice at home without relief",
                       "自行舌下含服硝酸甘油2次，症状无缓解"),
        vitals={"sbp": (96, 148), "hr": (52, 108), "rr": (16, 24), "spo2": (92, 98)},
        exam=("cold, clammy skin, a soft fourth heart sound and clear lung fields",
              "皮肤湿冷，心律齐，可闻及第四心音，双肺呼吸音清"),
        labs=(Lab(("cardiac troponin I", "肌钙蛋白I"), NGML, (0, 0.04), (1.8, 45.0), 2),
              Lab(("creatine kinase-MB", "肌酸激酶同工酶"), UL, (0, 24), (68, 320), 0),
              ldl(3.5, 5.6)),
        imaging=(Imaging(("12-lead electrocardiography", "12导联心电图"),
                         ("ST-segment elevation of {st} mm in leads II, III and aVF", "Ⅱ、Ⅲ、aVF导联ST段抬高{st}mm")),
                 Imaging(("transthoracic echocardiography", "经胸超声心动图"),
                         ("hypokinesis of the inferior wall with a left ventricular ejection fraction of {ef}%",
                          "左心室下壁运动减弱，左心室射血分数{ef}%"), after_procedure=True)),
        procedure=Procedure(
            ("emergency percutaneous coronary intervention with drug-eluting stent implantation in the right coronary artery",
             "急诊经皮冠状动脉介入治疗（右冠状动脉药物洗脱支架植入术）"),
            "procedure", (0, 0),
            ("a thrombotic stenosis of {occ}% in the proximal right coronary artery",
             "右冠状动脉近段血栓性狭窄约{occ}%"),
            ((18000, 32000), (35000, 58000))),
        meds=(ASPIRIN,
              Med(("ticagrelor", "替格瑞洛片"), ("90 mg", "90mg"), "po", "bid"),
              ATORVASTATIN,
              Med(("metoprolol succinate", "琥珀酸美托洛尔缓释片"), ("47.5 mg", "47.5mg"), "po", "qd")),
        course=("chest pain resolved after reperfusion, cardiac enzymes trended down and telemetry showed no malignant arrhythmia",
                "术后胸痛完全缓解，心肌酶逐日下降，心电监护未见恶性心律失常"),
        discharge=("{he} was free of chest pain and walking independently on the ward",
                   "无胸痛胸闷，可在病区内自由活动，穿刺部位愈合良好"),
        followup_days=(7, 14),
        instructions=("continue dual antiplatelet therapy for twelve months, stop smoking, and join a cardiac rehabilitation program",
                      "坚持双联抗血小板治疗12个月，严格戒烟，参加心脏康复训练"),
        comorbid=("htn", "dm", "hld"), no_comorbid=0.3, params=_stemi_params,
    ),
    Condition(
        key="af", category="cardiology",
        appearance=("alert and comfortable at rest", "神志清楚，精神可，静息状态下无明显不适"),
        negatives=("no chest pain, fainting or leg swelling", "无胸痛、晕厥及双下肢水肿"),
        basis=("palpitations, an irregularly irregular pulse and atrial fibrillation on the electrocardiogram lasting more than seven days", "心悸、心律绝对不齐及心电图示心房颤动持续超过7天"),
        differential=("atrial flutter and an arrhythmia caused by hyperthyroidism", "心房扑动及甲状腺功能亢进所致心律失常"),
        diet=("a low-salt, low-fat diet", "低盐低脂饮食"),
        abnormal=frozenset(("heart",)),
        department=("Department of Cardiology", "心血管内科"),
        diagnosis=("persistent atrial fibrillation", "持续性心房颤动"),
        age=(50, 80), male_share=0.6, acute=False, los=(5, 9), onset=("months", 2, 18),
        complaint=("palpitations", "心悸"),
        associated=("fatigue and breathlessness on exertion", "乏力及活动后气促"),
        present=("the palpitations had become continuous over the past two weeks and were worse on climbing stairs",
                 "近2周心悸由阵发性转为持续性，活动及爬楼时加重，休息后稍缓解，夜间可平卧"),
        pre_admission=("{he} had been taking metoprolol prescribed at a local clinic with little effect",
                       "曾于当地诊所口服美托洛尔治疗，效果欠佳"),
        vitals={"hr": (105, 148), "sbp": (110, 150)},
        exam=("an irregularly irregular rhythm, a first heart sound of varying intensity and a pulse deficit",
              "心律绝对不齐，第一心音强弱不等，脉搏短绌"),
        labs=(Lab(("N-terminal pro-B-type natriuretic peptide", "N末端B型利钠肽原"), ("pg/mL", "pg/mL"),
                  (0, 125), (420, 1850), 0),
              Lab(("thyroid-stimulating hormone", "促甲状腺激素"), ("mIU/L", "mIU/L"), (0.27, 4.2), (0.9, 3.6), 2),
              Lab(("serum potassium", "血钾"), MMOL, (3.5, 5.3), (3.6, 4.8), 1)),
        imaging=(Imaging(("transesophageal echocardiography", "经食管超声心动图"),
                         ("an enlarged left atrium of {la} mm with no thrombus in the left atrial appendage",
                          "左心房内径{la}mm，左心耳内未见血栓")),),
        procedure=Procedure(
            ("radiofrequency catheter ablation with pulmonary vein isolation", "射频导管消融术（环肺静脉电隔离）"),
            "procedure", (1, 3),
            ("complete electrical isolation of all four pulmonary veins with restoration of sinus rhythm",
             "四根肺静脉均实现电隔离，术中恢复窦性心律"),
            ((15000, 28000), (40000, 68000))),
        meds=(Med(("rivaroxaban", "利伐沙班片"), ("20 mg", "20mg"), "po", "qd"),
              Med(("amiodarone", "胺碘酮片"), ("200 mg", "0.2g"), "po", "tid"),
              Med(("metoprolol tartrate", "酒石酸美托洛尔片"), ("25 mg", "25mg"), "po", "bid")),
        course=("telemetry showed stable sinus rhythm after ablation and the groin puncture sites healed without hematoma",
                "术后心电监护示窦性心律维持良好，腹股沟穿刺处无血肿"),
        discharge=("{he} remained in sinus rhythm without palpitations", "窦性心律，无心悸不适"),
        followup_days=(21, 35),
        instructions=("keep taking the anticoagulant without interruption, avoid strong tea and alcohol, and wear a 24-hour Holter monitor before the visit",
                      "坚持抗凝治疗、不可自行停药，避免饮浓茶及饮酒，复诊前完成24小时动态心电图检查"),
        comorbid=("htn", "dm", "hld", "chd"), no_comorbid=0.35,
        params=lambda rng: {"la": _n(rng, 40, 52)},
    ),
    # --- respiratory ---
    Condition(
        key="cap", category="respiratory",
        appearance=("alert, flushed and feverish", "神志清楚，急性热病容，面色潮红"),
        negatives=("no coughing up of blood, night sweats or leg swelling", "无咯血、盗汗及双下肢水肿"),
        basis=("fever, a productive cough, crackles over the right lower chest and consolidation on CT", "发热、咳嗽咳痰、右下肺湿啰音及胸部CT示实变影"),
        differential=("pulmonary tuberculosis and obstructive pneumonia caused by a lung tumor", "肺结核及肺部肿瘤所致阻塞性肺炎"),
        diet=("a light, easily digested diet", "清淡易消化饮食"),
        abnormal=frozenset(("lungs",)),
        department=("Department of Respiratory Medicine", "呼吸与危重症医学科"),
        diagnosis=("community-acquired pneumonia of the right lower lobe with parapneumonic effusion",
                   "右下肺社区获得性肺炎伴类肺炎性胸腔积液"),
        age=(20, 85), male_share=0.55, los=(7, 14), onset=("days", 3, 7),
        complaint=("fever and cough with yellow sputum", "发热伴咳嗽、咳黄痰"),
        associated=("chills and right-sided chest pain on deep breathing", "畏寒，右侧胸痛，深呼吸时加重"),
        present=("the fever was highest in the afternoon and the cough worsened at night",
                 "起病前有受凉史，发热以午后为著，咳嗽呈阵发性，夜间加重，痰为黄色黏痰，不易咳出"),
        pre_admission=("{he} took an over-the-counter cold remedy without improvement", "自服感冒药（具体不详），症状无好转"),
        vitals={"temp": (38.2, 39.8), "hr": (92, 118), "rr": (20, 28), "spo2": (90, 95)},
        exam=("dullness to percussion and coarse crackles over the right lower chest",
              "右下肺叩诊浊音，可闻及湿性啰音"),
        labs=(wbc(12.1, 19.8), crp(58, 186), procalcitonin(0.6, 4.8)),
        imaging=(Imaging(("chest CT", "胸部CT"),
                         ("consolidation with air bronchograms in the right lower lobe and a small right pleural effusion",
                          "右肺下叶实变影，内见支气管充气征，伴右侧少量胸腔积液")),
                 Imaging(("repeat chest CT", "胸部CT（复查）"),
                         ("marked absorption of the consolidation in the right lower lobe", "右肺下叶实变影较前明显吸收"),
                         after_procedure=True)),
        procedure=Procedure(
            ("ultrasound-guided diagnostic thoracentesis of the right pleural space", "超声引导下右侧胸腔穿刺抽液术"),
            "procedure", (1, 3),
            ("{vol} mL of straw-colored exudative pleural fluid", "抽出淡黄色渗出性胸水{vol}mL"),
            ((900, 1900), (600, 1500))),
        meds=(CEFTRIAXONE,
              Med(("azithromycin", "阿奇霉素"), ("500 mg", "0.5g"), "iv", "qd"),
              Med(("ambroxol", "氨溴索片"), ("30 mg", "30mg"), "po", "tid"),
              Med(("acetylcysteine", "乙酰半胱氨酸泡腾片"), ("600 mg", "0.6g"), "po", "bid")),
        course=("the fever settled on hospital day {d}, the cough and sputum lessened, and inflammatory markers fell steadily",
                "入院第{d}天体温恢复正常，咳嗽咳痰明显减少，炎症指标逐步下降"),
        course_day="stay",
        discharge=("{he} was afebrile with only a mild residual cough", "体温正常，仅偶有轻咳，无胸痛"),
        followup_days=(14, 28),
        instructions=("finish the course of oral antibiotics, rest well, and have another chest CT four weeks after discharge",
                      "按时服完口服抗生素疗程，注意休息，出院4周后复查胸部CT"),
        comorbid=("htn", "dm", "bronchitis"), no_comorbid=0.5,
        params=lambda rng: {"vol": _n(rng, 180, 450, step=10), "d": _n(rng, 2, 4)},
    ),
    Condition(
        key="copd", category="respiratory",
        appearance=("drowsy but rousable, with pursed-lip breathing and cyanosis of the lips", "嗜睡，可唤醒，缩唇呼吸，口唇发绀"),
        negatives=("no coughing up of blood or chest pain", "无咯血及胸痛"),
        basis=("a long history of chronic cough, worsening breathlessness and blood gases showing low oxygen with carbon dioxide retention", "长期慢性咳嗽咳痰史、气喘加重及血气分析示低氧血症伴二氧化碳潴留"),
        differential=("bronchial asthma and acute left heart failure", "支气管哮喘及急性左心衰竭"),
        diet=("a soft, high-protein diet", "高蛋白半流质饮食"),
        abnormal=frozenset(("lungs", "neuro", "mouth", "chest")),
        department=("Department of Respiratory Medicine", "呼吸与危重症医学科"),
        diagnosis=("acute exacerbation of chronic obstructive pulmonary disease with type II respiratory failure",
                   "慢性阻塞性肺疾病急性加重期伴Ⅱ型呼吸衰竭"),
        age=(58, 86), male_share=0.8, los=(8, 15), onset=("days", 4, 10),
        complaint=("worsening cough and breathlessness", "咳嗽、气喘加重"),
        associated=("more purulent sputum and daytime drowsiness", "痰量增多呈脓性，伴日间嗜睡"),
        present=("{he} has had a chronic cough with sputum every winter for over {yrs} years, and this episode followed a common cold",
                 "反复咳嗽咳痰{yrs}余年，每逢冬春季节加重，近年来活动耐力逐渐下降，此次受凉后咳嗽加重、痰量增多，气喘明显，夜间不能平卧"),
        pre_admission=("{he} used {his} salbutamol inhaler more often, without relief", "自行增加沙丁胺醇气雾剂用量，症状无缓解"),
        vitals={"temp": (36.8, 38.2), "hr": (96, 124), "rr": (24, 32), "spo2": (82, 89), "sbp": (120, 160)},
        exam=("a barrel chest, prolonged expiration and diffuse wheezes with scattered crackles",
              "桶状胸，呼气相延长，双肺可闻及散在哮鸣音及湿性啰音"),
        labs=(Lab(("arterial partial pressure of carbon dioxide", "动脉血二氧化碳分压"), MMHG, (35, 45), (58, 82), 0),
              pao2(48, 59), wbc(9.8, 14.6)),
        imaging=(Imaging(("chest CT", "胸部CT"),
                         ("emphysema in both lungs with bronchial wall thickening and patchy infiltrates in both lower lobes",
                          "双肺气肿改变，支气管壁增厚，双下肺斑片状渗出影")),),
        procedure=Procedure(
            ("noninvasive positive-pressure ventilation through a full face mask", "经口鼻面罩无创正压通气治疗"),
            "therapy", (0, 1),
            ("a fall in arterial carbon dioxide to {co2} mmHg after 48 hours", "通气48小时动脉血二氧化碳分压降至{co2}mmHg"),
            ((2400, 5200), (1800, 4200))),
        meds=(Med(("methylprednisolone", "甲泼尼龙"), ("40 mg", "40mg"), "iv", "qd"),
              Med(("budesonide suspension", "布地奈德混悬液"), ("2 mg", "2mg"), "neb", "bid"),
              Med(("piperacillin-tazobactam", "哌拉西林他唑巴坦"), ("4.5 g", "4.5g"), "iv", "q8h", beta_lactam=True),
              Med(("ipratropium bromide solution", "异丙托溴铵溶液"), ("500 µg", "500μg"), "neb", "tid")),
        course=("breathing eased gradually, the drowsiness cleared, and {he} came off the ventilator on hospital day {d}",
                "气喘逐渐缓解，嗜睡消失，入院第{d}天停用无创呼吸机"),
        course_day="stay",
        discharge=("{he} could walk slowly on the ward with only mild breathlessness", "可在病区内缓慢行走，活动后稍感气促"),
        followup_days=(14, 30),
        instructions=("use the tiotropium inhaler every day, continue home oxygen for at least 15 hours a day, and take part in pulmonary rehabilitation",
                      "每日规律吸入噻托溴铵，坚持家庭氧疗每日15小时以上，参加呼吸康复锻炼"),
        comorbid=("htn", "chd", "dm"), no_comorbid=0.45, params=_copd_params,
    ),
    Condition(
        key="pneumothorax", category="respiratory",
        appearance=("alert, slightly short of breath and sitting upright", "神志清楚，呼吸稍促，端坐位"),
        negatives=("no fever, coughing up of blood or injury to the chest", "无发热、咯血及胸部外伤史"),
        basis=("sudden chest pain with absent breath sounds on one side and lung compression on the chest X-ray", "突发胸痛、患侧呼吸音消失及胸片示肺组织压缩"),
        differential=("acute myocardial infarction and pulmonary embolism", "急性心肌梗死及肺栓塞"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(("lungs", "neck", "chest")),
        department=("Department of Thoracic Surgery", "胸外科"),
        diagnosis=("primary spontaneous pneumothorax", "原发性自发性气胸"),
        age=(16, 35), male_share=0.85, los=(6, 10), onset=("hours", 6, 30),
        complaint=("sudden {side}-sided chest pain", "突发{side}侧胸痛"),
        associated=("shortness of breath and a dry cough", "气促、刺激性干咳"),
        present=("the pain started suddenly while {he} was playing basketball and worsened with deep breaths",
                 "于打篮球时突发胸痛，呈针刺样，深呼吸及咳嗽时加重，随后逐渐出现胸闷气促，不能平卧"),
        pre_admission=("{he} rested at home for several hours, but the breathlessness did not improve",
                       "在家休息数小时，气促无缓解"),
        vitals={"hr": (92, 116), "rr": (22, 28), "spo2": (90, 95)},
        exam=("reduced chest expansion, hyperresonance and absent breath sounds over the {side} chest",
              "{side}侧胸廓呼吸动度减弱，叩诊呈鼓音，呼吸音消失"),
        labs=(pao2(62, 78), wbc(5.2, 8.8),
              Lab(("D-dimer", "D-二聚体"), ("mg/L", "mg/L"), (0, 0.55), (0.12, 0.48), 2)),
        imaging=(Imaging(("chest X-ray", "胸部X线片"),
                         ("a {side}-sided pneumothorax with about {pct}% compression of the lung",
                          "{side}侧气胸，肺组织压缩约{pct}%")),
                 Imaging(("chest CT", "胸部CT"),
                         ("several bullae at the apex of the {side} upper lobe", "{side}肺上叶尖段多发肺大疱"))),
        procedure=Procedure(
            ("video-assisted thoracoscopic bullectomy with pleural abrasion", "胸腔镜下肺大疱切除术及胸膜摩擦固定术"),
            "surgery", (1, 3),
            ("{nb} bullae at the apex of the {side} upper lobe, the largest {bsize} cm across",
             "{side}肺上叶尖段肺大疱{nb}枚，最大直径约{bsize}cm"),
            ((11000, 19000), (18000, 32000))),
        meds=(CEFUROXIME, FLURBIPROFEN, AMBROXOL),
        course=("the lung fully re-expanded and the chest drain was removed on postoperative day {d}",
                "术后肺完全复张，术后第{d}天拔除胸腔引流管"),
        course_day="post",
        discharge=("the wounds were healing well and {he} had no breathlessness", "切口愈合良好，无胸闷气促"),
        followup_days=(7, 14),
        instructions=("avoid strenuous exercise, air travel and diving for one month", "1个月内避免剧烈运动、乘坐飞机及潜水"),
        comorbid=("appendectomy",), no_comorbid=0.85, params=_pneumothorax_params,
    ),
    # --- digestive ---
    Condition(
        key="appendicitis", category="digestive",
        appearance=("alert and lying still with the hips flexed", "神志清楚，急性病容，屈髋被动体位"),
        negatives=("no diarrhea, blood in the stool or urinary symptoms", "无腹泻、便血及尿频尿急"),
        basis=("migrating right lower abdominal pain, tenderness at McBurney's point, a raised white cell count and an enlarged appendix on CT", "转移性右下腹痛、麦氏点压痛反跳痛、白细胞升高及CT示阑尾增粗"),
        differential=("a right ureteral stone and mesenteric lymphadenitis", "右侧输尿管结石及肠系膜淋巴结炎"),
        diet=("nothing by mouth", "禁食"),
        abnormal=frozenset(("abdomen",)),
        department=("Department of General Surgery", "普通外科"),
        diagnosis=("acute suppurative appendicitis", "急性化脓性阑尾炎"),
        age=(12, 65), male_share=0.55, los=(3, 7), onset=("hours", 12, 40),
        complaint=("abdominal pain that moved to the right lower quadrant", "转移性右下腹痛"),
        associated=("nausea, vomiting and a low-grade fever", "恶心、呕吐，伴低热"),
        present=("the pain began around the navel and settled in the right lower abdomen about {h} hours later",
                 "腹痛起初位于上腹部及脐周，呈阵发性隐痛，约{h}小时后转移并固定于右下腹，呈持续性胀痛，行走及咳嗽时加重"),
        pre_admission=("{he} took no medication at home", "未予特殊处理"),
        vitals={"temp": (37.6, 38.8), "hr": (88, 110)},
        exam=("tenderness and rebound tenderness at McBurney's point with a positive Rovsing sign",
              "麦氏点压痛、反跳痛明显，结肠充气试验阳性"),
        labs=(wbc(12.5, 18.9),
              Lab(("neutrophil percentage", "中性粒细胞百分比"), PCT, (40, 75), (82, 92), 1),
              crp(32, 120)),
        imaging=(Imaging(("abdominal CT", "腹部CT"),
                         ("a distended appendix {dia} mm in diameter with periappendiceal fat stranding",
                          "阑尾增粗，直径约{dia}mm，周围脂肪间隙模糊")),),
        procedure=Procedure(
            ("laparoscopic appendectomy", "腹腔镜下阑尾切除术"), "surgery", (0, 1),
            ("a swollen, suppurative appendix without perforation", "阑尾明显肿胀，呈化脓性改变，未见穿孔"),
            ((9000, 16000), (7000, 13000))),
        meds=(CEFTRIAXONE, METRONIDAZOLE,
              Med(("acetaminophen", "对乙酰氨基酚片"), ("500 mg", "0.5g"), "po", "prn")),
        course=("bowel function returned on postoperative day {d} and {he} moved from liquids to a soft diet",
                "术后第{d}天肛门恢复排气，逐步由流质饮食过渡至半流质饮食"),
        course_day="post",
        discharge=("the port-site wounds were clean and dry and {he} was eating normally", "腹部切口干燥，无红肿渗液，饮食正常"),
        followup_days=(7, 10),
        instructions=("keep the wounds dry, avoid heavy lifting for two weeks, and come back for a wound check",
                      "保持切口清洁干燥，2周内避免提重物，按时返院换药"),
        comorbid=("htn",), no_comorbid=0.8,
        params=lambda rng: {"h": _n(rng, 4, 8), "dia": _n(rng, 9, 15), "d": _n(rng, 1, 2)},
    ),
    Condition(
        key="cholecystitis", category="digestive",
        appearance=("alert and in moderate pain", "神志清楚，急性病容，痛苦貌"),
        negatives=("no yellowing of the skin, pale stools or chest pain", "无皮肤巩膜黄染、陶土样便及胸痛"),
        basis=("right upper abdominal pain, a positive Murphy sign, fever and gallstones with a thickened gallbladder wall on ultrasound", "右上腹痛、墨菲征阳性、发热及超声示胆囊结石伴胆囊壁增厚"),
        differential=("a perforated peptic ulcer and acute pancreatitis", "消化性溃疡穿孔及急性胰腺炎"),
        diet=("nothing by mouth", "禁食"),
        abnormal=frozenset(("abdomen", "skin")),
        department=("Department of Hepatobiliary Surgery", "肝胆外科"),
        diagnosis=("acute calculous cholecystitis", "急性结石性胆囊炎"),
        age=(30, 78), male_share=0.4, los=(5, 9), onset=("days", 1, 3),
        complaint=("pain in the right upper abdomen", "右上腹痛"),
        associated=("nausea, vomiting and fever", "恶心呕吐伴发热"),
        present=("the pain began after a fatty meal and radiated to the right shoulder blade",
                 "进食油腻食物后出现右上腹持续性胀痛，阵发性加剧，向右肩背部放射，改变体位后疼痛不能缓解"),
        pre_admission=("an antispasmodic given at a community clinic brought only brief relief",
                       "于社区诊所予解痉药物治疗，症状短暂缓解后再发"),
        vitals={"temp": (37.8, 38.9), "hr": (90, 112)},
        exam=("tenderness in the right upper quadrant with a positive Murphy sign", "右上腹压痛，墨菲征阳性"),
        labs=(wbc(11.6, 17.2), bilirubin(21.0, 38.0),
              Lab(("alanine aminotransferase", "丙氨酸氨基转移酶"), UL, (9, 50), (56, 140), 0)),
        imaging=(Imaging(("abdominal ultrasound", "腹部超声"),
                         ("a distended gallbladder with a wall thickness of {w} mm and several stones, the largest {s} cm across, impacted in the neck",
                          "胆囊增大，壁厚约{w}mm，胆囊颈部见多发结石嵌顿，最大者直径约{s}cm")),),
        procedure=Procedure(
            ("laparoscopic cholecystectomy", "腹腔镜下胆囊切除术"), "surgery", (1, 3),
            ("an acutely inflamed, edematous gallbladder containing multiple mixed stones", "胆囊充血水肿，内含多枚混合性结石"),
            ((11000, 19000), (12000, 22000))),
        meds=(Med(("cefoperazone-sulbactam", "头孢哌酮舒巴坦"), ("3 g", "3g"), "iv", "q12h", beta_lactam=True),
              METRONIDAZOLE,
              Med(("omeprazole", "奥美拉唑"), ("40 mg", "40mg"), "iv", "qd"),
              Med(("anisodamine", "山莨菪碱"), ("10 mg", "10mg"), "im", "prn")),
        course=("the abdominal drain was removed on postoperative day {d} and liver function returned almost to normal",
                "术后第{d}天拔除腹腔引流管，复查肝功能基本恢复正常"),
        course_day="post",
        discharge=("{he} had no abdominal pain or fever and tolerated a low-fat diet", "无腹痛发热，低脂饮食耐受良好"),
        followup_days=(7, 14),
        instructions=("follow a low-fat diet, avoid large meals and alcohol, and have liver function rechecked at the visit",
                      "低脂饮食，避免暴饮暴食及饮酒，复诊时复查肝功能"),
        comorbid=("htn", "dm", "hld"), no_comorbid=0.45,
        params=lambda rng: {"w": _n(rng, 4, 8), "s": _n(rng, 1.2, 2.6, 1), "d": _n(rng, 1, 3)},
    ),
    Condition(
        key="ulcer_bleed", category="digestive",
        appearance=("alert but pale and tired", "神志清楚，面色苍白，精神萎靡"),
        negatives=("no pain spreading to the back, no fainting and no yellowing of the skin", "无腹痛向背部放射，无晕厥及黄疸"),
        basis=("black stools, a falling hemoglobin and a bleeding duodenal ulcer at endoscopy", "黑便、血红蛋白下降及胃镜下见十二指肠球部溃疡出血"),
        differential=("bleeding esophageal varices and a bleeding gastric cancer", "食管胃底静脉曲张破裂出血及胃癌出血"),
        diet=("nothing by mouth", "禁食"),
        abnormal=frozenset(("abdomen", "head")),
        department=("Department of Gastroenterology", "消化内科"),
        diagnosis=("duodenal bulb ulcer with upper gastrointestinal bleeding", "十二指肠球部溃疡并上消化道出血"),
        age=(22, 75), male_share=0.7, los=(6, 10), onset=("days", 1, 3),
        complaint=("black, tarry stools", "解黑便"),
        associated=("dizziness, fatigue and palpitations", "头晕、乏力、心悸"),
        present=("{he} passed {n} loose black stools and vomited coffee-ground material once",
                 "共解柏油样黑便{n}次，每次量约100至200g，呕吐咖啡样胃内容物1次，伴头晕乏力，站立时明显"),
        pre_admission=("{he} had been taking ibuprofen for knee pain for two weeks", "近2周因膝关节疼痛自服布洛芬"),
        vitals={"hr": (102, 122), "sbp": (92, 110), "temp": (36.5, 37.3)},
        exam=("pale conjunctivae, mild epigastric tenderness and hyperactive bowel sounds", "睑结膜苍白，上腹部轻压痛，肠鸣音活跃"),
        labs=(hemoglobin(62, 88),
              Lab(("blood urea nitrogen", "血尿素氮"), MMOL, (2.8, 7.6), (9.5, 16.8), 1),
              Lab(("red blood cell count", "红细胞计数"), ("×10¹²/L", "×10¹²/L"), (4.3, 5.8), (2.2, 3.1), 2,
                  female_ref=(3.8, 5.1))),
        imaging=(Imaging(("abdominal CT", "腹部CT"),
                         ("no perforation and no free gas in the abdomen", "未见消化道穿孔征象及腹腔游离气体")),),
        procedure=Procedure(
            ("emergency gastroscopy with endoscopic hemostasis using titanium clips", "急诊胃镜检查及内镜下钛夹止血术"),
            "procedure", (0, 1),
            ("a {s} cm ulcer on the anterior wall of the duodenal bulb with a visible vessel",
             "十二指肠球部前壁一大小约{s}cm溃疡，底部可见裸露血管"),
            ((2800, 5600), (3000, 6500))),
        meds=(ESOMEPRAZOLE,
              Med(("sucralfate suspension", "硫糖铝混悬液"), ("1 g", "1g"), "po", "tid"),
              Med(("amoxicillin", "阿莫西林胶囊"), ("1 g", "1g"), "po", "bid", beta_lactam=True),
              Med(("clarithromycin", "克拉霉素片"), ("500 mg", "0.5g"), "po", "bid")),
        course=("no further bleeding occurred after endoscopic treatment, {he} received {u} units of red blood cells, and the stools turned yellow on hospital day {d}",
                "内镜止血后未再出血，共输注悬浮红细胞{u}单位，入院第{d}天大便转黄"),
        course_day="stay",
        discharge=("{he} had formed yellow stools and no dizziness", "大便成形色黄，无头晕心悸"),
        followup_days=(28, 42),
        instructions=("stop ibuprofen and similar painkillers, eat soft food at regular times, and have a repeat gastroscopy after eight weeks",
                      "停用布洛芬等非甾体抗炎药，规律软食，8周后复查胃镜"),
        comorbid=("htn", "hbv"), no_comorbid=0.6,
        params=lambda rng: {"n": _n(rng, 3, 6), "s": _n(rng, 0.8, 1.6, 1), "u": _n(rng, 2, 4), "d": _n(rng, 3, 5)},
    ),
    Condition(
        key="pancreatitis", category="digestive",
        appearance=("alert, restless and in severe pain", "神志清楚，烦躁不安，急性痛苦面容"),
        negatives=("no chest pain, vomiting of blood or black stools", "无胸痛、呕血及黑便"),
        basis=("typical upper abdominal pain, amylase and lipase more than three times the upper limit, and a swollen pancreas on CT", "典型上腹痛、血淀粉酶及脂肪酶超过正常上限3倍、CT示胰腺肿胀"),
        differential=("a perforated peptic ulcer and acute cholecystitis", "消化性溃疡穿孔及急性胆囊炎"),
        diet=("nothing by mouth", "禁食"),
        abnormal=frozenset(("abdomen", "skin")),
        department=("Department of Gastroenterology", "消化内科"),
        diagnosis=("acute biliary pancreatitis", "急性胆源性胰腺炎"),
        age=(30, 78), los=(8, 14), onset=("hours", 8, 36),
        complaint=("severe upper abdominal pain radiating to the back", "上腹部剧烈疼痛向腰背部放射"),
        associated=("repeated vomiting and abdominal distension", "反复呕吐、腹胀"),
        present=("the pain began a few hours after a large meal and was constant rather than colicky",
                 "暴饮暴食后数小时出现上腹部持续性刀割样疼痛，向腰背部呈带状放射，弯腰抱膝位可稍缓解"),
        pre_admission=("vomiting did not relieve the pain", "呕吐后腹痛无缓解"),
        vitals={"temp": (37.4, 38.6), "hr": (98, 120), "rr": (20, 26), "spo2": (93, 97)},
        exam=("epigastric tenderness with guarding and diminished bowel sounds", "上腹部压痛伴肌紧张，肠鸣音减弱"),
        labs=(Lab(("serum amylase", "血淀粉酶"), UL, (35, 135), (980, 3200), 0),
              Lab(("serum lipase", "血脂肪酶"), UL, (13, 60), (780, 2600), 0),
              bilirubin(26.0, 62.0)),
        imaging=(Imaging(("contrast-enhanced CT of the abdomen", "腹部增强CT"),
                         ("a swollen pancreas with peripancreatic fluid and {a_s} {s} mm stone in the distal common bile duct",
                          "胰腺肿胀，胰周渗出，胆总管下段见一直径约{s}mm结石")),),
        procedure=Procedure(
            ("endoscopic retrograde cholangiopancreatography with sphincterotomy and stone extraction",
             "内镜逆行胰胆管造影术及乳头括约肌切开取石术"),
            "procedure", (1, 3),
            ("{a_s} {s} mm pigment stone in the common bile duct, removed intact with a basket",
             "胆总管下段一枚约{s}mm胆色素结石，以网篮完整取出"),
            ((7000, 13000), (12000, 22000))),
        meds=(Med(("octreotide", "奥曲肽"), ("0.1 mg", "0.1mg"), "sc", "q8h"),
              ESOMEPRAZOLE,
              Med(("ulinastatin", "乌司他丁"), ("100,000 units", "10万单位"), "iv", "tid"),
              Med(("meropenem", "美罗培南"), ("1 g", "1g"), "iv", "q8h", beta_lactam=True)),
        course=("oral intake restarted on hospital day {d} and serum amylase returned to normal",
                "入院第{d}天恢复经口进食，血淀粉酶降至正常"),
        course_day="stay",
        discharge=("{he} had no abdominal pain and tolerated a low-fat diet", "无腹痛腹胀，低脂饮食后无不适"),
        followup_days=(14, 30),
        instructions=("avoid alcohol and fatty food, and return in about six weeks for laparoscopic removal of the gallbladder",
                      "戒酒，避免高脂饮食，约6周后返院行腹腔镜胆囊切除术"),
        comorbid=("htn", "hld", "dm"), no_comorbid=0.5,
        params=lambda rng: _with_article({"s": _n(rng, 5, 9), "d": _n(rng, 4, 6)}),
    ),
    # --- endocrine ---
    Condition(
        key="t2dm", category="endocrine",
        appearance=("alert, thin and in no distress", "神志清楚，体型偏瘦，精神可"),
        negatives=("no chest pain, foot ulcers or episodes of low blood sugar", "无胸痛、足部溃疡及低血糖发作"),
        basis=("known diabetes with HbA1c and fasting glucose well above target", "明确糖尿病病史，糖化血红蛋白及空腹血糖明显高于控制目标"),
        differential=("type 1 diabetes and diabetes secondary to other endocrine disease", "1型糖尿病及其他内分泌疾病所致继发性糖尿病"),
        diet=("a diabetic diet", "糖尿病饮食"),
        abnormal=frozenset(("neuro",)),
        department=("Department of Endocrinology", "内分泌科"),
        diagnosis=("type 2 diabetes mellitus with poor glycemic control", "2型糖尿病（血糖控制不佳）"),
        age=(38, 78), male_share=0.55, acute=False, los=(7, 12), onset=("months", 2, 8),
        complaint=("thirst, frequent urination and weight loss", "口干、多饮、多尿伴体重下降"),
        associated=("blurred vision and numbness of both feet", "视物模糊、双足麻木"),
        present=("diabetes was diagnosed {yrs} years ago, and {he} has lost about {kg} kg in recent months",
                 "{yrs}年前诊断为糖尿病，平素饮食控制欠佳，未规律监测血糖，近数月口干多饮明显，每日饮水量约3000mL，体重下降约{kg}kg"),
        pre_admission=("{he} had been taking metformin irregularly", "平素不规律口服二甲双胍"),
        vitals={"sbp": (124, 156)},
        exam=("reduced vibration and pinprick sensation in both feet with palpable foot pulses",
              "双足振动觉及针刺觉减退，足背动脉搏动可触及"),
        labs=(Lab(("glycated hemoglobin (HbA1c)", "糖化血红蛋白"), PCT, (4.0, 6.0), (8.6, 12.8), 1),
              Lab(("fasting plasma glucose", "空腹血糖"), MMOL, (3.9, 6.1), (9.8, 16.5), 1),
              Lab(("triglycerides", "甘油三酯"), MMOL, (0, 1.7), (1.9, 4.2), 2)),
        imaging=(Imaging(("fundus photography", "眼底照相"),
                         ("scattered microaneurysms and dot hemorrhages in both eyes, consistent with mild nonproliferative diabetic retinopathy",
                          "双眼散在微血管瘤及点状出血，符合轻度非增殖期糖尿病视网膜病变")),
                 Imaging(("lower-limb arterial ultrasound", "双下肢动脉超声"),
                         ("scattered plaques without significant stenosis", "双下肢动脉散在斑块形成，未见明显狭窄"),
                         after_procedure=True)),
        procedure=Procedure(
            ("continuous subcutaneous insulin infusion with an insulin pump", "胰岛素泵持续皮下输注强化治疗"),
            "therapy", (1, 2),
            ("fasting glucose stable between {g1} and {g2} mmol/L within {dd} days", "{dd}天内空腹血糖稳定于{g1}～{g2}mmol/L"),
            ((1800, 3600), (2500, 4800))),
        meds=(Med(("insulin aspart", "门冬胰岛素"), ("{u1} units", "{u1}单位"), "sc", "ac"),
              Med(("insulin glargine", "甘精胰岛素"), ("{u2} units", "{u2}单位"), "sc", "hs"),
              Med(("metformin", "二甲双胍片"), ("500 mg", "0.5g"), "po", "tid"),
              Med(("dapagliflozin", "达格列净片"), ("10 mg", "10mg"), "po", "qd")),
        course=("blood glucose was checked seven times a day, and the pump was replaced with multiple daily injections before discharge",
                "住院期间每日监测7次血糖，出院前将胰岛素泵转换为多次皮下注射方案"),
        discharge=("{his} blood glucose was stable and {he} could inject insulin independently",
                   "血糖控制平稳，已掌握胰岛素自我注射方法"),
        followup_days=(14, 30),
        instructions=("check fingerstick glucose every day, follow a diabetic diet with regular exercise, and recheck HbA1c in three months",
                      "每日监测指尖血糖，糖尿病饮食并规律运动，3个月后复查糖化血红蛋白"),
        comorbid=("htn", "hld", "chd"), no_comorbid=0.4, params=_t2dm_params,
        family=(("{his} mother and an elder brother have type 2 diabetes", "母亲及哥哥均患2型糖尿病"),),
    ),
    Condition(
        key="dka", category="endocrine",
        appearance=("drowsy and dehydrated", "嗜睡，精神萎靡，呈脱水貌"),
        negatives=("no chest pain, diarrhea or loss of consciousness", "无胸痛、腹泻及意识丧失"),
        basis=("marked hyperglycemia, metabolic acidosis and raised blood ketones in a patient with type 1 diabetes", "1型糖尿病患者出现显著高血糖、代谢性酸中毒及血酮升高"),
        differential=("acute gastroenteritis and hyperosmolar hyperglycemic state", "急性胃肠炎及高渗高血糖综合征"),
        diet=("a diabetic diet once vomiting stopped", "糖尿病饮食（呕吐停止后开始）"),
        abnormal=frozenset(("abdomen", "mouth")),
        department=("Department of Endocrinology", "内分泌科"),
        diagnosis=("type 1 diabetes mellitus with diabetic ketoacidosis", "1型糖尿病合并糖尿病酮症酸中毒"),
        age=(14, 35), los=(5, 9), onset=("days", 2, 5),
        complaint=("nausea, vomiting and abdominal pain", "恶心、呕吐伴腹痛"),
        associated=("extreme thirst, frequent urination and drowsiness", "极度口渴、多尿伴嗜睡"),
        present=("{he} had stopped {his} insulin injections for {n} days because of a poor appetite during a cold",
                 "因感冒食欲差自行停用胰岛素{n}天，随后出现恶心呕吐，呕吐物为胃内容物，伴上腹部隐痛及乏力，逐渐出现嗜睡"),
        pre_admission=("{he} drank large amounts of sweet drinks to relieve the thirst", "自行大量饮用含糖饮料解渴"),
        vitals={"hr": (108, 128), "rr": (26, 34), "sbp": (96, 118)},
        exam=("dry mucous membranes, deep rapid breathing and a fruity odor on the breath", "皮肤黏膜干燥，呼吸深大，呼气有烂苹果味"),
        labs=(Lab(("plasma glucose", "血糖"), MMOL, (3.9, 6.1), (22.0, 36.0), 1),
              Lab(("arterial blood pH", "动脉血pH值"), ("", ""), (7.35, 7.45), (7.02, 7.24), 2),
              Lab(("beta-hydroxybutyrate", "β-羟丁酸"), MMOL, (0.02, 0.27), (4.2, 8.6), 1)),
        imaging=(Imaging(("chest X-ray", "胸部X线片"), ("no infiltrate in either lung", "双肺未见明显渗出影")),),
        procedure=Procedure(
            ("continuous intravenous insulin infusion with aggressive fluid replacement", "小剂量胰岛素持续静脉泵入及积极补液治疗"),
            "therapy", (0, 0),
            ("closure of the anion gap and clearance of urine ketones within {h} hours", "{h}小时内阴离子间隙恢复正常，尿酮体转阴"),
            ((2200, 4200), (1500, 3500))),
        meds=(Med(("insulin aspart", "门冬胰岛素"), ("{u1} units", "{u1}单位"), "sc", "ac"),
              Med(("insulin glargine", "甘精胰岛素"), ("{u2} units", "{u2}单位"), "sc", "hs"),
              Med(("potassium chloride sustained-release tablets", "氯化钾缓释片"), ("1 g", "1g"), "po", "tid")),
        course=("the acidosis resolved, {he} began eating again on hospital day {d}, and a basal-bolus insulin regimen was set up",
                "酸中毒纠正，入院第{d}天恢复进食，并建立基础加餐时胰岛素方案"),
        course_day="stay",
        discharge=("{he} was eating normally and urine ketones were negative", "进食正常，尿酮体阴性"),
        followup_days=(7, 14),
        instructions=("never stop insulin on sick days, check blood glucose four times a day, and test urine ketones whenever glucose runs high",
                      "生病期间切勿自行停用胰岛素，每日监测血糖4次，血糖升高时及时检测尿酮"),
        no_comorbid=1.0,
        forced_past=("type 1 diabetes for {yrs} years, treated with insulin", "1型糖尿病病史{yrs}年，长期胰岛素治疗"),
        params=lambda rng: {"n": _n(rng, 2, 4), "h": _n(rng, 18, 36), "u1": _n(rng, 4, 8), "u2": _n(rng, 12, 20),
                            "d": _n(rng, 2, 3), "yrs": _n(rng, 2, 10)},
    ),
    Condition(
        key="graves", category="endocrine",
        appearance=("alert, restless and sweating", "神志清楚，情绪激动，皮肤潮湿多汗"),
        negatives=("no neck pain, fever or double vision", "无颈部疼痛、发热及复视"),
        basis=("symptoms of thyrotoxicosis, a diffuse goiter, suppressed TSH with high free thyroxine, and positive TSH receptor antibodies", "甲状腺毒症表现、甲状腺弥漫性肿大、促甲状腺激素降低伴游离甲状腺素升高及促甲状腺激素受体抗体阳性"),
        differential=("subacute thyroiditis and painless thyroiditis", "亚急性甲状腺炎及无痛性甲状腺炎"),
        diet=("a low-iodine, high-calorie diet", "低碘高热量饮食"),
        abnormal=frozenset(("heart", "neuro", "head", "neck")),
        department=("Department of Endocrinology", "内分泌科"),
        diagnosis=("Graves disease with hyperthyroidism", "毒性弥漫性甲状腺肿（甲状腺功能亢进症）"),
        age=(20, 60), male_share=0.2, acute=False, los=(5, 8), onset=("months", 2, 10),
        complaint=("palpitations, heat intolerance and weight loss", "心悸、怕热、多汗伴体重下降"),
        associated=("a hand tremor, irritability and more frequent bowel movements", "手抖、易激惹、大便次数增多"),
        present=("{he} lost about {kg} kg despite a good appetite",
                 "无明显诱因出现心悸、怕热多汗，情绪易激动，食欲亢进，每日进食量较前明显增加，但体重下降约{kg}kg"),
        pre_admission=("{he} had not received any treatment", "未曾诊治"),
        vitals={"hr": (104, 132), "sbp": (128, 150), "temp": (36.9, 37.5)},
        exam=("a diffusely enlarged, nontender thyroid with a bruit, a fine tremor of the outstretched hands and mild proptosis",
              "甲状腺Ⅱ度弥漫性肿大，质软无压痛，可闻及血管杂音，双手细颤，轻度突眼"),
        labs=(Lab(("free thyroxine", "游离甲状腺素"), ("pmol/L", "pmol/L"), (12, 22), (48, 96), 1),
              Lab(("thyroid-stimulating hormone", "促甲状腺激素"), ("mIU/L", "mIU/L"), (0.27, 4.2), (0.005, 0.02), 3),
              Lab(("TSH receptor antibody", "促甲状腺激素受体抗体"), ("IU/L", "IU/L"), (0, 1.75), (6.5, 28.0), 1)),
        imaging=(Imaging(("thyroid ultrasound", "甲状腺超声"),
                         ("a diffusely enlarged thyroid with markedly increased blood flow", "甲状腺弥漫性增大，血流信号明显丰富")),
                 Imaging(("thyroid radioiodine uptake test", "甲状腺摄碘率测定"),
                         ("a raised 24-hour uptake of {up}%", "24小时摄碘率升高至{up}%"))),
        procedure=Procedure(
            ("radioactive iodine-131 therapy at a dose of {mci} millicuries", "碘-131放射性治疗（剂量{mci}毫居里）"),
            "therapy", (2, 4),
            ("good tolerance with no neck pain or other acute reaction", "未出现颈部疼痛等急性不良反应"),
            ((2200, 4600), (1500, 3200))),
        meds=(Med(("propranolol", "普萘洛尔片"), ("10 mg", "10mg"), "po", "tid"),
              Med(("prednisone", "泼尼松片"), ("20 mg", "20mg"), "po", "qd"),
              Med(("omeprazole", "奥美拉唑肠溶胶囊"), ("20 mg", "20mg"), "po", "qd")),
        course=("the palpitations eased on the beta-blocker and {he} received advice on radiation safety",
                "应用β受体阻滞剂后心悸明显缓解，并接受辐射防护宣教"),
        discharge=("{his} tremor had lessened and {he} had no neck pain", "手抖较前减轻，无颈部疼痛"),
        followup_days=(28, 42),
        instructions=("avoid close contact with children and pregnant women for one week, keep to a low-iodine diet, and recheck thyroid function in one month",
                      "1周内避免与儿童及孕妇密切接触，低碘饮食，1个月后复查甲状腺功能"),
        no_comorbid=0.85, comorbid=("htn",),
        family=(("{his} elder sister has hypothyroidism", "姐姐患甲状腺功能减退症"),),
        params=lambda rng: {"kg": _n(rng, 4, 9), "up": _n(rng, 62, 85), "mci": _n(rng, 8, 12)},
    ),
    # --- neurology ---
    Condition(
        key="stroke", category="neurology",
        appearance=("alert but with slurred speech", "神志清楚，言语含糊"),
        negatives=("no headache, vomiting or seizures", "无头痛、呕吐及肢体抽搐"),
        basis=("sudden focal weakness and speech disturbance with no hemorrhage on CT", "突发局灶性肢体无力及言语障碍，头颅CT除外出血"),
        differential=("intracerebral hemorrhage and low blood sugar", "脑出血及低血糖发作"),
        diet=("a low-salt, low-fat diet after a swallowing assessment", "低盐低脂饮食（经吞咽功能评估）"),
        abnormal=frozenset(("neuro", "limbs", "head", "neck")),
        department=("Department of Neurology", "神经内科"),
        diagnosis=("acute ischemic stroke", "急性缺血性脑卒中"),
        age=(50, 88), male_share=0.6, los=(10, 18), onset=("hours", 2, 4),
        complaint=("sudden weakness of the {oside} arm and leg", "突发{oside}侧肢体无力"),
        associated=("slurred speech and a drooping mouth", "言语含糊、口角歪斜"),
        present=("the weakness came on while {he} was watching television, and {his} family called an ambulance at once",
                 "看电视时突然出现上述症状，症状持续不缓解，家属立即呼叫救护车送至我院，发病至到院时间在溶栓时间窗内"),
        pre_admission=("no treatment was given at home or in the ambulance", "未予特殊处理"),
        vitals={"sbp": (152, 186), "hr": (68, 96)},
        exam=("grade {g} strength in the {oside} limbs, a {oside} central facial palsy and a {oside} Babinski sign",
              "{oside}侧肢体肌力{g}级，{oside}侧中枢性面舌瘫，{oside}侧巴氏征阳性"),
        labs=(ldl(3.6, 5.2),
              Lab(("homocysteine", "同型半胱氨酸"), UMOL, (0, 15), (16.0, 28.0), 1),
              platelets(160, 290)),
        imaging=(Imaging(("noncontrast head CT", "头颅CT平扫"), ("no intracranial hemorrhage", "未见颅内出血")),
                 Imaging(("brain MRI with diffusion-weighted imaging", "头颅磁共振弥散加权成像"),
                         ("an acute infarct in the {side} basal ganglia and corona radiata", "{side}侧基底节区及放射冠急性梗死灶"),
                         after_procedure=True)),
        procedure=Procedure(
            ("intravenous thrombolysis with alteplase", "阿替普酶静脉溶栓治疗"), "therapy", (0, 0),
            ("an improvement in the NIH Stroke Scale score from {n1} to {n2} within 24 hours",
             "24小时内美国国立卫生研究院卒中量表评分由{n1}分降至{n2}分"),
            ((6200, 9800), (8000, 12000))),
        meds=(ASPIRIN, ATORVASTATIN,
              Med(("edaravone", "依达拉奉"), ("30 mg", "30mg"), "iv", "bid"),
              Med(("butylphthalide injection", "丁苯酞氯化钠注射液"), ("100 mL", "100mL"), "iv", "bid")),
        course=("{he} began bedside rehabilitation on hospital day {d}, and speech and limb strength improved steadily",
                "入院第{d}天开始床旁康复训练，言语及肢体肌力逐步改善"),
        course_day="stay",
        discharge=("{he} could walk with a cane and speak in short sentences", "可扶拐行走，言语基本流利"),
        followup_days=(14, 30),
        instructions=("keep taking the antiplatelet drug and the statin, keep blood pressure below 140/90 mmHg, and continue rehabilitation training",
                      "坚持抗血小板及他汀治疗，血压控制在140/90mmHg以下，继续康复训练"),
        comorbid=("htn", "dm", "hld"), no_comorbid=0.2, family_informant=True,
        params=lambda rng: {**_side(rng), "g": _n(rng, 2, 3), "n1": _n(rng, 8, 14), "n2": _n(rng, 3, 6), "d": _n(rng, 2, 4)},
    ),
    Condition(
        key="ich", category="neurology",
        appearance=("drowsy and responding only to a loud voice", "嗜睡，大声呼唤能应答"),
        negatives=("no seizures or incontinence", "无肢体抽搐及二便失禁"),
        basis=("sudden headache, vomiting and limb weakness with a basal ganglia hematoma on CT in a patient with hypertension", "高血压患者突发头痛、呕吐及肢体无力，头颅CT示基底节区血肿"),
        differential=("hemorrhagic transformation of a cerebral infarct and a ruptured intracranial aneurysm", "脑梗死出血转化及颅内动脉瘤破裂出血"),
        diet=("liquid feeds through a nasogastric tube", "鼻饲流质饮食"),
        abnormal=frozenset(("neuro", "limbs", "head", "neck")),
        department=("Department of Neurosurgery", "神经外科"),
        diagnosis=("hypertensive intracerebral hemorrhage in the basal ganglia", "高血压性脑出血（基底节区）"),
        age=(45, 82), male_share=0.65, los=(14, 24), onset=("hours", 2, 8),
        complaint=("sudden severe headache with weakness of the {oside} limbs", "突发剧烈头痛伴{oside}侧肢体无力"),
        associated=("vomiting and increasing drowsiness", "呕吐、进行性嗜睡"),
        present=("the symptoms began while {he} was lifting a heavy box",
                 "搬重物时突然起病，初为剧烈头痛，随后出现喷射性呕吐及肢体无力，意识逐渐转差"),
        pre_admission=("{his} family found {him} on the floor and called an ambulance", "家属发现后立即呼叫救护车送至我院"),
        vitals={"sbp": (172, 210), "hr": (58, 88)},
        exam=("a Glasgow Coma Scale score of {gcs} and grade {g} strength in the {oside} limbs",
              "格拉斯哥昏迷评分{gcs}分，{oside}侧肢体肌力{g}级，双侧瞳孔等大"),
        labs=(Lab(("blood glucose", "血糖"), MMOL, (3.9, 6.1), (6.4, 9.2), 1),
              wbc(9.8, 13.5),
              Lab(("prothrombin time", "凝血酶原时间"), ("seconds", "秒"), (11, 14), (11.5, 13.5), 1)),
        imaging=(Imaging(("noncontrast head CT", "头颅CT平扫"),
                         ("a {side} basal ganglia hematoma with an estimated volume of {vol} mL", "{side}侧基底节区高密度血肿，出血量约{vol}mL")),
                 Imaging(("repeat head CT", "头颅CT（复查）"),
                         ("a much smaller hematoma with the drainage tube in good position", "血肿明显减少，引流管位置良好"),
                         after_procedure=True)),
        procedure=Procedure(
            ("minimally invasive stereotactic aspiration and drainage of the hematoma", "立体定向微创血肿穿刺引流术"),
            "surgery", (0, 1),
            ("about {asp} mL of dark red clot aspirated from the hematoma cavity", "血肿腔内抽出暗红色血凝块约{asp}mL"),
            ((14000, 26000), (15000, 30000))),
        meds=(Med(("mannitol", "甘露醇"), ("125 mL", "125mL"), "iv", "q8h",
                  purpose=("to lower intracranial pressure", "降低颅内压")),
              Med(("urapidil", "乌拉地尔"), ("25 mg", "25mg"), "ivp", "prn"),
              Med(("amlodipine", "苯磺酸氨氯地平片"), ("5 mg", "5mg"), "po", "qd")),
        course=("the drainage tube was removed on postoperative day {d}, consciousness improved, and rehabilitation began",
                "术后第{d}天拔除引流管，意识逐渐转清，并开始康复治疗"),
        course_day="post",
        discharge=("{he} was alert, with clearly better strength in the {oside} limbs than on admission",
                   "神志清楚，{oside}侧肢体肌力较入院时明显改善"),
        followup_days=(14, 30),
        instructions=("take the blood pressure tablets every day, keep a home blood pressure diary, and continue rehabilitation at a specialist center",
                      "规律服用降压药，每日记录家庭血压，转康复专科继续康复治疗"),
        comorbid=("dm", "hld"), no_comorbid=0.6, family_informant=True, params=_ich_params,
        forced_past=("hypertension for {yrs} years, with irregular use of antihypertensive drugs",
                     "高血压病史{yrs}年，未规律服用降压药"),
    ),
    # --- orthopedics ---
    Condition(
        key="hip_fracture", category="orthopedics",
        appearance=("alert, in pain and unable to move the injured leg", "神志清楚，痛苦面容，被动体位"),
        negatives=("no loss of consciousness, head injury or pain elsewhere", "无意识丧失、头部外伤及其他部位疼痛"),
        basis=("a fall, hip pain with a shortened, externally rotated leg, and a displaced femoral neck fracture on X-ray", "跌倒外伤史、髋部疼痛伴患肢短缩外旋及X线示股骨颈骨折移位"),
        differential=("an intertrochanteric fracture and hip dislocation", "股骨转子间骨折及髋关节脱位"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(("limbs",)),
        department=("Department of Orthopedics", "骨科"),
        diagnosis=("displaced femoral neck fracture", "股骨颈骨折（移位型）"),
        age=(62, 92), male_share=0.35, los=(7, 14), onset=("hours", 4, 30),
        complaint=("pain in the {side} hip and inability to walk after a fall", "跌倒后{side}髋部疼痛、不能行走"),
        associated=("swelling of the {side} hip", "{side}髋部肿胀"),
        present=("{he} slipped on a wet floor at home and landed on {his} {side} side",
                 "在家中因地面湿滑摔倒，{side}髋部着地，当即感髋部剧烈疼痛，活动受限，不能站立行走"),
        pre_admission=("{he} could not stand up and was brought in by ambulance", "伤后不能站立，由救护车送入我院"),
        vitals={"hr": (80, 100), "sbp": (130, 160)},
        exam=("shortening and external rotation of the {side} leg with groin tenderness and pain on axial percussion",
              "{side}下肢短缩外旋畸形，腹股沟中点压痛，纵向叩击痛阳性"),
        labs=(Lab(("D-dimer", "D-二聚体"), ("mg/L", "mg/L"), (0, 0.55), (1.2, 4.8), 2),
              hemoglobin(98, 112),
              Lab(("serum albumin", "血清白蛋白"), GL, (40, 55), (31.0, 38.0), 1)),
        imaging=(Imaging(("pelvic X-ray", "骨盆X线片"),
                         ("a displaced subcapital fracture of the {side} femoral neck, Garden type III",
                          "{side}股骨颈头下型骨折，断端移位，Garden分型Ⅲ型")),
                 Imaging(("postoperative hip X-ray", "术后髋关节X线片"),
                         ("a well-positioned hip prosthesis", "髋关节假体位置良好"), after_procedure=True)),
        procedure=Procedure(
            ("{side} total hip arthroplasty", "{side}侧人工全髋关节置换术"), "surgery", (1, 3),
            ("a displaced femoral neck fracture with a partly ischemic femoral head", "股骨颈骨折断端移位，股骨头部分缺血"),
            ((21000, 34000), (48000, 72000))),
        meds=(ENOXAPARIN, CELECOXIB,
              Med(("cefazolin", "头孢唑林"), ("2 g", "2g"), "iv", "q8h", beta_lactam=True),
              Med(("calcium carbonate with vitamin D3", "碳酸钙D3片"), ("600 mg", "600mg"), "po", "qd")),
        course=("{he} sat up on postoperative day 1 and walked with a frame on postoperative day {d}",
                "术后第1天坐起，术后第{d}天在助行器辅助下下地行走"),
        course_day="post",
        discharge=("{he} could walk short distances with a walking frame and the wound was healing well",
                   "可借助助行器短距离行走，切口愈合良好"),
        followup_days=(14, 21),
        instructions=("avoid crossing the legs or bending the hip beyond 90 degrees, continue the anticoagulant injections until 35 days after surgery, and have a hip X-ray at the visit",
                      "避免交叉双腿及髋关节屈曲超过90度，继续抗凝治疗至术后35天，复诊时复查髋关节X线片"),
        comorbid=("htn", "dm", "osteoporosis", "chd"), no_comorbid=0.25,
        params=lambda rng: {**_side(rng), "d": _n(rng, 2, 4)},
    ),
    Condition(
        key="disc", category="orthopedics",
        appearance=("alert and walking with a limp", "神志清楚，跛行步态"),
        negatives=("no loss of bladder or bowel control and no numbness in the saddle area", "无大小便失禁及会阴区麻木"),
        basis=("radiating leg pain, a positive straight-leg raise and a herniated disc pressing on the nerve root on MRI", "下肢放射痛、直腿抬高试验阳性及磁共振示椎间盘突出压迫神经根"),
        differential=("lumbar spinal stenosis and piriformis syndrome", "腰椎管狭窄症及梨状肌综合征"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(("limbs", "neuro")),
        department=("Department of Spine Surgery", "脊柱外科"),
        diagnosis=("lumbar disc herniation at L4-L5", "腰椎间盘突出症（L4-5节段）"),
        age=(28, 66), male_share=0.55, acute=False, los=(5, 9), onset=("months", 3, 18),
        complaint=("low back pain radiating to the {side} leg", "腰痛伴{side}下肢放射痛"),
        associated=("numbness of the outer {side} calf and the top of the foot", "{side}小腿外侧及足背麻木"),
        present=("the pain worsened with coughing and long periods of sitting and eased when {he} lay flat",
                 "腰痛反复发作，近期加重并向{side}下肢放射至足背，咳嗽、打喷嚏及久坐时疼痛加重，平卧休息后可缓解"),
        pre_admission=("two months of physiotherapy and oral painkillers gave no lasting relief", "曾行理疗及口服止痛药2个月，效果不佳"),
        vitals={},
        exam=("a positive {side} straight-leg raise at {deg} degrees and weak extension of the {side} big toe",
              "{side}侧直腿抬高试验阳性（{deg}度），{side}拇趾背伸肌力减弱"),
        labs=(Lab(("erythrocyte sedimentation rate", "红细胞沉降率"), ("mm/h", "mm/h"), (0, 20), (6, 18), 0),
              crp(1.2, 7.8), wbc(4.6, 8.6)),
        imaging=(Imaging(("lumbar MRI", "腰椎磁共振"),
                         ("a {side}-sided paracentral disc herniation at L4-L5 compressing the nerve root",
                          "L4-5椎间盘向{side}后方突出，压迫{side}侧神经根")),),
        procedure=Procedure(
            ("percutaneous endoscopic lumbar discectomy at L4-L5", "经皮椎间孔镜下L4-5髓核摘除术"), "surgery", (1, 3),
            ("an extruded disc fragment of about {s} cm pressing on the nerve root", "脱出髓核组织约{s}cm，压迫神经根"),
            ((12000, 21000), (18000, 32000))),
        meds=(CELECOXIB,
              Med(("mecobalamin", "甲钴胺片"), ("0.5 mg", "0.5mg"), "po", "tid"),
              Med(("mannitol", "甘露醇"), ("125 mL", "125mL"), "iv", "bid"),
              Med(("dexamethasone", "地塞米松"), ("5 mg", "5mg"), "ivp", "qd")),
        course=("the leg pain eased markedly after surgery and {he} walked in a lumbar brace on postoperative day {d}",
                "术后下肢放射痛明显缓解，术后第{d}天佩戴腰围下地行走"),
        course_day="post",
        discharge=("{he} walked normally with only slight numbness of the foot", "行走正常，足背仍有轻度麻木"),
        followup_days=(21, 35),
        instructions=("wear the lumbar brace for four weeks, avoid bending and lifting, and build up core-muscle exercises gradually",
                      "佩戴腰围4周，避免弯腰负重，循序渐进进行腰背肌功能锻炼"),
        comorbid=("htn", "gout"), no_comorbid=0.6,
        params=lambda rng: {**_side(rng), "deg": _n(rng, 30, 50, step=5), "s": _n(rng, 0.8, 1.5, 1), "d": _n(rng, 1, 2)},
    ),
    # --- obstetrics and gynecology ---
    Condition(
        key="fibroids", category="gynecology",
        appearance=("alert and pale", "神志清楚，贫血貌"),
        negatives=("no abdominal pain, bleeding after intercourse or urinary symptoms", "无腹痛、接触性出血及尿频尿急"),
        basis=("heavy periods, an enlarged irregular uterus and multiple fibroids on ultrasound, with microcytic anemia", "月经量增多、子宫不规则增大、超声示多发肌瘤，伴小细胞性贫血"),
        differential=("adenomyosis and endometrial polyps", "子宫腺肌病及子宫内膜息肉"),
        diet=("a regular diet rich in iron", "富含铁的普通饮食"),
        abnormal=frozenset(("abdomen", "head")),
        department=("Department of Gynecology", "妇科"),
        diagnosis=("multiple uterine leiomyomas with iron-deficiency anemia", "多发性子宫平滑肌瘤合并缺铁性贫血"),
        age=(30, 52), sex="female", acute=False, los=(5, 8), onset=("months", 6, 24), gynecologic=True,
        complaint=("heavy and prolonged menstrual periods", "月经量增多、经期延长"),
        associated=("fatigue and dizziness", "乏力、头晕"),
        present=("each period now lasts about {pd} days with twice the usual blood loss",
                 "近半年月经周期尚规律，但经期延长至{pd}天左右，经量约为既往的2倍，伴血块，需频繁更换卫生用品"),
        pre_admission=("{he} had taken oral iron supplements for three months", "曾口服铁剂治疗3个月"),
        vitals={"hr": (84, 100)},
        exam=("an irregularly enlarged, firm uterus about the size of a {wk}-week gestation", "子宫不规则增大，如孕{wk}周大小，质硬，活动可"),
        labs=(hemoglobin(72, 96),
              Lab(("serum ferritin", "血清铁蛋白"), NGML, (13, 150), (3.0, 10.0), 1),
              Lab(("mean corpuscular volume", "平均红细胞体积"), ("fL", "fL"), (82, 100), (68, 78), 1)),
        imaging=(Imaging(("pelvic ultrasound", "盆腔超声"),
                         ("multiple intramural fibroids, the largest {s} cm across on the posterior wall",
                          "子宫多发肌壁间肌瘤，最大者位于后壁，直径约{s}cm")),),
        procedure=Procedure(
            ("laparoscopic myomectomy", "腹腔镜下子宫肌瘤剔除术"), "surgery", (1, 3),
            ("{nf} fibroids, the largest {s} cm across, all removed intact", "子宫多发肌瘤{nf}枚，最大者直径约{s}cm，均完整剔除"),
            ((13000, 22000), (15000, 26000))),
        meds=(Med(("iron sucrose", "蔗糖铁"), ("200 mg", "200mg"), "iv", "qod"),
              CEFUROXIME, FERROUS),
        course=("{he} passed flatus on postoperative day {d} and {his} hemoglobin rose with iron replacement",
                "术后第{d}天肛门排气，补铁治疗后血红蛋白回升"),
        course_day="post",
        discharge=("{he} was walking about freely and the port sites were dry", "下床活动自如，腹部穿刺孔干燥无渗出"),
        followup_days=(28, 42),
        instructions=("avoid intercourse and tub baths for one month, continue iron tablets, and have a pelvic ultrasound at the visit",
                      "1个月内禁性生活及盆浴，继续口服铁剂，复诊时复查盆腔超声"),
        comorbid=("csection", "htn"), no_comorbid=0.6,
        params=lambda rng: {"pd": _n(rng, 9, 12), "wk": _n(rng, 10, 14), "s": _n(rng, 5.0, 8.5, 1), "nf": _n(rng, 3, 6),
                            "d": _n(rng, 1, 2)},
    ),
    Condition(
        key="ectopic", category="gynecology",
        appearance=("alert but pale and sweating", "神志清楚，面色苍白，出冷汗"),
        negatives=("no fever and no passage of tissue from the vagina", "无发热及阴道组织物排出"),
        basis=("amenorrhea, a positive beta-hCG, an empty uterus with an adnexal mass, and free fluid in the pelvis", "停经史、血β-人绒毛膜促性腺激素阳性、宫内未见孕囊且附件区包块伴盆腔积液"),
        differential=("a ruptured corpus luteum cyst and threatened miscarriage", "黄体破裂及先兆流产"),
        diet=("nothing by mouth", "禁食"),
        abnormal=frozenset(("abdomen", "head")),
        department=("Department of Gynecology", "妇科"),
        diagnosis=("ruptured tubal ectopic pregnancy", "输卵管妊娠破裂"),
        age=(20, 40), sex="female", los=(4, 7), onset=("hours", 3, 12), gynecologic=True,
        complaint=("{wk} weeks of amenorrhea with lower abdominal pain", "停经{wk}周，下腹痛"),
        associated=("light vaginal bleeding, dizziness and a feeling of rectal pressure", "少量阴道流血，伴头晕及肛门坠胀感"),
        present=("a home urine pregnancy test had been positive {dpos} days earlier",
                 "平素月经规律，{dpos}天前自测尿妊娠试验阳性，此次无明显诱因突发下腹部撕裂样疼痛"),
        pre_admission=("{he} had not yet attended an early pregnancy check", "未行早孕检查"),
        vitals={"hr": (104, 126), "sbp": (86, 104)},
        exam=("marked lower abdominal tenderness, cervical motion tenderness and a tender {side} adnexal mass",
              "下腹部压痛、反跳痛明显，宫颈举摆痛阳性，{side}附件区触及压痛包块"),
        labs=(Lab(("serum beta-hCG", "血β-人绒毛膜促性腺激素"), ("mIU/mL", "mIU/mL"), (0, 5), (1800, 6500), 0),
              hemoglobin(78, 102),
              Lab(("hematocrit", "红细胞压积"), PCT, (40, 50), (24.0, 32.0), 1, female_ref=(35, 45))),
        imaging=(Imaging(("transvaginal ultrasound", "经阴道超声"),
                         ("an empty uterine cavity, a {s} cm mass in the {side} adnexa and free fluid in the pelvis",
                          "宫腔内未见孕囊，{side}附件区见{s}cm混合性包块，盆腔积液")),),
        procedure=Procedure(
            ("emergency laparoscopic {side} salpingectomy", "急诊腹腔镜下{side}侧输卵管切除术"), "surgery", (0, 0),
            ("about {ml} mL of blood in the pelvis and a ruptured ampullary pregnancy in the {side} fallopian tube",
             "盆腔积血约{ml}mL，{side}侧输卵管壶腹部妊娠破裂"),
            ((9000, 16000), (9000, 16000))),
        meds=(CEFUROXIME, FERROUS,
              Med(("ondansetron", "昂丹司琼"), ("4 mg", "4mg"), "ivp", "prn")),
        course=("serum beta-hCG fell steadily after surgery and {he} was up and walking on postoperative day {d}",
                "术后血β-人绒毛膜促性腺激素逐日下降，术后第{d}天下床活动"),
        course_day="post",
        discharge=("{he} had no abdominal pain and only scant vaginal spotting", "无腹痛，阴道少量褐色分泌物"),
        followup_days=(7, 14),
        instructions=("recheck serum beta-hCG weekly until it is negative, avoid intercourse for one month, and use reliable contraception for six months",
                      "每周复查血β-人绒毛膜促性腺激素直至正常，1个月内禁性生活，6个月内严格避孕"),
        comorbid=("csection", "appendectomy"), no_comorbid=0.75,
        params=lambda rng: {**_side(rng), "wk": _n(rng, 6, 8), "dpos": _n(rng, 4, 10), "s": _n(rng, 2.5, 4.5, 1),
                            "ml": _n(rng, 400, 900, step=10), "d": _n(rng, 1, 2)},
    ),
    Condition(
        key="preeclampsia", category="obstetrics",
        appearance=("alert, with a puffy face", "神志清楚，颜面部轻度水肿"),
        negatives=("no seizures, vaginal bleeding or leakage of fluid", "无抽搐、阴道流血及流液"),
        basis=("new high blood pressure with a systolic reading of 160 mmHg or more after 20 weeks of pregnancy, with heavy proteinuria", "妊娠20周后新发高血压，收缩压达160mmHg以上，伴大量蛋白尿"),
        differential=("chronic hypertension in pregnancy and gestational hypertension", "妊娠合并慢性高血压及妊娠期高血压"),
        diet=("a high-protein diet", "高蛋白饮食"),
        abnormal=frozenset(("abdomen", "limbs", "neuro")),
        department=("Department of Obstetrics", "产科"),
        diagnosis=("severe preeclampsia", "重度子痫前期"),
        age=(20, 42), sex="female", los=(5, 9), onset=("days", 3, 10), gynecologic=True,
        complaint=("swelling of both legs with headache", "双下肢水肿伴头痛"),
        associated=("blurred vision and upper abdominal discomfort", "视物模糊及上腹部不适"),
        present=("{he} is {gw} weeks pregnant, and {his} antenatal checks had been normal until this illness",
                 "现孕{gw}周，此前定期产检未见明显异常，近期出现双下肢水肿并逐渐加重，伴持续性头痛"),
        pre_admission=("a community clinic found raised blood pressure and protein in {his} urine", "社区医院产检发现血压升高、尿蛋白阳性"),
        vitals={"sbp": (160, 184), "hr": (84, 104)},
        exam=("pitting edema of both legs up to the knees, brisk tendon reflexes, and a fetal heart rate of {fhr} per minute",
              "双下肢凹陷性水肿至膝，腱反射活跃，胎心率{fhr}次/分"),
        labs=(Lab(("24-hour urine protein", "24小时尿蛋白定量"), ("g/24 h", "g/24h"), (0, 0.15), (2.4, 5.8), 2),
              platelets(96, 122),
              Lab(("serum uric acid", "血尿酸"), UMOL, (155, 357), (390, 520), 0)),
        imaging=(Imaging(("obstetric ultrasound", "产科超声"),
                         ("a single live fetus with an estimated weight of {efw} g", "宫内单活胎，估计胎儿体重约{efw}g")),),
        procedure=Procedure(
            ("lower-segment cesarean section", "子宫下段剖宫产术"), "surgery", (1, 2),
            ("the delivery of a live {baby} weighing {bw} g, with Apgar scores of {a1} and {a2}",
             "娩出一活{baby}，体重{bw}g，1分钟及5分钟Apgar评分分别为{a1}分和{a2}分"),
            ((12000, 20000), (9000, 16000)), outcome=True),
        meds=(Med(("magnesium sulfate", "硫酸镁"), ("1 g per hour", "1g/h"), "civ", "24h"),
              Med(("labetalol", "拉贝洛尔片"), ("100 mg", "100mg"), "po", "tid"),
              CEFUROXIME,
              Med(("oxytocin", "缩宫素"), ("10 units", "10单位"), "im", "qd")),
        course=("blood pressure settled into the normal range by postoperative day {d}, and magnesium sulfate was stopped after 24 hours",
                "术后第{d}天血压降至正常范围，硫酸镁使用24小时后停用"),
        course_day="post",
        discharge=("mother and baby were both well, with {his} blood pressure controlled on oral medication",
                   "母婴情况良好，口服药物下血压控制平稳"),
        followup_days=(7, 10),
        instructions=("measure blood pressure twice a day, seek care at once for headache or blurred vision, and attend the postnatal clinic",
                      "每日监测血压2次，如有头痛、视物模糊及时就诊，按时产后复查"),
        no_comorbid=0.9, comorbid=("appendectomy",), params=_preeclampsia_params,
    ),
    # --- urology ---
    Condition(
        key="bph", category="urology",
        appearance=("alert and comfortable", "神志清楚，精神可"),
        negatives=("no visible blood in the urine, fever or flank pain", "无肉眼血尿、发热及腰痛"),
        basis=("long-standing urinary symptoms, a low flow rate, an enlarged prostate and a large residual urine volume", "长期下尿路症状、尿流率降低、前列腺增大及残余尿量增多"),
        differential=("prostate cancer and urethral stricture", "前列腺癌及尿道狭窄"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(()),
        department=("Department of Urology", "泌尿外科"),
        diagnosis=("benign prostatic hyperplasia", "良性前列腺增生"),
        age=(55, 85), sex="male", acute=False, los=(5, 8), onset=("years", 2, 6),
        complaint=("frequent urination at night and a weak urinary stream", "夜尿增多、排尿费力"),
        associated=("a sense of incomplete emptying and dribbling after urination", "尿不尽感及尿后滴沥"),
        present=("{he} gets up about {n} times each night to pass urine and had one episode of acute urinary retention last month",
                 "进行性排尿困难，尿线变细，夜尿{n}次，1个月前曾发生急性尿潴留1次，经导尿后缓解"),
        pre_admission=("tamsulosin from a local clinic gave only partial relief", "于外院口服坦索罗辛治疗，效果不佳"),
        vitals={"sbp": (128, 154)},
        exam=("a smooth, firm, enlarged prostate with a shallow median groove and no nodules on rectal examination",
              "直肠指检示前列腺Ⅱ度增大，质韧，表面光滑，中央沟变浅，未触及结节"),
        labs=(Lab(("maximum urinary flow rate", "最大尿流率"), ("mL/s", "mL/s"), (15, 25), (6.2, 9.8), 1),
              Lab(("total prostate-specific antigen", "总前列腺特异性抗原"), NGML, (0, 4), (1.6, 3.8), 2),
              creatinine(72, 104)),
        imaging=(Imaging(("urinary tract ultrasound", "泌尿系超声"),
                         ("an enlarged prostate of about {vol} mL bulging into the bladder, with a post-void residual of {pvr} mL",
                          "前列腺体积约{vol}mL，突入膀胱，残余尿量约{pvr}mL")),),
        procedure=Procedure(
            ("transurethral resection of the prostate", "经尿道前列腺电切术"), "surgery", (1, 3),
            ("enlarged lateral and middle lobes, from which {gr} g of tissue was resected", "前列腺两侧叶及中叶增生，共切除增生组织约{gr}g"),
            ((12000, 20000), (14000, 24000))),
        meds=(TAMSULOSIN,
              Med(("finasteride", "非那雄胺片"), ("5 mg", "5mg"), "po", "qd"),
              LEVOFLOXACIN),
        course=("bladder irrigation was stopped on postoperative day {d} and the urinary catheter was removed before discharge",
                "术后第{d}天停止膀胱冲洗，出院前拔除导尿管"),
        course_day="post",
        discharge=("{he} was voiding freely with a good stream and clear urine", "排尿通畅，尿线粗，尿色清"),
        followup_days=(21, 35),
        instructions=("drink plenty of water, avoid constipation and cycling for one month, and recheck PSA in three months",
                      "多饮水，保持大便通畅，1个月内避免骑车，3个月后复查前列腺特异性抗原"),
        comorbid=("htn", "dm", "chd"), no_comorbid=0.4,
        params=lambda rng: {"n": _n(rng, 3, 6), "vol": _n(rng, 55, 95), "pvr": _n(rng, 90, 220, step=10),
                            "gr": _n(rng, 25, 50), "d": _n(rng, 1, 3)},
    ),
    Condition(
        key="ureteral_stone", category="urology",
        appearance=("alert, restless and curled up in pain", "神志清楚，辗转不安，痛苦面容"),
        negatives=("no fever or chills", "无发热及寒战"),
        basis=("colicky flank pain, blood in the urine and a ureteral stone with hydronephrosis on CT", "腰腹部绞痛、血尿及CT示输尿管结石伴肾积水"),
        differential=("acute appendicitis and acute pyelonephritis", "急性阑尾炎及急性肾盂肾炎"),
        diet=("a regular diet with plenty of fluids", "普通饮食，多饮水"),
        abnormal=frozenset(("abdomen",)),
        department=("Department of Urology", "泌尿外科"),
        diagnosis=("ureteral calculus with hydronephrosis", "输尿管结石伴肾积水"),
        age=(22, 65), male_share=0.65, los=(3, 6), onset=("hours", 5, 30),
        complaint=("colicky {side} flank pain", "{side}侧腰腹部绞痛"),
        associated=("visible blood in the urine, nausea and vomiting", "肉眼血尿，伴恶心呕吐"),
        present=("the pain came in waves and spread to the {side} groin",
                 "无明显诱因突发腰腹部绞痛，疼痛呈阵发性，向{side}侧腹股沟区及会阴部放射，辗转不安"),
        pre_admission=("a painkiller injection at a local clinic relieved the pain only briefly", "于当地诊所肌注止痛药后症状短暂缓解"),
        vitals={"hr": (88, 108), "sbp": (130, 158)},
        exam=("tenderness on percussion over the {side} costovertebral angle", "{side}肾区叩击痛阳性"),
        labs=(Lab(("urine red blood cell count", "尿红细胞计数"), ("/µL", "/μL"), (0, 25), (180, 650), 0),
              creatinine(68, 104), wbc(6.0, 9.4)),
        imaging=(Imaging(("noncontrast CT of the urinary tract", "泌尿系CT平扫"),
                         ("{a_s} {s} mm stone in the upper {side} ureter with moderate {side} hydronephrosis",
                          "{side}输尿管上段见一大小约{s}mm结石，{side}肾中度积水")),),
        procedure=Procedure(
            ("ureteroscopic holmium laser lithotripsy with double-J stent placement", "输尿管镜下钬激光碎石术及双J管置入术"),
            "surgery", (0, 2),
            ("{a_s} {s} mm yellow-brown stone, which was completely fragmented", "一枚约{s}mm黄褐色结石，予钬激光完全粉碎"),
            ((8000, 14000), (12000, 20000))),
        meds=(TAMSULOSIN, LEVOFLOXACIN,
              Med(("diclofenac sodium suppository", "双氯芬酸钠栓"), ("50 mg", "50mg"), "pr", "prn")),
        course=("the hematuria cleared within two days and a plain film confirmed that no fragments remained",
                "术后2天内血尿消失，复查腹部平片未见残留结石"),
        discharge=("{he} was pain-free and passing clear urine", "无腰痛，尿色清亮"),
        followup_days=(21, 30),
        instructions=("drink at least 2,500 mL of water a day and return to have the double-J stent removed",
                      "每日饮水2500mL以上，按时返院拔除双J管"),
        comorbid=("gout", "htn"), no_comorbid=0.65,
        params=lambda rng: _with_article({**_side(rng), "s": _n(rng, 7.0, 12.0, 1)}),
    ),
    # --- oncology ---
    Condition(
        key="colon_cancer", category="oncology",
        appearance=("alert and slightly pale", "神志清楚，轻度贫血貌"),
        negatives=("no vomiting, fever or signs of bowel obstruction", "无呕吐、发热及肠梗阻表现"),
        basis=("a change in bowel habits with bleeding, a raised CEA, a sigmoid mass at colonoscopy and adenocarcinoma on biopsy", "排便习惯改变伴便血、癌胚抗原升高、结肠镜见乙状结肠肿物及活检示腺癌"),
        differential=("ulcerative colitis and bleeding hemorrhoids", "溃疡性结肠炎及痔疮出血"),
        diet=("a liquid diet before bowel preparation", "流质饮食（术前肠道准备）"),
        abnormal=frozenset(("abdomen", "head")),
        department=("Department of Gastrointestinal Surgery", "胃肠外科"),
        diagnosis=("adenocarcinoma of the sigmoid colon", "乙状结肠腺癌"),
        age=(45, 82), male_share=0.55, acute=False, los=(10, 16), onset=("months", 2, 6),
        complaint=("a change in bowel habits with blood in the stool", "排便习惯改变伴便中带血"),
        associated=("lower abdominal discomfort and a weight loss of about {kg} kg", "下腹部不适，体重下降约{kg}kg"),
        present=("constipation alternated with loose stools, and dark red blood was mixed into the stool",
                 "无明显诱因出现大便干稀交替，每日排便2至4次不等，便中混有暗红色血液及黏液"),
        pre_admission=("a colonoscopy at another hospital found a mass, and a biopsy showed adenocarcinoma",
                       "外院结肠镜检查发现肠腔肿物，活检病理提示腺癌"),
        vitals={},
        exam=("mild tenderness in the left lower abdomen without a palpable mass", "左下腹轻压痛，未触及明显包块"),
        labs=(cea(8.6, 46.0), hemoglobin(88, 112),
              Lab(("carbohydrate antigen 19-9", "糖类抗原19-9"), ("U/mL", "U/mL"), (0, 37), (41, 120), 0)),
        imaging=(Imaging(("contrast-enhanced CT of the chest, abdomen and pelvis", "胸腹盆腔增强CT"),
                         ("thickening of the sigmoid colon wall over {t} cm with no distant metastasis",
                          "乙状结肠肠壁增厚，累及长度约{t}cm，未见远处转移")),),
        procedure=Procedure(
            ("laparoscopic radical resection of the sigmoid colon", "腹腔镜下乙状结肠癌根治术"), "surgery", (3, 5),
            ("an ulcerated tumor of about {t} cm invading the serosa, with no liver or peritoneal metastasis",
             "肿瘤大小约{t}cm，呈溃疡型，侵及浆膜层，肝脏及腹膜未见转移"),
            ((24000, 38000), (38000, 62000))),
        meds=(CEFUROXIME,
              Med(("ornidazole", "奥硝唑"), ("0.5 g", "0.5g"), "iv", "bid"),
              ENOXAPARIN, ESOMEPRAZOLE),
        course=("bowel function returned on postoperative day {d}, and pathology confirmed a moderately differentiated adenocarcinoma, stage {stage}",
                "术后第{d}天肛门排气，术后病理示中分化腺癌，{stage}期"),
        course_day="post",
        discharge=("{he} was eating a soft diet and the wounds were healing well", "半流质饮食耐受良好，切口愈合佳"),
        followup_days=(21, 28),
        instructions=("see the medical oncologist to decide on adjuvant chemotherapy and have CEA checked every three months",
                      "至肿瘤内科评估是否需辅助化疗，每3个月复查癌胚抗原"),
        comorbid=("htn", "dm", "hld"), no_comorbid=0.45,
        family=(("{his} mother was diagnosed with colorectal cancer in her sixties", "母亲60余岁时诊断结直肠癌"),),
        params=lambda rng: {"kg": _n(rng, 3, 8), "t": _n(rng, 3.0, 6.0, 1), "d": _n(rng, 2, 4),
                            "stage": rng.choice((("IIA", "ⅡA"), ("IIB", "ⅡB"), ("IIIA", "ⅢA"), ("IIIB", "ⅢB")))},
    ),
    Condition(
        key="lung_cancer", category="oncology",
        appearance=("alert and comfortable", "神志清楚，精神可，自主体位"),
        negatives=("no chest pain, fever or hoarseness", "无胸痛、发热及声音嘶哑"),
        basis=("a growing, spiculated nodule on CT with raised tumor markers", "CT示结节逐渐增大、边缘毛刺，伴肿瘤标志物升高"),
        differential=("a tuberculoma and an inflammatory pseudotumor", "肺结核球及炎性假瘤"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(("lungs", "nodes")),
        department=("Department of Thoracic Surgery", "胸外科"),
        diagnosis=("lung adenocarcinoma", "肺腺癌"),
        age=(45, 80), acute=False, los=(7, 12), onset=("months", 2, 5),
        complaint=("a lung nodule found at a routine health check", "体检发现肺部结节"),
        associated=("an occasional dry cough with blood-streaked sputum", "偶有干咳，间断痰中带血"),
        present=("a low-dose CT at a routine health check had found a {s} cm nodule in the {side} upper lobe, which grew on a later scan",
                 "体检低剂量CT发现{side}肺上叶结节约{s}cm，3个月后复查较前增大，建议进一步诊治"),
        pre_admission=("{he} had received no treatment", "未行特殊治疗"),
        vitals={},
        exam=("clear breath sounds in both lungs and no enlarged superficial lymph nodes", "双肺呼吸音清，未闻及干湿性啰音，浅表淋巴结未触及肿大"),
        labs=(cea(6.2, 22.0),
              Lab(("cytokeratin 19 fragment", "细胞角蛋白19片段"), NGML, (0, 3.3), (3.8, 8.4), 1),
              wbc(4.8, 8.9)),
        imaging=(Imaging(("contrast-enhanced chest CT", "胸部增强CT"),
                         ("a {s} cm spiculated nodule in the {side} upper lobe without enlarged mediastinal lymph nodes",
                          "{side}肺上叶见{s}cm分叶状结节，边缘毛刺，纵隔淋巴结未见肿大")),
                 Imaging(("contrast-enhanced brain MRI", "头颅增强磁共振"), ("no intracranial metastasis", "未见颅内转移"))),
        procedure=Procedure(
            ("video-assisted thoracoscopic {side} upper lobectomy with systematic lymph node dissection",
             "胸腔镜下{side}肺上叶切除术及系统性淋巴结清扫术"),
            "surgery", (2, 4),
            ("a firm {s} cm tumor puckering the visceral pleura, with no pleural effusion or seeding",
             "肿瘤大小约{s}cm，质硬，牵拉脏层胸膜凹陷，未见胸腔积液及胸膜播散"),
            ((22000, 36000), (36000, 58000))),
        meds=(CEFUROXIME, AMBROXOL, FLURBIPROFEN,
              Med(("budesonide suspension", "布地奈德混悬液"), ("1 mg", "1mg"), "neb", "bid")),
        course=("the chest tube was removed on postoperative day {d}, and pathology confirmed invasive adenocarcinoma, stage {stage}",
                "术后第{d}天拔除胸腔引流管，术后病理示浸润性腺癌，{stage}期"),
        course_day="post",
        discharge=("{he} had mild incision pain and no breathlessness on walking", "切口轻度疼痛，行走无气促"),
        followup_days=(21, 30),
        instructions=("keep up deep-breathing exercises, stop smoking completely, and bring the genetic test results to plan further treatment",
                      "坚持呼吸功能锻炼，严格戒烟，携基因检测结果复诊以制定后续治疗方案"),
        comorbid=("htn", "bronchitis", "dm"), no_comorbid=0.5,
        family=(("{his} father, a heavy smoker, died of lung cancer", "父亲有长期吸烟史，死于肺癌"),),
        params=lambda rng: {**_side(rng), "s": _n(rng, 1.8, 3.2, 1), "d": _n(rng, 2, 4),
                            "stage": rng.choice((("IA2", "ⅠA2"), ("IA3", "ⅠA3"), ("IB", "ⅠB")))},
    ),
    Condition(
        key="breast_cancer", category="oncology",
        appearance=("alert and comfortable", "神志清楚，精神可"),
        negatives=("no nipple discharge, breast pain or bone pain", "无乳头溢液、乳房疼痛及骨痛"),
        basis=("a hard, fixed breast mass, a BI-RADS 5 lesion on ultrasound and carcinoma on core needle biopsy", "乳腺质硬固定肿块、超声BI-RADS 5类及空芯针活检示浸润性癌"),
        differential=("fibroadenoma and plasma cell mastitis", "乳腺纤维腺瘤及浆细胞性乳腺炎"),
        diet=("a regular diet", "普通饮食"),
        abnormal=frozenset(("nodes",)),
        department=("Department of Breast Surgery", "乳腺外科"),
        diagnosis=("invasive ductal carcinoma of the breast", "乳腺浸润性导管癌"),
        age=(35, 75), sex="female", acute=False, los=(6, 10), onset=("months", 1, 5),
        complaint=("a painless lump in the {side} breast", "发现{side}乳腺无痛性肿块"),
        associated=("slight dimpling of the overlying skin", "局部皮肤轻度凹陷"),
        present=("{he} found the lump while showering, and it had grown slightly since",
                 "洗澡时无意中发现{side}乳腺一无痛性肿块，约蚕豆大小，近期略有增大"),
        pre_admission=("an outpatient core needle biopsy showed invasive carcinoma", "门诊空芯针穿刺活检提示浸润性癌"),
        vitals={},
        exam=("a firm, poorly mobile {s} cm mass in the upper outer quadrant of the {side} breast with no enlarged axillary nodes",
              "{side}乳外上象限触及约{s}cm肿块，质硬，活动度差，同侧腋窝未触及肿大淋巴结"),
        labs=(Lab(("carbohydrate antigen 15-3", "糖类抗原15-3"), ("U/mL", "U/mL"), (0, 25), (28, 56), 1),
              cea(1.2, 4.6), wbc(4.6, 8.4)),
        imaging=(Imaging(("breast ultrasound", "乳腺超声"),
                         ("a {s} cm hypoechoic mass with irregular margins, BI-RADS category 5",
                          "{side}乳外上象限低回声肿物，大小约{s}cm，边界不清，BI-RADS 5类")),
                 Imaging(("mammography", "乳腺钼靶"), ("a spiculated mass with clustered microcalcifications", "毛刺状肿块伴簇状微钙化"))),
        procedure=Procedure(
            ("{side} modified radical mastectomy", "{side}侧乳腺癌改良根治术"), "surgery", (2, 4),
            ("a {s} cm tumor confirmed as invasive carcinoma on frozen section", "肿瘤大小约{s}cm，术中冰冻病理证实为浸润性癌"),
            ((16000, 26000), (22000, 38000))),
        meds=(Med(("cefazolin", "头孢唑林"), ("2 g", "2g"), "iv", "q8h", beta_lactam=True),
              FLURBIPROFEN,
              Med(("ondansetron", "昂丹司琼"), ("8 mg", "8mg"), "ivp", "prn")),
        course=("drain output fell steadily, and pathology showed estrogen receptor-positive disease with {ln} of {tot} axillary nodes involved",
                "引流量逐日减少，术后病理示雌激素受体阳性，腋窝淋巴结转移{ln}/{tot}"),
        discharge=("{he} went home with one drain in place and the wound healing well", "切口愈合良好，腋窝引流管保留"),
        followup_days=(7, 10),
        instructions=("have the drain removed at the visit, do gentle arm exercises every day, and see the oncologist about adjuvant therapy",
                      "复诊时拔除引流管，每日进行患肢功能锻炼，至肿瘤内科制定辅助治疗方案"),
        comorbid=("htn", "csection", "dm"), no_comorbid=0.5,
        family=(("{his} maternal aunt had breast cancer", "姨母患乳腺癌"),),
        params=lambda rng: {**_side(rng), "s": _n(rng, 2.0, 3.5, 1), "ln": _n(rng, 0, 3), "tot": _n(rng, 14, 22)},
    ),
    # --- infectious disease ---
    Condition(
        key="liver_abscess", category="infectious disease",
        appearance=("alert, flushed and unwell", "神志清楚，急性热病容，精神差"),
        negatives=("no yellowing of the skin, diarrhea or cough", "无黄疸、腹泻及咳嗽"),
        basis=("high fever with chills, right upper abdominal pain, raised inflammatory markers and a multiloculated liver lesion on CT", "寒战高热、右上腹痛、炎症指标升高及CT示肝内多房性病灶"),
        differential=("an amebic liver abscess and a necrotic liver cancer", "阿米巴肝脓肿及肝癌坏死液化"),
        diet=("a light, high-protein diet", "清淡高蛋白饮食"),
        abnormal=frozenset(("abdomen",)),
        department=("Department of Infectious Diseases", "感染科"),
        diagnosis=("pyogenic liver abscess", "细菌性肝脓肿"),
        age=(35, 78), male_share=0.65, los=(10, 18), onset=("days", 4, 12),
        complaint=("high fever with chills", "寒战、高热"),
        associated=("pain in the right upper abdomen and poor appetite", "右上腹痛，食欲减退"),
        present=("{his} temperature rose above 39 °C every afternoon",
                 "无明显诱因出现寒战高热，每日午后体温升至39℃以上，伴右上腹持续性胀痛，食欲明显减退"),
        pre_admission=("fever medicine bought at a pharmacy brought the temperature down only briefly", "自服退热药后体温可暂时下降，但反复升高"),
        vitals={"temp": (38.6, 39.8), "hr": (96, 118)},
        exam=("tenderness over the liver and pain on percussion of the right lower chest", "肝区压痛及叩击痛阳性"),
        labs=(wbc(13.8, 21.5), crp(120, 260), procalcitonin(1.2, 9.6)),
        imaging=(Imaging(("contrast-enhanced CT of the abdomen", "腹部增强CT"),
                         ("{a_s} {s} cm multiloculated abscess in the right lobe of the liver", "肝右叶见{s}cm多房性脓肿")),
                 Imaging(("repeat liver ultrasound", "肝脏超声（复查）"),
                         ("an abscess cavity that had shrunk to {s2} cm", "脓腔缩小至{s2}cm"), after_procedure=True)),
        procedure=Procedure(
            ("ultrasound-guided percutaneous catheter drainage of the liver abscess", "超声引导下经皮肝脓肿穿刺置管引流术"),
            "procedure", (1, 2),
            ("{ml} mL of yellow-green pus, which grew Klebsiella pneumoniae on culture", "抽出黄绿色脓液约{ml}mL，脓液培养为肺炎克雷伯菌"),
            ((3200, 6400), (3000, 6000))),
        meds=(Med(("meropenem", "美罗培南"), ("1 g", "1g"), "iv", "q8h", beta_lactam=True),
              METRONIDAZOLE,
              Med(("levofloxacin", "左氧氟沙星片"), ("0.5 g", "0.5g"), "po", "qd")),
        course=("the fever settled on hospital day {d}, the drain came out once the output stopped, and the antibiotics were switched to tablets",
                "入院第{d}天体温恢复正常，引流液减少后拔除引流管，抗生素改为口服序贯治疗"),
        course_day="stay",
        discharge=("{he} had been free of fever for three days with no abdominal pain", "体温正常3天，无腹痛"),
        followup_days=(14, 21),
        instructions=("finish the remaining oral antibiotic course and have a liver ultrasound at the visit",
                      "继续口服抗生素完成疗程，复诊时复查肝脏超声"),
        comorbid=("dm", "dm", "htn", "hbv"), no_comorbid=0.3, params=_liver_abscess_params,
    ),
    # --- pediatrics ---
    Condition(
        key="mpp", category="pediatrics",
        appearance=("alert, flushed and coughing often", "神志清楚，精神稍差，阵发性咳嗽"),
        negatives=("no wheezing, vomiting or diarrhea", "无喘息、呕吐及腹泻"),
        basis=("fever with an irritating cough in a child, lobar consolidation on CT and positive Mycoplasma testing", "儿童发热伴刺激性咳嗽、CT示大叶性实变及支原体检测阳性"),
        differential=("bacterial pneumonia and pulmonary tuberculosis", "细菌性肺炎及肺结核"),
        diet=("a light, easily digested diet", "清淡易消化饮食"),
        abnormal=frozenset(("lungs",)),
        department=("Department of Pediatrics", "儿科"),
        diagnosis=("Mycoplasma pneumoniae pneumonia", "肺炎支原体肺炎"),
        age=(3, 12), los=(6, 10), onset=("days", 4, 9),
        complaint=("fever and a persistent cough", "发热伴咳嗽"),
        associated=("bouts of dry, irritating cough that were worse at night", "阵发性刺激性干咳，夜间为重"),
        present=("the fever peaked in the evening and came back within a few hours of each dose of fever medicine",
                 "热峰多出现于傍晚，口服退热药后体温可暂降，数小时后复升，咳嗽逐渐加重，以夜间为著"),
        pre_admission=("{his} parents had given {him} cough syrup and fever medicine for three days without effect",
                       "家长自行给予止咳糖浆及退热药3天，效果不佳"),
        vitals={"temp": (38.5, 39.6), "hr": (110, 140), "rr": (26, 36), "spo2": (93, 97)},
        exam=("reduced breath sounds over the {side} lower chest with a few fine crackles", "{side}下肺呼吸音减低，可闻及少许细湿啰音"),
        labs=(Lab(("lactate dehydrogenase", "乳酸脱氢酶"), UL, (120, 300), (380, 620), 0),
              crp(18, 62), wbc(5.5, 9.2)),
        imaging=(Imaging(("chest CT", "胸部CT"),
                         ("consolidation of the {side} lower lobe with a small pleural effusion", "{side}肺下叶大片实变影，伴少量胸腔积液")),),
        procedure=Procedure(
            ("flexible bronchoscopy with bronchoalveolar lavage", "电子支气管镜检查及肺泡灌洗术"), "procedure", (1, 3),
            ("mucus plugs in the {side} lower lobe bronchi, with lavage fluid positive for Mycoplasma pneumoniae DNA",
             "{side}下叶支气管内见黏液栓，灌洗液肺炎支原体核酸检测阳性"),
            ((2400, 4600), (2000, 4000))),
        meds=(Med(("azithromycin", "阿奇霉素"), ("10 mg/kg", "10mg/kg"), "iv", "qd"),
              Med(("methylprednisolone", "甲泼尼龙"), ("2 mg/kg", "2mg/kg"), "iv", "qd"),
              Med(("budesonide suspension", "布地奈德混悬液"), ("1 mg", "1mg"), "neb", "bid"),
              Med(("acetylcysteine solution", "乙酰半胱氨酸溶液"), ("0.3 g", "0.3g"), "neb", "bid")),
        course=("the fever settled on hospital day {d} and the cough eased gradually", "入院第{d}天体温降至正常，咳嗽逐渐减轻"),
        course_day="stay",
        discharge=("the child was free of fever, with an occasional cough and normal activity", "患儿体温正常，偶有咳嗽，精神反应好"),
        followup_days=(7, 14),
        instructions=("finish the oral azithromycin course, stay away from crowded places, and have a chest X-ray in two weeks",
                      "按疗程口服阿奇霉素，避免去人群密集场所，2周后复查胸片"),
        comorbid=("eczema",), no_comorbid=0.85,
        params=lambda rng: {**_side(rng), "d": _n(rng, 2, 4)},
    ),
    Condition(
        key="kawasaki", category="pediatrics",
        appearance=("irritable and feverish", "烦躁哭闹，精神欠佳"),
        negatives=("no cough, vomiting or diarrhea", "无咳嗽、呕吐及腹泻"),
        basis=("fever for at least five days with red eyes, lip and mouth changes, a rash, swollen hands and feet, and an enlarged neck lymph node", "发热5天以上，伴球结膜充血、口唇及口腔改变、皮疹、四肢末端改变及颈部淋巴结肿大"),
        differential=("scarlet fever and measles", "猩红热及麻疹"),
        diet=("a light, easily digested diet", "清淡易消化饮食"),
        abnormal=frozenset(("skin", "nodes", "limbs", "heart", "head", "mouth", "neck")),
        department=("Department of Pediatrics", "儿科"),
        diagnosis=("Kawasaki disease", "川崎病"),
        age=(1, 5), male_share=0.6, los=(7, 10), onset=("days", 5, 8),
        complaint=("persistent high fever", "持续高热"),
        associated=("a rash, red eyes, red cracked lips and swollen hands and feet", "皮疹、双眼结膜充血、口唇皲裂及手足硬肿"),
        present=("the fever did not respond to three days of antibiotics at a local clinic",
                 "外院予抗感染治疗3天，体温持续不退，病程中逐渐出现皮疹及眼红"),
        pre_admission=("{his} parents gave {him} ibuprofen syrup every six hours", "家长每6小时给予布洛芬混悬液退热"),
        vitals={"temp": (38.8, 40.0), "hr": (130, 160), "rr": (28, 36)},
        exam=("nonpurulent redness of both eyes, a strawberry tongue, a rash on the trunk and a {s} cm swollen lymph node on the {side} side of the neck",
              "双眼球结膜非化脓性充血，杨梅舌，躯干多形性皮疹，{side}颈部触及约{s}cm肿大淋巴结"),
        labs=(crp(68, 160), platelets(420, 680),
              Lab(("erythrocyte sedimentation rate", "红细胞沉降率"), ("mm/h", "mm/h"), (0, 20), (62, 110), 0)),
        imaging=(Imaging(("echocardiography", "超声心动图"),
                         ("mild dilatation of the left coronary artery to {cd} mm", "左冠状动脉轻度扩张，内径约{cd}mm")),
                 Imaging(("repeat echocardiography", "超声心动图（复查）"),
                         ("no further coronary artery enlargement", "冠状动脉内径较前无进一步增宽"), after_procedure=True)),
        procedure=Procedure(
            ("intravenous immunoglobulin infusion at 2 g/kg", "静脉注射丙种球蛋白（2g/kg）"), "therapy", (0, 1),
            ("defervescence within {h} hours of completing the infusion", "丙种球蛋白输注完毕{h}小时内体温降至正常"),
            ((8000, 14000), (8000, 15000))),
        meds=(Med(("aspirin", "阿司匹林"), ("30 mg/kg/day", "30mg/kg/d"), "po", "div3",
                  purpose=("to control inflammation and prevent coronary thrombosis", "抗炎及预防冠状动脉血栓形成")),
              Med(("dipyridamole", "双嘧达莫片"), ("3 mg/kg/day", "3mg/kg/d"), "po", "div3"),
              Med(("famotidine", "法莫替丁"), ("0.5 mg/kg", "0.5mg/kg"), "ivp", "bid")),
        course=("the fever settled after immunoglobulin therapy, inflammatory markers fell, and aspirin was reduced to a low dose on hospital day {d}",
                "丙种球蛋白治疗后体温恢复正常，炎症指标下降，入院第{d}天阿司匹林减为小剂量"),
        course_day="stay",
        discharge=("the child had been free of fever for over 72 hours, with peeling skin at the fingertips",
                   "患儿体温正常72小时以上，指端出现膜状脱皮"),
        followup_days=(14, 21),
        instructions=("continue low-dose aspirin for six to eight weeks and repeat echocardiography at the visit",
                      "继续口服小剂量阿司匹林6至8周，复诊时复查超声心动图"),
        no_comorbid=1.0,
        params=lambda rng: {**_side(rng), "s": _n(rng, 1.6, 2.5, 1), "cd": _n(rng, 3.2, 3.9, 1), "h": _n(rng, 24, 36),
                            "d": _n(rng, 4, 6)},
    ),
)
CONDITIONS_BY_KEY = {c.key: c for c in CONDITIONS}

# --- history pools ----------------------------------------------------------------------------

# key: (English, Chinese, minimum age, sex or None). {n} is a number of years.
COMORBIDITIES: dict[str, tuple[str, str, int, str | None]] = {
    "htn": ("hypertension for {n} years, treated with amlodipine", "高血压病史{n}年，规律口服氨氯地平", 35, None),
    "dm": ("type 2 diabetes for {n} years, treated with metformin", "2型糖尿病病史{n}年，口服二甲双胍治疗", 35, None),
    "hld": ("hyperlipidemia for {n} years", "高脂血症病史{n}年", 35, None),
    "chd": ("coronary heart disease for {n} years", "冠心病病史{n}年", 45, None),
    "bronchitis": ("chronic bronchitis for {n} years", "慢性支气管炎病史{n}年", 40, None),
    "hbv": ("chronic hepatitis B for {n} years", "慢性乙型病毒性肝炎病史{n}年", 25, None),
    "gout": ("gout for {n} years", "痛风病史{n}年", 30, None),
    "osteoporosis": ("osteoporosis for {n} years", "骨质疏松症病史{n}年", 55, None),
    "appendectomy": ("an appendectomy {n} years ago", "{n}年前行阑尾切除术", 18, None),
    "csection": ("a cesarean section {n} years ago", "{n}年前行剖宫产术", 25, "female"),
    "eczema": ("eczema in infancy", "婴儿期湿疹史", 1, None),
}
NO_PAST: T = ("no history of hypertension, diabetes or coronary heart disease and no previous surgery",
              "否认高血压、糖尿病、冠心病病史，否认手术外伤史")
NO_PAST_DIABETIC: T = ("no history of hypertension or coronary heart disease and no previous surgery",
                       "否认高血压、冠心病病史，否认手术外伤史")
NO_PAST_CHILD: T = ("previously healthy, with normal growth and development", "既往体健，生长发育与同龄儿相仿")

NO_ALLERGY: T = ("no known drug or food allergies", "否认药物及食物过敏史")
ALLERGIES: tuple[tuple[str, str, bool], ...] = (  # (en, zh, conflicts with a beta-lactam)
    ("an allergy to penicillin, which caused a skin rash", "有青霉素过敏史，表现为皮疹", True),
    ("an allergy to sulfonamide antibiotics, which caused hives", "有磺胺类药物过敏史，表现为荨麻疹", False),
    ("an allergy to pollen, with seasonal sneezing", "有花粉过敏史，表现为季节性打喷嚏", False),
)

FAMILY_ADULT: tuple[tuple[T, int, int], ...] = (  # (text, min age, max age)
    (("{his} father had hypertension and {his} mother had type 2 diabetes", "父亲患高血压，母亲患2型糖尿病"), 18, 99),
    (("there is no known hereditary disease in the family", "否认家族遗传病史"), 0, 99),
    (("{his} parents are both healthy and no relative has a similar illness", "父母均体健，家族中无类似疾病患者"), 0, 50),
    (("{his} father died of a stroke in his seventies", "父亲70余岁时死于脑卒中"), 35, 99),
    (("{his} mother has coronary heart disease", "母亲患冠心病"), 25, 70),
)
FAMILY_CHILD: tuple[T, ...] = (
    ("both parents are healthy and no one in the family has had a similar illness", "父母体健，家族中无类似疾病史"),
    ("{his} parents are healthy, and {his} grandfather has hypertension", "父母体健，祖父患高血压"),
)

OCCUPATIONS: tuple[T, ...] = (
    ("teacher", "教师"), ("accountant", "会计"), ("electrician", "电工"), ("truck driver", "货车司机"),
    ("software engineer", "软件工程师"), ("sales manager", "销售经理"), ("farmer", "农民"),
    ("construction worker", "建筑工人"), ("chef", "厨师"), ("office clerk", "公司职员"),
    ("civil servant", "公务员"), ("shop owner", "个体经营者"), ("taxi driver", "出租车司机"),
    ("factory worker", "工厂工人"), ("architect", "建筑设计师"), ("bank teller", "银行职员"),
    ("police officer", "警察"), ("delivery driver", "快递员"),
)
RETIRED: tuple[T, ...] = (("retired teacher", "退休教师"), ("retired factory worker", "退休工人"),
                          ("retired civil servant", "退休干部"), ("retired farmer", "农民"),
                          ("retired engineer", "退休工程师"))

ZH_CITIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("南京", ("玄武区", "秦淮区", "鼓楼区", "建邺区")), ("杭州", ("上城区", "拱墅区", "西湖区", "滨江区")),
    ("苏州", ("姑苏区", "吴中区", "相城区")), ("宁波", ("海曙区", "江北区", "鄞州区")),
    ("合肥", ("瑶海区", "庐阳区", "蜀山区", "包河区")), ("济南", ("历下区", "槐荫区", "天桥区")),
    ("青岛", ("市南区", "市北区", "李沧区")), ("郑州", ("中原区", "二七区", "金水区")),
    ("武汉", ("江岸区", "江汉区", "武昌区", "洪山区")), ("长沙", ("芙蓉区", "天心区", "岳麓区")),
    ("成都", ("锦江区", "青羊区", "武侯区", "成华区")), ("西安", ("新城区", "碑林区", "雁塔区")),
    ("福州", ("鼓楼区", "台江区", "仓山区")), ("南昌", ("东湖区", "西湖区", "青山湖区")),
    ("石家庄", ("长安区", "桥西区", "裕华区")), ("沈阳", ("和平区", "沈河区", "皇姑区")),
    ("昆明", ("五华区", "盘龙区", "官渡区")), ("贵阳", ("南明区", "云岩区", "花溪区")),
    ("太原", ("小店区", "迎泽区", "杏花岭区")), ("南宁", ("兴宁区", "青秀区", "江南区")),
    ("徐州", ("云龙区", "泉山区", "鼓楼区")), ("洛阳", ("老城区", "西工区", "涧西区")),
)
ZH_NUMERALS = "一二三四五六"
EN_HOSPITAL_SUFFIXES = ("General Hospital", "Medical Center", "Regional Medical Center", "Community Hospital",
                        "University Hospital")

# --- the generator ----------------------------------------------------------------------------


def make_config(doc_id: int, language: Language, seed: int) -> Config:
    if language not in ("en", "zh"):  # a caller without type checks
        raise ValueError(f"unknown language {language!r}")
    rng = random.Random(seed)
    fake = faker_for(language, seed)
    zh = language == "zh"
    li = 1 if zh else 0
    cond = rng.choice(CONDITIONS)

    # who
    sex = cond.sex if cond.sex != "any" else ("male" if rng.random() < cond.male_share else "female")
    age = rng.randint(*cond.age)
    child = age < 14
    pronouns = _pronouns(sex)
    params = {k: (v[li] if isinstance(v, tuple) else v) for k, v in (cond.params(rng) if cond.params else {}).items()}
    ctx = {**pronouns, **params}

    def tx(pair: T) -> str:
        return pair[li].format(**ctx)

    hospital, city = _hospital(rng, fake, zh)
    # Built from gendered given names: zh_CN's name_male()/name_female() mix both sexes.
    given = fake.first_name_male() if sex == "male" else fake.first_name_female()
    patient = f"{fake.last_name()}{given}" if zh else f"{given} {fake.last_name()}"
    attending, operator = _doctors(fake, zh, exclude={patient})
    residence = _residence(rng, fake, zh, city)
    occupation = _occupation(rng, age, sex, li)

    # when
    admission = ADMISSION_START + dt.timedelta(days=rng.randrange(ADMISSION_DAYS))
    proc_day = rng.randint(*cond.procedure.day)
    los = rng.randint(*cond.los)
    if cond.course_day == "post":
        los = max(los, proc_day + int(params["d"]) + 1)
    elif cond.course_day == "stay":
        los = max(los, int(params["d"]) + 1)
    los = max(los, proc_day + 2)
    discharge = admission + dt.timedelta(days=los)
    procedure_date = admission + dt.timedelta(days=proc_day)
    followup = discharge + dt.timedelta(days=rng.randint(*cond.followup_days))
    imaging_days = _imaging_days(rng, cond, proc_day, los)

    # what
    meds = list(cond.meds[:2]) + ([rng.choice(cond.meds[2:])] if len(cond.meds) > 2 else [])
    allergy = _allergy(rng, any(m.beta_lactam for m in meds), li)
    past, past_keys = _past_history(rng, cond, age, sex, li, ctx)
    ros_affected = set(ROS_AFFECTED[cond.key]) | {COMORBID_ROS[k] for k in past_keys if k in COMORBID_ROS}
    family = _family(rng, cond, age, li, ctx)
    onset_unit, lo, hi = cond.onset
    onset_n = rng.randint(lo, hi)
    if onset_unit == "months" and onset_n % 12 == 0:  # "2 years", not "24 months"
        onset_unit, onset_n = "years", onset_n // 12
    duration = f"{onset_n}{ONSET_UNITS[onset_unit][1]}" if zh else \
        f"{onset_n} {ONSET_UNITS[onset_unit][0]}{'s' if onset_n != 1 else ''}"

    facts: dict[str, Fact] = {}

    def add(fact: Fact) -> None:
        facts[fact.key] = fact

    add(text_fact("hospital", hospital, "organisation"))
    add(text_fact("department", tx(cond.department), "organisation"))
    add(text_fact("attending_physician", attending, "person"))
    add(text_fact("inpatient_number", f"{admission.year}{rng.randint(10000, 99999)}"))
    add(text_fact("patient_name", patient, "person"))
    add(text_fact("gender", ("男" if sex == "male" else "女") if zh else sex, "category"))
    add(count_fact("age", age, language, unit="years",
                   text=f"{age}岁" if zh else f"{age} year{'s' if age != 1 else ''}"))
    add(text_fact("occupation", occupation, "category"))
    add(text_fact("residence", residence, "place"))
    add(date_fact("admission_date", admission, language))
    add(text_fact("admission_route", ("急诊", "门诊")[not cond.acute] if zh else
                  ("emergency department", "outpatient clinic")[not cond.acute], "category"))
    add(text_fact("chief_complaint", tx(cond.complaint)))
    add(text_fact("symptom_duration", duration))
    add(text_fact("associated_symptoms", tx(cond.associated)))
    add(text_fact("present_illness", tx(cond.present)))
    add(text_fact("pre_admission_care", tx(cond.pre_admission)))
    add(text_fact("past_history", past))
    add(text_fact("allergies", allergy))
    add(text_fact("family_history", family))
    for fact in _vitals(rng, cond, age, sex, language):
        add(fact)
    add(text_fact("pertinent_negatives", tx(cond.negatives)))
    add(text_fact("general_appearance", tx(cond.appearance)))
    add(text_fact("exam_findings", tx(cond.exam)))
    flags = []
    for i, lab in enumerate(cond.labs + _routine_labs(rng, cond, child, language)):
        female = sex == "female"
        low, high = lab.female_ref if (lab.female_ref and female) else lab.ref
        value = round(rng.uniform(*(lab.female_value if (lab.female_value and female) else lab.value)), lab.decimals)
        add(text_fact(f"labs.{i}.name", lab.name[li], "category"))
        add(_measure(f"labs.{i}.result", value, lab.decimals, lab.unit, language))
        add(text_fact(f"labs.{i}.reference_range", _range_text(low, high, lab, language)))
        flags.append("high" if value > high else "low" if value < low else "normal")
    for i, (img, day) in enumerate(zip(cond.imaging, imaging_days, strict=False)):
        add(text_fact(f"imaging.{i}.name", img.name[li], "category"))
        add(date_fact(f"imaging.{i}.date", admission + dt.timedelta(days=day), language))
        add(text_fact(f"imaging.{i}.finding", tx(img.finding)))
    add(text_fact("diagnosis", tx(cond.diagnosis), "category"))
    add(text_fact("diagnosis_basis", tx(cond.basis)))
    add(text_fact("differential_diagnosis", tx(cond.differential)))
    add(text_fact("diet", tx(cond.diet), "category"))
    add(text_fact("procedure.name", tx(cond.procedure.name)))
    add(date_fact("procedure.date", procedure_date, language))
    add(text_fact("procedure.operator", operator, "person"))
    add(text_fact("procedure.finding", tx(cond.procedure.finding)))
    for i, med in enumerate(meds):
        add(text_fact(f"medications.{i}.name", med.name[li], "category"))
        add(text_fact(f"medications.{i}.dose", tx(med.dose)))
        add(text_fact(f"medications.{i}.route", ROUTES[med.route][li], "category"))
        add(text_fact(f"medications.{i}.frequency", FREQUENCIES[med.freq][li], "category"))
        add(text_fact(f"medications.{i}.purpose", med.why()[li]))
    add(text_fact("hospital_course", tx(cond.course)))
    add(date_fact("discharge_date", discharge, language))
    add(count_fact("length_of_stay", los, language, unit="days", text=f"{los}天" if zh else f"{los} days"))
    add(text_fact("discharge_condition", tx(cond.discharge)))
    add(date_fact("followup.date", followup, language))
    add(text_fact("followup.instructions", tx(cond.instructions)))
    costs = _costs(rng, cond, los, zh)
    for key, amount in costs.items():
        add(money_fact(f"cost.{key}", amount, language))

    heart_rate = facts["vitals.heart_rate"].value
    assert isinstance(heart_rate, int)  # a count_fact
    extras = {
        **pronouns,
        "is_child": child,
        "pt": ("患儿" if child else "患者") if zh else ("the child" if child else "the patient"),
        "Pt": "The child" if child else "The patient",
        "occ_article": "an" if occupation[:1].lower() in "aeiou" else "a",
        "informant": _informant(child, cond, li),
        "has_past": bool(past_keys),
        "hbv_carrier": "hbv" in past_keys,
        "pregnant": cond.key == "preeclampsia",
        "menstrual_note": sex == "female" and 16 <= age <= 50 and not cond.gynecologic,
        "postmenopausal_note": sex == "female" and age > 55 and not cond.gynecologic,
        "proc_kind": cond.procedure.kind,
        "finding_style": cond.procedure.finding_style,
        "acute": cond.acute,
        "ecg_rhythm": ("窦性心动过速" if heart_rate > (140 if child else 100) else "窦性心律") if zh
                      else ("sinus tachycardia" if heart_rate > (140 if child else 100) else "sinus rhythm"),
        "care_level": ("一级护理" if cond.acute else "二级护理") if zh else
                      ("close observation" if cond.acute else "routine ward care"),
        "proc_noun": {"surgery": ("operation", "手术"), "procedure": ("procedure", "诊疗操作"),
                      "therapy": ("treatment", "治疗")}[cond.procedure.kind][li],
        "lab_flags": [_FLAG_WORDS[f][li] for f in flags],
        "lab_abnormal": [f != "normal" for f in flags],
        "purpose_unique": [sum(m.why() == med.why() for m in meds) == 1 for med in meds],
        "days_to_procedure": _days_after(proc_day, "admission", li),
        "days_to_followup": _days_after((followup - discharge).days, "discharge", li),
        "days_procedure_to_discharge": _days_after((discharge - procedure_date).days, cond.procedure.kind, li),
        "procedure_share": round(100 * costs["procedure"] / costs["total"]),
        "imaging_after": [img.after_procedure for img in cond.imaging],
        "normal": {system: system not in cond.abnormal for system in BODY_SYSTEMS},
        "ros": {system: system not in ros_affected for system in ROS_SYSTEMS},
        "condition": cond.key,
        "category": cond.category,
    }
    return Config(doc_id=doc_id, domain="medical", language=language, entity=f"{hospital}_{patient}",
                  seed=seed, facts=facts, extras=extras)


_FLAG_WORDS: dict[str, T] = {"high": ("above the reference range", "高于参考范围"),
                             "low": ("below the reference range", "低于参考范围"),
                             "normal": ("within the reference range", "在参考范围内")}


def _pronouns(sex: str) -> dict[str, str]:
    male = sex == "male"
    he, his, him = ("he", "his", "him") if male else ("she", "her", "her")
    return {"he": he, "his": his, "him": him, "He": he.capitalize(), "His": his.capitalize()}


def _hospital(rng: random.Random, fake, zh: bool) -> tuple[str, str]:
    if zh:
        city, districts = rng.choice(ZH_CITIES)
        pattern = rng.randrange(4)
        if pattern == 0:
            name = f"{city}市第{ZH_NUMERALS[rng.randrange(6)]}人民医院"
        elif pattern == 1:
            name = f"{city}市中心医院"
        elif pattern == 2:
            name = f"{city}市{rng.choice(districts)}人民医院"
        else:
            name = f"{city}市{rng.choice(('仁济', '同济', '博爱', '康复', '协和'))}医院"
        return name, city
    if rng.random() < 0.3:
        return f"{fake.last_name()} Memorial Hospital", fake.city()
    city = fake.city()
    return f"{city} {rng.choice(EN_HOSPITAL_SUFFIXES)}", city


def _doctors(fake, zh: bool, exclude: set[str]) -> tuple[str, str]:
    names: list[str] = []
    while len(names) < 2:
        name = fake.name() if zh else f"{fake.first_name()} {fake.last_name()}"
        if name not in exclude and name not in names:
            names.append(name)
    return names[0], names[1]


def _residence(rng: random.Random, fake, zh: bool, city: str) -> str:
    if zh:
        home, districts = rng.choice(ZH_CITIES) if rng.random() < 0.3 else (city, dict(ZH_CITIES)[city])
        return f"{home}市{rng.choice(districts)}"
    town = city if rng.random() < 0.6 else fake.city()
    return f"{town}, {fake.state()}"


def _occupation(rng: random.Random, age: int, sex: str, li: int) -> str:
    if age < 3:
        return ("toddler cared for at home", "散居儿童")[li]
    if age < 6:
        return ("kindergarten pupil", "幼儿园儿童")[li]
    if age < 12:
        return ("primary school student", "小学生")[li]
    if age < 15:
        return ("middle school student", "初中生")[li]
    if age < 18:
        return ("high school student", "高中生")[li]
    if age <= 22 and rng.random() < 0.6:
        return ("college student", "大学生")[li]
    if age >= 62:
        return rng.choice(RETIRED)[li]
    return rng.choice(OCCUPATIONS)[li]


def _imaging_days(rng: random.Random, cond: Condition, proc_day: int, los: int) -> list[int]:
    """Studies before the procedure fall on distinct days from admission to the procedure day,
    repeat studies on distinct days after it and before discharge."""
    before = [i for i in cond.imaging if not i.after_procedure]
    after = [i for i in cond.imaging if i.after_procedure]
    pre_days = [0] + sorted(rng.sample(range(1, proc_day + 1), len(before) - 1))
    post_days = sorted(rng.sample(range(proc_day + 1, los), len(after)))
    it_pre, it_post = iter(pre_days), iter(post_days)
    return [next(it_post) if img.after_procedure else next(it_pre) for img in cond.imaging]


def _routine_labs(rng: random.Random, cond: Condition, child: bool, language: str) -> tuple[Lab, ...]:
    taken = {lab.name[0] for lab in cond.labs} | set(ROUTINE_EXCLUDED.get(cond.key, ()))
    pool = [lab for lab in (ROUTINE_CHILD_LABS if child else ROUTINE_LABS) if lab.name[0] not in taken]
    chosen = set(rng.sample(range(len(pool)), min(ROUTINE_COUNT[language], len(pool))))
    return tuple(lab for i, lab in enumerate(pool) if i in chosen)


def _allergy(rng: random.Random, beta_lactam: bool, li: int) -> str:
    if rng.random() < 0.65:
        return NO_ALLERGY[li]
    options = [a for a in ALLERGIES if not (a[2] and beta_lactam)]
    en, zh, _ = rng.choice(options)
    return (en, zh)[li]


def _past_history(rng: random.Random, cond: Condition, age: int, sex: str, li: int,
                  ctx: dict[str, str]) -> tuple[str, list[str]]:
    """The past history as written, and the keys of the past illnesses it names."""
    items: list[str] = []
    keys: list[str] = []
    if cond.forced_past:
        items.append(cond.forced_past[li].format(**ctx))
        keys.append(cond.key)
    pool = []
    for key in dict.fromkeys(cond.comorbid):
        en, zh, min_age, only = COMORBIDITIES[key]
        if age >= min_age and (only is None or only == sex):
            pool.append((key, en, zh, min_age))
    if pool and rng.random() >= cond.no_comorbid:
        weights = [cond.comorbid.count(k) for k, *_ in pool]
        first = rng.choices(pool, weights)[0]
        chosen = [first]
        rest = [p for p in pool if p is not first]
        if rest and rng.random() < 0.35:
            chosen.append(rng.choice(rest))
        for key, en, zh, min_age in chosen:
            years = rng.randint(2, max(2, min(20, age - min_age + 2)))
            items.append((en, zh)[li].format(n=years))
            keys.append(key)
    if items:
        return ("；".join(items) if li else " and ".join(items)), keys
    if age < 14:
        return NO_PAST_CHILD[li], []
    return (NO_PAST_DIABETIC if cond.key == "t2dm" else NO_PAST)[li], []


def _family(rng: random.Random, cond: Condition, age: int, li: int, ctx: dict[str, str]) -> str:
    if age < 14:
        return rng.choice(FAMILY_CHILD)[li].format(**ctx)
    if cond.family and rng.random() < 0.5:
        return rng.choice(cond.family)[li].format(**ctx)
    options = [text for text, lo, hi in FAMILY_ADULT if lo <= age <= hi]
    return rng.choice(options)[li].format(**ctx)


def _informant(child: bool, cond: Condition, li: int) -> str:
    if child:
        return ("the child's mother", "患儿母亲")[li]
    if cond.family_informant:
        return ("the patient's family", "患者家属")[li]
    return ("the patient", "患者本人")[li]


_ADULT_VITALS = {"temp": (36.3, 37.2), "sbp": (112, 138), "hr": (66, 92), "rr": (16, 20), "spo2": (96, 99)}
_CHILD_VITALS = {"temp": (36.4, 37.2), "sbp": (88, 108), "hr": (90, 125), "rr": (22, 30), "spo2": (96, 99)}


def _vitals(rng: random.Random, cond: Condition, age: int, sex: str, language: str) -> list[Fact]:
    ranges = {**(_CHILD_VITALS if age < 14 else _ADULT_VITALS), **cond.vitals}
    zh = language == "zh"
    temp = round(rng.uniform(*ranges["temp"]), 1)
    sbp = rng.randint(*map(int, ranges["sbp"]))
    dbp = round(sbp * rng.uniform(0.56, 0.68))
    hr = rng.randint(*map(int, ranges["hr"]))
    rr = rng.randint(*map(int, ranges["rr"]))
    spo2 = rng.randint(*map(int, ranges["spo2"]))
    weight = _weight(rng, cond, age, sex)
    return [
        Fact(key="vitals.temperature", kind="count", text=f"{temp:.1f}℃" if zh else f"{temp:.1f} °C",
             value=temp, unit="°C"),
        Fact(key="vitals.blood_pressure", kind="count", text=f"{sbp}/{dbp}mmHg" if zh else f"{sbp}/{dbp} mmHg",
             value=sbp, unit="mmHg (systolic)"),
        count_fact("vitals.heart_rate", hr, language, unit="beats/min",
                   text=f"{hr}次/分" if zh else f"{hr} beats per minute"),
        count_fact("vitals.respiratory_rate", rr, language, unit="breaths/min",
                   text=f"{rr}次/分" if zh else f"{rr} breaths per minute"),
        percent_fact("vitals.oxygen_saturation", spo2, language),
        Fact(key="vitals.weight", kind="count", text=f"{weight:g}kg" if zh else f"{weight:g} kg", value=weight,
             unit="kg"),
    ]


def _weight(rng: random.Random, cond: Condition, age: int, sex: str) -> float:
    """Body weight in kg: by age for children (one decimal), by sex for adults."""
    if age < 14:
        return round((2 * age + 8) * rng.uniform(0.85, 1.15), 1)
    lo, hi = (56, 92) if sex == "male" else (46, 76)
    if cond.key == "preeclampsia":
        lo, hi = 60, 88
    elif cond.key in ("t2dm", "graves"):  # weight loss is part of the history
        hi -= 12
    return float(rng.randint(lo, hi))


def _number(value: float, decimals: int, zh: bool) -> str:
    if decimals:
        return f"{value:.{decimals}f}"
    return f"{int(round(value))}" if zh else f"{int(round(value)):,}"


def _measure(key: str, value: float, decimals: int, unit: T, language: str) -> Fact:
    zh = language == "zh"
    number = _number(value, decimals, zh)
    u = unit[1 if zh else 0]
    text = number + (u if zh or not u or u.startswith(("%", "/")) else " " + u)
    return Fact(key=key, kind="count", text=text, value=value if decimals else int(round(value)), unit=unit[0] or None)


def _range_text(low: float, high: float, lab: Lab, language: str) -> str:
    zh = language == "zh"
    lo_t, hi_t = (_trim(x, lab.decimals) for x in (low, high))
    u = lab.unit[1 if zh else 0]
    if zh:
        return f"{lo_t}～{hi_t}{u}"
    return f"{lo_t}-{hi_t}" + ("" if not u else u if u.startswith(("%", "/")) else " " + u)


def _trim(x: float, decimals: int) -> str:
    text = f"{x:.{max(decimals, 2)}f}".rstrip("0").rstrip(".")
    return text


_ANCHORS: dict[str, T] = {"admission": ("admission", "入院"), "discharge": ("discharge", "出院"),
                          "surgery": ("the operation", "手术"), "procedure": ("the procedure", "诊疗操作"),
                          "therapy": ("the treatment", "治疗")}


def _days_after(days: int, anchor: str, li: int) -> str:
    """'3 days after admission' / '入院后3天'; the same day is 'on the day of admission' / '入院当天'."""
    word = _ANCHORS[anchor][li]
    if li:
        return f"{word}当天" if days == 0 else f"{word}后{days}天"
    if days == 0:
        return f"on the day of {word}"
    return f"{days} day{'s' if days != 1 else ''} after {word}"


def _costs(rng: random.Random, cond: Condition, los: int, zh: bool) -> dict[str, int]:
    """Four parts and their exact total; Chinese amounts are whole hundreds of yuan."""
    usd, cny = cond.procedure.cost
    if zh:
        def hundreds(x: float) -> int:
            return max(100, int(round(x / 100)) * 100)
        parts = {
            "bed_nursing": hundreds(los * rng.uniform(160, 420)),
            "medication": hundreds(los * rng.uniform(350, 1300)),
            "examination": hundreds(rng.uniform(1800, 7600)),
            "procedure": hundreds(rng.uniform(*cny)),
        }
    else:
        parts = {
            "bed_nursing": los * rng.randint(1350, 2450),
            "medication": los * rng.randint(160, 640) + rng.randint(0, 99),
            "examination": rng.randint(1800, 6400),
            "procedure": rng.randint(*usd),
        }
    return {"total": sum(parts.values()), **parts}
