"""The composer's own pairs are written on other wordings than any question the project is measured on: every
evaluation set in the tree (tests/data/eval/*.json and *.txt, globbed, so sets added later are held too), the
questions the tests ask, and SciQA's valid and test questions."""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from pipeline.intent.pairs import blocks, intent_pairs
from pipeline.sciqa import SciQA

ROOT = Path(__file__).resolve().parents[2]


def normalised(text: str) -> str:
    """Case, blanks and the closing mark set aside: 'How many  models …?' and 'how many models …' are one question."""
    return " ".join(text.lower().split()).rstrip("?.! ")


def _asked(item: Any) -> Iterator[str]:
    """The question strings of one evaluation item: its question (a string or ``{"string": …}``) and its thread."""
    question = item.get("question")
    question = question.get("string") if isinstance(question, dict) else question
    if isinstance(question, str):
        yield question
    yield from (t for t in item.get("thread", []) if isinstance(t, str))


def evaluation_questions() -> Iterator[str]:
    """Every question of the evaluation sets in tests/data/eval (JSON ``{"questions": [...]}`` or a list; block
    texts)."""
    for path in sorted((ROOT / "tests" / "data" / "eval").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        items = data.get("questions", []) if isinstance(data, dict) else data
        for item in items if isinstance(items, list) else []:
            if isinstance(item, dict):
                yield from _asked(item)
    for path in sorted((ROOT / "tests" / "data" / "eval").glob("*.txt")):
        yield from (b["question"] for b in blocks(path.read_text(encoding="utf-8")))


def questions_in_tests() -> Iterator[str]:
    """The questions the tests ask: every string constant of tests/ that reads as a question (ends with '?')."""
    for path in sorted((ROOT / "tests").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and re.search(r"\w\s*\?$", node.value):
                yield node.value


def copies(pairs: Iterable[str], questions: Iterable[str]) -> list[str]:
    """The pair questions equal to one of ``questions`` once normalised."""
    asked = {normalised(q) for q in questions}
    return [p for p in pairs if normalised(p) in asked]


def test_no_composer_pair_is_a_question_of_an_evaluation_set(sciqa: SciQA) -> None:
    measured = list(evaluation_questions())
    assert len(measured) > 150  # the sets were found
    measured += [r.question for split in ("valid", "test") for r in sciqa.split(split)]
    assert copies([p.question for p in intent_pairs()], measured) == []


def test_no_composer_pair_is_a_question_the_tests_ask() -> None:
    asked = list(questions_in_tests())
    assert len(asked) > 50
    assert copies([p.question for p in intent_pairs()], asked) == []


def test_a_copy_is_found_whatever_its_case_and_blanks() -> None:
    measured = list(evaluation_questions())
    copied = "  " + measured[0].upper().replace(" ", "   ").rstrip("?") + " "
    assert copies([copied, "A question nobody asks here?"], measured) == [copied]


def test_every_pair_composes_a_query_the_gate_reads() -> None:
    from pipeline.intent.conditions import measures
    from pipeline.intent.reading import read_intent
    from pipeline.matching.forms import slot_values
    from pipeline.sparql.text import parses

    prefixes = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in (
        ("orkgp", "http://orkg.org/orkg/predicate/"), ("orkgc", "http://orkg.org/orkg/class/"),
        ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"), ("xsd", "http://www.w3.org/2001/XMLSchema#")))
    for pair in intent_pairs():
        assert parses(prefixes + pair.sparql), pair.id
        # each names what it is about in its question, as a slot to fill, or ranks or counts the whole graph ('the
        # most …', 'how many papers have code'), or lists what lacks something in it ('papers with no venue'), what
        # has code, or what has many of something ('models on 4 or more datasets')
        assert slot_values(pair) or measures(pair.question) or "count" in read_intent(pair.question).operators or \
            "NOT EXISTS" in pair.sparql or "HAVING" in pair.sparql or "HAS_SOURCE_CODE" in pair.sparql, pair.id
