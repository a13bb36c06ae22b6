"""Ablations of a live LLM run without running the model again: the vocabulary check, the empty retry and the intent
guard each turned off, scored from the run's recorded replies (pipeline/eval/ablations.py says where the figures are
exact: everywhere but the questions listed as inexact).

Usage: PYTHONPATH=$PWD python scripts/ablate.py REPORT_DIR [--kg TARGET] [--shots N] [--out FILE]
REPORT_DIR holds the run's report.json (`kgqa eval ... --report REPORT_DIR`); the replay runs on the run's graph and
shots unless --kg/--shots say otherwise, with the same KGQA_HOME (its example store) as the run. Prints a table and
writes REPORT_DIR/ablations.json (or --out)."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--kg")
    parser.add_argument("--shots", type=int)
    parser.add_argument("--out", type=Path)
    args = parser.parse_args(argv)
    from pipeline.errors import KgqaError
    from pipeline.eval.ablations import ablate, lines
    from pipeline.eval.report import load_report
    from pipeline.factory import build_pipeline
    from pipeline.settings import Settings

    try:
        report = load_report(args.report)
        config = report.get("config", {})
        kg = args.kg or str(config.get("kg") or "").split(" (fallback")[0] or None
        pipeline = build_pipeline(Settings.from_env(), generator="adapter", kg=kg,
                                  shots=args.shots or config.get("shots"))
        result = ablate(report, pipeline)
    except KgqaError as exc:
        print(f"ablate: {exc}", file=sys.stderr)
        return 2
    out = args.out or (args.report if args.report.is_dir() else args.report.parent) / "ablations.json"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print("\n".join(lines(result)))
    print(f"Written: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
