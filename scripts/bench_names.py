"""Name resolution speed: checking a query's label literals against a synthetic index of 100,000 labels.

Usage: python scripts/bench_names.py [--labels 100000 ...] [--questions 400] [--seed 7]
Labels are random ORKG-like names ("Mabo-Ruk 12", "Tovi Lanet v3 (large)") spread over the six kinds (half of them
datasets and models); each question is a two-filter query (a dataset and a metric) whose names are a label as it is,
lowercased, with a blank dropped, with one swapped letter, or unknown. Besides, one dataset name looked up alone
each of those ways (``LabelIndex.find``): the p50 of each, a slip and an unknown name being the fuzzy search's.
Several ``--labels`` give one row each. Prints markdown for docs/results/quality.md.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from pipeline.names.check import check_names
from pipeline.names.index import THRESHOLD, LabelIndex

SYLLABLES = ["ba", "be", "bi", "bo", "bu", "da", "de", "di", "do", "ka", "ke", "ki", "ko", "la", "le", "li", "lo",
             "ma", "me", "mi", "mo", "na", "ne", "ni", "no", "ra", "re", "ri", "ro", "sa", "se", "si", "ta", "te",
             "ti", "to", "va", "ve", "vi", "zo", "ru", "lan", "net", "vox", "tor"]
KIND_WEIGHTS = {"dataset": 30, "model": 30, "metric": 5, "problem": 10, "researchfield": 1, "paper": 24}
QUERY = ('SELECT ?model WHERE {{ ?metric a orkgc:Metric; rdfs:label ?metric_lbl. FILTER (str(?metric_lbl) = "{m}") '
         '?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "{d}") }}')


def name(rng: random.Random) -> str:
    words = ["".join(rng.choice(SYLLABLES) for _ in range(rng.randint(1, 3))).capitalize()
             for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        words.append(str(rng.randint(1, 2000)))
    if rng.random() < 0.1:
        words.append(rng.choice(("(large)", "(base)", "v2", "v3")))
    return " ".join(words)


WAYS = ("as is", "lower", "blank", "swap", "unknown")


def loosened(label: str, way: str, rng: random.Random) -> str:
    """The label typed one way of WAYS."""
    if way == "lower":
        return label.lower()
    if way == "blank" and " " in label:
        return label.replace(" ", "", 1)
    if way == "swap" and len(label) > 4:
        i = rng.randrange(1, len(label) - 2)
        return label[:i] + label[i + 1] + label[i] + label[i + 2:]
    return name(rng) + " Zq" if way == "unknown" else label


def loosen(label: str, rng: random.Random) -> str:
    """The label typed one of WAYS at random."""
    return loosened(label, rng.choice(WAYS), rng)


def _ms(times: list[float], q: float) -> float:
    times = sorted(times)
    return times[min(int(q * len(times)), len(times) - 1)]


def run(size: int, questions: int, seed: int) -> str:
    """One table row: ``size`` labels, ``questions`` two-name queries checked, each way's single lookups."""
    rng = random.Random(seed)
    kinds = rng.choices(list(KIND_WEIGHTS), weights=list(KIND_WEIGHTS.values()), k=size)
    names: dict[str, str] = {}
    for kind in kinds:
        label = name(rng)
        while label in names:
            label = name(rng)
        names[label] = kind
    started = time.perf_counter()
    index = LabelIndex(list(names.items()), THRESHOLD)
    built = time.perf_counter() - started
    datasets, metrics = index.labels("dataset"), index.labels("metric")
    queries = [QUERY.format(d=loosen(rng.choice(datasets), rng), m=loosen(rng.choice(metrics), rng))
               for _ in range(questions)]
    check_names(queries[0], index)  # warm-up
    times = []
    for q in queries:
        t = time.perf_counter()
        check_names(q, index)
        times.append((time.perf_counter() - t) * 1000)
    ways = []
    for way in WAYS:
        typed = [loosened(label, way, rng) for label in rng.sample([d for d in datasets if len(d) > 5], 200)]
        took = []
        for text in typed:
            t = time.perf_counter()
            index.find(text, "dataset")
            took.append((time.perf_counter() - t) * 1000)
        ways.append(f"{statistics.median(took):.2f}")
    return (f"| {len(index):,} ({index.counts()['dataset']:,} datasets) | {built:.1f} s | {len(times)} | "
            f"{statistics.median(times):.2f} | {_ms(times, 0.9):.2f} | {_ms(times, 0.99):.2f} | {' | '.join(ways)} |")


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--labels", type=int, nargs="+", default=[100_000])
    p.add_argument("--questions", type=int, default=400)
    p.add_argument("--seed", type=int, default=7)
    args = p.parse_args()
    print("| labels | index built | questions | p50 ms | p90 ms | p99 ms | "
          + " | ".join(f"find p50 ms: {way}" for way in WAYS) + " |\n|" + "---|" * (6 + len(WAYS)))
    for size in args.labels:
        print(run(size, args.questions, args.seed), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
