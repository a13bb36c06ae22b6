"""The fault matrix for docs/RELIABILITY.md: each fault injected for real (TGI, SPARQL endpoint and Slack Web API
stand-ins on loopback, a Chroma server that is down or never answers) against the real bot over HTTP; what the user
then sees in Slack, and how soon.

Usage: SCIQA_DIR=../shared/sciqa python scripts/fault_matrix.py [--json]
The scenarios are standins/faults.py's (tests/bot/test_faults.py asserts each). Timeouts as there: TGI 1 s, KG 1 s,
Chroma 1 s, question deadline 8 s (one row 2 s). Time is from the event's POST to the reply's arrival at the Slack
stand-in.
"""
from __future__ import annotations

import argparse
import json
import logging
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from pipeline.kg.snapshot import SnapshotKG
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from standins.faults import SCENARIOS, run
from standins.harness import hash_store, train_slice

MAX_SEEN = 420


def tidy(text: str, names: dict[str, str]) -> str:
    """Stand-in URLs named, pipes escaped, long lines cut: fit for a markdown cell."""
    for url in sorted(names, key=len, reverse=True):  # an endpoint's URL extends its server's
        text = text.replace(url, names[url])
    text = text.replace("|", "\\|").replace("\n", " ")
    return text if len(text) <= MAX_SEEN else text[:MAX_SEEN - 1] + "…"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    sciqa_dir = Path(os.environ.get("SCIQA_DIR") or ROOT.parent / "shared" / "sciqa")
    home = Path(tempfile.mkdtemp(prefix="kgqa-faults-"))
    try:
        sciqa = SciQA(sciqa_dir)
        store = hash_store(home / "chroma", train_slice(sciqa))
        settings = Settings(home=home, sciqa_dir=sciqa_dir, workers=2)
        snapshot = SnapshotKG(sciqa.all())
        logging.disable(logging.CRITICAL)  # the bot's warnings are the point of the table, not of its output
        run(SCENARIOS[0], store, settings, snapshot)  # warm-up: parsers and caches loaded before any clock runs
        outcomes = [run(s, store, settings, snapshot) for s in SCENARIOS]
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps([{"fault": o.scenario.fault, "how": o.scenario.how, "sees": tidy(o.sees, o.names),
                           "seconds": round(o.seconds, 2)} for o in outcomes], ensure_ascii=False, indent=1))
        return 0
    print("| fault | what the bot does | what the user sees (reply text · caveats) | time to reply |")
    print("|---|---|---|---|")
    for o in outcomes:
        print(f"| {o.scenario.fault} | {o.scenario.how} | {tidy(o.sees, o.names)} | {o.seconds:.2f} s |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
