"""The team's taught pairs as a file: a backup, and the way to carry them to another store (an embedded store to a
Chroma server, one workspace's bot to another's).

One JSON object per line: ``{"id", "question", "sparql"}``. Importing puts every pair through the same checks as
teaching in Slack, minus running it (an import may happen where the knowledge graph is out of reach): a question in
words of at most the question cap, and a query the read-only gate passes and parses.
"""
from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TextIO

from pipeline.core import clean_question
from pipeline.parts import ExampleStore
from pipeline.records import Example
from pipeline.sparql import gate
from pipeline.store import team_id

BATCH = 256


def export_pairs(store: ExampleStore, out: TextIO) -> int:
    """Write the store's team pairs (sorted by question), one JSON line each; how many were written."""
    pairs = sorted(store.examples("team"), key=lambda e: (e.question.lower(), e.id))
    for e in pairs:
        out.write(json.dumps({"id": e.id, "question": e.question, "sparql": e.sparql}, ensure_ascii=False) + "\n")
    return len(pairs)


@dataclass
class ImportReport:
    added: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line number, why)


def import_pairs(store: ExampleStore, lines: Iterable[str], max_question_chars: int = 2000) -> ImportReport:
    """Add the pairs of ``lines`` that pass the checks, as team pairs (re-importing a pair replaces it, by its
    question); the others are reported by line, and nothing of them is stored."""
    report = ImportReport()
    batch: dict[str, Example] = {}
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        pair, why = _read(line, max_question_chars)
        if pair is None:
            report.skipped.append((number, why))
            continue
        batch[pair.id] = pair
        if len(batch) >= BATCH:
            report.added += store.add(list(batch.values()))
            batch.clear()
    if batch:
        report.added += store.add(list(batch.values()))
    return report


def _read(line: str, max_question_chars: int) -> tuple[Example | None, str]:
    try:
        data = json.loads(line)
    except ValueError as exc:
        return None, f"not JSON ({exc.msg})"
    if not isinstance(data, dict) or not isinstance(data.get("question"), str) \
            or not isinstance(data.get("sparql"), str):
        return None, 'not a pair: expected {"question": "...", "sparql": "..."}'
    question = clean_question(data["question"], max_question_chars + 1)
    if not question or len(question) > max_question_chars:
        return None, f"the question is empty or longer than {max_question_chars:,} characters"
    check = gate(data["sparql"])
    if check.errors or check.warnings:
        return None, (check.errors or check.warnings)[0]
    return Example(team_id(question), question, data["sparql"].strip(), "", "team"), ""
