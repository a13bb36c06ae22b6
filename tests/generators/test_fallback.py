"""The LLM's fallback: whatever goes wrong with the model, the adapter answers and the answer says why."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from pipeline.errors import ConfigError, GeneratorError
from pipeline.factory import build_generator
from pipeline.generators.cascade import AdapterFirstGenerator
from pipeline.generators.fallback import BY_ADAPTER, FallbackGenerator
from pipeline.generators.repair import RepairingGenerator
from pipeline.generators.reply import interpret
from pipeline.records import Example, Generation, Retrieved
from pipeline.settings import Settings

EXAMPLES = [Retrieved(Example("1", "What models are evaluated on CoQA?", "SELECT ?m WHERE { ?m ?p 'CoQA' }"), 0.9)]


class Scripted:
    """A generator that returns, or raises, what it was given; counts its calls."""

    def __init__(self, name: str, result: Generation | Exception) -> None:
        self.name = name
        self.result = result
        self.calls = 0

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        self.calls += 1
        if isinstance(self.result, Exception):
            raise self.result
        return self.result

    def ping(self, timeout: float = 2.0) -> bool:
        return True


ADAPTED = Generation("adapter", "SELECT ?m WHERE { ?m ?p 'SQuAD' }", notes=("filled 'SQuAD'",))


def test_a_query_from_the_model_is_kept_and_the_adapter_not_asked() -> None:
    adapter = Scripted("adapter", ADAPTED)
    got = FallbackGenerator(Scripted("tgi", Generation("tgi", "SELECT 1")), adapter).generate("q", EXAMPLES)
    assert got == Generation("tgi", "SELECT 1") and adapter.calls == 0


def test_a_failing_model_is_replaced_by_the_adapter_with_the_reason() -> None:
    llm = Scripted("tgi", GeneratorError("the language model at http://gpu:8080 did not answer in time"))
    got = FallbackGenerator(llm, Scripted("adapter", ADAPTED)).generate("q", EXAMPLES)
    assert got.sparql == ADAPTED.sparql and got.generator == "adapter"
    assert got.notes[0] == (f"the language model failed (the language model at http://gpu:8080 did not answer in "
                            f"time); {BY_ADAPTER}") and got.notes[1:] == ADAPTED.notes


def test_prose_instead_of_a_query_is_replaced_too() -> None:
    prose = interpret("The graph is a meadow.", "tgi", "q")  # as the LLM generators read a reply
    got = FallbackGenerator(Scripted("tgi", prose), Scripted("adapter", ADAPTED)).generate("q", EXAMPLES)
    assert got.sparql == ADAPTED.sparql
    assert got.notes[0].startswith("the language model wrote no usable query (The graph is a meadow.)")


def test_when_neither_writes_a_query_both_reasons_are_told() -> None:
    prose = Generation("tgi", None, explanation="The model could not write a query: no idea.")
    declined = Generation("adapter", None, explanation="No stored question is close enough.")
    got = FallbackGenerator(Scripted("tgi", prose), Scripted("adapter", declined)).generate("q", EXAMPLES)
    assert got.sparql is None and got.generator == "tgi"
    assert got.explanation == ("The model could not write a query: no idea. The offline adapter could not write one "
                               "either: No stored question is close enough.")
    failed = FallbackGenerator(Scripted("tgi", GeneratorError("TGI is down")), Scripted("adapter", declined))
    assert failed.generate("q", EXAMPLES).explanation.startswith("The language model failed (TGI is down), and")


def test_ping_reaches_the_server_through_wrappers() -> None:
    class Server(Scripted):
        remote = True

        def ping(self, timeout: float = 2.0) -> bool:
            return timeout == 0.5

    wrapped = FallbackGenerator(RepairingGenerator(Server("tgi", ADAPTED), retry_timeouts=True, name=""),
                                Scripted("adapter", ADAPTED))
    assert wrapped.ping(0.5) is True and wrapped.ping(1.0) is False and wrapped.remote


def test_the_factory_backs_llms_with_the_adapter_unless_told_not_to(settings: Settings) -> None:
    tgi = settings.with_(tgi_url="http://127.0.0.1:9")
    assert isinstance(build_generator(tgi, "tgi"), FallbackGenerator)
    assert isinstance(build_generator(tgi, "openai"), FallbackGenerator)
    assert not isinstance(build_generator(tgi.with_(llm_fallback="none"), "tgi"), FallbackGenerator)
    assert not isinstance(build_generator(tgi, "adapter"), FallbackGenerator)
    with pytest.raises(ConfigError, match="KGQA_LLM_FALLBACK"):
        build_generator(tgi.with_(llm_fallback="maybe"), "tgi")


def test_a_model_query_the_pipeline_would_not_run_gives_way_to_the_adapters_when_that_one_would_run() -> None:
    """LLM first with an acceptance (the intent and names steps run ahead): the adapter answers, saying why."""
    model = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD' } ORDER BY ASC(?v) LIMIT 1", attempts=())

    def accept(question: str, generation: Generation, examples: Sequence[Retrieved]) -> str:
        return "it lacks the highest value" if generation.generator == "tgi" else ""

    adapter = Scripted("adapter", ADAPTED)
    got = FallbackGenerator(Scripted("tgi", model), adapter, accept).generate("q", EXAMPLES)
    assert got.sparql == ADAPTED.sparql and got.generator == "adapter"
    assert got.notes[0] == f"the language model's query was not run (it lacks the highest value); {BY_ADAPTER}"
    # the adapter's would not run either (or it wrote none): the model's stands, for the pipeline to decline
    refused = FallbackGenerator(Scripted("tgi", model), adapter, lambda q, g, e: "no").generate("q", EXAMPLES)
    assert refused == model
    fine = FallbackGenerator(Scripted("tgi", model), Scripted("adapter", ADAPTED), lambda q, g, e: "")
    assert fine.generate("q", EXAMPLES) == model and adapter.calls == 2


class AsksAgain(Scripted):
    """A model that can be asked again after its query found nothing; counts those asks."""

    def __init__(self, name: str, result: Generation, again: Generation) -> None:
        super().__init__(name, result)
        self.again, self.asked_again = again, 0

    def after_empty(self, question: str, examples: Sequence[Retrieved], first: Generation) -> Generation | None:
        self.asked_again += 1
        return self.again

    def after_declined(self, question: str, examples: Sequence[Retrieved], first: Generation,
                       why: str) -> Generation | None:
        self.told = why
        return self.after_empty(question, examples, first)


def test_after_the_models_query_finds_nothing_the_adapters_other_query_comes_first() -> None:
    """LLM first: the model's empty answer is no answer; the adapter's query (another one, that the pipeline would
    run) is tried before the model is asked again, and the notes say who wrote it."""
    first = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD 1' }")
    model = AsksAgain("tgi", first, Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD 2' }"))
    got = FallbackGenerator(model, Scripted("adapter", ADAPTED), lambda q, g, e: "").after_empty("q", EXAMPLES, first)
    assert got is not None and got.sparql == ADAPTED.sparql and model.asked_again == 0
    assert got.notes[0] == f"the language model's query found nothing; {BY_ADAPTER}"
    # the adapter writes the same query, or one the pipeline would not run: the model is asked again
    same = Scripted("adapter", Generation("adapter", " SELECT ?m WHERE {?m ?p 'SQuAD 1'}"))
    assert FallbackGenerator(model, same).after_empty("q", EXAMPLES, first) == model.again
    refused = FallbackGenerator(model, Scripted("adapter", ADAPTED), lambda q, g, e: "it lacks a count")
    assert refused.after_empty("q", EXAMPLES, first) == model.again and model.asked_again == 2
    # the adapter's own empty answer is never followed up
    assert FallbackGenerator(model, Scripted("adapter", ADAPTED)).after_empty("q", EXAMPLES, ADAPTED) is None


def test_adapter_first_the_adapter_is_not_asked_again_after_the_models_empty_answer() -> None:
    first = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD 1' }")
    model, adapter = AsksAgain("tgi", first, Generation("tgi", "SELECT 2")), Scripted("adapter", ADAPTED)
    assert AdapterFirstGenerator(adapter, model).after_empty("q", EXAMPLES, first) == model.again
    assert adapter.calls == 0


def test_the_model_is_asked_again_after_the_guard_declined_its_query_never_the_adapter() -> None:
    """The adapter had its turn when the fallback judged the model's query: what follows is the model, told why."""
    first = Generation("tgi", "SELECT ?m WHERE { ?m ?p 'SQuAD 1' } ORDER BY ASC(?v)")
    model, adapter = AsksAgain("tgi", first, Generation("tgi", "SELECT 2")), Scripted("adapter", ADAPTED)
    for wrapped in FallbackGenerator(model, adapter), AdapterFirstGenerator(adapter, model):
        assert wrapped.after_declined("q", EXAMPLES, first, "the highest value") == model.again
        assert wrapped.after_declined("q", EXAMPLES, ADAPTED, "the highest value") is None
    assert model.told == "the highest value" and model.asked_again == 2 and adapter.calls == 0
    assert FallbackGenerator(Scripted("tgi", first), adapter).after_declined("q", EXAMPLES, first, "x") is None
