"""Server mode: the example store in a real Chroma server shared by several clients (bot replicas), and what
happens when that server is down, stops answering mid-session or never answers at all."""
from __future__ import annotations

import io
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.errors import StoreUnavailable
from pipeline.factory import build_index, build_pipeline, build_store
from pipeline.generators.adapter import AdapterGenerator
from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, team_id
from pipeline.store.connection import ChromaConnection, open_client
from pipeline.store.team import export_pairs, import_pairs
from standins.chroma import ChromaServer
from standins.fakes import HashEncoder, RecordingKG
from standins.sparql_endpoint import refused_url
from standins.tcp import HoldingProxy


@pytest.fixture(scope="module")
def chroma() -> Iterator[ChromaServer]:
    with ChromaServer() as srv:
        yield srv


def test_index_fills_the_server_and_a_second_replica_finds_team_pairs(chroma: ChromaServer, settings: Settings,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    settings = settings.with_(chroma_url=chroma.url, index_splits="valid", collection="server-test")
    monkeypatch.setattr("pipeline.factory._encoder", lambda *_: HashEncoder())
    first, second = build_store(settings), build_store(settings)
    assert build_index(settings, first) == (True, 257)
    assert build_index(settings, second) == (False, 257)  # the other replica sees it built
    question = "Which research papers evaluate on the CIFAR-10 dataset with ResNet?"
    first.add([Example(team_id(question), question, "SELECT ?p WHERE { ?p ?x ?y }", "", "team")])
    top = second.search(question, 1)[0]
    assert top.example.source == "team" and top.example.question == question and top.score > 0.99
    assert not (settings.home / "chroma").exists()  # nothing went to the embedded store


def returns(call: Callable[[], Any], within: float = 60.0) -> Any:
    """``call()``'s result or exception; fails the test instead of hanging it when ``call`` never returns."""
    out: dict[str, Any] = {}

    def run() -> None:
        try:
            out["value"] = call()
        except Exception as exc:
            out["error"] = exc

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(within)
    assert not thread.is_alive(), f"still waiting after {within} s: the call has no timeout"
    return out.get("error", out.get("value"))


def test_an_unreachable_server_is_a_clear_error_naming_it() -> None:
    with refused_url() as endpoint:
        url = endpoint.removesuffix("/sparql")
        with pytest.raises(StoreUnavailable, match=rf"the example store at {url} could not be reached .*"
                                                   "check that the Chroma server is running"):
            ChromaConnection(None, url, 2).open()


def test_a_server_that_never_answers_is_given_up_after_the_timeout_when_opening() -> None:
    with HoldingProxy(None) as silent:
        store = ChromaStore(ChromaConnection(None, silent.url, 1), HashEncoder(), "examples")
        err = returns(lambda: store.search("q", 1))
        tried = silent.connections
        again = returns(store.count)  # right after: the same answer at once, not another wait in line
        assert tried >= 1 and silent.connections == tried
    assert isinstance(err, StoreUnavailable) and isinstance(again, StoreUnavailable)
    assert str(err) == str(again) == \
        f"the example store at {silent.url} did not answer within 1 s (opening); try again shortly"


def test_a_hanging_server_holds_one_opening_attempt_not_one_per_question() -> None:
    before = set(threading.enumerate())
    with HoldingProxy(None) as silent:
        connection = ChromaConnection(None, silent.url, 0.3)
        for _ in range(3):
            assert isinstance(returns(connection.open), StoreUnavailable)
            time.sleep(0.3)  # past the remembered failure: the next call waits again
        openers = [t for t in set(threading.enumerate()) - before if t.name == "kgqa-chroma-open"]
        assert silent.connections == 1 and len(openers) == 1


def test_a_store_whose_server_comes_back_connects_on_the_next_question(chroma: ChromaServer, settings: Settings,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    host, port = chroma.url.removeprefix("http://").split(":")
    with HoldingProxy((host, int(port))) as proxy:
        proxy.hold()
        monkeypatch.setattr("pipeline.factory._encoder", lambda *_: HashEncoder())
        store = build_store(settings.with_(chroma_url=proxy.url, store_timeout=0.5, collection="late-test"))
        assert isinstance(returns(store.count), StoreUnavailable)
        proxy.release()
        time.sleep(0.5)  # the remembered failure lasts one timeout
        question = "Which papers use the Zebra-7 benchmark?"
        store.add([Example(team_id(question), question, "SELECT ?p WHERE { ?p ?x ?y }", "", "team")])
        assert store.count() == 1 and store.search(question, 1)[0].example.question == question


@pytest.fixture
def held(chroma: ChromaServer, settings: Settings, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[Any, ...]]:
    """The valid split indexed in the real server, reached through a proxy that can stop answering; one team pair."""
    host, port = chroma.url.removeprefix("http://").split(":")
    with HoldingProxy((host, int(port))) as proxy:
        settings = settings.with_(chroma_url=proxy.url, store_timeout=1.0, index_splits="valid",
                                  collection="held-test", retrieval="plain")
        monkeypatch.setattr("pipeline.factory._encoder", lambda *_: HashEncoder())
        store = build_store(settings)
        build_index(settings, store, rebuild=True)
        question = "Which papers use the Zebra-7 benchmark?"
        store.add([Example(team_id(question), question, "SELECT ?p WHERE { ?p ?x ?y }", "", "team")])
        yield proxy, store, settings, question


def test_a_server_that_stops_answering_is_a_timeout_each_time_and_recovers_after(held: tuple[Any, ...]) -> None:
    proxy, store, _, question = held
    proxy.hold()
    for call in (lambda: store.search(question, 1), store.count, store.examples, store.fingerprint):
        err = returns(call)
        assert isinstance(err, StoreUnavailable), err
        assert f"the example store at {proxy.url} did not answer within 1 s" in str(err)
    proxy.release()
    top = store.search(question, 1)[0]
    assert top.example.question == question and store.count() == 258


def test_a_rebuild_during_an_outage_stops_and_loses_no_team_pair(held: tuple[Any, ...]) -> None:
    proxy, store, settings, question = held
    proxy.hold()
    err = returns(lambda: build_index(settings, store, rebuild=True))
    assert isinstance(err, StoreUnavailable) and "did not answer within 1 s" in str(err)
    proxy.release()
    assert [e.question for e in store.examples("team")] == [question] and store.count() == 258
    assert build_index(settings, store, rebuild=True) == (True, 258)  # the pair is carried over once it is back


def test_the_pipeline_answers_an_outage_with_what_happened_and_health_shows_it(held: tuple[Any, ...]) -> None:
    proxy, store, _, question = held
    pipe = Pipeline(Parts(store, AdapterGenerator(0.5), RecordingKG()),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, deadline=30, workers=4))
    proxy.hold()
    answer = returns(lambda: pipe.ask(question))
    assert answer.error.startswith(f"the example store at {proxy.url} did not answer within 1 s")
    assert answer.explanation.startswith("I could not write a query: the example store") and not answer.sparql
    health = pipe.health(timeout=3)["store"]
    assert health["ok"] is False and "did not answer within 1 s" in health["error"]
    proxy.release()
    assert pipe.ask(question).sparql.startswith("SELECT ?p")


def test_a_bot_starts_while_its_chroma_server_is_down_and_says_so(settings: Settings) -> None:
    with refused_url() as endpoint:
        url = endpoint.removesuffix("/sparql")
        pipe = build_pipeline(settings.with_(chroma_url=url, store_timeout=1.0, kg="snapshot"), generator="adapter")
        answer = pipe.ask("Which model has achieved the highest Accuracy score on the Story Cloze Test dataset?")
    assert f"the example store at {url} could not be reached" in answer.explanation
    assert "check that the Chroma server is running" in answer.explanation


def test_team_pairs_exported_from_an_embedded_store_move_into_the_server(chroma: ChromaServer, settings: Settings,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    question = "Which papers use the Zebra-7 benchmark?"
    embedded = ChromaStore(open_client(settings.home / "embedded"), HashEncoder(), "before-server")
    embedded.add([Example(team_id(question), question, "ASK { ?s ?p ?o }", "", "team")])
    backup = io.StringIO()
    assert export_pairs(embedded, backup) == 1
    monkeypatch.setattr("pipeline.factory._encoder", lambda *_: HashEncoder())
    server = settings.with_(chroma_url=chroma.url, collection="migrated")
    assert import_pairs(build_store(server), backup.getvalue().splitlines(), max_question_chars=2000).added == 1
    found = build_store(server).search(question, 1)[0].example  # another replica sees it
    assert (found.question, found.sparql, found.source) == (question, "ASK { ?s ?p ?o }", "team")


def test_the_private_session_our_timeout_is_set_on_is_still_there(chroma: ChromaServer) -> None:
    """ChromaConnection sets the timeout of every server call on chromadb's private ``client._server._session``.
    A chromadb release that renames it must fail here, loudly, rather than leave server calls without a timeout."""
    import chromadb
    import httpx

    client = ChromaConnection(None, chroma.url, 3.0).open()
    session = getattr(getattr(client, "_server", None), "_session", None)
    assert isinstance(session, httpx.Client), (
        f"chromadb {chromadb.__version__} has no client._server._session (an httpx.Client): update "
        "pipeline/store/connection.py, which sets the Chroma server timeout there")
    assert session.timeout == httpx.Timeout(3.0)
