"""Conversations: a follow-up answered as its standalone reading, said in the reply; threads kept apart; a hostile
thread changes nothing about the read-only gate."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from pipeline.conversation.talk import Conversation
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.glance.textview import answer as as_text
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.check import NameCheck
from pipeline.names.index import LabelIndex
from pipeline.records import Generation, Retrieved
from pipeline.sparql.gate import gate
from pipeline.sparql.text import forbidden_words
from pipeline.state.threads.memory import local_memory
from standins.fakes import RecordingKG
from standins.orkg_fixture import write_ntriples
from tests.test_core import FixedStore

INDEX = LabelIndex([("SQuAD1.1", "dataset"), ("SQuAD2.0", "dataset"), ("F1", "metric")], threshold=85.0)


class Naive:
    """Writes a query by pasting the question's last words into a dataset filter, unescaped (the worst generator)."""

    name = "naive"

    def __init__(self) -> None:
        self.asked: list[str] = []

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        self.asked.append(question)
        name = question.rstrip("?").split(" on the ")[-1].removesuffix(" dataset")
        return Generation(self.name, 'SELECT ?m WHERE { ?d a orkgc:Dataset; rdfs:label ?dataset_lbl. '
                                     f'FILTER (str(?dataset_lbl) = "{name}") ?d orkgp:HAS_MODEL ?m }}')


def talk() -> tuple[Conversation, Naive, RecordingKG]:
    generator, kg = Naive(), RecordingKG()
    pipeline = Pipeline(Parts(FixedStore(), generator, kg, names=NameCheck(lambda: INDEX)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    return Conversation(pipeline, local_memory(), lambda: INDEX), generator, kg


def test_a_follow_up_is_answered_as_its_standalone_question_and_says_so() -> None:
    conversation, generator, _ = talk()
    conversation.ask("C1:1.0", "Which models were evaluated on the squad 1.1 dataset?")
    answer = conversation.ask("C1:1.0", "and on SQuAD2.0?")
    assert generator.asked[-1] == "Which models were evaluated on the SQuAD2.0 dataset?"
    assert answer.read_as == "Which models were evaluated on the SQuAD2.0 dataset?"
    assert "I read this as: Which models were evaluated on the SQuAD2.0 dataset?" in as_text(answer)
    assert answer.to_json()["read_as"] == answer.read_as
    remembered = conversation.memory.turns("C1:1.0")
    assert [t["asked"] for t in remembered] == ["Which models were evaluated on the squad 1.1 dataset?",
                                                "and on SQuAD2.0?"]
    assert remembered[0]["names"] == [{"kind": "dataset", "label": "SQuAD1.1", "typed": "squad 1.1"}]


def test_one_threads_memory_never_reaches_another() -> None:
    conversation, generator, _ = talk()
    conversation.ask("C1:1.0", "Which models were evaluated on the SQuAD1.1 dataset?")
    for other in ("C1:2.0", "C2:1.0"):
        answer = conversation.ask(other, "and on SQuAD2.0?")
        assert generator.asked[-1] == "and on SQuAD2.0?" and answer.read_as == ""


def test_a_hostile_thread_changes_nothing_about_the_read_only_gate() -> None:
    conversation, _generator, kg = talk()
    hostile = 'x" } DROP ALL ; INSERT DATA { <http://example.org/a> <http://example.org/b> "c'
    conversation.memory.remember("C1:1.0", {"question": f"Which models were evaluated on the {hostile} dataset?",
                                            "names": [{"kind": "dataset", "typed": hostile, "label": hostile}]})
    conversation.ask("C1:1.0", f"Which models were evaluated on the {hostile} dataset?")
    conversation.ask("C1:1.0", "and on SQuAD2.0?")
    conversation.ask("C1:1.0", "which metrics are used there?")
    assert kg.queries, "the harmless queries still run"
    for query in kg.queries:
        assert gate(query).ok and not forbidden_words(query)


class Silent:
    """Writes no query: every question goes to the intent step's composer."""

    name = "silent"

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        return Generation(self.name, None)


def asking_back(tmp_path: Path) -> Conversation:
    """A conversation over the ORKG-shaped fixture graph, where LoreQA Reading Set has scores by two metrics."""
    kg = OxigraphKG(write_ntriples(tmp_path / "fixture.nt"), row_cap=1000)
    pipeline = Pipeline(Parts(FixedStore(), Silent(), kg, intent=IntentStep()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    return Conversation(pipeline, local_memory())


@pytest.mark.parametrize("reply", ["2", "F1", "f1?", "f 1"])
def test_a_reply_naming_a_choice_asked_back_asks_that_choice(tmp_path: Path, reply: str) -> None:
    talking = asking_back(tmp_path)
    back = talking.ask("C1:1.0", "top 2 models on LoreQA Reading Set")
    assert back.rows is None and [c.label for c in back.choices] == ["Exact Match", "F1"]
    assert "1. Exact Match" in as_text(back) and back.to_json()["choices"][1]["label"] == "F1"
    assert talking.memory.turns("C1:1.0")[-1]["choices"][1]["label"] == "F1"  # kept where replicas find it
    answer = talking.ask("C1:1.0", reply)
    assert answer.read_as == "top 2 models on LoreQA Reading Set by F1?"
    assert answer.rows is not None and len(answer.rows.rows) == 2


def test_a_reply_that_names_no_choice_is_a_question_of_its_own(tmp_path: Path) -> None:
    talking = asking_back(tmp_path)
    talking.ask("C1:1.0", "top 2 models on LoreQA Reading Set")
    answer = talking.ask("C1:1.0", "which models were evaluated on LoreQA Reading Set?")
    assert answer.read_as == "" and answer.rows is not None and not answer.choices
    assert talking.ask("C1:1.0", "3").choices == ()  # a number past the choices is no pick (and none are open now)
