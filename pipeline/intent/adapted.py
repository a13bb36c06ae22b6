"""What a query adapted from a stored pair answers: the pair it was adapted from (its names refilled), that pair's
question with the query's names, and the words of the user's question the pair does not say — the closed-world
account the composer's pairs are held to (``pipeline.intent.account``), held to the adapter's query too: a question
asking more than the stored question it was adapted from is never answered by it as if whole."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.intent.compose import heard, unsaid_by
from pipeline.matching.fill import Name
from pipeline.matching.forms import slot_values
from pipeline.records import Example, Retrieved
from pipeline.sparql.shape import replace_literals
from pipeline.sparql.text import string_literals


def adapted_from(sparql: str, examples: Sequence[Retrieved]) -> Example | None:
    """The stored pair whose query ``sparql`` is, its names refilled."""
    ours = string_literals(sparql)
    for r in examples:
        theirs = string_literals(r.example.sparql)
        if len(theirs) == len(ours) and replace_literals(r.example.sparql, dict(zip(theirs, ours))) == sparql:
            return r.example
    return None


def adapted_question(sparql: str, examples: Sequence[Retrieved]) -> str:
    """The stored question whose query was adapted, with the names the adapted query uses: what it does answer."""
    pair = adapted_from(sparql, examples)
    if pair is None:
        return ""
    mapping = dict(zip(string_literals(pair.sparql), string_literals(sparql)))
    question = pair.question
    for literal, _ in slot_values(pair):
        question = question.replace(literal, mapping.get(literal, literal), 1)
    return question


def unsaid(text: str, found: Sequence[Name], sparql: str, examples: Sequence[Retrieved],
           yesno: bool = False) -> tuple[str, ...]:
    """The words of the question the stored pair a query was adapted from does not say (its names, and the names
    the query was filled with, aside), as one thing the query leaves out; none for a query adapted from no pair."""
    pair = adapted_from(sparql, examples)
    if pair is None:
        return ()
    low = text.lower()
    filled = [(at, at + len(lit)) for lit in string_literals(sparql) if (at := low.find(lit.lower())) >= 0]
    left = unsaid_by(pair, heard(text, [(a, b) for a, b, _ in found] + filled), yesno)
    if not left:
        return ()
    listed = ", ".join(f"'{w}'" for w in left)
    return (f"what {listed} say{'s' if len(left) == 1 else ''} (the stored question it adapts does not)",)
