"""One deterministic sentence that answers the question at a glance, from the query's reading and its rows (and the
leaderboard, for rankings). Generic over the query's shape: the same rules for every question."""
from __future__ import annotations

from pipeline.glance.terms import label_columns, short_name
from pipeline.records import Answer, Kind, Leaderboard, Rows
from pipeline.sparql.explain import parts
from pipeline.sparql.shape import read

NAMES_SHOWN = 5


def _row_text(row: dict[str, dict[str, str]], vars_: list[str]) -> str:
    """A row in words: labels in place of the IRIs they name, other values as they are."""
    labels = label_columns(vars_)
    words = []
    for var in vars_:
        term = row.get(var)
        if var in labels.values():
            continue
        label = row.get(labels[var]) if var in labels else None
        if label is not None:
            words.append(label["value"])
        elif term is not None:
            words.append(short_name(term["value"]) if term.get("type") == "uri" else term["value"])
    return " ".join(w for w in dict.fromkeys(words) if w)


def _names(rows: Rows) -> tuple[list[str], int]:
    names = list(dict.fromkeys(t for t in (_row_text(r, rows.vars) for r in rows.rows) if t))
    return names[:NAMES_SHOWN], len(names)


def _listing(names: list[str], total: int) -> str:
    if total > len(names):
        return ", ".join(names) + f" and {total - len(names)} more"
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _what(answer: Answer) -> str:
    """What the question asked for, in words: the query's reading, else the question itself."""
    _form, body, ordering = parts(answer.sparql) if answer.sparql else ("", "", "")
    if body:
        return body + (f", {ordering}" if ordering else "")
    return f"“{answer.question}”" if answer.question else "this query"


def _ranking(answer: Answer, board: Leaderboard) -> str:
    """The best score by number, with its model, metric and dataset."""
    top = board.top()
    if top is None:
        return ""
    word = "highest" if board.descending else "lowest"
    metric = board.metric or "score"
    shape = read(answer.sparql or "")
    kind = shape.kind_of_var(shape.projection[0]) if shape.projection else ""
    if top.model and kind == Kind.MODEL:
        return f"{top.model} has the {word} {metric} on {board.dataset}: {top.value}."
    tops = board.tops()
    if kind == Kind.METRIC and len(tops) > 1:  # one best score per metric
        return f"The {word} scores on {board.dataset}, by number: " + "; ".join(
            f"{e.metric or 'score'} {e.value}" + (f" ({e.model})" if e.model else "") for e in tops) + "."
    by = f", by {top.model}" if top.model else ""
    return f"The {word} {metric} on {board.dataset} is {top.value}{by}."


def summarize(answer: Answer, board: Leaderboard | None = None) -> str:
    """The sentence put first in every reply."""
    rows = answer.rows
    if rows is None:
        if answer.sparql is None:
            return f"I could not answer “{answer.question}”." if answer.question else "I could not answer that."
        reason = answer.error.rstrip(".") if answer.error else f"the query for {_what(answer)} did not run"
        return f"No answer: {reason}."
    if rows.boolean is not None:
        return ("Yes" if rows.boolean else "No") + f" — {_what(answer)}."
    if not rows.rows:
        return f"Nothing found for {_what(answer)}."
    if board is not None and (best := _ranking(answer, board)):
        _, _, ordering = parts(answer.sparql or "")
        if ordering or read(answer.sparql or "").aggregates:
            return best
    names, total = _names(rows)
    if not names:
        return f"{len(rows.rows)} result{'s' if len(rows.rows) != 1 else ''} for {_what(answer)}."
    count = f"{total} " if total > 1 else ""
    return f"{_capital(count + _what(answer))}: {_listing(names, total)}."
