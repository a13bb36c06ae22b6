"""The model as a reader (``KGQA_LLM_READER``): the language model writes no SPARQL. It is shown the questions the
project already answers that take the question's names — the composer's intent pairs and the stored pairs retrieved
for it, each written with the names as the graph spells them, and only those whose query holds every condition the
question states — and copies the one that asks the same, or writes "none of these", as JSON its server holds to a
schema (the only strings it can write are those questions and "none of these"). The copied question's query, filled
with the names, is the reader's query, and the loop's checks judge it as any writer's. A question naming nothing the
graph holds, or "none of these", leaves the question to the next writer (the model writing SPARQL).
Small models do this far better by copying a question than by naming its number or its labels: the 1.5B model, shown
a numbered list, answered 1 whatever was asked, and asked for labels (what is asked for, in which form) it mislabelled
most questions; asked to copy, it copied the right one or said none (docs/results/llm-grounded.md)."""
from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pipeline.intent.account import Question, meanings
from pipeline.intent.compose import Composer, assign, heard, unsaid_by
from pipeline.intent.conditions import blanked, unaccounted
from pipeline.intent.filling import filled
from pipeline.intent.guard import core
from pipeline.intent.named import Name, resolve, years
from pipeline.intent.operators import ordinal
from pipeline.intent.reading import YEAR, Intent, read_intent
from pipeline.matching.forms import form_of
from pipeline.names.index import LabelIndex
from pipeline.parts import Generator, KnowledgeGraph, Structured
from pipeline.question import printable
from pipeline.records import Example, Generation, Retrieved
from pipeline.sparql.text import parses
from pipeline.store.knowledge import Knowledge

MAX_OPTIONS = 24  # questions the names fit, at most: the stored pairs retrieved first, then the intent pairs
NONE = "none of these"
TASK = ("Task: Which of the questions below asks exactly the same as the user's question: the same things, the same "
        "conditions and the same kind of answer (a list, a count, a single best one, a value, yes or no)? Copy that "
        f'question, or write "{NONE}".\n')
_NUMBER = re.compile(r"\b(?:top|first|best)\s+(\d+)\b|\bthe\s+(\d+)(?=\s+(?:best|top|highest|lowest|worst))", re.I)
_PLACE = re.compile(r"\b(second|third|fourth|fifth)\b", re.I)


@dataclass(frozen=True)
class Option:
    """A question the project answers, written with the user's names, and its query filled with them."""

    question: str
    sparql: str
    pair: Example
    names: tuple[Name, ...]


def worded(pair: Example, names: Sequence[Name], intent: Intent) -> str:
    """The pair's question with its slots written as ``names`` (in slot order), and its place or count in a ranking
    as the user's question gives it ('the top 5', 'the third')."""
    pieces = list(form_of(pair).pieces)
    for i, piece in enumerate(pieces):  # in the pair's own words, never inside a name
        if "top" in intent.operators:
            piece = _NUMBER.sub(lambda m: m.group(0).replace(m.group(1) or m.group(2), str(intent.rank)), piece)
        if "kth" in intent.operators:
            piece = _PLACE.sub(ordinal(intent.rank), piece)
        pieces[i] = piece
    text = pieces[0] + "".join(n.label + piece for n, piece in zip(names, pieces[1:]))
    return " ".join(text.split())


def _ranked(pair: Example, intent: Intent) -> Intent:
    """The pair's own operators, with the user's place or count where the pair ranks the same way (a "top 3" pair
    asked for the top 5 keeps 5 rows; a "highest" pair keeps one)."""
    own = read_intent(pair.question)
    same = own.operators & intent.operators & {"top", "kth"}
    return Intent(own.operators, intent.rank if same else own.rank, own.highest)


def options(text: str, names: Sequence[Name], pairs: Sequence[Example], intent: Intent,
            limit: int = MAX_OPTIONS, admits: Callable[[Example, Sequence[Name]], bool] | None = None
            ) -> list[Option]:
    """The pairs whose slots take every one of the question's names (by kind), each written with them, without
    repeats and without those whose query leaves out a condition the question states (a number, code, 'only');
    ``admits``: whether a pair filled with its names asks nothing the question does not (``Composer.admits``)."""
    stated = blanked(text, [(n.start, n.end) for n in names if YEAR not in n.kinds])  # 'after 2020' is read whole
    read = heard(text, [(n.start, n.end) for n in names])  # the question read once, every pair held against it
    out: list[Option] = []
    seen: set[str] = set()
    for pair in pairs:
        if not parses(pair.sparql):
            continue
        chosen = assign(form_of(pair), names)
        if chosen is None or (admits is not None and not admits(pair, chosen)) or _drops(pair, read, intent):
            continue
        ranked = _ranked(pair, intent)
        question, sparql = worded(pair, chosen, ranked), filled(pair, chosen, ranked, text)
        if question.lower() in seen or unaccounted(stated, sparql, measures=True):
            continue
        seen.add(question.lower())
        out.append(Option(question, sparql, pair, tuple(chosen)))
        if len(out) == limit:
            break
    return out


# what a question's words do to its answer (``account``'s meanings): a question the model reads may word its things
# and links in any way, never leave one of these out ('top f1 *on each dataset*' is no 'highest F1 anywhere'); which
# way a ranking goes is the metric's to say ('the best' by an error rate), held by ``admits``
_OPERATIVE = frozenset({"count", "kth", "compare", "most", "average", "early", "late", "both", "every", "spread",
                        "gap", "beat", "not"})


def _drops(pair: Example, question: Question, intent: Intent) -> bool:
    """Whether the stored ``pair`` leaves out a word of the ``question`` that says what is done to the answer (a
    grouping, a negation, a bound, a ranking): a reading that drops it answers another question."""
    left = unsaid_by(pair, question, "yesno" in intent.operators)
    return any(meanings(w) & _OPERATIVE for w in left)


def whole(text: str, names: Sequence[Name], spans: Sequence[tuple[int, int, str]], generic: frozenset[str]
          ) -> list[Name]:
    """The names that are not a part of a longer name the question writes ('Transformer' in 'Long Short
    Transformer', a model the graph may lack; the form words at a span's edges aside: 'F1' is all of 'F1 score'): a
    reading with a part of a name would answer about another thing."""
    cores = []
    for a, b, _ in spans:
        kept = core(text[a:b], generic)
        start = a + text[a:b].find(kept)
        cores.append((start, start + len(kept)))
    return [n for n in names if not any(a <= n.start and n.end <= b and b - a > n.end - n.start for a, b in cores)]


def prompt(question: str, shown: Sequence[Option]) -> str:
    """The reader's prompt: the task, the questions that take the user's names, the user's question."""
    listed = "".join(f"- {printable(o.question)}\n" for o in shown)
    return f'{TASK}Questions:\n{listed}User\'s question: {printable(question)}\nAnswer as JSON: {{"same_as": ...}}'


def copy_schema(texts: Sequence[str]) -> dict[str, object]:
    """The JSON a model copying one of ``texts`` may write: one of them, or "none of these"."""
    return {"type": "object", "properties": {"same_as": {"type": "string", "enum": [*texts, NONE]}},
            "required": ["same_as"], "additionalProperties": False}


def copied(reply: str) -> str | None:
    """What a copying model's reply says it copied ("none of these" included); None when it is not the JSON asked
    for."""
    try:
        same = json.loads(reply.strip())["same_as"]
    except (ValueError, KeyError, TypeError):
        return None
    return same if isinstance(same, str) else None


def schema(shown: Sequence[Option]) -> dict[str, object]:
    """The JSON the model may write: one of the questions shown, copied, or "none of these"."""
    return copy_schema([printable(o.question) for o in shown])


def picked(reply: str, shown: Sequence[Option]) -> Option | str | None:
    """The question the model copied, ``NONE``, or None when the reply is not the JSON asked for."""
    same = copied(reply)
    if same == NONE:
        return NONE
    return next((o for o in shown if printable(o.question) == same), None)


class ReaderGenerator:
    """The model as a reader; ``model`` is the language model's part, ``kg`` the graph the names are looked up in,
    ``pairs`` the composer's intent pairs, ``knowledge`` the stored pairs' forms, ``labels`` the graph's label index."""

    def __init__(self, model: Generator, name: str, kg: KnowledgeGraph, pairs: Callable[[], Sequence[Example]],
                 knowledge: Callable[[], Knowledge] | None = None,
                 labels: Callable[[], LabelIndex | None] | None = None) -> None:
        if not isinstance(model, Structured):
            raise TypeError(f"{model.name} cannot hold its replies to a JSON schema, so it cannot read")
        self.part = model
        self.model: Structured = model
        self.name = f"reader:{name}"
        self.kg = kg
        self.pairs = pairs
        self.knowledge = knowledge
        self.labels = labels

    def ping(self, timeout: float = 2.0) -> bool:
        return self.part.ping(timeout)

    def shown(self, question: str, examples: Sequence[Retrieved]) -> tuple[list[Option], str]:
        """The questions the model is shown for ``question``, or none and why."""
        generic = self.knowledge().generic if self.knowledge is not None else frozenset()
        index = self.labels() if self.labels is not None else None
        found = whole(question, resolve(question, self.kg, generic, index, known=index),
                      self.knowledge().names(question) if self.knowledge is not None else [], generic)
        if not found:
            return [], "it names nothing the graph holds as a label"
        names = sorted(found + years(question, found), key=lambda n: n.start)
        intent = read_intent(blanked(question, [(n.start, n.end) for n in names if YEAR not in n.kinds]))
        # the project's own pairs are held to what the question asks, as the rules hold them ('the top 3 by MAE' is
        # no pair ranking the highest; no pair adds code nobody asked for); the stored pairs are the store's forms
        own = {p.id for p in self.pairs()}
        held = Composer(self.pairs, self.labels).admits(question, intent, self.kg, generic, names)
        shown = options(question, names, [r.example for r in examples] + list(self.pairs()), intent,
                        admits=lambda pair, chosen: pair.id not in own or held(pair, chosen))
        return shown, "" if shown else "no question the project answers takes its names"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        shown, why = self.shown(question, examples)
        if not shown:
            return self._none(why)
        asked = prompt(question, shown)
        raw = self.model.structured(asked, schema(shown))
        option = picked(raw, shown)
        if option is None:  # a server that does not hold replies to a schema: the next writer's turn
            return Generation(self.name, None, raw=raw, prompt=asked, reason="the model's reading is not the JSON "
                              f"asked for ({raw.strip()[:80]!r})", explanation="I could not read this question.")
        if isinstance(option, str):
            return Generation(self.name, None, raw=raw, prompt=asked, reason="the model read none of the "
                              f"{len(shown)} questions shown as this one", explanation="None of the questions I know "
                              "how to answer about these names asks the same as this one.")
        used = ", ".join(f"'{n.label}'" for n in option.names)
        return Generation(self.name, option.sparql, raw=raw, prompt=asked,
                          notes=(f"read as '{option.question}' ({option.pair.id}, with {used})",))

    def _none(self, why: str) -> Generation:
        return Generation(self.name, None, reason=why, explanation=f"I could not read this question: {why}.")
