"""A wheel install, as `python -m pip install .` gives it: a working `dragonforge`, no top-level
`flows` package, and resume keys that change when a stage's code changes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import venv
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BUILD = ["build", "--docs", "2", "--domains", "law", "--languages", "en", "--queries-per-doc", "5", "-q"]


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """A fresh venv holding the wheel of this checkout; its dependencies are this venv's (a
    .pth line), so nothing is downloaded."""
    tmp = tmp_path_factory.mktemp("wheel")
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w",
                    str(tmp / "dist"), str(ROOT)], check=True, capture_output=True, timeout=300)
    wheel = next((tmp / "dist").glob("dragonforge-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    assert not any(n.startswith("flows/") for n in names)
    assert "dragonforge/flows/build.py" in names and "dragonforge/_resources/templates/qra/law.en.yaml" in names
    env_dir = tmp / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    site = Path(subprocess.run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                               check=True, capture_output=True, text=True).stdout.strip())
    (site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(site), str(wheel)],
                   check=True, capture_output=True, timeout=300)
    return env_dir


def _run(env_dir: Path, *args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PYTHON"))}
    return subprocess.run([str(env_dir / "bin" / "python"), "-m", "dragonforge.cli", *args], capture_output=True,
                          text=True, cwd=cwd, env=env, timeout=300)


def test_the_installed_wheel_builds_from_its_own_files(installed, tmp_path):
    locate = subprocess.run([str(installed / "bin" / "python"), "-c", "import dragonforge; print(dragonforge.__file__)"],
                            capture_output=True, text=True, cwd=tmp_path)
    assert str(installed) in locate.stdout
    proc = _run(installed, *BUILD, "--out", str(tmp_path / "bench"), cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr[-2000:]
    manifest = json.loads((tmp_path / "bench" / "manifest.json").read_text())
    assert "+src." in manifest["code_version"]  # no git here: the sources' fingerprint names the code
    check = _run(installed, "validate", str(tmp_path / "bench"), cwd=tmp_path)
    assert check.returncode == 0, check.stdout


def test_a_changed_stage_function_is_recomputed_not_reused(installed, tmp_path):
    out = tmp_path / "bench"
    first = _run(installed, *BUILD, "--out", str(out), cwd=tmp_path)
    assert first.returncode == 0, first.stderr[-2000:]
    queries = (out / "queries.jsonl").read_text().splitlines()
    assert len(queries) > 1
    again = _run(installed, *BUILD, "--out", str(out), cwd=tmp_path)  # unchanged code: all from the store
    assert (out / "queries.jsonl").read_text().splitlines() == queries

    # A second version of the questions stage: it keeps only the first draft.
    stage = Path(subprocess.run([str(installed / "bin" / "python"), "-c",
                                 "import dragonforge.pipeline as p; print(p.__file__)"],
                                capture_output=True, text=True, cwd=tmp_path).stdout.strip())
    source = stage.read_text()
    line = "    drafts, rejections = generate_qra(configs, documents, total, mix, seed, templates)\n"
    assert line in source
    stage.write_text(source.replace(line, line + "    drafts = drafts[:1]\n"))
    for cached in stage.parent.glob("__pycache__/pipeline.*.pyc"):
        cached.unlink()
    changed = _run(installed, *BUILD, "--out", str(out), cwd=tmp_path)
    assert again.returncode == 0 and changed.returncode == 0, changed.stderr[-2000:]
    assert len((out / "queries.jsonl").read_text().splitlines()) == 1
