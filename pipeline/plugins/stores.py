"""The built-in example stores: Chroma on disk under $KGQA_HOME, and a Chroma server (KGQA_CHROMA_URL)."""
from __future__ import annotations

from pipeline.errors import ConfigError
from pipeline.parts import Encoder, ExampleStore
from pipeline.registry import StoreKind, register_store
from pipeline.settings import Settings


def _disk(settings: Settings, encoder: Encoder) -> ExampleStore:
    from pipeline.store.chroma import ChromaStore
    from pipeline.store.connection import ChromaConnection

    store = ChromaStore(ChromaConnection(settings.chroma_path, None, None), encoder,
                        settings.collection)
    store.open()  # an embedded store opens now: a broken one is reported before anything starts
    return store


def _server(settings: Settings, encoder: Encoder) -> ExampleStore:
    """Connected at first use, so a bot starts (and says so) while the server is down."""
    if not settings.chroma_url:
        raise ConfigError("the chroma-server store needs KGQA_CHROMA_URL (e.g. http://chroma:8000)")
    from pipeline.store.chroma import ChromaStore
    from pipeline.store.connection import ChromaConnection

    return ChromaStore(ChromaConnection(settings.chroma_path, settings.chroma_url, settings.store_timeout), encoder,
                       settings.collection)


register_store(StoreKind("chroma-server", _server, "a Chroma server (KGQA_CHROMA_URL), shared by replicas",
                         chosen=lambda s: bool(s.chroma_url)))
register_store(StoreKind("chroma", _disk, "Chroma on disk under $KGQA_HOME/chroma"))
