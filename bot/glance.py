"""The at-a-glance parts of a reply: the summary line, the leaderboard behind a ranking, and its chart: a native
``data_visualization`` block (a bar chart for a ranking, a line chart for a series over time) within Slack's limits,
or the PNG where a workspace does not take it."""
from __future__ import annotations

import csv
import io
import re

from bot.blocks import Block, clip, escape, link, page_url, section
from pipeline.glance.chart import alt_text, chart_png, charted, title
from pipeline.glance.numbers import parse_number
from pipeline.glance.terms import short_name
from pipeline.records import Entry, Leaderboard, Rows, Term

LEADERBOARD_LINES = 10  # scores listed in the message; all of them go to the attached CSV beyond that
LEADERBOARD_FILE = "kgqa-leaderboard.csv"
CHART_FILE = "kgqa-leaderboard.png"


def summary_block(summary: str) -> Block:
    return section(f"*{escape(clip(summary, 2900))}*")


def _line(rank: int, entry: Entry) -> str:
    model = link(page_url(entry.model_iri), entry.model) if entry.model and entry.model_iri else \
        escape(entry.model or "(no model named)")
    paper = f" — {link(page_url(entry.paper_iri), clip(entry.paper, 120))}" if entry.paper else ""
    value = f"*{escape(entry.value)}*" if entry.number is not None else f"{escape(entry.value)} _(not a number)_"
    return f"{rank}. {model} · {value}{paper}"


def leaderboard_csv(board: Leaderboard) -> str:
    """Every entry: model, metric, value as stored, value as a number, paper title and link."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(["model", "model_iri", "metric", "value", "number", "paper", "paper_iri"])
    for e in board.entries:
        writer.writerow([e.model, e.model_iri, e.metric, e.value, "" if e.number is None else repr(e.number),
                         e.paper, e.paper_iri])
    return buffer.getvalue()


def leaderboard_blocks(board: Leaderboard) -> tuple[list[Block], bool]:
    """The charted metric's scores, best first, with their papers; true when the message could not list them all."""
    mine = [e for e in board.entries if e.metric == board.metric]
    lines = [_line(i, e) for i, e in enumerate(mine[:LEADERBOARD_LINES], 1)]
    others = len(board.entries) - len(mine)
    cut = len(mine) > LEADERBOARD_LINES or others > 0
    head = f"*Leaderboard · {escape(title(board))}* · {len(mine)} score{'s' if len(mine) != 1 else ''}, by number"
    if cut:
        head += f" (all {len(board.entries)} in the attached `{LEADERBOARD_FILE}`)"
    text = head + "\n" + "\n".join(lines)
    blocks = [section(text)]
    if board.notes:
        blocks.append(section(":information_source: " + escape(" ".join(board.notes))))
    return blocks, cut


def chart(board: Leaderboard) -> tuple[bytes, str] | None:
    """The PNG and its alt text; None when fewer than two scores are numbers."""
    png = chart_png(board)
    return (png, alt_text(board)) if png else None


MAX_CHART_TITLE = 50  # Slack's limits on a data_visualization block
MAX_CHART_LABEL = 20  # a category, a series' name
MAX_AXIS_LABEL = 50
MAX_SERIES = 6
MAX_POINTS = 20
MAX_CHARTS = 2  # charts in one message
_YEAR = re.compile(r"(1[89]|20)\d\d")


def _unique(labels: list[str]) -> list[str]:
    """Labels cut to what a chart shows, told apart where the cut made two alike."""
    out: list[str] = []
    for label in labels:
        short = clip(label or "–", MAX_CHART_LABEL)
        n = 2
        while short in out:
            tail = f" {n}"
            short, n = clip(label, MAX_CHART_LABEL - len(tail)) + tail, n + 1
        out.append(short)
    return out


def _chart(kind: str, title_text: str, series: dict[str, list[tuple[str, float]]], categories: list[str],
           x_label: str, y_label: str) -> Block:
    return {"type": "data_visualization", "block_id": f"kgqa_chart_{kind}", "title": clip(title_text, MAX_CHART_TITLE),
            "chart": {"type": kind, "series": [
                {"name": name, "data": [{"label": label, "value": value} for label, value in points]}
                for name, points in series.items()],
                "axis_config": {"categories": categories, "x_label": clip(x_label, MAX_AXIS_LABEL),
                                "y_label": clip(y_label, MAX_AXIS_LABEL)}}}


def bar_chart(board: Leaderboard) -> Block | None:
    """The leaderboard as a native bar chart (the PNG's bars, best first); None when fewer than two scores."""
    bars = [e for e in charted(board) if e.number is not None][:MAX_POINTS]
    if not bars:
        return None
    categories = _unique([e.model or e.paper for e in bars])
    metric = board.metric or "score"
    return _chart("bar", title(board), {clip(metric, MAX_CHART_LABEL): [
        (c, float(e.number or 0)) for c, e in zip(categories, bars, strict=True)]}, categories, "Model", metric)


def _year(term: Term | None) -> str | None:
    value = (term or {}).get("value", "")
    head = value[:4]
    return head if term is not None and term.get("type") == "literal" and _YEAR.fullmatch(head) and (
        len(value) == 4 or value[4] in "-T") else None


def line_chart(rows: Rows) -> Block | None:
    """A series over time as a line chart: a year (or date) column, a number column and, if any, one more column
    naming up to six series; None for any other shape or more points than a chart holds."""
    if len(rows.rows) < 2 or len(rows.vars) > 3:
        return None
    years = [v for v in rows.vars if all(_year(r.get(v)) for r in rows.rows)]
    numbers = [v for v in rows.vars if v not in years and all(
        parse_number((r.get(v) or {}).get("value", "")) is not None for r in rows.rows)]
    if not years or not numbers:
        return None
    when, value = years[0], numbers[0]
    rest = [v for v in rows.vars if v not in (when, value)]
    series: dict[str, dict[str, float]] = {}
    for r in rows.rows:
        term = r.get(rest[0]) if rest else None
        name = (term or {}).get("value", value) if rest else value
        name = short_name(name) if term is not None and term.get("type") == "uri" else name
        series.setdefault(name, {}).setdefault(str(_year(r.get(when))), float(parse_number(r[value]["value"]) or 0))
    categories = sorted({y for points in series.values() for y in points})
    if len(series) > MAX_SERIES or len(categories) > MAX_POINTS or len(categories) < 2:
        return None
    names = _unique(list(series))
    return _chart("line", f"{value} by {when}", {n: sorted(series[k].items()) for n, k in zip(names, series,
                                                                                              strict=True)},
                  categories, when, value)
