"""Generated new-intent sets over the fixture graph (issue 39): every intent of pipeline.eval.generated.intents
asked about every name of its kind, written to tests/data/eval/generated-sample.json (one wording each, in turn from
one the seed draws), tests/data/eval/generated-every.json (every wording) and tests/data/eval/generated-per-intent.json
(one question of each intent of the sample, for a language model on a CPU). Each question carries its gold query,
not an answer: `kgqa eval` runs it on the graph it evaluates. ``--check`` only compares with the committed files.

    python scripts/gen_intent_sets.py [--seed 39] [--check]
    python scripts/gen_intent_sets.py --breakdown tests/data/eval/generated-every.json REPORT_DIR   # by name form
    python scripts/gen_intent_sets.py --record REPORT_DIR ...   # a live LLM run's queries, for replay:FILE
"""
from __future__ import annotations

import argparse
import json
import shlex
import sys
import tempfile
from pathlib import Path

from pipeline.eval.generated.breakdown import breakdown, breakdown_lines
from pipeline.eval.generated.build import SIZES, question_set
from pipeline.eval.generated.names import Names
from pipeline.eval.generated.replies import recorded_replies
from pipeline.eval.questions import write_set
from pipeline.kg.oxigraph import OxigraphKG
from standins.orkg_fixture import write_ntriples

ROOT = Path(__file__).resolve().parent.parent
EVAL = ROOT / "tests" / "data" / "eval"
SEED = 39
REPLIES = EVAL / "generated-per-intent-replies.json"


def fixture_names() -> Names:
    """Every name of the fixture graph, read from the graph loaded in pyoxigraph."""
    with tempfile.TemporaryDirectory() as tmp:
        return Names.of(OxigraphKG(write_ntriples(Path(tmp) / "fixture.nt"), row_cap=100_000))


def print_breakdown(question_set: Path, report_dir: Path) -> int:
    questions = json.loads(question_set.read_text(encoding="utf-8"))["questions"]
    report = json.loads((report_dir / "report.json").read_text(encoding="utf-8"))
    print("\n".join(breakdown_lines(breakdown(questions, {q["id"]: q["verdict"] for q in report["questions"]}))))
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, default=SEED, help=f"draws wordings and spellings (default {SEED})")
    parser.add_argument("--check", action="store_true", help="compare with the committed files instead of writing")
    parser.add_argument("--breakdown", type=Path, nargs=2, metavar=("SET", "REPORT_DIR"),
                        help="print a run's verdicts by how the names look and how they were typed, then stop")
    parser.add_argument("--record", type=Path, nargs="+", metavar="REPORT_DIR",
                        help=f"write the model's queries of live runs to {REPLIES.name} (for replay:FILE), then stop")
    args = parser.parse_args(argv)
    if args.breakdown:
        return print_breakdown(*args.breakdown)
    if args.record:
        reports = [json.loads((d / "report.json").read_text(encoding="utf-8")) for d in args.record]
        items = recorded_replies(reports)
        REPLIES.write_text(json.dumps(items, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{len(items)} recorded model queries written to {REPLIES}")
        return 0
    names = fixture_names()
    command = shlex.join(["python", "scripts/gen_intent_sets.py", "--seed", str(args.seed)])
    stale = 0
    for size in SIZES:
        data = question_set(names, args.seed, size, "standins/orkg_fixture.py", command)
        stale += write_set(EVAL / f"generated-{size}.json", data, args.check,
                           "differs from the generator's: rerun the script")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
