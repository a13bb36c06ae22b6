"""What each MCP tool does, on the pipeline and apart from the protocol: inputs checked, plain records out, and a
``ToolRefusal`` carrying a one-line reason when there is no answer to give."""
from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from pydantic import BaseModel, Field

from pipeline.core import Pipeline
from pipeline.errors import KgqaError
from pipeline.matching.forms import Form, group_forms
from pipeline.names.index import KINDS, LabelIndex
from pipeline.question import clean
from pipeline.records import Answer, Outcome, Retrieved, Rows
from pipeline.sparql.text import MAX_QUERY_CHARS, PREFIXES, typed_query

MAX_K = 20
MAX_REASON_CHARS = 500


class ToolRefusal(KgqaError):
    """A tool call that cannot be answered; ``str()`` is the one-line reason the assistant reads."""


class StoredPair(BaseModel):
    """A question->SPARQL pair from the example store, with its similarity to the text asked about (1 = same)."""

    question: str
    sparql: str
    score: float
    source: str = Field(description="'sciqa' (the SciQA benchmark) or 'team' (taught by the team)")
    template_id: str = ""


class Provenance(BaseModel):
    """Where an answer came from."""

    generator: str = Field(description="what wrote the query: tgi, openai, adapter (offline), ...")
    kg: str = Field(description="the knowledge graph the query ran on")
    source: str = Field(description="what answered, e.g. an endpoint URL or the dated SciQA snapshot")
    caveat: str = Field(description="a warning about the rows, e.g. a recorded answer served while the endpoint "
                                    "was down; empty when there is none")
    examples: list[StoredPair] = Field(description="the stored pairs the query was written from")
    timings_ms: dict[str, float] = Field(description="milliseconds per pipeline stage")
    elapsed_ms: float = Field(description="milliseconds the pipeline took for this question in all")


class QueryRows(BaseModel):
    """A query as it ran and what it returned."""

    summary: str = Field(description="the answer in one sentence (names the entity, metric and value where the rows "
                                     "hold them; says plainly when nothing was found)")
    sparql: str = Field(description="the query as it ran (prefixes declared, a LIMIT added when missing)")
    reading: str = Field(description="what the query asks, in one sentence")
    vars: list[str]
    rows: list[dict[str, str]] = Field(description="one object per result row: variable -> value (IRI or literal)")
    boolean: bool | None = Field(description="the answer of an ASK query; null for SELECT")
    explanation: str = Field(description="why there are no rows, when there are none; else empty")
    source: str
    caveat: str


class AskResult(QueryRows):
    """A question answered: the query written for it, its rows, and where they came from."""

    question: str = Field(description="the question as it was read (blanks and control characters cleaned)")
    leaderboard: dict[str, Any] | None = Field(description="for a ranking: every score behind the answer (dataset, "
                                                           "metric, order, entries with model, value as stored, "
                                                           "value as a number, paper), sorted by number; else null")
    provenance: Provenance
    choices: list[dict[str, str]] = Field(default_factory=list, description=(
        "when the answer depends on what the question left out (e.g. which metric ranks a dataset several measure): "
        "each choice's label and the question that asks it; ask one of them. Empty otherwise"))


class LabelMatch(BaseModel):
    """What the graph calls a name: its own label when one fits, else the closest ones."""

    typed: str
    kind: str = Field(description="the kind searched (dataset, model, metric, problem, researchfield, paper); "
                                  "empty when every kind was")
    match: str = Field(description="exact, normalised (same up to case, blanks, hyphens, version spacing), close "
                                   "(a typo), ambiguous (several close labels: pick one) or unknown")
    chosen: str | None = Field(description="the graph's label to use in a query; null when ambiguous or unknown")
    score: float = Field(description="similarity of the typed name and the chosen label, 0-100")
    candidates: list[str] = Field(description="the closest labels of the graph, best first")


class Tools:
    """The tools' logic over one pipeline; every method is blocking and runs in a worker. ``labels`` gives the
    graph's label index (None while the graph cannot list its labels)."""

    def __init__(self, pipeline: Pipeline, labels: Callable[[], LabelIndex | None] | None = None) -> None:
        self.pipeline = pipeline
        self.labels = labels
        self._forms: tuple[int, list[Form]] | None = None

    def ask(self, question: str, shots: int | None = None) -> AskResult:
        if shots is not None and shots not in (1, 3, 5):
            raise ToolRefusal(f"shots must be 1, 3 or 5, not {shots}")
        started = time.perf_counter()
        answer = self.pipeline.ask(self._text(question, "question"), shots)
        elapsed_ms = (time.perf_counter() - started) * 1000
        if not answer.choices:  # asked back: the choices are the answer
            _refuse_unanswered(answer)
        rows = _query_rows(answer)
        board = answer.leaderboard.to_json() if answer.leaderboard else None
        return AskResult(**rows.model_dump(), question=answer.question, leaderboard=board, provenance=Provenance(
            generator=answer.generator, kg=answer.kg, source=rows.source, caveat=rows.caveat,
            examples=[_pair(r) for r in answer.examples],
            timings_ms={k: round(v, 2) for k, v in answer.timings_ms.items()}, elapsed_ms=round(elapsed_ms, 2)),
            choices=[c.to_json() for c in answer.choices])

    def run_sparql(self, query: str) -> QueryRows:
        if len(query) > MAX_QUERY_CHARS:
            raise ToolRefusal(f"the query is {len(query):,} characters long; at most {MAX_QUERY_CHARS:,} are run")
        answer = self.pipeline.run_sparql(typed_query(query))
        _refuse_unanswered(answer)
        return _query_rows(answer)

    def similar_questions(self, text: str, k: int = 5) -> list[StoredPair]:
        if not 1 <= k <= MAX_K:
            raise ToolRefusal(f"k must be between 1 and {MAX_K}, not {k}")
        try:
            found = self.pipeline.lookup(self._text(text, "text"), k)
        except KgqaError as exc:
            raise ToolRefusal(_one_line(str(exc))) from exc
        return [_pair(r) for r in found]

    def find_label(self, name: str, kind: str = "") -> LabelMatch:
        if kind and kind not in KINDS:
            raise ToolRefusal(f"kind must be one of {', '.join(KINDS)} (or empty for any), not {kind!r}")
        text = self._text(name, "name")
        index = self.labels() if self.labels else None
        if index is None:
            raise ToolRefusal(f"the knowledge graph {self.pipeline.kg.name} could not list its labels just now; "
                              "try again shortly")
        found = index.find(text, kind)
        return LabelMatch(typed=found.typed, kind=found.kind, match=found.match.value, chosen=found.chosen,
                          score=round(found.score, 1), candidates=list(found.candidates))

    def prefixes(self) -> str:
        """The ORKG prefixes as SPARQL PREFIX lines (declared for you when a query uses them)."""
        return "\n".join(f"PREFIX {name}: <{iri}>" for name, iri in PREFIXES.items()) + "\n"

    def question_forms(self) -> str:
        """The question forms the store holds, most common first, as JSON: each with its slots' kinds, how many
        stored pairs have it, and one pair as an example."""
        examples = self.pipeline.store.examples()
        if self._forms is None or self._forms[0] != len(examples):
            self._forms = (len(examples), group_forms(examples))
        forms = sorted(self._forms[1], key=lambda f: -len(f.examples))
        return json.dumps([_form(f) for f in forms], ensure_ascii=False, indent=1)

    def _text(self, value: str, what: str) -> str:
        cap = self.pipeline.max_question_chars
        cleaned = clean(value[: cap * 4 + 1], cap * 4)  # never clean a 100 kB paste in full
        if len(value) > cap * 4 or len(cleaned) > cap:
            raise ToolRefusal(f"the {what} is {len(value):,} characters long; at most {cap:,} are taken")
        if not cleaned:
            raise ToolRefusal(f"the {what} is empty: ask in words, e.g. 'Which model has achieved the highest "
                              "Accuracy score on the Story Cloze Test benchmark dataset?'")
        return cleaned


def _refuse_unanswered(answer: Answer) -> None:
    """A refused, failed or unwritten query is a tool error; a query that ran and matched nothing is an answer."""
    if answer.outcome not in (Outcome.ANSWERED, Outcome.EMPTY):
        raise ToolRefusal(_one_line(answer.explanation or answer.error))


def _query_rows(answer: Answer) -> QueryRows:
    rows = answer.rows or Rows([], [])
    return QueryRows(summary=answer.summary, sparql=answer.sparql or "", reading=answer.reading, vars=rows.vars,
                     rows=[{v: term["value"] for v, term in row.items()} for row in rows.rows],
                     boolean=rows.boolean, explanation=answer.explanation, source=rows.source, caveat=rows.caveat)


def _pair(found: Retrieved) -> StoredPair:
    ex = found.example
    return StoredPair(question=ex.question, sparql=ex.sparql, score=round(found.score, 4), source=ex.source,
                      template_id=ex.template_id)


def _form(form: Form) -> dict[str, Any]:
    text = "".join(piece + (f"<{kind}>" if n < len(form.kinds) else "")
                   for n, (piece, kind) in enumerate(zip(form.pieces, form.kinds + ("",))))
    example = form.examples[0]
    return {"form": " ".join(text.split()), "slots": list(form.kinds), "pairs": len(form.examples),
            "example": {"question": example.question, "sparql": example.sparql}}


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line if len(line) <= MAX_REASON_CHARS else line[: MAX_REASON_CHARS - 1] + "…"
