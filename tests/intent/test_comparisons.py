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


def test_the_vocabularys_labels_are_read_once_and_not_for_a_graph_that_cannot_say(tmp_path: Path) -> None:
    """A vocabulary may label hundreds of thousands of predicates: its labels are read at the first graph that
    says what its comparisons are, then kept, however many questions and graphs follow (issue 53's 100x bench)."""
    asked: list[int] = []

    def labels() -> dict[str, str]:
        asked.append(1)
        return {"orkgp:P32": "has research problem"}

    class Down:
        name = "down"

        def select(self, query: str) -> Rows:
            raise KnowledgeGraphError("the recorded snapshot cannot say")

    facts = ComparisonFacts(labels)
    assert facts.get(Down()) is None and facts.get(Down()) is None  # type: ignore[arg-type]
    assert asked == []
    graphs = [OxigraphKG(write_comparisons(tmp_path / f"g{n}.nt"), row_cap=1000) for n in range(2)]
    read = [facts.get(kg) for kg in (*graphs, *graphs)]
    assert all(r is not None and r.property_labels["orkgp:P32"] == "has research problem" for r in read)
    assert asked == [1]
    assert read_comparisons(graphs[0], labels) == read_comparisons(graphs[0], labels())  # a reader or the labels


def test_values_are_named_by_their_labels_in_any_case_and_number(tmp_path: Path) -> None:
    kg = OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=1000)
    text = "studies in LISBON on sedum mats"
    found = values_named(kg, text, [(11, 17), (21, 31), (0, 7)])
    assert [(text[slice(*v.span)], v.label, sorted(v.properties)) for v in found] == [
        ("LISBON", "Lisbon", ["orkgp:P9001"]), ("sedum mats", "Sedum mat", ["orkgp:P9005"])]
