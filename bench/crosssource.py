"""Grading on material the grader was never tuned on: public banks with their authors' own
key points, and contrast cases generated from every rubric point.

    python bench/crosssource.py                       # both parts, the default grader
    python bench/crosssource.py --json out.json       # also keep every answer's score
    python bench/crosssource.py --paired base.json    # paired difference against another run
    python bench/crosssource.py --only xsource --sets xsource-heldout,seed-hand

Cross-source (``bench/data/xsource/<slug>/``): each bank is graded against its author's
points (``rubric.yaml``, hand-written) and against the rubric ``rubric build`` extracts from
the same reference answers. Answers were written and labeled under ``bench/LABELING.md`` by
writers who never saw the grader. Reported: answer Spearman and MAE, mean score against mean
label per kind, and the gap between each English twin and its Chinese twin.

Contrast (``bench/data/contrast/<bank>.jsonl``): short answers that restate one point in
other words, negate it, reverse it, swap its actor, change its number, only name it, or
translate it. Each invariant is reported with the rate it holds at.

Uses only the grader's public API (``Grader.grade``), so a run of an older checkout
(``PYTHONPATH=<checkout> python bench/crosssource.py --json base.json``) can be paired with
this one.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from functools import lru_cache
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "bench" / "data"

WRONG = {"wrong", "wrong_en", "wrong_zh"}
TERMS = {"terms", "terms_en", "terms_zh"}
TWINS = (("wrong_en", "wrong"), ("terms_en", "terms"), ("wrong_zh", "wrong"),
         ("terms_zh", "terms"), ("good_en", "paraphrase"), ("good_zh", "paraphrase"),
         ("translated_terms", "paraphrase"))
NOT_COVER = ("negated", "reversed", "entity_swap", "number_changed")


def _api():
    """The grader's public parts, from this layout or the flat one of older checkouts."""
    try:
        from interviewer.content.bank import load_bank
        from interviewer.content.rubric import load_rubric
        from interviewer.content.extract import build_rubric
        from interviewer.content.bank_rubric import rubric_for_bank
        from interviewer.grading.encoders.backends import make_embedder
        from interviewer.grading.grader import Grader
    except ImportError:  # a checkout from before the packages
        from interviewer.bank import load_bank
        from interviewer.embedding import make_embedder
        from interviewer.grading import Grader
        from interviewer.rubric import build_rubric, load_rubric, rubric_for_bank
    return dict(load_bank=load_bank, build_rubric=build_rubric, load_rubric=load_rubric,
                rubric_for_bank=rubric_for_bank, make_embedder=make_embedder, Grader=Grader)


def _grader():
    api = _api()
    try:
        from interviewer.factory import build_grader
    except ImportError:  # a checkout from before the factory
        return api["Grader"](api["make_embedder"]("default"))
    return build_grader(api["make_embedder"]("default"))


def _spearman(a: list[float], b: list[float]) -> float:
    def ranks(x):
        x = np.asarray(x, dtype=float)
        order = x.argsort(kind="mergesort")
        r = np.empty(len(x))
        r[order] = np.arange(len(x))
        for v in np.unique(x):  # average ranks of ties
            r[x == v] = r[x == v].mean()
        return r

    ra, rb = ranks(a), ranks(b)
    return float(np.corrcoef(ra, rb)[0, 1])


def _bootstrap(values: list[float], resamples: int = 5000, seed: int = 0) -> tuple[float, float]:
    means = np.random.default_rng(seed).choice(values, (resamples, len(values))).mean(axis=1)
    return float(np.percentile(means, 2.5)), float(np.percentile(means, 97.5))


@lru_cache(maxsize=None)
def _rubrics(folder: Path):
    api = _api()
    load_bank, build_rubric, load_rubric = api["load_bank"], api["build_rubric"], api["load_rubric"]
    bank = load_bank(folder / "bank.md")
    return {"author": load_rubric(folder / "rubric.yaml"),
            "extracted": build_rubric(bank).rubric}


def _label(item: dict, rubric, kind: str) -> float | None:
    """The answer's label: the weighted mean of its point labels (author rubric only)."""
    if kind != "author":
        return None
    q = rubric.question(item["question_id"])
    total = sum(p.weight for p in q.points)
    return sum(p.weight * float(item["labels"][p.id]) for p in q.points) / total


def _folders(sets: list[str]) -> list[Path]:
    """Each set is a folder under bench/data holding answer folders, or one answer folder."""
    found = []
    for name in sets:
        top = DATA / name
        if (top / "answers.jsonl").exists():
            found.append(top)
        else:
            found += sorted(p for p in top.iterdir() if (p / "answers.jsonl").exists())
    return found


def cross_source(grader, out: dict, sets: list[str]) -> None:
    folders = _folders(sets)
    for rubric_kind in ("author", "extracted"):
        scores: list[float] = []
        labels: list[float] = []
        by_kind: dict[str, list[tuple[float, float]]] = defaultdict(list)
        twins: dict[tuple[str, str, str], dict[str, float]] = defaultdict(dict)
        for folder in folders:
            rubric = _rubrics(folder)[rubric_kind]
            for line in (folder / "answers.jsonl").read_text(encoding="utf-8").splitlines():
                if not line.strip():
                    continue
                item = json.loads(line)
                grade = grader.grade(rubric, item["question_id"], item["answer"])
                out.setdefault(rubric_kind, {})[item["id"]] = grade.score
                label = _label(item, _rubrics(folder)["author"], "author")
                assert label is not None
                scores.append(grade.score)
                labels.append(label)
                by_kind[item["kind"]].append((grade.score, label))
                twins[(folder.name, item["question_id"], "")][item["kind"]] = grade.score
        err = np.abs(np.array(scores) - np.array(labels))
        lo, hi = _bootstrap(list(err))
        print(f"\n## cross-source, graded against the {rubric_kind} rubric "
              f"({len(scores)} answers, labels from the authors' points)")
        print(f"answer Spearman {_spearman(scores, labels):.3f}   MAE {err.mean():.3f} "
              f"[{lo:.3f}, {hi:.3f}]")
        print(f"{'kind':<18} {'n':>3} {'score':>6} {'label':>6} {'diff':>6}")
        for kind in sorted(by_kind):
            s = np.array([x for x, _ in by_kind[kind]])
            la = np.array([y for _, y in by_kind[kind]])
            print(f"{kind:<18} {len(s):>3} {s.mean():6.2f} {la.mean():6.2f} {s.mean() - la.mean():+6.2f}")
        for a, b in TWINS:
            gaps = [v[a] - v[b] for v in twins.values() if a in v and b in v]
            if gaps:
                print(f"twin gap {a} - {b}: mean {np.mean(gaps):+.3f} "
                      f"(|gap| <= 0.10 in {np.mean(np.abs(gaps) <= 0.10):.0%} of {len(gaps)})")
        wrong = [x for k in WRONG for x, _ in by_kind.get(k, [])]
        terms = [x for k in TERMS for x, _ in by_kind.get(k, [])]
        para = [x for x, _ in by_kind.get("paraphrase", [])]
        print(f"wrong answers mean {np.mean(wrong):.2f} (target <= 0.15); term lists "
              f"{np.mean(terms):.2f} (<= 0.20); paraphrases {np.mean(para):.2f} (>= 0.90)")


def contrast(grader, out: dict) -> None:
    api = _api()
    load_bank, load_rubric, rubric_for_bank = api["load_bank"], api["load_rubric"], api["rubric_for_bank"]

    def rubric_of(bank_id: str):
        if bank_id.startswith("xs-"):
            return load_rubric(DATA / "xsource" / bank_id.removeprefix("xs-") / "rubric.yaml")
        return rubric_for_bank(load_bank(ROOT / "bank" / f"{bank_id}.md")).rubric

    held: dict[str, dict[str, list[bool]]] = defaultdict(lambda: defaultdict(list))
    for path in sorted((DATA / "contrast").glob("*.jsonl")):
        split = "cross-source" if path.stem.startswith("xs-") else "shipped"
        rubric = rubric_of(path.stem)
        verdicts: dict[tuple[str, str], str] = {}
        cases = [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        for case in cases:
            grade = grader.grade(rubric, case["question_id"], case["answer"])
            verdict = next(p.verdict for p in grade.points if p.point_id == case["point_id"])
            verdicts[(case["point_id"], case["kind"])] = verdict
            out.setdefault("contrast", {})[case["id"]] = verdict
        for (pid, kind), verdict in verdicts.items():
            if kind == "reworded":
                held[split]["reworded covers"].append(verdict == "covered")
            elif kind in NOT_COVER:
                held[split][f"{kind} does not cover"].append(verdict != "covered")
                held[split][f"{kind} earns nothing"].append(verdict in ("missed", "contradicted"))
                held[split][f"{kind} is shown as contradicted"].append(verdict == "contradicted")
            elif kind == "bare_named":
                held[split]["bare name at most partial"].append(verdict != "covered")
            elif kind in ("translated", "translated_terms"):
                original = verdicts.get((pid, "reworded"))
                if original is not None:
                    held[split][f"{kind}: same verdict as reworded"].append(verdict == original)
                held[split][f"{kind} covers"].append(verdict == "covered")
    for split, rates in held.items():
        print(f"\n## contrast cases, {split} banks")
        for name, values in rates.items():
            print(f"{name:<42} {np.mean(values):6.1%}  (n={len(values)})")


def paired(base: dict, now: dict, xsource_labels: dict[str, float]) -> None:
    ids = sorted(set(base.get("author", {})) & set(now.get("author", {})))
    diff = [abs(now["author"][i] - xsource_labels[i]) - abs(base["author"][i] - xsource_labels[i])
            for i in ids]
    lo, hi = _bootstrap(diff)
    print(f"\npaired answer-MAE difference (this run - base) on {len(ids)} cross-source answers: "
          f"{np.mean(diff):+.4f}, 95% interval [{lo:+.4f}, {hi:+.4f}]")


def _xsource_labels(sets: list[str]) -> dict[str, float]:
    out = {}
    for folder in _folders(sets):
        author = _rubrics(folder)["author"]
        for line in (folder / "answers.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                item = json.loads(line)
                out[item["id"]] = _label(item, author, "author")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--json", type=Path, help="write every answer's score here")
    parser.add_argument("--paired", type=Path, help="a --json file of another run to pair with")
    parser.add_argument("--only", choices=("xsource", "contrast"))
    parser.add_argument("--sets", default="xsource",
                        help="comma-separated answer sets under bench/data (default: xsource; "
                             "the second held-out sets: xsource-heldout,seed-hand)")
    args = parser.parse_args(argv)
    grader = _grader()
    out: dict = {}
    sets = [x for x in args.sets.split(",") if x]
    if args.only in (None, "xsource"):
        cross_source(grader, out, sets)
    if args.only in (None, "contrast"):
        contrast(grader, out)
    if args.paired:
        paired(json.loads(args.paired.read_text()), out, _xsource_labels(sets))
    if args.json:
        args.json.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.path.append(str(ROOT))  # after PYTHONPATH, so another checkout can be measured
    raise SystemExit(main())
