"""The leaderboard's bar chart: numbers only, at most CHART_TOP bars, none for fewer than two numbers."""
from __future__ import annotations

import struct

from pipeline.glance.chart import alt_text, chart_png, charted
from pipeline.glance.leaderboard import CHART_TOP
from pipeline.records import Entry, Leaderboard

PNG = b"\x89PNG\r\n\x1a\n"


def board(values: list[str], metric: str = "Accuracy") -> Leaderboard:
    from pipeline.glance.numbers import parse_number

    entries = sorted((Entry(f"model {i}", "", metric, v, parse_number(v)) for i, v in enumerate(values)),
                     key=lambda e: (e.number is None, -(e.number or 0)))
    return Leaderboard("Some Set", metric, True, tuple(entries))


def size(png: bytes) -> tuple[int, int]:
    return struct.unpack(">II", png[16:24])


def test_a_long_leaderboard_charts_its_top_fifteen_numbers_and_leaves_text_values_out() -> None:
    values = [str(v) for v in range(1, 31)] + ["N/A", "—", "12 M"]
    b = board(values)
    png = chart_png(b)
    assert png is not None and png.startswith(PNG)
    bars = charted(b)
    assert len(bars) == CHART_TOP and [e.value for e in bars] == [str(v) for v in range(30, 15, -1)]
    text = alt_text(b)
    assert "model 29 30" in text and "N/A" not in text and "12 M" not in text and "Accuracy on Some Set" in text
    width, height = size(png)
    assert width > 400 and height > size(chart_png(board(["1", "2"])) or b"")[1]  # taller with more bars


def test_fewer_than_two_numbers_get_no_chart() -> None:
    assert chart_png(board(["71.2"])) is None
    assert chart_png(board(["71.2", "N/A", "—"])) is None
    assert chart_png(board([])) is None
