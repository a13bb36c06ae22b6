"""Matching brackets in a query's tokens (``pipeline.sparql.text``'s, or spans with their places)."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

_PAIRS = {"(": ")", "{": "}", "[": "]"}


class Textual(Protocol):
    """A token as the bracket matcher reads it: its text."""

    @property
    def text(self) -> str: ...


def closing(toks: Sequence[Textual], i: int) -> int | None:
    """The index of the bracket closing the ``(``, ``{`` or ``[`` at ``i``; None when there is none there or it never
    closes. Only that kind of bracket is counted."""
    if i >= len(toks) or toks[i].text not in _PAIRS:
        return None
    opening, close, depth = toks[i].text, _PAIRS[toks[i].text], 0
    for j in range(i, len(toks)):
        if toks[j].text == opening:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    return None
