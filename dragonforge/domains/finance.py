"""Config generator for the ``finance`` domain: a listed company's annual report.

One config is one company and one fiscal year. Amounts are whole currency units (US dollars
in English, yuan in Chinese) rounded to the precision the document writes them at, so every
written figure is exact and the sums the report states hold to the unit:
revenue − operating costs − operating expenses = total profit, total profit − income tax =
net profit, segment revenues sum to revenue, liabilities + equity = total assets.
"""

from __future__ import annotations

import datetime as dt
import math
import random
from dataclasses import dataclass

from dragonforge.domains._common import (
    count_fact,
    date_fact,
    faker_for,
    money_fact,
    ordered_dates,
    percent_fact,
    text_fact,
)
from dragonforge.models import Config, Fact, Language

REPORT_YEARS = (2018, 2019, 2020, 2021, 2022, 2023)
USD_TO_CNY = 7  # only used to scale physical quantities (headcount, emissions) to revenue


@dataclass(frozen=True)
class Industry:
    code: str
    en: str
    zh: str
    name_en: tuple[str, ...]          # words for company names: "<Surname> <word> Corporation"
    name_zh: tuple[str, ...]          # 字号之后的行业用语：“恒瑞<word>股份有限公司”
    business: tuple[str, str]         # main business (en, zh)
    segments: tuple[tuple[str, str], ...]
    products: tuple[tuple[str, str], ...]   # product descriptors for launches
    contracts: tuple[tuple[str, str], ...]  # objects of major contracts
    gross_margin: tuple[float, float]
    rd_ratio: tuple[float, float]
    debt_ratio: tuple[float, float]
    revenue_per_employee: tuple[float, float]  # US dollars
    carbon_intensity: tuple[float, float]      # tonnes CO2e per million US dollars of revenue


INDUSTRIES: tuple[Industry, ...] = (
    Industry(
        "manufacturing", "manufacturing", "制造业",
        ("Industries", "Precision Manufacturing", "Machinery"), ("智能装备", "精密制造", "机械"),
        ("industrial machinery, precision components and automation equipment",
         "工业机械、精密零部件及自动化设备的研发、生产和销售"),
        (("industrial machinery", "工业机械"), ("precision components", "精密零部件"),
         ("automation systems", "自动化系统"), ("after-sales services", "售后服务")),
        (("five-axis machining center", "五轴联动加工中心"), ("collaborative robot arm", "协作机器人"),
         ("servo press line", "伺服压力机生产线")),
        (("the supply of automated assembly lines", "自动化装配生产线供货合同"),
         ("the supply of precision gearbox components", "精密齿轮箱零部件采购合同")),
        (0.18, 0.32), (0.03, 0.07), (0.35, 0.60), (250e3, 420e3), (60, 180),
    ),
    Industry(
        "information_technology", "information technology", "信息技术",
        ("Technologies", "Software", "Digital"), ("信息技术", "软件", "数字科技"),
        ("enterprise software, cloud services and IT solutions",
         "面向企业和政府客户的企业级软件、云服务及信息化解决方案"),
        (("enterprise software", "企业级软件"), ("cloud services", "云服务"),
         ("system integration", "系统集成"), ("IT outsourcing", "信息技术外包")),
        (("data analytics platform", "数据分析平台"), ("cloud security suite", "云安全套件"),
         ("low-code development platform", "低代码开发平台")),
        (("a multi-year enterprise resource planning implementation", "企业资源计划系统实施项目合同"),
         ("the construction of a regional data center", "区域数据中心建设项目合同")),
        (0.35, 0.62), (0.08, 0.18), (0.20, 0.45), (200e3, 380e3), (4, 18),
    ),
    Industry(
        "finance", "finance", "金融",
        ("Financial", "Capital", "Financial Services"), ("金融控股", "投资控股", "金融服务"),
        ("wealth management, financial leasing and corporate financial advisory services",
         "财富管理、融资租赁及企业财务顾问服务"),
        (("wealth management", "财富管理"), ("financial leasing", "融资租赁"),
         ("advisory services", "财务顾问"), ("asset management", "资产管理")),
        (("online wealth management platform", "线上财富管理平台"), ("supply chain finance service", "供应链金融服务"),
         ("fixed income fund series", "固定收益基金系列")),
        (("an equipment leasing program for a regional utility", "区域公用事业设备融资租赁合同"),
         ("a multi-year fund administration mandate", "多年期基金托管运营服务合同")),
        (0.40, 0.65), (0.01, 0.04), (0.70, 0.88), (400e3, 900e3), (1, 5),
    ),
    Industry(
        "real_estate", "real estate", "房地产",
        ("Properties", "Realty", "Land Development"), ("置业", "地产", "城市发展"),
        ("property development, property management and leasing",
         "住宅及商业地产开发、物业管理和租赁经营"),
        (("residential development", "住宅开发"), ("commercial property leasing", "商业物业租赁"),
         ("property management", "物业管理"), ("urban renewal projects", "城市更新项目")),
        (("smart community service platform", "智慧社区服务平台"), ("long-term rental apartment brand", "长租公寓品牌"),
         ("prefabricated housing product line", "装配式住宅产品系列")),
        (("the development of a mixed-use urban complex", "城市综合体开发建设合同"),
         ("the construction management of an affordable housing project", "保障性住房项目代建合同")),
        (0.20, 0.35), (0.005, 0.02), (0.65, 0.82), (600e3, 1200e3), (15, 45),
    ),
    Industry(
        "retail", "retail", "零售",
        ("Retail", "Stores", "Commerce"), ("商业", "零售", "商贸"),
        ("supermarkets, department stores and an online retail platform",
         "连锁超市、百货门店及线上零售平台的经营"),
        (("supermarkets", "连锁超市"), ("department stores", "百货门店"),
         ("online retail", "线上零售"), ("wholesale distribution", "批发分销")),
        (("private-label grocery range", "自有品牌生鲜系列"), ("membership loyalty app", "会员服务应用"),
         ("same-day delivery service", "即时配送服务")),
        (("exclusive regional distribution of imported goods", "区域独家经销合同"),
         ("the long-term procurement of fresh produce", "生鲜农产品长期采购合同")),
        (0.16, 0.28), (0.003, 0.012), (0.45, 0.70), (250e3, 500e3), (20, 60),
    ),
    Industry(
        "energy", "energy", "能源",
        ("Energy", "Power", "Renewables"), ("能源", "电力", "新能源"),
        ("power generation from wind, solar and natural gas",
         "风电、光伏及燃气发电项目的投资运营和电力销售"),
        (("wind power", "风力发电"), ("solar power", "光伏发电"),
         ("gas-fired generation", "燃气发电"), ("energy storage", "储能业务")),
        (("utility-scale battery storage system", "大型电化学储能系统"), ("distributed solar package", "分布式光伏整体方案"),
         ("smart grid management platform", "智能电网管理平台")),
        (("the long-term sale of electricity from its wind farms", "长期购售电合同"),
         ("the engineering and construction of a solar farm", "光伏电站工程总承包合同")),
        (0.22, 0.40), (0.01, 0.04), (0.55, 0.75), (700e3, 1500e3), (500, 1800),
    ),
    Industry(
        "healthcare", "healthcare", "医疗健康",
        ("Healthcare", "Medical", "Health Services"), ("医疗", "健康", "医疗科技"),
        ("specialty hospitals and medical devices",
         "专科医院运营及医疗器械的研发与销售"),
        (("hospital services", "医疗服务"), ("medical devices", "医疗器械"),
         ("diagnostic testing", "检验诊断"), ("health management", "健康管理")),
        (("portable ultrasound system", "便携式超声诊断系统"), ("remote patient monitoring service", "远程患者监护服务"),
         ("minimally invasive surgical stapler", "微创手术吻合器")),
        (("a hospital equipment upgrade program", "医院设备更新采购合同"),
         ("the operation of a regional diagnostic center", "区域医学检验中心运营合同")),
        (0.30, 0.55), (0.04, 0.10), (0.30, 0.55), (150e3, 300e3), (10, 35),
    ),
    Industry(
        "agriculture", "agriculture", "农业",
        ("Agriculture", "Agritech", "Farms"), ("农业", "农业科技", "农牧"),
        ("seed breeding, crop production and the processing of agricultural products",
         "种子选育、农作物种植及农产品加工"),
        (("seeds", "种业"), ("crop production", "种植业务"),
         ("agricultural processing", "农产品加工"), ("feed", "饲料业务")),
        (("drought-tolerant corn hybrid", "耐旱玉米杂交种"), ("precision irrigation system", "精准灌溉系统"),
         ("organic fertilizer line", "有机肥系列产品")),
        (("the multi-year supply of grain", "多年期粮食供货合同"),
         ("the construction of a modern greenhouse park", "现代农业温室园区建设合同")),
        (0.15, 0.30), (0.02, 0.06), (0.35, 0.60), (180e3, 350e3), (100, 400),
    ),
    Industry(
        "transportation_logistics", "transportation and logistics", "交通运输与物流",
        ("Logistics", "Freight", "Transport"), ("物流", "供应链", "运输"),
        ("road freight, warehousing and cross-border supply chain services",
         "公路货运、仓储及跨境供应链服务"),
        (("road freight", "公路货运"), ("warehousing", "仓储服务"),
         ("cross-border logistics", "跨境物流"), ("cold chain", "冷链物流")),
        (("cold chain tracking platform", "冷链全程追踪平台"), ("automated sorting hub", "自动化分拣中心"),
         ("electric delivery van fleet", "新能源城配车队")),
        (("nationwide contract logistics services", "全国合同物流服务协议"),
         ("the operation of a bonded logistics park", "保税物流园区运营合同")),
        (0.10, 0.22), (0.005, 0.02), (0.45, 0.65), (200e3, 400e3), (150, 450),
    ),
    Industry(
        "telecommunications", "telecommunications", "电信",
        ("Telecom", "Communications", "Networks"), ("通信", "网络", "电信"),
        ("fixed-line and mobile services and network infrastructure",
         "固网及移动通信服务和通信网络基础设施建设"),
        (("mobile services", "移动通信"), ("broadband", "宽带业务"),
         ("enterprise networks", "政企网络"), ("network equipment", "通信设备")),
        (("fiber broadband package", "千兆光纤宽带套餐"), ("private network service", "行业专网服务"),
         ("satellite messaging terminal", "卫星消息终端")),
        (("the rollout of a provincial fiber network", "省级光纤网络建设合同"),
         ("the construction of a private network for an industrial park", "产业园区专网建设运营合同")),
        (0.28, 0.45), (0.03, 0.08), (0.40, 0.60), (300e3, 600e3), (20, 70),
    ),
    Industry(
        "media_entertainment", "media and entertainment", "传媒与娱乐",
        ("Media", "Entertainment", "Studios"), ("传媒", "文化传媒", "影视"),
        ("film and series production, digital publishing and live entertainment",
         "影视剧制作发行、数字出版及现场演艺"),
        (("film and series production", "影视制作"), ("digital publishing", "数字出版"),
         ("advertising", "广告营销"), ("live entertainment", "现场演艺")),
        (("streaming subscription service", "流媒体订阅服务"), ("interactive audio drama series", "互动有声剧系列"),
         ("immersive theater production", "沉浸式演艺项目")),
        (("the licensing of its film library for streaming", "影视内容版权授权合同"),
         ("the production of a historical drama series", "历史题材电视剧联合摄制合同")),
        (0.30, 0.50), (0.02, 0.06), (0.25, 0.45), (250e3, 500e3), (5, 20),
    ),
    Industry(
        "education", "education", "教育",
        ("Education", "Learning", "Academies"), ("教育", "教育科技", "文教"),
        ("vocational training, private schools and digital learning services",
         "职业技能培训、民办学校运营及数字化学习服务"),
        (("vocational training", "职业培训"), ("school operations", "学校运营"),
         ("digital learning", "数字化学习"), ("textbooks and materials", "教材教辅")),
        (("adaptive learning app", "自适应学习应用"), ("nursing skills certificate program", "护理技能认证课程"),
         ("smart classroom solution", "智慧教室解决方案")),
        (("the delivery of vocational training programs", "省级职业技能培训服务合同"),
         ("the supply of smart classroom equipment", "智慧教室设备采购合同")),
        (0.40, 0.60), (0.04, 0.10), (0.30, 0.55), (80e3, 160e3), (5, 20),
    ),
    Industry(
        "construction", "construction", "建筑",
        ("Construction", "Engineering", "Builders"), ("建工", "建设", "工程"),
        ("infrastructure and building contracting and engineering design",
         "基础设施及房屋建筑工程施工总承包和工程设计"),
        (("infrastructure contracting", "基础设施施工"), ("building construction", "房屋建筑"),
         ("engineering design", "工程设计"), ("prefabricated components", "装配式构件")),
        (("modular steel building system", "模块化钢结构建筑体系"), ("digital construction management platform", "智慧工地管理平台"),
         ("low-carbon concrete product line", "低碳混凝土系列产品")),
        (("the construction of an urban expressway section", "城市快速路标段施工合同"),
         ("the general contracting of a hospital campus", "医院院区工程施工总承包合同")),
        (0.10, 0.16), (0.015, 0.035), (0.65, 0.80), (350e3, 700e3), (40, 120),
    ),
    Industry(
        "tourism_hospitality", "tourism and hospitality", "旅游与酒店",
        ("Hospitality", "Resorts", "Travel"), ("旅游", "酒店管理", "文旅"),
        ("hotel operation, scenic area management and travel services",
         "酒店经营、景区运营管理及旅行服务"),
        (("hotels", "酒店经营"), ("scenic areas", "景区运营"),
         ("travel services", "旅行服务"), ("catering", "餐饮服务")),
        (("boutique resort brand", "精品度假酒店品牌"), ("online travel booking app", "在线旅游预订应用"),
         ("night-time tourism program", "夜游文旅项目")),
        (("the management of a coastal resort", "滨海度假区委托管理合同"),
         ("the operation of a heritage scenic area", "文化遗产景区运营合同")),
        (0.30, 0.55), (0.005, 0.02), (0.40, 0.65), (60e3, 140e3), (30, 90),
    ),
    Industry(
        "automotive", "automotive", "汽车",
        ("Automotive", "Motors", "Auto Parts"), ("汽车", "汽车零部件", "汽车科技"),
        ("the manufacture of passenger vehicles, electric drive systems and auto parts",
         "乘用车、电驱动系统及汽车零部件的研发、生产和销售"),
        (("passenger vehicles", "乘用车"), ("electric drive systems", "电驱动系统"),
         ("auto parts", "汽车零部件"), ("automotive services", "汽车服务")),
        (("compact electric sport utility vehicle", "紧凑型纯电动运动型多用途车"), ("integrated electric drive unit", "一体化电驱动总成"),
         ("advanced driver assistance controller", "高级驾驶辅助控制器")),
        (("the supply of battery pack housings to a vehicle maker", "整车企业电池包壳体供货合同"),
         ("the supply of an electric taxi fleet", "纯电动出租车批量供货合同")),
        (0.14, 0.24), (0.03, 0.07), (0.50, 0.70), (300e3, 550e3), (40, 110),
    ),
    Industry(
        "chemicals", "chemicals", "化工",
        ("Chemicals", "Chemical Industries", "Materials"), ("化工", "新材料", "化学"),
        ("specialty chemicals, coatings and engineering plastics",
         "精细化学品、涂料及工程塑料的生产和销售"),
        (("specialty chemicals", "精细化学品"), ("coatings", "涂料"),
         ("engineering plastics", "工程塑料"), ("basic chemicals", "基础化工原料")),
        (("water-based industrial coating", "水性工业涂料"), ("bio-based polyamide resin", "生物基聚酰胺树脂"),
         ("high-purity electronic solvent", "高纯电子级溶剂")),
        (("the long-term supply of electronic chemicals", "电子化学品长期供货协议"),
         ("the supply of coatings for a shipbuilding program", "船舶涂料配套供货合同")),
        (0.18, 0.32), (0.03, 0.06), (0.40, 0.60), (400e3, 800e3), (300, 900),
    ),
    Industry(
        "biotechnology", "biotechnology", "生物技术",
        ("Biotech", "Biosciences", "Therapeutics"), ("生物科技", "生物医药", "生物工程"),
        ("biologic drugs and diagnostic reagents",
         "生物药及诊断试剂的研发、生产和商业化"),
        (("biologic drugs", "生物药"), ("diagnostic reagents", "诊断试剂"),
         ("contract development services", "合同研发服务"), ("vaccines", "疫苗")),
        (("monoclonal antibody therapy", "单克隆抗体药物"), ("rapid molecular test kit", "快速分子检测试剂盒"),
         ("recombinant protein vaccine", "重组蛋白疫苗")),
        (("contract development and manufacturing services", "生物药委托研发生产合同"),
         ("the out-licensing of a clinical-stage antibody", "临床阶段抗体药物对外授权协议")),
        (0.55, 0.80), (0.12, 0.25), (0.20, 0.45), (250e3, 450e3), (10, 35),
    ),
    Industry(
        "environmental_protection", "environmental protection", "环保",
        ("Environmental", "Envirotech", "Clean Water"), ("环保", "环境科技", "生态环境"),
        ("water treatment, solid waste disposal and environmental engineering services",
         "水处理、固体废物处置及环境工程服务"),
        (("water treatment", "水处理"), ("solid waste disposal", "固废处置"),
         ("environmental engineering", "环境工程"), ("environmental monitoring", "环境监测")),
        (("membrane bioreactor unit", "膜生物反应器成套设备"), ("waste-to-energy boiler", "垃圾焚烧发电锅炉"),
         ("online emissions monitoring system", "污染源在线监测系统")),
        (("the operation of a municipal wastewater plant under a concession", "城镇污水处理厂特许经营合同"),
         ("the remediation of a former industrial site", "工业遗留场地修复工程合同")),
        (0.25, 0.40), (0.03, 0.06), (0.50, 0.70), (200e3, 400e3), (80, 250),
    ),
    Industry(
        "food_beverage", "food and beverage", "食品饮料",
        ("Foods", "Beverages", "Dairy"), ("食品", "饮品", "乳业"),
        ("packaged foods, dairy products and beverages",
         "包装食品、乳制品及饮料的生产和销售"),
        (("packaged foods", "休闲食品"), ("dairy products", "乳制品"),
         ("beverages", "饮料"), ("condiments", "调味品")),
        (("low-sugar sparkling tea", "低糖气泡茶饮"), ("high-protein yogurt range", "高蛋白酸奶系列"),
         ("plant-based snack line", "植物基休闲零食")),
        (("the supply of its products to supermarket outlets", "全国连锁商超供货合同"),
         ("the supply of dairy ingredients to a bakery group", "烘焙企业乳制品原料供应合同")),
        (0.28, 0.45), (0.01, 0.03), (0.30, 0.50), (250e3, 450e3), (40, 120),
    ),
    Industry(
        "mining", "mining", "采矿",
        ("Mining", "Resources", "Minerals"), ("矿业", "资源", "矿产"),
        ("the mining and processing of copper, zinc and gold",
         "铜、锌、金等矿产资源的勘探、开采及选冶加工"),
        (("copper", "铜矿业务"), ("zinc", "锌矿业务"),
         ("gold", "金矿业务"), ("mineral processing services", "选矿加工服务")),
        (("tailings recycling process", "尾矿综合回收工艺"), ("autonomous haulage system", "无人驾驶矿卡运输系统"),
         ("high-grade copper concentrate product", "高品位铜精矿产品")),
        (("the multi-year offtake of copper concentrate", "多年期铜精矿包销协议"),
         ("the construction of a new ore processing plant", "新建选矿厂工程总承包合同")),
        (0.25, 0.45), (0.005, 0.02), (0.40, 0.60), (500e3, 1000e3), (300, 1200),
    ),
)
assert len(INDUSTRIES) == 20

# (code, en, zh) — the kinds of major event a report discloses.
EVENT_TYPES = {
    "acquisition": ("acquisition", "收购"),
    "financing": ("financing", "融资"),
    "major_contract": ("major contract", "重大合同"),
    "product_launch": ("new product launch", "新产品发布"),
    "litigation": ("litigation", "诉讼"),
    "asset_restructuring": ("asset restructuring", "资产重组"),
    "strategic_partnership": ("strategic partnership", "战略合作"),
}
ALWAYS_EVENTS = ("acquisition", "financing", "major_contract")
OPTIONAL_EVENTS = ("product_launch", "litigation", "asset_restructuring", "strategic_partnership")

US_CITIES = (
    "Columbus, Ohio", "Austin, Texas", "Denver, Colorado", "Charlotte, North Carolina",
    "Minneapolis, Minnesota", "Pittsburgh, Pennsylvania", "Nashville, Tennessee",
    "Salt Lake City, Utah", "Raleigh, North Carolina", "Milwaukee, Wisconsin", "Omaha, Nebraska",
    "Indianapolis, Indiana", "Kansas City, Missouri", "Portland, Oregon", "San Diego, California",
    "Phoenix, Arizona", "Boston, Massachusetts", "Atlanta, Georgia", "Houston, Texas",
    "Seattle, Washington", "Richmond, Virginia", "Hartford, Connecticut", "Tampa, Florida",
    "Cleveland, Ohio", "Louisville, Kentucky", "Des Moines, Iowa", "Boise, Idaho",
    "Chicago, Illinois", "Dallas, Texas", "Sacramento, California",
)
CN_CITIES = (
    "广东省深圳市", "浙江省杭州市", "江苏省苏州市", "江苏省南京市", "四川省成都市", "湖北省武汉市",
    "上海市", "北京市", "天津市", "重庆市", "山东省青岛市", "山东省济南市", "福建省厦门市",
    "福建省福州市", "湖南省长沙市", "河南省郑州市", "安徽省合肥市", "陕西省西安市", "辽宁省大连市",
    "广东省广州市", "浙江省宁波市", "江苏省无锡市", "云南省昆明市", "江西省南昌市",
    "广东省东莞市", "浙江省绍兴市", "吉林省长春市", "黑龙江省哈尔滨市", "广西壮族自治区南宁市",
    "贵州省贵阳市",
)
# Two characters drawn from these make a company's trade name (字号), as 恒瑞, 鼎泰, 华润 do.
ZH_NAME_CHARS = "华恒瑞鼎泰嘉盛宏锦润德信安永隆元中金海天明成达丰远康宁新兴开祥昌博通汇"
# Pairs that are the trade names of well-known real companies; documents must stay fictional.
ZH_REAL_NAMES = frozenset({"华润", "恒瑞", "海天", "中金", "中兴", "海康", "泰康", "中信", "汇丰", "信达",
                           "中海", "华泰", "国泰", "海信", "华安", "兴业", "中泰", "安信", "天安", "华兴",
                           "恒安", "达安", "宁德", "中天", "长安", "隆基", "中远", "华信", "瑞康", "永安"})
EN_BRANDS = ("Nova", "Apex", "Vela", "Orion", "Helix", "Terra", "Zenith", "Lumen", "Atlas",
             "Aurora", "Summit", "Vector", "Cobalt", "Meridian", "Polaris", "Keystone", "Sierra",
             "Horizon", "Quasar", "Beacon")
ZH_BRANDS = ("星河", "天枢", "云帆", "鲲鹏", "北斗", "青鸾", "启航", "磐石", "极光", "知行", "远见",
             "瀚海", "凌霄", "致远", "长风", "丰禾", "万象", "锦程", "明德", "朝阳")
EN_COMPANY_SUFFIXES = ("Corporation", "Group", "Holdings", "Inc")
EN_FIRMS = {  # counterparties by role: "<Surname> <word>"
    "securities": ("Securities", "Capital Markets", "Investment Bank"),
    "bank": ("National Bank", "Trust Bank", "Commercial Bank"),
    "customer": ("Holdings", "Group", "Corporation", "Enterprises", "Partners"),
    "partner": ("Technologies", "Systems", "Research Institute", "Solutions", "Ventures"),
    "investor": ("Capital", "Holdings", "Investment Group", "Equity Partners"),
}
ZH_FIRMS = {
    "securities": ("证券股份有限公司", "证券有限责任公司"),
    "bank": ("银行股份有限公司", "农村商业银行股份有限公司"),
    "customer": ("集团有限公司", "控股有限公司", "实业有限公司", "发展有限公司"),
    "partner": ("科技有限公司", "研究院有限公司", "技术有限公司", "信息技术有限公司"),
    "investor": ("控股集团有限公司", "投资有限公司", "资本管理有限公司"),
}

EXEC_ROLES = (("Chief Financial Officer", "财务总监"), ("Chief Operating Officer", "常务副总经理"),
              ("Chief Technology Officer", "首席技术官"), ("Corporate Secretary", "董事会秘书"))
# (code, en, zh): the English text reads after "an".
AUDIT_OPINIONS = (("standard_unqualified", "unqualified opinion", "标准无保留意见"),
                  ("unqualified_with_emphasis", "unqualified opinion with an emphasis of matter paragraph",
                   "带强调事项段的无保留意见"))
AGM_RESOLUTIONS = (
    ("the annual report, the profit distribution plan and the reappointment of the auditor",
     "上一年度报告、利润分配方案及续聘会计师事务所等议案"),
    ("the board report, the final accounts and the profit distribution plan",
     "上一年度董事会工作报告、财务决算报告及利润分配方案等议案"),
    ("the annual report, the financing plan and the guarantee limit for subsidiaries",
     "上一年度报告、年度融资计划及为子公司提供担保额度等议案"),
)
EGM_MATTERS = (
    ("the election of a non-independent director", "补选非独立董事的议案"),
    ("amendments to the articles of association", "修订公司章程的议案"),
    ("guarantees for the bank loans of subsidiaries", "为子公司银行授信提供担保的议案"),
    ("the employee stock ownership plan", "员工持股计划的议案"),
    ("the use of idle funds for cash management", "使用闲置自有资金进行现金管理的议案"),
    ("the change of the registered capital", "变更注册资本的议案"),
)
EGM_ORDINALS = (("First", "第一次"), ("Second", "第二次"))

# Event details and outcomes. Outcomes are clauses the templates embed after a comma.
# (en, zh, who arranges it): securities firms underwrite share and bond issues, banks lead loans.
FINANCING_KINDS = (("a private placement of new shares", "非公开发行股票", "securities"),
                   ("an issue of five-year corporate bonds", "发行五年期公司债券", "securities"),
                   ("an issue of green bonds", "发行绿色公司债券", "securities"),
                   ("a syndicated term loan", "银团贷款", "bank"))
LITIGATION_KINDS = (("a contract dispute", "合同纠纷"), ("a dispute over unpaid receivables", "应收账款纠纷"),
                    ("a product liability claim", "产品责任纠纷"), ("a construction payment dispute", "工程款纠纷"))
RESTRUCTURING_KINDS = (("the sale of its entire equity interest in a non-core subsidiary", "转让非核心子公司全部股权"),
                       ("the transfer of an idle production base", "转让闲置生产基地资产"),
                       ("the disposal of a loss-making overseas business", "出售亏损的海外业务"))
PARTNERSHIP_KINDS = (("a five-year strategic cooperation agreement on joint research", "五年期联合研发战略合作协议"),
                     ("a strategic framework agreement on regional market development", "区域市场开发战略合作框架协议"),
                     ("a joint venture agreement", "合资经营协议"))
OUTCOMES = {
    "acquisition": (
        ("the target is now consolidated in the group accounts",
         "标的公司自交割之日起纳入公司合并报表范围"),
        ("the company's regional sales network expanded",
         "公司区域销售网络布局得到进一步完善"),
        ("integration of the acquired business was on schedule at year end",
         "相关业务整合工作按计划推进"),
    ),
    "financing": (
        ("the proceeds will fund capacity expansion and working capital",
         "募集资金将用于产能扩建项目及补充流动资金"),
        ("the financing lowered the company's average funding cost",
         "本次融资有效降低了公司综合融资成本"),
        ("the proceeds will fund a new research center",
         "募集资金将投向公司研发中心建设项目"),
    ),
    "major_contract": (
        ("deliveries are scheduled over the next two years",
         "合同标的预计在未来两年内分批交付"),
        ("the contract should support revenue in coming years",
         "该合同的履行预计将对公司未来年度经营业绩产生积极影响"),
        ("the contract opens a new customer segment for the company",
         "该合同标志着公司成功开拓新的客户群体"),
    ),
    "product_launch": (
        ("initial orders exceeded internal targets",
         "产品上市后首批订单超出公司预期"),
        ("the product won industry certification within weeks",
         "产品上市后不久即通过行业权威认证"),
        ("the product broadened the company's mid-range offering",
         "该产品进一步丰富了公司在中端市场的产品布局"),
    ),
    "litigation": (
        ("the court of first instance ruled in the company's favor",
         "一审法院已判决支持公司的主要诉讼请求"),
        ("the parties reached a court-approved settlement",
         "双方已在法院主持下达成调解"),
        ("the case was still pending at year end",
         "截至报告期末，该案件尚在审理中"),
    ),
    "asset_restructuring": (
        ("a one-off gain on the disposal was booked",
         "公司因本次处置确认了一次性资产处置收益"),
        ("the transaction simplified the group's legal structure",
         "本次重组进一步精简了公司的股权架构"),
        ("management can now focus on core operations",
         "本次重组有助于公司聚焦主营业务"),
    ),
    "strategic_partnership": (
        ("the first joint projects started in the same year",
         "协议项下首批合作项目已于当年启动"),
        ("the partners set up a joint steering committee",
         "双方成立联合工作组统筹推进合作事项"),
        ("the partnership should open new sales channels",
         "该合作预计将为公司产品拓展新的销售渠道"),
    ),
}


# --- amounts ---------------------------------------------------------------------------------


def _quantum(amount: int, language: str) -> int:
    """The smallest step ``format_money`` shows at this magnitude: $1.23 billion → 10 million."""
    if language == "zh":
        return 1_000_000 if amount >= 100_000_000 else 100 if amount >= 10_000 else 1
    return 10_000_000 if amount >= 1_000_000_000 else 10_000 if amount >= 1_000_000 else 1


def _round_to(amount: float, step: int) -> int:
    return int(round(amount / step)) * step


def _exact(amount: float, language: str) -> int:
    """``amount`` rounded to the precision it is written at, so the written text is exact."""
    value = _round_to(amount, _quantum(int(amount), language))
    return _round_to(value, _quantum(value, language))


def _is_exact(amount: int, language: str) -> bool:
    return amount > 0 and amount % _quantum(amount, language) == 0


def _complete(total: int, parts: list[int], language: str) -> list[int]:
    """``parts`` plus the residual that makes them sum to ``total``, every amount exact at the
    precision it is written at. The residual's rounding is moved onto one of the parts; if no
    part can absorb it, all parts are rounded to the total's precision instead."""
    parts = list(parts)
    residual = total - sum(parts)
    if residual > 0 and not _is_exact(residual, language):
        rem = residual % _quantum(residual, language)
        for j, part in enumerate(parts):
            if _is_exact(part + rem, language):
                parts[j] += rem
                residual -= rem
                break
    if all(_is_exact(x, language) for x in (*parts, residual)):
        return [*parts, residual]
    step = _quantum(total, language)
    parts = [max(step, _round_to(p, step)) for p in parts]
    return [*parts, total - sum(parts)]


def _shares(parts: list[int]) -> list[float]:
    """Percent shares to one decimal that sum to exactly 100.0 (largest remainder)."""
    total = sum(parts)
    tenths = [p * 1000 / total for p in parts]
    floors = [math.floor(t) for t in tenths]
    order = sorted(range(len(parts)), key=lambda i: tenths[i] - floors[i], reverse=True)
    for i in order[: 1000 - sum(floors)]:
        floors[i] += 1
    return [f / 10 for f in floors]


def _pct(part: float, whole: float) -> float:
    return round(part / whole * 100, 2)


# --- names -----------------------------------------------------------------------------------


class _Names:
    """Distinct people and organisations for one config."""

    def __init__(self, language: str, seed: int, rng: random.Random):
        self.language = language
        self.fake = faker_for(language, seed)
        self.rng = rng
        self.used: set[str] = set()

    def _fresh(self, make) -> str:
        for _ in range(50):
            name = make()
            if name not in self.used:
                self.used.add(name)
                return name
        raise RuntimeError("could not draw a fresh name")

    def person(self) -> str:
        if self.language == "zh":
            return self._fresh(self.fake.name)
        return self._fresh(lambda: f"{self.fake.first_name()} {self.fake.last_name()}")

    def trade_name(self) -> str:
        """A two-character Chinese trade name (字号)."""
        while True:
            name = "".join(self.rng.sample(ZH_NAME_CHARS, 2))
            if name not in ZH_REAL_NAMES:
                return name

    def company(self, industry: Industry) -> str:
        if self.language == "zh":
            return self._fresh(lambda: f"{self.trade_name()}{self.rng.choice(industry.name_zh)}股份有限公司")
        return self._fresh(lambda: f"{self.fake.last_name()} {self.rng.choice(industry.name_en)} "
                                   f"{self.rng.choice(EN_COMPANY_SUFFIXES)}")

    def firm(self, role: str) -> str:
        if self.language == "zh":
            return self._fresh(lambda: f"{self.trade_name()}{self.rng.choice(ZH_FIRMS[role])}")
        return self._fresh(lambda: f"{self.fake.last_name()} {self.rng.choice(EN_FIRMS[role])}")

    def target(self, industry: Industry) -> str:
        """A smaller, unlisted company of the same industry (an acquisition target)."""
        if self.language == "zh":
            return self._fresh(lambda: f"{self.trade_name()}{self.rng.choice(industry.name_zh)}有限公司")
        return self._fresh(lambda: f"{self.fake.last_name()} {self.rng.choice(industry.name_en)} "
                                   f"{self.rng.choice(('LLC', 'Company', 'Limited'))}")

    def auditor(self) -> str:
        if self.language == "zh":
            return self._fresh(lambda: f"{self.trade_name()}会计师事务所（特殊普通合伙）")
        return self._fresh(lambda: f"{self.fake.last_name()} and {self.fake.last_name()} LLP")

    def product(self, industry: Industry) -> str:
        en, zh = self.rng.choice(industry.products)
        if self.language == "zh":
            return f"“{self.rng.choice(ZH_BRANDS)}”{zh}"
        return f"the {self.rng.choice(EN_BRANDS)} {en}"


def _ticker(name: str, rng: random.Random) -> str:
    letters = [c for c in name.upper() if c.isalpha()]
    return "".join(letters[:3]) + rng.choice("ABCDEFGHKLMNPRSTX") if len(letters) >= 3 else "XYZQ"


def _zh_listing(rng: random.Random) -> tuple[str, str]:
    exchange = rng.choice(("上海证券交易所", "深圳证券交易所"))
    prefixes = ("600", "601", "603", "605", "688") if exchange == "上海证券交易所" else ("000", "002", "300", "301")
    return exchange, rng.choice(prefixes) + f"{rng.randrange(1000):03d}"


def _category(key: str, text: str, code: str) -> Fact:
    """A closed-set fact: written in the document's language, valued by its language-neutral code."""
    return text_fact(key, text, kind="category").model_copy(update={"value": code})


# --- the config ------------------------------------------------------------------------------


def make_config(doc_id: int, language: Language, seed: int) -> Config:
    if language not in ("en", "zh"):  # a caller without type checks
        raise ValueError(f"unsupported language {language!r}")
    rng = random.Random(seed)
    zh = language == "zh"
    lang = 1 if zh else 0
    names = _Names(language, seed, rng)
    facts: dict[str, Fact] = {}

    def add(fact: Fact) -> None:
        facts[fact.key] = fact

    def money(key: str, amount: int) -> None:
        add(money_fact(key, amount, language))

    # --- overview --------------------------------------------------------------------------
    industry = rng.choice(INDUSTRIES)
    year = rng.choice(REPORT_YEARS)
    company = names.company(industry)
    add(text_fact("company_name", company, kind="organisation"))
    add(_category("industry", industry.zh if zh else industry.en, industry.code))
    add(text_fact("main_business", industry.business[lang]))
    add(text_fact("founded_year", str(rng.randint(1985, year - 6)), kind="date"))
    add(text_fact("report_year", str(year), kind="date"))
    add(text_fact("headquarters", rng.choice(CN_CITIES if zh else US_CITIES), kind="place"))
    if zh:
        exchange, code = _zh_listing(rng)
    else:
        exchange = rng.choice(("New York Stock Exchange", "Nasdaq"))
        code = _ticker(company, rng)
    add(text_fact("stock_exchange", exchange, kind="organisation"))
    add(text_fact("stock_code", code))
    add(text_fact("chairman", names.person(), kind="person"))
    add(text_fact("ceo", names.person(), kind="person"))

    # --- income statement ------------------------------------------------------------------
    low, high = (3e8, 2e10) if zh else (1.2e8, 7.5e9)
    revenue = _exact(math.exp(rng.uniform(math.log(low), math.log(high))), language)
    growth = rng.uniform(-14, -1) if rng.random() < 0.18 else rng.uniform(1, 38)
    prior = _exact(revenue / (1 + growth / 100), language)
    gross_margin = rng.uniform(*industry.gross_margin)
    rd_ratio = rng.uniform(*industry.rd_ratio)
    pretax_margin = rng.uniform(0.03, max(0.04, min(0.26, gross_margin - rd_ratio - 0.04)))
    costs, expenses, total_profit = _complete(
        revenue, [_exact(revenue * (1 - gross_margin), language),
                  _exact(revenue * (gross_margin - pretax_margin), language)], language)
    tax_rate = rng.choice((0.15, 0.25)) if zh else rng.uniform(0.18, 0.26)
    tax, net_profit = _complete(total_profit, [_exact(total_profit * tax_rate, language)], language)
    money("revenue", revenue)
    money("prior_revenue", prior)
    add(percent_fact("revenue_growth", _pct(revenue - prior, prior), language))
    money("operating_costs", costs)
    add(percent_fact("gross_margin", _pct(revenue - costs, revenue), language))
    money("operating_expenses", expenses)
    money("total_profit", total_profit)
    money("income_tax", tax)
    money("net_profit", net_profit)
    money("operating_cash_flow", _exact(net_profit * rng.uniform(0.6, 1.6), language))
    rd = _exact(revenue * rd_ratio, language)
    money("rd_investment", rd)
    add(percent_fact("rd_ratio", _pct(rd, revenue), language))
    dividend = _exact(net_profit * rng.uniform(0.2, 0.5), language)
    money("dividend", dividend)
    add(percent_fact("payout_ratio", _pct(dividend, net_profit), language))

    # --- balance sheet: equity from a plausible return on equity, liabilities from leverage
    debt_ratio = rng.uniform(*industry.debt_ratio)
    equity_guess = net_profit / rng.uniform(0.05, 0.18)
    assets = _exact(equity_guess / (1 - debt_ratio), language)
    liabilities, equity = _complete(assets, [_exact(assets * debt_ratio, language)], language)
    money("total_assets", assets)
    money("total_liabilities", liabilities)
    money("owners_equity", equity)
    add(percent_fact("debt_ratio", _pct(liabilities, assets), language))

    # --- segments: 2–4, largest first, summing exactly to revenue --------------------------
    n_segments = rng.choice((2, 3, 3, 4))
    segment_names = rng.sample(industry.segments, n_segments)
    while True:  # distinct amounts, so "the largest segment" is well defined
        weights = [rng.uniform(0.25, 1.0) for _ in range(n_segments - 1)]
        scale = rng.uniform(0.2, 1.0) / sum(weights) * (1 - 0.08 * n_segments)
        drafts = [_exact(revenue * (0.08 + w * scale), language) for w in weights]
        parts = sorted(_complete(revenue, drafts, language), reverse=True)
        if len(set(parts)) == n_segments and parts[-1] > 0:
            break
    for i, (name, part, share) in enumerate(zip(segment_names, parts, _shares(parts), strict=False)):
        add(text_fact(f"segments.{i}.name", name[lang], kind="category"))
        money(f"segments.{i}.revenue", part)
        add(percent_fact(f"segments.{i}.share", share, language))

    # --- major events: the first in the first quarter, the rest strictly later -------------
    kinds = list(ALWAYS_EVENTS) + rng.sample(OPTIONAL_EVENTS, rng.randint(1, 4))
    rng.shuffle(kinds)
    first = dt.date(year, 1, 6) + dt.timedelta(days=rng.randrange(80))
    later = ordered_dates(rng, first + dt.timedelta(days=12), dt.date(year, 12, 22), len(kinds) - 1, 9)
    for i, (kind, day) in enumerate(zip(kinds, [first, *later], strict=False)):
        _add_event(facts, i, kind, day, rng, names, industry, language, assets, revenue)

    # --- governance ------------------------------------------------------------------------
    if zh:
        board = rng.choice((7, 9, 9, 9, 11, 11, 13))
        independents = math.ceil(board / 3) + rng.choice((0, 0, 1))
    else:
        board = rng.randint(7, 13)
        independents = board - rng.randint(1, 3)
    add(count_fact("board_size", board, language))
    add(count_fact("independent_directors", independents, language))
    add(count_fact("board_meetings", rng.randint(6, 16), language))
    add(text_fact("audit_committee_chair", names.person(), kind="person"))
    add(text_fact("largest_shareholder", names.firm("investor"), kind="organisation"))
    add(percent_fact("largest_shareholder_stake", round(rng.uniform(12, 55), 2), language))
    add(date_fact("agm.date", dt.date(year, 4, 15) + dt.timedelta(days=rng.randrange(75)), language))
    add(text_fact("agm.name", f"{year - 1}年年度股东大会" if zh else f"{year} Annual Meeting of Shareholders"))
    add(text_fact("agm.resolutions", rng.choice(AGM_RESOLUTIONS)[lang]))
    n_egms = rng.choice((1, 1, 2))
    egm_days = ordered_dates(rng, dt.date(year, 1, 10), dt.date(year, 12, 20), n_egms, 20)
    while facts["agm.date"].value in {d.isoformat() for d in egm_days}:
        egm_days = ordered_dates(rng, dt.date(year, 1, 10), dt.date(year, 12, 20), n_egms, 20)
    for i, (day, matter) in enumerate(zip(egm_days, rng.sample(EGM_MATTERS, n_egms), strict=False)):
        ordinal = EGM_ORDINALS[i]
        add(date_fact(f"egms.{i}.date", day, language))
        add(text_fact(f"egms.{i}.name", f"{year}年{ordinal[1]}临时股东大会" if zh
                      else f"{ordinal[0]} Extraordinary General Meeting of {year}"))
        add(text_fact(f"egms.{i}.matter", matter[lang]))
    add(count_fact("shareholder_meetings", 1 + n_egms, language))
    role = rng.choice(EXEC_ROLES)
    add(date_fact("exec_change.date", dt.date(year, 2, 1) + dt.timedelta(days=rng.randrange(290)), language))
    add(_category("exec_change.role", role[lang], role[0]))
    add(text_fact("exec_change.outgoing", names.person(), kind="person"))
    add(text_fact("exec_change.incoming", names.person(), kind="person"))
    add(text_fact("auditor", names.auditor(), kind="organisation"))
    opinion = AUDIT_OPINIONS[0] if rng.random() < 0.9 else AUDIT_OPINIONS[1]
    add(_category("audit_opinion", opinion[1 + lang], opinion[0]))
    add(date_fact("report_date", dt.date(year + 1, 3, 10) + dt.timedelta(days=rng.randrange(48)), language))

    # --- environmental and social responsibility -------------------------------------------
    revenue_usd = revenue / USD_TO_CNY if zh else revenue
    per_employee = rng.uniform(*industry.revenue_per_employee) / (2.5 if zh else 1)
    employees = max(300, int(revenue_usd / per_employee))
    add(count_fact("employees", employees, language))
    add(count_fact("training_hours", rng.randint(12, 64), language))
    per_head = rng.uniform(500, 3000) if zh else rng.uniform(400, 1800)
    money("training_investment", _exact(employees * per_head, language))
    add(percent_fact("emissions_reduction", round(rng.uniform(2, 18), 1), language))
    carbon = int(revenue_usd / 1e6 * rng.uniform(*industry.carbon_intensity))
    add(count_fact("carbon_emissions", max(carbon, 800), language))
    money("environmental_investment", _exact(revenue * rng.uniform(0.002, 0.012), language))
    money("donations", _exact(revenue * rng.uniform(0.0002, 0.0015), language))
    add(count_fact("volunteer_hours", int(employees * rng.uniform(0.4, 3.5)) + rng.randint(50, 400), language))

    # Section headings of one report share a numbering style ("Section 2 …" / "第二节 …").
    extras = {"heading_style": rng.randrange(3 if not zh else 2)}
    return Config(doc_id=doc_id, domain="finance", language=language, entity=company, seed=seed,
                  facts=facts, extras=extras)


def _add_event(facts: dict[str, Fact], i: int, kind: str, day: dt.date, rng: random.Random,
               names: _Names, industry: Industry, language: str, assets: int, revenue: int) -> None:
    zh = language == "zh"
    lang = 1 if zh else 0
    prefix = f"events.{i}"

    def add(fact: Fact) -> None:
        facts[fact.key] = fact

    add(date_fact(f"{prefix}.date", day, language))
    add(_category(f"{prefix}.type", EVENT_TYPES[kind][lang], kind))
    if kind == "acquisition":
        stake = rng.choice((51, 55, 60, 65, 70, 75, 80, 100))
        detail = (f"{stake}%股权" if zh else
                  "the entire equity interest" if stake == 100 else f"a {stake}% equity interest")
        party, amount = names.target(industry), assets * rng.uniform(0.03, 0.14)
    elif kind == "financing":
        kind_row = rng.choice(FINANCING_KINDS)
        detail = kind_row[lang]
        party, amount = names.firm(kind_row[2]), assets * rng.uniform(0.05, 0.18)
    elif kind == "major_contract":
        detail = rng.choice(industry.contracts)[lang]
        party, amount = names.firm("customer"), revenue * rng.uniform(0.04, 0.25)
    elif kind == "product_launch":
        detail = names.product(industry)
        party, amount = None, revenue * rng.uniform(0.004, 0.025)
    elif kind == "litigation":
        detail = rng.choice(LITIGATION_KINDS)[lang]
        party, amount = names.firm("customer"), revenue * rng.uniform(0.002, 0.02)
    elif kind == "asset_restructuring":
        detail = rng.choice(RESTRUCTURING_KINDS)[lang]
        party, amount = names.firm("investor"), assets * rng.uniform(0.02, 0.08)
    else:  # strategic_partnership
        detail = rng.choice(PARTNERSHIP_KINDS)[lang]
        party, amount = names.firm("partner"), revenue * rng.uniform(0.01, 0.05)
    add(text_fact(f"{prefix}.detail", detail))
    if party is not None:
        add(text_fact(f"{prefix}.counterparty", party, kind="organisation"))
    add(money_fact(f"{prefix}.amount", _exact(amount, language), language))
    add(text_fact(f"{prefix}.outcome", rng.choice(OUTCOMES[kind])[lang]))
