"""The cost of the reply check's predicate sets (pipeline/schema/shapes.py) on a graph file: loading it into
pyoxigraph, reading the per-node predicate sets once (what the warm-up does with a language model), the process's
peak RSS before and after, and one check of a query against them.

Usage: python scripts/bench_shapes.py GRAPH.nt [GRAPH.nt ...]   (e.g. /tmp/scale/g100.nt from bench_scale.py)
"""
from __future__ import annotations

import resource
import sys
import time

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.schema.shapes import Shapes, never_met

MISPLACED = ("SELECT ?m WHERE { ?b <http://orkg.org/orkg/predicate/HAS_DATASET> ?d; "
             "<http://orkg.org/orkg/predicate/HAS_MODEL> ?m }")


def peak_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main(graphs: list[str]) -> int:
    for graph in graphs:
        start = time.perf_counter()
        kg = OxigraphKG(graph, row_cap=100)
        load, before = time.perf_counter() - start, peak_mib()
        start = time.perf_counter()
        shapes = Shapes.of(kg.predicate_sets())
        read = time.perf_counter() - start
        start = time.perf_counter()
        held = bool(never_met(MISPLACED, shapes))
        check_ms = (time.perf_counter() - start) * 1000
        print(f"{graph}: load {load:.1f} s, {len(shapes.sets)} distinct sets over {sum(shapes.sets.values()):,} "
              f"nodes, read {read:.1f} s, peak RSS {before:.0f} -> {peak_mib():.0f} MiB, one check {check_ms:.2f} ms "
              f"(held: {held})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
