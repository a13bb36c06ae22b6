"""Reading a long listing from an endpoint page by page, by key: each page the values after the last one read, in
order. Not by OFFSET: Virtuoso, ORKG's engine, refuses an ORDER BY whose OFFSET + LIMIT passes 10,000 rows (error
SR353), and an engine that sorts every row for each page makes a paged read quadratic."""
from __future__ import annotations

from collections.abc import Iterator

from pipeline.parts import KnowledgeGraph
from pipeline.sparql.literal import quoted


def keyed_pages(kg: KnowledgeGraph, query: str, var: str, page: int, after: str = "",
                max_pages: int = 1000) -> Iterator[tuple[str, list[str], bool]]:
    """(the last value read, the page's values of ``?var``, whether more may follow) for the pages of ``query``
    (a template with ``{after}``, a quoted value, and ``{limit}``: a SELECT DISTINCT of ``?var`` ordered by it whose
    values are greater than that value), from the values after ``after`` on, until a short page."""
    for _ in range(max_pages):
        rows = kg.select(query.format(after=quoted(after), limit=page))
        values = [row[var]["value"] for row in rows.rows if var in row]
        last = values[-1] if values else after
        more = len(rows.rows) >= page and last != after
        yield last, values, more
        if not more:
            return
        after = last
