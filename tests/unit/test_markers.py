"""``-m integration`` selects the whole tests/integration/ folder, marked by path."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import ROOT


def _collect(*args: str) -> list[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
         *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    assert proc.returncode in (0, 5), proc.stdout + proc.stderr  # 5: nothing selected
    return [line for line in proc.stdout.splitlines() if "::" in line]


def test_every_test_under_integration_is_marked_integration() -> None:
    unmarked = _collect("-m", "not integration", "tests/integration")
    assert unmarked == []
    assert _collect("-m", "integration", "tests/integration")
