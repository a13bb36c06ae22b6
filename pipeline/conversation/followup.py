"""A follow-up in a thread read as a standalone question, from the earlier turns' questions and names:
"and on SQuAD2.0?" / "what about F1?" / "same for BERT-Large" put the new name in place of the earlier name of its
kind; "it/there/them/that one" become the last named entity ("that model" the last model); "which one is best by M?"
asks the best of the list; "and the metrics?" asks those things of the last named entity. A question that stands on its
own is left as it is."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from pipeline.names.index import LabelIndex
from pipeline.question import tidy
from pipeline.records import Kind, Match

# a follow-up that only names something new: "and on X?", "what about X?", "same for X", "and by X?"
_CUE = re.compile(r"^(?:(?:ok(?:ay)?|so)[\s,]+)?(?:and(?:\s+(?:now|also|what\s+about|how\s+about))?|"
                  r"what\s+about|how\s+about|same(?:\s+question)?(?:\s+but)?|now|also)(?=[\s,]|$)[\s,]*", re.I)
_PREPOSITION = re.compile(r"^(?:(?:on|for|in|by|with|using|of|over|at)(?:\s+terms\s+of)?|in\s+terms\s+of)\s+", re.I)
_KIND_WORDS = re.compile(r"\s+(?:dataset|benchmark(?:\s+dataset)?|model|metric|score|research\s+(?:field|problem)|"
                         r"problem|field|paper)$", re.I)
# references to the last named entity (not the existential "is there"); "that model", or "the model" ending its phrase
# (not "the model that performed best", "that benchmark the X model"), to the last model named
_REFERENCE = re.compile(r"(?<!\bis )(?<!\bare )(?<!\bwas )(?<!\bwere )\b(?:there|it|them|that one|this one|"
                        r"(?:that|this|the same) (?P<kind>dataset|model)|"
                        r"(?:that|this|the same|the) (?P<ending>dataset|benchmark|model)"
                        r"(?=\s*(?:[?.!,;'’]|$)|\s+(?:in|on|for|by|with|and|or|too|then|at|of)\b))\b"
                        r"(?!\s+(?:is|are|was|were)\b)",
                        re.I)
_REFERRED_KIND = {"dataset": Kind.DATASET, "benchmark": Kind.DATASET, "model": Kind.MODEL}
# "which of them / which one is best by M?" after a list
_WHICH_OF_THEM = re.compile(r"\b(which|what|who)\s+(?:(?:one\s+)?(?:of|among)\s+them|one(?!\s+(?:of|among)\b))\b",
                            re.I)
# "and the metrics?", "its models?": the things of a kind asked of the last named entity, as the question to ask
_KIND_ASKED = re.compile(r"^(?:(?:the|its|their)\s+)?(?P<noun>models|metrics|papers|datasets|code(?:\s+links)?)"
                         r"(?:\s+(?:too|then))?$", re.I)
_ASKS: dict[str, dict[str, str]] = {  # noun -> the entity's kind -> the question (where / what: _PHRASE's forms)
    "models": {Kind.DATASET: "Which models have been evaluated {where}?",
               Kind.PROBLEM: "Which models have been evaluated {where}?"},
    "metrics": {Kind.DATASET: "Which metrics are used {where}?"},
    "papers": {Kind.DATASET: "Which papers include a benchmark {where}?", Kind.MODEL: "Which papers use {what}?"},
    "datasets": {Kind.PROBLEM: "Which datasets are used {where}?",
                 Kind.MODEL: "Which datasets is {what} evaluated on?"},
    "code": {Kind.MODEL: "Where can I find code for {what}?"}}
MAX_NAME_WORDS = 12  # "and on X?": X is a name, not a sentence
# what "it/there" points to
_PREFERENCE = (Kind.DATASET, Kind.MODEL, Kind.PROBLEM, Kind.RESEARCHFIELD, Kind.PAPER, Kind.METRIC)
_PHRASE: dict[str, tuple[str, str]] = {
    Kind.DATASET: ("on the {} dataset", "the {} dataset"), Kind.MODEL: ("with the {} model", "the {} model"),
    Kind.PROBLEM: ("for the {} research problem", "{}"), Kind.RESEARCHFIELD: ("in the {} research field", "{}"),
    Kind.PAPER: ("in the paper '{}'", "the paper '{}'"), Kind.METRIC: ("by {}", "{}")}
_PREPOSITION_KINDS = {"on": (Kind.DATASET,), "over": (Kind.DATASET,), "at": (Kind.DATASET,),
                      "in": (Kind.DATASET, Kind.PROBLEM), "by": (Kind.METRIC,), "in terms of": (Kind.METRIC,),
                      "with": (Kind.MODEL,), "using": (Kind.MODEL,), "for": (Kind.MODEL, Kind.PROBLEM, Kind.DATASET)}


@dataclass(frozen=True)
class Reading:
    """The question to answer, and whether it was rewritten from the thread (``how`` says what was done)."""

    question: str
    rewritten: bool = False
    how: str = ""


def turn_names(turn: dict[str, Any]) -> list[dict[str, str]]:
    names = turn.get("names")
    return [n for n in names if isinstance(n, dict) and n.get("kind") and n.get("typed")] \
        if isinstance(names, list) else []


def read_in_thread(question: str, turns: Sequence[dict[str, Any]], index: LabelIndex | None = None) -> Reading:
    """The standalone question for ``question`` asked after ``turns`` (oldest first)."""
    last = next((t for t in reversed(turns) if isinstance(t.get("question"), str) and turn_names(t)), None)
    if last is None:
        return Reading(question)
    text = tidy(question)
    cue = _CUE.match(text)
    asked = _KIND_ASKED.match((text[cue.end():] if cue else text).strip(" ?.!,"))
    if asked:
        return _ask_of_last(asked.group("noun").split()[0].lower(), last) or Reading(question)
    rest = text[cue.end():].strip(" ?.!,") if cue else ""
    if rest and not _REFERENCE.search(rest) and len(rest.split()) <= MAX_NAME_WORDS:
        swapped = _swap_name(rest, last, index)
        if swapped is not None:
            return swapped
    if _REFERENCE.search(text) or _WHICH_OF_THEM.search(text):
        return _resolve_reference(text[cue.end():] if cue else text, last) or Reading(question)
    return Reading(question)


def _swap_name(rest: str, last: dict[str, Any], index: LabelIndex | None) -> Reading | None:
    """"and on X" after a question naming a Y of X's kind: that question with X for Y."""
    prep = _PREPOSITION.match(rest)
    name = _KIND_WORDS.sub("", rest[prep.end():] if prep else rest).strip(" ?.!,\"'")
    name = re.sub(r"^the\s+", "", name, flags=re.I)
    if not name or name.lower().startswith(("which ", "what ", "who ", "how ", "where ")):
        return None
    names = turn_names(last)
    kinds = list(dict.fromkeys(n["kind"] for n in names))
    kind = _kind_of(name, kinds, " ".join(prep.group().split()).lower() if prep else "", index)
    target = next((n for n in reversed(names) if n["kind"] == kind), None)
    if target is None:
        return None
    before = str(last["question"])
    at = before.lower().find(target["typed"].lower())
    if at < 0:
        return None
    standalone = before[:at] + name + before[at + len(target["typed"]):]
    return Reading(standalone, True, f"{kind} '{name}' in place of '{target['typed']}'")


def _kind_of(name: str, kinds: list[str], prep: str, index: LabelIndex | None) -> str:
    """The kind of a new name: the graph's word on it, else its preposition, else the earlier turn's only kind."""
    if index is not None:
        best, score = "", 0.0
        for kind in kinds:
            found = index.find(name, kind)
            rank = 300.0 if index.has(name, kind) else 200.0 if found.match is Match.NORMALISED else \
                found.score if found.match is Match.CLOSE else 0.0
            if rank > score:
                best, score = kind, rank
        if best:
            return best
    for kind in _PREPOSITION_KINDS.get(prep, ()):
        if kind in kinds:
            return kind
    return kinds[0] if len(kinds) == 1 else ""


def _resolve_reference(text: str, last: dict[str, Any]) -> Reading | None:
    """"which metrics are used there?": the reference replaced by the last named entity, in words that say its kind."""
    names = turn_names(last)
    referred = next(((m.group("kind") or m.group("ending")).lower() for m in _REFERENCE.finditer(text)
                     if m.group("kind") or m.group("ending")), None)
    if referred is not None:  # "that model": the last model named, or no rewrite
        names = [n for n in names if n["kind"] == _REFERRED_KIND[referred]]
        if not names:
            return None
    entity = _preferred(names)
    where, what = _PHRASE.get(entity["kind"], ("for {}", "{}"))
    label = entity["typed"]
    text = text.strip().rstrip("?!. ")
    which = _WHICH_OF_THEM.search(text)
    if which:  # "which of them is best by Accuracy" -> "which model is best by Accuracy on the X dataset"
        noun = "model" if entity["kind"] != "model" else "dataset"
        text = text[:which.start()] + f"{which.group(1)} {noun}" + text[which.end():] + " " + where.format(label)
    else:
        text = _REFERENCE.sub(lambda m: where.format(label) if m.group().lower() == "there" else
                              what.format(label), text, count=1)
    text = text[:1].upper() + text[1:] + "?"
    return Reading(text, True, f"'{label}' for the {entity['kind']} mentioned before")


def _preferred(names: list[dict[str, str]]) -> dict[str, str]:
    """What "it/there" points to among a turn's names: the latest of the most preferred kind."""
    return min(reversed(names), key=lambda n: _PREFERENCE.index(n["kind"]) if n["kind"] in _PREFERENCE else 9)


def _ask_of_last(noun: str, last: dict[str, Any]) -> Reading | None:
    """"and the metrics?": the things of that kind asked of the last turn's entity, where a question says so."""
    asks = _ASKS[noun]
    names = [n for n in turn_names(last) if n["kind"] in asks]
    if not names:
        return None
    entity = _preferred(names)
    where, what = _PHRASE[entity["kind"]]
    label = entity["typed"]
    return Reading(asks[entity["kind"]].format(where=where.format(label), what=what.format(label)), True,
                   f"the {noun} of '{label}', the {entity['kind']} mentioned before")
