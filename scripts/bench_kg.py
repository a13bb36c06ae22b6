"""Dump-load throughput and query latency, pyoxigraph vs Virtuoso, on one generated ORKG-shaped graph.

Usage: python scripts/bench_kg.py [--copies 5000]   (5000 copies of the test fixture graph = ~1.05 M triples)
The graph is the project's fixture (standins/orkg_fixture.py) plus N relabelled copies with fresh IRIs, so
the template queries (TEMPLATE_CASES in standins/fixture_questions.py) keep their answers over ~1 M triples.
Needs Virtuoso installed (.ci/virtuoso.sh). Prints markdown for docs/results/kg.md.
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from pipeline.kg.dump import load_dump
from pipeline.kg.endpoint import AGENT, RETRIES, EndpointKG
from pipeline.sparql.text import add_prefixes
from standins.fixture_questions import TEMPLATE_CASES
from standins.orkg_fixture import write_copies
from standins.virtuoso import VirtuosoServer

LOCAL_TIMER = """
import statistics, sys, time
from pipeline.kg.oxigraph import OxigraphKG
kg = OxigraphKG(None, store_path=sys.argv[1], row_cap=100_000)
kg.literal_forms("", True), kg.lowered([])  # what the index rewrites read once per store
times = []
for _ in range(int(sys.argv[3])):
    start = time.perf_counter()
    rows = kg.select(sys.argv[2]).rows
    times.append((time.perf_counter() - start) * 1000)
print(len(rows), statistics.median(times))
"""


def local_median_ms(store: Path, query: str, runs: int = 5, cap_s: float = 120) -> tuple[int, str]:
    """(rows, median ms) of ``OxigraphKG.select`` (the index rewrites included) in a child process, so that a query
    pyoxigraph cannot finish is stopped at ``cap_s``."""
    import subprocess

    try:
        out = subprocess.run([sys.executable, "-c", LOCAL_TIMER, str(store), query, str(runs)], capture_output=True,
                             text=True, timeout=cap_s, check=True).stdout.split()
    except subprocess.TimeoutExpired:
        return -1, f"> {cap_s * 1000:,.0f} (stopped)"
    return int(out[0]), f"{float(out[1]):.1f}"


def median_ms(kg: object, query: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        kg.select(query)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--copies", type=int, default=5000)
    args = ap.parse_args()
    work = Path(tempfile.mkdtemp(prefix="kgqa-bench-kg-"))
    plain, total = write_copies(work, args.copies)
    report = load_dump(work / "dump", work / "store")
    print(f"generated {total:,} triples; `load_dump` (= `kgqa kg load`) into on-disk pyoxigraph: "
          f"{report.seconds:.1f} s, {report.triples / report.seconds:,.0f} triples/s")
    with VirtuosoServer(plain) as virtuoso:
        print(f"Virtuoso 7.2 (Debian): start {virtuoso.startup_seconds:.1f} s, bulk load (ld_dir + rdf_loader_run) "
              f"{virtuoso.load_seconds:.1f} s, {total / virtuoso.load_seconds:,.0f} triples/s")
        endpoint = EndpointKG(virtuoso.endpoint, timeout=60, row_cap=100_000, agent=AGENT, retries=RETRIES)
        print("\n| template | rows | pyoxigraph median ms | Virtuoso median ms (HTTP, SPARQLWrapper) |")
        print("|---|---|---|---|")
        for case in TEMPLATE_CASES:
            query = add_prefixes(case.query)
            rows = len(endpoint.select(query).rows)
            local_rows, local_ms = local_median_ms(work / "store", query)
            assert local_rows in (rows, -1), case.template
            print(f"| {case.template} ({case.subject}) | {rows} | {local_ms} | {median_ms(endpoint, query):.1f} |",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
