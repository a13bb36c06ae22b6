"""`kgqa kg coverage` and `kgqa kg export sciqa FILE.nt`: check the rebuilt graph, write it out."""
from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.settings import Settings


def add_commands(kg: Any) -> None:
    """Add the graph's commands to the `kgqa kg` sub-parsers."""
    cov = kg.add_parser("coverage", help="run every SciQA gold query on the graph rebuilt from SciQA (--kg sciqa) "
                                         "and count the gold answers it reproduces, per template, split and "
                                         "handcrafted shape, and why the others are not")
    cov.add_argument("--json", action="store_true")
    cov.set_defaults(func=cmd_coverage)
    export = kg.add_parser("export", help="write a graph out as N-Triples: `kgqa kg export sciqa FILE.nt`")
    export.add_argument("target", choices=["sciqa"])
    export.add_argument("file")
    export.set_defaults(func=cmd_export)


def _graph_folder(settings: Settings) -> tuple[Path, Path]:
    from pipeline.kg.sciqa_graph.store import ensure_graph
    from pipeline.sciqa import sciqa_for

    root = sciqa_for(settings).root
    return root, ensure_graph(root, settings.home)


def cmd_coverage(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.kg.sciqa_graph.coverage import measure
    from pipeline.kg.sciqa_graph.facts import read_facts
    from pipeline.kg.sciqa_graph.store import CONFLICTS, SciqaKG

    root, folder = _graph_folder(settings)
    cov = measure(read_facts(root), SciqaKG(folder, settings.row_cap))
    conflicts = (folder / CONFLICTS).read_text(encoding="utf-8").splitlines()
    if args.json:
        print(json.dumps({"exact": dict(cov.exact), "total": dict(cov.total), "templated_share": cov.share(),
                          "unsupported_handcrafted": [f.id for f in cov.unsupported], "conflicts": conflicts,
                          "why": cov.why, "by_split": cov.by_split, "by_shape": cov.by_shape},
                         indent=2, sort_keys=True))
    else:
        print("\n".join(cov.lines()))
        print(f"conflicts between answers: {len(conflicts)}" + "".join(f"\n  {c}" for c in conflicts))
    return 0


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from pipeline.kg.sciqa_graph.store import GRAPH

    _, folder = _graph_folder(settings)
    try:
        shutil.copyfile(folder / GRAPH, args.file)
    except OSError as exc:
        raise ConfigError(f"cannot write {args.file}: {exc}") from exc
    with Path(args.file).open(encoding="utf-8") as written:
        lines = sum(1 for _ in written)
    print(f"wrote {lines} triples of the graph rebuilt from SciQA to {args.file}")
    return 0
