"""The built-in knowledge graphs: an endpoint URL, an RDF file or folder, the live endpoint with SciQA's graph behind
it, the store `kgqa kg load` built, the graph rebuilt from SciQA, and SciQA's recorded answers."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.parts import KnowledgeGraph
from pipeline.registry import KGKind, register_kg
from pipeline.sciqa import sciqa_at, sciqa_for
from pipeline.settings import Settings


def _auto(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.fallback import FallbackKG
    from pipeline.kg.lazy import LazyKG

    # built at the first query the endpoint cannot answer, not when the bot starts
    return FallbackKG(_endpoint(settings, settings.endpoint),
                      LazyKG("sciqa", lambda: _sciqa_graph(settings), virtuoso=False))  # SPARQL 1.1, as OxigraphKG


def _local(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.oxigraph import OxigraphKG

    if not settings.kg_store.is_dir():
        raise ConfigError(f"no local store at {settings.kg_store}: load a dump with `kgqa kg load FILE|URL`")
    return OxigraphKG(None, store_path=settings.kg_store, row_cap=settings.row_cap)


def _rdf(settings: Settings, target: str) -> KnowledgeGraph:
    from pipeline.kg.oxigraph import OxigraphKG

    return OxigraphKG(Path(target).expanduser(), row_cap=settings.row_cap)


def _is_url(target: str) -> bool:
    return target.startswith(("http://", "https://"))


def _endpoint(settings: Settings, url: str) -> KnowledgeGraph:
    from pipeline.kg.endpoint import AGENT, RETRIES, EndpointKG

    live = EndpointKG(url, timeout=settings.kg_timeout, row_cap=settings.row_cap, agent=AGENT, retries=RETRIES)
    if settings.cache_ttl <= 0:
        return live
    from pipeline.kg.cache import CachedKG
    from pipeline.state.answers.base import Answers
    from pipeline.state.answers.sqlite import SqliteAnswers
    from pipeline.state.link import build_link

    link = build_link(settings)
    answers: Answers
    if link is not None:
        from pipeline.state.answers.redis import KEEP_S, RedisAnswers

        answers = RedisAnswers(link, settings.cache_max, KEEP_S)
    else:
        answers = SqliteAnswers(settings.home / "answer-cache.sqlite3", settings.cache_max)
    return CachedKG(live, answers, settings.cache_ttl)


def _snapshot(settings: Settings) -> KnowledgeGraph:
    return _snapshot_for(settings.sciqa_dir, settings.sciqa_cache, settings.home)


@lru_cache(maxsize=2)
def _snapshot_for(root: Path | None, cache: Path, home: Path) -> KnowledgeGraph:
    from pipeline.kg.snapshot import SnapshotKG

    return SnapshotKG(sciqa_at(root, cache).all(), home / "derived" / "snapshot.json")


def _sciqa_graph(settings: Settings) -> KnowledgeGraph:
    return _sciqa_graph_for(sciqa_for(settings).root, settings.home, settings.row_cap)


@lru_cache(maxsize=2)
def _sciqa_graph_for(root: Path, home: Path, row_cap: int) -> KnowledgeGraph:
    """The graph rebuilt from SciQA, built under ``home`` once (again when SciQA's files change)."""
    from pipeline.kg.sciqa_graph.store import open_graph

    return open_graph(root, home, row_cap)


register_kg(KGKind("url", lambda s, target: _endpoint(s, target), "an endpoint URL", accepts=_is_url))
register_kg(KGKind("rdf", _rdf, "an RDF file or folder", accepts=lambda target: Path(target).expanduser().exists()))
register_kg(KGKind("auto", _auto, "the live endpoint (KGQA_ENDPOINT), the graph rebuilt from SciQA when it cannot "
                                  "be reached"))
register_kg(KGKind("local", _local, "the store `kgqa kg load` built under $KGQA_HOME/kg"))
register_kg(KGKind("sciqa", lambda s, target: _sciqa_graph(s), "an RDF graph rebuilt from SciQA's queries and answers"))
register_kg(KGKind("snapshot", lambda s, target: _snapshot(s), "SciQA's answers recorded from ORKG in early 2023"))
