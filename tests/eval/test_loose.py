"""Loose-name sets: generated from valid/test outside the challenge subsets, deterministic per seed, and the whole
held-out set (seed 3) answered through the names step above a floor a little under today's figure (0.986)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.loose import PERTURBATIONS, build_set
from pipeline.eval.questions import load_questions
from pipeline.eval.report import build_report
from pipeline.eval.run import run_pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.check import NameCheck
from pipeline.names.sources import LabelSource
from pipeline.sciqa import SciQA
from pipeline.store.retrieval import FormAwareStore

LOOSE_FLOOR = 0.96  # measured 0.98644 on seed 3 (docs/results/quality.md)


def test_sets_are_deterministic_outside_the_challenge_and_every_name_is_changed(sciqa: SciQA) -> None:
    one, again = build_set(sciqa, n=80, seed=3), build_set(sciqa, n=80, seed=3)
    assert one == again and one != build_set(sciqa, n=80, seed=4)
    challenge = {i for phase in ("dev", "final") for i, _ in sciqa.challenge(phase)}
    items = one["questions"]
    assert isinstance(items, list) and len(items) >= 75
    for item in items:
        assert item["id"] not in challenge and item["typed"] != item["name"]
        assert item["typed"] in item["question"] and item["variant"][0] in PERTURBATIONS


def test_the_held_out_loose_name_set_is_answered(train_store: Any, sciqa: SciQA, tmp_path: Path) -> None:
    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    kg = SnapshotKG(sciqa.all())
    pipeline = Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), kg,
                              names=NameCheck(LabelSource(kg, None, ttl=604800.0, page=1000).available)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    path = tmp_path / "loose.json"
    path.write_text(json.dumps(build_set(sciqa, n=200, seed=3)))
    report = build_report(run_pipeline(load_questions(str(path), sciqa), pipeline, workers=2, progress=False),
                          {"questions": "loose-seed3"})
    assert report["n"] == 198 and report["micro_f1"] >= LOOSE_FLOOR, report["micro_f1"]


# measured 0.98852; 0.83990 while composed queries replaced fitting ones (docs/results/quality.md)
SCIQA_LOOSE_FLOOR = 0.98


def test_the_held_out_loose_name_set_through_the_whole_pipeline_on_the_graph_rebuilt_from_sciqa(
        train_store: Any, sciqa: SciQA, sciqa_graph: Any, tmp_path: Path) -> None:
    """As the product builds it: names step and intent step (which may compose) over a graph queries run on."""
    from pipeline.intent.step import IntentStep

    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    labels = LabelSource(sciqa_graph, tmp_path / "labels", ttl=604800.0, page=1000).available
    pipeline = Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), sciqa_graph,
                              names=NameCheck(labels), intent=IntentStep(store.knowledge, labels=labels)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    path = tmp_path / "loose.json"
    path.write_text(json.dumps(build_set(sciqa, n=200, seed=3)))
    report = build_report(run_pipeline(load_questions(str(path), sciqa), pipeline, workers=2, progress=False),
                          {"questions": "loose-seed3"})
    assert report["n"] == 198 and report["micro_f1"] >= SCIQA_LOOSE_FLOOR, report["micro_f1"]


# measured 0.95294 with two questions lost to the deadline under load; see docs/results/quality.md
LOOKALIKE_FLOOR = 0.93


def test_loose_names_over_a_graph_with_look_alike_labels(train_store: Any) -> None:
    from pipeline.kg.oxigraph import OxigraphKG

    docs = Path(__file__).resolve().parents[2] / "tests" / "data" / "eval"
    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    kg = OxigraphKG(docs / "lookalike.nt", row_cap=1000)
    pipeline = Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), kg,
                              names=NameCheck(LabelSource(kg, None, ttl=604800.0, page=1000).available)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    questions = load_questions(str(docs / "loose-lookalike.json"), None)
    report = build_report(run_pipeline(questions, pipeline, workers=2, progress=False), {"questions": "lookalike"})
    assert report["n"] == 35 and report["micro_f1"] >= LOOKALIKE_FLOOR, report["micro_f1"]
