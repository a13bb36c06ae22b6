"""The result as Slack's native table and the feedback buttons, held to the limits Slack enforces (the stand-in's
Block Kit checks)."""
from __future__ import annotations

import json

from bot.native import FEEDBACK, Kit
from bot.render import RESULT_FILE, render_answer
from pipeline.records import Rows
from standins.slack.blocks import blocks_error
from tests.bot.test_render import R, answer, lit, uri


def test_500_rows_show_99_in_the_table_and_the_whole_result_attached() -> None:
    rows = Rows(["paper", "paper_lbl", "code"], [
        {"paper": uri(f"{R}R{n}"), "paper_lbl": lit(f"Title {n}"), "code": lit(f"https://git/{n}")}
        for n in range(500)])
    message = render_answer(answer(rows), feedback="{}", kit=Kit.TABLE)
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
    message = render_answer(answer(rows), feedback="{}", kit=Kit.TABLE)
    assert blocks_error(message.blocks) is None
    [table] = [b for b in message.blocks if b["type"] == "table"]
    assert len(table["rows"][0]) == 20 and message.files and "the first 20 columns" in json.dumps(message.blocks)


def test_a_yes_no_answer_stays_a_line_and_feedback_is_slacks_feedback_buttons() -> None:
    message = render_answer(answer(Rows([], [], True)), feedback='{"q":"x","s":"ASK {}"}', kit=Kit.TABLE)
    assert blocks_error(message.blocks) is None and "table" not in [b["type"] for b in message.blocks]
    assert "*Answer:* yes" in json.dumps(message.blocks)
    [buttons] = [b for b in message.blocks if b["type"] == "context_actions"]
    element = buttons["elements"][0]
    assert element["type"] == "feedback_buttons" and element["action_id"] == FEEDBACK
    assert element["positive_button"]["value"] == '{"q":"x","s":"ASK {}"}'
    assert element["negative_button"]["value"] == "down"


def test_empty_cells_are_never_sent_empty() -> None:
    rows = Rows(["a", "b"], [{"a": lit("")}])  # an empty literal, and an unbound variable
    message = render_answer(answer(rows), feedback="{}", kit=Kit.TABLE)
    assert blocks_error(message.blocks) is None


def test_500_rows_as_a_data_table_show_100_below_a_header_sortable_by_number() -> None:
    rows = Rows(["paper", "paper_lbl", "score"], [
        {"paper": uri(f"{R}R{n}"), "paper_lbl": lit(f"Title {n}"), "score": lit(f"{n}.5")} for n in range(500)])
    message = render_answer(answer(rows), feedback="{}", kit=Kit.DATA)
    assert blocks_error(message.blocks) is None
    [table] = [b for b in message.blocks if b["type"] == "data_table"]
    assert len(table["rows"]) == 101 and [c["text"] for c in table["rows"][0]] == ["paper", "score"]
    assert table["rows"][1][1] == {"type": "raw_number", "value": 0.5, "text": "0.5"}  # sorts as a number
    assert table["caption"] == "Answer: 500 rows" and 1 <= table["page_size"] <= 100
    assert "table" not in [b["type"] for b in message.blocks]
    [attached] = message.files
    assert attached.filename == RESULT_FILE and len(attached.content.splitlines()) == 501


def test_a_data_table_stops_before_10000_characters_and_attaches_the_rest() -> None:
    rows = Rows(["text"], [{"text": lit(f"{n} " + "w" * 400)} for n in range(60)])
    message = render_answer(answer(rows), feedback="{}", kit=Kit.DATA)
    assert blocks_error(message.blocks) is None
    [table] = [b for b in message.blocks if b["type"] == "data_table"]
    shown = len(table["rows"]) - 1
    assert 20 <= shown < 60 and f"showing the first {shown} rows" in json.dumps(message.blocks)
    assert message.files and len(message.files[0].content.splitlines()) == 61


def test_the_stand_in_refuses_what_slack_refuses_in_a_data_table() -> None:
    header = [{"type": "raw_text", "text": "x"}]
    row = [{"type": "raw_text", "text": "1"}]
    ok = {"type": "data_table", "caption": "c", "rows": [header] + [row] * 100}
    assert blocks_error([ok]) is None
    assert blocks_error([{**ok, "rows": [header] + [row] * 101}]) is not None  # over 100 rows below the header
    assert blocks_error([{**ok, "rows": [header]}]) is not None  # a header alone
    assert blocks_error([{**ok, "caption": ""}]) is not None
    assert blocks_error([{**ok, "rows": [header, row + row]}]) is not None  # rows of unequal length
    link = {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [{"type": "text",
                                                                                        "text": "x"}]}]}
    assert blocks_error([{**ok, "rows": [[link], row]}]) is not None  # rich text in the header
    wide = {"type": "raw_text", "text": "w" * 6000}
    assert blocks_error([{**ok, "rows": [header, [wide], [wide]]}]) is not None  # over 10,000 characters
