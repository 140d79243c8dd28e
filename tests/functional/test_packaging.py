"""Shipped banks and rubrics are found when installed from a wheel, not only from a checkout."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from conftest import ROOT


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    proc = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                           "--no-index", "-w", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (found,) = out.glob("interviewer-*.whl")
    return found


def test_wheel_carries_banks_rubrics_styles_and_calibration(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for bank in (ROOT / "bank").glob("*.md"):
        assert f"interviewer/_shipped/bank/{bank.name}" in names
    for rubric in (ROOT / "rubrics").glob("*.yaml"):
        assert f"interviewer/_shipped/rubrics/{rubric.name}" in names
    assert "interviewer/tui/styles/app.tcss" in names
    assert "interviewer/grading/calibration.json" in names
    assert "interviewer/grading/use-hand-head.npz" in names  # the head the calibration names


def test_installed_wheel_finds_its_banks_and_rubrics(wheel: Path, tmp_path: Path) -> None:
    target = tmp_path / "site"
    proc = subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index",
                           "--target", str(target), str(wheel)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    env = {**os.environ, "PYTHONPATH": str(target), "INTERVIEWER_HOME": str(tmp_path / "home")}
    code = ("import interviewer, interviewer.paths as p; print(interviewer.__file__); "
            "print(p.shipped_bank_dir())")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=tmp_path, timeout=60)
    module_file, bank_dir = proc.stdout.split()
    assert module_file.startswith(str(target))
    assert bank_dir == str(target / "interviewer" / "_shipped" / "bank")
    proc = subprocess.run([sys.executable, "-m", "interviewer", "bank", "validate"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.count("ok:") == 2
    assert "_shipped/bank/ai-infra-zh.md" in proc.stdout
    assert proc.stderr == ""  # rubrics were found: no "extracted on the fly" warning
