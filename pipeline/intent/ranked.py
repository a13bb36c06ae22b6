"""Which way a question ranks: "best" the highest value, or the lowest on a metric where lower is better (an error
rate, a time taken), "worst" the other end, "highest" and "lowest" what they say; one thing beating another; and
whether a pair asking some operators answers a question asking others."""
from __future__ import annotations

import re
from collections.abc import Callable

from pipeline.intent.account import meanings
from pipeline.intent.meaning import picks
from pipeline.intent.reading import NOT_THAN, Intent
from pipeline.sparql.direction import lower_is_better
from pipeline.sparql.shape import read
from pipeline.sparql.text import string_literals
from pipeline.sparql.tied import best_of_each


def beats(text: str) -> bool:
    """Whether ``text`` says one thing beats another ('outperforms', 'beat'): higher on most metrics, lower on an
    error rate."""
    return any("beat" in meanings(w) for w in re.findall(r"[a-z]+", text.lower()))


def relative(text: str) -> str:
    """The word that ranks relative to the metric's direction ('best', 'slowest'), "" when none does."""
    found = _BEST.search(text) or _WORST.search(text)
    return found.group() if found else ""


_BETTER_SAID = re.compile(r"\b(lower|smaller|less|higher|larger|bigger|more)\s+is\s+bett?er\b", re.I)


def better_said(text: str) -> bool | None:
    """Whether the question says itself that lower is better ('best error rate on X (lower = better)': True) or
    higher ('higher is better': False), whatever the metric's label or a written query ranks by; None unsaid."""
    found = _BETTER_SAID.search(text)
    return None if found is None else found.group(1).lower() in ("lower", "smaller", "less")


def absolute(text: str) -> bool:
    """Whether ``text`` ranks by a word that says which end it means ('highest', 'minimum')."""
    return _ABSOLUTE.search(text) is not None


# 'fastest': on a time taken, the best; 'slowest' its worst; 'better' of two named ('better than X' beats X)
_BEST = re.compile(r"\b(?:best|better" + NOT_THAN + r"|top|leading|strongest|winning|wins?|fastest|quickest)\b", re.I)
_WORST = re.compile(r"\b(?:worst|worse" + NOT_THAN + r"|weakest|poorest|bottom|slowest)\b", re.I)
_ABSOLUTE = re.compile(r"\b(?:highest|lowest|maximum|minimum|largest|smallest|greatest)\b", re.I)


def directed(intent: Intent, text: str, lower_better: bool) -> Intent:
    """The direction of the question's ranking: "best" is the highest value, or the lowest on a metric where lower is
    better (an error rate), where "worst" is the highest; "highest" and "lowest" mean what they say ('lower is better'
    only says which way: no ranking of its own)."""
    text = _BETTER_SAID.sub(" ", text)
    if _ABSOLUTE.search(text):
        return intent
    if _BEST.search(text) and _WORST.search(text):  # 'the gap between the best and the worst': both ends
        return Intent(intent.operators | {"lowest"}, intent.rank, True)
    if _WORST.search(text) and lower_better:
        return Intent(intent.operators - {"lowest"}, intent.rank, True)
    if _BEST.search(text) or intent.operators & {"kth", "top"}:
        # 'the three best by WER': the three lowest; 'the best by F1': the highest; 'who comes 2nd on X by WER',
        # 'top 3 by WER': places counted from the best
        return Intent(intent.operators | {"lowest"}, intent.rank, False) if lower_better else \
            Intent(intent.operators, intent.rank, True)
    return intent


def directed_by(intent: Intent, text: str, sparql: str, metric: Callable[[str], bool]) -> Intent:
    """``directed`` by the metric a written query names (a literal ``metric`` says is a metric's label) where lower is
    better: 'the worst on RMSE' held to the highest RMSE, whoever wrote the query."""
    lower = any(metric(lit) and lower_is_better(lit) for lit in string_literals(sparql))
    return directed(intent, text, True) if lower else intent


PER_GROUP = re.compile(r"\b(?:per|each|every|by)\s+(?:dataset|benchmark|metric|field|problem|year|venue|model)s?\b",
                       re.I)  # 'lowest error rate per dataset': one for each group, asked


def _grouped(sparql: str) -> bool:
    """Whether the query aggregates for each group (one row per dataset)."""
    shape = read(sparql)
    return bool(shape.group_by) and bool(shape.aggregates)


def fits(theirs: Intent, ours: Intent, sparql: str, grouped_asked: bool = True) -> bool:
    """Whether a pair asking ``theirs`` answers a question asking ``ours``: the same operators ("every" aside: a list
    of every one is any list that keeps all its rows, but the best on each group is asked of each), and, with none,
    both asking for the highest or neither."""
    if theirs.operators - {"every"} != ours.operators - {"every"}:
        return False
    if "every" not in ours.operators and best_of_each(sparql):  # the best on each dataset, asked of one or overall
        return False
    if "every" in theirs.operators and "every" not in ours.operators and (ours.highest or "lowest" in ours.operators) \
            and not grouped_asked and _grouped(sparql):
        return False  # 'the lowest X for each dataset' answers no 'the smallest X in the whole kg'
    if "every" in ours.operators and picks(read(sparql)):
        return False
    return bool(ours.operators - {"every"}) or theirs.highest == ours.highest
