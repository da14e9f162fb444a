"""Settings from `TICTACTOE_<FIELD>` variables (pydantic-settings): empty lists are empty, a rate
is both its numbers, and a bad value stops `tictactoe serve` with a message naming it."""

from __future__ import annotations

import pytest

from tictactoe.server.serve_command import _settings
from tictactoe.server.settings import BadSetting, Settings


def test_variables_override_the_defaults_and_an_empty_list_is_empty(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TICTACTOE_TRUSTED_PROXIES", "")
    monkeypatch.setenv("TICTACTOE_ALLOWED_ORIGINS", " https://a.example , https://b.example ")
    monkeypatch.setenv("TICTACTOE_JOIN_RATE", "2.5,10")
    monkeypatch.setenv("TICTACTOE_METRICS", "1")
    monkeypatch.setenv("TICTACTOE_PUBLIC_URL", "")
    settings = Settings.from_environment(database_url="memory://")
    assert settings.trusted_proxies == ()
    assert settings.allowed_origins == ("https://a.example", "https://b.example")
    assert settings.join_rate == (2.5, 10)
    assert settings.metrics is True and settings.public_url is None
    assert settings.database_url == "memory://"
    assert Settings() == Settings(), "code-built settings never read the environment"


@pytest.mark.parametrize(
    ("variable", "value", "said"),
    [
        ("TICTACTOE_MOVE_RATE", "5", "Field required at 1"),
        ("TICTACTOE_MOVE_RATE", "2.5,10.5", "valid integer"),
        ("TICTACTOE_CREATE_RATE", "0,10", "greater than 0"),
        ("TICTACTOE_METRICS", "perhaps", "valid boolean"),
        ("TICTACTOE_MAX_BODY_BYTES", "lots", "valid integer"),
    ],
)
def test_a_bad_value_is_refused_naming_its_variable(
    monkeypatch: pytest.MonkeyPatch, variable: str, value: str, said: str
) -> None:
    monkeypatch.setenv(variable, value)
    with pytest.raises(BadSetting, match=f"^{variable}={value}: .*{said}"):
        Settings.from_environment()
    with pytest.raises(SystemExit, match=f"tictactoe serve: {variable}="):
        _settings()


def test_settings_are_immutable() -> None:
    settings = Settings()
    with pytest.raises(ValueError, match="frozen"):
        settings.max_body_bytes = 1  # type: ignore[misc]
