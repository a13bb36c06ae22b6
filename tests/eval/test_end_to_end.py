"""A real evaluation run in CI: store (train only) -> prompt -> TGI-protocol server -> cleaning -> snapshot ->
scorer."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from pipeline.settings import Settings


def test_final_phase_subset_through_the_tgi_stand_in(monkeypatch: pytest.MonkeyPatch, train_settings: Settings,
                                                     train_store: Any, tgi: Any, tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KGQA_HOME", str(train_settings.home))
    monkeypatch.setenv("SCIQA_DIR", str(train_settings.sciqa_dir))
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    code = main(["eval", "--questions", "final", "--limit", "30", "--generator", "tgi", "--shots", "3",
                 "--kg", "snapshot", "--workers", "2", "--report", str(tmp_path / "r")])
    captured = capsys.readouterr()
    printed = captured.out
    assert code == 0 and "F1:" in printed
    assert "warmed up: store" in captured.err and "labels" in captured.err  # timed as a served bot, not cold
    report = json.loads((tmp_path / "r" / "report.json").read_text())
    assert report["n"] == 30 and len(report["questions"]) == 30
    calls = [body for path, body in tgi.requests if path == "/"]
    generate_calls = [body for body in calls if "</s>USER:" not in body["inputs"]]  # first turns, not re-asks
    assert len(generate_calls) == 30  # every question went to the language model server
    assert len(calls) - 30 <= 30  # at most one re-ask each (a parse error, a name the graph lacks, an empty answer)
    assert all(body["inputs"].count("Question:") == 4 for body in generate_calls)  # 3 shots + the question
    # the recorded Vicuna-13B queries, cleaned and answered by the snapshot, score as the paper's 3-shot run did
    assert report["micro_f1"] >= 0.95 and report["template_hit_at_3"] >= 0.8
    assert (tmp_path / "r" / "report.md").is_file() and (tmp_path / "r" / "f1.png").stat().st_size > 1000
