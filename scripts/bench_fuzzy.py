"""The fuzzy name lookup against the graph's size: SciQA's names typed with one slip, and unknown names, looked up in
the names index of each generated graph, with the letter-pair filter (``pipeline/names/grams.py``) and comparing
every label of a similar length (the index before it); both must choose the same labels.

Usage: python scripts/bench_fuzzy.py --work /tmp/scale [--sizes 1 10 100] [--seed 3]
Reads WORK/gN.nt (``scripts/bench_scale.py`` writes them). Prints one markdown row per size.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path
from unittest import mock

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names import index as index_module
from pipeline.names.index import KINDS, THRESHOLD, LabelIndex
from pipeline.records import Match


def rss_mib() -> float:
    """The process's resident memory now (not its peak)."""
    return int(Path("/proc/self/statm").read_text().split()[1]) * 4096 / 2**20


def slipped(label: str, rnd: random.Random) -> str:
    """Two neighbouring letters swapped inside the name."""
    i = rnd.randrange(1, len(label) - 2)
    return label[:i] + label[i + 1] + label[i] + label[i + 2:]


def timed(index: LabelIndex, typed: list[tuple[str, str]]) -> tuple[list[float], list[tuple]]:
    times, found = [], []
    for text, kind in typed:
        start = time.perf_counter()
        r = index.find(text, kind)
        times.append((time.perf_counter() - start) * 1000)
        found.append((r.match, r.chosen, r.candidates))
    return times, found


def row(graph: Path, typed: dict[str, list[tuple[str, str]]]) -> str:
    pairs = list(OxigraphKG(graph, row_cap=10).label_pairs())
    before = rss_mib()
    start = time.perf_counter()
    index = LabelIndex(pairs, THRESHOLD)
    built, held = time.perf_counter() - start, rss_mib() - before
    cells = []
    for names in typed.values():
        fast, found = timed(index, names)
        with mock.patch.object(index_module._Kind, "within", lambda self, key, e, lo, hi: self.lengths(lo, hi)), \
                mock.patch.object(index_module._Kind, "alike", lambda self, key, lo, hi: self.lengths(lo, hi)):
            slow, every = timed(index, names)
        # the same choice, and for a name found the same labels listed (an unknown one's look-alikes may differ)
        same = sum(a[:2] == b[:2] and (b[0] is Match.UNKNOWN or a == b) for a, b in zip(found, every))
        cells.append(f"{statistics.median(fast):.2f} / {max(fast):.1f} | {statistics.median(slow):.2f} / "
                     f"{max(slow):.1f} | {same}/{len(names)}")
    return f"| {len(index):,} | {built:.1f} | {held:,.0f} | " + " | ".join(cells) + " |"


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--work", type=Path, required=True)
    p.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    p.add_argument("--seed", type=int, default=3)
    args = p.parse_args()
    rnd = random.Random(args.seed)
    small = LabelIndex(OxigraphKG(args.work / "g1.nt", row_cap=10).label_pairs(), THRESHOLD)
    named = [(label, kind) for kind in KINDS if kind != "paper" for label in small.labels(kind) if len(label) > 5]
    typed = {"slip": [(slipped(label, rnd), kind) for label, kind in rnd.sample(named, 200)],
             "unknown": [(f"Zq {label[::-1]}", kind) for label, kind in rnd.sample(named, 100)]}
    print("| labels | index build s | index MiB | slip: p50 / max ms, filter | slip: every label | slip: same "
          "choice | unknown: p50 / max ms, filter | unknown: every label | unknown: same choice |\n|"
          + "---|" * 9)
    for size in args.sizes:
        print(row(args.work / f"g{size}.nt", typed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
