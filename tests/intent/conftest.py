"""The intent step's tests over the fixture graph: the store over SciQA train, the graph written as N-Triples."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.index import LabelIndex, kind_of
from pipeline.parts import KnowledgeGraph
from pipeline.settings import Settings
from standins.orkg_fixture import write_ntriples


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, train_settings: Settings, train_store: Any, tmp_path: Path) -> Path:
    monkeypatch.setenv("KGQA_HOME", str(train_settings.home))
    monkeypatch.setenv("SCIQA_DIR", str(train_settings.sciqa_dir))
    return write_ntriples(tmp_path / "fixture.nt")


PREFIXES = "".join(f"PREFIX {p}: <{iri}>\n" for p, iri in (
    ("orkgp", "http://orkg.org/orkg/predicate/"), ("orkgc", "http://orkg.org/orkg/class/"),
    ("orkgr", "http://orkg.org/orkg/resource/"), ("rdfs", "http://www.w3.org/2000/01/rdf-schema#"),
    ("xsd", "http://www.w3.org/2001/XMLSchema#")))


def answer_of(kg: KnowledgeGraph, sparql: str) -> set[tuple[str, ...]] | bool:
    """What a query answers on ``kg``: its rows as a set of value tuples (the variables' order aside), or an ASK's
    boolean."""
    rows = kg.select(sparql if "PREFIX" in sparql else PREFIXES + sparql)
    if rows.boolean is not None:
        return rows.boolean
    return {tuple(sorted(t["value"] for t in row.values())) for row in rows.rows}


@pytest.fixture
def fixture_kg(tmp_path: Path) -> OxigraphKG:
    """The ORKG-shaped fixture graph in pyoxigraph."""
    return OxigraphKG(write_ntriples(tmp_path / "fixture.nt"), row_cap=1000)


@pytest.fixture(scope="session")
def knowledge(train_store: Any) -> Any:
    """What the stored SciQA train pairs know (their names, their forms' own words), as the pipeline reads it."""
    from pipeline.store.retrieval import FormAwareStore

    return FormAwareStore(train_store, train_store.encoder, recheck=1.0).knowledge


@pytest.fixture(scope="module")
def facts(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """The comparison fixture's comparisons as the reader sees them, with the real sentence encoder over their
    labels (a comparison or a property named in other words)."""
    from pipeline.factory import build_encoder
    from pipeline.intent.comparisons import ComparisonFacts
    from standins.comparison_fixture import write_comparisons

    kg = OxigraphKG(write_comparisons(tmp_path_factory.mktemp("cmp") / "g.nt"), row_cap=100)
    read = ComparisonFacts(encoder=build_encoder(Settings.from_env())).get(kg)
    assert read is not None and read.meant is not None
    return read


def indexed(kg: OxigraphKG) -> LabelIndex:
    """The graph's labels by kind, as the names step indexes them."""
    rows = kg.select("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
                     "SELECT ?label ?class WHERE { ?thing a ?class; rdfs:label ?label. }").rows
    return LabelIndex([(r["label"]["value"], str(kind_of(r["class"]["value"].rsplit("/", 1)[-1]))) for r in rows
                       if kind_of(r["class"]["value"].rsplit("/", 1)[-1])], threshold=85.0)
