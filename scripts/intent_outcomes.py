"""Right / wrong / declined counts of an eval report (issue 18): right = a query ran and its answer equals the gold
set; declined = no answer was given: no query ran (``sparql`` empty), or the pipeline declined the one written (the
names step holding a name the graph lacks: the report's ``outcome`` is ``declined``), with or without an offer;
wrong = anything else. Also: how many questions the intent guard declined (templated ones: false refusals), how many
were composed, and how many queries that reached the KG do not parse as SPARQL 1.1.

    python scripts/intent_outcomes.py REPORT_DIR [-v]
"""
from __future__ import annotations

import json
import sys
from collections import Counter
from pathlib import Path

from pipeline.sparql.text import parses


def outcome(q: dict[str, object]) -> str:
    if not q.get("sparql") or q.get("outcome") == "declined":  # a query on record for what it would have asked
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
    questions = report["questions"]
    guarded = [q for q in questions if any("declined by the intent guard" in note for note in q.get("notes", []))]
    templated = [q for q in questions if str(q.get("template_id", "")).startswith("T")]
    refused = [q for q in guarded if q in templated]
    print(f"declined by the intent guard: {len(guarded)}; templated: {len(refused)}/{len(templated)}"
          f"{f' ({len(refused) / len(templated):.2%})' if templated else ''}; composed: "
          f"{sum(1 for q in questions if q.get('generator') == 'intent')}; queries run that do not parse: "
          f"{sum(1 for q in questions if q.get('sparql') and not parses(q['sparql']))}")
    for q in refused if "-v" in argv else []:
        print(f"  false refusal {q['id']} {q['question']!r}: {q['notes'][-1]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
