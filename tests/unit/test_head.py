"""The head over whole rows: it fits what one logistic model cannot, it survives a round
trip to disk, and a damaged or misplaced file is refused with a reason."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from interviewer.errors import ConfigError
from interviewer.grading.calibration import Scorer, fit_logistic, scorer_for
from interviewer.grading.features import FEATURES, feature_row, pair_features
from interviewer.grading.head import Head, fit_head


def _xor(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two signs whose agreement is the label, among noise columns: no weighted sum of the
    columns tells the classes apart."""
    rng = np.random.default_rng(seed)
    x = rng.normal(size=(n, 12))
    return x, (np.sign(x[:, 0]) == np.sign(x[:, 1])).astype(float)


def test_the_head_learns_what_a_weighted_sum_cannot() -> None:
    x, y = _xor(3000, 0)
    test_x, test_y = _xor(1000, 1)
    head = fit_head(x, y, hidden=16, epochs=40, dropout=0.0, weight_decay=0.0, rate=1e-2)
    head_acc = float(np.mean((head.probability(test_x) >= 0.5) == test_y))
    w, b = fit_logistic(x, y)
    logistic_acc = float(np.mean(((test_x @ w + b) >= 0) == test_y))
    assert head_acc >= 0.9 and logistic_acc <= 0.6, (head_acc, logistic_acc)


def test_fitting_is_reproducible_and_dropout_changes_it() -> None:
    x, y = _xor(500, 2)
    one, two = fit_head(x, y, epochs=3, seed=4), fit_head(x, y, epochs=3, seed=4)
    assert np.array_equal(one.w1, two.w1) and one.b2 == two.b2
    other = fit_head(x, y, epochs=3, seed=4, dropout=0.0)
    assert not np.array_equal(one.w1, other.w1)


def test_a_head_survives_the_round_trip(tmp_path: Path) -> None:
    x, y = _xor(400, 3)
    head = replace(fit_head(x, y, epochs=2), covered=0.61, partial=0.33)
    head.save(tmp_path / "h.npz")
    again = Head.load(tmp_path / "h.npz")
    assert (again.width, again.covered, again.partial) == (12, 0.61, 0.33)
    # stored as float32: the same probabilities to six places
    assert np.allclose(again.probability(x), head.probability(x), atol=1e-6)


def test_rows_of_another_width_are_refused() -> None:
    x, y = _xor(200, 5)
    head = fit_head(x, y, epochs=1)
    with pytest.raises(ValueError, match="12 columns, not 14"):
        head.probability(np.zeros((3, 14)))


_GOOD = {"mean": np.zeros(3), "scale": np.ones(3), "w1": np.zeros((1, 3, 2)),
         "b1": np.zeros((1, 2)), "w2": np.zeros((1, 2)), "b2": np.zeros(1),
         "thresholds": np.array([0.6, 0.3])}


def test_a_well_formed_head_loads(tmp_path: Path) -> None:
    np.savez(tmp_path / "h.npz", **_GOOD)
    head = Head.load(tmp_path / "h.npz")
    assert (head.width, head.covered, head.partial) == (3, 0.6, 0.3)


@pytest.mark.parametrize("arrays", [
    {},  # nothing in it
    {**_GOOD, "w2": np.zeros((1, 3))},  # a second layer of the wrong size
    {**_GOOD, "b2": np.zeros(2)},  # more biases than members
    {**_GOOD, "w1": np.zeros((3, 2))},  # no axis of members
    {**_GOOD, "w1": np.full((1, 3, 2), np.nan)},  # not numbers
    {**_GOOD, "thresholds": np.array([0.6])},  # one threshold
    {k: v for k, v in _GOOD.items() if k != "thresholds"},  # none
])
def test_a_damaged_head_is_refused(tmp_path: Path, arrays: dict) -> None:
    path = tmp_path / "h.npz"
    np.savez(path, **arrays)
    with pytest.raises(ValueError, match="h.npz"):
        Head.load(path)
    path.write_bytes(b"not a zip file")
    with pytest.raises(ValueError, match="h.npz"):
        Head.load(path)


def _calibration(tmp_path: Path, head_name: str) -> Path:
    hand = {"covered": 0.8, "partial": 0.7, "weights": [1.0], "mean": [0.0], "scale": [1.0],
            "features": ["e"], "source": "hand", "head": head_name}
    path = tmp_path / "calibration.json"
    path.write_text(json.dumps({"m": {"covered": 0.6, "partial": 0.3, "weights": [1.0],
                                      "mean": [0.0], "scale": [1.0], "features": ["e"],
                                      "hand": hand}}), encoding="utf-8")
    return path


def test_a_calibration_file_names_its_head_beside_it(tmp_path: Path) -> None:
    x, y = _xor(300, 6)
    replace(fit_head(x, y, epochs=1), covered=0.9, partial=0.5).save(tmp_path / "my-head.npz")
    scorer = scorer_for("m", _calibration(tmp_path, "my-head.npz"))
    hand = scorer.for_points(hand=True)
    assert hand.head is not None and scorer.head is None
    assert np.allclose(hand.probability(x[:5]), hand.head.probability(x[:5]))
    # the head's thresholds give the verdicts; the logistic model keeps its own
    assert hand.verdict(0.55) == "partial" and hand.closeness.verdict(0.55) == "missed"
    assert hand.to_dict()["head"] == "my-head.npz"
    # a row the logistic model reads: its own columns only
    assert scorer.probability(np.ones((1, 20))).shape == (1,)


@pytest.mark.parametrize("name", ["../elsewhere.npz", "/etc/passwd", "missing.npz"])
def test_a_head_elsewhere_or_missing_is_a_configuration_error(tmp_path: Path, name: str) -> None:
    with pytest.raises(ConfigError, match="calibration for 'm' is invalid") as raised:
        scorer_for("m", _calibration(tmp_path, name))
    # one line that says what to do about it
    assert "\n" not in str(raised.value) and "interviewer calibrate" in str(raised.value)


def test_pair_features_extend_the_row_and_the_logistic_model_ignores_them() -> None:
    rng = np.random.default_rng(7)
    p, s, a = (v / np.linalg.norm(v) for v in rng.normal(size=(3, 8)))
    base = dict(e=0.7, lex=0.5, evidence_len=20, point_len=10, off=0.0, seg_question=0.3,
                second=0.4, point_question=0.2, cross=False)
    short, wide = feature_row(**base), feature_row(**base, pair=(p, s, a))
    assert wide.shape == (len(FEATURES) + 24,) and np.array_equal(wide[:len(FEATURES)], short)
    assert np.allclose(wide[len(FEATURES):], pair_features(p, s, a))
    logistic = Scorer(0.6, 0.3, weights=tuple(range(len(FEATURES))), mean=(0.0,) * len(FEATURES),
                      scale=(1.0,) * len(FEATURES))
    assert logistic.probability(wide) == pytest.approx(logistic.probability(short))


def test_a_head_of_several_members_averages_their_probabilities(tmp_path: Path) -> None:
    """Members fitted from different seeds disagree on rows unlike the ones they saw; the
    head says what they say on average, and keeps every member through the file."""
    x, y = _xor(600, 8)
    three = fit_head(x, y, epochs=3, members=3, seed=5)
    assert three.members == 3
    singles = [fit_head(x, y, epochs=3, seed=5 + k) for k in range(3)]
    assert not np.allclose(singles[0].probability(x), singles[1].probability(x))
    assert np.allclose(three.probability(x), np.mean([h.probability(x) for h in singles], axis=0))
    three.save(tmp_path / "h.npz")
    again = Head.load(tmp_path / "h.npz")
    assert again.members == 3 and np.allclose(again.probability(x), three.probability(x),
                                                atol=1e-6)
