"""`python -m bot` refuses to start half-configured, and says what is missing."""
from __future__ import annotations

import logging
import socket
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.health import TIMEOUT_S, TTL_S, Health
from bot.home import help_message, home_view
from pipeline.core import Pipeline
from standins.harness import MAINTAINER

SLACK_VARS = ("SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_API_URL")


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    monkeypatch.chdir(tmp_path)  # no .env from the developer's checkout
    for var in SLACK_VARS:
        monkeypatch.delenv(var, raising=False)
    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):  # main() installs its own handler; give pytest's back
        root.removeHandler(handler)
    for handler in handlers:
        root.addHandler(handler)
    root.setLevel(level)


def test_main_needs_a_bot_token(clean_env: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main() == 2
    assert "set SLACK_BOT_TOKEN" in capsys.readouterr().err


def test_main_needs_an_app_token_or_a_signing_secret(clean_env: None, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-never-printed")
    assert main() == 2
    err = capsys.readouterr().err
    assert "SLACK_APP_TOKEN" in err and "SLACK_SIGNING_SECRET" in err and "xoxb-never-printed" not in err


def test_python_dash_m_bot_runs_main(tmp_path: Path) -> None:
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "set SLACK_BOT_TOKEN" in done.stderr


def test_help_home_and_status_describe_the_setup(make_pipeline: Callable[..., Pipeline]) -> None:
    pipeline = make_pipeline()
    maintainers = frozenset({MAINTAINER})
    help_text = str(help_message(pipeline, maintainers).blocks)
    assert "/sparql" in help_text and "`snapshot`" in help_text and f"<@{MAINTAINER}>" in help_text
    assert home_view(pipeline, frozenset())["type"] == "home"
    assert "none configured" in str(home_view(pipeline, frozenset()))
    report = Health(pipeline, None, None, ttl=TTL_S, timeout=TIMEOUT_S)()
    assert report["ok"] is True and report["store"]["pairs"] == 80 and report["degraded"] == []
    assert (report["generator"], report["kg"], report["shots"]) == ("adapter", "snapshot", 3)


def test_main_says_so_when_slack_cannot_be_reached(clean_env: None, monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path, sciqa_dir: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
        for name, value in {"SLACK_BOT_TOKEN": "xoxb-never-printed", "SLACK_SIGNING_SECRET": "s3cr3t-never-printed",
                            "SLACK_API_URL": f"http://127.0.0.1:{sock.getsockname()[1]}/api/",
                            "KGQA_HOME": str(tmp_path / "home"), "SCIQA_DIR": str(sciqa_dir),
                            "KGQA_KG": "snapshot"}.items():
            monkeypatch.setenv(name, value)
        assert main() == 2
    err = capsys.readouterr().err
    assert "cannot reach Slack's Web API" in err and "Connection refused" in err and "Traceback" not in err
    assert "never-printed" not in err


@pytest.mark.parametrize("var, value", [("KGQA_SHOTS", "three"), ("KGQA_RETRIEVAL", "typo"),
                                        ("KGQA_LLM_FALLBACK", "x")])
def test_main_says_which_setting_is_wrong_in_one_line(clean_env: None, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str], var: str,
                                                      value: str) -> None:
    monkeypatch.setenv("SLACK_BOT_TOKEN", "xoxb-never-printed")
    monkeypatch.setenv(var, value)
    assert main() == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and f"cannot start: {var}={value}: input should be " in lines[0]
    assert "xoxb-never-printed" not in lines[0]
