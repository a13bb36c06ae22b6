"""Writes a generated question set: each intent about every binding of its names, in one wording each (``sample``:
the wordings in turn from one the seed draws) or in every wording (``every``), each name spelled as the seed draws;
each question carries its gold query, filled with the names, and no answer: the evaluation runs it on the graph."""
from __future__ import annotations

import random
import re
from collections.abc import Sequence
from typing import Any

from pipeline.eval.generated.intents import INTENTS, GoldIntent
from pipeline.eval.generated.names import Binding, Names
from pipeline.sparql.literal import quoted

SIZES = ("sample", "every", "per-intent")
_SLOT = re.compile(r"\{(dataset|other|model|metric|problem|field|paper|year|k)\}")
NAMED = ("dataset", "other", "model", "metric", "problem", "field", "paper")  # slots a user types a name in


def lower(name: str) -> str:
    return name.lower()


def tight(name: str) -> str:
    """No blank before a parenthesis: 'WikiPassages(English)'."""
    return name.replace(" (", "(")


def spaced(name: str) -> str:
    """Two blanks where the graph has one."""
    return name.replace(" ", "  ")


def as_is(name: str) -> str:
    return name


STYLES = (as_is, lower, tight, spaced)  # how a name is typed: case, spacing, parentheses


def fill(template: str, values: Binding, literal: bool) -> str:
    """``template`` with each ``{slot}`` replaced: as a SPARQL literal (``literal``, ``k`` as a number) or as typed."""
    def one(m: re.Match[str]) -> str:
        value = values[m.group(1)]
        return (value if m.group(1) == "k" else quoted(value)) if literal else value
    return _SLOT.sub(one, template)


def question(intent: GoldIntent, wording: str, binding: Binding, rng: random.Random) -> tuple[str, Binding]:
    """The question asked, and each name as it was typed in it."""
    typed = {slot: rng.choice(STYLES)(value) if slot in NAMED else value for slot, value in binding.items()}
    return fill(wording, typed, literal=False), typed


def generate(names: Names, seed: int, size: str = "sample", intents: Sequence[GoldIntent] = INTENTS
             ) -> list[dict[str, Any]]:
    """The questions of a set, in a fixed order; the same ``names`` and ``seed`` give the same list."""
    if size not in SIZES[:2]:
        raise ValueError(f"size must be one of {', '.join(SIZES[:2])}, not {size!r}")
    rng = random.Random(seed)
    out = []
    for intent in intents:
        start = rng.randrange(len(intent.wordings))  # the sample takes the wordings in turn from a drawn one
        for n, binding in enumerate(names.bindings(intent.over), 1):
            turn = intent.wordings[(start + n) % len(intent.wordings)]
            wordings = intent.wordings if size == "every" else (turn,)
            for w, wording in enumerate(wordings, 1):
                text, typed = question(intent, wording, binding, rng)
                out.append({"id": f"GI-{intent.id}-{n}" + (f"-w{w}" if size == "every" else ""),
                            "intent": intent.id, "question": text, "names": binding, "typed": typed,
                            "wording": intent.wordings.index(wording) + 1,
                            "gold_sparql": fill(intent.gold, binding, literal=True)})
    return out


def per_intent(questions: Sequence[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """One question of each intent, drawn by ``seed`` (a sample small enough for a language model on a CPU)."""
    rng = random.Random(seed)
    by: dict[str, list[dict[str, Any]]] = {}
    for q in questions:
        by.setdefault(q["intent"], []).append(q)
    return [rng.choice(group) for group in by.values()]


def question_set(names: Names, seed: int, size: str, graph: str, command: str) -> dict[str, Any]:
    """The set as ``kgqa eval --questions FILE`` reads it (``per-intent``: one question of each intent of the
    sample)."""
    if size == "per-intent":
        data = question_set(names, seed, "sample", graph, command)
        return {**data, "about": "One question of each intent of generated-sample.json, drawn by the seed (for a "
                                 "language model on a CPU); gold = gold_sparql run on the graph at eval time.",
                "size": size, "questions": per_intent(data["questions"], seed)}
    return {"about": f"Generated new-intent questions ({size}: "
                     + ("every wording" if size == "every" else "one wording each, in turn")
                     + " for every name of each intent's kind); gold = gold_sparql run on the graph at eval time.",
            "graph": graph, "seed": seed, "size": size, "command": command,
            "questions": generate(names, seed, size)}
