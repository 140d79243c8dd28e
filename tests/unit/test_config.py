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


@pytest.mark.parametrize("text, message", [
    ("count = 3.7\n", "count must be a whole number ≥ 1, got 3.7"),
    ("count = -5\n", "count must be a whole number ≥ 1, got -5"),
    ("count = 0\n", "count must be a whole number ≥ 1, got 0"),
    ("bank = 5\n", "bank must be a string, got 5"),
    ('bank = ["a"]\n', "bank must be a string, got ['a']"),
    ("model = true\n", "model must be a string"),
    ("time_limit = inf\n", "time_limit must be a finite duration"),
    ("time_limit = nan\n", "time_limit must be a finite duration"),
    ("time_limit = -1\n", "time_limit must be more than 0 seconds"),
    ('shuffle = "maybe"\n', "shuffle must be true or false"),
    ("[llm]\ntimeout = -1\n", "llm.timeout must be a finite number of seconds > 0, got -1"),
    ("[llm]\ntimeout = inf\n", "llm.timeout must be a finite number of seconds > 0"),
    ("[llm]\ntimeout = nan\n", "llm.timeout must be a finite number of seconds > 0"),
    ('[llm]\ntimeout = "5"\n', "llm.timeout must be a finite number of seconds > 0"),
    ("[llm]\nmax_followups = 1.5\n", "llm.max_followups must be a whole number ≥ 0, got 1.5"),
    ("[llm]\nmax_followups = -1\n", "llm.max_followups must be a whole number ≥ 0, got -1"),
    ("[llm]\nbase_url = 3\n", "llm.base_url must be a string"),
    ("[llm]\nenabled = 1\n", "llm.enabled must be true or false"),
    ('[llm]\ncheck_points = "yes"\n', "llm.check_points must be true or false"),
])
def test_every_config_key_is_type_checked(isolated_home: Path, text: str, message: str) -> None:
    write_config(isolated_home, text)
    with pytest.raises(ConfigError) as info:
        discover_settings()
    assert str(info.value).startswith(f"{isolated_home / 'config.toml'}: {message}"), str(info.value)


def test_good_config_values_keep_their_types(isolated_home: Path) -> None:
    write_config(isolated_home, 'count = 3\ntime_limit = 90\nshuffle = true\n'
                 '[llm]\ntimeout = 5\nmax_followups = 0\ncheck_points = true\n')
    s = discover_settings()
    assert (s.count, s.time_limit, s.shuffle, s.llm.timeout, s.llm.max_followups,
            s.llm.check_points) == (3, 90.0, True, 5.0, 0, True)


@pytest.mark.parametrize("var, value, fragment", [
    ("INTERVIEWER_COUNT", "3.7", "INTERVIEWER_COUNT: must be a whole number ≥ 1, got 3.7"),
    ("INTERVIEWER_COUNT", "-5", "INTERVIEWER_COUNT: must be a whole number ≥ 1, got -5"),
    ("INTERVIEWER_TIME_LIMIT", "inf", "INTERVIEWER_TIME_LIMIT"),
])
def test_environment_values_are_checked_and_blamed_on_the_variable(
        monkeypatch: pytest.MonkeyPatch, var: str, value: str, fragment: str) -> None:
    monkeypatch.setenv(var, value)
    with pytest.raises(ConfigError) as info:
        discover_settings()
    assert fragment in str(info.value) and "config.toml" not in str(info.value)


@pytest.mark.parametrize("value", [float("inf"), float("nan"), "inf", "nan", -1.0])
def test_parse_duration_rejects_non_finite(value) -> None:
    with pytest.raises(ValueError):
        parse_duration(value)


def test_flag_errors_blame_the_flag_and_file_errors_blame_the_file(isolated_home: Path) -> None:
    from helpers import run_cli

    code, _, err = run_cli("run", "--count", "-5")
    assert code == 2 and "--count" in err and "config.toml" not in err
    code, _, err = run_cli("run", "--time-limit", "inf")
    assert code == 2 and "--time-limit" in err
    write_config(isolated_home, "count = -5\n")
    code, _, err = run_cli("points")
    assert code == 2 and "config.toml: count must be a whole number ≥ 1, got -5" in err
    assert "--count" not in err
