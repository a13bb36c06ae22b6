"""The question's names linked to the graph before the model writes: label, kind and resource, in the prompt."""
from __future__ import annotations

from typing import Any

from pipeline.names.index import THRESHOLD, LabelIndex
from pipeline.records import Kind
from pipeline.schema.links import Link, linked, render

INDEX = LabelIndex([("Story Cloze Test", "dataset"), ("Accuracy", "metric"), ("Accuracy (%)", "metric"),
                    ("Score", "metric"), ("Story", "dataset"), ("Supervised:", "dataset")], THRESHOLD)
QUESTION = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"


def test_each_place_in_the_question_links_its_longest_label_as_written() -> None:
    found = linked(QUESTION, INDEX)
    assert [(k.typed, k.label, k.kind) for k in found] == [("Story Cloze Test", "Story Cloze Test", Kind.DATASET),
                                                           ("Accuracy", "Accuracy", Kind.METRIC)]


def test_a_class_word_is_not_a_name() -> None:
    assert "Score" not in {k.label for k in linked(QUESTION, INDEX)}  # 'score' says what kind, not which


def test_the_prompt_lines_say_label_class_and_resource() -> None:
    text = render([Link("Story Cloze Test", "Story Cloze Test", Kind.DATASET, "orkgr:R119651")])
    assert text.splitlines() == ["Names in the question, as the graph writes them:",
                                 '"Story Cloze Test" is a Dataset (orkgc:Dataset) = orkgr:R119651']
    assert render([]) == ""


def test_the_resource_comes_from_the_graph(sciqa_graph: Any) -> None:
    story = next(k for k in linked(QUESTION, INDEX, sciqa_graph) if k.kind is Kind.DATASET)
    rows = sciqa_graph.select("PREFIX orkgr: <http://orkg.org/orkg/resource/> PREFIX rdfs: "
                              "<http://www.w3.org/2000/01/rdf-schema#> "
                              f"SELECT ?l WHERE {{ {story.iri} rdfs:label ?l }}")
    assert story.iri.startswith("orkgr:R") and rows.flat() == ["Story Cloze Test"]
