"""Kinds composed over papers and their venues (a small graph of its own: the fixture graph has no venues): a paper's
venue and year asked at once, and whether a venue published anything before a year."""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Generation, Kind
from standins.orkg_fixture import PAPERS
from tests.intent.conftest import answer_of
from tests.intent.test_compose_kinds import _asked


def _venues_graph(path: Path) -> OxigraphKG:
    """Two papers of one venue, years apart (the fixture graph has no venues)."""
    orkg, label = "http://orkg.org/orkg/", "<http://www.w3.org/2000/01/rdf-schema#label>"
    kind = "<http://www.w3.org/1999/02/22-rdf-syntax-ns#type>"
    lines = [f"<{orkg}resource/V1> {kind} <{orkg}class/Venue> .", f'<{orkg}resource/V1> {label} "Harbour Workshop" .',
             f"<{orkg}resource/V2> {kind} <{orkg}class/Venue> .", f'<{orkg}resource/V2> {label} "Dock Symposium" .']
    for n, (title, year, venue) in enumerate((("Tidal Glyph Nets", "2019", "V1"),
                                              ("Quay Models Revisited", "2021", "V1"), ("Crane Logs", "2022", "V2"))):
        paper = f"<{orkg}resource/P{n}>"
        lines += [f"{paper} {kind} <{orkg}class/Paper> .", f'{paper} {label} "{title}" .',
                  f'{paper} <{orkg}predicate/P29> "{year}" .',
                  f"{paper} <{orkg}predicate/HAS_VENUE> <{orkg}resource/{venue}> ."]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return OxigraphKG(path, row_cap=100)


def test_a_papers_venue_and_year_and_whether_a_venue_published_anything(tmp_path: Path) -> None:
    kg = _venues_graph(tmp_path / "venues.nt")
    assert _asked('what venue + year is the "Quay Models Revisited" paper?', kg) == {("2021", "Harbour Workshop")}
    assert _asked("has the harbour workshop published anything before 2020?", kg) is True
    assert _asked("has the harbour workshop published anything before 2019?", kg) is False


def test_papers_lacking_what_the_question_never_names_are_not_answered(tmp_path: Path) -> None:
    """'which papers were not published at X' is no 'papers with no models at all' (none here has a model: the
    answer would be nothing) with X left out: declined, or the papers of other venues."""
    kg = _venues_graph(tmp_path / "venues.nt")
    done = IntentStep().review("which papers were not published at the harbour workshop?",
                               Generation("adapter", None), [], kg).generation
    assert done.sparql is None or answer_of(kg, done.sparql) == {("Crane Logs",)}, done.sparql


def test_papers_asked_are_never_answered_with_contributions(fixture_kg: OxigraphKG) -> None:
    """'which papers didnt release code for any of their contributions': papers, or nothing composed."""
    done = IntentStep().review("which papers didnt release code for any of their contributions?",
                               Generation("adapter", None), [], fixture_kg).generation
    titles = {p.title for p in PAPERS}
    assert done.sparql is None or {v for row in answer_of(fixture_kg, done.sparql) for v in row
                                   if not v.startswith("http")} <= titles, done.sparql


def test_a_kind_lacked_is_named_in_any_of_its_words() -> None:
    """'no repo' names code as 'no code released' does: the pair saying things lack code is not refused for it."""
    from pipeline.intent.asked import lacked_kinds
    from pipeline.intent.reading import CODE, mentioned_kinds

    assert lacked_kinds("Which models tested on X have no code released?") == {CODE}
    assert CODE in mentioned_kinds("which models on X have no repo")
    assert lacked_kinds("papers that have no models attached") - mentioned_kinds("which papers were not at X") == {
        Kind.MODEL}


def test_the_year_with_the_fewest_papers_and_with_the_most(fixture_kg: OxigraphKG) -> None:
    per_year = Counter(p.year for p in PAPERS)
    for said, end in (("fewest", min), ("most", max)):
        found = _asked(f"which year has the {said} papers", fixture_kg)
        assert not isinstance(found, bool)
        years = {v for row in found for v in row} & set(per_year)
        assert years == {y for y, n in per_year.items() if n == end(per_year.values())}, said


def test_words_beginning_with_an_operators_are_no_name(fixture_kg: OxigraphKG) -> None:
    """'how *many 2018* papers': a count asked, never a title 'many 2018' a stored query searched for."""
    listed = ('SELECT ?paper WHERE { ?paper orkgp:P31 ?cont; rdfs:label ?title. '
              'FILTER(REGEX(STR(?title), "many 2018", "i")) }')
    done = IntentStep().review("how many 2018 papers are in there", Generation("adapter", listed), [],
                               fixture_kg).generation
    assert done.sparql != listed and (done.sparql is None or "COUNT" in done.sparql.upper()), done.sparql
