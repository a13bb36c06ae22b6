"""Cold start: a fresh `kgqa ask --kg snapshot` process, and `kgqa index` from nothing, each against the encoder alone.

Usage: python scripts/bench_cold.py [--rounds 5] [--before DIR] [--index]
  ask:   per round, in turn: a process that loads the encoder and encodes one sentence (the floor: once with
         sentence-transformers on torch, as issue 13 defined it, once with the encoder the product uses, ONNX), then
         `kgqa ask --kg snapshot` (this checkout), then the same with the checkout at DIR (e.g. a `git worktree` of
         an older commit), each a fresh process with the same KGQA_HOME (indexed first, untimed).
  index: `kgqa index` into a new KGQA_HOME against a process that loads the encoder and encodes SciQA train's
         questions alone (the same ratio, per round).
The machine is shared and noisy, so each figure is a median over rounds and the ratios are taken within a round.
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
QUESTION = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
ENCODERS = {"torch": "from pipeline.store.encoder import torch_encoder\n"
                     "E = lambda s: torch_encoder(s.embedding_model, offline=s.hf_offline)\n",
            "onnx": "from pipeline.store.encoder import model_encoder\n"
                    "E = lambda s: model_encoder(s.embedding_model, s.encoder_backend, s.encoder_dir,\n"
                    "                            offline=s.hf_offline)\n"}
ENCODE_ONE = "from pipeline.settings import Settings\nE(Settings.from_env()).encode([{q!r}])"
ENCODE_TRAIN = ("from pipeline.settings import Settings\nfrom pipeline.factory import index_examples\n"
                "s = Settings.from_env()\nE(s).encode([e.question for e in index_examples(s)])")


def timed(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """(wall seconds, peak RSS MiB of the child) of one process, which must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    start = time.perf_counter()
    done = subprocess.run(cmd, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 3):
        raise SystemExit(f"{' '.join(cmd[:4])} failed: {done.stderr.strip()[-500:]}")
    return wall, max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024


def row(name: str, values: list[float], floors: dict[str, list[float]]) -> str:
    ratios = [statistics.median([v / f for v, f in zip(values, floor)]) for floor in floors.values()]
    return (f"| {name} | {statistics.median(values):.2f} | {min(values):.2f}–{max(values):.2f} | "
            + " | ".join(f"{r:.2f}×" for r in ratios) + " |")


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--before", type=Path, help="an older checkout, run with this checkout's Python")
    ap.add_argument("--index", action="store_true", help="time `kgqa index` from nothing instead of `kgqa ask`")
    args = ap.parse_args()
    py = sys.executable
    env = dict(os.environ, KGQA_HOME=os.environ.get("KGQA_HOME") or tempfile.mkdtemp(prefix="kgqa-cold-"))
    trees = {"this checkout": REPO} | ({"before (" + str(args.before) + ")": args.before} if args.before else {})
    floor_name = "load the encoder + encode SciQA train" if args.index else "load the encoder + encode one sentence"
    floors: dict[str, list[float]] = {name: [] for name in ENCODERS}
    runs: dict[str, list[float]] = {name: [] for name in trees}
    if not args.index:
        for tree in trees.values():  # a built store (and whatever `kgqa index` keeps) before timing
            subprocess.run([py, "-m", "pipeline", "index"], cwd=tree, env=env, check=True, capture_output=True)
    for n in range(args.rounds):
        for encoder, code in ENCODERS.items():
            work = ENCODE_TRAIN if args.index else ENCODE_ONE.format(q=QUESTION)
            floors[encoder].append(timed([py, "-c", code + work], REPO, env)[0])
        for name, tree in trees.items():
            if args.index:
                home = tempfile.mkdtemp(prefix="kgqa-index-")
                wall, _ = timed([py, "-m", "pipeline", "index"], tree, dict(env, KGQA_HOME=home))
            else:
                wall, _ = timed([py, "-m", "pipeline", "ask", "--kg", "snapshot", "--generator", "adapter",
                                 "--json", QUESTION], tree, env)
            runs[name].append(wall)
        print(f"round {n + 1}: " + ", ".join(f"{k} {v[-1]:.2f} s" for k, v in (floors | runs).items()),
              file=sys.stderr)
    what = "`kgqa index` from nothing" if args.index else "`kgqa ask --kg snapshot` (fresh process)"
    print(f"\n| {args.rounds} rounds, load average {os.getloadavg()[0]:.1f} | median s | range s | "
          + " | ".join(f"ratio to the {e} floor (same round)" for e in floors) + " |\n|---|---|---|---|---|")
    for encoder, values in floors.items():
        print(row(f"{floor_name}, {encoder} (a floor)", values, floors))
    for name, values in runs.items():
        print(row(f"{what}, {name}", values, floors))
    return 0


if __name__ == "__main__":
    sys.exit(main())
