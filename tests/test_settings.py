"""Settings: the environment and .env read by pydantic-settings, blank meaning unset, one-line errors, secrets kept
out of reprs, and no other module reading the environment."""
from __future__ import annotations

import ast
import os
from pathlib import Path

import pytest

from pipeline import cli
from pipeline.errors import ConfigError
from pipeline.settings import Settings, revealed, unset_in_environment

REPO = Path(__file__).resolve().parents[1]


def test_environment_sets_every_documented_knob(tmp_path: Path, environment: pytest.MonkeyPatch) -> None:
    for var, value in {"KGQA_HOME": str(tmp_path), "KGQA_GENERATOR": "tgi", "KGQA_SHOTS": "5", "KGQA_KG": "snapshot",
                       "KGQA_TGI_URL": "http://127.0.0.1:9", "KGQA_CHROMA_URL": "http://127.0.0.1:8",
                       "SCIQA_DIR": "/data/sciqa", "SEED_DIR": "/data/seed", "KGQA_EMBEDDING_MODEL": "other/model",
                       "KGQA_KG_TIMEOUT": "2.5", "KGQA_MAINTAINERS": "U1, U2", "HF_HUB_OFFLINE": "1",
                       "XDG_CACHE_HOME": "/data/cache"}.items():
        environment.setenv(var, value)
    s = Settings.from_env(dotenv=None)
    assert (s.home, s.generator, s.shots, s.kg) == (tmp_path, "tgi", 5, "snapshot")
    assert (s.tgi_url, s.chroma_url, s.sciqa_dir) == ("http://127.0.0.1:9", "http://127.0.0.1:8", Path("/data/sciqa"))
    assert s.embedding_model == "other/model" and s.kg_timeout == 2.5 and s.maintainer_ids == {"U1", "U2"}
    assert s.seed_dir == Path("/data/seed") and s.hf_offline and s.encoder_dir == Path("/data/cache/kgqa")


def test_dotenv_is_read_and_the_environment_wins(tmp_path: Path, environment: pytest.MonkeyPatch) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("# team settings\nexport KGQA_SHOTS=1\nKGQA_KG='snapshot'\nKGQA_WORKERS=2\n"
                      "OTHER_TOOL=yes\n", encoding="utf-8")  # another tool's variable is left to that tool
    environment.setenv("KGQA_SHOTS", "3")
    s = Settings.from_env(dotenv=dotenv)
    assert (s.shots, s.kg, s.workers) == (3, "snapshot", 2)
    assert Settings.from_env(dotenv=tmp_path / "missing.env").kg == "auto"  # no file: nothing from it


def test_a_blank_variable_counts_as_unset(tmp_path: Path, environment: pytest.MonkeyPatch) -> None:
    dotenv = tmp_path / ".env"
    dotenv.write_text("KGQA_KG=snapshot\nKGQA_TGI_URL=\n", encoding="utf-8")
    for var in ("KGQA_TGI_URL", "KGQA_DEADLINE", "KGQA_SHOTS", "KGQA_KG"):
        environment.setenv(var, "")
    s = Settings.from_env(dotenv=dotenv)
    assert (s.tgi_url, s.deadline, s.shots, s.kg) == (None, 90.0, 3, "snapshot")


def test_what_is_not_set_is_none_and_zero_turns_a_limit_off(environment: pytest.MonkeyPatch) -> None:
    s = Settings()
    assert (s.generator, s.tgi_url, s.chroma_url, s.redis_url, s.local_model, s.min_similarity) == (None,) * 6
    environment.setenv("KGQA_DEADLINE", "0")
    environment.setenv("KGQA_LOCAL_THREADS", "0")
    read = Settings.from_env(dotenv=None)
    assert (read.deadline, read.local_threads) == (None, None) and s.with_(deadline=0).deadline is None


def test_settings_built_in_code_read_no_environment(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("KGQA_SHOTS", "5")
    assert Settings().shots == 3 and Settings.from_env(dotenv=None).shots == 5
    assert Settings.from_env(dotenv=None, shots=1).shots == 1  # an override wins over the environment


def test_secrets_never_show_in_repr(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("SLACK_BOT_TOKEN", "xoxb-secret-1")
    environment.setenv("SLACK_SIGNING_SECRET", "shh-2")
    s = Settings.from_env(dotenv=None)
    assert "xoxb-secret-1" not in repr(s) and "shh-2" not in repr(s)
    assert sorted(s.secrets()) == ["shh-2", "xoxb-secret-1"]


def test_an_unset_secret_is_none_and_a_set_one_prints_as_stars(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("SLACK_SIGNING_SECRET", "shh-2")
    environment.setenv("SLACK_APP_TOKEN", "  ")  # blank: unset
    s = Settings.from_env(dotenv=None)
    assert s.slack_bot_token is None and s.slack_app_token is None and s.mcp_token is None
    assert Settings(openai_api_key="").openai_api_key is None  # in code too: unset is None, never ""
    assert revealed(s.slack_signing_secret) == "shh-2" and revealed(s.with_(shots=1).slack_signing_secret) == "shh-2"
    printed = f"{s.slack_signing_secret} {s.slack_signing_secret!r} {s.model_dump()} {s.model_dump_json()}"
    assert "shh-2" not in printed and "**********" in printed


def test_a_bad_secret_is_named_but_never_echoed() -> None:
    with pytest.raises(ConfigError) as bad:
        Settings.from_env(dotenv=None, slack_bot_token=["xoxb-leaked-3"], redis_url=["redis://:pw-4@cache/0"])
    assert "SLACK_BOT_TOKEN=***" in str(bad.value) and "KGQA_REDIS_URL=***" in str(bad.value)
    assert "xoxb-leaked-3" not in str(bad.value) and "pw-4" not in str(bad.value)


def test_redis_settings_are_read_and_the_password_kept_out_of_sight(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("KGQA_REDIS_URL", "rediss://:pw-123@cache:6380/0")
    environment.setenv("KGQA_REDIS_TIMEOUT", "0.2")
    settings = Settings.from_env(dotenv=None)
    assert settings.redis_url == "rediss://:pw-123@cache:6380/0" and settings.redis_timeout == 0.2
    assert "pw-123" in settings.secrets() and "pw-123" not in repr(settings)
    assert Settings().secrets() == [] and "redis_url=None" in repr(Settings())  # the default: state stays local


def test_a_variable_is_taken_out_of_the_environment(environment: pytest.MonkeyPatch) -> None:
    environment.setenv("SLACK_BOT_TOKEN", "xoxb-secret-1")
    settings = Settings.from_env(dotenv=None)
    unset_in_environment("slack_bot_token")
    assert "SLACK_BOT_TOKEN" not in os.environ and revealed(settings.slack_bot_token) == "xoxb-secret-1"


@pytest.mark.parametrize("var, value, says", [("KGQA_SHOTS", "three", "input should be 1, 3 or 5"),
                                              ("KGQA_RETRIEVAL", "typo", "input should be 'form' or 'plain'"),
                                              ("KGQA_LLM_FALLBACK", "x", "input should be 'adapter' or 'none'"),
                                              ("KGQA_WORKERS", "0", "input should be greater than or equal to 1"),
                                              ("KGQA_DEADLINE", "-1", "input should be greater than 0")])
def test_a_bad_value_is_one_line_naming_the_variable(var: str, value: str, says: str,
                                                     environment: pytest.MonkeyPatch) -> None:
    environment.setenv(var, value)
    environment.setenv("SLACK_BOT_TOKEN", "xoxb-secret-1")
    with pytest.raises(ConfigError) as raised:
        Settings.from_env(dotenv=None)
    assert str(raised.value) == f"{var}={value}: {says}"


@pytest.mark.parametrize("var, value", [("KGQA_SHOTS", "three"), ("KGQA_RETRIEVAL", "typo"),
                                        ("KGQA_LLM_FALLBACK", "x")])
def test_kgqa_says_which_variable_is_wrong_in_one_line(var: str, value: str, tmp_path: Path,
                                                       environment: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    environment.chdir(tmp_path)  # no .env from the developer's checkout
    environment.setenv(var, value)
    assert cli.main(["lookup", "anything"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"kgqa: {var}={value}: input should be ")


def test_overrides_and_with_are_checked_too(environment: pytest.MonkeyPatch) -> None:
    s = Settings.from_env(dotenv=None, shots=1)
    assert s.shots == 1 and s.with_(shots=5, kg="snapshot").shots == 5 and s.with_(shots=None).shots == 1
    with pytest.raises(ConfigError, match="^KGQA_SHOTS=2: input should be 1, 3 or 5$"):
        s.with_(shots=2)
    with pytest.raises(ConfigError, match="shotz"):
        s.with_(shotz=3)


ENVIRONMENT = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def reads_environment(tree: ast.AST) -> bool:
    """``os.environ``, ``os.getenv`` and the like, or one of them imported from ``os``."""
    return any((isinstance(node, ast.Attribute) and node.attr in ENVIRONMENT)
               or (isinstance(node, ast.ImportFrom) and node.module == "os"
                   and any(a.name in ENVIRONMENT for a in node.names)) for node in ast.walk(tree))


@pytest.mark.parametrize("source, bad", [("import os\nos.environ.get('X')", True), ("import os\nos.getenv('X')", True),
                                         ("from os import environ\nenviron['X']", True),
                                         ("import os\nos.environ.pop('X', None)", True),
                                         ("import os\nos.path.join('a', 'b')", False)])
def test_the_scan_sees_the_environment_read(source: str, bad: bool) -> None:
    assert reads_environment(ast.parse(source)) is bad


def test_only_settings_reads_the_environment() -> None:
    """Every knob is read once, by Settings; stand-ins (which play other processes) may read their own."""
    files = [f for folder in ("pipeline", "bot") for f in sorted((REPO / folder).rglob("*.py"))
             if "standins" not in f.relative_to(REPO).parts and f != REPO / "pipeline" / "settings.py"]
    assert files
    offending = [str(f.relative_to(REPO)) for f in files
                 if reads_environment(ast.parse(f.read_text(encoding="utf-8"), str(f)))]
    assert not offending, f"read the environment through pipeline.settings: {offending}"
