"""A live run's model queries as a replay file (``[{"id", "question", "sparql"}]``, read by ``replay:FILE``): for
each question the model's query that went on to the intent step; a question where no query of the model was taken
(the composer or the adapter wrote, or the model wrote nothing usable) is left out, so the replay's fallback writes
there as it did live."""
from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from pipeline.eval.ablations import taken


def recorded_replies(reports: Iterable[Mapping[str, Any]]) -> list[dict[str, str]]:
    """The replay items of every question of ``reports`` (report.json contents), in their order."""
    out = []
    for report in reports:
        for q in report["questions"]:
            sparql = taken(q)
            if sparql:
                out.append({"id": str(q["id"]), "question": str(q["question"]), "sparql": sparql})
    return out
