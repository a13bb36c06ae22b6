"""A live run's model queries as a replay file: the query that went on to the intent step, per question."""
from __future__ import annotations

import json
from pathlib import Path

from pipeline.eval.generated.replies import recorded_replies
from pipeline.generators.replay import ReplayGenerator
from pipeline.records import Ask, Attempt, Verdict


def attempt(ask: Ask, sparql: str | None, verdict: Verdict) -> dict[str, object]:
    return Attempt(ask, f"reply: {sparql}", sparql, verdict, "" if verdict is Verdict.TAKEN else "why").to_json()


def test_the_taken_query_before_any_retry_is_recorded_and_questions_without_one_are_left_out(tmp_path: Path) -> None:
    report = {"questions": [
        {"id": "a", "question": "first?", "attempts": [attempt(Ask.PROMPT, "SELECT 1", Verdict.TAKEN)]},
        {"id": "b", "question": "second?", "attempts": [attempt(Ask.PROMPT, "SELEC", Verdict.SYNTAX),
                                                         attempt(Ask.SYNTAX, "SELECT 2", Verdict.TAKEN)]},
        {"id": "c", "question": "composed?", "attempts": []},
        {"id": "d", "question": "retried?", "attempts": [attempt(Ask.PROMPT, "SELECT 4", Verdict.TAKEN),
                                                          attempt(Ask.EMPTY, "SELECT 5", Verdict.TAKEN)]},
        {"id": "e", "question": "prose?", "attempts": [attempt(Ask.PROMPT, None, Verdict.NO_QUERY)]}]}
    items = recorded_replies([report, {"questions": []}])
    assert items == [{"id": "a", "question": "first?", "sparql": "SELECT 1"},
                     {"id": "b", "question": "second?", "sparql": "SELECT 2"},
                     {"id": "d", "question": "retried?", "sparql": "SELECT 4"}]
    path = tmp_path / "replies.json"
    path.write_text(json.dumps(items), encoding="utf-8")
    replay = ReplayGenerator(path, {})
    assert replay.generate("Second?", []).sparql == "SELECT 2" and replay.generate("composed?", []).sparql is None


def test_the_committed_replies_are_of_questions_of_the_per_intent_set_as_asked() -> None:
    root = Path(__file__).resolve().parents[2] / "tests" / "data" / "eval"
    asked = {q["id"]: q["question"] for q in json.loads((root / "generated-per-intent.json").read_text("utf-8"))
             ["questions"]}
    items = json.loads((root / "generated-per-intent-replies.json").read_text(encoding="utf-8"))
    assert items and all(asked[i["id"]] == i["question"] and i["sparql"].strip() for i in items)
    replay = ReplayGenerator(root / "generated-per-intent-replies.json", {})
    assert all(replay.generate(i["question"], []).sparql == i["sparql"] for i in items)
