"""The team's taught pairs as a file: a backup, and the way to carry them to another store (an embedded store to a
Chroma server, one workspace's bot to another's).

One JSON object per line: ``{"id", "question", "sparql"}``. The bot also appends every pair it stores to a journal
in that format (``$KGQA_HOME/team-pairs.jsonl``), so the team's teaching outlives a store that has to be thrown
away: ``kgqa index --rebuild`` imports the journal into a store it builds in place of an unreadable one.

Importing puts every pair through the same checks as teaching in Slack, minus running it (an import may happen where
the knowledge graph is out of reach): a question in words of at most the question cap, and a query the read-only
gate passes and parses.
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TextIO

from pipeline.parts import ExampleStore
from pipeline.question import clean
from pipeline.records import Example
from pipeline.sparql.gate import gate
from pipeline.store.chroma import BATCH, team_id

JOURNAL = "team-pairs.jsonl"  # under KGQA_HOME


def _line(e: Example) -> str:
    return json.dumps({"id": e.id, "question": e.question, "sparql": e.sparql}, ensure_ascii=False) + "\n"


def export_pairs(store: ExampleStore, out: TextIO) -> int:
    """Write the store's team pairs (sorted by question), one JSON line each; how many were written."""
    pairs = sorted(store.examples("team"), key=lambda e: (e.question.lower(), e.id))
    for e in pairs:
        out.write(_line(e))
    return len(pairs)


def record(journal: Path, pairs: Iterable[Example]) -> None:
    """Append pairs to the journal, on disk before this returns (one write per call: appends do not interleave)."""
    journal.parent.mkdir(parents=True, exist_ok=True)
    data = "".join(_line(e) for e in pairs).encode("utf-8")
    fd = os.open(journal, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, data)
        os.fsync(fd)
    finally:
        os.close(fd)


@dataclass
class ImportReport:
    added: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)  # (line number, why)


def import_pairs(store: ExampleStore, lines: Iterable[str], max_question_chars: int) -> ImportReport:
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
    except json.JSONDecodeError as exc:
        return None, f"not JSON ({exc.msg})"
    if not isinstance(data, dict) or not isinstance(data.get("question"), str) \
            or not isinstance(data.get("sparql"), str):
        return None, 'not a pair: expected {"question": "...", "sparql": "..."}'
    question = clean(data["question"], max_question_chars + 1)
    if not question or len(question) > max_question_chars:
        return None, f"the question is empty or longer than {max_question_chars:,} characters"
    check = gate(data["sparql"])
    if check.errors or check.warnings:
        return None, (check.errors or check.warnings)[0]
    return Example(team_id(question), question, data["sparql"].strip(), "", "team"), ""
