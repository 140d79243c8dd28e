"""Settings from one place: defaults < config TOML < environment < command-line flags.

The config file is ``$INTERVIEWER_HOME/config.toml`` or, without that variable, the
XDG config dir (``~/.config/interviewer/config.toml``). API keys are never stored in
settings: only the *name* of the environment variable that holds one.
"""

from __future__ import annotations

import math
import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

from interviewer.errors import ConfigError
from interviewer.paths import HOME_ENV, config_dir, data_dir

DEFAULT_BANK = "ai-infra-zh"
DEFAULT_MODEL = "default"


@dataclass(frozen=True)
class LLMSettings:
    enabled: bool = False
    base_url: str | None = None
    model: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 20.0
    max_followups: int = 1
    check_points: bool = False  # the LLM reads the credited points of every grade again


@dataclass(frozen=True)
class Settings:
    bank: str = DEFAULT_BANK
    model: str = DEFAULT_MODEL
    time_limit: float = 300.0  # seconds per question
    count: int | None = None  # questions per interview; None = all
    shuffle: bool = False
    embedding_base_url: str | None = None  # for model = "openai:NAME"
    embedding_api_key_env: str = "INTERVIEWER_EMBEDDING_API_KEY"
    config_path: Path | None = None
    data_dir: Path = field(default_factory=Path)
    llm: LLMSettings = field(default_factory=LLMSettings)

    @property
    def bank_dirs(self) -> list[Path]:
        from interviewer.paths import shipped_bank_dir
        return [shipped_bank_dir(), self.data_dir / "bank"]


_DURATION = re.compile(r"^\s*(?:(\d+(?:\.\d+)?)\s*h)?\s*(?:(\d+(?:\.\d+)?)\s*m)?\s*"
                       r"(?:(\d+(?:\.\d+)?)\s*s?)?\s*$")


def parse_duration(value: str | int | float, unit_required: bool = False) -> float:
    """Seconds from ``300``, ``"90s"``, ``"5m"``, ``"1m30s"`` or ``"1h"``; finite and > 0.

    A bare number is seconds in the config file and the environment; what a person types
    (the command line, the setup screen) must say its unit, since "10" reads as minutes to
    some and seconds to others.
    """
    if isinstance(value, bool):
        raise ValueError("not a duration")
    if isinstance(value, (int, float)):
        seconds = float(value)
    elif isinstance(value, str):
        m = _DURATION.match(value)
        if not m or not any(m.groups()):
            raise ValueError(f"'{value}' is not a duration like 90s, 5m or 1m30s")
        if unit_required and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value):
            raise ValueError(f"'{value.strip()}' needs a unit: {value.strip()}m for minutes, "
                             f"{value.strip()}s for seconds")
        h, mi, s = (float(g) if g else 0.0 for g in m.groups())
        seconds = h * 3600 + mi * 60 + s
    else:
        raise ValueError(f"a duration like 90s, 5m or 1m30s, got {value!r}")
    if not math.isfinite(seconds):
        raise ValueError(f"a finite duration, got {value!r}")
    if seconds <= 0:
        raise ValueError("a duration must be more than 0 seconds")
    return seconds


# Each key's declared type and range. A checker takes the value as the TOML file typed it,
# or as the text of an environment variable (``text=True``), and returns it converted or
# raises ValueError("must be …, got …").


def _string(value: Any, text: bool = False) -> str:
    if not isinstance(value, str):
        raise ValueError(f"must be a string, got {value!r}")
    return value


def _boolean(value: Any, text: bool = False) -> bool:
    if isinstance(value, bool):
        return value
    if text and isinstance(value, str):
        word = value.strip().lower()
        if word in ("1", "true", "yes", "on"):
            return True
        if word in ("0", "false", "no", "off", ""):
            return False
    raise ValueError(f"must be true or false, got {value!r}")


def _whole(minimum: int):
    def check(value: Any, text: bool = False) -> int:
        if text and isinstance(value, str) and re.fullmatch(r"\s*[+-]?\d+\s*", value):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
            shown = value if text or isinstance(value, (int, float)) and \
                not isinstance(value, bool) else repr(value)
            raise ValueError(f"must be a whole number ≥ {minimum}, got {shown}")
        return value
    return check


def _seconds(value: Any, text: bool = False) -> float:
    if text and isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            pass
    if isinstance(value, bool) or not isinstance(value, (int, float)) \
            or not math.isfinite(value) or value <= 0:
        shown = value if text or isinstance(value, (int, float)) and \
            not isinstance(value, bool) else repr(value)
        raise ValueError(f"must be a finite number of seconds > 0, got {shown}")
    return float(value)


def _duration(value: Any, text: bool = False) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        if not math.isfinite(value):
            raise ValueError(f"must be a finite duration, got {value}")
        if value <= 0:
            raise ValueError(f"must be more than 0 seconds, got {value}")
    try:
        return parse_duration(value)
    except ValueError:
        shown = value if text else repr(value)
        raise ValueError(f"must be a duration like 90s, 5m or 1m30s, got {shown}") from None


_TOP_KEYS = {"bank": _string, "model": _string, "time_limit": _duration, "count": _whole(1),
             "shuffle": _boolean, "embedding_base_url": _string,
             "embedding_api_key_env": _string}
_LLM_KEYS = {"enabled": _boolean, "base_url": _string, "model": _string,
             "api_key_env": _string, "timeout": _seconds, "max_followups": _whole(0),
             "check_points": _boolean}
_ENV = {
    "INTERVIEWER_BANK": ("bank", _string),
    "INTERVIEWER_MODEL": ("model", _string),
    "INTERVIEWER_TIME_LIMIT": ("time_limit", _duration),
    "INTERVIEWER_COUNT": ("count", _whole(1)),
    "INTERVIEWER_EMBEDDING_BASE_URL": ("embedding_base_url", _string),
}


def _read_config(path: Path) -> dict[str, Any]:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return {}
    except OSError as exc:
        raise ConfigError(f"cannot read config: {exc.strerror}", path=path) from None
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError("config is not UTF-8 text", path=path) from None
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"\(at line (\d+)", str(exc))
        msg = re.sub(r"\s*\(at line.*\)$", "", str(exc))
        raise ConfigError(f"invalid TOML: {msg}", path=path,
                          line=int(m.group(1)) if m else None) from None


def discover_settings(env: Mapping[str, str] | None = None,
                      overrides: Mapping[str, Any] | None = None) -> Settings:
    """The one place settings come from; CLI and tests both call it."""
    env = dict(os.environ if env is None else env)
    home = config_dir(env)
    if home.exists() and not home.is_dir():
        where = f"{HOME_ENV}={home}" if env.get(HOME_ENV) else str(home)
        raise ConfigError(f"{where} is not a directory",
                          hint="point it at a folder, which is created when missing")
    path = home / "config.toml"
    values: dict[str, Any] = {}
    llm: dict[str, Any] = {}
    data = _read_config(path)
    for key, value in data.items():
        if key == "llm":
            if not isinstance(value, dict):
                raise ConfigError("[llm] must be a table", path=path)
            for lk, lv in value.items():
                if lk not in _LLM_KEYS:
                    raise ConfigError(f"unknown key 'llm.{lk}'", path=path,
                                      hint=f"known: {', '.join(_LLM_KEYS)}")
                try:
                    llm[lk] = _LLM_KEYS[lk](lv)
                except ValueError as exc:
                    raise ConfigError(f"llm.{lk} {exc}", path=path) from None
        elif key in _TOP_KEYS:
            try:
                values[key] = _TOP_KEYS[key](value)
            except ValueError as exc:
                raise ConfigError(f"{key} {exc}", path=path) from None
        else:
            raise ConfigError(f"unknown key '{key}'", path=path,
                              hint=f"known: {', '.join([*_TOP_KEYS, 'llm'])}")
    for var, (key, conv) in _ENV.items():
        if env.get(var):
            try:
                values[key] = conv(env[var], text=True)
            except ValueError as exc:
                raise ConfigError(f"environment variable {var}: {exc}") from None
    if env.get("OPENAI_BASE_URL"):
        llm["base_url"] = env["OPENAI_BASE_URL"]
    if env.get("INTERVIEWER_LLM_MODEL"):
        llm["model"] = env["INTERVIEWER_LLM_MODEL"]
    for key, value in (overrides or {}).items():
        if value is None:
            continue
        if key.startswith("llm."):
            llm[key[4:]] = value
        else:
            values[key] = value
    known = {f.name for f in fields(Settings)}
    settings = Settings(**{k: v for k, v in values.items() if k in known},
                        config_path=path, data_dir=data_dir(env))
    return replace(settings, llm=replace(LLMSettings(), **llm))
