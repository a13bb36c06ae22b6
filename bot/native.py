"""Block Kit parts of Slack's AI-app surface, within Slack's limits: the result as a ``data_table`` (sortable,
paginated; 2026) or today's ``table`` block, and the feedback buttons (``feedback_buttons`` in ``context_actions``)."""
from __future__ import annotations

from enum import Enum

from bot.blocks import MAX_BUTTON_VALUE, Block, clip, page_url, section
from pipeline.glance.numbers import parse_number
from pipeline.glance.terms import label_columns, short_name
from pipeline.records import Rows, Term

MAX_ROWS = 100  # rows in one table block, the header row included
MAX_DATA_ROWS = 100  # rows of a data_table below its header
MAX_DATA_CHARS = 10_000  # characters across every data_table cell of a message
MAX_CELLS = 20  # cells in one row
MAX_CELL_TEXT = 500  # our own cap: a cell is read at a glance; the CSV keeps every character
PAGE_SIZE = 10  # data_table rows per page
FEEDBACK = "kgqa_feedback"  # the feedback_buttons' action_id; the positive button carries the pair
DOWN_VALUE = "down"


class Kit(str, Enum):
    """How much of Block Kit a reply uses, richest first; a workspace that refuses one gets the next."""

    DATA = "data"  # data_table, data_visualization charts, feedback buttons
    TABLE = "table"  # the table block, the chart as a PNG, feedback buttons
    CLASSIC = "classic"  # mrkdwn rows, the chart as a PNG, plain buttons


def _link_cell(text: str, url: str) -> Block:
    return {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
        {"type": "link", "url": url, "text": text}]}]}


def _cell(term: Term | None, label: Term | None, numbers: bool = False) -> Block:
    """One value: an IRI as a link (its label, else its short name), a number as a number where the table sorts by
    it (``numbers``), any other literal as raw text, nothing as a dash."""
    if term is None:
        return {"type": "raw_text", "text": clip(label["value"], MAX_CELL_TEXT) if label else "–"}
    value = term.get("value", "")
    if term.get("type") == "uri":
        text = clip(label["value"] if label else short_name(value), MAX_CELL_TEXT) or value
        url = page_url(value)
        return _link_cell(text, url) if url.startswith(("http://", "https://")) else {"type": "raw_text", "text": text}
    number = parse_number(value) if numbers else None
    if number is not None:
        return {"type": "raw_number", "value": number, "text": clip(value, MAX_CELL_TEXT)}
    return {"type": "raw_text", "text": clip(value, MAX_CELL_TEXT) or "“”"}


def _chars(cell: Block) -> int:
    if cell["type"] == "rich_text":
        return len(cell["elements"][0]["elements"][0]["text"])
    return len(str(cell["text"]))


def _title(n: int, shown: int, columns: int, all_columns: int, file: str) -> str:
    title = f"*Answer* · {n} row{'s' if n != 1 else ''}"
    cut = [f"the first {shown} rows"] * (shown < n) + [f"the first {columns} columns"] * (columns < all_columns)
    if cut:
        title += f" — showing {' and '.join(cut)}; the full result is in the attached `{file}`"
    return title


def table_blocks(rows: Rows, file: str, kit: Kit = Kit.TABLE) -> tuple[list[Block], bool]:
    """The result as a title and one ``data_table`` (``Kit.DATA``) or ``table`` block (header row first; label
    columns folded into their IRI's link), and whether it had to be cut (the caller attaches ``file`` with the whole
    result). Not for a yes/no answer."""
    labels = label_columns(rows.vars)
    columns = [v for v in rows.vars if v not in labels.values()]
    shown = columns[:MAX_CELLS]
    header: list[Block] = [{"type": "raw_text", "text": clip(v, MAX_CELL_TEXT) or "–"} for v in shown]
    numeric = {v for v in shown if rows.rows and all(
        (t := r.get(v)) is not None and t.get("type") == "literal" and parse_number(t.get("value", "")) is not None
        for r in rows.rows)} if kit is Kit.DATA else set()
    room = MAX_DATA_ROWS if kit is Kit.DATA else MAX_ROWS - 1
    budget = MAX_DATA_CHARS - sum(map(_chars, header)) if kit is Kit.DATA else None
    body: list[list[Block]] = []
    for r in rows.rows[:room]:
        line = [_cell(r.get(v), r.get(labels[v]) if v in labels else None, v in numeric) for v in shown]
        if budget is not None:
            budget -= sum(map(_chars, line))
            if budget < 0:
                break
        body.append(line)
    title = _title(len(rows.rows), len(body), len(shown), len(columns), file)
    cut = len(body) < len(rows.rows) or len(shown) < len(columns)
    if not body:
        return [section(title)], cut
    if kit is Kit.DATA:
        n = len(rows.rows)
        table: Block = {"type": "data_table", "block_id": "kgqa_table", "caption": f"Answer: {n} row{'s' * (n != 1)}",
                        "rows": [header] + body, "page_size": min(PAGE_SIZE, len(body))}
    else:
        table = {"type": "table", "block_id": "kgqa_table", "rows": [header] + body,
                 "column_settings": [{"is_wrapped": True} for _ in shown]}
    return [section(title), table], cut


def feedback_block(value: str) -> Block:
    """👍/👎 as Slack's feedback buttons; 👍 carries the answer's pair to the teaching gate."""
    return {"type": "context_actions", "block_id": FEEDBACK, "elements": [{
        "type": "feedback_buttons", "action_id": FEEDBACK,
        "positive_button": {"text": {"type": "plain_text", "text": "Right"}, "value": value[:MAX_BUTTON_VALUE],
                            "accessibility_label": "This answer is right: propose its query to the maintainers"},
        "negative_button": {"text": {"type": "plain_text", "text": "Wrong"}, "value": DOWN_VALUE,
                            "accessibility_label": "This answer is wrong"}}]}
