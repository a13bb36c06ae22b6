"""The at-a-glance parts of a reply: the summary line, the leaderboard behind a ranking, and its chart."""
from __future__ import annotations

import csv
import io

from bot.blocks import Block, clip, escape, link, page_url, section
from pipeline.glance.chart import alt_text, chart_png, title
from pipeline.records import Entry, Leaderboard

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
