"""LocalKG (pyoxigraph) on the ORKG-shaped fixture: one SciQA-shaped query per template T01-T08, formats, terms, errors.

TEMPLATE_CASES are shared with test_endpoint, which runs the same queries on Virtuoso.
"""
from __future__ import annotations

import gzip
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.core import Pipeline
from pipeline.errors import ConfigError, KnowledgeGraphError
from pipeline.kg.local import LocalKG
from pipeline.records import Rows
from pipeline.sparql.text import add_prefixes
from pipeline.standins.fakes import RecordingKG
from pipeline.standins import orkg_fixture as fx

Row = tuple[str, ...]


@dataclass(frozen=True)
class Case:
    template: str
    subject: str  # the label the query asks about
    query: str
    expected: Callable[[], set[Row]]  # the flat rows the query must return, computed from the fixture's definition

    @property
    def id(self) -> str:
        return f"{self.template}-{self.subject}"


def q(text: str) -> str:
    """A SPARQL string literal."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def contributions() -> Iterator[tuple[fx.Paper, fx.Contribution]]:
    return ((paper, cont) for paper in fx.PAPERS for cont in paper.contributions)


def on(dataset: str) -> Iterator[tuple[fx.Paper, fx.Contribution, fx.Benchmark]]:
    return ((p, c, b) for p, c in contributions() for b in c.benchmarks if b.dataset == dataset)


def model_row(model: str | None) -> Row:
    return (fx.iri("Model", model), model) if model else ()


def top_models(dataset: str) -> set[Row]:
    # The metric filter of T05 sits outside the sub-select, so by SPARQL's bottom-up scoping it does not narrow the
    # ranking: the model with the highest value on the dataset *for any metric* wins (Virtuoso agrees).
    ranked = [(r.value, c.model) for _, c, b in on(dataset) for r in b.results]
    return {model_row(max(ranked)[1])}


def codes(model: str) -> set[Row]:
    return {(url,) for _, c in contributions() if c.model == model and c.benchmarks for url in c.code}


def top_scores(dataset: str) -> set[Row]:
    best: dict[str, str] = {}
    for _, _, b in on(dataset):
        for r in b.results:
            best[r.metric] = max(best.get(r.metric, r.value), r.value)  # plain literals: string order, as in SPARQL
    return {(fx.iri("Metric", m), m, v) for m, v in best.items()}


DATASET = "?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = {})"

TEMPLATE_CASES = [
    Case("T01", fx.STORY_CLOZE, "SELECT DISTINCT ?model ?model_lbl WHERE { " + DATASET.format(q(fx.STORY_CLOZE)) +
         " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?paper orkgp:HAS_BENCHMARK ?benchmark."
         " OPTIONAL {?paper orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.} }",
         lambda: {model_row(c.model) for _, c, b in on(fx.STORY_CLOZE) if b.results}),
    Case("T02", fx.READING, "SELECT DISTINCT ?paper ?paper_lbl WHERE { " + DATASET.format(q(fx.READING)) +
         " ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark."
         " ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }",
         lambda: {(fx.iri("Paper", p.title), p.title) for p, _, _ in on(fx.READING)}),
    Case("T03", fx.READING, "SELECT DISTINCT ?metric ?metric_lbl WHERE { " + DATASET.format(q(fx.READING)) +
         " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval."
         " OPTIONAL {?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl.} }",
         lambda: {(fx.iri("Metric", r.metric), r.metric) for _, _, b in on(fx.READING) for r in b.results}),
    Case("T04", fx.READING,
         "SELECT DISTINCT ?metric ?metric_lbl (MAX(?value) AS ?score) WHERE { { SELECT ?metric ?metric_lbl ?value"
         " WHERE { " + DATASET.format(q(fx.READING)) +
         " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value."
         " OPTIONAL {?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl.}"
         " ?cont orkgp:HAS_BENCHMARK ?benchmark. OPTIONAL {?cont orkgp:HAS_MODEL ?model."
         " ?model rdfs:label ?model_lbl.} } ORDER BY DESC(?value) } } GROUP BY ?metric ?metric_lbl",
         lambda: top_scores(fx.READING)),
    *[Case("T05", f"{ds}, {metric}",
           "SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl."
           f" FILTER (str(?metric_lbl) = {q(metric)}) {{ SELECT ?model ?model_lbl WHERE {{ " + DATASET.format(q(ds)) +
           " ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval."
           " ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric."
           " ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl."
           " } ORDER BY DESC(?value) LIMIT 1 } }",
           partial(top_models, ds))
      for ds, metric in ((fx.STORY_CLOZE, fx.ACC), (fx.READING, fx.EM))],
    Case("T06", fx.QA,
         "SELECT DISTINCT ?dataset ?dataset_lbl WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl."
         f" FILTER (str(?problem_lbl) = {q(fx.QA)}) ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl."
         " ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. }",
         lambda: {(fx.iri("Dataset", b.dataset), b.dataset) for _, c in contributions() if c.problem == fx.QA
                  for b in c.benchmarks}),
    *[Case("T07", model, "SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl."
           f" FILTER (str(?model_lbl) = {q(model)}) ?benchmark orkgp:HAS_DATASET ?dataset."
           " ?cont orkgp:HAS_BENCHMARK ?benchmark. ?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }",
           partial(codes, model))
      for model in ("StoryLM-large", fx.QUOTED_MODEL)],
    Case("T08", fx.NLP,
         "SELECT DISTINCT ?problem ?problem_lbl WHERE { ?rf a orkgc:ResearchField; rdfs:label ?rf_label."
         f" FILTER (str(?rf_label) = {q(fx.NLP)}) ?paper orkgp:P30 ?rf; orkgp:P31 ?cont."
         " ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl. }",
         lambda: {(fx.iri("Problem", c.problem), c.problem) for p, c in contributions()
                  if p.field == fx.NLP and c.benchmarks}),
]


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
def test_template_query_returns_the_fixture_answer(local_kg: LocalKG, case: Case) -> None:
    rows = local_kg.select(add_prefixes(case.query))
    assert flat_rows(rows) == case.expected()
    assert len(rows.rows) == len(case.expected())  # DISTINCT: no duplicates
    assert sorted(rows.flat()) == sorted(v for row in case.expected() for v in row)
    assert rows.source == local_kg.name


def test_terms_are_sparql_json(tmp_path: Path) -> None:
    data = tmp_path / "t.ttl"
    data.write_text('@prefix x: <http://x/> . x:s x:plain "89.46"; x:typed "5"^^<http://www.w3.org/2001/XMLSchema#'
                    'integer>; x:lang "Hallo"@de; x:str "s"^^<http://www.w3.org/2001/XMLSchema#string>; x:b [] .')
    kg = LocalKG(data)
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


def test_unbound_variables_are_left_out(local_kg: LocalKG) -> None:
    rows = local_kg.select("SELECT ?s ?nothing WHERE { ?s a <http://orkg.org/orkg/class/Paper> "
                           "OPTIONAL { ?s <http://nope/> ?nothing } } LIMIT 1")
    assert rows.vars == ["s", "nothing"] and list(rows.rows[0]) == ["s"]


def test_ask(local_kg: LocalKG) -> None:
    assert local_kg.select("ASK { ?s a <http://orkg.org/orkg/class/Dataset> }").boolean is True
    assert local_kg.select("ASK { ?s a <http://orkg.org/orkg/class/Nothing> }").flat() == ["false"]


def test_row_cap(orkg_fixture_nt: Path) -> None:
    kg = LocalKG(orkg_fixture_nt, row_cap=3)
    rows = kg.select("SELECT ?s WHERE { ?s ?p ?o }")
    assert len(rows.rows) == 3 and "first 3" in rows.caveat
    assert LocalKG(orkg_fixture_nt, row_cap=3).select("SELECT ?s WHERE { ?s a <http://orkg.org/orkg/class/Paper> }"
                                                      " LIMIT 2").caveat == ""


def test_syntax_error_is_a_knowledge_graph_error(local_kg: LocalKG) -> None:
    with pytest.raises(KnowledgeGraphError, match="does not parse: error at 1:"):
        local_kg.select("SELECT * WHERE { ?s ?p ?o ")


def test_construct_is_refused(local_kg: LocalKG) -> None:
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
    kg = LocalKG(tmp_path)
    assert kg.name == f"local:{tmp_path}"
    count = kg.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat()
    assert count == [str(len(fx.fixture_triples()) + 1)]
    case = TEMPLATE_CASES[0]
    assert flat_rows(kg.select(add_prefixes(case.query))) == case.expected()


def test_on_disk_store_is_reused(tmp_path: Path, orkg_fixture_nt: Path) -> None:
    store = tmp_path / "store"
    first = LocalKG(orkg_fixture_nt, store_path=store)
    n = first.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat()
    del first  # pyoxigraph releases the on-disk lock when the store is collected
    again = LocalKG(orkg_fixture_nt, store_path=store)  # not loaded twice
    assert again.select("SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o }").flat() == n == [str(len(fx.fixture_triples()))]


def test_bad_sources_are_config_errors(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="no RDF file or folder"):
        LocalKG(tmp_path / "missing.nt")
    (tmp_path / "x.csv").write_text("a,b")
    with pytest.raises(ConfigError, match="unknown RDF format"):
        LocalKG(tmp_path / "x.csv")
    with pytest.raises(ConfigError, match="no RDF files"):
        LocalKG(tmp_path)
    (tmp_path / "bad.ttl").write_text("this is not turtle")
    with pytest.raises(ConfigError, match="cannot read RDF from .*bad.ttl"):
        LocalKG(tmp_path / "bad.ttl")


def test_a_local_graph_reports_healthy(local_kg: LocalKG) -> None:
    """/healthz called LocalKG.ping(timeout) on a ping that took none, and reported a local graph as degraded."""
    class Store:
        def count(self) -> int:
            return 1

    assert local_kg.ping(0.5) is True
    report = Pipeline(Store(), RecordingKG(), local_kg).health(timeout=1.0)  # type: ignore[arg-type]
    assert report["kg"]["ok"] is True and report["kg"]["remote"] is False and "error" not in report["kg"]
