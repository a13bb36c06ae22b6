"""Each question not answered right gets one failure class, and each query that answered its writer — on hand-made
answers, one per class."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.eval.failures import Failure, WrittenBy, classify, failure_counts, writer, writer_counts
from pipeline.eval.report import build_report, markdown
from pipeline.eval.run import QuestionResult
from pipeline.records import Ask, Attempt, Generation, Verdict

Q = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
RAN = 'SELECT ?m WHERE { ?d rdfs:label "Story Cloze Test". ?m ?p ?d }'


def result(exact: bool = False, system: tuple[str, ...] = ("x",), **details: Any) -> QuestionResult:
    return QuestionResult("q1", Q, "T05", ["gold"], list(system), 0.0, 0.0, 0.0, exact, **details)


def tried(*verdicts: Verdict) -> list[dict[str, Any]]:
    return [Attempt(Ask.PROMPT, "reply", None, v, "why").to_json() for v in verdicts]


@pytest.mark.parametrize("details, expected", [
    (dict(outcome="timed_out", sparql=RAN), Failure.TIMEOUT),
    (dict(outcome="declined", offer="What models are evaluated on Story Cloze Test?", system=()),
     Failure.DECLINED_WITH_OFFER),
    (dict(outcome="declined", attempts=tried(Verdict.NO_QUERY, Verdict.SYNTAX), system=()), Failure.SYNTAX),
    (dict(outcome="declined", attempts=tried(Verdict.VOCABULARY, Verdict.VOCABULARY), system=()),
     Failure.UNKNOWN_VOCABULARY),
    (dict(outcome="declined", attempts=tried(Verdict.UNBOUND, Verdict.UNBOUND), system=()), Failure.UNBOUND_VARIABLE),
    (dict(outcome="declined", attempts=tried(Verdict.FAILED, Verdict.TIMED_OUT), system=()), Failure.TIMEOUT),
    (dict(outcome="declined", system=()), Failure.NO_QUERY),
    (dict(outcome="failed", attempts=tried(Verdict.FAILED, Verdict.FAILED), system=()), Failure.NO_QUERY),
    (dict(outcome="declined", sparql=RAN.replace("Story Cloze Test", "Quux"), system=()), Failure.WRONG_ENTITY),
    (dict(outcome="refused", sparql="SELECT ?m WHERE { ?m ?p }", syntax_error=True, system=()), Failure.SYNTAX),
    (dict(outcome="refused", sparql="DELETE WHERE { ?s ?p ?o }", system=()), Failure.REFUSED),
    (dict(outcome="failed", sparql=RAN, system=()), Failure.FAILED),
    (dict(outcome="empty", sparql=RAN, system=()), Failure.EMPTY),
    (dict(outcome="answered", sparql=RAN.replace("Story Cloze Test", "LAMBADA")), Failure.WRONG_ENTITY),
    (dict(outcome="answered", sparql=RAN.replace("Story Cloze Test", "story cloze-test")), Failure.WRONG_SHAPE),
    (dict(outcome="answered", sparql=RAN), Failure.WRONG_SHAPE),
    (dict(system=("x",)), Failure.UNKNOWN),
    (dict(system=()), Failure.EMPTY),
], ids=lambda v: v.value if isinstance(v, Failure) else "")
def test_each_wrong_answer_gets_its_class(details: dict[str, Any], expected: Failure) -> None:
    assert classify(result(**details)) is expected


def test_a_right_answer_has_no_class() -> None:
    assert classify(result(exact=True, outcome="answered", sparql=RAN)) is None


def taken(ask: Ask) -> Attempt:
    return Attempt(ask, RAN, RAN, Verdict.TAKEN)


@pytest.mark.parametrize("generation, expected", [
    (Generation("openai", RAN, attempts=(taken(Ask.PROMPT),)), WrittenBy.LLM_FIRST),
    (Generation("openai", RAN, attempts=(Attempt(Ask.PROMPT, "x", "x", Verdict.SYNTAX), taken(Ask.SYNTAX))),
     WrittenBy.LLM_REPROMPT),
    (Generation("openai", RAN, attempts=(taken(Ask.PROMPT), taken(Ask.EMPTY))), WrittenBy.LLM_EMPTY_RETRY),
    (Generation("openai", RAN, attempts=(taken(Ask.PROMPT), taken(Ask.DECLINED))), WrittenBy.LLM_GUARD_RETRY),
    (Generation("openai", RAN, attempts=(taken(Ask.PROMPT), Attempt(Ask.EMPTY, "y", "y", Verdict.NOT_TAKEN))),
     WrittenBy.LLM_FIRST),
    (Generation("adapter", RAN, attempts=(Attempt(Ask.PROMPT, "", None, Verdict.FAILED),)), WrittenBy.ADAPTER),
    (Generation("intent", RAN, attempts=(taken(Ask.PROMPT),)), WrittenBy.COMPOSER),
    (Generation("replay:x.json", RAN), WrittenBy.OTHER),
    (Generation("reader:local", RAN), WrittenBy.READER),
    (Generation("openai", None, attempts=(taken(Ask.PROMPT),)), None),
], ids=lambda v: v.value if isinstance(v, WrittenBy) else "")
def test_who_wrote_the_query(generation: Generation, expected: WrittenBy | None) -> None:
    assert writer(generation) is expected


def test_the_report_counts_classes_and_writers() -> None:
    results = [result(exact=True, outcome="answered", sparql=RAN, written_by="llm_first_try"),
               result(outcome="answered", sparql=RAN, written_by="llm_first_try"),
               result(outcome="empty", sparql=RAN, system=(), written_by="adapter"),
               result(outcome="declined", system=(), attempts=tried(Verdict.SYNTAX, Verdict.SYNTAX))]
    assert failure_counts(results) == {"syntax": 1, "empty": 1, "wrong_shape": 1}
    assert writer_counts(results) == {"llm_first_try": {"answered": 2, "right": 1}}
    report = build_report(results, {"questions": "x", "command": "kgqa eval"})
    assert report["failures"] == failure_counts(results) and report["written_by"] == writer_counts(results)
    assert [q["failure"] for q in report["questions"]] == [None, "wrong_shape", "empty", "syntax"]
    text = markdown(report)
    assert "| syntax | 1 |" in text and "| llm_first_try | 2 | 1 |" in text
    assert "Model replies: prompt → syntax (why); prompt → syntax (why)" in text
