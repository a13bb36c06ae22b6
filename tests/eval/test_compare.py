"""Runs side by side."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.compare import compare
from pipeline.eval.questions import EvalQuestion
from pipeline.eval.report import build_report, write_report
from pipeline.eval.run import run_pipeline, scored

from .fakes import FakePipeline

QUESTIONS = [EvalQuestion(f"AQ{n}", f"question {n}?", [f"a{n}"], "T01") for n in range(4)]


def _write_runs(tmp_path: Path) -> list[Path]:
    fake = FakePipeline(QUESTIONS, lambda n, q: "gold" if n else "empty")
    adapter = build_report(run_pipeline(QUESTIONS, fake, shots=3, progress=False),
                           {"questions": "final", "generator": "adapter", "shots": 3, "kg": "snapshot"})
    recorded = build_report([scored(q, q.gold) for q in QUESTIONS],
                            {"questions": "final", "generator": "recorded", "shots": None, "kg": None})
    write_report(adapter, tmp_path / "adapter")
    write_report(recorded, tmp_path / "recorded")
    return [tmp_path / "adapter", tmp_path / "recorded" / "report.json"]


def test_compare_prints_both_runs(tmp_path: Path) -> None:
    text = compare(_write_runs(tmp_path), plot=tmp_path / "compare.png")
    lines = text.splitlines()
    assert lines[0] == "| | adapter | report.json |"
    assert "| micro F1 | 0.85714 | 1.00000 |" in lines
    assert "| generator | adapter | recorded |" in lines and "| shots | 3 | — |" in lines
    assert "| template hit@1 | 1.00000 | — |" in lines and "| empty answers | 1 | 0 |" in lines
    assert (tmp_path / "compare.png").read_bytes()[:4] == b"\x89PNG"


def test_same_names_use_paths(tmp_path: Path) -> None:
    runs = _write_runs(tmp_path)
    (tmp_path / "b").mkdir()
    write_report(build_report([scored(q, []) for q in QUESTIONS], {"questions": "final"}), tmp_path / "b" / "adapter")
    header = compare([runs[0], tmp_path / "b" / "adapter"]).splitlines()[0]
    assert str(runs[0]) in header and str(tmp_path / "b" / "adapter") in header


def test_missing_run(tmp_path: Path) -> None:
    with pytest.raises(ConfigError):
        compare([tmp_path / "nothing"])
