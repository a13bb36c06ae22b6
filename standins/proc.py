"""Run the bot, or one store operation, in a process of its own, for the tests that kill processes or run replicas.

``python -m standins.proc bot`` is ``python -m bot`` (the same ``main()``, settings from the environment) with
one change: questions are embedded with hashed bags of words instead of all-MiniLM-L6-v2, so a process starts in
about a second rather than loading a model and indexing SciQA with it. The other commands work on the store at
``$KGQA_HOME`` the same way: ``index [--rebuild] [--delay S] [--team Q S ...]`` (prints a line per batch, so a test
can kill it mid-way), ``teach QUESTION SPARQL ...`` (maintainer-approved pairs), ``check`` (one JSON line: count,
team pairs, whether a search finds each team pair first).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

import pipeline.factory as factory
from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, team_id
from standins.fakes import HashEncoder


class SlowHashEncoder(HashEncoder):
    """Hashed bags of words, ``delay`` seconds per call: an index that takes long enough to be interrupted."""

    def __init__(self, delay: float = 0.0) -> None:
        super().__init__()
        self.delay = delay

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        time.sleep(self.delay)  # stands in for a model's work per batch
        return super().encode(texts)


def use_hash_encoder(delay: float = 0.0) -> None:
    encoder = SlowHashEncoder(delay)
    factory.build_encoder = lambda settings: encoder


def teach(store: ChromaStore, pairs: list[str]) -> int:
    """Add QUESTION SPARQL pairs as approved team pairs; the store's count after."""
    store.add([Example(team_id(q), q, s, "", "team") for q, s in zip(pairs[::2], pairs[1::2])])
    return store.count()


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(prog="standins.proc")
    sub = ap.add_subparsers(dest="cmd", required=True)
    sub.add_parser("bot")
    index = sub.add_parser("index")
    index.add_argument("--rebuild", action="store_true")
    index.add_argument("--delay", type=float, default=0.0)
    index.add_argument("--team", nargs="*", default=[], help="QUESTION SPARQL ... approved pairs to add afterwards")
    taught = sub.add_parser("teach")
    taught.add_argument("pairs", nargs="+", help="QUESTION SPARQL [QUESTION SPARQL ...]")
    sub.add_parser("check")
    args = ap.parse_args(argv)
    use_hash_encoder(getattr(args, "delay", 0.0))
    if args.cmd == "bot":
        from bot.__main__ import main as bot_main

        return bot_main()
    settings = Settings.from_env(dotenv=None)
    store = factory.build_store(settings)
    if args.cmd == "index":
        def progress(total: int, done: int) -> object:
            def tick(n: int) -> None:
                print(f"progress {n} of {total}", flush=True)
            return tick

        rebuilt, count = factory.build_index(settings, store, rebuild=args.rebuild,
                                             progress=progress)  # type: ignore[arg-type]
        if args.team:
            count = teach(store, args.team)
        print(json.dumps({"rebuilt": rebuilt, "count": count}), flush=True)
    elif args.cmd == "teach":
        print(json.dumps({"count": teach(store, args.pairs)}), flush=True)
    else:
        team = store.examples("team")
        found = {e.id: [r.example.id for r in store.search(e.question, 1)] == [e.id] for e in team}
        print(json.dumps({"count": store.count(), "team": sorted(found), "found_first": found,
                          "fingerprint": store.fingerprint()}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
