"""``kgqa chat``: lines asked in one conversation, follow-ups read with the earlier ones, history kept."""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.conversation.chat import chat
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.names.check import NameCheck
from standins.fakes import RecordingKG
from tests.conversation.test_talk import INDEX, Naive, asking_back
from tests.test_core import FixedStore


def test_each_line_is_asked_in_one_conversation_until_exit(tmp_path: Path) -> None:
    generator = Naive()
    pipeline = Pipeline(Parts(FixedStore(), generator, RecordingKG(), names=NameCheck(lambda: INDEX)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    lines = iter(["Which models were evaluated on the SQuAD1.1 dataset?", "", "and on SQuAD2.0?", "exit", "never"])
    shown: list[str] = []
    code = chat(pipeline, lambda: INDEX, read=lambda _: next(lines), write=shown.append,
                history=tmp_path / "history")
    assert code == 0 and generator.asked == ["Which models were evaluated on the SQuAD1.1 dataset?",
                                             "Which models were evaluated on the SQuAD2.0 dataset?"]
    assert "I read this as: Which models were evaluated on the SQuAD2.0 dataset?" in shown[-1]


def test_end_of_input_ends_the_chat_and_json_prints_one_object_per_answer() -> None:
    pipeline = Pipeline(Parts(FixedStore(), Naive(), RecordingKG()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    lines = iter(["Which models were evaluated on the SQuAD1.1 dataset?"])

    def read(_: str) -> str:
        try:
            return next(lines)
        except StopIteration:
            raise EOFError from None

    shown: list[str] = []
    assert chat(pipeline, as_json=True, read=read, write=shown.append) == 0
    assert json.loads(shown[-1])["question"] == "Which models were evaluated on the SQuAD1.1 dataset?"


def test_a_question_asked_back_is_a_numbered_choice_and_a_number_picks_it(tmp_path: Path) -> None:
    talking = asking_back(tmp_path)
    lines = iter(["top 2 models on LoreQA Reading Set", "1", "exit"])
    shown: list[str] = []
    assert chat(talking.pipeline, read=lambda _: next(lines), write=shown.append) == 0
    assert "Which one? Type its number or its name:\n  1. Exact Match\n  2. F1" in shown[1]
    assert "I read this as: top 2 models on LoreQA Reading Set by Exact Match?" in shown[2]
    assert "QuickReader" in shown[2]
