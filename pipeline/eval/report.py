"""The evaluation report: DIR/report.json (figures + per-question list), DIR/report.md and DIR/f1.png."""
from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.eval.failures import failure_counts, failure_lines, writer_counts
from pipeline.eval.grade import intent_counts, intent_lines
from pipeline.eval.plot import plot_f1
from pipeline.eval.retrieval import hit_rate, mean
from pipeline.eval.run import QuestionResult
from pipeline.eval.scorer import group_ids, score

HEADLINE = ("micro_precision", "micro_recall", "micro_f1", "macro_f1", "exact_question_accuracy",
            "template_hit_at_1", "template_hit_at_3")
WORST_SHOWN = 40


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0–100) with linear interpolation between closest ranks."""
    ordered = sorted(values)
    pos = (len(ordered) - 1) * q / 100
    lo, hi = math.floor(pos), math.ceil(pos)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def timings(results: Sequence[QuestionResult]) -> dict[str, dict[str, float]]:
    """Per stage: p50, p95 and how many questions reported it (milliseconds)."""
    stages: dict[str, list[float]] = {}
    for r in results:
        for stage, ms in r.timings_ms.items():
            stages.setdefault(stage, []).append(float(ms))
    return {s: {"p50": percentile(v, 50), "p95": percentile(v, 95), "n": len(v)} for s, v in stages.items()}


def _group(results: Sequence[QuestionResult]) -> dict[str, Any]:
    gold = {r.id: r.gold for r in results}
    system = {r.id: r.system for r in results}
    pairs = [(r.template_id, [str(e["template_id"]) for e in r.examples]) for r in results if r.examples is not None]
    return {**score(gold, system).to_json(),
            "template_hit_at_1": hit_rate(pairs, 1), "template_hit_at_3": hit_rate(pairs, 3),
            "reference_overlap_at_5": mean(r.reference_overlap for r in results),
            "not_in_snapshot": sum(r.not_in_snapshot for r in results),
            "syntax_errors": sum(r.syntax_error for r in results),
            "empty_answers": sum(r.empty_answer for r in results),
            "errors": sum(bool(r.error) for r in results)}


def build_report(results: Sequence[QuestionResult], config: Mapping[str, Any]) -> dict[str, Any]:
    """Headline figures overall, templated/handcrafted breakdowns, latency, config and the per-question list."""
    ids = group_ids([r.id for r in results], {r.id: r.template_id for r in results})
    by_id = {r.id: r for r in results}
    report = _group(results)
    for name in ("templated", "handcrafted"):
        report[name] = _group([by_id[i] for i in ids[name]])
    report["failures"] = failure_counts(results)
    report["written_by"] = writer_counts(results)
    report["intents"] = intent_counts(results)
    report["timings_ms"] = timings(results)
    report["config"] = dict(config)
    report["questions"] = [r.to_json() for r in results]
    return report


def write_report(report: Mapping[str, Any], out_dir: Path) -> list[Path]:
    """Write report.json, report.md and f1.png into ``out_dir`` (created if needed); returns the paths."""
    out_dir = Path(out_dir)
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        paths = [out_dir / "report.json", out_dir / "report.md", out_dir / "f1.png"]
        paths[0].write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
        paths[1].write_text(markdown(report), encoding="utf-8")
        plot_f1([report], paths[2])
    except OSError as exc:
        raise ConfigError(f"cannot write the report to {out_dir}: {exc}") from exc
    return paths


def load_report(path: Path) -> dict[str, Any]:
    """A report.json, given it or the folder holding it."""
    path = Path(path)
    file = path / "report.json" if path.is_dir() else path
    try:
        data: dict[str, Any] = json.loads(file.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ConfigError(f"no readable report at {file}: {exc}") from exc
    return data


def fmt(value: Any) -> str:
    """Figures to 5 decimals, counts as they are, missing as a dash."""
    if value is None:
        return "—"
    return f"{value:.5f}" if isinstance(value, float) else str(value)


def title(report: Mapping[str, Any]) -> str:
    """A short label for a run: questions · generator · shots · kg."""
    c = report.get("config", {})
    shots = f"{c['shots']}-shot" if c.get("shots") is not None else "shots n/a"
    kg = f" · kg {c['kg']}" if c.get("kg") else ""
    return f"{c.get('questions', '?')} · {c.get('generator') or '?'} · {shots}{kg}"


def markdown(report: Mapping[str, Any]) -> str:
    """A readable summary: headline table, breakdowns, failure counts, latency, then the worst questions first."""
    groups = {"overall": report, "templated": report["templated"], "handcrafted": report["handcrafted"]}
    lines = [f"# kgqa eval — {title(report)}", "", f"Command: `{report['config'].get('command', '')}`", "",
             "| | overall | templated | handcrafted |", "|---|---|---|---|"]
    for key in ("n", *HEADLINE, "reference_overlap_at_5", "empty_answers", "not_in_snapshot", "syntax_errors",
                "errors"):
        lines.append(f"| {key} | " + " | ".join(fmt(g.get(key)) for g in groups.values()) + " |")
    lines += ["", "Micro figures pool answer strings over all questions (the SciQA challenge scorer); a query the "
              "snapshot does not hold counts as an empty answer.", "",
              "## Latency (ms)", "", "| stage | p50 | p95 | n |", "|---|---|---|---|"]
    lines += [f"| {s} | {t['p50']:.1f} | {t['p95']:.1f} | {t['n']} |" for s, t in report["timings_ms"].items()]
    lines += ["", *intent_lines(report.get("intents", {})), *failure_lines(report)]
    lines += ["## Config", "", "```json", json.dumps(report["config"], indent=1), "```", ""]
    lines += _worst(report["questions"])
    return "\n".join(lines) + "\n"


def _worst(questions: Sequence[Mapping[str, Any]]) -> list[str]:
    wrong = sorted((q for q in questions if not q["exact"]), key=lambda q: (q["f1"], q["id"]))
    lines = ["## Worst questions first", "",
             f"{len(wrong)} of {len(questions)} questions not answered exactly; the first {WORST_SHOWN} shown.", ""]
    for q in wrong[:WORST_SHOWN]:
        flags = [f for f in ("not_in_snapshot", "syntax_error", "empty_answer") if q.get(f)]
        gold, system = set(q["gold"]), set(q["system"])
        lines += [f"### {q['id']} ({q['template_id'] or '?'}) — F1 {q['f1']:.3f}, P {q['precision']:.3f}, "
                  f"R {q['recall']:.3f}", "", q["question"], ""]
        if flags:
            lines.append("Flags: " + ", ".join(flags) + "  ")
        if q.get("failure"):
            lines.append(f"Failure: {q['failure']}" + (f" (query by {q['written_by']})" if q.get("written_by") else "")
                         + "  ")
        if q.get("attempts"):
            lines.append("Model replies: " + "; ".join(f"{a['ask']} → {a['verdict']}" + (f" ({a['why'][:80]})"
                                                                                          if a["why"] else "")
                                                        for a in q["attempts"]) + "  ")
        for label, text in (("Error", q.get("error")), ("Explanation", q.get("explanation"))):
            if text:
                lines.append(f"{label}: {str(text)[:300]}  ")
        if q.get("examples"):
            lines.append("Examples: " + ", ".join(f"{e['id']} ({e['template_id']}, {e['score']:.3f})"
                                                  for e in q["examples"]) + "  ")
        lines.append(f"Gold {len(gold)}, system {len(system)}; missing: {_few(gold - system)}; "
                     f"extra: {_few(system - gold)}")
        if q.get("sparql"):
            lines += ["", "```sparql", q["sparql"], "```"]
        lines.append("")
    return lines


def _few(values: set[str], k: int = 3) -> str:
    shown = ", ".join(f"`{v[:80]}`" for v in sorted(values)[:k])
    return (shown + (f" … (+{len(values) - k})" if len(values) > k else "")) or "none"
