"""Settings: environment and .env reading, secrets kept out of reprs."""
from __future__ import annotations

from pathlib import Path

from pipeline.settings import Settings


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
