"""An endpoint's label tests joined to a VALUES of the label literal forms it holds: found by its index, the same
rows as the filter alone (on Virtuoso: plain, xsd:string and language-tagged labels), left alone when unsure."""
from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from pipeline.errors import EndpointUnreachable
from pipeline.kg.endpoint import EndpointKG
from pipeline.kg.label_forms import LabelForms
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Rows
from standins.virtuoso import VirtuosoServer

LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
STRING = "^^<http://www.w3.org/2001/XMLSchema#string>"
LABELS = ('"Lakeside"', f'"Lakeside"{STRING}', '"Lakeside"@en', '"Lakeside"@de', '"Harbor"')
QUERY = f'SELECT ?s WHERE {{ ?s {LABEL} ?l. FILTER(str(?l) = "Lakeside") }}'


def _graph(path: Path, labels: tuple[str, ...] = LABELS) -> Path:
    path.write_text("".join(f"<urn:s{i}> {LABEL} {label} .\n" for i, label in enumerate(labels)), encoding="utf-8")
    return path


class Asked:
    def __init__(self, kg: OxigraphKG | None) -> None:
        self.kg, self.queries = kg, []

    def select(self, query: str) -> Rows:
        self.queries.append(query)
        if self.kg is None:
            raise EndpointUnreachable("down")
        return self.kg.select(query)


def test_a_label_test_gets_every_form_the_labels_have_and_keeps_its_filter(tmp_path: Path) -> None:
    forms = LabelForms(Asked(OxigraphKG(_graph(tmp_path / "g.nt"), row_cap=100)).select)
    assert forms.kinds(wait=10) is not None
    sent = forms.rewrite(QUERY)
    assert f'VALUES ?l {{ "Lakeside" "Lakeside"{STRING} "Lakeside"@de "Lakeside"@en }} FILTER(str(?l)' in sent
    plain = 'SELECT ?s WHERE { ?s <http://www.w3.org/2000/01/rdf-schema#label> ?l. FILTER(?l = "Lakeside") }'
    assert forms.rewrite(plain) == plain  # '=' compares terms: left to the endpoint
    outside = 'SELECT ?s WHERE { ?s <urn:p> ?l. FILTER(str(?l) = "Lakeside") }'
    assert forms.rewrite(outside) == outside  # not a label: the forms read say nothing of it


def test_labels_of_another_datatype_or_an_endpoint_that_cannot_say_leave_the_query_alone(tmp_path: Path) -> None:
    typed = LabelForms(Asked(OxigraphKG(_graph(tmp_path / "t.nt", LABELS + (
        '"7"^^<http://www.w3.org/2001/XMLSchema#integer>',)), row_cap=100)).select)
    assert typed.kinds(wait=10) is not None and typed.rewrite(QUERY) == QUERY
    down = Asked(None)
    forms = LabelForms(down.select)
    assert forms.kinds(wait=10) is None and forms.rewrite(QUERY) == QUERY and forms.kinds(wait=10) is None
    assert len(down.queries) == 1  # not asked again at once


def test_no_query_waits_for_the_forms(tmp_path: Path) -> None:
    gate = threading.Event()
    inner = Asked(OxigraphKG(_graph(tmp_path / "g.nt"), row_cap=100))

    def slow(query: str) -> Rows:
        gate.wait(10)
        return inner.select(query)

    forms = LabelForms(slow)
    assert forms.rewrite(QUERY) == QUERY  # the read is under way: this query goes as written, at once
    gate.set()
    assert forms.kinds(wait=10) is not None and "VALUES ?l" in forms.rewrite(QUERY)


@pytest.fixture(scope="module")
def virtuoso(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtuosoServer]:
    with VirtuosoServer(_graph(tmp_path_factory.mktemp("forms") / "g.nt")) as server:
        yield server


def test_on_virtuoso_the_rewritten_test_finds_what_the_filter_alone_finds(virtuoso: VirtuosoServer) -> None:
    kg = EndpointKG(virtuoso.endpoint, timeout=30, row_cap=100, agent="kgqa-test", retries=1)
    assert kg.labels.kinds(wait=30) is not None
    alone = sorted(kg._sent(QUERY).flat())
    assert alone == ["urn:s0", "urn:s1", "urn:s2", "urn:s3"]
    assert sorted(kg.select(QUERY).flat()) == alone
    assert "VALUES ?l" in kg.labels.rewrite(QUERY)
