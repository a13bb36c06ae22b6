"""Asking back which thing a name means: a name typed as the first words of several labels of the graph ('agrovit'
for 'AgroViT-S' and 'AgroViT-B'), or as some words of several fields' and problems' labels ('volcanic ash'), is not
guessed; the reply asks which, a choice per label, each the question with the name written whole."""
from __future__ import annotations

from collections.abc import Callable

from pipeline.intent.attempt import Composition
from pipeline.intent.loose import field_parts
from pipeline.intent.named import begun_by, spans
from pipeline.names.index import LabelIndex
from pipeline.records import Choice

MAX_CHOICES = 5  # buttons a question asked back offers (Slack shows five to a row)


def which_name(text: str, generic: frozenset[str], index: LabelIndex,
               composes: Callable[[str], Composition | None]) -> tuple[str, tuple[Choice, ...]] | None:
    """The longest name of ``text`` that two to five labels begin, with a choice per label — when the question with
    one of them written whole can be answered (``composes``); None otherwise."""
    found = []
    for a, b in spans(text, generic):
        begun = begun_by(text[a:b], index) or field_parts(text[a:b], index, generic)
        if 2 <= len(begun) <= MAX_CHOICES:
            found.append((b - a, a, b, begun))
    for _, a, b, begun in sorted(found, key=lambda f: (-f[0], f[1])):
        choices = tuple(Choice(label, text[:a] + label + text[b:]) for label in begun)
        if any(composes(c.question) is not None for c in choices):
            return text[a:b], choices
    return None
