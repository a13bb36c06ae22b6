"""The Block Kit limits Slack enforces on every message, each refused as ``invalid_blocks`` the way a real workspace
does (docs.slack.dev, reference/block-kit): sections, the ``table`` block, the 2026 ``data_table`` and
``data_visualization`` blocks, and ``context_actions`` with feedback buttons."""
from __future__ import annotations

from numbers import Real
from typing import Any

from standins.slack.wire import maybe_json

MAX_BLOCKS = 50
MAX_SECTION = 3000
MAX_TABLE_ROWS = 100  # table: rows, the header included
MAX_DATA_ROWS = 100  # data_table: rows below its header
MAX_TABLE_CELLS = 20  # columns of either table
MAX_DATA_TABLE_CHARS = 10_000  # characters across every data_table cell of one message
MAX_CHARTS = 2  # data_visualization blocks in one message
MAX_CHART_TITLE = 50
MAX_SERIES = 6
MAX_POINTS = 20  # data points of one series
MAX_CHART_LABEL = 20  # a series' name, a point's label, an axis category, a pie segment's label
MAX_AXIS_LABEL = 50
MAX_CONTEXT_ACTIONS = 5
MAX_FEEDBACK_TEXT = 75
MAX_FEEDBACK_VALUE = 2000
TABLE_CELLS = ("raw_text", "rich_text", "raw_number")
CHARTS = ("bar", "line", "area", "pie")


def _cell_ok(cell: Any) -> bool:
    if not isinstance(cell, dict) or cell.get("type") not in TABLE_CELLS:
        return False
    if cell["type"] == "rich_text":
        return bool(cell.get("elements"))
    if cell["type"] == "raw_number" and (not isinstance(cell.get("value"), Real) or isinstance(cell["value"], bool)):
        return False
    return bool(str(cell.get("text", "")))


def _chars(cell: dict[str, Any]) -> int:
    if cell.get("type") == "rich_text":
        return sum(len(str(e.get("text", ""))) for s in cell.get("elements", []) for e in s.get("elements", []))
    return len(str(cell.get("text", "")))


def _table_error(block: dict[str, Any]) -> str | None:
    rows = block.get("rows")
    if not isinstance(rows, list) or not 1 <= len(rows) <= MAX_TABLE_ROWS:
        return f"a table holds 1 to {MAX_TABLE_ROWS} rows"
    if any(not isinstance(r, list) or not 1 <= len(r) <= MAX_TABLE_CELLS or not all(map(_cell_ok, r)) for r in rows):
        return f"each table row holds 1 to {MAX_TABLE_CELLS} raw_text, rich_text or raw_number cells"
    if len(block.get("column_settings") or []) > MAX_TABLE_CELLS:
        return "at most 20 column settings"
    return None


def _data_table_error(block: dict[str, Any]) -> str | None:
    rows = block.get("rows")
    if not str(block.get("caption") or ""):
        return "a data_table needs a caption"
    if not isinstance(rows, list) or not 2 <= len(rows) <= MAX_DATA_ROWS + 1:
        return f"a data_table holds a header and 1 to {MAX_DATA_ROWS} rows"
    width = len(rows[0]) if isinstance(rows[0], list) else 0
    if not 1 <= width <= MAX_TABLE_CELLS or any(not isinstance(r, list) or len(r) != width for r in rows):
        return f"every data_table row holds the same 1 to {MAX_TABLE_CELLS} cells"
    if not all(_cell_ok(c) for r in rows for c in r) or any(c["type"] == "rich_text" for c in rows[0]):
        return "data_table cells are raw_text, rich_text or raw_number (no rich_text in the header)"
    size = block.get("page_size", 5)
    if not isinstance(size, int) or not 1 <= size <= MAX_DATA_ROWS:
        return "page_size is 1 to 100"
    return None


def _series_error(chart: dict[str, Any]) -> str | None:
    series, axis = chart.get("series"), chart.get("axis_config")
    if not isinstance(series, list) or not 1 <= len(series) <= MAX_SERIES:
        return f"a chart holds 1 to {MAX_SERIES} series"
    if not isinstance(axis, dict) or not isinstance(axis.get("categories"), list) or not axis["categories"]:
        return "a bar, line or area chart needs axis_config.categories"
    categories = [str(c) for c in axis["categories"]]
    if any(len(c) > MAX_CHART_LABEL for c in categories) or len(set(categories)) != len(categories):
        return "axis categories are unique and at most 20 characters"
    if any(len(str(axis.get(k) or "")) > MAX_AXIS_LABEL for k in ("x_label", "y_label")):
        return "axis labels are at most 50 characters"
    names = [str(s.get("name", "")) if isinstance(s, dict) else "" for s in series]
    if any(not n or len(n) > MAX_CHART_LABEL for n in names) or len(set(names)) != len(names):
        return "series names are unique, 1 to 20 characters"
    for s in series:
        points = s.get("data")
        if not isinstance(points, list) or not 1 <= len(points) <= MAX_POINTS:
            return f"a series holds 1 to {MAX_POINTS} data points"
        for p in points:
            if not isinstance(p, dict) or str(p.get("label")) not in categories or not isinstance(p.get("value"), Real):
                return "each data point has a numeric value and a label among the axis categories"
    return None


def _chart_error(block: dict[str, Any]) -> str | None:
    title, chart = str(block.get("title") or ""), block.get("chart")
    if not 1 <= len(title) <= MAX_CHART_TITLE:
        return f"a chart title is 1 to {MAX_CHART_TITLE} characters"
    if not isinstance(chart, dict) or chart.get("type") not in CHARTS:
        return "chart.type is bar, line, area or pie"
    if chart["type"] == "pie":
        segments = chart.get("segments")
        if not isinstance(segments, list) or not 1 <= len(segments) <= MAX_SERIES or any(
                not isinstance(s, dict) or not 1 <= len(str(s.get("label") or "")) <= MAX_CHART_LABEL
                or not isinstance(s.get("value"), Real) or s["value"] <= 0 for s in segments):
            return "a pie holds 1 to 6 segments, each labelled (≤ 20) with a value above 0"
        return None
    return _series_error(chart)


def _actions_error(block: dict[str, Any]) -> str | None:
    elements = block.get("elements") or []
    if not 1 <= len(elements) <= MAX_CONTEXT_ACTIONS:
        return "a context_actions block holds 1 to 5 elements"
    for element in elements:
        if element.get("type") == "feedback_buttons":
            for side in ("positive_button", "negative_button"):
                button = element.get(side) or {}
                text = str((button.get("text") or {}).get("text", ""))
                if not text or len(text) > MAX_FEEDBACK_TEXT or len(str(button.get("value", ""))) > \
                        MAX_FEEDBACK_VALUE or not button.get("value"):
                    return f"feedback_buttons.{side} needs text (≤ 75) and a value (≤ 2000)"
        elif element.get("type") != "icon_button":
            return "context_actions takes feedback_buttons and icon_button elements only"
    return None


def _block_error(block: dict[str, Any]) -> str | None:
    kind = block.get("type")
    if kind == "section" and len(str((block.get("text") or {}).get("text", ""))) > MAX_SECTION:
        return "section text over 3000 characters"
    if kind == "table":
        return _table_error(block)
    if kind == "data_table":
        return _data_table_error(block)
    if kind == "data_visualization":
        return _chart_error(block)
    if kind == "context_actions":
        return _actions_error(block)
    return None


def blocks_error(raw: Any) -> str | None:
    """Why Slack would answer ``invalid_blocks`` for these blocks, or None when it takes them."""
    if raw in (None, "", "[]"):
        return None
    blocks = maybe_json(raw)
    if not isinstance(blocks, list) or len(blocks) > MAX_BLOCKS or not all(isinstance(b, dict) for b in blocks):
        return "blocks must be a list of at most 50 objects"
    kinds = [b.get("type") for b in blocks]
    if kinds.count("table") > 1:
        return "only one table per message"
    if kinds.count("data_visualization") > MAX_CHARTS:
        return f"at most {MAX_CHARTS} data_visualization blocks per message"
    cells = sum(_chars(c) for b in blocks if b.get("type") == "data_table" and isinstance(b.get("rows"), list)
                for r in b["rows"] if isinstance(r, list) for c in r if isinstance(c, dict))
    if cells > MAX_DATA_TABLE_CHARS:
        return f"over {MAX_DATA_TABLE_CHARS:,} characters across the data_table cells of one message"
    for block in blocks:
        if why := _block_error(block):
            return why
    return None
