"""Offline generator: the best-fitting stored query with its label literals refilled from the user's question."""
from __future__ import annotations

from collections.abc import Callable, Sequence

from pipeline.matching.align import pattern_spans
from pipeline.matching.fill import Name, fill, names_in
from pipeline.matching.forms import Labels, form_of, slot_values
from pipeline.records import Generation, Retrieved
from pipeline.sparql.shape import replace_literals
from pipeline.sparql.text import parses
from pipeline.store.knowledge import Knowledge

REUSE_MIN = 0.85  # a query without labels is reused as it is only for (nearly) the same question




class AdapterGenerator:
    """Fills the best example's labels from the question; declines (saying why) when no example fits well enough.

    ``knowledge`` (from the form-aware store) lends the stored labels, for kinds and casing; without it the
    examples at hand are the only vocabulary."""

    name = "adapter"

    def __init__(self, min_similarity: float, knowledge: Callable[[], Knowledge] | None = None) -> None:
        self.min_similarity = min_similarity
        self.knowledge = knowledge

    def ping(self, timeout: float = 2.0) -> bool:
        """Nothing to reach."""
        return True

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        """``question`` tidied (``pipeline.question.tidy``). A stored query that does not parse is never filled;
        the grammar is consulted only for the examples actually looked at."""
        text = question
        top = next((r for r in examples if parses(r.example.sparql)), None)
        if examples and top is None:
            return Generation(self.name, None, explanation=(
                "The stored questions closest to this one have queries that do not parse, so I adapt none of them."))
        if top is None or top.score < self.min_similarity:
            best = f" (the closest scores {top.score:.2f}, below {self.min_similarity:.2f})" if top else ""
            return Generation(self.name, None, off_topic=True, explanation=(
                "No stored question is close enough to this one to adapt its query" + best + "."))
        labels, generic = self._vocabulary(examples)
        for r in examples:  # exact wording first: an example whose fixed words frame the question
            if r.score < self.min_similarity:
                if parses(r.example.sparql):
                    break
                continue
            form = form_of(r.example)
            spans = pattern_spans(form.pieces, text)
            if spans is not None and parses(r.example.sparql):
                return self._made(r, text, [text[a:b] for a, b in spans], labels, generic, ["matched the wording of"])
        form = form_of(top.example)
        filling = fill(form, text, labels, generic, self._names(text, labels, generic))
        if not form.kinds:
            if filling.alignment.score < REUSE_MIN:
                return Generation(self.name, None, explanation=(
                    f"The closest stored question ('{top.example.question}') asks something else, and its query "
                    "has no names I could change."))
            return Generation(self.name, top.example.sparql, raw=top.example.sparql,
                              notes=(f"reused the query of {top.example.id} as it is (it has no labels to fill)",))
        if any(v is None for v in filling.values):
            missing = ", ".join(k for k, v in zip(form.kinds, filling.values) if v is None)
            return Generation(self.name, None, explanation=(
                f"The closest stored question ('{top.example.question}') needs a {missing} name that I cannot find "
                "in this one."))
        how = ["matched the names' kinds to"] if filling.by_kind else ["aligned with"]
        if filling.alignment.typos and not filling.by_kind:
            how.append("reading " + ", ".join(f"'{q}' as '{f}'" for f, q in filling.alignment.typos[:3]) + " in")
        return self._made(top, text, [v for v in filling.values if v is not None], labels, generic, how)

    def _vocabulary(self, examples: Sequence[Retrieved]) -> tuple[Labels, frozenset[str]]:
        if self.knowledge is not None:
            know = self.knowledge()
            return know.labels, know.generic
        usable = [r for r in examples if parses(r.example.sparql)]
        words = {w.lower().strip("?!.,;:()\"'") for r in usable for p in form_of(r.example).pieces for w in p.split()}
        return Labels(r.example for r in usable), frozenset(words - {""})

    def _names(self, text: str, labels: Labels, generic: frozenset[str]) -> list[Name]:
        """The question's names, as retrieval already read them when the stored knowledge is at hand."""
        return self.knowledge().names(text) if self.knowledge is not None else names_in(text, labels, generic)

    def _made(self, r: Retrieved, text: str, raw_values: list[str], labels: Labels, generic: frozenset[str],
              how: list[str]) -> Generation:
        literals = [lit for lit, _ in slot_values(r.example)]
        notes = [f"{' '.join(how)} {r.example.id} (score {r.score:.2f})"]
        values: dict[str, str] = {}
        lowercased = text == text.lower()
        for literal, raw in zip(literals, raw_values):
            at = text.find(raw)
            after = text[at + len(raw):].split()[:1] if at >= 0 else []
            value, changes = clean_label(raw, labels, generic, after[0] if after else "", lowercased)
            values[literal] = value
            notes += changes
        filled = ", ".join(f"'{new}' for '{old}'" for old, new in values.items() if new != old) or "no changes"
        notes[0] += f"; filled {filled}"
        sparql = replace_literals(r.example.sparql, values)
        return Generation(self.name, sparql, raw=sparql, notes=tuple(notes))


def clean_label(raw: str, labels: Labels, generic: frozenset[str], after: str = "",
                lowercased: bool = False) -> tuple[str, list[str]]:
    """A label as the user wrote it, blanks collapsed. A stray leading 'the' goes, and a trailing lowercase class
    word ('benchmark', 'dataset') unless the question repeats it right after (``after``: 'X dataset dataset') or
    the store knows the label with it. Spelled as the stored queries spell it when the user's spelling differs only
    in blanks, or when the user typed the whole question in lowercase (``lowercased``). Returns (label, notes)."""
    notes: list[str] = []
    value = " ".join(raw.split()).strip("\"'`“”‘’")
    if value != raw.strip():
        notes.append(f"normalised the blanks in '{value}'")
    words = value.split()
    next_word = after.lower().strip("?!.,;:")
    while len(words) > 1 and value not in labels:
        if words[0] in ("the", "a", "an"):
            words = words[1:]
        elif words[-1] == words[-1].lower() and words[-1] in generic and words[-1] != next_word:
            next_word = words[-1]
            words = words[:-1]
        else:
            break
        trimmed = " ".join(words)
        notes.append(f"read '{trimmed}' from '{value}'")
        value = trimmed
    stored = labels.spelling(value)
    if stored is not None and (lowercased or " ".join(stored.split()) == value):
        notes.append(f"wrote '{stored}' for '{value}', as the stored queries spell it")
        value = stored
    return value, notes
