"""Ablations of a live LLM run without running the model again: the same as ``kgqa ablate REPORT_DIR`` (kept for the
commands written before it; ``pipeline/cli/tooling.py`` holds the command, ``pipeline/eval/ablations.py`` the figures).

Usage: kgqa ablate REPORT_DIR [--kg TARGET] [--shots N] [--out FILE]"""
from __future__ import annotations

import argparse
import sys

from pipeline.cli.tooling import add_ablate_arguments, cmd_ablate
from pipeline.errors import KgqaError
from pipeline.settings import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    add_ablate_arguments(parser)
    try:
        return cmd_ablate(parser.parse_args(argv), Settings.from_env())
    except KgqaError as exc:
        print(f"ablate: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
