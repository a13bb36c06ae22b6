"""The check loop's choices between writers: whatever goes wrong with the model, the adapter behind it answers and
the answer says why; a query that passes is never replaced; the model is asked again about its own query only."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

import pytest

from pipeline.blueprint import Blueprint
from pipeline.deadline import Clock
from pipeline.errors import ConfigError, ModelUnavailable
from pipeline.factory import build_generator, build_writers
from pipeline.generators.reply import interpret
from pipeline.loop.checks import IntentCheck, NamesCheck
from pipeline.loop.notes import BY_ADAPTER
from pipeline.loop.writers import Writer
from pipeline.names.check import Checked
from pipeline.records import Answer, Choice, Example, Generation, Match, Outcome, Resolution, Retrieved, Review, Rows
from pipeline.settings import Settings
from tests.loop.talk import found, looped

EXAMPLES = [Retrieved(Example("1", "What models are evaluated on CoQA?", "SELECT ?m WHERE { ?m ?p 'CoQA' }"), 0.9)]
ADAPTED = Generation("adapter", "SELECT ?m WHERE { ?m ?p 'SQuAD' }", notes=("filled 'SQuAD'",))


class Scripted:
    """A generator that returns, or raises, what it was given; counts its calls. Asked again (``complete``), it
    writes ``again``."""

    def __init__(self, name: str, result: Generation | Exception, again: str = "") -> None:
        self.name = name
        self.result = result
        self.again = again
        self.calls = 0
        self.told: list[str] = []

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        self.calls += 1
        if isinstance(self.result, Exception):
            raise self.result
        return self.result

    def ping(self, timeout: float = 2.0) -> bool:
        return True


class Reaskable(Scripted):
    def follow_up(self, first: Generation, ask: str) -> str:
        self.told.append(ask)
        return "the conversation so far"

    def complete(self, prompt: str) -> str:
        return self.again


def model(g: Scripted) -> Writer:
    return Writer(g, g.name, model=True)


def behind(g: Scripted, adapter: Scripted) -> list[Writer]:
    return [model(g), Writer(adapter, fallback=True)]


class Judge:
    """An intent step that declines the queries of the writers named, with an offer."""

    def __init__(self, *declined: str) -> None:
        self.declined = declined

    def review(self, question: str, g: Generation, examples: Sequence[Retrieved], kg: Any) -> Review:
        if g.generator in self.declined and g.sparql:
            return Review(Generation(g.generator, None, explanation="I can't answer this as asked.",
                                     reason="it lacks the highest value", attempts=g.attempts),
                          "offer", "the highest value")
        return Review(g)


def judged(*declined: str) -> IntentCheck:
    return IntentCheck(Judge(*declined), None)  # type: ignore[arg-type]


class Reads:
    """An intent step that reads every word of the questions in ``whole`` (the adapter's query gives way to the
    composed one) and asks back about those in ``unsaid``; any other query stands as written."""

    def __init__(self, whole: Sequence[str] = (), unsaid: Sequence[str] = ()) -> None:
        self.whole, self.unsaid = whole, unsaid

    def review(self, question: str, g: Generation, examples: Sequence[Retrieved], kg: Any) -> Review:
        if question in self.unsaid:
            return Review(Generation(g.generator, None, explanation="Which metric?"), why="no metric named",
                          choices=(Choice("F1", question + " by F1"), Choice("EM", question + " by EM")))
        if question in self.whole and g.generator == "adapter":
            return Review(Generation("intent", "SELECT ?c WHERE { ?c ?p 'SQuAD' }", notes=("composed",)))
        return Review(g)


def test_llm_first_the_rules_whole_reading_answers_before_the_model_and_anything_else_is_handed_on() -> None:
    """The rules' writer (``Writer.rules``): a query composed from a whole reading, or a question asked back, is the
    answer and the model is never asked; the adapter's own query is no reading of the question: the model writes."""
    def writers(llm: Scripted) -> list[Writer]:
        return [Writer(Scripted("adapter", ADAPTED), rules=True), *behind(llm, Scripted("adapter", ADAPTED))]

    check = IntentCheck(Reads(whole=["read whole"], unsaid=["best on SQuAD"]), None)  # type: ignore[arg-type]
    llm = Scripted("tgi", Generation("tgi", "SELECT ?x WHERE { ?x ?p ?o }"))
    whole = looped(writers(llm), "read whole", EXAMPLES, intent=check)
    assert whole.generation is not None and whole.generation.generator == "intent" and llm.calls == 0
    asked_back = looped(writers(llm), "best on SQuAD", EXAMPLES, intent=check)
    assert asked_back.outcome is Outcome.DECLINED and [c.label for c in asked_back.choices] == ["F1", "EM"]
    assert llm.calls == 0
    stored_form = looped(writers(llm), "What models are evaluated on SQuAD?", EXAMPLES, intent=check)
    assert stored_form.generation is not None and stored_form.generation.generator == "tgi" and llm.calls == 1
    # the model failing, the adapter behind it answers with the query its first turn wrote: written once
    adapter = Scripted("adapter", ADAPTED)
    down = Scripted("tgi", ModelUnavailable("the language model is not reachable"))
    behind_it = looped([Writer(adapter, rules=True), model(down), Writer(adapter, fallback=True)],
                       "What models are evaluated on SQuAD?", EXAMPLES, intent=check)
    assert behind_it.generation is not None and behind_it.generation.sparql == ADAPTED.sparql
    assert adapter.calls == 1


def test_a_query_from_the_model_is_kept_and_the_adapter_not_asked() -> None:
    adapter = Scripted("adapter", ADAPTED)
    got = looped(behind(Scripted("tgi", Generation("tgi", "SELECT ?x WHERE { ?x ?p ?o }")), adapter),
                 examples=EXAMPLES).generation
    assert got is not None and got.sparql == "SELECT ?x WHERE { ?x ?p ?o }" and got.notes == ()
    assert adapter.calls == 0


def test_a_failing_model_is_replaced_by_the_adapter_with_the_reason() -> None:
    llm = Scripted("tgi", ModelUnavailable("the language model at http://gpu:8080 is not reachable"))
    got = looped(behind(llm, Scripted("adapter", ADAPTED)), examples=EXAMPLES).generation
    assert got is not None and got.sparql == ADAPTED.sparql and got.generator == "adapter"
    assert got.notes[0] == (f"the language model failed (the language model at http://gpu:8080 is not reachable); "
                            f"{BY_ADAPTER}") and got.notes[1:] == ADAPTED.notes and llm.calls == 1  # never again


def test_prose_instead_of_a_query_is_replaced_too() -> None:
    prose = interpret("The graph is a meadow.", "tgi", "q")  # as the LLM generators read a reply
    got = looped(behind(Scripted("tgi", prose), Scripted("adapter", ADAPTED)), examples=EXAMPLES).generation
    assert got is not None and got.sparql == ADAPTED.sparql
    assert got.notes[0].startswith("the language model wrote no usable query (")


def test_when_neither_writes_a_query_both_reasons_are_told() -> None:
    prose = Generation("tgi", None, explanation="The model could not write a query: no idea.")
    declined = Generation("adapter", None, explanation="No stored question is close enough.")
    got = looped(behind(Scripted("tgi", prose), Scripted("adapter", declined)), examples=EXAMPLES)
    assert got.outcome is Outcome.DECLINED and got.generation is not None and got.generation.sparql is None
    assert got.explanation.startswith("The model could not write a usable query in two tries")
    assert got.explanation.endswith("The offline adapter could not write one either: "
                                    "No stored question is close enough.")
    failed = looped(behind(Scripted("tgi", ModelUnavailable("TGI is down")), Scripted("adapter", declined)))
    assert failed.explanation.startswith("The language model failed (TGI is down), and")


def test_the_factory_backs_llms_with_the_adapter_unless_told_not_to(settings: Settings) -> None:
    tgi = settings.with_(tgi_url="http://127.0.0.1:9")
    part = build_generator(tgi, "tgi")
    paper = build_writers(Blueprint.of(tgi, "tgi"), part)
    # the rules' whole readings, the model, the adapter behind it
    assert [(w.rules, w.model, w.fallback) for w in paper] == [(True, False, False), (False, True, False),
                                                               (False, False, True)] and paper[1].generator is part
    assert [w.generator.name for w in build_writers(Blueprint.of(tgi, "openai"), build_generator(tgi, "openai"))] == \
        ["adapter", "openai", "adapter"]
    assert [w.model for w in build_writers(Blueprint.of(tgi.with_(llm_fallback="none"), "tgi"), part)] == [True]
    adapter = build_generator(tgi, "adapter")
    assert [(w.generator, w.model) for w in build_writers(Blueprint.of(tgi, "adapter"), adapter)] == [(adapter, False)]
    with pytest.raises(ConfigError, match="KGQA_LLM_FALLBACK"):
        build_writers(Blueprint.of(tgi.with_(llm_fallback="maybe"), "tgi"), part)


def test_a_model_query_the_checks_would_not_run_gives_way_to_the_adapters_when_that_one_passes() -> None:
    """LLM first: the adapter answers, saying why; when its query fails too, the model's stands, declined."""
    written = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD' } ORDER BY ASC(?m) LIMIT 1")
    adapter = Scripted("adapter", ADAPTED)
    got = looped(behind(Scripted("tgi", written), adapter), examples=EXAMPLES, intent=judged("tgi"))
    assert got.outcome is Outcome.ANSWERED and got.generation is not None and got.generation.generator == "adapter"
    assert got.generation.notes[0] == f"the language model's query was not run (it lacks the highest value); " \
                                      f"{BY_ADAPTER}"
    refused = looped(behind(Scripted("tgi", written), adapter), examples=EXAMPLES, intent=judged("tgi", "adapter"))
    assert refused.outcome is Outcome.DECLINED and refused.offer == "offer" and refused.generation is not None
    assert refused.generation.generator == "tgi" and adapter.calls == 2


def test_a_query_the_names_step_holds_gives_way_alike_and_stands_when_none_passes() -> None:
    def held(sparql: str, question: str) -> Checked:
        unknown = Resolution("SQuAD 1", "dataset", Match.UNKNOWN, candidates=("SQuAD1.1",))
        return Checked(sparql, (unknown,) if "SQuAD" in sparql else ())

    written = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD 1' }")
    names = NamesCheck(held)
    got = looped(behind(Scripted("tgi", written), Scripted("adapter", ADAPTED)), names=names)
    assert got.outcome is Outcome.DECLINED and got.sparql == written.sparql  # the model's query on show
    other = Generation("adapter", "SELECT ?m WHERE { ?m ?p 'CoQA' }")
    taken = looped(behind(Scripted("tgi", written), Scripted("adapter", other)), names=names)
    assert taken.outcome is Outcome.ANSWERED and taken.sparql == other.sparql


def empty_unless(known: str) -> Any:
    def run(base: Answer, query: str, clock: Clock, t: dict[str, float]) -> Answer:
        if known in query:
            return found(base, query, clock, t)
        return replace(base, sparql=query, rows=Rows(["m"], []), outcome=Outcome.EMPTY)
    return run


def test_after_the_models_query_finds_nothing_the_adapters_other_query_comes_first() -> None:
    """LLM first: the model's empty answer is no answer; the adapter's other query, when it passes, is tried before
    the model is asked again, and the notes say who wrote it."""
    first = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD' . ?m ?q 'one' }")
    llm = Reaskable("tgi", first, again="SELECT ?m WHERE { ?m ?p 'SQuAD' }")
    got = looped(behind(llm, Scripted("adapter", ADAPTED)), "q on SQuAD", run=empty_unless("'SQuAD' }"))
    assert got.outcome is Outcome.ANSWERED and got.generation is not None and got.generation.generator == "adapter"
    assert got.generation.notes[0] == f"the language model's query found nothing; {BY_ADAPTER}" and llm.told == []
    # the adapter writes the same query, or one the checks refuse: the model is asked again, told so
    same = Scripted("adapter", replace(first, generator="adapter"))
    again = looped(behind(llm, same), "q on SQuAD", run=empty_unless("'SQuAD' }"))
    assert again.outcome is Outcome.ANSWERED and again.sparql == llm.again and len(llm.told) == 1
    assert "returned no results" in llm.told[0]
    refused = looped(behind(llm, Scripted("adapter", ADAPTED)), "q on SQuAD", intent=judged("adapter"),
                     run=empty_unless("'SQuAD' }"))
    assert refused.sparql == llm.again and len(llm.told) == 2


def test_the_adapters_empty_answer_is_never_followed_up_and_adapter_first_never_asks_it_again() -> None:
    llm = Reaskable("tgi", Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD' . ?m ?q 'one' }"),
                    again="SELECT ?m WHERE { ?m ?p 'SQuAD' }")
    adapter = Scripted("adapter", Generation("adapter", "SELECT ?m WHERE { ?m ?p 'SQuAD' . ?m ?q 'two' }"))
    alone = looped([Writer(adapter), model(llm)], "q on SQuAD", run=empty_unless("'SQuAD' }"))
    assert alone.outcome is Outcome.EMPTY and llm.calls == 0 and llm.told == []
    got = looped([Writer(adapter), model(llm)], "q on SQuAD", intent=judged("adapter"),
                 run=empty_unless("'SQuAD' }"))
    assert got.outcome is Outcome.ANSWERED and adapter.calls == 2 and len(llm.told) == 1  # the model, told so


def test_the_model_is_asked_again_after_the_intent_check_declined_its_query_never_the_adapter() -> None:
    first = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD' } ORDER BY ASC(?m)")
    llm = Reaskable("tgi", first, again="SELECT ?m WHERE { ?m ?p 'SQuAD' }")

    class FirstOnly(Judge):
        def review(self, question: str, g: Generation, examples: Sequence[Retrieved], kg: Any) -> Review:
            return super().review(question, g, examples, kg) if "ORDER" in (g.sparql or "") else Review(g)

    adapter = Scripted("adapter", Generation("adapter", "SELECT ?m WHERE { ?m ?p 'SQuAD' } ORDER BY DESC(?m)"))
    intent = IntentCheck(FirstOnly("tgi", "adapter"), None)  # type: ignore[arg-type]
    got = looped(behind(llm, adapter), "q on SQuAD", intent=intent)
    assert got.outcome is Outcome.ANSWERED and got.sparql == llm.again and adapter.calls == 1
    assert len(llm.told) == 1 and "it does not use the highest value" in llm.told[0]
    adapter_first = looped([Writer(adapter), model(llm)], "q on SQuAD", intent=intent)
    assert adapter_first.sparql == llm.again and len(llm.told) == 2
    silent = Scripted("tgi", first)  # a recorded model cannot be asked again: the decline stands
    assert looped([model(silent)], "q on SQuAD", intent=intent).outcome is Outcome.DECLINED
