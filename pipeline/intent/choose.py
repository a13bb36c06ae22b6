"""The model filling a reading the rules could only read in part (a question about the graph's comparisons): the
readings the question may mean — the rules' own, with what they could not place read as each ranking, average or most
common value over the properties its comparison carries — are written as the sentences the compiler says for them
(``pipeline.intent.compile.sentence``), and the model copies the one that asks what the question asks, or writes
"none of these", held to a JSON schema whose only strings are those sentences. It cannot name a property, a
comparison or a value the graph lacks, and what it picked is compiled and said as any reading is. (The 1.5B model
copies a question far better than it names labels: ``pipeline.intent.reader``.)"""
from __future__ import annotations

import re
from dataclasses import replace

from pipeline.intent.comparisons import Comparisons
from pipeline.intent.compile import sentence
from pipeline.intent.reader import NONE, copied, copy_schema
from pipeline.intent.record import Linked, Reading
from pipeline.parts import Structured
from pipeline.question import printable

MAX_PROPERTIES = 4  # the properties the question names, then those nearest it in meaning, each read every way
TASK = ("Task: The user's question is about a comparison of research contributions. Which reading below asks exactly "
        "what the user's question asks (the same thing asked for, ranked, averaged or counted the same way)? Copy "
        f'that reading, or write "{NONE}".\n')


def readings(reading: Reading, facts: Comparisons) -> list[Reading]:
    """Whole readings ``reading`` (partial, its words left over in ``unplaced``) may mean: each of the properties it
    names, then those nearest the question in meaning (the encoder's), as the thing ranked ('strongest': the highest
    'strength'), averaged, most common or listed, the rest of the reading (its comparison, its conditions, what it
    asks for) kept. None without a
    comparison named or words left over, or where a whole part of it was not read ('which property a value is of')."""
    if reading.whole or reading.scope is None or any(w.startswith("(") and w != "(what is asked)"
                                                     for w in reading.unplaced):
        return []
    carried = facts.carried(reading.scope.iri)
    named = [n.iri for n in reading.names if n.kind == "property" and n.iri in carried]
    # nearest in meaning to the whole question: the words the comparison's name took may name the property too
    near = [iri for _, iri in facts.property_meant(reading.question)] if facts.property_meant else []
    props = list(dict.fromkeys(named + [p for p in near if p in carried] + carried))[:MAX_PROPERTIES]
    at = _span(reading)
    base = replace(reading, unplaced=(), writer="model", said="")
    out: list[Reading] = []
    for p in props:
        linked = base.names if p in named else base.names + (Linked(at, "property", p, facts.property_labels[p]),)
        numeric = facts.numeric is None or p in facts.numeric
        asked = reading.asked if reading.asked and reading.asked != p else "paper"
        if numeric:  # the papers ranked by it, the highest or lowest value itself, its average
            out += [replace(base, names=linked, asked=who, operator=op, by=p) for op in ("max", "min")
                    for who in dict.fromkeys((asked, p))]
            out.append(replace(base, names=linked, asked=p, operator="average", by=p))
        else:
            out.append(replace(base, names=linked, asked=p, operator="most", by=""))
        out.append(replace(base, names=linked, asked=p, operator="list", by=""))
    return [replace(r, said=sentence(r)) for r in out]


def _span(reading: Reading) -> tuple[int, int]:
    """Where the first word left over stands in the question ((0, 0) when none does)."""
    word = next((w for w in reading.unplaced if not w.startswith("(")), "")
    found = re.search(rf"\b{re.escape(word)}\b", reading.question, re.I) if word else None
    return found.span() if found else (0, 0)


def written(reading: Reading) -> str:
    """A reading's sentence as the model is shown it: its comparison, the same in every one shown, said once in the
    task rather than in each."""
    where = f" among the contributions of the comparison '{reading.scope.label}'" if reading.scope else ""
    return printable(reading.said.replace(where, ""))


def prompt(question: str, shown: list[Reading]) -> str:
    scope = shown[0].scope.label if shown[0].scope else ""
    listed = "".join(f"- {written(r)}\n" for r in shown)
    return (f"{TASK}The comparison: '{printable(scope)}'.\nReadings:\n{listed}"
            f"User's question: {printable(question)}\nAnswer as JSON: {{\"same_as\": ...}}")


def schema(shown: list[Reading]) -> dict[str, object]:
    """The JSON the model may write: one of the readings shown, copied, or "none of these"."""
    return copy_schema(list(dict.fromkeys(written(r) for r in shown)))


def picked(reply: str, shown: list[Reading]) -> Reading | None:
    """The reading the model copied; None for "none of these" or a reply that is not the JSON asked for."""
    same = copied(reply)
    return next((r for r in shown if written(r) == same), None)


def chosen(model: Structured, reading: Reading, facts: Comparisons) -> tuple[Reading | None, str, str]:
    """The reading the model picks for a partial ``reading`` (None: nothing to pick from, or none picked), with the
    prompt and its reply."""
    shown = readings(reading, facts)
    if not shown:
        return None, "", ""
    asked = prompt(reading.question, shown)
    reply = model.structured(asked, schema(shown))
    return picked(reply, shown), asked, reply
