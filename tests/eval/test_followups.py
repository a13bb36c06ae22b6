"""Follow-up sets: built outside the challenge subsets, deterministic per seed; the held-out sets (seed 2) and the
hand-written set answered in their threads above floors a little under today's figures (docs/results/quality.md)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.followups import build_sets
from pipeline.eval.questions import load_questions
from pipeline.eval.report import build_report
from pipeline.eval.run import run_pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.check import NameCheck
from pipeline.names.sources import LabelSource
from pipeline.sciqa import SciQA
from pipeline.store.retrieval import FormAwareStore

HAND = Path(__file__).resolve().parents[2] / "tests" / "data" / "eval" / "followups-hand.json"
# measured: same 0.9982, cross 1.0, hand 0.98507
FLOORS = [("same", 0.97), ("cross", 0.97), ("hand", 0.95)]


def test_sets_are_deterministic_outside_the_challenge_with_one_earlier_question(sciqa: SciQA) -> None:
    sets = build_sets(sciqa, n=100, seed=2)
    assert sets == build_sets(sciqa, n=100, seed=2)
    challenge = {i for phase in ("dev", "final") for i, _ in sciqa.challenge(phase)}
    for kind in ("same", "cross"):
        items = sets[kind]["questions"]
        assert isinstance(items, list) and len(items) == 100
        assert all(i["id"] not in challenge and len(i["thread"]) == 1 and i["variant"][0] == kind for i in items)
        assert all(sciqa.by_id[i["id"]].question not in i["thread"] for i in items)


@pytest.mark.parametrize(("name", "floor"), FLOORS)
def test_follow_ups_are_answered_in_their_threads(name: str, floor: float, train_store: Any, sciqa: SciQA,
                                                  tmp_path: Path) -> None:
    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    kg = SnapshotKG(sciqa.all())
    pipeline = Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), kg,
                              names=NameCheck(LabelSource(kg, None, ttl=604800.0, page=1000).available)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    path = HAND
    if name != "hand":
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(build_sets(sciqa, n=100, seed=2)[name]))
    questions = load_questions(str(path), sciqa)
    assert all(q.thread for q in questions)
    report = build_report(run_pipeline(questions, pipeline, workers=2, progress=False), {"questions": name})
    assert report["micro_f1"] >= floor, report["micro_f1"]
