"""Killed mid-index or mid-answer (SIGKILL, no chance to clean up): on restart the store is consistent (the right count,
searches work, approved team pairs all there) and pending proposals are intact."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from bot.state.proposals.base import MAX_PENDING
from bot.state.proposals.file import Proposals
from pipeline.records import Example
from pipeline.store.chroma import ChromaStore, team_id
from pipeline.store.connection import open_client
from standins.fakes import HashEncoder
from standins.harness import MAINTAINER, STORY_CLOZE, button_value, is_answer
from standins.replicas import ROOT, Replica, mention, proc_env, run_proc
from standins.slack.api import SlackAPIServer
from standins.tgi import TGIServer

TRAIN = 1795
TEAM = [("Which robot vacuum maps a kitchen best?", "SELECT ?x WHERE { ?x ?p 'vacuum' }"),
        ("Who benchmarks espresso grinders?", "SELECT ?x WHERE { ?x ?p 'espresso' }")]


def test_a_rebuild_killed_mid_way_leaves_the_old_store_whole(tmp_path: Path, sciqa_dir: Path) -> None:
    env = proc_env(tmp_path / "home", sciqa_dir)
    assert run_proc(env, "index", "--team", *[part for pair in TEAM for part in pair])["count"] == TRAIN + len(TEAM)
    before = run_proc(env, "check")
    assert before["count"] == TRAIN + len(TEAM)
    with subprocess.Popen([sys.executable, "-m", "standins.proc", "index", "--rebuild", "--delay", "0.3"], env=env,
                          cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True) as rebuild:
        assert rebuild.stdout is not None
        first = rebuild.stdout.readline()  # a batch is in the new collection: the rebuild is half-way
        rebuild.kill()
    assert first.startswith("progress") and rebuild.returncode == -9

    after = run_proc(env, "check")
    assert after == before  # same count, same team pairs, each found first by a search, same fingerprint
    assert all(after["found_first"].values())


def test_a_crash_between_the_swaps_renames_puts_the_previous_store_back(tmp_path: Path) -> None:
    client = open_client(tmp_path / "chroma")
    store = ChromaStore(client, HashEncoder(), "examples")
    store.add([Example("q1", "What is a benchmark?", "SELECT 1", "T01"), *[
        Example(team_id(q), q, s, "", "team") for q, s in TEAM]])
    client.get_collection("examples").modify(name="examples-old")  # the first rename happened, the second did not
    client.create_collection("examples-building")  # and the new collection was never finished
    reopened = ChromaStore(client, HashEncoder(), "examples")
    assert reopened.count() == 3 and len(reopened.examples("team")) == 2
    assert [r.example.id for r in reopened.search(TEAM[0][0], 1)] == [team_id(TEAM[0][0])]


def test_a_bot_killed_mid_answer_loses_nothing_approved_or_proposed(tmp_path: Path, sciqa_dir: Path) -> None:
    env = proc_env(tmp_path / "home", sciqa_dir, KGQA_KG="snapshot", KGQA_MAINTAINERS=MAINTAINER,
                   KGQA_TGI_TIMEOUT="30", KGQA_DEADLINE="60")
    run_proc(env, "index", "--team", *TEAM[0])
    proposals = tmp_path / "home" / "bot" / "proposals.json"
    with TGIServer(hang_seconds=60) as tgi, SlackAPIServer() as slack:
        bot = Replica(env, slack.url, tmp_path / "bot.log", KGQA_TGI_URL=tgi.url)
        tgi.set_fault("500")  # the adapter answers: a right answer, worth a 👍
        assert bot.event(mention(STORY_CLOZE, "C1"), "EvCrash1") == 200
        [answer] = slack.wait_for(is_answer, timeout=60)
        assert bot.click("kgqa_up", button_value(answer, "kgqa_up"), user="U1", channel="C1",
                         response_url=slack.response_url("up")) == 200
        [dm] = slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params.get("channel") == MAINTAINER)
        proposal = button_value(dm, "kgqa_approve")

        tgi.set_fault("hang")
        generations = len(tgi.requests)
        assert bot.event(mention("What models are evaluated on the CoQA dataset?", "C2"), "EvCrash2") == 200
        slack.wait_for(lambda c: c.params.get("channel") == "C2" and "Working" in str(c.params.get("text")))
        while len(tgi.requests) == generations:  # until the question is with the model: the bot is mid-answer
            assert bot.proc.poll() is None
            tgi._closed.wait(0.02)  # a bounded pause between polls of the condition above
        bot.kill()

        assert [p.id for p in Proposals(proposals, MAX_PENDING).pending()] == [proposal]
        assert json.loads(proposals.read_text(encoding="utf-8"))[0]["question"] == STORY_CLOZE
        tgi.set_fault(None)

        again = Replica(env, slack.url, tmp_path / "bot-again.log", KGQA_TGI_URL=tgi.url)
        assert again.click("kgqa_approve", proposal, user=MAINTAINER, channel=MAINTAINER,
                           response_url=slack.response_url("approve")) == 200
        slack.wait_for(lambda c: c.method == "chat.update" and "approved" in str(c.params.get("text")), timeout=60)
        assert again.event(mention("What models are evaluated on the CoQA dataset?", "C3"), "EvCrash3") == 200
        slack.wait_for(lambda c: is_answer(c) and c.params.get("channel") == "C3", timeout=60)
        assert again.stop() == 0
    after = run_proc(env, "check")
    assert after["count"] == TRAIN + 2 and team_id(STORY_CLOZE) in after["team"]
    assert all(after["found_first"].values()) and Proposals(proposals, MAX_PENDING).pending() == []
