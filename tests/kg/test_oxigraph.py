"""OxigraphKG (pyoxigraph) on the ORKG-shaped fixture: one SciQA-shaped query per template T01-T08, formats, terms,
errors.

TEMPLATE_CASES (standins.fixture_questions) also run on Virtuoso in test_endpoint.
"""
from __future__ import annotations

import gzip
import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.errors import ConfigError, KnowledgeGraphError
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Rows
from pipeline.sparql.text import add_prefixes
from standins import orkg_fixture as fx
from standins.fakes import RecordingKG
from standins.fixture_questions import TEMPLATE_CASES, Case

Row = tuple[str, ...]


def flat_rows(rows: Rows) -> set[Row]:
    return {tuple(row[v]["value"] for v in rows.vars if v in row) for row in rows.rows}


def canonical_rows(rows: Rows) -> list[str]:
    """Rows with their full terms, order-free (queries without ORDER BY may come back in any order)."""
    return sorted(json.dumps(row, sort_keys=True) for row in rows.rows)


def test_fixture_answers_are_not_trivial() -> None:
    for case in TEMPLATE_CASES:
        assert len(case.expected()) >= 1, case.template
    assert sum(len(c.expected()) >= 2 for c in TEMPLATE_CASES) >= 6
    assert {c.template for c in TEMPLATE_CASES} == {f"T0{i}" for i in range(1, 9)}


@pytest.mark.parametrize("case", TEMPLATE_CASES, ids=[c.id for c in TEMPLATE_CASES])
def test_template_query_returns_the_fixture_answer(local_kg: OxigraphKG, case: Case) -> None:
    rows = local_kg.select(add_prefixes(case.query))
    assert flat_rows(rows) == case.expected()
    assert len(rows.rows) == len(case.expected())  # DISTINCT: no duplicates
    assert sorted(rows.flat()) == sorted(v for row in case.expected() for v in row)
    assert rows.source == local_kg.name


def test_terms_are_sparql_json(tmp_path: Path) -> None:
    data = tmp_path / "t.ttl"
    data.write_text('@prefix x: <http://x/> . x:s x:plain "89.46"; x:typed "5"^^<http://www.w3.org/2001/XMLSchema#'
                    'integer>; x:lang "Hallo"@de; x:str "s"^^<http://www.w3.org/2001/XMLSchema#string>; x:b [] .')
    kg = OxigraphKG(data, row_cap=1000)
    rows = kg.select("SELECT ?p ?o WHERE { <http://x/s> ?p ?o } ORDER BY ?p")
    by_p = {row["p"]["value"].rsplit("/", 1)[1]: row["o"] for row in rows.rows}
    assert by_p["plain"] == {"type": "literal", "value": "89.46"}
    assert by_p["typed"] == {"type": "literal", "value": "5", "datatype": "http://www.w3.org/2001/XMLSchema#integer"}
    assert by_p["lang"] == {"type": "literal", "value": "Hallo", "xml:lang": "de"}
    assert by_p["str"] == {"type": "literal", "value": "s"}
    assert by_p["b"]["type"] == "bnode"
    # exactly what a SPARQL JSON results serialiser makes of the same solutions
    solutions = kg.store.query("SELECT ?p ?o WHERE { <http://x/s> ?p ?o } ORDER BY ?p")
    assert isinstance(solutions, ox.QuerySolutions)
    serialized = solutions.serialize(format=ox.QueryResultsFormat.JSON)
    assert serialized is not None
    native = json.loads(serialized)
    assert rows.to_json()["results"]["bindings"] == native["results"]["bindings"]


@pytest.mark.parametrize("named", [False, True])
def test_each_node_carries_its_predicates_and_types_together(tmp_path: Path, named: bool) -> None:
    """Per node, one set of what it carries (schema.shapes), across the default and any named graph alike."""
    lines = ["<http://x/a> <http://x/p> <http://x/b> .", "<http://x/b> <http://x/q> \"1\" .",
             "<http://x/a> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://x/C> ."]
    last = "<http://x/a> <http://x/r> \"2\""
    data = tmp_path / ("t.nq" if named else "t.nt")
    data.write_text("\n".join(lines + [last + (" <http://x/g> ." if named else " .")]) + "\n")
    sets = sorted(sorted(s) for s in OxigraphKG(data, row_cap=10).predicate_sets())
    assert sets == [["a http://x/C", "http://x/p", "http://x/r"], ["http://x/q"]]


def test_unbound_variables_are_left_out(local_kg: OxigraphKG) -> None:
    rows = local_kg.select("SELECT ?s ?nothing WHERE { ?s a <http://orkg.org/orkg/class/Paper> "
                           "OPTIONAL { ?s <http://nope/> ?nothing } } LIMIT 1")
    assert rows.vars == ["s", "nothing"] and list(rows.rows[0]) == ["s"]


def test_ask(local_kg: OxigraphKG) -> None:
    assert local_kg.select("ASK { ?s a <http://orkg.org/orkg/class/Dataset> }").boolean is True
    assert local_kg.select("ASK { ?s a <http://orkg.org/orkg/class/Nothing> }").flat() == ["false"]


def test_row_cap(orkg_fixture_nt: Path) -> None:
    kg = OxigraphKG(orkg_fixture_nt, row_cap=3)
    rows = kg.select("SELECT ?s WHERE { ?s ?p ?o }")
    assert len(rows.rows) == 3 and "first 3" in rows.caveat
    assert OxigraphKG(orkg_fixture_nt, row_cap=3).select("SELECT ?s WHERE { ?s a <http://orkg.org/orkg/class/Paper> }"
                                                      " LIMIT 2").caveat == ""


def test_syntax_error_is_a_knowledge_graph_error(local_kg: OxigraphKG) -> None:
    with pytest.raises(KnowledgeGraphError, match="does not parse: error at 1:"):
        local_kg.select("SELECT * WHERE { ?s ?p ?o ")


def test_construct_is_refused(local_kg: OxigraphKG) -> None:
    with pytest.raises(KnowledgeGraphError, match="only SELECT and ASK"):
        local_kg.select("CONSTRUCT WHERE { ?s ?p ?o }")


def test_a_folder_of_mixed_and_compressed_files_loads_as_one_union_graph(tmp_path: Path) -> None:
    text = fx.ntriples()
    half = len(text.splitlines()) // 2
    lines = text.splitlines(keepends=True)
    (tmp_path / "a.nt.gz").write_bytes(gzip.compress("".join(lines[:half]).encode()))
    nquads = "".join(line[:-3] + f" <{fx.GRAPH}> .\n" for line in lines[half:])  # into a named graph
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.nq").write_text(nquads, encoding="utf-8")
    (tmp_path / "notes.txt").write_text("not RDF")
    (tmp_path / "c.rdf").write_text('<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" '
                                    'xmlns:x="http://x/"><rdf:Description rdf:about="http://x/s"><x:p>o</x:p>'
                                    '</rdf:Description></rdf:RDF>')
    kg = OxigraphKG(tmp_path, row_cap=1000)
    assert kg.name == f"local:{tmp_path}"
    count = kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat()
    assert count == [str(len(fx.fixture_triples()) + 1)]
    case = TEMPLATE_CASES[0]
    assert flat_rows(kg.select(add_prefixes(case.query))) == case.expected()


def test_on_disk_store_is_reused(tmp_path: Path, orkg_fixture_nt: Path) -> None:
    store = tmp_path / "store"
    first = OxigraphKG(orkg_fixture_nt, store_path=store, row_cap=1000)
    n = first.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat()
    del first  # pyoxigraph releases the on-disk lock when the store is collected
    again = OxigraphKG(orkg_fixture_nt, store_path=store, row_cap=1000)  # not loaded twice
    assert again.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat() == n == [str(len(fx.fixture_triples()))]


def test_bad_sources_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no RDF file or folder"):
        OxigraphKG(tmp_path / "missing.nt", row_cap=1000)
    (tmp_path / "x.csv").write_text("a,b")
    with pytest.raises(ConfigError, match="unknown RDF format"):
        OxigraphKG(tmp_path / "x.csv", row_cap=1000)
    with pytest.raises(ConfigError, match="no RDF files"):
        OxigraphKG(tmp_path, row_cap=1000)
    (tmp_path / "bad.ttl").write_text("this is not turtle")
    with pytest.raises(ConfigError, match="cannot read RDF from .*bad.ttl"):
        OxigraphKG(tmp_path / "bad.ttl", row_cap=1000)


def test_a_local_graph_reports_healthy(local_kg: OxigraphKG) -> None:
    """/healthz called OxigraphKG.ping(timeout) on a ping that took none, and reported a local graph as degraded."""
    class Store:
        def count(self) -> int:
            return 1

    assert local_kg.ping(0.5) is True
    report = Pipeline(Parts(Store(), RecordingKG(), local_kg),  # type: ignore[arg-type]
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)).health(timeout=1.0)
    assert report["kg"]["ok"] is True and report["kg"]["remote"] is False and "error" not in report["kg"]
