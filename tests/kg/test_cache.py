"""The answer cache: instant repeats, survival of outages with the date shown, bounded size, shared file."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import EndpointUnreachable, KnowledgeGraphError
from pipeline.kg.cache import CachedKG
from pipeline.records import Rows
from pipeline.sparql.text import variables
from pipeline.state.answers.sqlite import SqliteAnswers
from standins.fakes import RecordingKG

QUERY = "SELECT ?x WHERE { ?x a <http://orkg.org/orkg/class/Dataset> }"


def test_a_repeated_query_is_answered_from_the_cache_saying_so(tmp_path: Path) -> None:
    live = RecordingKG(name="http://orkg.test/sparql")
    kg = CachedKG(live, SqliteAnswers(tmp_path / "cache.sqlite3", max_entries=5000), ttl=86400.0)
    first = kg.select(QUERY)
    second = kg.select("select ?y where { ?y a <http://orkg.org/orkg/class/Dataset> . }")  # same canonical form
    assert len(live.queries) == 1 and first.flat() == second.flat() == ["42"]
    assert not first.caveat and "cached result from 20" in second.caveat


def test_an_outage_is_bridged_by_an_old_entry_with_its_date(tmp_path: Path) -> None:
    live = RecordingKG(name="http://orkg.test/sparql")
    CachedKG(live, SqliteAnswers(tmp_path / "c.sqlite3", max_entries=5000), ttl=0).select(QUERY)
    live.error = EndpointUnreachable("ORKG endpoint http://orkg.test/sparql did not answer in 3 s")
    rows = CachedKG(live, SqliteAnswers(tmp_path / "c.sqlite3",
                                        max_entries=5000), ttl=0).select(QUERY)  # a new process, an expired entry
    assert rows.flat() == ["42"] and "did not answer in 3 s; showing the cached result from" in rows.caveat


def test_errors_are_not_cached_and_unreachable_without_entry_still_raises(tmp_path: Path) -> None:
    live = RecordingKG(error=KnowledgeGraphError("syntax error"))
    kg = CachedKG(live, SqliteAnswers(tmp_path / "c.sqlite3", max_entries=5000), ttl=86400.0)
    with pytest.raises(KnowledgeGraphError):
        kg.select(QUERY)
    live.error = EndpointUnreachable("down")
    with pytest.raises(EndpointUnreachable):
        kg.select(QUERY)


def test_the_cache_is_bounded(tmp_path: Path) -> None:
    live = RecordingKG()
    kg = CachedKG(live, SqliteAnswers(tmp_path / "c.sqlite3", max_entries=3), ttl=86400.0)
    for i in range(6):
        kg.select(f"SELECT ?x WHERE {{ ?x ?p {i} }}")
    assert kg.answers._db.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 3  # type: ignore[attr-defined]
    kg.select("SELECT ?x WHERE { ?x ?p 5 }")
    assert len(live.queries) == 6  # the most recent entries were kept


class Echo(RecordingKG):
    """Answers under the query's own first variable name, as an endpoint does."""

    def select(self, query: str) -> Rows:
        self.queries.append(query)
        var = variables(query)[0]
        return Rows([var], [{var: {"type": "literal", "value": self.name}}], source=self.name)


def test_queries_differing_in_variable_names_get_rows_under_their_own_names(tmp_path: Path) -> None:
    """The cache merged such queries and handed back rows under the first query's variable names."""
    live = Echo(name="http://orkg.test/sparql")
    kg = CachedKG(live, SqliteAnswers(tmp_path / "cache.sqlite3", max_entries=5000), ttl=86400.0)
    first = kg.select(QUERY)
    second = kg.select("select ?dataset where { ?dataset a <http://orkg.org/orkg/class/Dataset> . }")
    assert len(live.queries) == 1 and "cached result" in second.caveat  # still one entry for both
    assert first.vars == ["x"] and list(first.rows[0]) == ["x"]
    assert second.vars == ["dataset"] and list(second.rows[0]) == ["dataset"] and second.flat() == first.flat()


def test_two_endpoints_sharing_a_cache_file_keep_their_own_entries(tmp_path: Path) -> None:
    """The key ignored the endpoint: one endpoint's entry replaced the other's in the shared file."""
    answers = SqliteAnswers(tmp_path / "cache.sqlite3", max_entries=5000)
    a_live, b_live = Echo(name="http://a.test/sparql"), Echo(name="http://b.test/sparql")
    a, b = CachedKG(a_live, answers, ttl=86400.0), CachedKG(b_live, answers, ttl=86400.0)
    for _ in range(2):
        assert a.select(QUERY).flat() == ["http://a.test/sparql"] and b.select(QUERY).flat() == ["http://b.test/sparql"]
    assert len(a_live.queries) == len(b_live.queries) == 1
