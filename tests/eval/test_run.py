"""Scoring a recorded answers file, and running questions through a (fake) pipeline concurrently."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.questions import EvalQuestion
from pipeline.eval.run import ask_one, read_answers, run_pipeline, score_answers_file

from .fakes import FakePipeline, example

QUESTIONS = [EvalQuestion(f"AQ{n}", f"question {n}?", [f"a{n}", f"b{n}"], "T0" + str(n % 3 + 1)) for n in range(8)]
QUESTIONS.append(EvalQuestion("HQ1", "handcrafted?", ["h"], "HQ"))
SCRIPT = {1: "empty", 2: "snapshot", 3: "syntax", 4: "wrong"}


def script(n: int, q: EvalQuestion) -> str:
    return SCRIPT.get(n, "gold")


def test_score_answers_file(tmp_path: Path) -> None:
    path = tmp_path / "answers.json"
    path.write_text(json.dumps([{"id": "AQ0", "answer": ["a0", "b0"]}, {"id": "AQ1", "answer": ["a1", "x"]},
                                {"id": "other", "answer": ["z"]}]), encoding="utf-8")
    results = score_answers_file(QUESTIONS, path)
    assert [r.id for r in results] == [q.id for q in QUESTIONS]
    assert results[0].f1 == 1.0 and results[0].exact
    assert results[1].precision == 0.5 and results[1].recall == 0.5
    assert results[2].system == [] and results[2].empty_answer and results[2].f1 == 0.0  # missing -> empty
    assert results[0].examples is None and results[0].sparql is None


@pytest.mark.parametrize("content", ["not json", '{"id": "x"}', '[{"id": "x"}]', '[{"id": "x", "answer": 3}]'])
def test_bad_answers_file(tmp_path: Path, content: str) -> None:
    path = tmp_path / "answers.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match="answers"):
        read_answers(path)
    with pytest.raises(ConfigError):
        read_answers(tmp_path / "missing.json")


@pytest.mark.parametrize("workers", [1, 4])
def test_run_pipeline_flags_and_order(workers: int) -> None:
    fake = FakePipeline(QUESTIONS, script)
    results = run_pipeline(QUESTIONS, fake, shots=3, workers=workers, progress=False)
    assert [r.id for r in results] == [q.id for q in QUESTIONS]
    assert sorted(fake.asked) == sorted((q.question, 3) for q in QUESTIONS)
    by = {r.id: r for r in results}
    assert by["AQ0"].exact and by["AQ0"].system == ["a0", "b0"] and by["AQ0"].sparql
    assert by["AQ1"].empty_answer and not by["AQ1"].not_in_snapshot and by["AQ1"].f1 == 0.0
    assert by["AQ2"].not_in_snapshot and by["AQ2"].empty_answer and by["AQ2"].outcome == "failed"
    assert by["AQ0"].outcome == "answered" and by["AQ1"].outcome == "empty" and not by["AQ3"].not_in_snapshot
    assert by["AQ3"].syntax_error and not by["AQ0"].syntax_error and by["AQ3"].explanation
    assert by["AQ4"].system == ["nope"] and by["AQ4"].precision == 0.0
    assert by["AQ0"].examples == [{"id": "T-AQ0", "template_id": "T01", "score": 0.9, "question": "question T-AQ0"},
                                  {"id": "X", "template_id": "T99", "score": 0.9, "question": "question X"}]
    assert by["AQ0"].generator == "fake-gen" and by["AQ0"].kg == "fake-kg" and by["AQ0"].notes == ["n1"]
    assert set(by["AQ5"].timings_ms) == {"retrieve", "generate", "kg", "wall"}
    assert by["AQ5"].reference_overlap is None


def test_project_errors_become_question_errors() -> None:
    fake = FakePipeline(QUESTIONS, lambda n, q: "raise" if n == 0 else "gold")
    results = run_pipeline(QUESTIONS, fake, workers=2, progress=False)
    assert results[0].error == "GeneratorError: TGI is down" and results[0].empty_answer
    assert results[0].outcome == "failed"
    assert all(r.exact for r in results[1:])


def test_bugs_propagate() -> None:
    class Broken:
        def ask(self, question: str, shots: int | None = None) -> None:
            raise ZeroDivisionError("bug")

    with pytest.raises(ZeroDivisionError):
        run_pipeline(QUESTIONS, Broken(), progress=False)  # type: ignore[arg-type]


def test_reference_overlap_uses_lookup_when_fewer_shots() -> None:
    theirs = ["s1", "s2", "s3", "s4", "s5"]
    q = QUESTIONS[0]
    fake = FakePipeline(QUESTIONS, script, examples=lambda q: [example("e", "T01", "s1")],
                        lookup_result=lambda text: [example(s, "T01", s) for s in ("s1", "s2", "x", "s4", "y")])
    assert ask_one(q, fake, 1, theirs).reference_overlap == pytest.approx(3 / 5)
    five = FakePipeline(QUESTIONS, script, examples=lambda q: [example(s, "T01", s) for s in theirs])
    assert ask_one(q, five, 5, theirs).reference_overlap == 1.0


def test_many_workers_flag_no_spurious_syntax_errors() -> None:
    many = [EvalQuestion(f"AQ{n:04d}", f"question {n}?", [f"a{n}"], "T01") for n in range(120)]
    results = run_pipeline(many, FakePipeline(many, lambda n, q: "gold"), workers=8, progress=False)
    assert not any(r.syntax_error for r in results) and all(r.exact for r in results)


def test_a_threaded_item_is_asked_after_its_earlier_questions_in_a_conversation_of_its_own() -> None:
    from pipeline.core import Bounds, Parts, Pipeline
    from pipeline.eval.questions import EvalQuestion
    from pipeline.eval.run import run_pipeline
    from standins.fakes import RecordingKG
    from tests.conversation.test_talk import Naive
    from tests.test_core import FixedStore

    generator = Naive()
    pipeline = Pipeline(Parts(FixedStore(), generator, RecordingKG()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    questions = [EvalQuestion("a", "and on SQuAD2.0?", ["42"], thread=("Which models ran on the SQuAD1.1 dataset?",)),
                 EvalQuestion("b", "and on SQuAD2.0?", ["42"])]
    first, second = run_pipeline(questions, pipeline, workers=1, progress=False)
    assert first.read_as == "Which models ran on the SQuAD2.0 dataset?" and second.read_as == ""
    assert sorted(generator.asked) == sorted(["Which models ran on the SQuAD1.1 dataset?",
                                              "Which models ran on the SQuAD2.0 dataset?", "and on SQuAD2.0?"])
