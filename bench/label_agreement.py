"""How far two labelers of the same answers agree, and how the grader compares with each.

    python bench/label_agreement.py            # every file with a blind relabel

``bench/data/relabel/<file>`` holds a second, blind labeling of ``bench/data/<file>`` (same
ids, labels only), made by a labeler who saw the answers and the rubric but not the first
labels. The answer-level MAE between two labelings is a floor under any grader's MAE
against one of them: a grader that matched one labeler perfectly would still be that far
from the other. The grader's scorer is fitted on the dev files, as shipped.
"""

from __future__ import annotations

import json
import sys

import numpy as np
import quality as Q  # bench/quality.py: the data, collection and metrics of the default

from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer
from interviewer.grading.encoders.backends import USEEmbedder
from interviewer.grading.features import FEATURES
from interviewer.grading.grader import Grader
from interviewer.grading.labels import load_labeled

RELABELED = Q.ROOT / "bench" / "data" / "relabel"


def second_labels(path) -> dict[str, dict[str, float]]:
    lines = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line)
    return {row["id"]: row["labels"] for row in lines}


def main() -> int:
    catalog = BankCatalog([Q.ROOT / "bank"])
    grader = Grader(USEEmbedder(), scorer=Scorer(0.5, 0.5))
    dev = [item for path in Q.DEV_FILES for item in load_labeled(path)]
    scorer = Q.fit(Q.collect(grader, dev, catalog), FEATURES)
    print(f"{'file':<26} {'answers':>7} {'points':>6} {'same label':>10} {'|a-b| answer':>12} "
          f"{'grader-a':>8} {'grader-b':>8} {'grader-mean':>11}")
    for relabel in sorted(RELABELED.glob("*.jsonl")):
        items = load_labeled(Q.ROOT / "bench" / "data" / relabel.name)
        other = second_labels(relabel)
        ev = Q.collect(grader, items, catalog)
        same, points, between, to_a, to_b, to_mean = 0, 0, [], [], [], []
        for item, rows, ids, w in zip(ev.items, ev.rows, ev.point_ids, ev.weights):
            a = np.array([item.labels[p] for p in ids])
            b = np.array([other[item.id][p] for p in ids])
            score, la, lb = (Q.weighted_mean(v, w) for v in (Q.credits(scorer, rows)[1], a, b))
            same += int(np.sum(a == b))
            points += len(ids)
            between.append(abs(la - lb))
            to_a.append(abs(score - la))
            to_b.append(abs(score - lb))
            to_mean.append(abs(score - (la + lb) / 2))
        print(f"{relabel.name:<26} {len(items):>7} {points:>6} {same / points:>10.1%} "
              f"{np.mean(between):>12.3f} {np.mean(to_a):>8.3f} {np.mean(to_b):>8.3f} "
              f"{np.mean(to_mean):>11.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
