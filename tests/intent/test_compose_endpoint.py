"""On an endpoint the composer asks for a question's names by exact labels, from the graph's label index, not by a
case-insensitive test that makes the endpoint scan every label (issue 38): the same names as the scan, plain, typed
(xsd:string) and English labels alike, on Virtuoso, ORKG's engine."""
from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pipeline.intent.compose import resolve
from pipeline.kg.endpoint import EndpointKG
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
          ("D3", "", '"Harbor QA"'), ("D4", "", '"geo survey"'))
QUESTIONS = ("Which model has the best Macro F1 on lakeside reviews?",
             "What is the top score of otter-7 on Régions-7 (v2, test)?",
             "Does ÇA-NET β beat Otter-7 on LAKESIDE REVIEWS?", "List the models evaluated on Harbor QA.",
             "Which models are evaluated on Geo Survey?",
             "Which models are evaluated on harbor qa?")


class Recorded(EndpointKG):
    """The endpoint, keeping the queries sent to it."""

    def __init__(self, url: str) -> None:
        super().__init__(url, timeout=30, row_cap=1000, agent="kgqa-test", retries=1)
        self.sent: list[str] = []

    def select(self, query: str) -> Rows:
        self.sent.append(query)
        return super().select(query)


@pytest.fixture(scope="module")
def endpoint(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    lines = [f"<{R}{t}> <{LABEL}> {label} .\n" + (f"<{R}{t}> <{TYPE}> <{C}{kind}> .\n" if kind else "")
             for t, kind, label in THINGS]
    lines += [f"<{R}C1> <{P}HAS_MODEL> <{R}M{i}> .\n" for i in (1, 2)]
    lines += [f"<{R}C1> <{P}HAS_BENCHMARK> <{R}B{d}> .\n<{R}B{d}> <{P}HAS_DATASET> <{R}D{d}> .\n" for d in (1, 2, 3, 4)]
    path: Path = tmp_path_factory.mktemp("exact") / "graph.nt"
    path.write_text("".join(lines), encoding="utf-8")
    with VirtuosoServer(path) as server:
        yield server.endpoint


def _names(question: str, kg: Any, known: LabelIndex | None) -> list[tuple[str, frozenset[str]]]:
    return [(n.label, n.kinds) for n in resolve(question, kg, frozenset(), known=known)]


def test_names_are_asked_by_exact_labels_and_read_as_the_scan_reads_them(endpoint: str) -> None:
    kg = Recorded(endpoint)
    index = LabelIndex(sparql_labels(kg), THRESHOLD)
    scanned = {q: _names(q, kg, None) for q in QUESTIONS[:-1]}
    kg.sent.clear()
    exact = {q: _names(q, kg, index) for q in QUESTIONS[:-1]}
    assert exact == scanned
    assert [label for label, _ in exact[QUESTIONS[0]]] == ["Macro F1", "Lakeside Reviews"]  # typed xsd:string
    assert [label for label, _ in exact[QUESTIONS[2]]] == ["Ça-Net β", "Otter-7", "Lakeside Reviews"]  # @en, Unicode
    assert len(kg.sent) == len(QUESTIONS) - 1 and not any("LCASE" in q for q in kg.sent)


def test_a_name_the_index_does_not_hold_is_found_as_typed_and_not_otherwise(endpoint: str) -> None:
    kg = Recorded(endpoint)
    index = LabelIndex(sparql_labels(kg), THRESHOLD)
    assert index.cased("harbor qa") == []  # no class: the index never listed it
    assert [label for label, _ in _names(QUESTIONS[3], kg, index)] == ["Harbor QA"]
    assert [label for label, _ in _names(QUESTIONS[4], kg, index)] == ["geo survey"]  # its lowercase is the label
    assert _names(QUESTIONS[5], kg, index) == []  # in other case only the scan finds it: a miss, not a wrong name

