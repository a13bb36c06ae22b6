"""Scores for rankings: ORKG keeps them as plain string literals, so "top" means last in text order."""
from __future__ import annotations

import re

_NUMBER = re.compile(r"(\D*?)(\d+(?:\.\d+)?)(.*)", re.DOTALL)  # "71.46%" -> "", "71.46", "%"


def invented(n: int) -> list[str]:
    """``n`` scores for a ranking SciQA gives no values for, best first (same width, so text order = number order)."""
    return [f"{99 - i * 0.01:05.2f}" for i in range(n)]


def below(top: str, n: int) -> list[str]:
    """``n`` distinct scores that sort before ``top`` as text, shaped like it where possible ("83.64" -> "82.80")."""
    out: list[str] = []
    for candidate in _shaped(top, 4 * n + 8):
        if len(out) == n:
            return out
        if candidate < top and candidate not in out:
            out.append(candidate)
    for i in range(1, n + 1):  # no number shape left (e.g. "0"): text that still sorts first
        candidate = ("" if top[:1] > "-" else " ") + f"-{i}"
        if len(out) < n and candidate < top and candidate not in out:
            out.append(candidate)
    return out


def _shaped(top: str, tries: int) -> list[str]:
    match = _NUMBER.fullmatch(top)
    if not match:
        return [top[:-1] + chr(ord(top[-1]) - 1)] if top and ord(top[-1]) > 32 else []
    head, number, tail = match.groups()
    decimals = len(number.split(".")[1]) if "." in number else 0
    value = float(number)
    steps = [value * (1 - 0.01 * i) for i in range(1, tries + 1)]
    shaped = [f"{head}{lower:.{decimals}f}{tail}" for lower in steps]
    shaped += [f"{head}{lower:.{decimals + 1}f}{tail}" for lower in steps]  # finer, when rounding repeats itself
    # a top of 100 has no 3-digit number below it: shorter numbers ("10", "0.99") still sort first
    shaped += [f"{head}{number[:k]}{tail}" for k in range(len(number) - 1, 0, -1)]
    shaped += [f"{head}0.{99 - i}{tail}" for i in range(tries)]
    return shaped
