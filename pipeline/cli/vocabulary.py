"""`kgqa kg vocabulary FILE…`: the ORKG's own vocabulary (N-Triples: its RDF dump, or the vocabulary and shapes read
from it) indexed into KGQA_HOME once, and what it holds. A file that cannot be read exits non-zero with one line,
and the index already there stays."""
from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from pipeline.schema.vocabulary import INDEX, indexed_vocabulary
from pipeline.settings import Settings


def add_commands(kg: Any) -> None:
    """Add `vocabulary` to the `kgqa kg` sub-parsers."""
    vocabulary = kg.add_parser("vocabulary", help="index the ORKG's own vocabulary (predicate and class labels, "
                                                  "comments, class shapes; N-Triples files or folders) into "
                                                  "KGQA_HOME and say what it holds")
    vocabulary.add_argument("files", nargs="+", metavar="FILE", help="an N-Triples file, or a folder of .nt files")
    vocabulary.add_argument("--json", action="store_true")
    vocabulary.set_defaults(func=cmd_vocabulary)


def cmd_vocabulary(args: argparse.Namespace, settings: Settings) -> int:
    paths = [Path(f).expanduser() for f in args.files]
    start = time.perf_counter()
    vocabulary, read = indexed_vocabulary(paths, settings.vocabulary_dir)
    seconds = time.perf_counter() - start
    index = settings.vocabulary_dir / INDEX
    counts = {"predicates": len(vocabulary.predicates), "classes": len(vocabulary.classes),
              "shapes": len(vocabulary.shapes), "comments": vocabulary.comments}
    configured = [p.resolve() for p in settings.orkg_vocabulary_paths] == [p.resolve() for p in paths]
    if args.json:
        print(json.dumps({**counts, "index": str(index), "read": read, "seconds": round(seconds, 2),
                          "in_use": configured}, indent=1))
        return 0
    state = f"read and indexed in {seconds:.1f} s" if read else "already indexed (the files are unchanged)"
    print(f"{counts['predicates']} predicates, {counts['classes']} classes, {counts['shapes']} class shapes, "
          f"{counts['comments']} comments: {state}, in {index}")
    if not configured:
        print(f"used where KGQA_ORKG_VOCABULARY names these files: "
              f"KGQA_ORKG_VOCABULARY={os.pathsep.join(str(p) for p in paths)}")
    return 0
