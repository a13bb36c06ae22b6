"""Matching brackets in a query's tokens (``pipeline.sparql.lexer``'s, or any pieces of text with a ``text``)."""
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


def enclosing(toks: Sequence[Textual], i: int, opening: str = "{") -> int | None:
    """The index of the innermost ``opening`` bracket before ``i`` still open at ``i``; None when there is none."""
    close, depth = _PAIRS[opening], 0
    for j in range(i - 1, -1, -1):
        if toks[j].text == close:
            depth += 1
        elif toks[j].text == opening:
            if depth == 0:
                return j
            depth -= 1
    return None


def unmatched(toks: Sequence[Textual], opening: str = "{") -> tuple[list[int], int]:
    """The closing brackets of ``opening``'s kind that close nothing (their indices), and how many are left open."""
    close, depth, stray = _PAIRS[opening], 0, []
    for j, tok in enumerate(toks):
        if tok.text == opening:
            depth += 1
        elif tok.text == close:
            if depth == 0:
                stray.append(j)
            else:
                depth -= 1
    return stray, depth
