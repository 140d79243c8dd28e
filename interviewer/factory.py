"""The one place the working parts are built from the settings: embedder, grader, store,
prober.

The CLI, the TUI, bench/ and the tests all build them here, so the grader is the same
whoever asks. File I/O is decided here and injected: the grader gets its disk cache inside
its embedder and its calibration as a function read on the first grade; it opens nothing
itself. Heavy modules (numpy, the encoders) are imported inside the functions, so that
importing this module costs nothing at launch.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable

    from interviewer.content.catalog import BankCatalog
    from interviewer.config import Settings
    from interviewer.grading.deferred import DeferredGrader
    from interviewer.grading.encoders.backends import Embedder
    from interviewer.grading.grader import Grader
    from interviewer.grading.calibration import Scorer
    from interviewer.grading.process import ProcessGrader
    from interviewer.followups.prober import LLMProber, Prober
    from interviewer.sessions.store import Store

CALIBRATION_FILE = "calibration.json"
CACHE_DIR = "cache"


def calibration_file(settings: Settings) -> Path:
    """The user's calibration file (the shipped one is read after it)."""
    return settings.data_dir / CALIBRATION_FILE


def make_catalog(settings: Settings, warn: Callable[[str], None] | None = None) -> BankCatalog:
    """The banks of the configured directories; ``warn`` hears of a file skipped or shadowed."""
    from interviewer.content.catalog import BankCatalog

    return BankCatalog(settings.bank_dirs, warn=warn)


def make_embedder(settings: Settings) -> Embedder:
    """The configured model, through the one registry of names (:data:`interviewer.grading.encoders.names.EMBEDDERS`)."""
    from interviewer.grading.encoders.backends import make_embedder as embedder_named

    return embedder_named(settings.model, base_url=settings.embedding_base_url,
                          api_key=os.environ.get(settings.embedding_api_key_env))


def build_grader(embedder: Embedder, *, scorer: Scorer | None = None,
                 calibration_file: Path | None = None, cache_dir: Path | None = None) -> Grader:
    """A grader over ``embedder``: rubric vectors kept in ``cache_dir`` (if given); the
    scorer given, else the one calibrated for the model in ``calibration_file`` or the
    shipped file, read on the first grade."""
    from interviewer.grading.calibration import scorer_for
    from interviewer.grading.encoders.backends import CachingEmbedder
    from interviewer.grading.grader import Grader

    if not isinstance(embedder, CachingEmbedder):
        disk = None
        if cache_dir is not None:
            from interviewer.grading.encoders.cache import DiskCache

            disk = DiskCache(cache_dir / "embeddings.sqlite")
        embedder = CachingEmbedder(embedder, disk=disk)
    model_id = embedder.model_id
    return Grader(embedder, scorer if scorer is not None else
                  (lambda: scorer_for(model_id, calibration_file)))


def make_grader(settings: Settings) -> Grader:
    """The configured model's grader, with the data directory's cache and calibration."""
    return build_grader(make_embedder(settings), calibration_file=calibration_file(settings),
                        cache_dir=settings.data_dir / CACHE_DIR)


def deferred_grader(settings: Settings) -> DeferredGrader:
    """The TUI's grader, built in its loading worker: numpy and the encoder stay off the
    first frame. The model name is checked now, so a name that cannot work fails before
    the TUI starts. ``make_grader`` is looked up when the worker runs."""
    from interviewer.grading.deferred import DeferredGrader
    from interviewer.grading.encoders.names import model_id_for

    return DeferredGrader(lambda: make_grader(settings),
                          model_id_for(settings.model, settings.embedding_base_url))


def tui_grader(settings: Settings, python: str | None = None) -> ProcessGrader:
    """The TUI's grader: a child process (``python``, this interpreter unless given) keeps
    the model and grades, so a grade does not hold the interface's interpreter lock. It
    starts when the app warms the grader up, after the first frame; if it cannot start or
    dies, :func:`deferred_grader` grades in this process. Only plain data goes to the child."""
    from interviewer.grading.process import ProcessGrader

    return ProcessGrader({"model": settings.model, "embedding_base_url": settings.embedding_base_url,
                          "embedding_api_key_env": settings.embedding_api_key_env,
                          "data_dir": str(settings.data_dir)},
                         deferred_grader(settings), python=python)


def require_calibrated(settings: Settings) -> None:
    """A served model nobody calibrated is refused before any work, with the command
    that fixes it."""
    from interviewer.grading.encoders.names import require_calibrated as refuse_uncalibrated

    refuse_uncalibrated(settings.model, settings.embedding_base_url, calibration_file(settings))


def open_store(settings: Settings) -> Store:
    """The session database in the data directory."""
    from interviewer.sessions.store import Store

    return Store.open(settings.data_dir)


def make_prober(settings: Settings) -> Prober:
    """The configured LLM for follow-ups; without one, templates with a notice saying so."""
    from interviewer.followups.prober import make_prober as prober_for

    return prober_for(settings.llm)


def llm_prober(settings: Settings) -> LLMProber:
    """The configured LLM itself (``rubric build --llm``): no template stands in for it."""
    from interviewer.followups.prober import LLMProber

    return LLMProber(settings.llm)
