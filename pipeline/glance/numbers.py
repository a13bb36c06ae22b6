"""Scores as ORKG stores them (plain strings such as "71.46%", "1,204.5", "9.5") read as numbers."""
from __future__ import annotations

import re

# an optional sign, digits with optional thousands separators, optional decimals, an optional percent sign
_NUMBER = re.compile(r"[+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?|[+-]?\.\d+")


def parse_number(text: str) -> float | None:
    """The number a stored score holds, or None when it is not a plain number (``"N/A"``, ``"—"``, ``"12 M"``).

    Percent signs and thousands separators are read; any other unit leaves the value as text, since a bar chart
    cannot put "12 M" beside "0.5"."""
    body = text.strip()
    if body.endswith("%"):
        body = body[:-1].rstrip()
    if not _NUMBER.fullmatch(body):
        return None
    return float(body.replace(",", ""))

