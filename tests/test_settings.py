"""Settings: environment and .env reading, secrets kept out of reprs."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline import cli
from pipeline.errors import ConfigError
from pipeline.settings import Settings, variables


def test_environment_sets_every_documented_knob(tmp_path: Path) -> None:
    env = {"KGQA_HOME": str(tmp_path), "KGQA_GENERATOR": "tgi", "KGQA_SHOTS": "5", "KGQA_KG": "snapshot",
           "KGQA_TGI_URL": "http://127.0.0.1:9", "KGQA_CHROMA_URL": "http://127.0.0.1:8", "SCIQA_DIR": "/data/sciqa",
           "KGQA_EMBEDDING_MODEL": "other/model", "KGQA_KG_TIMEOUT": "2.5", "KGQA_MAINTAINERS": "U1, U2"}
    s = Settings.from_env(env=env, dotenv=None)
    assert (s.home, s.generator, s.shots, s.kg) == (tmp_path, "tgi", 5, "snapshot")
    assert (s.tgi_url, s.chroma_url, s.sciqa_dir) == ("http://127.0.0.1:9", "http://127.0.0.1:8", Path("/data/sciqa"))
    assert s.embedding_model == "other/model" and s.kg_timeout == 2.5 and s.maintainer_ids == {"U1", "U2"}


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# team settings\nexport KGQA_SHOTS=1\nKGQA_KG='snapshot'\n", encoding="utf-8")
    s = Settings.from_env(env={"KGQA_SHOTS": "3"}, dotenv=dotenv)
    assert s.shots == 3 and s.kg == "snapshot"


def test_defaults_work_offline_and_overrides_apply() -> None:
    s = Settings.from_env(env={}, dotenv=None, shots=1)
    assert s.shots == 1 and s.kg == "auto" and s.generator == "" and s.embedding_model.endswith("all-MiniLM-L6-v2")


def test_secrets_never_show_in_repr() -> None:
    s = Settings.from_env(env={"SLACK_BOT_TOKEN": "xoxb-secret-1", "SLACK_SIGNING_SECRET": "shh-2"}, dotenv=None)
    assert "xoxb-secret-1" not in repr(s) and "shh-2" not in repr(s)
    assert sorted(s.secrets()) == ["shh-2", "xoxb-secret-1"]


def test_redis_settings_are_read_and_the_password_kept_out_of_sight() -> None:
    settings = Settings.from_env(env={"KGQA_REDIS_URL": "rediss://:pw-123@cache:6380/0", "KGQA_REDIS_TIMEOUT": "0.2"},
                                 dotenv=None)
    assert settings.redis_url == "rediss://:pw-123@cache:6380/0" and settings.redis_timeout == 0.2
    assert "pw-123" in settings.secrets() and "pw-123" not in repr(settings)
    assert Settings.from_env(env={}, dotenv=None).redis_url == ""  # the default: no Redis, state stays local


@pytest.mark.parametrize("var, value, says", [("KGQA_SHOTS", "three", "input should be 1, 3 or 5"),
                                              ("KGQA_RETRIEVAL", "typo", "input should be 'form' or 'plain'"),
                                              ("KGQA_LLM_FALLBACK", "x", "input should be 'adapter' or 'none'"),
                                              ("KGQA_WORKERS", "0", "input should be greater than or equal to 1")])
def test_a_bad_value_is_one_line_naming_the_variable(var: str, value: str, says: str) -> None:
    with pytest.raises(ConfigError) as raised:
        Settings.from_env(env={var: value, "SLACK_BOT_TOKEN": "xoxb-secret-1"}, dotenv=None)
    assert str(raised.value) == f"{var}={value}: {says}"


@pytest.mark.parametrize("var, value", [("KGQA_SHOTS", "three"), ("KGQA_RETRIEVAL", "typo"),
                                        ("KGQA_LLM_FALLBACK", "x")])
def test_kgqa_says_which_variable_is_wrong_in_one_line(var: str, value: str, tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)  # no .env from the developer's checkout
    monkeypatch.setenv(var, value)
    assert cli.main(["lookup", "anything"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kgqa: {var}={value}: input should be ")


def test_overrides_and_with_are_checked_too() -> None:
    s = Settings.from_env(env={"KGQA_SHOTS": "5"}, dotenv=None, shots=1)
    assert s.shots == 1 and s.with_(shots=5, kg="snapshot").shots == 5 and s.with_(shots=None).shots == 1
    with pytest.raises(ConfigError, match="^KGQA_SHOTS=2: input should be 1, 3 or 5$"):
        s.with_(shots=2)
    with pytest.raises(ConfigError, match="shotz"):
        s.with_(shotz=3)


def test_settings_built_in_code_read_no_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KGQA_SHOTS", "5")
    assert Settings().shots == 3 and Settings.from_env(dotenv=None).shots == 5


def test_every_setting_is_in_the_readme_configuration_table() -> None:
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
    table = readme.split("## Configuration", 1)[1].split("\n## ", 1)[0]
    missing = [var for var in variables().values() if f"`{var}`" not in table]
    assert not missing, f"add to README's configuration table: {missing}"
