"""Slack's side for scripts/container_check.sh: the Web API stand-in on this host, and signed mentions delivered to
bots running in containers. Prints the stand-in's Web API URL, then reads one JSON request a line from stdin,
``{"bots": [base URL, ...], "question": "..."}``: the same event (one event_id) goes to every bot, as a load balancer
and Slack's retries may bring it to any replica; once they are idle, prints ``{"once", "statuses", "answers", "text"}``.
Run as ``PYTHONPATH=. .venv/bin/python scripts/container_slack.py``; ends at end of input."""
from __future__ import annotations

import json
import sys
from typing import Any

from standins.harness import is_answer, shown
from standins.replicas import Replica, mention, settle
from standins.slack.api import SlackAPIServer

ANSWER_TIMEOUT_S = 180


class Running(Replica):
    """A bot someone else started (here: a container), reached at ``base``; Replica's Slack-side methods."""

    def __init__(self, base: str) -> None:  # no process of ours to start
        self.base = base.rstrip("/")
        self.url = self.base + "/slack/events"


def ask(slack: SlackAPIServer, bases: list[str], question: str) -> dict[str, Any]:
    """One mention delivered to every bot; how many answers came back once all of them are idle."""
    slack.reset()
    bots: list[Replica] = [Running(base) for base in bases]
    event = mention(question, "CCHECK")
    event_id = "EvCheck" + event["ts"].replace(".", "")
    statuses = [bot.event(event, event_id, retry_num=None if i == 0 else i) for i, bot in enumerate(bots)]
    first = slack.wait_for(is_answer, timeout=ANSWER_TIMEOUT_S)[0]
    settle(bots, timeout=ANSWER_TIMEOUT_S)
    answers = sum(map(is_answer, slack.calls))
    return {"once": answers == 1 and set(statuses) == {200}, "statuses": statuses, "answers": answers,
            "text": shown(first)[:300]}


def main() -> int:
    with SlackAPIServer() as slack:
        print(slack.url, flush=True)
        for line in sys.stdin:
            request = json.loads(line)
            print(json.dumps(ask(slack, request["bots"], request["question"])), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
