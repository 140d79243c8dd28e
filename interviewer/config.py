"""Settings from one place: defaults < config TOML < environment < command-line flags.

The config file is ``$INTERVIEWER_HOME/config.toml`` or, without that variable, the
XDG config dir (``~/.config/interviewer/config.toml``). API keys are never stored in
settings: only the *name* of the environment variable that holds one.
"""

from __future__ import annotations

import os
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any, Mapping

from interviewer.errors import ConfigError
from interviewer.paths import config_dir, data_dir

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
    """Seconds from ``300``, ``"90s"``, ``"5m"``, ``"1m30s"`` or ``"1h"``.

    A bare number is seconds in the config file and the environment; what a person types
    (the command line, the setup screen) must say its unit, since "10" reads as minutes to
    some and seconds to others.
    """
    if isinstance(value, bool):
        raise ValueError("not a duration")
    if isinstance(value, (int, float)):
        seconds = float(value)
    else:
        m = _DURATION.match(value)
        if not m or not any(m.groups()):
            raise ValueError(f"'{value}' is not a duration like 90s, 5m or 1m30s")
        if unit_required and re.fullmatch(r"\s*\d+(?:\.\d+)?\s*", value):
            raise ValueError(f"'{value.strip()}' needs a unit: {value.strip()}m for minutes, "
                             f"{value.strip()}s for seconds")
        h, mi, s = (float(g) if g else 0.0 for g in m.groups())
        seconds = h * 3600 + mi * 60 + s
    if seconds <= 0:
        raise ValueError("a duration must be more than 0 seconds")
    return seconds


# config-file key -> (settings field, converter)
_TOP_KEYS = {"bank": str, "model": str, "time_limit": parse_duration, "count": int,
             "shuffle": bool, "embedding_base_url": str, "embedding_api_key_env": str}
_LLM_KEYS = {"enabled": bool, "base_url": str, "model": str, "api_key_env": str,
             "timeout": float, "max_followups": int}
_ENV = {
    "INTERVIEWER_BANK": ("bank", str),
    "INTERVIEWER_MODEL": ("model", str),
    "INTERVIEWER_TIME_LIMIT": ("time_limit", parse_duration),
    "INTERVIEWER_COUNT": ("count", int),
    "INTERVIEWER_EMBEDDING_BASE_URL": ("embedding_base_url", str),
}


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("0", "false", "no", "off", ""):
        return False
    raise ValueError(f"'{value}' is not true or false")


def _convert(conv: Any, value: Any) -> Any:
    if conv is bool:
        return _to_bool(value)
    if conv is int and isinstance(value, bool):
        raise ValueError("expected a whole number")
    return conv(value)


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
    path = config_dir(env) / "config.toml"
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
                    llm[lk] = _convert(_LLM_KEYS[lk], lv)
                except (TypeError, ValueError) as exc:
                    raise ConfigError(f"llm.{lk}: {exc}", path=path) from None
        elif key in _TOP_KEYS:
            try:
                values[key] = _convert(_TOP_KEYS[key], value)
            except (TypeError, ValueError) as exc:
                raise ConfigError(f"{key}: {exc}", path=path) from None
        else:
            raise ConfigError(f"unknown key '{key}'", path=path,
                              hint=f"known: {', '.join([*_TOP_KEYS, 'llm'])}")
    for var, (key, conv) in _ENV.items():
        if env.get(var):
            try:
                values[key] = _convert(conv, env[var])
            except (TypeError, ValueError) as exc:
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
