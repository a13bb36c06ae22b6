"""Teaching, human-gated: 👍 proposes, only a maintainer's approval stores, and the next lookup finds it."""
from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pipeline.errors import StoreError
from standins.fakes import RecordingKG
from standins.harness import MAINTAINER, STORY_CLOZE, Harness, button_value, shown


def thumbs_up(bot: Harness) -> Any:
    """Ask, 👍 the answer, and return the proposal the maintainer received."""
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    assert bot.click("kgqa_up", button_value(answer, "kgqa_up"), reply="up") == 200
    assert "a maintainer will review it" in shown(bot.replies("up")[0])
    [proposal] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params["channel"] == MAINTAINER)
    return proposal


def team_pairs(bot: Harness) -> list[Any]:
    return bot.pipeline.store.examples("team")  # type: ignore[attr-defined, no-any-return]


def lookup(bot: Harness, name: str) -> str:
    bot.command("/kgqa", f"lookup {STORY_CLOZE}", reply=name)
    return shown(bot.replies(name)[0])


def test_thumbs_up_then_maintainer_approval_adds_the_pair_that_lookup_then_finds(bot: Harness) -> None:
    proposal = thumbs_up(bot)
    assert "Story Cloze Test" in shown(proposal) and "<@U1> says this answer was right" in shown(proposal)
    assert team_pairs(bot) == []

    bot.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user=MAINTAINER, channel="DMAINT")
    [closed] = bot.slack.wait_for(lambda c: c.method == "chat.update" and "approved" in c.params.get("text", ""))
    assert closed.params["channel"] == "DMAINT" and "is now `team-" in closed.params["text"]

    [pair] = team_pairs(bot)
    assert pair.question == STORY_CLOZE and 'FILTER (str(?dataset_lbl) = "Story Cloze Test")' in pair.sparql
    assert pair.source == "team" and pair.id.startswith("team-")
    assert f"*1.00* · team `{pair.id}`" in lookup(bot, "after")
    journal = (bot.settings.home / "team-pairs.jsonl").read_text(encoding="utf-8").splitlines()
    assert [json.loads(line) for line in journal] == [{"id": pair.id, "question": pair.question,
                                                       "sparql": pair.sparql}]


def test_thumbs_up_alone_stores_nothing(bot: Harness) -> None:
    thumbs_up(bot)
    assert team_pairs(bot) == [] and "team `team-" not in lookup(bot, "before")
    assert not (bot.settings.home / "team-pairs.jsonl").exists()


def test_approval_by_someone_who_is_not_a_maintainer_stores_nothing(bot: Harness) -> None:
    proposal = thumbs_up(bot)
    bot.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user="U1", reply="self")
    assert "Only a maintainer" in shown(bot.replies("self")[0])
    assert team_pairs(bot) == [] and "team `team-" not in lookup(bot, "lookup")
    assert not [c for c in bot.slack.calls_to("chat.update") if "approved" in c.params.get("text", "")]


def test_a_rejected_proposal_stores_nothing_and_cannot_be_approved_later(bot: Harness) -> None:
    proposal = thumbs_up(bot)
    pid = button_value(proposal, "kgqa_reject")
    bot.click("kgqa_reject", pid, user=MAINTAINER, channel="DMAINT")
    bot.slack.wait_for(lambda c: c.method == "chat.update" and "rejected" in c.params.get("text", ""))
    bot.click("kgqa_approve", pid, user=MAINTAINER, channel="DMAINT", reply="late")
    assert "already decided" in shown(bot.replies("late")[0])
    assert team_pairs(bot) == []


def test_a_second_thumbs_up_on_the_same_pair_does_not_ask_again(bot: Harness) -> None:
    thumbs_up(bot)
    [answer] = bot.answers()
    bot.click("kgqa_up", button_value(answer, "kgqa_up"), user="U2", reply="again")
    assert "already waiting" in shown(bot.replies("again")[0])
    assert len([c for c in bot.slack.calls_to("chat.postMessage") if c.params["channel"] == MAINTAINER]) == 1


def test_thumbs_down_is_noted_and_changes_nothing(bot: Harness) -> None:
    bot.mention(STORY_CLOZE)
    bot.click("kgqa_down", button_value(bot.answers()[0], "kgqa_down"), reply="down")
    assert "noted that this answer was wrong" in shown(bot.replies("down")[0])
    assert team_pairs(bot) == [] and not [c for c in bot.slack.calls_to("chat.postMessage")
                                          if c.params["channel"] == MAINTAINER]


def test_a_bad_maintainer_id_stops_no_one(start_bot: Callable[..., Harness]) -> None:
    """A DM to a bad id in KGQA_MAINTAINERS raised and ended the loop: later maintainers were never told and the
    proposer never heard back."""
    bot = start_bot(maintainers=f"UAAABAD,{MAINTAINER}")
    bot.mention(STORY_CLOZE)
    [answer] = bot.answers()
    bot.slack.fail_next("chat.postMessage", status=200, error="channel_not_found")  # the DM to UAAABAD ("UA" < "UM")
    assert bot.click("kgqa_up", button_value(answer, "kgqa_up"), reply="up") == 200
    assert "a maintainer will review it" in shown(bot.replies("up")[0])
    [proposal] = bot.slack.wait_for(lambda c: c.method == "chat.postMessage" and c.params["channel"] == MAINTAINER)
    assert "Story Cloze Test" in shown(proposal)


def test_an_approval_while_the_store_is_down_keeps_the_proposal_and_says_so(bot: Harness,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """The approval took the proposal, the store failed in the worker, and the pair was gone with no word to anyone."""
    proposal = thumbs_up(bot)
    store = bot.pipeline.store

    def down(examples: Any) -> int:
        raise StoreError("the example store at http://chroma:8000 could not be reached")

    monkeypatch.setattr(store, "add", down)
    bot.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user=MAINTAINER, channel="DMAINT", reply="down")
    said = shown(bot.replies("down")[0])
    assert "could not be reached" in said and "The proposal is kept" in said
    monkeypatch.undo()
    bot.click("kgqa_approve", button_value(proposal, "kgqa_approve"), user=MAINTAINER, channel="DMAINT")
    bot.slack.wait_for(lambda c: c.method == "chat.update" and "approved" in c.params.get("text", ""))
    assert [p.question for p in team_pairs(bot)] == [STORY_CLOZE]


def test_a_taught_pair_keeps_the_question_not_the_chatter_around_it(start_bot: Callable[..., Harness]) -> None:
    bot = start_bot(kg=RecordingKG())
    question = "Which models were evaluated on the Story Cloze Test dataset by the team?"
    bot.command("/kgqa", f'teach hey, quick one: {question} thanks! ||| SELECT ?m WHERE {{ ?m rdfs:label "x" }}',
                user=MAINTAINER)
    assert "Added `team-" in shown(bot.replies("cmd")[0])
    assert [p.question for p in team_pairs(bot)] == [question]
