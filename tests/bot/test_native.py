"""The result as Slack's native table and the feedback buttons, held to the limits Slack enforces (the stand-in's
Block Kit checks)."""
from __future__ import annotations

import json

from bot.native import FEEDBACK
from bot.render import RESULT_FILE, render_answer
from pipeline.records import Rows
from standins.slack.agent import blocks_error
from tests.bot.test_render import R, answer, lit, uri


def test_500_rows_show_99_in_the_table_and_the_whole_result_attached() -> None:
    rows = Rows(["paper", "paper_lbl", "code"], [
        {"paper": uri(f"{R}R{n}"), "paper_lbl": lit(f"Title {n}"), "code": lit(f"https://git/{n}")} for n in range(500)])
    message = render_answer(answer(rows), feedback="{}", native=True)
    assert blocks_error(message.blocks) is None
    [table] = [b for b in message.blocks if b["type"] == "table"]
    assert len(table["rows"]) == 100 and [c["text"] for c in table["rows"][0]] == ["paper", "code"]
    assert "Title 0" in json.dumps(table["rows"][1]) and "https://orkg.org/resource/R0" in json.dumps(table["rows"][1])
    title = next(b["text"]["text"] for b in message.blocks if b["type"] == "section")
    assert title.startswith("*Answer* · 500 rows — showing the first 99 rows;") and RESULT_FILE in title
    [attached] = message.files
    assert attached.filename == RESULT_FILE and len(attached.content.splitlines()) == 501


def test_more_than_20_columns_show_20_and_attach_the_rest() -> None:
    names = [f"v{n}" for n in range(25)]
    rows = Rows(names, [{v: lit(f"{v}-x") for v in names}])
    message = render_answer(answer(rows), feedback="{}", native=True)
    assert blocks_error(message.blocks) is None
    [table] = [b for b in message.blocks if b["type"] == "table"]
    assert len(table["rows"][0]) == 20 and message.files and "the first 20 columns" in json.dumps(message.blocks)


def test_a_yes_no_answer_stays_a_line_and_feedback_is_slacks_feedback_buttons() -> None:
    message = render_answer(answer(Rows([], [], True)), feedback='{"q":"x","s":"ASK {}"}', native=True)
    assert blocks_error(message.blocks) is None and "table" not in [b["type"] for b in message.blocks]
    assert "*Answer:* yes" in json.dumps(message.blocks)
    [buttons] = [b for b in message.blocks if b["type"] == "context_actions"]
    element = buttons["elements"][0]
    assert element["type"] == "feedback_buttons" and element["action_id"] == FEEDBACK
    assert element["positive_button"]["value"] == '{"q":"x","s":"ASK {}"}'
    assert element["negative_button"]["value"] == "down"


def test_empty_cells_are_never_sent_empty() -> None:
    rows = Rows(["a", "b"], [{"a": lit("")}])  # an empty literal, and an unbound variable
    message = render_answer(answer(rows), feedback="{}", native=True)
    assert blocks_error(message.blocks) is None
