"""The paper's prompt template inside Vicuna's conversation format."""
from __future__ import annotations

import pytest

from pipeline.generators.prompt import few_shot, vicuna
from pipeline.records import Example, Retrieved


def shots(n: int) -> list[Retrieved]:
    return [Retrieved(Example(f"AQ{i}", f"Which model is best on  D{i}?",
                              f'SELECT ?m\nWHERE {{\n  ?d rdfs:label "D{i}  x\'s"\n}}', "T05"), 0.9) for i in range(n)]


@pytest.mark.parametrize("n", [1, 3, 5])
def test_template_holds_n_examples_then_the_question(n: int) -> None:
    text = few_shot("Which model is best on SQuAD?", shots(n))
    lines = text.splitlines()
    assert lines[0] == "Task: Generate SPARQL queries to query the ORKG."
    assert lines[1].startswith("Instruction: If you cannot generate a SPARQL query")
    assert text.count("Question:") == n + 1 and text.count("Sparql:") == n + 1
    assert lines[-3:] == ["Question: Which model is best on SQuAD?", "Sparql:", "Note: Output only the SPARQL query."]


def test_examples_are_flattened_but_literals_kept() -> None:
    text = few_shot("q?", shots(1))
    assert "Question: Which model is best on D0?" in text  # blanks collapsed in the question
    assert 'Sparql: SELECT ?m WHERE { ?d rdfs:label "D0  x\'s" }' in text  # literal untouched, quote kept


def test_vicuna_wraps_the_prompt_in_its_conversation_format() -> None:
    wrapped = vicuna("PROMPT")
    assert wrapped.startswith("A chat between a curious user and an artificial intelligence assistant.")
    assert wrapped.endswith("USER: PROMPT ASSISTANT:")


@pytest.mark.parametrize("question", [
    "What is the most common lead compound in Cluster-Former (#C=512) model evaluations?",  # SciQA's own wording
    "which model is best on SQuAD? asked in #nlp-reading # thanks",  # Slack channel names
])
def test_a_hash_in_a_question_is_text_not_a_comment(question: str) -> None:
    """few_shot ran questions through the SPARQL squash, which cut them at '#' as if it started a comment."""
    example = Retrieved(Example("AQ1", "Which papers use Cluster-Former (#C=512)?", "SELECT ?p WHERE { ?p ?q ?r }"),
                        0.9)
    text = few_shot(question, [example])
    assert f"Question: {question}\nSparql:" in text
    assert "Question: Which papers use Cluster-Former (#C=512)?\nSparql: SELECT" in text
