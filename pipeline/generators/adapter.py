"""Offline generator: the nearest stored query with its label literals refilled from the user's question."""
from __future__ import annotations

import re
from collections.abc import Sequence

from pipeline.align import fill_by_alignment, fill_by_pattern, slots
from pipeline.records import Generation, Retrieved


def replace_literals(sparql: str, values: dict[str, str]) -> str:
    """Rewrite the query's string literals whose content is a key of ``values``; everything else stays."""
    out: list[str] = []
    pos = 0
    for m in re.finditer(r'"(?:[^"\\\n]|\\.)*"|\'(?:[^\'\\\n]|\\.)*\'', sparql):
        body = m.group()[1:-1]
        if body in values:
            out.append(sparql[pos:m.start()])
            out.append('"' + values[body].replace("\\", "\\\\").replace('"', '\\"') + '"')
            pos = m.end()
    out.append(sparql[pos:])
    return "".join(out)


class AdapterGenerator:
    """Fills the best-fitting example's labels; declines when no stored example is similar enough."""

    name = "adapter"

    def __init__(self, min_similarity: float = 0.45) -> None:
        self.min_similarity = min_similarity

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        if not examples or examples[0].score < self.min_similarity:
            best = f" (the closest scores {examples[0].score:.2f})" if examples else ""
            return Generation(self.name, None, explanation=(
                "No stored question is close enough to this one to adapt its query" + best + "."))
        for r in examples:  # exact wording first: the first example whose fixed words frame the question
            found = slots(r.example.question, r.example.sparql)
            values = fill_by_pattern(r.example.question, found, question)
            if values is not None:
                return self._made(r, values, "matched the wording of")
        top = examples[0]
        found = slots(top.example.question, top.example.sparql)
        if not found:
            return Generation(self.name, top.example.sparql, raw=top.example.sparql,
                              notes=(f"reused the query of {top.example.id} as it is (it has no labels to fill)",))
        values = fill_by_alignment(top.example.question, found, question)
        if values is None:
            return Generation(self.name, None, explanation=(
                f"The closest stored question ('{top.example.question}') does not line up with this one, "
                "so I cannot tell which names to put in its query."))
        return self._made(top, values, "aligned with")

    def _made(self, r: Retrieved, values: dict[str, str], how: str) -> Generation:
        sparql = replace_literals(r.example.sparql, values)
        filled = ", ".join(f"'{new}' for '{old}'" for old, new in values.items() if new != old) or "no changes"
        note = f"{how} {r.example.id} (similarity {r.score:.2f}); filled {filled}"
        return Generation(self.name, sparql, raw=sparql, notes=(note,))

