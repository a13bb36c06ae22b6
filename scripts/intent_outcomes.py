"""Right / wrong / declined counts of an eval report (issue 18): right = a query ran and its answer equals the gold
set; declined = no query ran (``sparql`` empty), with or without an offer; wrong = anything else.

    python scripts/intent_outcomes.py REPORT_DIR [-v]
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path


def outcome(q: dict[str, object]) -> str:
    if not q.get("sparql"):
        return "declined"
    return "right" if q.get("exact") and not q.get("error") else "wrong"


def main(argv: list[str]) -> int:
    report = json.loads((Path(argv[0]) / "report.json").read_text(encoding="utf-8"))
    counts: Counter[str] = Counter()
    for q in report["questions"]:
        kind = outcome(q)
        counts[kind] += 1
        if "-v" in argv and kind != "right":
            print(f"{q['id']:8} {kind:8} {q['question']!r} -> {q['system'][:3]} {str(q.get('explanation'))[:160]}")
    n = sum(counts.values())
    print(" ".join(f"{k} {counts[k]}/{n} ({counts[k] / n:.1%})" for k in ("right", "wrong", "declined")))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
