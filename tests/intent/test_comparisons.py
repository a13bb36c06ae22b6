"""What the graph holds of its comparisons, read by queries: labels, properties, values named in a question."""
from __future__ import annotations

from pathlib import Path

from pipeline.errors import KnowledgeGraphError
from pipeline.intent.comparisons import ComparisonFacts, read_comparisons, values_named
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Rows
from standins.comparison_fixture import write_comparisons
from standins.orkg_fixture import write_ntriples


def test_the_graphs_comparisons_their_properties_and_labels(tmp_path: Path) -> None:
    facts = read_comparisons(OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=1000))
    assert facts is not None
    assert facts.labels["orkgr:R9200"] == "Green roof cooling comparison"
    assert facts.carried("orkgr:R9200") == ["orkgp:P9001", "orkgp:P9005", "orkgp:P9006"]  # not P32: structural
    assert facts.property_labels["orkgp:P9002"] == "has sample size"


def test_labels_from_a_vocabulary_fill_what_the_graph_lacks_and_never_override_it(tmp_path: Path) -> None:
    kg = OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=1000)
    facts = read_comparisons(kg, {"orkgp:P9001": "Another label", "orkgp:P32": "has research problem"})
    assert facts is not None and facts.property_labels["orkgp:P9001"] == "Study location"
    assert facts.property_labels["orkgp:P32"] == "has research problem"


def test_a_graph_without_comparisons_has_none_and_one_that_cannot_answer_says_so(tmp_path: Path) -> None:
    facts = read_comparisons(OxigraphKG(write_ntriples(tmp_path / "f.nt"), row_cap=1000))
    assert facts is not None and not facts.labels

    class Down:
        name = "down"

        def select(self, query: str) -> Rows:
            raise KnowledgeGraphError("unreachable")

    assert read_comparisons(Down()) is None  # type: ignore[arg-type]
    assert ComparisonFacts().get(Down()) is None  # type: ignore[arg-type]


def test_values_are_named_by_their_labels_in_any_case_and_number(tmp_path: Path) -> None:
    kg = OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=1000)
    text = "studies in LISBON on sedum mats"
    found = values_named(kg, text, [(11, 17), (21, 31), (0, 7)])
    assert [(text[slice(*v.span)], v.label, sorted(v.properties)) for v in found] == [
        ("LISBON", "Lisbon", ["orkgp:P9001"]), ("sedum mats", "Sedum mat", ["orkgp:P9005"])]
