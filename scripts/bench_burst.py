"""A burst of N signed Slack events through HTTP, 20 % of them delivered again with X-Slack-Retry-Num, against the
real bot (HTTP server, Bolt, dedup, worker pool) and the Slack Web API stand-in: replies, duplicates, losses,
latency and memory.

Usage: SCIQA_DIR=../shared/sciqa python scripts/bench_burst.py [--n 500] [--retry-share 0.2] [--workers 4]
       [--senders 16] [--json]
The pipeline is the offline one (adapter generator, SciQA snapshot KG, a Chroma store of 80 SciQA train pairs with
hashed bag-of-words vectors), so the figures are the bot's own overhead and queueing, not an LLM's. The queue holds
the whole burst (KGQA_QUEUE_SIZE >= N): every question is answered, the later ones after a "queued" placeholder.
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
from standins.burst import run_burst


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=500)
    ap.add_argument("--retry-share", type=float, default=0.2)
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--senders", type=int, default=16)
    ap.add_argument("--queue", type=int, default=None, help="queue size (default: N, so every question is answered)")
    ap.add_argument("--json", action="store_true", help="print one JSON object instead of a markdown table")
    args = ap.parse_args()
    sciqa_dir = Path(os.environ.get("SCIQA_DIR") or ROOT.parent / "shared" / "sciqa")
    home = Path(tempfile.mkdtemp(prefix="kgqa-burst-"))
    try:
        r = run_burst(args.n, sciqa_dir, home, retry_share=args.retry_share, workers=args.workers,
                      senders=args.senders, queue_size=args.queue)
    finally:
        shutil.rmtree(home, ignore_errors=True)
    if args.json:
        print(json.dumps(r.as_dict()))
    else:
        print("| events | deliveries (retries) | replies (busy) | duplicates | lost | ack p50 / p95 ms "
              "| answer p50 / p95 ms | wall s | RSS before → peak MiB |")
        print("|---|---|---|---|---|---|---|---|---|")
        print(f"| {r.events} | {r.deliveries} ({r.retried}) | {r.replies} ({r.busy}) | {r.duplicates} | {r.lost} "
              f"| {r.ack_p50_ms:.0f} / {r.ack_p95_ms:.0f} | {r.p50_ms:.0f} / {r.p95_ms:.0f} | {r.seconds:.1f} "
              f"| {r.rss_before_mib:.0f} → {r.rss_peak_mib:.0f} |")
    ok = r.replies == r.events and r.duplicates == 0 and r.lost == 0
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
