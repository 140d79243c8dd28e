"""The scorer for questions whose points a person wrote.

    python bench/hand_scorer.py            # fit it, report leave-one-bank-out agreement
    python bench/hand_scorer.py --write    # also store it in the shipped calibration
    python bench/hand_scorer.py --without denies,stance   # and what two features add
    python bench/hand_scorer.py --head     # also the head over whole rows (each bank held out)
    python bench/hand_scorer.py --head --write   # ... and ship the head
    python bench/hand_scorer.py --head --jobs 2  # the banks held out two at a time
    python bench/hand_scorer.py --head --folds 8 # sources held out an eighth at a time (quicker)

Points a person writes are not the extractor's: shorter, topics as often as claims, the
author's own words, often in the other language than the answer. The default encoder's
scorer was fitted on the shipped banks' extracted rubrics only, where every cross-language
answer in the dev files was a correct one; on hand-written points it credits an English
answer that names the terms of a Chinese point whatever it claims.

This scorer is fitted on the shipped dev files plus every set of answers graded against an
author's own points that is development data (``HAND_SETS``: written and labeled under
``bench/LABELING.md`` by writers who never saw the grader, and read since while changing
it). Its features add the direction of a cross-language answer (``xl_zh``) and what the
evidence says beyond its point's words, a denial or a stance word (``denies``, ``stance``:
a confident wrong answer in the point's own terms). With ``--head``, a small network over
the whole row, pair features included (:mod:`interviewer.grading.head`), takes the logistic
model's place. Reported: for
each bank, the answers graded by a hand scorer fitted without that bank, against the
extracted-rubric scorer, with the claim rules on top as the grader applies them. The
grader uses it for every question ``Rubric.is_hand_edited`` (``source: hand``, or points
that differ from what the extractor wrote).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import re
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import crosssource as cs  # noqa: E402
import quality as qb  # noqa: E402
from interviewer.content.catalog import BankCatalog  # noqa: E402
from interviewer.grading.calibration import (  # noqa: E402
    SHIPPED,
    Scorer,
    fit_scorer,
    fit_thresholds,
    save_scorer,
    scorer_for,
)
from interviewer.grading.features import FEATURES  # noqa: E402
from interviewer.grading.decision import decide  # noqa: E402
from interviewer.grading.head import fit_head  # noqa: E402
from interviewer.grading.labels import load_labeled  # noqa: E402

# Answer sets graded against authors' own points, development data since 2026-11-30
# (BENCHMARKS.md says when each stopped being held out), and ``xsource-more``, written as
# development data under the same rule. Never add a held-out set here.
HAND_SETS = ("xsource", "xsource-heldout", "seed-hand", "xsource-heldout-3", "xsource-heldout-4",
             "xsource-heldout-5", "xsource-heldout-6", "xsource-heldout-7", "xsource-heldout-8",
             "xsource-heldout-9", "xsource-heldout-10", "xsource-heldout-11", "xsource-heldout-12",
             "xsource-heldout-13", "xsource-heldout-14", "xsource-heldout-15", "xsource-heldout-16",
             "xsource-heldout-17", "xsource-heldout-18", "xsource-heldout-19", "xsource-heldout-20",
             "xsource-heldout-21", "xsource-heldout-22", "xsource-heldout-23",
             "xsource-heldout-24", "xsource-heldout-25", "xsource-heldout-26", "xsource-heldout-27",
             "xsource-more")


_NUMBERED = re.compile(r"xsource-heldout-\d+")


def source_of_sets(sets: tuple[str, ...]) -> str:
    """What a scorer fitted on ``sets`` names as its source: one line a grade can print, the
    numbered held-out sets as a range when they run without a gap."""
    numbered = sorted(int(s.rsplit("-", 1)[1]) for s in sets if _NUMBERED.fullmatch(s))
    named = [s for s in sets if not _NUMBERED.fullmatch(s)]
    if numbered and numbered == list(range(numbered[0], numbered[-1] + 1)) and len(numbered) > 2:
        named.append(f"xsource-heldout-{numbered[0]}…{numbered[-1]}")
    else:
        named += [f"xsource-heldout-{n}" for n in numbered]
    return "bench/data/labeled-dev*.jsonl + authors' points in bench/data/ " + ", ".join(named)


SOURCE = source_of_sets(HAND_SETS)
# the head's size and fitting, chosen by the MAE of each bank held out (BENCHMARKS.md)
HEAD = dict(hidden=32, epochs=20, dropout=0.5, weight_decay=0.05, seed=0, members=5)
HEAD_FILE = "use-hand-head.npz"


# folders of answers whose questions come from one repository, named otherwise
SAME_SOURCE = {"ritam378-mlpipeline": "ritam378-rag-interview"}


def source_of(folder: str) -> str:
    """The bank a folder of answers belongs to: ``xsource-more/<slug>-b`` holds more questions
    from the source of ``<slug>``, and is held out with it, as is a folder of another file of
    the same repository (``SAME_SOURCE``)."""
    return SAME_SOURCE.get(folder, folder.removesuffix("-b"))


def collect(grader, exclude: frozenset[str] = frozenset()) -> list[dict]:
    """Every answer of the hand sets, but for the folders named in ``exclude``: its source
    (``source_of``), points, labels and the evidence."""
    out = []
    for folder in cs._folders(list(HAND_SETS)):
        if folder.name in exclude:
            continue
        rubric = cs._rubrics(folder)["author"]
        for line in (folder / "answers.jsonl").read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            item = json.loads(line)
            points = rubric.question(item["question_id"]).points
            out.append(dict(folder=source_of(folder.name), kind=item["kind"], points=points,
                            id=item["id"],
                            labels=np.array([float(item["labels"][p.id]) for p in points]),
                            evidence=grader.evidence(rubric, item["question_id"],
                                                     item["answer"])))
    return out


def fit(dev_rows: np.ndarray, dev_labels: np.ndarray, answers: list[dict],
        features: tuple[str, ...] = FEATURES) -> Scorer:
    rows = [a["evidence"].rows for a in answers if a["evidence"].rows.shape[1]]
    labels = [a["labels"] for a in answers if a["evidence"].rows.shape[1]]
    return fit_scorer(np.vstack([dev_rows, *rows]), np.concatenate([dev_labels, *labels]),
                      source=SOURCE, features=features)


def with_head(logistic: Scorer, dev_rows: np.ndarray, dev_labels: np.ndarray,
              answers: list[dict]) -> Scorer:
    """``logistic`` with a head fitted on the same rows, and thresholds fitted to it."""
    used = [a for a in answers if a["evidence"].rows.shape[1]]
    rows = np.vstack([dev_rows, *(a["evidence"].rows for a in used)])
    labels = np.concatenate([dev_labels, *(a["labels"] for a in used)])
    head = fit_head(rows, labels, **HEAD)
    p = head.probability(rows)
    covered, partial = fit_thresholds(p, labels)
    credit = np.where(p >= covered, 1.0, np.where(p >= partial, 0.5, 0.0))
    metrics = {**logistic.metrics, "head": {
        **HEAD, "covered": covered, "partial": partial,
        "point_mae_in_sample": round(float(np.mean(np.abs(credit - labels))), 4)}}
    return replace(logistic, head=replace(head, covered=covered, partial=partial),
                   head_file=HEAD_FILE, metrics=metrics)


def graded(scorer: Scorer, answer: dict) -> tuple[float, float]:
    """(score, label) of one answer as the grader scores it with ``scorer``."""
    d = decide(answer["points"], answer["evidence"], scorer)
    w = np.array([p.weight for p in answer["points"]])
    return d.score, float((answer["labels"] * w).sum() / w.sum())


def report(name: str, pairs: list[tuple[str, float, float]]) -> None:
    s, la = np.array([x[1] for x in pairs]), np.array([x[2] for x in pairs])

    def mean(kinds: set[str]) -> float:
        return float(np.mean([x[1] for x in pairs if x[0] in kinds]))

    print(f"{name:<26} MAE {np.abs(s - la).mean():.3f}  Spearman {cs._spearman(list(s), list(la)):.3f}  "
          f"wrong {mean({'wrong'}):.2f} wrong_en {mean({'wrong_en'}):.2f} "
          f"wrong_zh {mean({'wrong_zh'}):.2f} terms {mean(cs.TERMS):.2f} "
          f"paraphrase {mean({'paraphrase'}):.2f} good_en {mean({'good_en'}):.2f} "
          f"good_zh {mean({'good_zh'}):.2f}")


def _paired(before: list[tuple], after: list[tuple]) -> str:
    diff = [abs(a[1] - a[2]) - abs(b[1] - b[2]) for b, a in zip(before, after)]
    lo, hi = cs._bootstrap(diff)
    return f"{np.mean(diff):+.4f} [{lo:+.4f}, {hi:+.4f}]"


_FOLD: dict = {}  # what every bank held out is fitted from, set by main() before it forks


def folds_of(sources: list[str], folds: int) -> list[tuple[str, ...]]:
    """The sources held out together: each alone (``folds`` 0), or dealt in turn into
    ``folds`` groups, in sorted order, so that two runs hold out the same groups."""
    ordered = sorted(sources)
    if folds <= 0 or folds >= len(ordered):
        return [(s,) for s in ordered]
    return [tuple(ordered[i::folds]) for i in range(folds)]


def _held_out(group: tuple[str, ...]) -> tuple[str, list, list, list, list]:
    """The answers of some banks graded by the extracted-rubric scorer, by the hand scorer
    fitted without those banks, by its head (``--head``) and by one fitted without some
    features (``--without``): (name, base, hand, head, without)."""
    f = _FOLD
    folder = "+".join(group)
    inside = [a for a in f["answers"] if a["folder"] in group]
    rest = [a for a in f["answers"] if a["folder"] not in group]
    scorer = fit(f["dev_rows"], f["dev_labels"], rest)
    b = [(a["kind"], *graded(f["base"], a), a["id"]) for a in inside]
    h = [(a["kind"], *graded(scorer, a), a["id"]) for a in inside]
    m = []
    if f["head"]:
        headed = with_head(scorer, f["dev_rows"], f["dev_labels"], rest)
        m = [(a["kind"], *graded(headed, a), a["id"]) for a in inside]
    less = []
    if f["without"] != FEATURES:
        fewer = fit(f["dev_rows"], f["dev_labels"], rest, f["without"])
        less = [(a["kind"], *graded(fewer, a), a["id"]) for a in inside]
    return folder, b, h, m, less


def _printed(fold: tuple[str, list, list, list, list]) -> tuple[str, list, list, list, list]:
    folder, *pairs = fold
    mae = [np.mean([abs(x[1] - x[2]) for x in p]) for p in pairs[:3] if p]
    print(f"  {folder:<24} {len(pairs[0]):>3} answers  MAE "
          + " -> ".join(f"{v:.3f}" for v in mae), flush=True)
    return fold


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--write", action="store_true",
                        help="store the scorer fitted on all of it in the shipped calibration")
    parser.add_argument("--without", default="",
                        help="comma-separated features: also report a hand scorer fitted "
                             "without them, paired with the full one (each bank held out)")
    parser.add_argument("--head", action="store_true",
                        help="also fit the head over whole rows, each bank held out; with "
                             "--write, ship it")
    parser.add_argument("--jobs", type=int, default=1,
                        help="banks held out at once, each in a process of its own")
    parser.add_argument("--folds", type=int, default=0,
                        help="hold the sources out in this many groups instead of one by one "
                             "(quicker, for comparing two changes; not the reported figure)")
    parser.add_argument("--exclude", default="",
                        help="comma-separated folders to leave out (two runs compared on the "
                             "same answers while more are being written)")
    parser.add_argument("--json", type=Path,
                        help="write every answer's held-out score here (the head's, else the "
                             "hand scorer's)")
    args = parser.parse_args(argv)
    grader = cs._grader()
    base = grader.scorer.for_points(hand=False)
    catalog = BankCatalog([qb.ROOT / "bank"])
    dev = qb.collect(grader, [it for p in qb.DEV_FILES for it in load_labeled(p)], catalog)
    dev_rows, dev_labels = np.vstack(dev.rows), np.concatenate(qb.labels_of(dev))
    answers = collect(grader, frozenset(filter(None, args.exclude.split(","))))
    folders = folds_of(list({a["folder"] for a in answers}), args.folds)
    print(f"{len(answers)} answers in {len(folders)} banks with their authors' points; "
          f"{len(dev.items)} shipped dev answers")
    without = tuple(f for f in FEATURES if f not in set(filter(None, args.without.split(","))))
    global _FOLD
    _FOLD = dict(dev_rows=dev_rows, dev_labels=dev_labels, answers=answers, base=base,
                 head=args.head, without=without)
    if args.jobs > 1:  # forked workers read _FOLD as it is now, without pickling it
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            results = pool.imap(_held_out, folders)
            folds = [_printed(r) for r in results]
    else:
        folds = [_printed(_held_out(folder)) for folder in folders]
    base_pairs, hand_pairs, head_pairs, less_pairs = (
        [pair for fold in folds for pair in fold[i]] for i in range(1, 5))
    report("extracted-rubric scorer", base_pairs)
    report("hand scorer, bank held out", hand_pairs)
    print("paired MAE difference, hand - extracted " + _paired(base_pairs, hand_pairs))
    if head_pairs:
        report("head, bank held out", head_pairs)
        print("paired MAE difference, head - hand " + _paired(hand_pairs, head_pairs))
    if args.json:
        scored = head_pairs or hand_pairs
        args.json.write_text(json.dumps({x[3]: [x[1], x[2], x[0]] for x in scored}) + "\n")
    if less_pairs:
        report(f"... without {args.without}", less_pairs)
        print(f"paired MAE difference, hand - without {args.without} "
              + _paired(less_pairs, hand_pairs))
    if args.write:
        hand = fit(dev_rows, dev_labels, answers)
        if args.head:
            hand = with_head(hand, dev_rows, dev_labels, answers)
            hand.head.save(SHIPPED.parent / HEAD_FILE)
        current = scorer_for(grader.model_id)  # the shipped calibration
        save_scorer(grader.model_id, replace(current, hand=hand), SHIPPED)
        print(f"wrote the hand scorer for {grader.model_id} to {SHIPPED.relative_to(qb.ROOT)} "
              f"(point MAE {hand.metrics['point_mae']}"
              + (f"; head: {hand.metrics['head']}" if args.head else "") + ")")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
