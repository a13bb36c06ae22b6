"""Two comparisons named in one question ('countries in *both* the mangrove and the cocoa comparisons', 'countries in
the childcare comparison that don't appear in the rubber one'): the first is what the question is asked of, the
second a condition on what is asked (``Condition(on="comparison")``: its values found there too, or, negated, not)."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.intent.comparisons import Comparisons
from pipeline.intent.linking import Word
from pipeline.intent.negated import NEGATIONS
from pipeline.intent.scope import NAME_END, scope_meant, scope_named

Scoped = tuple[str, list[Word]]
# the words two comparisons are said apart by ('X and Y', 'X but not Y', 'in X that dont appear in Y')
_APART = {"and", "but", "vs", "versus", "than"} | NEGATIONS


def _one(free: Sequence[Word], found: Sequence[Word], facts: Comparisons) -> Scoped | None:
    return scope_named(free, facts) or scope_meant(free, found, facts)


def two_named(free: Sequence[Word], found: Sequence[Word], facts: Comparisons) -> tuple[Scoped, Scoped] | None:
    """The two comparisons the question names on either side of a word that sets them apart, each named alone by
    its own words; the second ends at a word that ends a comparison's name ('the rubber *comparison*', 'the literacy
    *one*') unless the question says 'both'. None when it does not name two."""
    both = any(w[2] == "both" for w in found)
    if not both and not any(w[2] in NAME_END for w in found):
        return None  # no second name can end: no comparison read (nor the encoder asked) side by side
    at = {w: i for i, w in enumerate(found)}
    for w in found:
        if w[2] not in _APART:
            continue
        left, right = [v for v in free if v[1] <= w[0]], [v for v in free if v[0] >= w[1]]
        first, second = _one(left, found, facts), _one(right, found, facts)
        if first is None or second is None or first[0] == second[0]:
            continue
        end = at[max(second[1])] + 1
        if both or (end < len(found) and found[end][2] in NAME_END):
            return first, second
    return None
