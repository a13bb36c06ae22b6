"""What the intent step tells the user: a composed query in place of the one written, the words a partial reading
could not place, and a question back with its choices."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pipeline.intent.attempt import Composition
from pipeline.records import Choice, Generation, Retrieved, Review


def left_words(unplaced: Sequence[str]) -> tuple[str, ...]:
    """The words of a partial reading, as one thing the closest query leaves out."""
    if not unplaced:
        return ()
    return (f"what {listed(unplaced)} say{'s' if len(unplaced) == 1 else ''} (no query I can write does)",)


def with_unplaced(generation: Generation, unplaced: Sequence[str]) -> Generation:
    """A generation that wrote nothing, with the words no query could place added to its explanation."""
    if not unplaced:
        return generation
    said = f"I could not place {listed(unplaced)} in any query I can write."
    return replace(generation, explanation=f"{generation.explanation} {said}".strip() if generation.explanation
                   else said)


def composed_review(composed: Composition, generation: Generation, why: str) -> Review:
    """The composed query in place of the one written (the model's prompt and replies stay on record), saying why."""
    used = ", ".join(f"'{n.label}' ({sorted(n.kinds)[0]})" for n in composed.names)
    whose = "the taught" if composed.pair.source == "team" else "intent"
    read = "".join(f"; read '{typed}' as '{label}'" for typed, label in composed.read)
    return Review(Generation("intent", composed.sparql, raw=composed.sparql, prompt=generation.prompt, notes=(
        f"{why + '; ' if why else ''}composed from {whose} pair {composed.pair.id} with {used}{read}",),
        attempts=generation.attempts))


def listed(items: Sequence[str]) -> str:
    return ", ".join(f"'{i}'" for i in items)


def closest(examples: Sequence[Retrieved]) -> str:
    return examples[0].example.question if examples else ""


def asked_back(generation: Generation, said: str, which: str, why: str, choices: Sequence[Choice]) -> Review:
    """No query run: the question ``said`` back to the user ('which one do you mean?'), a choice per answer."""
    return Review(Generation(generation.generator, None, raw=generation.raw, prompt=generation.prompt,
                             explanation=said, notes=generation.notes + (f"asked back: which {which}",),
                             attempts=generation.attempts), why=why, choices=tuple(choices))


def named_few(labels: Sequence[str], most: int) -> str:
    """Up to ``most`` labels quoted, '…' for the rest."""
    return listed(labels[:most]) + (", …" if len(labels) > most else "")
