"""Fast stand-ins for the embedding model, for unit and Pilot tests.

The real bundled model is exercised in tests marked ``integration``.
"""

from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence

import numpy as np

DIM = 256


def _grams(text: str) -> list[str]:
    t = "".join(ch.lower() for ch in text if not ch.isspace())
    return [t[i:i + 2] for i in range(max(1, len(t) - 1))]


class BigramEmbedder:
    """Bag of hashed character bigrams: similar strings get similar vectors."""

    model_id = "test/bigram"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.calls.append(list(texts))
        out = np.zeros((len(texts), DIM), dtype=np.float32)
        for row, text in enumerate(texts):
            for g in _grams(text):
                h = int.from_bytes(hashlib.blake2b(g.encode(), digest_size=4).digest(), "little")
                out[row, h % DIM] += 1.0
            norm = np.linalg.norm(out[row])
            if norm:
                out[row] /= norm
        return out


class GatedEmbedder(BigramEmbedder):
    """Blocks until ``release()``: a model that is still loading."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()

    def release(self) -> None:
        self.gate.set()

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.gate.wait(timeout=30)
        return super().embed(texts)


class BrokenEmbedder(BigramEmbedder):
    def embed(self, texts: Sequence[str]) -> np.ndarray:
        raise RuntimeError("model files are corrupt")
