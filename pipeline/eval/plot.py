"""F1 by shots and generator, beside the reference system's recorded figures (matplotlib, Agg, no pyplot)."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

# Micro F1 of the reference system (Taffa & Usbeck 2023, Vicuna-13B v1.5) as its scorer output files record them:
# ../shared/seed-paper-outputs/{test,dev}/{one_shot,three_shot,few_shot}/ (final = the challenge's final phase).
REFERENCE_F1: dict[str, dict[int, float]] = {
    "final": {1: 0.96023, 3: 0.99044, 5: 0.98903},
    "dev": {1: 0.89982, 3: 0.97427, 5: 0.97329},
}


def series(runs: Sequence[Mapping[str, Any]]) -> dict[str, dict[int | None, float]]:
    """Label -> {shots: micro F1}: the reference first, then one series per generator / question set / KG."""
    out: dict[str, dict[int | None, float]] = {
        f"reference Vicuna-13B ({phase})": {k: v for k, v in f1.items()} for phase, f1 in REFERENCE_F1.items()}
    for run in runs:
        c = run.get("config", {})
        label = f"{c.get('generator') or '?'} ({c.get('questions', '?')}, kg {c.get('kg') or '?'})"
        out.setdefault(label, {})[c.get("shots")] = float(run["micro_f1"])
    return out


def plot_f1(runs: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Grouped bars of micro F1 per shots value, one bar per series; writes a PNG to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # heavy import, only when plotting
    from matplotlib.figure import Figure

    data = series(runs)
    shots = sorted({s for f1 in data.values() for s in f1}, key=lambda s: (s is None, s or 0))
    fig = Figure(figsize=(8, 4.5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    width = 0.8 / len(data)
    for n, (label, f1) in enumerate(data.items()):
        xs = [i + (n - (len(data) - 1) / 2) * width for i, s in enumerate(shots) if s in f1]
        ys = [f1[s] for s in shots if s in f1]
        bars = ax.bar(xs, ys, width, label=label, hatch="//" if label.startswith("reference") else None)
        ax.bar_label(bars, labels=[f"{y:.3f}" for y in ys], fontsize=7, rotation=90, padding=2)
    ax.set_xticks(range(len(shots)), [f"{s}-shot" if s is not None else "recorded" for s in shots])
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("micro F1 (SciQA challenge scorer)")
    ax.set_title("F1 by shots and generator, beside the reference system")
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    fig.savefig(path, format="png")
    return Path(path)
