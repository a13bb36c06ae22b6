"""Block Kit parts of Slack's AI-app surface: the result as a native ``table`` block and the feedback buttons
(``feedback_buttons`` in a ``context_actions`` block), within Slack's limits."""
from __future__ import annotations

from bot.blocks import MAX_BUTTON_VALUE, Block, clip, page_url, section
from pipeline.glance.terms import label_columns, short_name
from pipeline.records import Rows, Term

MAX_ROWS = 100  # rows in one table block, the header row included
MAX_CELLS = 20  # cells in one row
MAX_CELL_TEXT = 500  # our own cap: a cell is read at a glance; the CSV keeps every character
FEEDBACK = "kgqa_feedback"  # the feedback_buttons' action_id; the positive button carries the pair
DOWN_VALUE = "down"


def _cell(term: Term | None, label: Term | None) -> Block:
    """One value: an IRI as a link (its label, else its short name), a literal as raw text, nothing as a dash."""
    if term is None:
        return {"type": "raw_text", "text": clip(label["value"], MAX_CELL_TEXT) if label else "–"}
    value = term.get("value", "")
    if term.get("type") == "uri":
        text = clip(label["value"] if label else short_name(value), MAX_CELL_TEXT) or value
        url = page_url(value)
        if url.startswith(("http://", "https://")):
            return {"type": "rich_text", "elements": [{"type": "rich_text_section", "elements": [
                {"type": "link", "url": url, "text": text}]}]}
        return {"type": "raw_text", "text": text}
    return {"type": "raw_text", "text": clip(value, MAX_CELL_TEXT) or "“”"}


def table_blocks(rows: Rows, file: str) -> tuple[list[Block], bool]:
    """The result as a title and one ``table`` block (header row first; label columns folded into their IRI's link),
    and whether it had to be cut (the caller attaches ``file`` with the whole result). Not for a yes/no answer."""
    labels = label_columns(rows.vars)
    columns = [v for v in rows.vars if v not in labels.values()]
    shown = columns[:MAX_CELLS]
    header: list[Block] = [{"type": "raw_text", "text": clip(v, MAX_CELL_TEXT)} for v in shown]
    body = [[_cell(r.get(v), r.get(labels[v]) if v in labels else None) for v in shown]
            for r in rows.rows[: MAX_ROWS - 1]]
    n = len(rows.rows)
    title = f"*Answer* · {n} row{'s' if n != 1 else ''}"
    cut = [f"the first {len(body)} rows"] * (len(body) < n) + [f"the first {len(shown)} columns"] * (
        len(shown) < len(columns))
    if cut:
        title += f" — showing {' and '.join(cut)}; the full result is in the attached `{file}`"
    if not body:
        return [section(title)], bool(cut)
    table: Block = {"type": "table", "block_id": "kgqa_table", "rows": [header] + body,
                    "column_settings": [{"is_wrapped": True} for _ in shown]}
    return [section(title), table], bool(cut)


def feedback_block(value: str) -> Block:
    """👍/👎 as Slack's feedback buttons; 👍 carries the answer's pair to the teaching gate."""
    return {"type": "context_actions", "block_id": FEEDBACK, "elements": [{
        "type": "feedback_buttons", "action_id": FEEDBACK,
        "positive_button": {"text": {"type": "plain_text", "text": "Right"}, "value": value[:MAX_BUTTON_VALUE],
                            "accessibility_label": "This answer is right: propose its query to the maintainers"},
        "negative_button": {"text": {"type": "plain_text", "text": "Wrong"}, "value": DOWN_VALUE,
                            "accessibility_label": "This answer is wrong"}}]}
