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


def _short(generator: str) -> str:
    """``replay:/long/path/file.json`` -> ``replay:file.json``."""
    kind, sep, path = generator.partition(":")
    return f"{kind}:{Path(path).name}" if sep and path else generator


def series(runs: Sequence[Mapping[str, Any]]) -> dict[str, dict[int | None, float]]:
    """Label -> {shots: micro F1}: the reference first, then one series per generator / question set / KG."""
    out: dict[str, dict[int | None, float]] = {
        f"reference Vicuna-13B ({phase})": dict(f1.items()) for phase, f1 in REFERENCE_F1.items()}
    for run in runs:
        c = run.get("config", {})
        kg = f", kg {c['kg']}" if c.get("kg") else ""
        label = f"{_short(str(c.get('generator') or '?'))} ({c.get('questions', '?')}{kg})"
        out.setdefault(label, {})[c.get("shots")] = float(run["micro_f1"])
    return out


def plot_f1(runs: Sequence[Mapping[str, Any]], path: Path) -> Path:
    """Grouped bars of micro F1 per shots value, one bar per series present there; writes a PNG to ``path``."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # heavy import, only when plotting
    from matplotlib.figure import Figure

    data = series(runs)
    shots = sorted({s for f1 in data.values() for s in f1}, key=lambda s: (s is None, s or 0))
    colors = {label: f"C{n % 10}" for n, label in enumerate(data)}
    fig = Figure(figsize=(8, 5), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.subplots()
    width = 0.8 / max(sum(s in f1 for f1 in data.values()) for s in shots)
    shown: set[str] = set()
    for i, s in enumerate(shots):
        present = [label for label, f1 in data.items() if s in f1]
        for j, label in enumerate(present):
            y = data[label][s]
            bars = ax.bar(i + (j - (len(present) - 1) / 2) * width, y, width, color=colors[label],
                          hatch="//" if label.startswith("reference") else None,
                          label=None if label in shown else label)
            ax.bar_label(bars, labels=[f"{y:.3f}"], fontsize=7, rotation=90, padding=2)
            shown.add(label)
    ax.set_xticks(range(len(shots)), [f"{s}-shot" if s is not None else "recorded" for s in shots])
    ax.set_ylim(0, 1.15)
    ax.set_ylabel("micro F1 (SciQA challenge scorer)")
    ax.set_title("F1 by shots and generator, beside the reference system")
    ax.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.08), ncol=2, frameon=False)
    fig.savefig(path, format="png", bbox_inches="tight")
    return Path(path)
