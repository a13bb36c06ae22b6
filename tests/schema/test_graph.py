"""What the graph holds for a schema: its comparisons and their contributions' predicates, cached on disk."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.errors import EndpointUnreachable
from pipeline.records import Rows
from pipeline.schema.graph import FactsCache, read_facts


def test_the_graph_says_which_comparisons_it_holds_and_what_their_contributions_carry(sciqa_graph: Any) -> None:
    facts = read_facts(sciqa_graph, frozenset({"orkgp:P31"}))
    assert "orkgp:P43135" in facts.comparisons["orkgr:R153801"]  # the energy sources comparison
    assert all(c.startswith("orkgr:R") for c in facts.comparisons)


def test_the_facts_are_read_once_and_kept_on_disk(sciqa_graph: Any, tmp_path: Path) -> None:
    first = FactsCache(sciqa_graph, tmp_path, ttl=3600).get(frozenset())
    assert first is not None and first.comparisons

    class Gone:
        name = sciqa_graph.name

        def select(self, query: str) -> Rows:
            raise EndpointUnreachable("down")

    again = FactsCache(Gone(), tmp_path, ttl=3600).get(frozenset())  # type: ignore[arg-type]
    assert again == first  # from the disk, not the graph


def test_a_graph_that_cannot_say_gives_no_facts(tmp_path: Path) -> None:
    class Gone:
        name = "gone"

        def select(self, query: str) -> Rows:
            raise EndpointUnreachable("down")

    assert FactsCache(Gone(), tmp_path, ttl=3600).get(frozenset()) is None  # type: ignore[arg-type]
