"""The graph rebuilt from SciQA loads into Virtuoso (ORKG's engine) and answers as it does in pyoxigraph."""
from __future__ import annotations

from typing import Any

from pipeline.kg.endpoint import EndpointKG
from pipeline.kg.sciqa_graph.store import GRAPH
from pipeline.sciqa import SciQA
from pipeline.sparql.text import add_prefixes
from standins.virtuoso import VirtuosoServer


def test_the_graph_loads_into_virtuoso_with_the_same_answers(sciqa_graph: Any, sciqa: SciQA) -> None:
    records = [sciqa.by_id[i] for i, _ in sciqa.challenge("final") if not sciqa.by_id[i].handcrafted]
    with VirtuosoServer(sciqa_graph.folder / GRAPH, graph="urn:sciqa-witness:graph") as server:
        virtuoso = EndpointKG(server.endpoint, timeout=30, row_cap=1000, agent="kgqa-bot", retries=2)
        differ = [r.id for r in records if set(virtuoso.select(add_prefixes(r.sparql)).flat())
                  != set(sciqa_graph.select(add_prefixes(r.sparql)).flat())]
        gold = sum(set(virtuoso.select(add_prefixes(r.sparql)).flat()) == set(r.flat_answer) for r in records)
    assert len(records) == 194 and differ == []
    assert gold == len(records)  # every templated gold query of the final set, on ORKG's engine too
