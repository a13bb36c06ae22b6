"""The F1 plot: reference series first, then one series per generator."""
from __future__ import annotations

from pathlib import Path

from pipeline.eval.plot import plot_f1, series


def _run(generator: str, shots: int | None, f1: float) -> dict[str, object]:
    return {"micro_f1": f1, "config": {"generator": generator, "shots": shots, "questions": "final", "kg": "snapshot"}}


def test_series() -> None:
    data = series([_run("adapter", 1, 0.5), _run("adapter", 3, 0.6), _run("replay", 3, 0.9)])
    assert list(data) == ["reference Vicuna-13B (final)", "reference Vicuna-13B (dev)",
                          "adapter (final, kg snapshot)", "replay (final, kg snapshot)"]
    assert data["reference Vicuna-13B (final)"] == {1: 0.96023, 3: 0.99044, 5: 0.98903}
    assert data["adapter (final, kg snapshot)"] == {1: 0.5, 3: 0.6}


def test_plot_writes_png(tmp_path: Path) -> None:
    path = plot_f1([_run("adapter", 3, 0.7), _run("recorded", None, 0.99)], tmp_path / "f1.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_labels_shorten_replay_paths_and_skip_unknown_kg() -> None:
    recorded = {"micro_f1": 0.99, "config": {"generator": "recorded", "shots": None, "questions": "final"}}
    data = series([_run("replay:/a/b/three_shot_sparql.json", 3, 0.99), recorded])
    assert "replay:three_shot_sparql.json (final, kg snapshot)" in data
    assert data["recorded (final)"] == {None: 0.99}
