"""The report: figures and breakdowns in report.json, a readable report.md, and the F1 plot."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.questions import EvalQuestion
from pipeline.eval.report import build_report, load_report, markdown, percentile, write_report
from pipeline.eval.run import run_pipeline

from .fakes import FakePipeline, example

QUESTIONS = [EvalQuestion(f"AQ{n}", f"question {n}?", [f"a{n}", f"b{n}"], "T01" if n % 2 else "T02")
             for n in range(6)]
QUESTIONS += [EvalQuestion("HQ1", "handcrafted one?", ["h1"], "HQ"), EvalQuestion("HQ2", "handcrafted two?", [], "HQ")]
SCRIPT = {"AQ1": "empty", "AQ2": "snapshot", "AQ3": "syntax", "HQ1": "wrong"}
CONFIG = {"questions": "mine", "generator": "fake-gen", "shots": 3, "kg": "fake-kg", "command": "kgqa eval ..."}


def examples(q: EvalQuestion) -> list[Any]:
    """The right template first for AQ0/AQ4 and HQ*, second for AQ1/AQ5, never for AQ2/AQ3."""
    wrong = example("w", "T07")
    right = example("r", q.template_id)
    return {"AQ0": [right, wrong], "AQ4": [right], "AQ1": [wrong, right], "AQ5": [wrong, wrong, right]}.get(
        q.id, [right] if q.id.startswith("HQ") else [wrong, wrong, wrong, right])


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    fake = FakePipeline(QUESTIONS, lambda n, q: SCRIPT.get(q.id, "gold"), examples=examples)
    return build_report(run_pipeline(QUESTIONS, fake, shots=3, progress=False), CONFIG)


def test_headline_figures(report: dict[str, Any]) -> None:
    # gold strings: 6 questions x 2 + h1 = 13; right: AQ0, AQ4, AQ5 (6 strings); wrong system strings: nope (HQ1)
    assert report["n"] == 8 and (report["tp"], report["fp"], report["fn"]) == (6, 1, 7)
    assert report["micro_precision"] == pytest.approx(6 / 7)
    assert report["micro_recall"] == pytest.approx(6 / 13)
    assert report["macro_f1"] == pytest.approx(4 / 8)  # AQ0, AQ4, AQ5 and HQ2 (empty gold, empty answer)
    assert report["exact_question_accuracy"] == pytest.approx(4 / 8)
    assert report["template_hit_at_1"] == pytest.approx(4 / 8)  # AQ0, AQ4, HQ1, HQ2
    assert report["template_hit_at_3"] == pytest.approx(6 / 8)  # + AQ1, AQ5
    assert (report["not_in_snapshot"], report["syntax_errors"], report["empty_answers"]) == (1, 1, 4)
    assert report["errors"] == 2 and report["reference_overlap_at_5"] is None


def test_breakdowns(report: dict[str, Any]) -> None:
    t, h = report["templated"], report["handcrafted"]
    assert t["n"] == 6 and h["n"] == 2
    assert t["micro_precision"] == 1.0 and t["micro_recall"] == pytest.approx(6 / 12)
    assert t["template_hit_at_1"] == pytest.approx(2 / 6) and t["template_hit_at_3"] == pytest.approx(4 / 6)
    assert h["micro_f1"] == 0.0 and h["macro_f1"] == 0.5 and h["exact_question_accuracy"] == 0.5
    assert h["template_hit_at_1"] == 1.0


def test_timings_and_config(report: dict[str, Any]) -> None:
    assert set(report["timings_ms"]) == {"retrieve", "generate", "kg", "wall"}
    retrieve = report["timings_ms"]["retrieve"]  # 1 + question index: 1..8
    assert retrieve["n"] == 8 and retrieve["p50"] == pytest.approx(4.5) and retrieve["p95"] == pytest.approx(7.65)
    assert report["config"] == CONFIG


def test_per_question_list(report: dict[str, Any]) -> None:
    qs = {q["id"]: q for q in report["questions"]}
    assert list(qs) == [q.id for q in QUESTIONS]
    aq2 = qs["AQ2"]
    assert aq2["not_in_snapshot"] and aq2["empty_answer"] and aq2["gold"] == ["a2", "b2"] and aq2["system"] == []
    assert qs["AQ0"]["sparql"] and qs["AQ0"]["examples"][0]["template_id"] == "T02"
    assert {"question", "precision", "recall", "f1", "exact", "error", "explanation", "timings_ms"} <= set(aq2)


def test_written_files(report: dict[str, Any], tmp_path: Path) -> None:
    paths = write_report(report, tmp_path / "run")
    assert [p.name for p in paths] == ["report.json", "report.md", "f1.png"]
    assert load_report(tmp_path / "run") == json.loads(json.dumps(report))
    assert paths[2].read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and paths[2].stat().st_size > 5000
    md = paths[1].read_text(encoding="utf-8")
    assert "| micro_f1 |" in md and "## Worst questions first" in md and "fake-gen" in md
    worst = [md.index(f"### {i} ") for i in ("AQ1", "AQ2", "AQ3", "HQ1")]
    assert worst == sorted(worst) and "### AQ0 " not in md  # F1 0 first, by id; exact answers left out
    assert "Flags: not_in_snapshot, empty_answer" in md and "```sparql" in md


def test_markdown_without_retrieval() -> None:
    from pipeline.eval.run import scored

    report = build_report([scored(q, q.gold) for q in QUESTIONS], {"questions": "x", "command": "c"})
    assert report["template_hit_at_1"] is None and report["micro_f1"] == 1.0
    md = markdown(report)
    assert "| template_hit_at_1 | — | — | — |" in md and "0 of 8 questions not answered exactly" in md


def test_percentile() -> None:
    assert percentile([5.0], 95) == 5.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile([3.0, 1.0, 2.0], 100) == 3.0


def test_load_report_missing(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no readable report"):
        load_report(tmp_path)
