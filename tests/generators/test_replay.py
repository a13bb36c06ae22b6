"""Replaying a recorded generation file, matched by question text."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.generators.replay import ReplayGenerator


def test_replay_answers_by_question_text(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps([{"id": "Q1", "sparql": "SELECT ?x WHERE { ?x ?p ?o }"}, {"id": "Q2", "sparql": ""}]))
    gen = ReplayGenerator(path, {"Q1": "Which model is best?", "Q2": "Who else?"})
    assert gen.generate("which  MODEL is best?", []).sparql == "SELECT ?x WHERE { ?x ?p ?o }"
    assert gen.generate("Who else?", []).explanation == "the recorded system wrote no query"
    assert gen.generate("Never recorded?", []).sparql is None


def test_a_malformed_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text("{not json")
    with pytest.raises(ConfigError, match="replay file"):
        ReplayGenerator(path, {})


def test_an_item_carrying_its_question_is_matched_by_it(tmp_path: Path) -> None:
    """A set SciQA does not hold (the new-intent sets) is replayed by each item's own question."""
    path = tmp_path / "rec.json"
    path.write_text(json.dumps([{"id": "NI-1", "question": "How many models are there?", "sparql": "ASK {}"},
                                {"id": "Q1", "sparql": "SELECT ?x WHERE { ?x ?p ?o }"}]))
    gen = ReplayGenerator(path, {"Q1": "Which model is best?"})
    assert gen.generate("how many models are there?", []).sparql == "ASK {}"
    assert gen.generate("Which model is best?", []).sparql == "SELECT ?x WHERE { ?x ?p ?o }"
