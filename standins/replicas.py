"""Bot processes for the tests that kill them or run several: ``python -m standins.proc bot`` (``python -m bot``'s
main with hashed-word embeddings) in HTTP mode on a free loopback port, against the Slack Web API stand-in."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import Any

from standins.harness import SECRET, TOKEN, click_payload, new_ts
from standins.processes import free_port
from standins.slack.signing import post_event, post_interaction

ROOT = Path(__file__).resolve().parents[2]
START_TIMEOUT_S = 60


def proc_env(home: Path, sciqa_dir: Path, **extra: str) -> dict[str, str]:
    """A clean environment: nothing from the developer's shell but PATH, plus the bot's settings."""
    return {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "KGQA_HOME": str(home), "SCIQA_DIR": str(sciqa_dir),
            "HF_HUB_OFFLINE": "1", "KGQA_SLACK_SURFACE": "classic", **extra}


def run_proc(env: dict[str, str], *args: str) -> dict[str, Any]:
    """One store command in its own process; its last line of output, parsed."""
    done = subprocess.run([sys.executable, "-m", "standins.proc", *args], env=env, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return dict(json.loads(done.stdout.strip().splitlines()[-1]))


class Replica:
    """One bot process; ``url`` takes events, ``kill()`` is SIGKILL, ``stop()`` SIGTERM (finish what is in hand)."""

    def __init__(self, env: dict[str, str], slack_api: str, log: Path, **settings: str) -> None:
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.url = self.base + "/slack/events"
        self.log = log
        env = {**env, "SLACK_BOT_TOKEN": TOKEN, "SLACK_SIGNING_SECRET": SECRET, "SLACK_API_URL": slack_api,
               "KGQA_HTTP_PORT": str(self.port), "KGQA_HTTP_HOST": "127.0.0.1", **settings}
        with log.open("ab") as out:
            self.proc = subprocess.Popen([sys.executable, "-m", "standins.proc", "bot"], env=env, cwd=ROOT,
                                         stdout=out, stderr=subprocess.STDOUT)
        self._wait_ready()

    def _wait_ready(self) -> None:
        """Until /healthz answers (200, or 503 while the store warms up); a bounded poll of a condition."""
        deadline = time.monotonic() + START_TIMEOUT_S
        while self.health() is None:
            if self.proc.poll() is not None or time.monotonic() > deadline:
                raise AssertionError(f"the bot did not start: {self.log.read_text()[-3000:]}")
            try:
                self.proc.wait(timeout=0.05)
            except subprocess.TimeoutExpired:
                pass

    def health(self) -> dict[str, Any] | None:
        try:
            with urllib.request.urlopen(self.base + "/healthz", timeout=5) as response:
                return dict(json.loads(response.read()))
        except urllib.error.HTTPError as err:
            with err:
                return dict(json.loads(err.read()))
        except OSError:
            return None

    def idle(self) -> bool:
        report = self.health() or {}
        workers = report.get("workers", {})
        return bool(workers) and workers.get("running") == 0 and workers.get("queued") == 0

    def event(self, event: dict[str, Any], event_id: str, retry_num: int | None = None) -> int:
        status, _ = post_event(self.url, SECRET, event, event_id=event_id, retry_num=retry_num, timeout=30)
        return status

    def click(self, action_id: str, value: str, *, user: str, channel: str, response_url: str) -> int:
        payload = click_payload(action_id, value, user=user, channel=channel, message_ts=new_ts(),
                                response_url=response_url)
        status, _ = post_interaction(self.url, SECRET, payload)
        return status

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(timeout=30)

    def stop(self) -> int:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
        return self.proc.wait(timeout=60)


def settle(replicas: list[Replica], timeout: float = 60) -> None:
    """Until every replica's workers are idle (polled through /healthz)."""
    deadline = time.monotonic() + timeout
    while not all(r.idle() for r in replicas):
        assert time.monotonic() < deadline, "the replicas did not settle"
        threading.Event().wait(0.05)  # between polls of the condition above


def mention(text: str, channel: str, user: str = "U1") -> dict[str, Any]:
    ts = new_ts()
    return {"type": "app_mention", "user": user, "text": f"<@UBOT> {text}", "ts": ts, "channel": channel,
            "event_ts": ts, "team": "T1"}
