"""Answers at a glance on a whole graph: every SciQA T01, T04 and T05 gold query through the pipeline (the query as
written, no retrieval), counting the answers that get a summary, a leaderboard, a leaderboard sorted by number, one
whose graph order differs from the numeric one, and a chart; charts can be written out to look at.

Usage: SCIQA_DIR=../shared/sciqa python scripts/glance_sciqa.py --kg sciqa [--charts DIR] [--splits train,valid,test]
Prints a markdown table (progress on stderr)."""
from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

from tqdm import tqdm

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.given import GivenQuery, NoExamples
from pipeline.factory import build_kg
from pipeline.glance.chart import chart_png
from pipeline.records import Leaderboard
from pipeline.sciqa import SciQA
from pipeline.settings import Settings

TEMPLATES = ("T01", "T04", "T05")
KINDS = ("questions", "summary", "rows", "ranking", "leaderboard", "sorted by number", "graph order differs",
         "≥ 2 numbers", "chart")


def sorted_by_number(board: Leaderboard) -> bool:
    numbers = [e.number for e in board.ranked()]
    pairs = list(zip(numbers, numbers[1:]))
    return all(a >= b for a, b in pairs) if board.descending else all(a <= b for a, b in pairs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--kg", default="sciqa")
    ap.add_argument("--charts", type=Path, help="write each chart here as <question id>.png")
    ap.add_argument("--splits", default="train,valid,test")
    args = ap.parse_args()
    settings = Settings.from_env()
    kg = build_kg(settings, args.kg)
    splits = args.splits.split(",")
    records = [r for r in SciQA.from_settings(settings).all() if r.template_id in TEMPLATES and r.split in splits]
    counts: Counter[tuple[str, str]] = Counter()
    for r in tqdm(records, desc="questions", file=sys.stderr):
        answer = Pipeline(Parts(NoExamples(), GivenQuery(r.sparql), kg), Bounds.of(settings)).ask(r.question)
        board = answer.leaderboard
        png = chart_png(board) if board else None
        seen = {"questions": True, "summary": bool(answer.summary), "rows": bool(answer.rows and answer.rows.rows),
                "ranking": r.template_id != "T01", "leaderboard": board is not None,
                "sorted by number": bool(board and sorted_by_number(board)),
                "graph order differs": bool(board and any("as text" in n for n in board.notes)),
                "≥ 2 numbers": bool(board and len(board.ranked()) >= 2), "chart": png is not None}
        for kind, yes in seen.items():
            counts[(r.template_id, kind)] += int(yes)
        if png and args.charts:
            args.charts.mkdir(parents=True, exist_ok=True)
            (args.charts / f"{r.id}.png").write_bytes(png)
    print("| template | " + " | ".join(KINDS) + " |\n|---|" + "---|" * len(KINDS))
    for template in TEMPLATES:
        print(f"| {template} | " + " | ".join(str(counts[(template, k)]) for k in KINDS) + " |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
