"""Where labels come from: a graph's own triples by SPARQL (paged, cached on disk with a TTL), or the snapshot."""
from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.errors import EndpointUnreachable
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.sources import LabelSource, sparql_labels
from pipeline.parts import KGWrapper
from pipeline.records import Rows
from pipeline.sciqa import SciQA
from standins.orkg_fixture import DATASETS, METRICS, MODELS, ORKGC, ORKGR, PAPERS, RDF_TYPE, RDFS_LABEL, write_ntriples


class Counting:
    """A KG that counts the queries it is asked."""

    virtuoso = False

    def __init__(self, inner: OxigraphKG) -> None:
        self.inner, self.name, self.calls, self.last = inner, inner.name, 0, ""

    def select(self, query: str) -> Rows:
        self.calls, self.last = self.calls + 1, query
        return self.inner.select(query)


def test_a_graphs_labels_by_kind_from_one_query_a_kind_paged_by_key(local_kg: OxigraphKG, tmp_path: Path) -> None:
    kg = Counting(local_kg)
    index = LabelSource(kg, tmp_path, page=7, ttl=604800.0).index()
    assert sorted(index.labels("dataset")) == sorted(DATASETS)
    assert sorted(index.labels("metric")) == sorted(METRICS)
    assert sorted(index.labels("model")) == sorted(MODELS)
    assert len(index.labels("paper")) == len(PAPERS)
    assert kg.calls == sum(n // 7 + 1 for n in index.counts().values())  # pages of 7 rows until a short one, a kind
    assert "OFFSET" not in kg.last and "ORDER BY ?label LIMIT 7" in kg.last  # no page sorts more than a page


def test_labels_are_cached_on_disk_until_the_ttl_or_a_refresh(local_kg: OxigraphKG, tmp_path: Path) -> None:
    kg = Counting(local_kg)
    LabelSource(kg, tmp_path, ttl=604800.0, page=1000).index()
    fetched = kg.calls
    cached = LabelSource(kg, tmp_path, ttl=3600, page=1000)
    assert sorted(cached.index().labels("dataset")) == sorted(DATASETS) and kg.calls == fetched
    assert cached.path is not None and json.loads(cached.path.read_text())["kg"] == kg.name
    os.utime(cached.path, (time.time() - 7200, time.time() - 7200))
    LabelSource(kg, tmp_path, ttl=3600, page=1000).index()
    assert kg.calls == 2 * fetched
    cached.index(refresh=True)
    assert kg.calls == 3 * fetched


def test_an_unreachable_graph_leaves_names_unchecked_and_is_not_asked_again_at_once(tmp_path: Path) -> None:
    class Down:
        name, calls, virtuoso = "http://127.0.0.1:9/sparql", 0, False

        def select(self, query: str) -> Rows:
            self.calls += 1
            raise EndpointUnreachable("connection refused")

    kg = Down()
    source = LabelSource(kg, tmp_path, ttl=604800.0, page=1000)
    assert source.available() is None and source.available() is None and kg.calls == 1


def test_the_snapshot_knows_its_labels_from_recorded_queries_and_answers(sciqa: SciQA) -> None:
    index = LabelSource(SnapshotKG(sciqa.all()), None, ttl=604800.0, page=1000).index()
    assert {"SQuAD1.1", "Story Cloze Test"} <= set(index.labels("dataset"))
    assert "Accuracy" in index.labels("metric") and index.counts()["model"] > 100


def test_every_gold_label_of_valid_and_test_is_kept_as_it_is(sciqa: SciQA) -> None:
    from pipeline.names.check import check_names

    index = LabelSource(SnapshotKG(sciqa.all()), None, ttl=604800.0, page=1000).index()
    changed = [r.id for r in sciqa.split("valid") + sciqa.split("test")
               if check_names(r.sparql, index).sparql != r.sparql]
    assert changed == []


def test_a_slow_first_fetch_goes_on_in_the_background(local_kg: OxigraphKG, tmp_path: Path) -> None:
    import threading

    gate = threading.Event()

    class Slow(Counting):
        def select(self, query: str) -> Rows:
            gate.wait(10)
            return super().select(query)

    source = LabelSource(Slow(local_kg), tmp_path, ttl=604800.0, page=1000)
    assert source.available(wait=0.01) is None  # the question goes on unchecked
    gate.set()
    deadline = time.monotonic() + 10
    while source.available(wait=0.1) is None and time.monotonic() < deadline:
        pass
    index = source.available(wait=0)
    assert index is not None and sorted(index.labels("dataset")) == sorted(DATASETS)


def test_the_wait_for_a_slow_first_fetch_counts_from_its_start(local_kg: OxigraphKG, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """The intent and names steps of one question, and the questions during a long fetch, wait once in all."""
    import threading

    gate = threading.Event()

    class Slow(Counting):
        def select(self, query: str) -> Rows:
            gate.wait(10)
            return super().select(query)

    now = [100.0]
    monkeypatch.setattr(time, "monotonic", lambda: now[0])
    source = LabelSource(Slow(local_kg), tmp_path, ttl=604800.0, page=1000)
    try:
        assert source.available(wait=0.01) is None
        loading, waits = source._loading, []
        assert loading is not None
        real_join = loading.join
        monkeypatch.setattr(loading, "join", lambda timeout=None: waits.append(timeout) or real_join(0))
        now[0] += 3.0  # three seconds into the fetch
        assert source.available(wait=5.0) is None and source.available(wait=2.0) is None
        assert waits == [2.0, 0.0]  # what is left of 5 s from the start; nothing of 2 s
    finally:
        gate.set()


class Front(KGWrapper):
    """A wrapper in front of a graph (as the answer cache and the lazy graph are), counting the queries sent."""

    def __init__(self, inner: OxigraphKG) -> None:
        super().__init__(inner)
        self.calls = 0

    def select(self, query: str) -> Rows:
        self.calls, self.last = self.calls + 1, query
        return self.inner.select(query)


def test_a_local_store_behind_wrappers_lists_its_labels_from_its_indexes(local_kg: OxigraphKG,
                                                                         tmp_path: Path) -> None:
    kg = Front(local_kg)
    index = LabelSource(kg, tmp_path, ttl=604800.0, page=7).index()
    assert kg.calls == 0  # no paged query, no sort over every label
    assert sorted(index.labels("dataset")) == sorted(DATASETS) and len(index.labels("paper")) == len(PAPERS)
    assert index.pairs() == set(sparql_labels(local_kg, 1000))


class FailsAt:
    """A graph whose endpoint goes down at its ``down``-th query (counted from 1), until ``down`` is cleared."""

    virtuoso = False

    def __init__(self, inner: OxigraphKG, down: int | None) -> None:
        self.inner, self.name, self.down = inner, "http://127.0.0.1:9/sparql", down
        self.pages: list[tuple[str, str]] = []  # (class, the label the page starts after)

    def select(self, query: str) -> Rows:
        found = re.search(r'orkgc:(\w+) ;.*FILTER\(\?label > "((?:[^"\\]|\\.)*)"\)', query)
        assert found is not None
        self.pages.append((found[1], found[2]))
        if self.down is not None and len(self.pages) >= self.down:
            raise EndpointUnreachable("the endpoint went away")
        return self.inner.select(query)


def test_a_fetch_that_stops_halfway_resumes_from_the_last_page_kept(local_kg: OxigraphKG, tmp_path: Path) -> None:
    kg = FailsAt(local_kg, down=3)
    source = LabelSource(kg, tmp_path, ttl=604800.0, page=7)
    with pytest.raises(EndpointUnreachable):
        source.index()
    first, second, failed = kg.pages
    assert first == ("Dataset", "") and second == ("Dataset", sorted(DATASETS)[6])  # 12 datasets: two pages
    assert failed == ("Model", "")  # then the next kind
    kg.down, kg.pages = None, []
    index = source.index()
    assert kg.pages[0] == failed  # the two pages kept are not asked again
    assert index.pairs() == set(sparql_labels(local_kg, 1000))
    assert source.path is not None and not source.path.with_suffix(".partial.jsonl").exists()
    kg.pages = []
    LabelSource(kg, tmp_path, ttl=604800.0, page=7).index()
    assert kg.pages == []  # complete and cached


def test_a_partial_fetch_of_another_format_is_fetched_again(local_kg: OxigraphKG, tmp_path: Path) -> None:
    kg = FailsAt(local_kg, down=None)
    source = LabelSource(kg, tmp_path, ttl=604800.0, page=7)
    assert source.path is not None
    source.path.parent.mkdir(parents=True, exist_ok=True)
    source.path.with_suffix(".partial.jsonl").write_text('{"next": 2, "pairs": [["Old", "dataset"]]}\n')
    assert source.index().pairs() == set(sparql_labels(local_kg, 1000)) and kg.pages[0] == ("Dataset", "")


def test_more_labels_than_virtuoso_sorts_at_once_are_all_read(tmp_path: Path) -> None:
    """Virtuoso refuses an ORDER BY over more than 10,000 rows (OFFSET + LIMIT): a graph of 12,000 dataset labels
    (non-ASCII, typed and English among them) is read in full, as the local store lists it."""
    from pipeline.kg.endpoint import EndpointKG
    from standins.virtuoso import VirtuosoServer

    names = [f"Set {i}" for i in range(11_000)] + [f"Ensemble n°{i} – é" for i in range(500)] + \
        [f"集合 {i}" for i in range(500)]
    forms = ("", "^^<http://www.w3.org/2001/XMLSchema#string>", "@en")
    path = tmp_path / "many.nt"
    path.write_text("".join(f'<{ORKGR}D{i}> <{RDF_TYPE}> <{ORKGC}Dataset> .\n<{ORKGR}D{i}> <{RDFS_LABEL}> '
                            f'"{name}"{forms[i % 3]} .\n' for i, name in enumerate(names)), encoding="utf-8")
    with VirtuosoServer(path) as server:
        endpoint = EndpointKG(server.endpoint, timeout=60, row_cap=1000, agent="kgqa-test", retries=1)
        index = LabelSource(endpoint, tmp_path, ttl=604800.0, page=1000).index()
    assert sorted(index.labels("dataset")) == sorted(names)
    assert index.pairs() == set(OxigraphKG(path, row_cap=1000).label_pairs())


def test_a_refresh_grows_the_index_in_place_and_rebuilds_it_when_labels_are_gone(tmp_path: Path) -> None:
    write_ntriples(tmp_path / "g.nt")
    kg = OxigraphKG(tmp_path / "g.nt", row_cap=1000)
    source = LabelSource(kg, tmp_path, ttl=604800.0, page=1000)
    first = source.index()
    assert first.find("SQuAD1.1 v17", "dataset").chosen is None
    new = ox.NamedNode("http://orkg.org/orkg/resource/R999999")
    kg.store.add(ox.Quad(new, ox.NamedNode(RDF_TYPE), ox.NamedNode(ORKGC + "Dataset")))
    kg.store.add(ox.Quad(new, ox.NamedNode(RDFS_LABEL), ox.Literal("SQuAD1.1 v17")))
    grown = source.index(refresh=True)
    assert grown is first and grown.find("SQuAD1.1 v17", "dataset").chosen == "SQuAD1.1 v17"
    kg.store.remove(ox.Quad(new, ox.NamedNode(RDFS_LABEL), ox.Literal("SQuAD1.1 v17")))
    rebuilt = source.index(refresh=True)
    assert rebuilt is not first and "SQuAD1.1 v17" not in rebuilt.labels("dataset")
    assert sorted(rebuilt.labels("dataset")) == sorted(DATASETS)
