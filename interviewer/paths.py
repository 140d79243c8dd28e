"""Where things live: shipped banks, the user's config and data.

Shipped banks and rubrics sit at the top of the repository (``bank/``, ``rubrics/``)
so that they are easy to edit. A wheel carries them inside the package as
``interviewer/_shipped/``; a checkout or an editable install finds them beside the
package. Both layouts are tried, wheel first.
"""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_path, user_data_path

APP_NAME = "interviewer"
HOME_ENV = "INTERVIEWER_HOME"

_PACKAGE_DIR = Path(__file__).resolve().parent


def shipped_root() -> Path:
    """The directory holding the shipped ``bank/`` and ``rubrics/``."""
    inside = _PACKAGE_DIR / "_shipped"
    if (inside / "bank").is_dir():
        return inside
    return _PACKAGE_DIR.parent


def shipped_bank_dir() -> Path:
    return shipped_root() / "bank"


def _home_override(env: os._Environ[str] | dict[str, str] | None = None) -> Path | None:
    value = (env if env is not None else os.environ).get(HOME_ENV)
    return Path(value).expanduser() if value else None


def config_dir(env: dict[str, str] | None = None) -> Path:
    """``$INTERVIEWER_HOME`` if set, else the XDG config dir (``~/.config/interviewer``)."""
    return _home_override(env) or user_config_path(APP_NAME)


def data_dir(env: dict[str, str] | None = None) -> Path:
    """``$INTERVIEWER_HOME`` if set, else the XDG data dir (``~/.local/share/interviewer``)."""
    return _home_override(env) or user_data_path(APP_NAME)


def rubric_path_for(bank_path: Path, bank_id: str) -> Path:
    """The rubric that belongs to a bank file.

    A bank in a directory named ``bank`` has its rubric in the sibling ``rubrics/``
    (the repository layout); any other bank file has it in ``rubrics/`` beside it.
    """
    parent = bank_path.resolve().parent
    root = parent.parent if parent.name == "bank" else parent
    return root / "rubrics" / f"{bank_id}.yaml"
