"""Each lever alone: the schema, the linked names and the grammar's names reach a question's context only when on;
what the graph cannot say yet is left out, never made up."""
from __future__ import annotations

from typing import Any

import pytest

from pipeline.generators.prompt import few_shot
from pipeline.names.index import THRESHOLD, LabelIndex
from pipeline.names.vocabulary import sparql_terms
from pipeline.records import Example
from pipeline.schema.grounding import Constraints, Grounding, Levers
from pipeline.sciqa import SciQA

QUESTION = "What is the average energy generation of all energy sources on the Story Cloze Test dataset?"
INDEX = LabelIndex([("Story Cloze Test", "dataset")], THRESHOLD)


@pytest.fixture(scope="module")
def parts(sciqa: SciQA, sciqa_graph: Any) -> tuple[Any, list[Example], frozenset[str]]:
    train = [Example(r.id, r.question, r.sparql, r.template_id) for r in sciqa.split("train")]
    return sciqa_graph, train, frozenset(sparql_terms(sciqa_graph))


def grounding(parts: tuple[Any, list[Example], frozenset[str]], levers: Levers,
              vocabulary: frozenset[str] | None = None) -> Grounding:
    kg, train, names = parts
    return Grounding(levers, kg, lambda: train, lambda: vocabulary if vocabulary is not None else names,
                     lambda: INDEX)


def test_nothing_is_added_with_every_lever_off(parts: Any) -> None:
    context = grounding(parts, Levers()).context(QUESTION)
    assert context.text == "" and context.names is None


def test_the_schema_alone(parts: Any) -> None:
    context = grounding(parts, Levers(schema=True)).context(QUESTION)
    assert context.text.startswith("Graph schema") and "orkgr:R153801" in context.text
    assert "Names in the question" not in context.text and context.names is None


def test_the_links_alone(parts: Any) -> None:
    context = grounding(parts, Levers(links=True)).context(QUESTION)
    assert context.text.startswith("Names in the question") and '"Story Cloze Test" is a Dataset' in context.text
    assert "Graph schema" not in context.text


def test_the_grammar_alone_names_the_graph_and_the_linked_resources(parts: Any) -> None:
    _, _, names = parts
    context = grounding(parts, Levers(links=True, grammar=True)).context(QUESTION)
    assert context.names is not None and names <= set(context.names) and "rdfs:label" in context.names
    assert {"orkgr:R153801"} <= set(context.names)  # a comparison the graph holds
    linked = context.text.split("= ")[-1].strip()
    assert linked.startswith("orkgr:R") and linked in context.names


def test_the_schema_stands_beside_the_examples_in_the_prompt(parts: Any) -> None:
    from pipeline.records import Retrieved

    _, train, _ = parts
    context = grounding(parts, Levers(schema=True, links=True)).context(QUESTION)
    prompt = few_shot(QUESTION, [Retrieved(train[0], 0.9)], context.text)
    assert prompt.index("Graph schema") < prompt.index(f"Question: {train[0].question}") < prompt.index(QUESTION)
    assert few_shot(QUESTION, [Retrieved(train[0], 0.9)]).count("Graph schema") == 0  # today's prompt as it was


def test_a_graph_whose_names_cannot_be_read_yet_gives_no_schema_and_no_grammar(parts: Any) -> None:
    kg, train, _ = parts
    unread = Grounding(Levers(schema=True, grammar=True), kg, lambda: train, lambda: None, lambda: None)
    assert unread.context(QUESTION).text == "" and unread.context(QUESTION).names is None


def test_a_follow_up_is_held_to_its_first_prompts_names() -> None:
    kept = Constraints(keep=2)
    kept.remember("first prompt", ("orkgp:P31",))
    kept.remember("other", ("orkgp:P32",))
    assert kept.of("first prompt\nYour answer was: ...") == ("orkgp:P31",) and kept.of("unrelated") is None
    kept.remember("third", None)  # unconstrained: nothing to remember
    kept.remember("fourth", ("orkgp:P30",))
    assert kept.of("first prompt and more") is None  # forgotten: the oldest go first
