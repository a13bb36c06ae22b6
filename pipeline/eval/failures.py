"""Why a question was not answered right, one class each, and who wrote each query that ran: the figures that say
where a generator loses (``report.json``'s ``failures`` and ``written_by``)."""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from enum import Enum
from typing import Any, Protocol

from pipeline.names.index import squeeze
from pipeline.records import Ask, Attempt, Generation, Outcome, Verdict
from pipeline.sparql.text import string_literals


class QuestionResult(Protocol):
    """What is judged of one evaluated question (``pipeline.eval.run.QuestionResult``)."""

    @property
    def question(self) -> str: ...
    @property
    def system(self) -> list[str]: ...
    @property
    def exact(self) -> bool: ...
    @property
    def sparql(self) -> str | None: ...
    @property
    def outcome(self) -> str: ...
    @property
    def syntax_error(self) -> bool: ...
    @property
    def read_as(self) -> str: ...
    @property
    def offer(self) -> str: ...
    @property
    def attempts(self) -> list[dict[str, Any]]: ...
    @property
    def written_by(self) -> str: ...


class Failure(str, Enum):
    """The one class of a question not answered right, the first that fits in this order."""

    TIMEOUT = "timeout"  # a part's timeout or the question's deadline ran out
    DECLINED_WITH_OFFER = "declined_with_offer"  # the intent step declined and offered the closest question
    SYNTAX = "syntax"  # no query that parses (the model's last reply did not, after the safe fixes)
    UNKNOWN_VOCABULARY = "unknown_vocabulary"  # the model's last query used names the graph does not have
    UNBOUND_VARIABLE = "unbound_variable"  # the model's last query selected variables nothing in its WHERE binds
    NO_QUERY = "no_query"  # no query written (prose, a refusal, nothing close enough, a failed model)
    WRONG_ENTITY = "wrong_entity"  # held for a name the graph lacks, or it ran naming what the question does not
    REFUSED = "refused"  # the read-only gate refused it (a parseable query that is not a read)
    FAILED = "failed"  # the knowledge graph failed on it
    EMPTY = "empty"  # it ran and found nothing
    WRONG_SHAPE = "wrong_shape"  # it ran on the question's names and answered something else
    UNKNOWN = "unknown"  # a recorded answers file: no query to judge


class WrittenBy(str, Enum):
    """Who wrote a query that ran."""

    LLM_FIRST = "llm_first_try"
    LLM_REPROMPT = "llm_after_reprompt"  # after a parser or vocabulary follow-up, or asked again after a failure
    LLM_EMPTY_RETRY = "llm_after_empty_retry"
    LLM_GUARD_RETRY = "llm_after_guard_retry"  # asked again after the intent guard declined its first query
    ADAPTER = "adapter"
    COMPOSER = "intent_composer"
    READER = "llm_reader"  # the language model reading the question as one the project answers (KGQA_LLM_READER)
    OTHER = "other"  # a recording (replay:) or a generator from elsewhere


_BY_NAME = {"adapter": WrittenBy.ADAPTER, "intent": WrittenBy.COMPOSER}  # the adapter's name, the composer's
_BY_ASK = {Ask.PROMPT: WrittenBy.LLM_FIRST, Ask.EMPTY: WrittenBy.LLM_EMPTY_RETRY,
           Ask.DECLINED: WrittenBy.LLM_GUARD_RETRY}


def writer(g: Generation | None) -> WrittenBy | None:
    """Who wrote ``g``'s query (None: no query): the composer or the adapter by name, a model by its taken reply."""
    if g is None or not g.sparql:
        return None
    taken = [a for a in g.attempts if a.verdict is Verdict.TAKEN]
    if g.generator in _BY_NAME:
        return _BY_NAME[g.generator]
    if g.generator.startswith("reader:"):
        return WrittenBy.READER
    if taken:
        return _BY_ASK.get(taken[-1].ask, WrittenBy.LLM_REPROMPT)
    return WrittenBy.OTHER


_LAST = {Verdict.SYNTAX: Failure.SYNTAX, Verdict.VOCABULARY: Failure.UNKNOWN_VOCABULARY,
         Verdict.UNBOUND: Failure.UNBOUND_VARIABLE,
         Verdict.TIMED_OUT: Failure.TIMEOUT}


def classify(r: QuestionResult) -> Failure | None:
    """The class of a question not answered exactly (None when it was)."""
    if r.exact:
        return None
    if not r.outcome:
        return Failure.EMPTY if not r.system else Failure.UNKNOWN
    outcome = Outcome(r.outcome)
    if outcome is Outcome.TIMED_OUT:
        return Failure.TIMEOUT
    if outcome is Outcome.DECLINED and r.offer:
        return Failure.DECLINED_WITH_OFFER
    if not r.sparql:
        last = Attempt.from_json(r.attempts[-1]).verdict if r.attempts else None
        return _LAST.get(last, Failure.NO_QUERY) if last is not None else Failure.NO_QUERY
    if outcome is Outcome.DECLINED:  # a query written but held by the names step
        return Failure.WRONG_ENTITY
    if outcome in (Outcome.REFUSED, Outcome.FAILED):
        return Failure.SYNTAX if r.syntax_error else (Failure.REFUSED if outcome is Outcome.REFUSED
                                                       else Failure.FAILED)
    if not r.system:
        return Failure.EMPTY
    return Failure.WRONG_ENTITY if foreign_names(r.sparql, r.read_as or r.question) else Failure.WRONG_SHAPE


def foreign_names(sparql: str, question: str) -> list[str]:
    """The query's string literals the question does not hold, compared by letters and digits only ('squad 1.1'
    holds 'SQuAD1.1'): a heuristic for a wrong entity, as no gold query is at hand."""
    asked = squeeze(question)
    return [s for s in string_literals(sparql) if squeeze(s) and squeeze(s) not in asked]


def failure_counts(results: Sequence[QuestionResult]) -> dict[str, int]:
    """How many questions fell in each class, in the classes' order (zeros left out)."""
    found = Counter(c for c in map(classify, results) if c is not None)
    return {c.value: found[c] for c in Failure if found[c]}


def writer_counts(results: Sequence[QuestionResult]) -> dict[str, dict[str, int]]:
    """Per writer: the queries that ran and answered (``answered``) and how many of those were right."""
    out: dict[str, dict[str, int]] = {}
    for r in results:
        if r.written_by and r.outcome == Outcome.ANSWERED.value:
            row = out.setdefault(r.written_by, {"answered": 0, "right": 0})
            row["answered"] += 1
            row["right"] += int(r.exact)
    return {w.value: out[w.value] for w in WrittenBy if w.value in out}


def failure_lines(report: Mapping[str, Any]) -> list[str]:
    """The failure classes and the writers, as report.md's tables."""
    lines = ["## Failures", "", "| class | questions |", "|---|---|"]
    lines += [f"| {c} | {n} |" for c, n in report.get("failures", {}).items()] or ["| none | 0 |"]
    lines += ["", "## Who wrote the queries that answered", "", "| writer | answered | right |", "|---|---|---|"]
    lines += [f"| {w} | {c['answered']} | {c['right']} |" for w, c in report.get("written_by", {}).items()]
    return lines + [""]
