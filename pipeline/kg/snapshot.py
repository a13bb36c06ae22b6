"""The SciQA snapshot: every SciQA query's answer as recorded from ORKG in early 2023, keyed by canonical query."""
from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from pathlib import Path

from pipeline.errors import NotInSnapshot
from pipeline.records import Rows
from pipeline.sciqa import Record
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import canonical
from pipeline.store.derived import code_digest, load_json, save_json

SNAPSHOT_DATE = "early 2023"
CAVEAT = f"recorded from the ORKG in {SNAPSHOT_DATE} (SciQA benchmark); today's graph may differ"


def without_trailing_limit(query: str) -> str:
    """The query minus a final ``LIMIT n`` (the read-only gate adds one; recorded queries mostly have none)."""
    toks = parse(query).tokens
    if len(toks) >= 2 and toks[-2].text.upper() == "LIMIT" and toks[-1].kind == "number":
        cut = query.upper().rfind("LIMIT")
        return query[:cut]
    return query


class SnapshotKG:
    """Answers exactly the queries SciQA recorded (up to blanks, keyword case, prefixes, variable names)."""

    name = "snapshot"
    virtuoso = True  # ORKG's answers, recorded for queries in its dialect

    def __init__(self, records: Iterable[Record], saved: Path | None = None) -> None:
        """``saved``: a file keeping the recorded queries' canonical forms, so a new process need not derive them."""
        self.answers: dict[str, Rows] = {}
        self.records = list(records)
        for r, key in zip(self.records, canonical_forms([r.sparql for r in self.records], saved)):
            self.answers.setdefault(key, Rows.from_json(r.answer or {}, "snapshot", CAVEAT))

    @property
    def recorded_queries(self) -> list[str]:
        """The recorded queries (what they use is the snapshot's vocabulary)."""
        return [r.sparql for r in self.records]

    def label_pairs(self) -> Iterator[tuple[str, str]]:
        """(label, kind) from the recorded queries' label filters and the labels in their answers."""
        from pipeline.names.sources import answer_labels, query_labels

        yield from query_labels(r.sparql for r in self.records)
        yield from answer_labels(r.answer for r in self.records if r.answer)

    def ping(self, timeout: float = 2.0) -> bool:
        """Nothing to reach."""
        return True

    def select(self, query: str) -> Rows:
        for candidate in (query, without_trailing_limit(query)):
            rows = self.answers.get(canonical(candidate))
            if rows is not None:
                return rows
        raise NotInSnapshot("not in snapshot: the recorded 2023 answers hold no query of this form, "
                                  "so there is no answer to show offline")


def canonical_forms(queries: list[str], saved: Path | None) -> list[str]:
    """``canonical`` of each query, read from ``saved`` when it was derived from the same queries by the same code."""
    digest = hashlib.sha256("\0".join(queries).encode())
    key = f"{digest.hexdigest()[:32]}|{code_digest('sparql/text.py', 'sparql/lexer.py', 'sparql/parsed.py')}"
    kept = load_json(saved, key) if saved else None
    if isinstance(kept, list) and len(kept) == len(queries):
        return [str(k) for k in kept]
    forms = [canonical(q) for q in queries]
    if saved:
        save_json(saved, key, forms)
    return forms
