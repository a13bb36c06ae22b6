"""Kinds composed over papers and their venues (a small graph of its own: the fixture graph has no venues): a paper's
venue and year asked at once, and whether a venue published anything before a year."""
from __future__ import annotations

from pathlib import Path

from pipeline.kg.oxigraph import OxigraphKG
from tests.intent.test_compose_kinds import _asked


def _venues_graph(path: Path) -> OxigraphKG:
    """Two papers of one venue, years apart (the fixture graph has no venues)."""
    orkg, label = "http://orkg.org/orkg/", "<http://www.w3.org/2000/01/rdf-schema#label>"
    kind = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
    lines = [f"<{orkg}resource/V1> {kind} <{orkg}class/Venue> .", f'<{orkg}resource/V1> {label} "Harbour Workshop" .']
    for n, (title, year) in enumerate((("Tidal Glyph Nets", "2019"), ("Quay Models Revisited", "2021"))):
        paper = f"<{orkg}resource/P{n}>"
        lines += [f"{paper} {kind} <{orkg}class/Paper> .", f'{paper} {label} "{title}" .',
                  f'{paper} <{orkg}predicate/P29> "{year}" .',
                  f"{paper} <{orkg}predicate/HAS_VENUE> <{orkg}resource/V1> ."]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return OxigraphKG(path, row_cap=100)


def test_a_papers_venue_and_year_and_whether_a_venue_published_anything(tmp_path: Path) -> None:
    kg = _venues_graph(tmp_path / "venues.nt")
    assert _asked('what venue + year is the "Quay Models Revisited" paper?', kg) == {("2021", "Harbour Workshop")}
    assert _asked("has the harbour workshop published anything before 2020?", kg) is True
    assert _asked("has the harbour workshop published anything before 2019?", kg) is False
