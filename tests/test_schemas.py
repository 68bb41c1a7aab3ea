"""Stage 1: built-in schemas load, and seeds give a usable schema offline."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from dragonforge.models import DOMAINS, LANGUAGES, DomainSchema
from dragonforge.resources import resource_dir
from dragonforge.schemas import load_builtin_schema, read_seed_files, summarize_seeds, value_kind

EN_SEED = """Acme Robotics Corporation Annual Report 2022

1. Company Overview
Company: Acme Robotics Corporation
Founded: March 3, 2001
Headquarters: Denver, Colorado
Industry: manufacturing
Chairman: Laura Mitchell

2. Financial Report
Operating revenue: $12.5 million
Net profit: $1.3 million
Revenue growth: 12.5%
Employees: 1,250
Revenue rose on strong demand, reaching $12.5 million on March 31, 2022.
"""

EN_SEED_2 = """Beta Foods Group Annual Report 2021

1. Company Overview
Company: Beta Foods Group
Founded: June 9, 1995
Headquarters: Austin, Texas
Industry: food and beverage
Chairman: Mark Chen

2. Financial Report
Operating revenue: $48 million
Net profit: $4.2 million
Revenue growth: 3.1%
Employees: 3,400
"""

ZH_SEED = """某某科技股份有限公司2022年年度报告

第一节 公司简介
公司名称：某某科技股份有限公司
成立日期：2001年3月3日
注册地址：浙江省杭州市
所属行业：制造业
董事长：张伟

第二节 主要财务数据
营业收入：1.25亿元
净利润：1,300万元
营业收入增长率：12.5%
报告期内，公司营业收入达到1.25亿元。
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_builtin_schemas_load_for_every_domain_and_language(domain, language):
    schema = load_builtin_schema(domain, language)
    assert schema.domain == domain and schema.language == language
    assert len(schema.sections) >= 4 and len(schema.slot_names()) >= 20


@pytest.mark.parametrize(
    ("label", "value", "kind"),
    [
        ("Founded", "March 3, 2001", "date"),
        ("成立日期", "2001年3月3日", "date"),
        ("Revenue", "$12.5 million", "money"),
        ("净利润", "1,300万元", "money"),
        ("Growth", "12.5%", "percent"),
        ("Employees", "1,250", "count"),
        ("Chairman", "Laura Mitchell", "person"),
        ("董事长", "张伟", "person"),
        ("Court", "Intermediate People's Court of Springfield", "organisation"),
        ("公司名称", "某某科技股份有限公司", "organisation"),
        ("Headquarters", "Denver, Colorado", "place"),
        ("注册地址", "浙江省杭州市", "place"),
        ("Gender", "female", "category"),
        ("Summary", "Revenue rose on strong demand across all regions", "text"),
    ],
)
def test_values_are_typed_by_form_and_label(label, value, kind):
    assert value_kind(label, value) == kind


def test_english_seeds_give_sections_and_typed_slots(tmp_path):
    seeds = read_seed_files([write(tmp_path, "a.txt", EN_SEED), write(tmp_path, "b.txt", EN_SEED_2)], "en")
    schema = summarize_seeds(seeds, "finance", "en")
    titles = [s.title for s in schema.sections]
    assert titles[:2] == ["1. Company Overview", "2. Financial Report"]
    kinds = {slot.name: slot.kind for s in schema.sections for slot in s.slots}
    assert kinds["founded"] == "date" and kinds["operating_revenue"] == "money"
    assert kinds["revenue_growth"] == "percent" and kinds["employees"] == "count"
    assert kinds["chairman"] == "person" and kinds["headquarters"] == "place"
    assert kinds["company"] == "organisation" and kinds["industry"] == "category"
    overview = schema.sections[0]
    assert overview.description == "seen in 2 of 2 seed document(s)"
    assert "Acme Robotics Corporation" in next(s for s in overview.slots if s.name == "company").examples


def test_chinese_seeds_give_chinese_slot_names(tmp_path):
    schema = summarize_seeds(read_seed_files([write(tmp_path, "z.txt", ZH_SEED)], "zh"), "finance", "zh")
    kinds = {slot.name: slot.kind for s in schema.sections for slot in s.slots}
    assert kinds["成立日期"] == "date" and kinds["营业收入"] == "money" and kinds["董事长"] == "person"
    assert [s.title for s in schema.sections][:2] == ["第一节 公司简介", "第二节 主要财务数据"]


@pytest.mark.parametrize("domain", DOMAINS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_builtin_seeds_summarize_into_a_usable_schema(domain, language):
    paths = sorted((resource_dir("seeds") / domain / language).glob("*.txt"))
    assert len(paths) >= 2
    schema = summarize_seeds(read_seed_files(paths, language), domain, language)
    kinds = {slot.kind for s in schema.sections for slot in s.slots}
    assert len(schema.sections) >= 4
    assert {"date", "person"} <= kinds


def test_summarize_command_writes_a_schema_that_loads_back(tmp_path):
    out = tmp_path / "mine.yaml"
    seed = write(tmp_path, "a.txt", EN_SEED)
    proc = subprocess.run([sys.executable, "-m", "dragonforge.cli", "summarize", str(seed), "--domain", "acme",
                           "--language", "en", "--out", str(out)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert "Wrote schema" in proc.stdout
    schema = DomainSchema.model_validate(yaml.safe_load(out.read_text()))
    assert schema.domain == "acme" and schema.source == "seeds: a.txt"
