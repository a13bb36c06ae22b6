"""Question by question: does this checkout write the same SPARQL and give the same outcome and answer rows as another?

Usage: KGQA_HOME=H python scripts/same_answers.py --before DIR [--kg snapshot sciqa] [--sets FILE ...] [--limit N]
       [--generator SPEC --phase final|dev]
Asks every final-phase, dev and SciQA valid question, 60 final-phase questions wrapped in a mention, a greeting and
thanks, and the questions of the given sets (default: the loose look-alike, reworded and novel-intent sets of
tests/data/eval/) through the pipeline (offline adapter) on each graph, once with this checkout and once with the
checkout at DIR (a `git worktree` of an older commit), as separate processes on one store. With ``--generator`` (e.g.
``repair:replay:FILE``, a language model's recorded queries), only the questions of ``--phase`` are asked, with that
generator and the orders KGQA_LLM_ORDER / KGQA_LLM_FALLBACK say. Prints the questions whose query,
outcome or rows differ, and a line per graph. Which member of a question form is a prompt example is not compared:
checkouts before the exact neighbour search (Chroma's approximate one) vary it between runs (docs/results/speed.md,
"Speed").
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
SETS = ["loose-lookalike.json", "reworded.json", "novel-intents.json", "novel-intents-dev.json"]


def questions(sets: list[Path]) -> list[str]:
    from pipeline.sciqa import sciqa_for
    from pipeline.settings import Settings

    data = sciqa_for(Settings.from_env())
    out = [q for phase in ("final", "dev") for _, q in data.challenge(phase)]
    out += [r.question for r in data.split("valid")]
    out += [f"<@U0KGQABOT> hey, quick one: {q} thanks!" for _, q in data.challenge("final")][:60]
    for path in sets:
        items = json.loads(path.read_text(encoding="utf-8"))["questions"]
        out += [item["question"] for item in items if isinstance(item.get("question"), str)]
    return out


def phase(name: str) -> list[str]:
    from pipeline.sciqa import sciqa_for
    from pipeline.settings import Settings

    return [q for _, q in sciqa_for(Settings.from_env()).challenge(name)]


def answers(kg: str, asked: list[str], generator: str = "adapter") -> list[list[str]]:
    """[question, sparql, outcome, rows digest] for each question, asked with the checkout this process imports."""
    from pipeline.factory import build_index, build_pipeline, build_store
    from pipeline.settings import Settings

    settings = Settings.from_env().with_(kg=kg, generator=generator)
    store = build_store(settings)
    build_index(settings, store)
    pipe = build_pipeline(settings, store=store)
    out = []
    for n, question in enumerate(asked, 1):
        answer = pipe.ask(question)
        rows = json.dumps(answer.rows.rows if answer.rows else None, sort_keys=True, default=str)
        out.append([question, answer.sparql or "", answer.outcome.value, hashlib.sha1(rows.encode()).hexdigest()])
        if n % 200 == 0:
            print(f"  {kg}: {n}/{len(asked)}", file=sys.stderr, flush=True)
    return out


def run(tree: Path, kg: str, asked: Path, out: Path, generator: str) -> list[list[str]]:
    """This script's ``--dump`` in a fresh process that imports the checkout at ``tree``."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    subprocess.run([sys.executable, str(Path(__file__).resolve()), "--dump", kg, str(asked), str(out), generator],
                   cwd=tree, env=env, check=True)
    return json.loads(out.read_text(encoding="utf-8"))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--before", type=Path, help="the other checkout")
    ap.add_argument("--kg", nargs="+", default=["snapshot", "sciqa"])
    ap.add_argument("--sets", type=Path, nargs="*", default=[REPO / "tests" / "data" / "eval" / name for name in SETS])
    ap.add_argument("--limit", type=int, default=0, help="only the first N questions (a quick look)")
    ap.add_argument("--generator", default="adapter", help="e.g. repair:replay:FILE (a model's recorded queries)")
    ap.add_argument("--phase", choices=["final", "dev"], help="with --generator: the questions of this phase only")
    ap.add_argument("--dump", nargs=4, metavar=("KG", "QUESTIONS", "OUT", "GENERATOR"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.dump:
        kg, asked, out, generator = args.dump
        Path(out).write_text(json.dumps(answers(kg, json.loads(Path(asked).read_text(encoding="utf-8")),
                                                generator)))
        return 0
    if args.before is None:
        ap.error("--before DIR is required")
    work = Path(tempfile.mkdtemp(prefix="kgqa-same-"))
    asked = work / "questions.json"
    chosen = phase(args.phase) if args.phase else questions(args.sets)
    asked.write_text(json.dumps(chosen[: args.limit or None]))
    differ = 0
    for kg in args.kg:
        before = run(args.before.resolve(), kg, asked, work / f"before-{kg}.json", args.generator)
        after = run(REPO, kg, asked, work / f"after-{kg}.json", args.generator)
        changed = [(b, a) for b, a in zip(before, after) if b[1:] != a[1:]]
        differ += len(changed)
        for b, a in changed:
            print(f"- [{kg}] {b[0][:100]!r}: {b[2]} -> {a[2]}" + (" (another query)" if b[1] != a[1] else ""))
        print(f"{kg}: {len(changed)} of {len(before)} questions differ in query, outcome or rows")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
