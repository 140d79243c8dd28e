"""``interviewer calibrate``: fit a model's verdict thresholds and similarity cut-offs
from labeled answers."""

from __future__ import annotations

import argparse
from pathlib import Path

from interviewer import factory
from interviewer.cli.common import Context, catalog
from interviewer.cli.registry import command
from interviewer.errors import InputError
from interviewer.outpath import check_writable


def _arguments(cal: argparse.ArgumentParser) -> None:
    cal.add_argument("--labels", type=Path, required=True, action="append",
                     help="labeled JSONL (repeatable)")
    cal.add_argument("--model", help="embedding model name or path (default: configured)")
    cal.add_argument("--out", type=Path, help="calibration file (default: <data dir>/calibration.json)")


@command("calibrate", "fit a model's verdict thresholds from labeled answers", _arguments)
def calibrate(ctx: Context, args: argparse.Namespace) -> int:
    from dataclasses import replace

    from interviewer.grading.calibration import fit_scorer, save_scorer
    from interviewer.grading.cutoffs import cutoff_samples, fit_cutoffs
    from interviewer.grading.labels import collect_features

    settings = ctx.settings
    target = check_writable(args.out or factory.calibration_file(settings),
                            make_parents=args.out is None)
    grader = factory.make_grader(settings)
    evidence: list = []  # one pass over the answers serves the scorer and the cut-offs
    rows, labels = collect_features(grader, args.labels, catalog(settings, ctx.err), ctx.err,
                                    evidence)
    if labels.size < 2:
        raise InputError("no usable labeled answers", path=args.labels[0])
    scorer = fit_scorer(rows, labels, source=", ".join(p.name for p in args.labels))
    scorer = replace(scorer, cutoffs=fit_cutoffs(*cutoff_samples(evidence)))
    save_scorer(grader.model_id, scorer, target)
    ctx.out.write(f"{grader.model_id}: covered if p >= {scorer.covered:.2f}, partial if p >= "
                  f"{scorer.partial:.2f} (n={labels.size} points, point MAE "
                  f"{scorer.metrics['point_mae']:.3f}, covered F1 "
                  f"{scorer.metrics['covered_f1']:.3f} on the labels it was fitted to; restates "
                  f"the question at similarity >= {scorer.cutoff('parrot_similarity'):.2f}); "
                  f"saved to {target}\n")
    return 0
