"""The one factory: grader, store and prober built from the settings, I/O injected."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from fakes import BigramEmbedder
from interviewer import factory
from interviewer.grading.calibration import UNCALIBRATED, Scorer, save_scorer
from interviewer.config import discover_settings
from interviewer.grading.grader import Grader
from interviewer.grading.encoders.names import EMBEDDERS, embedder_kind
from interviewer.content.rubric import Point, QuestionRubric, Rubric

RUBRIC = Rubric(bank="b", questions=(QuestionRubric(
    id="q", question="梯度累积的原理？", source_sha256="", points=(
        Point(id="q.1", text="梯度累积减少通信频率"),)),))


def test_every_name_goes_to_one_kind_of_embedder() -> None:
    assert list(EMBEDDERS) == ["use", "openai", "sentence-transformers"]
    assert embedder_kind("default").name == "use"
    assert embedder_kind("use").name == "use"
    assert embedder_kind("openai:bge-m3").name == "openai"
    assert embedder_kind("minilm").name == "sentence-transformers"
    assert embedder_kind("/some/path").name == "sentence-transformers"
    assert embedder_kind("openai:x").served and not embedder_kind("default").served


def test_the_grader_takes_its_cache_and_calibration_from_the_factory(tmp_path: Path) -> None:
    scorer = Scorer(0.7, 0.2, source="mine")
    save_scorer(BigramEmbedder().model_id, scorer, tmp_path / "calibration.json")
    grader = factory.build_grader(BigramEmbedder(), calibration_file=tmp_path / "calibration.json",
                                  cache_dir=tmp_path / "cache")
    grader.warm_up(RUBRIC)
    assert grader.scorer.source == "mine"
    rows = sqlite3.connect(tmp_path / "cache" / "embeddings.sqlite").execute(
        "SELECT COUNT(*) FROM vectors").fetchone()[0]
    assert rows > 0


def test_the_grader_itself_opens_no_file(tmp_path: Path) -> None:
    with pytest.raises(TypeError):
        Grader(BigramEmbedder(), calibration_file=tmp_path / "c.json")  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Grader(BigramEmbedder(), Scorer(0.6, 0.3), cache_dir=tmp_path)  # type: ignore[call-arg]


def test_a_calibration_file_is_read_on_first_grade_not_when_built(tmp_path: Path) -> None:
    """So ``calibrate`` can still replace a calibration file that does not parse."""
    bad = tmp_path / "calibration.json"
    bad.write_text("{not json", encoding="utf-8")
    grader = factory.build_grader(BigramEmbedder(), calibration_file=bad)
    bad.write_text(json.dumps({}), encoding="utf-8")
    assert grader.scorer == UNCALIBRATED


def test_make_grader_puts_the_cache_and_calibration_in_the_data_dir(isolated_home: Path,
                                                                   monkeypatch) -> None:
    settings = discover_settings()
    monkeypatch.setattr(factory, "make_embedder", lambda s: BigramEmbedder())
    save_scorer(BigramEmbedder().model_id, Scorer(0.65, 0.25, source="home"),
                settings.data_dir / "calibration.json")
    grader = factory.make_grader(settings)
    grader.grade(RUBRIC, "q", "梯度累积。")
    assert grader.scorer.source == "home"
    assert (settings.data_dir / "cache" / "embeddings.sqlite").exists()


def test_store_and_prober_come_from_the_settings(isolated_home: Path) -> None:
    settings = discover_settings()
    store = factory.open_store(settings)
    try:
        assert store.persistent and store.path.parent == settings.data_dir
    finally:
        store.close()
    prober = factory.make_prober(settings)
    assert not prober.configured  # no LLM in the config: templates, with a notice
