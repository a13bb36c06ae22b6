"""On an endpoint the composer asks for a question's names by exact labels, from the graph's label index, not by a
case-insensitive test that makes the endpoint scan every label (issue 38): the same names as the scan, plain, typed
(xsd:string) and English labels alike, on Virtuoso, ORKG's engine; a local store answers the test from its index."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.intent.named import resolve
from pipeline.kg.endpoint import EndpointKG
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.index import THRESHOLD, LabelIndex
from pipeline.names.sources import sparql_labels
from pipeline.records import Rows
from standins.virtuoso import VirtuosoServer

R, P, C = "http://orkg.org/orkg/resource/", "http://orkg.org/orkg/predicate/", "http://orkg.org/orkg/class/"
TYPE, LABEL = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type", "http://www.w3.org/2000/01/rdf-schema#label"
STRING = "^^<http://www.w3.org/2001/XMLSchema#string>"
# (thing, class or "" for a dataset only a benchmark names, label as written in N-Triples)
THINGS = (("D1", "Dataset", f'"Lakeside Reviews"{STRING}'), ("D2", "Dataset", '"Régions-7 (v2, test)"'),
          ("M1", "Model", '"Otter-7"@en'), ("M2", "Model", '"Ça-Net β"'), ("X1", "Metric", '"Macro F1"'),
          ("D3", "", '"Harbor QA"'))
QUESTIONS = ("Which model has the best Macro F1 on lakeside reviews?",
             "What is the top score of otter-7 on Régions-7 (v2, test)?",
             "Does ÇA-NET β beat Otter-7 on LAKESIDE REVIEWS?", "List the models evaluated on Harbor QA.",
             "Which models are evaluated on harbor qa?")


class Recorded(EndpointKG):
    """The endpoint, keeping the queries sent to it."""

    def __init__(self, url: str) -> None:
        super().__init__(url, timeout=30, row_cap=1000, agent="kgqa-test", retries=1)
        self.sent: list[str] = []

    def select(self, query: str) -> Rows:
        self.sent.append(query)
        return super().select(query)


def _written(path: Path) -> Path:
    lines = [f"<{R}{t}> <{LABEL}> {label} .\n" + (f"<{R}{t}> <{TYPE}> <{C}{kind}> .\n" if kind else "")
             for t, kind, label in THINGS]
    lines += [f"<{R}C1> <{P}HAS_MODEL> <{R}M{i}> .\n" for i in (1, 2)]
    lines += [f"<{R}C1> <{P}HAS_BENCHMARK> <{R}B{d}> .\n<{R}B{d}> <{P}HAS_DATASET> <{R}D{d}> .\n" for d in (1, 2, 3)]
    path.write_text("".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with VirtuosoServer(_written(tmp_path_factory.mktemp("exact") / "graph.nt")) as server:
        yield server.endpoint


def _names(question: str, kg: Any, known: LabelIndex | None) -> list[tuple[str, frozenset[str]]]:
    return [(n.label, n.kinds) for n in resolve(question, kg, frozenset(), known=known)]


def test_names_are_asked_by_exact_labels_and_read_as_the_scan_reads_them(endpoint: str) -> None:
    kg = Recorded(endpoint)
    index = LabelIndex(sparql_labels(kg), THRESHOLD)
    scanned = {q: _names(q, kg, None) for q in QUESTIONS[:3]}
    kg.sent.clear()
    exact = {q: _names(q, kg, index) for q in QUESTIONS[:3]}
    assert exact == scanned
    assert [label for label, _ in exact[QUESTIONS[0]]] == ["Macro F1", "Lakeside Reviews"]  # typed xsd:string
    assert [label for label, _ in exact[QUESTIONS[2]]] == ["Ça-Net β", "Otter-7", "Lakeside Reviews"]  # @en, Unicode
    assert len(kg.sent) == 3 and not any("LCASE" in q for q in kg.sent)


def test_a_local_store_answers_the_case_insensitive_test_itself_and_finds_things_of_no_listed_class(
        endpoint: str, tmp_path: Path) -> None:
    kg = Recorded(endpoint)
    index = LabelIndex(sparql_labels(kg), THRESHOLD)
    assert index.cased("harbor qa") == []  # of no class: the index never listed it
    # an endpoint is asked only for the labels the index holds: a thing no listed class has is not a name there
    assert _names(QUESTIONS[3], kg, index) == [] and _names(QUESTIONS[4], kg, index) == []
    local = OxigraphKG(_written(tmp_path / "graph.nt"), row_cap=1000)
    assert [label for label, _ in _names(QUESTIONS[4], local, index)] == ["Harbor QA"]
    assert _names(QUESTIONS[0], local, index) == _names(QUESTIONS[0], kg, index)
