"""Generators and KG backends by name: one registration adds one, and help and errors come from what is registered."""
from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

import pipeline.registry as registry
from pipeline.blueprint import Blueprint
from pipeline.errors import ConfigError
from pipeline.factory import build_generator, build_kg, build_writers
from pipeline.records import Generation, Retrieved
from pipeline.registry import GeneratorKind, KGKind, generator_names, kg_names, register_generator, register_kg
from pipeline.settings import Settings
from standins.fakes import RecordingKG
from tests.loop.talk import looped


class Echo:
    """A language model that can be asked again: its follow-up prompt is its own."""

    name = "echo"

    def __init__(self) -> None:
        self.prompts: list[str] = []

    def complete(self, prompt: str) -> str:
        self.prompts.append(prompt)
        return "SELECT ?x WHERE { ?x ?p ?o }" if len(self.prompts) > 1 else "SELECT ?x WHERE { ?x"

    def follow_up(self, first: Generation, ask: str) -> str:
        return f"<echo>{first.raw}|{ask}"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        raw = self.complete(question)
        return Generation(self.name, raw, raw=raw, prompt=question)

    def ping(self, timeout: float = 2.0) -> bool:
        return True


@pytest.fixture
def restored() -> Iterator[None]:
    generator_names()  # the built-ins registered before the tables are saved
    generators, kgs = dict(registry._GENERATORS), dict(registry._KGS)
    yield
    for table, saved in ((registry._GENERATORS, generators), (registry._KGS, kgs)):
        table.clear()
        table.update(saved)  # type: ignore[arg-type]


def test_a_kg_backend_is_one_registration(restored: None) -> None:
    kg = RecordingKG(name="mine")
    register_kg(KGKind("mine", lambda settings, target: kg, "my graph"))
    assert build_kg(Settings(), "mine") is kg and "'mine'" in kg_names()
    with pytest.raises(ConfigError, match=r"unknown KG target 'nope'; give an endpoint URL, .*'mine'"):
        build_kg(Settings(), "nope")


def test_a_language_model_is_wrapped_because_its_registration_says_so(restored: None) -> None:
    echo = Echo()
    register_generator(GeneratorKind("echo", lambda wiring: echo, "a test model", llm=True))
    built = build_generator(Settings(), "echo")
    writers = build_writers(Blueprint.of(Settings(), "echo"), built)
    # the rules' whole readings, the model, the adapter behind it (the paper's order, for a model not run here)
    assert built is echo and [(w.rules, w.model, w.fallback) for w in writers] == [
        (True, False, False), (False, True, False), (False, False, True)]
    assert "echo" in generator_names()
    got = looped(writers, "q?").generation
    assert got is not None and got.sparql and got.sparql.startswith("SELECT ?x WHERE { ?x ?p ?o }")
    assert echo.prompts[1].startswith("<echo>SELECT ?x WHERE { ?x|That query does not parse")  # its own format
    register_generator(GeneratorKind("plain", lambda wiring: echo, "not a language model"))
    plain = build_generator(Settings(), "plain")
    assert [w.model for w in build_writers(Blueprint.of(Settings(), "plain"), plain)] == [False]


def test_unknown_generators_are_named_with_the_choices() -> None:
    with pytest.raises(ConfigError, match=r"^unknown generator 'gpt9'; choose one of tgi, openai, local, adapter, "
                                          r"replay:PATH, repair:GENERATOR"):
        build_generator(Settings(), "gpt9")
    with pytest.raises(ConfigError, match="unknown generator 'replay'"):  # replay needs its PATH
        build_generator(Settings(), "replay")
