"""The metrics behind the quality numbers (bench/quality.py, README, BENCHMARKS.md), checked
against values worked out by hand."""

from __future__ import annotations

import math

import numpy as np
import pytest

from interviewer.grading.evaluation import (
    AnswerOutcome,
    auc,
    bootstrap_interval,
    f1,
    ranks,
    report,
    spearman,
)


def test_ranks_are_one_based_and_ties_share_their_mean_rank() -> None:
    assert ranks([3.0, 1.0, 2.0]).tolist() == [3.0, 1.0, 2.0]
    assert ranks([10, 20, 20, 30]).tolist() == [1.0, 2.5, 2.5, 4.0]
    assert ranks([0.5, 0.5, 0.5]).tolist() == [2.0, 2.0, 2.0]
    assert ranks([1, 0, 1, 0, 1]).tolist() == [4.0, 1.5, 4.0, 1.5, 4.0]


def test_spearman_is_pearson_on_tied_ranks() -> None:
    # ranks [1, 2.5, 2.5, 4] and [1, 3, 2, 4]: deviations (-1.5, 0, 0, 1.5) and
    # (-1.5, .5, -.5, 1.5), so rho = 4.5 / sqrt(4.5 * 5) = sqrt(0.9). The formula without
    # ties, 1 - 6·Σd²/(n(n²-1)), would give 0.95.
    assert spearman([1, 2, 2, 3], [1, 3, 2, 4]) == pytest.approx(math.sqrt(0.9), abs=1e-12)
    assert spearman([1, 2, 3, 4], [10, 20, 30, 40]) == pytest.approx(1.0)
    assert spearman([1, 2, 3, 4], [4, 3, 2, 1]) == pytest.approx(-1.0)
    # monotone, not linear: only the order counts
    assert spearman([1, 2, 3, 4], [1, 8, 27, 1000]) == pytest.approx(1.0)


def test_spearman_of_a_constant_is_undefined() -> None:
    assert math.isnan(spearman([0.3, 0.3, 0.3], [1, 2, 3]))


def test_auc_counts_ties_as_half() -> None:
    # positives 0.8, 0.5 against negatives 0.5, 0.1: 0.8 beats both, 0.5 ties one and beats
    # one: (1 + 1 + 0.5 + 1) / 4
    assert auc([0.8, 0.5, 0.5, 0.1], [True, True, False, False]) == pytest.approx(0.875)
    assert auc([0.1, 0.9], [True, False]) == 0.0
    assert math.isnan(auc([0.1, 0.9], [True, True]))


def test_f1() -> None:
    # one true positive, one false positive, one false negative: 2·1 / (2 + 2)
    assert f1([True, True, False, False], [True, False, True, False]) == pytest.approx(0.5)
    assert f1([False, False], [True, False]) == 0.0
    assert f1([True, False], [True, False]) == 1.0


def test_report_answer_mae_spearman_and_groups() -> None:
    answers = [AnswerOutcome("a", "good", "zh", score=0.2, label=0.0),
               AnswerOutcome("b", "good", "zh", score=0.5, label=1.0),
               AnswerOutcome("c", "off", "en", score=0.9, label=0.9)]
    # point labels 0.5 are undecided: left out of the AUC, kept in the rank correlation
    credits = np.array([1.0, 0.5, 0.0, 1.0])
    probabilities = np.array([0.9, 0.6, 0.2, 0.4])
    labels = np.array([1.0, 0.5, 0.0, 0.0])
    r = report(credits, probabilities, labels, answers)
    assert r.answer_mae == pytest.approx((0.2 + 0.5 + 0.0) / 3)
    # scores rank 1, 2, 3; labels rank 1, 3, 2: rho = 1 - 6·2/(3·8) = 0.5
    assert r.answer_spearman == pytest.approx(0.5)
    # decided points: probabilities 0.9 (positive), 0.2 and 0.4 (negative): AUC 1
    assert r.point_auc == pytest.approx(1.0)
    # credit 1 on points 0 and 3, label 1 only on point 0: 2·1 / (2 + 1)
    assert r.point_f1 == pytest.approx(2 / 3)
    assert r.point_spearman == pytest.approx(spearman(probabilities, labels))
    assert (r.n_points, r.n_answers) == (4, 3)
    assert r.by_kind == {"good": (2, pytest.approx(0.35), pytest.approx(0.5)),
                         "off": (1, pytest.approx(0.9), pytest.approx(0.9))}


def test_a_bootstrap_of_identical_values_is_that_value() -> None:
    assert bootstrap_interval([0.25] * 10) == (0.25, 0.25)


def test_bootstrap_resamples_with_replacement() -> None:
    # two values: a resample of two means 0, 0.5 or 1 with chances 1/4, 1/2, 1/4, so the
    # 2.5th and 97.5th percentiles are 0 and 1 (resampling without replacement: 0.5 and 0.5)
    assert bootstrap_interval([0.0, 1.0]) == (0.0, 1.0)


def test_bootstrap_interval_of_a_mean_is_near_the_normal_one() -> None:
    # 100 values, half 0 and half 1: the mean's standard error is sqrt(.25 / 100) = 0.05,
    # so the 95% interval is about 0.5 ± 1.96 · 0.05 = [0.402, 0.598]
    low, high = bootstrap_interval([0.0, 1.0] * 50)
    assert low == pytest.approx(0.402, abs=0.015) and high == pytest.approx(0.598, abs=0.015)
    assert bootstrap_interval([0.0, 1.0] * 50) == (low, high)  # seeded: the same every run
