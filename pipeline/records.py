"""Typed records passed between the pipeline's parts."""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum, StrEnum
from typing import Any, Protocol

Term = dict[str, str]  # a SPARQL-JSON term: {"type": "uri"|"literal"|"bnode", "value": ..., ["datatype"|"xml:lang"]}


@dataclass(frozen=True)
class Example:
    """A known question->SPARQL pair, as stored in the example store."""

    id: str
    question: str
    sparql: str
    template_id: str = ""
    source: str = "sciqa"  # "sciqa" or "team"


@dataclass(frozen=True)
class Retrieved:
    """An example found for a question, with its cosine similarity (1 = identical)."""

    example: Example
    score: float


class Ask(str, Enum):
    """What a language model was sent: the paper's prompt, or which follow-up in the same conversation."""

    PROMPT = "prompt"  # the first prompt (the few-shot examples and the question)
    SYNTAX = "syntax"  # its query did not parse: asked again with the parser's error
    VOCABULARY = "vocabulary"  # its query used names the graph does not have: asked again with them
    UNBOUND = "unbound"  # its query selected variables nothing in its WHERE clause binds: asked again with them
    AGAIN = "again"  # it failed or wrote no query: asked again
    EMPTY = "empty"  # its query ran and found nothing: asked again, told so
    DECLINED = "declined"  # the intent guard declined its query: asked again, told why


class Verdict(str, Enum):
    """What became of one reply of a language model."""

    TAKEN = "taken"  # its query went on to the intent and names steps
    NO_QUERY = "no_query"  # the reply held no query (prose, a refusal, several queries)
    SYNTAX = "syntax"  # its query does not parse, even after the safe fixes
    VOCABULARY = "vocabulary"  # its query uses names the graph does not have
    UNBOUND = "unbound"  # its query selects a variable nothing in its WHERE clause binds (an answer of nothing)
    FAILED = "failed"  # the model server failed: no reply
    TIMED_OUT = "timed_out"  # no reply in time
    NOT_TAKEN = "not_taken"  # a query after an empty answer or a decline that the pipeline did not use (``why``)


@dataclass(frozen=True)
class Attempt:
    """One exchange with a language model, kept whatever became of it: what it was asked, what it replied, the query
    read from the reply (cleaned, as it would run) and what became of it."""

    ask: Ask
    raw: str
    sparql: str | None
    verdict: Verdict
    why: str = ""  # for every verdict but TAKEN: the reason, as a phrase

    def to_json(self) -> dict[str, Any]:
        return {"ask": self.ask.value, "raw": self.raw, "sparql": self.sparql, "verdict": self.verdict.value,
                "why": self.why}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Attempt:
        return cls(Ask(data["ask"]), str(data.get("raw") or ""), data.get("sparql") or None,
                   Verdict(data["verdict"]), str(data.get("why") or ""))


class Readable(Protocol):
    """A question's typed reading as an answer carries it (``pipeline.intent.record.Reading``): the sentence its
    query says, and its JSON."""

    @property
    def said(self) -> str: ...

    def to_json(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class Generation:
    """What a generator made of a question: a query, or a reason why not."""

    generator: str
    sparql: str | None
    raw: str = ""
    prompt: str = ""
    explanation: str = ""
    notes: tuple[str, ...] = ()
    off_topic: bool = False  # declined because the question is about nothing the stored questions cover
    reason: str = ""  # without a query: why, as a phrase a wrapper can quote ("" = the explanation says it)
    attempts: tuple[Attempt, ...] = ()  # every reply of a language model behind it, in order (none: no model asked)
    reading_record: Readable | None = None  # the typed reading its query was compiled from (pipeline.intent.record)


@dataclass(frozen=True)
class Judged:
    """One check's verdict on one query, as the check loop recorded it (``Answer.checks``, in order)."""

    writer: str  # whose query: a generator's name, or "intent" for the composer's
    check: str  # syntax, vocabulary, unbound, intent, names, gate, empty
    call: str  # pass, fixed, ask_again, next_writer, decline (pipeline.loop.verdicts.Call)
    why: str = ""

    def to_json(self) -> dict[str, str]:
        return {"writer": self.writer, "check": self.check, "call": self.call, "why": self.why}


@dataclass(frozen=True)
class Choice:
    """One answer to a question the bot asks back ('which metric?'): what the button says, and the question a pick
    asks in its place."""

    label: str
    question: str

    def to_json(self) -> dict[str, str]:
        return {"label": self.label, "question": self.question}


@dataclass(frozen=True)
class Review:
    """The intent step's verdict: the generation to go on with (``sparql`` None: declined) and, when declined, the
    closest question that can be answered, or the choices the answer depends on (the bot asks back)."""

    generation: Generation
    offer: str = ""
    why: str = ""  # when it declined a query written: what the query lacks (the model is told so once)
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True)
class Rows:
    """A SELECT/ASK result: variable names and bindings in SPARQL-JSON term form."""

    vars: list[str]
    rows: list[dict[str, Term]]
    boolean: bool | None = None
    source: str = ""  # which KG answered, e.g. an endpoint URL or "snapshot (ORKG, early 2023)"
    caveat: str = ""  # e.g. "the live endpoint was unreachable; recorded answer from early 2023"

    @classmethod
    def from_json(cls, data: dict[str, Any], source: str = "", caveat: str = "") -> Rows:
        """Build from a SPARQL 1.1 JSON results document."""
        if "boolean" in data:
            return cls([], [], bool(data["boolean"]), source, caveat)
        vars_ = list(data.get("head", {}).get("vars", []))
        rows = list(data.get("results", {}).get("bindings", []))
        return cls(vars_, rows, None, source, caveat)

    def to_json(self) -> dict[str, Any]:
        if self.boolean is not None:
            return {"head": {}, "boolean": self.boolean}
        return {"head": {"vars": self.vars}, "results": {"bindings": self.rows}}

    def flat(self) -> list[str]:
        """Every bound value of every row, in order (the SciQA challenge's answer form)."""
        if self.boolean is not None:
            return [str(self.boolean).lower()]
        return [row[v]["value"] for row in self.rows for v in self.vars if v in row]


@dataclass(frozen=True)
class Validation:
    """The outcome of cleaning and checking a query; ``fixed`` is what should run."""

    original: str
    fixed: str
    errors: tuple[str, ...] = ()  # why it must not run
    warnings: tuple[str, ...] = ()  # e.g. not standard SPARQL 1.1 (the endpoint may still accept it)

    @property
    def ok(self) -> bool:
        return not self.errors


class Step(str, Enum):
    """A stage of answering a question, announced as it starts (``Pipeline.ask(progress=...)``), in this order (a
    retry after GENERATE or after RUN); a stage that does not run (no name check configured, a declined question) is
    not announced."""

    RETRIEVE = "retrieve"  # finding the stored questions most like this one
    GENERATE = "generate"  # writing the SPARQL
    INTENT = "intent"  # checking the query against everything the question asks
    NAMES = "names"  # checking the query's names against the graph
    RUN = "run"  # running the query on the knowledge graph
    RETRY = "retry"  # seeking a second query: the first was declined by the intent guard, or found nothing


@dataclass(frozen=True)
class Entry:
    """One score on the leaderboard."""

    model: str  # the model's label ("" when the contribution names none)
    model_iri: str
    metric: str
    value: str  # as the graph stores it
    number: float | None  # parsed; None when the value is not a plain number
    paper: str = ""
    paper_iri: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"model": self.model, "model_iri": self.model_iri, "metric": self.metric, "value": self.value,
                "number": self.number, "paper": self.paper, "paper_iri": self.paper_iri}


@dataclass(frozen=True)
class Leaderboard:
    """Every score on one dataset, the charted metric's first, each metric's sorted by number (text values last)."""

    dataset: str
    metric: str  # the metric the question names, else the one with most numbers ("" when none has a metric)
    descending: bool
    entries: tuple[Entry, ...]
    notes: tuple[str, ...] = ()  # e.g. the graph's own ordering disagrees with the numbers
    query: str = ""

    def ranked(self) -> list[Entry]:
        """The charted metric's entries that hold numbers, best first."""
        return [e for e in self.entries if e.metric == self.metric and e.number is not None]

    def top(self) -> Entry | None:
        ranked = self.ranked()
        return ranked[0] if ranked else None

    def tops(self) -> list[Entry]:
        """The best numeric score of each metric, the charted metric's first."""
        best: dict[str, Entry] = {}
        for e in self.entries:
            if e.number is not None:
                best.setdefault(e.metric, e)
        return list(best.values())

    def to_json(self) -> dict[str, Any]:
        return {"dataset": self.dataset, "metric": self.metric, "order": "desc" if self.descending else "asc",
                "entries": [e.to_json() for e in self.entries], "notes": list(self.notes), "query": self.query}


class Kind(StrEnum):
    """The kinds of thing ORKG names that the pipeline looks names up as; the value is the one word for each kind
    everywhere (tables, JSON, the label cache), the ORKG class its ``orkg_class``."""

    DATASET = "dataset"
    MODEL = "model"
    METRIC = "metric"
    PROBLEM = "problem"
    RESEARCHFIELD = "researchfield"
    PAPER = "paper"
    VENUE = "venue"

    @property
    def orkg_class(self) -> str:
        """The ORKG class's local name (``orkgc:ResearchField``)."""
        return "ResearchField" if self is Kind.RESEARCHFIELD else self.value.capitalize()


# the kind of thing an ORKG predicate reaches (its object), whatever the variable holding it is called
REACHED_BY: dict[str, Kind] = {"orkgp:HAS_DATASET": Kind.DATASET, "orkgp:HAS_MODEL": Kind.MODEL,
                               "orkgp:HAS_METRIC": Kind.METRIC, "orkgp:P32": Kind.PROBLEM,
                               "orkgp:P30": Kind.RESEARCHFIELD, "orkgp:HAS_VENUE": Kind.VENUE}


class Match(str, Enum):
    """How a typed name relates to the graph's labels."""

    EXACT = "exact"  # the graph has it as typed: never changed
    NORMALISED = "normalised"  # equal up to case, blanks, hyphens, apostrophes, version spacing
    CLOSE = "close"  # one label close enough by edit distance
    AMBIGUOUS = "ambiguous"  # several labels of the kind fit: ask
    UNKNOWN = "unknown"  # nothing close: say so, list the closest

    @property
    def settled(self) -> bool:
        """Whether the query can run with the chosen label."""
        return self in (Match.EXACT, Match.NORMALISED, Match.CLOSE)


@dataclass(frozen=True)
class Resolution:
    """One typed name and what the graph makes of it."""

    typed: str
    kind: str  # a Kind, or "" when any kind was searched
    match: Match
    chosen: str | None = None
    score: float = 0.0  # 100 for equal, else rapidfuzz's ratio of the squashed texts
    candidates: tuple[str, ...] = ()

    @property
    def changed(self) -> bool:
        return self.chosen is not None and self.chosen != self.typed

    def to_json(self) -> dict[str, object]:
        return {"typed": self.typed, "kind": self.kind, "match": self.match.value, "chosen": self.chosen,
                "score": round(self.score, 1), "candidates": list(self.candidates)}


class Outcome(str, Enum):
    """How a question or query ended, set by the pipeline; ``bot/``, ``eval/`` and the CLI branch on it (never on
    ``Answer.error``'s text). A new way to end is one member here (its value is what JSON and logs show)."""

    ANSWERED = "answered"  # the query ran and returned rows (or a boolean)
    EMPTY = "empty"  # the query ran and nothing in the graph matches it
    DECLINED = "declined"  # no query was written, with the reason (nothing fits, empty question, out of scope, ...)
    REFUSED = "refused"  # the read-only gate refused the query: nothing ran
    FAILED = "failed"  # a part failed: the store, the language model or the knowledge graph
    TIMED_OUT = "timed_out"  # a part's timeout or the question's deadline ran out

    @property
    def ok(self) -> bool:
        """The pipeline did its job (even when the answer is 'nothing' or 'I cannot write a query for this')."""
        return self in (Outcome.ANSWERED, Outcome.EMPTY, Outcome.DECLINED)


@dataclass(frozen=True)
class Answer:
    """Everything the pipeline knows about one question, for the CLI, the bot and the evaluator; frozen: each stage
    returns what it found and the pipeline builds the answer (``dataclasses.replace`` where a later step adds)."""

    question: str
    examples: list[Retrieved] = field(default_factory=list)
    generation: Generation | None = None
    sparql: str | None = None
    rows: Rows | None = None
    explanation: str = ""
    error: str = ""
    kg: str = ""
    timings_ms: dict[str, float] = field(default_factory=dict)
    reading: str = ""  # what the query asks, in one sentence (pipeline.sparql.explain); set for each query run or tried
    summary: str = ""  # the answer in one sentence (pipeline.glance.summary), first in every reply
    leaderboard: Leaderboard | None = None  # for rankings: every score behind the answer (pipeline.glance)
    resolutions: list[Resolution] = field(default_factory=list)  # the names the query filters on, checked in the graph
    read_as: str = ""  # a follow-up in a thread, as the standalone question that was answered ("I read this as: …")
    offer: str = ""  # when declined: the closest question that can be answered (the bot offers it as a button)
    choices: tuple[Choice, ...] = ()  # when the answer depends on what the question left out: the bot asks which
    checks: tuple[Judged, ...] = ()  # every check's verdict on every query written, in order (pipeline.loop)
    outcome: Outcome = Outcome.FAILED  # set by the pipeline once it knows
    failure: Exception | None = field(default=None, repr=False, compare=False)  # the error behind FAILED/TIMED_OUT/...

    @property
    def generator(self) -> str:
        return self.generation.generator if self.generation else ""

    def to_json(self) -> dict[str, Any]:
        rows = self.rows
        return {
            "question": self.question,
            "sparql": self.sparql,
            "answer": {"vars": rows.vars if rows else [], "rows": rows.rows if rows else [],
                       "boolean": rows.boolean if rows else None},
            "flat_answer": rows.flat() if rows else [],
            "explanation": self.explanation,
            "outcome": self.outcome.value,
            "error": self.error,
            "caveat": rows.caveat if rows else "",
            "generator": self.generator,
            "kg": self.kg,
            "examples": [{"id": r.example.id, "question": r.example.question, "sparql": r.example.sparql,
                          "template_id": r.example.template_id, "source": r.example.source,
                          "score": round(r.score, 4)} for r in self.examples],
            "prompt": self.generation.prompt if self.generation else "",
            "raw_generation": self.generation.raw if self.generation else "",
            "notes": list(self.generation.notes) if self.generation else [],
            "attempts": [a.to_json() for a in self.generation.attempts] if self.generation else [],
            "timings_ms": {k: round(v, 2) for k, v in self.timings_ms.items()},
            "reading": self.reading,
            "reading_record": self.generation.reading_record.to_json()
            if self.generation and self.generation.reading_record else None,
            "summary": self.summary,
            "leaderboard": self.leaderboard.to_json() if self.leaderboard else None,
            "resolutions": [r.to_json() for r in self.resolutions],
            "read_as": self.read_as,
            "offer": self.offer,
            "choices": [c.to_json() for c in self.choices],
            "checks": [c.to_json() for c in self.checks],
        }
