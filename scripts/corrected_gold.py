"""SciQA's gold corrected the way the intent step corrects a query whose name narrows nothing (issue 39): from a report
of every gold query asked through the pipeline (``--generator replay:GOLD.json``), each question's answer as the
pipeline gave it — the composed query's where the gold one ranked every metric together, the gold query's otherwise.
Writes a ``kgqa eval --questions`` file for one challenge phase and says how many answers differ from the recorded
gold.

    python scripts/corrected_gold.py GOLD_REPORT_DIR {final,dev} OUT.json
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from pipeline.sciqa import sciqa_for
from pipeline.settings import Settings


def main(argv: list[str]) -> int:
    report, phase, out = Path(argv[0]), argv[1], Path(argv[2])
    answered = {q["id"]: q for q in json.loads((report / "report.json").read_text(encoding="utf-8"))["questions"]}
    questions, changed = [], []
    for qid, question in sciqa_for(Settings.from_env()).challenge(phase):
        item = answered[qid]
        corrected = sorted(set(item["system"]))
        if item.get("generator") == "intent" and corrected != sorted(set(item["gold"])):
            changed.append(qid)
        questions.append({"id": qid, "question": question,
                          "answer": corrected if item.get("generator") == "intent" else item["gold"]})
    out.write_text(json.dumps({"questions": questions}, indent=1), encoding="utf-8")
    print(f"{len(questions)} questions, {len(changed)} with a corrected answer other than the recorded gold: "
          + " ".join(changed))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
