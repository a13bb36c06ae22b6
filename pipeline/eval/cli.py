"""``kgqa eval``: arguments, and the command that scores a run, prints the figures and writes the report."""
from __future__ import annotations

import argparse
import shlex
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.eval.arguments import DEFAULT_WORKERS
from pipeline.eval.compare import compare
from pipeline.eval.generated.gold import HasGraph, with_gold
from pipeline.eval.questions import NAMED, EvalQuestion, load_questions
from pipeline.eval.report import build_report, fmt, write_report
from pipeline.eval.retrieval import reference_lists
from pipeline.eval.run import Asker, QuestionResult, read_answers, run_pipeline, score_answers_file
from pipeline.eval.scorer import Scores, scorer_lines
from pipeline.parts import Generating, KnowledgeGraph, slots_of
from pipeline.sciqa import SciQA
from pipeline.settings import Settings


def run_eval_command(args: argparse.Namespace, settings: Settings,
                     build_pipeline: Callable[..., Asker]) -> int:
    """Run ``kgqa eval`` as parsed into ``args``; prints the challenge scorer's lines; 1 when every question failed."""
    if args.compare:
        plot = None
        if args.report is not None:
            args.report.mkdir(parents=True, exist_ok=True)
            plot = args.report / "compare.png"
        print(compare(args.compare, plot))
        return 0
    if not args.questions:
        raise ConfigError("kgqa eval needs --questions {dev,final,valid,test,FILE} (or --compare DIR ...)")
    if any(n is not None and n < 1 for n in (args.workers, args.limit, args.shots)):
        raise ConfigError("--workers, --limit and --shots must be at least 1")
    questions = load_questions(args.questions, _sciqa(settings, args.questions))[:args.limit]
    start = time.perf_counter()
    if args.answers is not None:
        questions = _graded(questions, lambda: _graph(settings, args.kg))
        results = score_answers_file(questions, args.answers)
        n_system: int | None = len(read_answers(args.answers))
        generator, kg, shots = "recorded", args.kg, args.shots
    else:
        pipeline = build_pipeline(generator=args.generator, shots=args.shots, kg=args.kg)
        questions = _graded(questions, lambda: _graph_of(pipeline))
        args.workers = args.workers or default_workers(pipeline)
        seed = seed_dir(settings)
        reference = reference_lists(seed, args.questions) if seed is not None else None
        results = run_pipeline(questions, pipeline, shots=args.shots, workers=args.workers, reference=reference)
        n_system = None
        generator = _most_common([r.generator for r in results]) or args.generator or settings.generator or "?"
        kg = _most_common([r.kg for r in results]) or args.kg or settings.kg
        shots = args.shots if args.shots is not None else settings.shots
    config = {"questions": args.questions, "answers": str(args.answers) if args.answers else None,
              "generator": generator, "shots": shots, "kg": kg, "workers": args.workers, "limit": args.limit,
              "llm_fallback": settings.llm_fallback, "llm_order": settings.llm_order,
              "command": command_line(args), "seconds": round(time.perf_counter() - start, 3),
              "created": datetime.now(UTC).isoformat(timespec="seconds")}
    report = build_report(results, config)
    print("\n".join(summary_lines(report, n_system)))
    if args.report is not None:
        write_report(report, args.report)
        print(f"Report: {args.report / 'report.json'}, report.md, f1.png")
    failed = results_failed(results)
    if failed:
        print(f"every question failed; the first: {failed}", file=sys.stderr)
    return 1 if failed else 0


def summary_lines(report: dict[str, Any], n_system: int | None = None) -> list[str]:
    """The scorer's lines for the whole run, then retrieval, the breakdowns and the failure counts."""
    lines = scorer_lines(_scores(report), n_system)
    lines += [f"\tTemplate hit@1: {fmt(report['template_hit_at_1'])}",
              f"\tTemplate hit@3: {fmt(report['template_hit_at_3'])}"]
    if report.get("reference_overlap_at_5") is not None:
        lines.append(f"\tReference overlap@5: {fmt(report['reference_overlap_at_5'])}")
    for name, label in (("templated", "Templated (T01-T08)"), ("handcrafted", "Handcrafted (HQ)")):
        g = report[name]
        lines.append(f"{label}, n={g['n']}: Precision {fmt(g['micro_precision'])} Recall {fmt(g['micro_recall'])} "
                     f"F1 {fmt(g['micro_f1'])} Macro F1 {fmt(g['macro_f1'])} "
                     f"Accuracy {fmt(g['exact_question_accuracy'])}")
    lines.append(f"Empty answers: {report['empty_answers']}, not in snapshot: {report['not_in_snapshot']}, "
                 f"syntax errors: {report['syntax_errors']}, errors: {report['errors']}")
    lines += [f"Intent {name}: " + ", ".join(f"{k} {v}" for k, v in counts.items() if k != "n")
              for name, counts in report.get("intents", {}).items()]
    for key, label in (("failures", "Not right"), ("written_by", "Answered by")):
        if report.get(key):
            lines.append(f"{label}: " + ", ".join(f"{k} {v['answered'] if isinstance(v, dict) else v}"
                                                  for k, v in report[key].items()))
    return lines


def _graded(questions: list[EvalQuestion], graph: Callable[[], KnowledgeGraph]) -> list[EvalQuestion]:
    """The questions, those whose gold is a query answered on the graph the run asks (built only when needed)."""
    return with_gold(questions, graph()) if any(q.gold_sparql for q in questions) else questions


def _graph_of(pipeline: Asker) -> KnowledgeGraph:
    if not isinstance(pipeline, HasGraph):
        raise ConfigError("this set's gold is a query, and the pipeline does not say which graph it asks")
    return pipeline.kg


def _graph(settings: Settings, target: str | None) -> KnowledgeGraph:
    from pipeline.factory import build_kg

    return build_kg(settings, target)


def _scores(report: dict[str, Any]) -> Scores:
    return Scores(**{k: report[k] for k in Scores.__dataclass_fields__})


def _sciqa(settings: Settings, spec: str) -> SciQA | None:
    """The benchmark: required for named sets (downloaded when no folder is set), optional for a FILE."""
    if spec in NAMED:
        return SciQA.from_settings(settings)
    return SciQA(settings.sciqa_dir) if settings.sciqa_dir is not None else None


def seed_dir(settings: Settings) -> Path | None:
    """The reference system's outputs: ``SEED_DIR``, else ``seed-paper-outputs`` beside the SciQA folder, else None."""
    if settings.seed_dir is not None:
        if not settings.seed_dir.is_dir():
            raise ConfigError(f"SEED_DIR={settings.seed_dir} is not a folder")
        return settings.seed_dir
    if settings.sciqa_dir is not None and (settings.sciqa_dir.parent / "seed-paper-outputs").is_dir():
        return settings.sciqa_dir.parent / "seed-paper-outputs"
    return None


def default_workers(pipeline: Asker) -> int:
    """A language model's server slots when it says how many (a one-slot llama.cpp: 1), else DEFAULT_WORKERS."""
    slots = slots_of(pipeline.generator) if isinstance(pipeline, Generating) else None
    return slots if isinstance(slots, int) and slots > 0 else DEFAULT_WORKERS


def command_line(args: argparse.Namespace) -> str:
    """The ``kgqa eval`` command that re-runs this evaluation."""
    parts = ["kgqa", "eval", "--questions", str(args.questions)]
    for flag in ("answers", "generator", "shots", "kg", "limit"):
        if getattr(args, flag) is not None:
            parts += [f"--{flag}", str(getattr(args, flag))]
    if args.answers is None and args.workers is not None:
        parts += ["--workers", str(args.workers)]
    if args.report is not None:
        parts += ["--report", str(args.report)]
    return shlex.join(parts)


def _most_common(values: Sequence[str]) -> str:
    counts = Counter(v for v in values if v)
    return counts.most_common(1)[0][0] if counts else ""


def results_failed(results: Sequence[QuestionResult]) -> str:
    """The first error of a run where every question failed, else ``""`` (for a one-line warning)."""
    return results[0].error if results and all(r.error for r in results) else ""
