"""Paging by key: every value once, in order, each page starting after the last value read, never an OFFSET."""
from __future__ import annotations

from pathlib import Path

from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Rows
from pipeline.sparql.paging import keyed_pages

LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
NAMES = ["a", "a b", "B", "b", 'quote " in', "z", "é", "集合"]


class Asked:
    def __init__(self, kg: OxigraphKG) -> None:
        self.kg, self.queries = kg, []

    def select(self, query: str) -> Rows:
        self.queries.append(query)
        return self.kg.select(query)


_query = (f"SELECT DISTINCT ?l WHERE {{{{ ?s {LABEL} ?x BIND(STR(?x) AS ?l) FILTER(?l > {{after}}) }}}} "
          "ORDER BY ?l LIMIT {limit}")


def test_every_value_once_in_order_by_key(tmp_path: Path) -> None:
    (tmp_path / "g.nt").write_text("".join(f'<urn:s{i}> {LABEL} "{n.replace(chr(34), chr(92) + chr(34))}" .\n'
                                           for i, n in enumerate(NAMES + ["z"])), encoding="utf-8")
    kg = Asked(OxigraphKG(tmp_path / "g.nt", row_cap=1000))
    pages = list(keyed_pages(kg, _query, "l", 3))
    assert [values for _, values, _ in pages] == [sorted(NAMES)[:3], sorted(NAMES)[3:6], sorted(NAMES)[6:]]
    assert [more for _, _, more in pages] == [True, True, False] and pages[0][0] == sorted(NAMES)[2]
    assert 'FILTER(?l > "")' in kg.queries[0] and f'FILTER(?l > "{sorted(NAMES)[2]}")' in kg.queries[1]
    assert not any("OFFSET" in q for q in kg.queries)
    resumed = [v for _, values, _ in keyed_pages(kg, _query, "l", 3, after=sorted(NAMES)[2]) for v in values]
    assert resumed == sorted(NAMES)[3:]


def test_a_full_last_page_ends_with_an_empty_one_and_a_stuck_endpoint_ends(tmp_path: Path) -> None:
    (tmp_path / "g.nt").write_text("".join(f'<urn:s{i}> {LABEL} "{n}" .\n' for i, n in enumerate("abcdef")))
    kg = Asked(OxigraphKG(tmp_path / "g.nt", row_cap=1000))
    assert [values for _, values, _ in keyed_pages(kg, _query, "l", 3)] == [["a", "b", "c"], ["d", "e", "f"], []]
    stuck = list(keyed_pages(kg, _query.replace("{after}", '""'), "l", 3))  # ignores where to start
    assert len(stuck) == 2 and stuck[-1][2] is False  # the same last value twice: no page after it
