"""Which predicates meet on one node of the graph, and the part of a model's query no node can match."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.schema.shapes import Shapes, never_met
from pipeline.sparql.text import add_prefixes

WHERE_DATASET = ('?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "X") '
                 '?benchmark orkgp:HAS_DATASET ?dataset')
# the 1.5B's query for "List all the models on the Atari 2600 Pitfall! dataset?": the model put on the benchmark
MISPLACED = f"SELECT DISTINCT ?model WHERE {{ {WHERE_DATASET}; orkgp:HAS_MODEL ?model. }}"
RIGHT = f"SELECT DISTINCT ?model WHERE {{ {WHERE_DATASET}. ?cont orkgp:HAS_BENCHMARK ?benchmark; " \
        "orkgp:HAS_MODEL ?model. }"


@pytest.fixture(scope="module")
def shapes(orkg_fixture_nt: Path) -> Shapes:
    return Shapes.of(OxigraphKG(orkg_fixture_nt, row_cap=100).predicate_sets())


def test_predicates_no_node_carries_together_are_named_with_where_the_misplaced_one_is_found(shapes: Shapes) -> None:
    said = never_met(MISPLACED, shapes)
    assert said.startswith("no node of the graph has both orkgp:HAS_DATASET and orkgp:HAS_MODEL (as ?benchmark does)")
    assert "orkgp:HAS_MODEL is found with" in said and "orkgp:HAS_BENCHMARK" in said.split("found with")[1]
    assert never_met(RIGHT, shapes) == ""
    assert "rdf:type orkgc:Dataset" in never_met(
        "SELECT ?d WHERE { ?d a orkgc:Dataset; orkgp:HAS_MODEL ?m }", shapes)


def test_what_it_cannot_read_for_certain_is_left_alone(shapes: Shapes) -> None:
    assert never_met(f"SELECT DISTINCT ?model WHERE {{ {WHERE_DATASET}. OPTIONAL {{ ?benchmark orkgp:HAS_MODEL "
                     "?model }} }}", shapes) == ""  # an OPTIONAL that cannot match empties no answer
    assert never_met("SELECT ?b WHERE { { ?b orkgp:HAS_DATASET ?d } UNION { ?b orkgp:HAS_MODEL ?m } }", shapes) == ""
    assert never_met("SELECT ?b WHERE { ?b orkgp:HAS_DATASET ?d; ?p ?m }", shapes) == ""
    assert never_met("SELECT ?b WHERE { ?b orkgp:HAS_DATASET ?d", shapes) == ""


def test_the_check_holds_only_queries_that_find_nothing_on_the_graph(sciqa_graph: Any, sciqa: Any) -> None:
    """Every SciQA gold query on the graph rebuilt from SciQA: no templated one is held; each handcrafted one held
    (that graph keeps only the triples their answers needed) finds nothing there, or does not run at all."""
    shapes = Shapes.of(sciqa_graph.predicate_sets())
    held = [r for r in sciqa.all() if never_met(r.sparql, shapes)]
    assert held and all(r.template_id == "HQ" for r in held)
    for record in held:
        try:
            rows = sciqa_graph.select(add_prefixes(record.sparql))
        except Exception:  # a gold query this engine refuses: it cannot lose an answer either
            continue
        assert not rows.rows and not rows.boolean, record.id
