"""How every cost grows with the graph: the SciQA graph at 1x, and ORKG-shaped graphs at 10x and 100x its triples
(standins/orkg_scale.py) on the embedded default (pyoxigraph in memory).

Usage:
  python scripts/bench_scale.py ladder --sizes 1 10 100 --work /tmp/scale   # one table (markdown + JSON), a plot
  python scripts/bench_scale.py same-rows       # SciQA's 2,565 gold queries: the same rows rewritten and not
  python scripts/bench_scale.py engines --sizes 1 10 100 --work /tmp/scale   # gold queries, pyoxigraph vs Virtuoso
  python scripts/bench_scale.py endpoint-names --sizes 1 10 100 --work /tmp/scale   # the names index from Virtuoso
Needs SCIQA_DIR and an example store (`kgqa index`) under KGQA_HOME. Each rung runs in a process of its own (its
peak RSS is its own); the final-phase 200 run through `kgqa eval --generator adapter --kg FILE`.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from pipeline.kg.oxigraph import OxigraphKG, _row
from pipeline.names.index import THRESHOLD, LabelIndex
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.dialect import normalise
from pipeline.sparql.reorder import triples_before_optionals
from pipeline.sparql.text import add_prefixes
from standins.orkg_scale import write_scaled

ROOT = Path(__file__).resolve().parents[1]
KINDS = ("dataset", "model", "metric")


def rss_mib() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def loose(label: str, rnd: random.Random) -> str:
    """A name as people type it: other case, other blanks and hyphens."""
    text = label.lower() if rnd.random() < 0.5 else label.upper()
    return text.replace("-", " ") if "-" in text else text.replace(" ", "", 1) if " " in text else text + " "


def rung(factor: int, work: Path, seed: int) -> dict[str, Any]:
    base = Path(os.environ.get("KGQA_HOME", "")) / "sciqa-graph" / "graph.nt"
    graph = work / f"g{factor}.nt"
    out: dict[str, Any] = {"factor": factor}
    if not graph.is_file():
        start = time.perf_counter()
        write_scaled(base, graph, factor, seed)
        out["generate_s"] = time.perf_counter() - start
    start = time.perf_counter()
    kg = OxigraphKG(graph, row_cap=10_000)
    out["triples"] = len(kg.store)
    out["load_s"], out["rss_after_load_mib"] = time.perf_counter() - start, rss_mib()
    start = time.perf_counter()
    index = LabelIndex(kg.label_pairs(), THRESHOLD)
    out["labels"], out["names_build_s"] = len(index), time.perf_counter() - start
    out["rss_after_names_mib"] = rss_mib()
    start = time.perf_counter()
    out["names_refresh_new"] = index.add(kg.label_pairs())
    out["names_refresh_s"] = time.perf_counter() - start
    sciqa_labels = json.loads((work / "sciqa-labels.json").read_text()) if (work / "sciqa-labels.json").is_file() \
        else {k: sorted(index.labels(k)) for k in KINDS}
    (work / "sciqa-labels.json").write_text(json.dumps(sciqa_labels))
    rnd = random.Random(seed)
    typed = [(loose(label, rnd), kind) for kind in KINDS for label in rnd.sample(sciqa_labels[kind], 100)]
    times, chosen = [], {}
    for text, kind in typed:
        start = time.perf_counter()
        chosen[f"{kind}:{text}"] = index.find(text, kind).chosen
        times.append((time.perf_counter() - start) * 1000)
    out["lookup_p50_ms"], out["lookup_max_ms"] = statistics.median(times), max(times)
    first = work / "names-1x.json"
    if factor == 1:
        first.write_text(json.dumps(chosen))
    elif first.is_file():
        at_1x = json.loads(first.read_text())
        out["names_changed_vs_1x"] = sorted(k for k in chosen if chosen[k] != at_1x.get(k))
    out["names_resolved"] = sum(v is not None for v in chosen.values())
    del index, kg
    report = work / f"final-{factor}x"
    start = time.perf_counter()
    result = end_to_end(str(graph), report)
    out["eval_s"] = time.perf_counter() - start
    walls = [q.get("timings_ms", {}).get("wall", 0.0) for q in result["questions"]]
    out.update(final_f1=result["micro_f1"], question_p50_ms=result["timings_ms"]["wall"]["p50"],
               question_p95_ms=result["timings_ms"]["wall"]["p95"], question_max_ms=max(walls),
               questions_over_2s=sum(w > 2000 for w in walls),
               answers={q["id"]: sorted(q.get("system") or []) for q in result["questions"]})
    return out


def same_rows() -> int:
    """Every SciQA gold query on the SciQA graph: rows rewritten for the index (OxigraphKG.select) and as written."""
    settings = Settings.from_env()
    base = settings.home / "sciqa-graph" / "graph.nt"
    kg = OxigraphKG(base, row_cap=100_000)
    same = differ = failed = 0
    for record in SciQA.from_settings(settings).all():
        query = triples_before_optionals(add_prefixes(normalise(record.sparql).query))
        try:
            plain: Any = kg.store.query(query, use_default_graph_as_union=True)
            names = [v.value for v in plain.variables] if hasattr(plain, "variables") else []
            want = sorted(json.dumps(_row(s, names), sort_keys=True) for s in plain) if names else [str(bool(plain))]
            got = kg.select(query)
            have = [str(got.boolean)] if got.boolean is not None else \
                sorted(json.dumps(r, sort_keys=True) for r in got.rows)
        except Exception as exc:
            failed += 1
            print(f"{record.id}: {type(exc).__name__}", file=sys.stderr)
            continue
        same += want == have
        differ += want != have
        if want != have:
            print(f"{record.id}: rows differ", file=sys.stderr)
    print(json.dumps({"same": same, "differ": differ, "failed": failed}))
    return 0 if differ == 0 else 1


def plot(rows: list[dict[str, Any]], path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r["triples"] for r in rows]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for key, label in (("load_s", "graph load (s)"), ("names_build_s", "names index build (s)"),
                       ("lookup_p50_ms", "label lookup p50 (ms)"), ("question_p50_ms", "question p50 (ms)"),
                       ("question_p95_ms", "question p95 (ms)"), ("rss_after_names_mib", "peak RSS (MiB)")):
        ax.plot(x, [max(r[key], 1e-3) for r in rows], marker="o", label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("triples")
    ax.set_title("cost against graph size (pyoxigraph in memory, adapter)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("what", choices=("ladder", "rung", "same-rows", "engines", "endpoint-names"))
    ap.add_argument("--sizes", type=int, nargs="+", default=[1, 10, 100])
    ap.add_argument("--work", type=Path, default=Path("/tmp/kgqa-scale"))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    if args.what == "same-rows":
        return same_rows()
    args.work.mkdir(parents=True, exist_ok=True)
    if args.what == "engines":
        return engines(args.sizes, args.work)
    if args.what == "endpoint-names":
        return endpoint_names(args.sizes, args.work)
    if args.what == "rung":
        print(json.dumps(rung(args.sizes[0], args.work, args.seed)))
        return 0
    rows = []
    for size in args.sizes:
        done = subprocess.run([sys.executable, __file__, "rung", "--sizes", str(size), "--work", str(args.work),
                               "--seed", str(args.seed)], check=True, capture_output=True, text=True, cwd=ROOT)
        rows.append(json.loads(done.stdout.strip().splitlines()[-1]))
        (args.work / "ladder.json").write_text(json.dumps(rows, indent=1))
        print(json.dumps({k: v for k, v in rows[-1].items() if k != "answers"}), flush=True)
    same = [sum(rows[0]["answers"][q] == r["answers"].get(q) for q in rows[0]["answers"]) for r in rows]
    print("\n| size | triples | load s | labels | names build s | refresh s | peak RSS MiB | lookup p50 ms | "
          "names as at 1x | final F1 | answers as at 1x | question p50 / p95 / max ms |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r, s in zip(rows, same):
        changed = len(r.get("names_changed_vs_1x", []))
        print(f"| {r['factor']}x | {r['triples']:,} | {r['load_s']:.1f} | {r['labels']:,} | {r['names_build_s']:.2f} | "
              f"{r['names_refresh_s']:.2f} | {r['rss_after_names_mib']:,.0f} | {r['lookup_p50_ms']:.2f} | "
              f"{300 - changed}/300 | {r['final_f1']:.4f} | {s}/{len(rows[0]['answers'])} | "
              f"{r['question_p50_ms']:.0f} / {r['question_p95_ms']:.0f} / {r['question_max_ms']:.0f} |")
    plot(rows, args.work / "scale.png")
    return 0


def engines(sizes: list[int], work: Path) -> int:
    """The final-phase 200 gold queries per size on pyoxigraph (rewritten for its index) and on Virtuoso."""
    from pipeline.kg.endpoint import AGENT, RETRIES, EndpointKG
    from standins.virtuoso import VirtuosoServer

    sciqa = SciQA.from_settings(Settings.from_env())
    queries = [add_prefixes(normalise(sciqa.by_id[qid].sparql).query) for qid, _ in sciqa.challenge("final")]
    print("| size | engine | load s | gold query p50 / p95 / max ms | same rows as pyoxigraph |")
    print("|---|---|---|---|---|")
    for size in sizes:
        graph = work / f"g{size}.nt"
        start = time.perf_counter()
        local = OxigraphKG(graph, row_cap=100_000)
        load = time.perf_counter() - start
        local.literal_forms("", True)  # the literal kinds: read once per store, not per query
        mine = [timed(local, q) for q in queries]
        print(f"| {size}x | pyoxigraph (memory) | {load:.1f} | {spread([t for t, _ in mine])} | - |", flush=True)
        del local
        with VirtuosoServer(graph) as virtuoso:
            endpoint = EndpointKG(virtuoso.endpoint, timeout=60, row_cap=100_000, agent=AGENT, retries=RETRIES)
            theirs = [timed(endpoint, q) for q in queries]
            same = sum(a == b for (_, a), (_, b) in zip(mine, theirs))
            print(f"| {size}x | Virtuoso 7.2 (HTTP) | {virtuoso.startup_seconds + virtuoso.load_seconds:.1f} | "
                  f"{spread([t for t, _ in theirs])} | {same}/{len(queries)} |", flush=True)
            print(names_row(endpoint), flush=True)
            result = end_to_end(virtuoso.endpoint, work / f"final-{size}x-virtuoso")
            print(f"|   | Virtuoso, the final-phase 200 asked end to end (adapter) | | F1 {result['micro_f1']:.4f}, "
                  f"question {spread([q.get('timings_ms', {}).get('wall', 0.0) for q in result['questions']])} | |",
                  flush=True)
    return 0


def endpoint_names(sizes: list[int], work: Path) -> int:
    """The names index read from Virtuoso per size: the paged fetch and build, a refresh, a loose lookup."""
    from pipeline.kg.endpoint import AGENT, RETRIES, EndpointKG
    from standins.virtuoso import VirtuosoServer

    for size in sizes:
        with VirtuosoServer(work / f"g{size}.nt") as virtuoso:
            endpoint = EndpointKG(virtuoso.endpoint, timeout=60, row_cap=100_000, agent=AGENT, retries=RETRIES)
            print(f"| {size}x | Virtuoso 7.2 (HTTP) | {names_row(endpoint)}", flush=True)
    return 0


def names_row(endpoint: Any) -> str:
    """Labels, fetch + build s, refresh s (no change), loose lookup p50 ms of the names index read from ``endpoint``
    page by page, as the bot reads it (a cache of its own, so the fetch is a first one)."""
    import tempfile

    from pipeline.names.sources import LABELS_TTL_S, PAGE, LabelSource

    source = LabelSource(endpoint, Path(tempfile.mkdtemp(prefix="kgqa-names-")), LABELS_TTL_S, PAGE)
    start = time.perf_counter()
    index = source.index()
    built = time.perf_counter() - start
    start = time.perf_counter()
    source.index(refresh=True)
    refreshed = time.perf_counter() - start
    rnd = random.Random(1)
    typed = [(loose(label, rnd), kind) for kind in KINDS for label in rnd.sample(index.labels(kind), 100)]
    times = []
    for text, kind in typed:
        start = time.perf_counter()
        index.find(text, kind)
        times.append((time.perf_counter() - start) * 1000)
    return (f"{len(index):,} labels | fetch + build {built:.1f} s | refresh {refreshed:.1f} s | "
            f"loose lookup p50 {statistics.median(times):.2f} ms |")


def end_to_end(kg: str, report: Path) -> dict[str, Any]:
    """The final-phase 200 through `kgqa eval --generator adapter --kg KG` in a process of its own: its report."""
    subprocess.run([sys.executable, "-m", "pipeline", "eval", "--questions", "final", "--generator", "adapter",
                    "--kg", kg, "--report", str(report)], check=True, cwd=ROOT, capture_output=True, text=True)
    result: dict[str, Any] = json.loads((report / "report.json").read_text())
    return result


def timed(kg: Any, query: str) -> tuple[float, list[str]]:
    start = time.perf_counter()
    try:
        rows = kg.select(query)
        flat = sorted(rows.flat())
    except Exception as exc:
        flat = [type(exc).__name__]
    return (time.perf_counter() - start) * 1000, flat


def spread(ms: list[float]) -> str:
    ordered = sorted(ms)
    return f"{statistics.median(ordered):.1f} / {ordered[int(0.95 * (len(ordered) - 1))]:.1f} / {ordered[-1]:.0f}"


if __name__ == "__main__":
    raise SystemExit(main())
