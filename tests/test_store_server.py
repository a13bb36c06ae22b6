"""Server mode: the example store in a real Chroma server shared by several clients (bot replicas)."""
from __future__ import annotations

from collections.abc import Iterator

import pytest

from pipeline.factory import build_index, build_store
from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store import ChromaStore, open_client, team_id
from tests.fakes import HashEncoder
from tests.servers.chroma import ChromaServer


@pytest.fixture(scope="module")
def chroma() -> Iterator[ChromaServer]:
    with ChromaServer() as srv:
        yield srv


def test_index_fills_the_server_and_a_second_replica_finds_team_pairs(chroma: ChromaServer, settings: Settings,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings.with_(chroma_url=chroma.url, index_splits="valid", collection="server-test")
    monkeypatch.setattr("pipeline.factory._encoder", lambda name: HashEncoder())
    first, second = build_store(settings), build_store(settings)
    assert build_index(settings, first) == (True, 257)
    assert build_index(settings, second) == (False, 257)  # the other replica sees it built
    question = "Which research papers evaluate on the CIFAR-10 dataset with ResNet?"
    first.add([Example(team_id(question), question, "SELECT ?p WHERE { ?p ?x ?y }", "", "team")])
    top = second.search(question, 1)[0]
    assert top.example.source == "team" and top.example.question == question and top.score > 0.99
    assert not (settings.home / "chroma").exists()  # nothing went to the embedded store


def test_an_unreachable_server_is_a_clear_error(settings: Settings) -> None:
    from pipeline.errors import StoreError

    with pytest.raises(StoreError, match="cannot be opened"):
        ChromaStore(open_client(url="http://127.0.0.1:9"), HashEncoder()).search("q", 1)
