"""The burst load script, run as CI runs it (a smaller N): every event answered exactly once, retries included."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
N = 60
GROWTH_MIB = 150  # a burst may cost buffers and threads, not memory in proportion to what was ever seen


def test_a_burst_with_retries_gets_exactly_one_reply_per_event(sciqa_dir: Path) -> None:
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench_burst.py"), "--n", str(N), "--json"],
                          env={**os.environ, "SCIQA_DIR": str(sciqa_dir)}, capture_output=True, text=True,
                          timeout=180, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    result = json.loads(done.stdout.strip().splitlines()[-1])
    assert result["events"] == N and result["retried"] == N // 5 and result["deliveries"] == N + N // 5
    assert (result["replies"], result["duplicates"], result["lost"], result["busy"]) == (N, 0, 0, 0)
    assert result["placeholders"] == N  # one "working" or "queued" message per event, none for a retry
    assert result["rss_peak_mib"] - result["rss_before_mib"] < GROWTH_MIB
    assert result["ack_p95_ms"] < 3000  # Slack retries an event it has not seen acked within 3 s
