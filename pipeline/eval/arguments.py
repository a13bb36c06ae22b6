"""The ``kgqa eval`` flags, apart from the harness so that other commands do not import it."""
from __future__ import annotations

import argparse
from pathlib import Path

from pipeline.registry import generator_names, kg_names

DEFAULT_WORKERS = 2


def add_eval_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``eval`` subcommand's flags."""
    parser.add_argument("--questions", metavar="{dev,final,valid,test,FILE}",
                        help="question set: the challenge's dev/final 200, a SciQA split, or a JSON file")
    parser.add_argument("--answers", type=Path, metavar="FILE",
                        help='score a recorded answers file [{"id", "answer": [...]}] as it is (no generation)')
    parser.add_argument("--generator", help=generator_names())
    parser.add_argument("--shots", type=int,
                        help="examples per prompt (1, 3 or 5); with --answers, only labels the run")
    parser.add_argument("--kg", help=kg_names())
    parser.add_argument("--report", type=Path, metavar="DIR", help="write report.json, report.md and f1.png here")
    parser.add_argument("--compare", nargs="+", type=Path, metavar="DIR", help="print these runs side by side")
    parser.add_argument("--workers", type=int, help=f"questions asked concurrently (default: a language model's "
                        f"server slots where it says, else {DEFAULT_WORKERS}: a question queued behind another on "
                        "a one-slot server would count the wait as its own time)")
    parser.add_argument("--limit", type=int, metavar="N", help="only the first N questions (quick runs)")
