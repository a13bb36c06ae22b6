"""A KG opened at its first query: auto's offline fallback is not built while the endpoint answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.factory import build_kg
from pipeline.kg.lazy import LazyKG
from pipeline.kg.sciqa_graph.store import FOLDER
from pipeline.parts import KGWrapper, KnowledgeGraph, Remote, is_remote
from pipeline.settings import Settings
from standins.fakes import RecordingKG


def counted(virtuoso: bool) -> tuple[LazyKG, list[RecordingKG]]:
    """A lazy graph, and the graphs it has opened so far."""
    opened: list[RecordingKG] = []

    def open_() -> RecordingKG:
        opened.append(RecordingKG())
        return opened[-1]
    return LazyKG("counted", open_, virtuoso=virtuoso), opened


def test_it_opens_once_at_the_first_query() -> None:
    lazy, opened = counted(virtuoso=False)
    assert opened == []
    lazy.select("ASK {}")
    lazy.select("ASK { ?s ?p ?o }")
    assert len(opened) == 1 and opened[0].queries == ["ASK {}", "ASK { ?s ?p ?o }"]


def test_its_name_dialect_and_reachability_are_known_without_opening_it() -> None:
    lazy, opened = counted(virtuoso=True)
    kg: KnowledgeGraph = lazy  # the graph's Protocol, on the one wrapper base
    assert isinstance(lazy, KGWrapper) and isinstance(lazy, Remote)
    assert kg.name == "counted" and kg.virtuoso and kg.ping(0.1) and not is_remote(kg)
    assert opened == []
    assert lazy.inner is lazy.inner is opened[0]


def test_an_error_opening_it_surfaces_at_the_query() -> None:
    def broken() -> RecordingKG:
        raise ConfigError("missing SciQA file x/train/answers.json")
    lazy = LazyKG("broken", broken, virtuoso=False)
    with pytest.raises(ConfigError, match="train/answers.json"):
        lazy.select("ASK {}")


def test_auto_builds_the_graph_only_when_the_endpoint_is_unreachable(settings: Settings) -> None:
    kg = build_kg(settings.with_(endpoint="http://127.0.0.1:9/sparql", cache_ttl=0), "auto")
    assert kg.name.endswith("(fallback: sciqa)") and not (settings.home / FOLDER).exists()
    rows = kg.select("PREFIX orkgc: <http://orkg.org/orkg/class/> ASK { ?d a orkgc:Dataset }")
    assert rows.boolean is True and "early 2023" in rows.caveat and (Path(settings.home) / FOLDER).is_dir()
