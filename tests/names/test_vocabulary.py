"""The graph's own predicates and classes, read once by read-only SPARQL (cached), or from the snapshot's queries."""
from __future__ import annotations

from pathlib import Path

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.vocabulary import GraphVocabulary, nearest, unknown, used_names
from pipeline.parts import KGWrapper
from pipeline.records import Rows
from pipeline.sciqa import Record

TYPE = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
TRIPLES = f"""
<http://orkg.org/orkg/resource/R1> {TYPE} <http://orkg.org/orkg/class/Dataset> .
<http://orkg.org/orkg/resource/R1> <http://orkg.org/orkg/predicate/HAS_SOURCE_CODE> "x" .
<http://orkg.org/orkg/resource/R1> <http://orkg.org/orkg/predicate/P31> <http://orkg.org/orkg/resource/R2> .
<http://orkg.org/orkg/resource/R1> <http://www.w3.org/2000/01/rdf-schema#label> "SQuAD" .
"""


def test_prefix_declarations_are_not_uses() -> None:
    q = ("PREFIX orkgp: <http://orkg.org/orkg/predicate/> SELECT ?x { ?d orkgp:P31 ?x ; a orkgc:Dataset ; "
         "rdfs:label ?l . orkgr:R1 orkgp:P31 ?y }")
    assert used_names(q) == ["orkgp:P31", "orkgc:Dataset"]


def test_an_rdf_or_rdfs_name_rdf_does_not_define_is_unknown() -> None:
    """'FILTER NOT EXISTS { ?m rdfs:repository ?r }' holds for every model: no such term exists anywhere."""
    q = "SELECT ?m { ?m a orkgc:Model ; rdfs:label ?l ; rdf:type ?t . FILTER NOT EXISTS { ?m rdfs:repository ?r } }"
    assert unknown(q, frozenset({"orkgc:Model"})) == ["RDF defines no rdfs:repository"]


class Endpoint:
    """A graph known only by the SPARQL it answers, as an endpoint is (counting the queries)."""

    def __init__(self, kg: OxigraphKG) -> None:
        self.kg, self.name, self.virtuoso, self.queries = kg, "endpoint", False, 0

    def select(self, query: str) -> Rows:
        self.queries += 1
        return self.kg.select(query)

    def ping(self, timeout: float = 2.0) -> bool:
        return True


class Counted(KGWrapper):
    def select(self, query: str) -> Rows:
        raise AssertionError("a local store's terms are read from its indexes, not by a query")


def test_a_graph_is_read_once_by_sparql_and_cached(tmp_path: Path) -> None:
    (tmp_path / "g.nt").write_text(TRIPLES)
    kg = Endpoint(OxigraphKG(tmp_path / "g.nt", row_cap=1000))
    names = GraphVocabulary(kg, tmp_path / "cache", ttl=604800.0, page=1000).available()
    assert names == {"orkgc:Dataset", "orkgp:HAS_SOURCE_CODE", "orkgp:P31"} and kg.queries == 2
    (tmp_path / "g.nt").write_text("")  # the cache answers a new process now
    again = GraphVocabulary(Endpoint(OxigraphKG(tmp_path / "g.nt", row_cap=1000)), tmp_path / "cache",
                            ttl=604800.0, page=1000)
    assert again.available() == names
    assert unknown("SELECT ?c { ?d orkgp:HAS_CODE ?c ; orkgp:P31 ?p }", names) == [
        "the graph has no orkgp:HAS_CODE (nearest: orkgp:HAS_SOURCE_CODE, orkgp:P31)"]
    assert nearest("orkgc:Datasets", names) == ["orkgc:Dataset"]


def test_a_local_store_behind_a_wrapper_lists_its_terms_without_a_query(tmp_path: Path) -> None:
    """A paged ORDER BY would sort every triple for each page: 4 s at 10x the SciQA graph (docs/results/scale.md)."""
    (tmp_path / "g.nt").write_text(TRIPLES)
    wrapped = Counted(OxigraphKG(tmp_path / "g.nt", row_cap=1000))
    names = GraphVocabulary(wrapped, tmp_path / "cache", ttl=604800.0, page=1000).available()
    assert names == {"orkgc:Dataset", "orkgp:HAS_SOURCE_CODE", "orkgp:P31"}


def test_a_graph_without_orkg_names_is_not_a_vocabulary(tmp_path: Path) -> None:
    (tmp_path / "g.nt").write_text('<urn:a> <urn:b> "c" .\n')
    graph = OxigraphKG(tmp_path / "g.nt", row_cap=1000)
    assert GraphVocabulary(graph, None, ttl=604800.0, page=1000).available() is None


def test_the_snapshot_knows_the_names_its_recorded_queries_use() -> None:
    records = [Record("Q1", "q?", "SELECT ?m { ?d a orkgc:Dataset; orkgp:HAS_MODEL ?m }", "T01", "train")]
    names = GraphVocabulary(SnapshotKG(records), None, ttl=604800.0, page=1000).available()
    assert names == {"orkgc:Dataset", "orkgp:HAS_MODEL"}


def test_more_predicates_than_virtuoso_sorts_at_once_are_all_read(tmp_path: Path) -> None:
    """Virtuoso refuses an ORDER BY whose OFFSET + LIMIT passes 10,000 rows: 10,500 predicates are read by key."""
    from pipeline.kg.endpoint import EndpointKG
    from standins.virtuoso import VirtuosoServer

    (tmp_path / "g.nt").write_text("".join(f"<http://orkg.org/orkg/resource/R1> <http://orkg.org/orkg/predicate/P{i}> "
                                           f'"v" .\n' for i in range(10_500)) + TRIPLES, encoding="utf-8")
    with VirtuosoServer(tmp_path / "g.nt") as server:
        kg = EndpointKG(server.endpoint, timeout=60, row_cap=1000, agent="kgqa-test", retries=1)
        names = GraphVocabulary(kg, tmp_path / "cache", ttl=604800.0, page=1000).available()
    assert names is not None and len(names) == 10_500 + 2 and {"orkgp:P10499", "orkgc:Dataset"} <= names
