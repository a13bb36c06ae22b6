"""What a 👍 button carries: the question->SPARQL pair itself, or a reference to it when it would not fit."""
from __future__ import annotations

import json

from bot.blocks import MAX_BUTTON_VALUE
from bot.state.proposals.base import Remembers


def feedback_value(question: str, sparql: str, recent: Remembers) -> str:
    """What the 👍 button carries: the pair itself, or a reference to it when it would not fit."""
    value = json.dumps({"q": question, "s": sparql}, ensure_ascii=False, separators=(",", ":"))
    if len(value) <= MAX_BUTTON_VALUE:
        return value
    return json.dumps({"ref": recent.remember(question, sparql)})


def read_feedback(value: str, recent: Remembers) -> tuple[str, str] | None:
    """The pair a 👍 button carried; None when it is unreadable or too old to recall."""
    try:
        data = json.loads(value)
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    if "ref" in data:
        return recent.recall(str(data["ref"]))
    question, sparql = data.get("q"), data.get("s")
    return (question, sparql) if isinstance(question, str) and isinstance(sparql, str) else None
