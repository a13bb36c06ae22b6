"""Question sets: the challenge subsets, the SciQA splits, and question files."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.questions import flat_strings, load_questions
from pipeline.sciqa import SciQA


@pytest.mark.parametrize("phase", ["dev", "final"])
def test_challenge_subsets(sciqa: SciQA, phase: str) -> None:
    qs = load_questions(phase, sciqa)
    assert len(qs) == 200 and len({q.id for q in qs}) == 200
    assert all(q.question and q.template_id for q in qs)
    test_split = {r.id: r for r in sciqa.split("test")}
    assert all(q.gold == list(test_split[q.id].flat_answer) for q in qs)
    assert {q.template_id for q in qs} >= {"T01", "HQ"}


def test_final_first_question(sciqa: SciQA) -> None:
    q = load_questions("final", sciqa)[0]
    assert q.id == "AQ0638" and q.question.startswith("List the title and ID of research papers")


@pytest.mark.parametrize(("split", "n"), [("valid", 257), ("test", 513)])
def test_splits(sciqa: SciQA, split: str, n: int) -> None:
    qs = load_questions(split, sciqa)
    assert len(qs) == n
    assert sum(q.template_id == "HQ" for q in qs) > 0


def test_named_set_needs_sciqa() -> None:
    with pytest.raises(ConfigError, match="SCIQA_DIR"):
        load_questions("final", None)


def _write(tmp_path: Path, items: object) -> str:
    path = tmp_path / "qs.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    return str(path)


def test_file_with_and_without_answers(sciqa: SciQA, tmp_path: Path) -> None:
    spec = _write(tmp_path, {"questions": [
        {"id": "mine-1", "question": "How many papers?", "answer": ["3"]},
        {"id": "mine-2", "question": {"string": "Is it so?"}, "answer": True, "template_id": "T02"},
        {"id": "AQ0638", "question": "asked my way"},
    ]})
    a, b, c = load_questions(spec, sciqa)
    assert (a.id, a.question, a.gold, a.template_id) == ("mine-1", "How many papers?", ["3"], "")
    assert (b.question, b.gold, b.template_id) == ("Is it so?", ["true"], "T02")
    assert c.question == "asked my way" and c.gold == list(sciqa.by_id["AQ0638"].flat_answer) and c.gold
    assert c.template_id == sciqa.by_id["AQ0638"].template_id


def test_file_without_sciqa_needs_answers(tmp_path: Path) -> None:
    only = load_questions(_write(tmp_path, {"questions": [{"id": "x", "question": "q", "answer": []}]}), None)
    assert only[0].gold == []
    with pytest.raises(ConfigError, match="no \"answer\""):
        load_questions(_write(tmp_path, {"questions": [{"id": "x", "question": "q"}]}), None)


@pytest.mark.parametrize("items", [
    [{"id": "x", "question": "q"}],  # not wrapped in {"questions": ...}
    {"questions": [{"question": "no id"}]},
    {"questions": [{"id": "x", "question": "q", "answer": "a string"}]},
    {"questions": [{"id": "x", "question": "q", "answer": []}, {"id": "x", "question": "r", "answer": []}]},
])
def test_bad_files(tmp_path: Path, items: object) -> None:
    with pytest.raises(ConfigError):
        load_questions(_write(tmp_path, items), None)


def test_unknown_id_without_answer(sciqa: SciQA, tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not in SciQA"):
        load_questions(_write(tmp_path, {"questions": [{"id": "nope", "question": "q"}]}), sciqa)


def test_neither_a_set_nor_a_file(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="dev, final, valid, test"):
        load_questions(str(tmp_path / "missing.json"), None)


def test_flat_strings() -> None:
    assert flat_strings(False, "x") == ["false"]
    assert flat_strings(["a", 1, True], "x") == ["a", "1", "true"]


def test_an_item_may_carry_its_threads_earlier_questions(tmp_path: Path) -> None:
    path = _write(tmp_path, {"questions": [{"id": "f1", "question": "and on SQuAD2.0?", "answer": ["x"],
                                            "thread": ["Which models were evaluated on SQuAD1.1?"]},
                                           {"id": "f2", "question": "Which models were evaluated on SQuAD1.1?",
                                            "answer": []}]})
    first, second = load_questions(path, None)
    assert first.thread == ("Which models were evaluated on SQuAD1.1?",) and second.thread == ()
    with pytest.raises(ConfigError, match="thread"):
        load_questions(_write(tmp_path, {"questions": [{"id": "f", "question": "q", "answer": [],
                                                        "thread": "not a list"}]}), None)
