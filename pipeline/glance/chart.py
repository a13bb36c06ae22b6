"""A leaderboard as a horizontal bar chart (matplotlib, Agg, no pyplot): the best CHART_TOP scores by number."""
from __future__ import annotations

import io

from pipeline.glance.leaderboard import CHART_TOP
from pipeline.records import Entry, Leaderboard

MAX_LABEL = 40  # characters of a model's name beside its bar


def charted(board: Leaderboard) -> list[Entry]:
    """The bars: the charted metric's numeric scores, best first, at most CHART_TOP; empty when fewer than two."""
    ranked = board.ranked()
    return ranked[:CHART_TOP] if len(ranked) >= 2 else []


def _name(entry: Entry) -> str:
    name = entry.model or entry.paper or "(no model named)"
    return name if len(name) <= MAX_LABEL else name[: MAX_LABEL - 1] + "…"


def title(board: Leaderboard) -> str:
    return f"{board.metric or 'Score'} on {board.dataset}"


def alt_text(board: Leaderboard) -> str:
    """What the chart shows, in words, for people who cannot see it."""
    bars = charted(board)
    listed = "; ".join(f"{_name(e)} {e.value}" for e in bars)
    return f"Bar chart of {title(board)}, {'highest' if board.descending else 'lowest'} first: {listed}."


def chart_png(board: Leaderboard) -> bytes | None:
    """The chart as PNG bytes; None when fewer than two scores are numbers (nothing to compare)."""
    bars = charted(board)
    if not bars:
        return None
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # heavy import, only when charting
    from matplotlib.figure import Figure

    fig = Figure(figsize=(8, 1.2 + 0.4 * len(bars)), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    ys = list(range(len(bars)))[::-1]  # the best at the top
    drawn = ax.barh(ys, [e.number or 0.0 for e in bars], color="C0")
    ax.bar_label(drawn, labels=[e.value for e in bars], padding=3, fontsize=8)
    ax.set_yticks(ys, [_name(e) for e in bars], fontsize=8)
    text_values = sum(1 for e in board.entries if e.metric == board.metric and e.number is None)
    left_out = f"; {text_values} value{'s' if text_values != 1 else ''} not a number, left out" if text_values else ""
    ax.set_xlabel(f"{board.metric or 'score'} (as stored, read as a number{left_out})")
    shown = len(board.ranked())
    more = f" — top {len(bars)} of {shown}" if shown > len(bars) else ""
    ax.set_title(f"{title(board)}{more}", fontsize=10)
    ax.margins(x=0.15)
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", bbox_inches="tight")
    return buffer.getvalue()
