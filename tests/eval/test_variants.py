"""The Slack-style question sets: deterministic, drawn from valid/test outside the challenge subsets, names intact."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.eval.questions import load_questions
from pipeline.eval.variants import build_set, main, slackify, sources, typo
from pipeline.matching.align import slots
from pipeline.sciqa import SciQA


def test_the_set_is_deterministic_and_outside_the_challenge_subsets(sciqa: SciQA) -> None:
    first, again = build_set(sciqa, n=150), build_set(sciqa, n=150)
    assert first == again
    items = first["questions"]
    assert isinstance(items, list) and len(items) == 150 and len({q["id"] for q in items}) == 150
    challenge = {i for phase in ("dev", "final") for i, _ in sciqa.challenge(phase)}
    assert not challenge & {q["id"] for q in items}
    assert all(sciqa.by_id[q["id"]].split in ("valid", "test") for q in items)


def test_every_question_is_changed_and_keeps_its_names(sciqa: SciQA) -> None:
    for record in sources(sciqa, 80, 5):
        text, done = slackify(record, 5)
        assert text != record.question and len(done) >= 2
        flat = " ".join(text.split())  # doubled blanks may fall inside a name; the adapter collapses them
        for s in slots(record.question, record.sparql):
            assert " ".join(record.question[s.start:s.end].split()) in flat, (record.id, text)


def test_the_lowercase_set_lowercases_everything(sciqa: SciQA) -> None:
    items = build_set(sciqa, n=20, lower_names=True)["questions"]
    assert isinstance(items, list)
    for q in items:
        body = q["question"].replace("<@U0KGQABOT>", "")
        assert body == body.lower()


def test_a_typo_changes_one_thing() -> None:
    import random

    rng = random.Random(1)
    for _ in range(50):
        word = typo("evaluated", rng)
        assert abs(len(word) - len("evaluated")) <= 1 and word[0] == "e"


def test_the_files_load_as_eval_question_sets(tmp_path: Path, sciqa: SciQA, monkeypatch: pytest.MonkeyPatch,
                                              sciqa_dir: Path) -> None:
    monkeypatch.setenv("SCIQA_DIR", str(sciqa_dir))
    assert main(["--out", str(tmp_path), "--n", "30"]) == 0
    for name in ("slack.json", "slack-lower.json"):
        questions = load_questions(str(tmp_path / name), sciqa)
        assert len(questions) == 30 and all(q.gold is not None and q.template_id for q in questions)
        assert json.loads((tmp_path / name).read_text())["about"].startswith("Slack-style")
