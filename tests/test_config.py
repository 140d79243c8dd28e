from __future__ import annotations

from pathlib import Path

import pytest

from interviewer.config import discover_settings, parse_duration
from interviewer.errors import ConfigError


def write_config(home: Path, text: str) -> None:
    home.mkdir(parents=True, exist_ok=True)
    (home / "config.toml").write_text(text, encoding="utf-8")


def test_defaults_without_config(isolated_home: Path) -> None:
    s = discover_settings()
    assert s.bank == "ai-infra-zh" and s.model == "default" and s.time_limit == 300
    assert s.config_path == isolated_home / "config.toml"
    assert s.data_dir == isolated_home
    assert s.llm.enabled is False and s.llm.api_key_env == "OPENAI_API_KEY"


def test_precedence_defaults_config_env_flags(isolated_home: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write_config(isolated_home, 'bank = "from-file"\ntime_limit = "2m"\nmodel = "file-model"\n'
                 '[llm]\nbase_url = "http://file"\nmodel = "m"\ntimeout = 5\n')
    s = discover_settings()
    assert (s.bank, s.time_limit, s.model, s.llm.base_url, s.llm.timeout) == \
        ("from-file", 120, "file-model", "http://file", 5.0)
    monkeypatch.setenv("INTERVIEWER_BANK", "from-env")
    monkeypatch.setenv("OPENAI_BASE_URL", "http://env")
    s = discover_settings()
    assert (s.bank, s.llm.base_url, s.model) == ("from-env", "http://env", "file-model")
    s = discover_settings(overrides={"bank": "from-flag", "model": None, "llm.timeout": 1.0})
    assert (s.bank, s.model, s.llm.timeout) == ("from-flag", "file-model", 1.0)


@pytest.mark.parametrize("text, fragment, line", [
    ('bank = "x"\ntime_limit = \n', "invalid TOML", 2),
    ('colour = "red"\n', "unknown key 'colour'", None),
    ('[llm]\napi_key = "sk-secret"\n', "unknown key 'llm.api_key'", None),
    ('time_limit = "soon"\n', "time_limit", None),
    ('count = true\n', "count", None),
])
def test_bad_config_gives_one_line_error(isolated_home: Path, text: str, fragment: str,
                                         line: int | None) -> None:
    write_config(isolated_home, text)
    with pytest.raises(ConfigError) as info:
        discover_settings()
    assert fragment in str(info.value)
    assert str(isolated_home / "config.toml") in str(info.value)
    assert info.value.line == line


def test_bad_env_value(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("INTERVIEWER_TIME_LIMIT", "later")
    with pytest.raises(ConfigError, match="INTERVIEWER_TIME_LIMIT"):
        discover_settings()


@pytest.mark.parametrize("value, seconds", [
    (300, 300), ("90s", 90), ("5m", 300), ("1m30s", 90), ("1h", 3600), ("45", 45), ("2.5m", 150)])
def test_parse_duration(value, seconds) -> None:
    assert parse_duration(value) == seconds


@pytest.mark.parametrize("value", ["", "soon", "0", "-5", "5x"])
def test_parse_duration_rejects(value) -> None:
    with pytest.raises(ValueError):
        parse_duration(value)
