"""Adapter first, the model when the adapter declines: against the OpenAI-protocol stand-in on loopback, the
fixture graph in pyoxigraph, and the pipeline's own intent and names steps."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.blueprint import Blueprint
from pipeline.core import Pipeline
from pipeline.factory import build_generator, build_names, build_writers
from pipeline.generators.adapter import AdapterGenerator
from pipeline.generators.openai import OpenAIGenerator
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.loop.notes import BY_ADAPTER_FIRST, BY_MODEL
from pipeline.names.lexicon import Lexicon
from pipeline.records import Example, Outcome, Retrieved, Verdict
from pipeline.settings import Settings
from tests.loop.talk import adapter_first, repairing
from tests.loop.talk import pipeline as over
from tests.matching.test_forms import T01

STORY = Example("t1s", "What models are being evaluated on the Story Cloze Test dataset?",
                T01.format(d="Story Cloze Test"), "T01")
ASKED = "Which models were run on the Story Cloze Test dataset?"


class Store:
    """The stored pair STORY, found at ``score``."""

    def __init__(self, score: float) -> None:
        self.score = score

    def search(self, question: str, k: int) -> list[Retrieved]:
        return [Retrieved(STORY, self.score)]


def pipeline(settings: Settings, kg: OxigraphKG, url: str, score: float) -> Pipeline:
    """Adapter first, the model at ``url`` behind it, the checks the factory gives — the intent step without
    composer pairs: these tests are about which writer writes, not about the composer (tests/intent)."""
    lexicon = Lexicon.of(settings, kg)
    names = build_names(lexicon)
    intent = IntentStep(labels=lexicon.labels.available, pairs=lambda: [])
    llm = repairing(OpenAIGenerator(url, "tgi", None, timeout=10, max_new_tokens=512, stream=True))
    return over(Store(score), kg, names=names, intent=intent, **adapter_first(AdapterGenerator(0.5), llm))


def test_the_adapters_query_answers_and_the_model_is_not_asked(settings: Settings, local_kg: OxigraphKG,
                                                                tgi: Any) -> None:
    answer = pipeline(settings, local_kg, tgi.url + "/v1", 0.9).ask(ASKED)
    assert answer.outcome is Outcome.ANSWERED and answer.generator == "adapter" and not tgi.requests
    assert answer.generation is not None and BY_ADAPTER_FIRST in answer.generation.notes
    assert answer.generation.attempts == ()


def test_when_the_adapter_declines_the_model_writes_and_the_notes_say_so(settings: Settings, local_kg: OxigraphKG,
                                                                          tgi: Any) -> None:
    tgi.enqueue(STORY.sparql)
    answer = pipeline(settings, local_kg, tgi.url + "/v1", 0.3).ask(ASKED)  # nothing stored is close enough
    assert answer.outcome is Outcome.ANSWERED and answer.generator == "openai" and len(tgi.requests) == 1
    assert answer.rows is not None and answer.rows.rows
    g = answer.generation
    assert g is not None and g.notes[0].startswith("the offline adapter declined (") and BY_MODEL in g.notes[0]
    assert [(a.verdict, a.raw) for a in g.attempts] == [(Verdict.TAKEN, STORY.sparql)]


def test_a_name_the_graph_lacks_sends_the_question_to_the_model_which_is_held_alike(
        settings: Settings, local_kg: OxigraphKG, tgi: Any) -> None:
    """The adapter fills 'Quux Corpus', which the names step would hold; the model's query is judged alike."""
    tgi.enqueue(T01.format(d="Quux Corpus"))
    answer = pipeline(settings, local_kg, tgi.url + "/v1", 0.9).ask(
        "What models are being evaluated on the Quux Corpus dataset?")
    assert len(tgi.requests) == 1 and answer.generator == "openai"
    assert answer.outcome is Outcome.DECLINED and "no dataset called 'Quux Corpus'" in answer.explanation
    assert answer.generation is not None and "no dataset called 'Quux Corpus'" in answer.generation.notes[0]


def test_when_both_decline_the_explanation_gives_both_reasons(settings: Settings, local_kg: OxigraphKG,
                                                              tgi: Any) -> None:
    tgi.enqueue("I cannot write a query for this.", "Still no idea, sorry.")
    answer = pipeline(settings, local_kg, tgi.url + "/v1", 0.3).ask(ASKED)
    assert answer.outcome is Outcome.DECLINED and answer.sparql is None and len(tgi.requests) == 2
    assert "No stored question" in answer.explanation or "close enough" in answer.explanation
    assert "The language model was asked too, and wrote no usable query (" in answer.explanation
    assert "Still no idea, sorry." in answer.explanation
    g = answer.generation
    assert g is not None and [a.verdict for a in g.attempts] == [Verdict.NO_QUERY, Verdict.NO_QUERY]
    assert [a.raw for a in g.attempts] == ["I cannot write a query for this.", "Still no idea, sorry."]


def test_a_model_server_that_is_down_leaves_the_adapters_decline_with_the_reason(settings: Settings,
                                                                                  local_kg: OxigraphKG) -> None:
    answer = pipeline(settings, local_kg, "http://127.0.0.1:9/v1", 0.3).ask(ASKED)
    assert answer.outcome is Outcome.DECLINED and answer.generator == "adapter"
    assert "The language model was asked too, and " in answer.explanation
    assert "127.0.0.1:9" in answer.explanation
    assert answer.generation is not None and answer.generation.notes[-1].startswith("the offline adapter declined")


def test_the_setting_chooses_the_order_and_none_means_the_model_alone(tgi: Any) -> None:
    def order(settings: Settings, name: str) -> list[str]:
        return [w.generator.name for w in build_writers(Blueprint.of(settings, name), build_generator(settings, name))]

    s = Settings(tgi_url=tgi.url)
    # unset, for a model server: the paper's order, the rules' whole readings first (the adapter as the intent
    # step reads it, Writer.rules), the adapter behind the model
    assert order(s, "tgi") == ["adapter", "tgi", "adapter"]
    assert order(s.with_(llm_order="adapter-first"), "tgi") == ["adapter", "tgi"]
    here = Settings(local_model="m.gguf")  # unset, for a model run on this machine: adapter first
    assert order(here, "local") == ["adapter", "local"]
    assert order(here.with_(llm_order="llm-first"), "local") == ["adapter", "local", "adapter"]
    assert order(s.with_(llm_fallback="none"), "tgi") == ["tgi"]  # whatever the order: the model alone


def test_the_reader_is_asked_right_before_the_model_writes(tgi: Any, local_kg: OxigraphKG, settings: Settings,
                                                           tmp_path: Path) -> None:
    from pipeline.factory import build_reader

    def order(settings: Settings, name: str) -> list[str]:
        blueprint, made = Blueprint.of(settings, name), build_generator(settings, name)
        reader = build_reader(blueprint, made, Lexicon.of(settings, local_kg))
        return [w.label for w in build_writers(blueprint, made, reader=reader)]

    s = settings.with_(tgi_url=tgi.url, llm_reader=True)
    assert order(s, "tgi") == ["adapter", "reader:tgi", "tgi", "adapter"]  # the rules' whole readings first
    assert order(s.with_(llm_order="adapter-first"), "tgi") == ["adapter", "reader:tgi", "tgi"]
    assert order(s.with_(llm_fallback="none"), "tgi") == ["reader:tgi", "tgi"]
    assert order(s.with_(llm_reader=False), "tgi") == ["adapter", "tgi", "adapter"]
    assert order(s, "adapter") == ["adapter"]  # no language model: nothing reads
    recorded = tmp_path / "replies.json"
    recorded.write_text("[]", encoding="utf-8")  # a recorded file cannot hold a reply to a schema: nothing reads
    assert order(s.with_(llm_fallback="none"), f"repair:replay:{recorded}") == [f"repair:replay:{recorded}"]
