"""EndpointKG against Virtuoso on loopback (the engine ORKG runs on) and against scripted broken endpoints."""
from __future__ import annotations

import json
import socket
import threading
import time
import urllib.error
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import ClassVar

import pytest

from pipeline.errors import EndpointTimeout, EndpointUnreachable, KnowledgeGraphError
from pipeline.kg.endpoint import EndpointKG, summary
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sparql.text import add_prefixes
from standins import orkg_fixture as fx
from standins.fixture_questions import TEMPLATE_CASES, Case
from standins.virtuoso import VirtuosoServer
from tests.kg.test_oxigraph import canonical_rows, flat_rows


@pytest.fixture(autouse=True)
def no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """urllib would send even loopback requests through a proxy named in the environment."""
    for name in ("http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(scope="module")
def kg(virtuoso: VirtuosoServer) -> EndpointKG:
    return EndpointKG(virtuoso.endpoint, timeout=20, row_cap=1000, agent="kgqa-bot", retries=2)


@pytest.mark.parametrize("case", TEMPLATE_CASES, ids=[c.id for c in TEMPLATE_CASES])
def test_template_query_same_answer_on_virtuoso_and_pyoxigraph(kg: EndpointKG, local_kg: OxigraphKG,
                                                               case: Case) -> None:
    query = add_prefixes(case.query)
    remote, local = kg.select(query), local_kg.select(query)
    assert flat_rows(remote) == case.expected()
    assert len(remote.rows) == len(case.expected())
    assert remote.vars == local.vars
    assert canonical_rows(remote) == canonical_rows(local)  # the same terms, types included
    assert sorted(remote.flat()) == sorted(local.flat())  # unordered queries: the engines may order rows apart
    assert remote.source == kg.url and remote.caveat == ""


def test_queries_without_from_see_the_loaded_named_graph(kg: EndpointKG, local_kg: OxigraphKG) -> None:
    in_graph = kg.select(f"SELECT (COUNT(*) AS ?n) WHERE {{ GRAPH <{fx.GRAPH}> {{ ?s ?p ?o }} }}")
    orkg_only = "SELECT (COUNT(*) AS ?n) WHERE { ?s ?p ?o FILTER(STRSTARTS(STR(?s), 'http://orkg.org/')) }"
    assert in_graph.flat() == kg.select(orkg_only).flat() == [str(len(fx.fixture_triples()))]
    assert canonical_rows(kg.select(orkg_only)) == canonical_rows(local_kg.select(orkg_only))  # xsd:integer both


def test_ask_and_ping(kg: EndpointKG) -> None:
    assert kg.select("ASK { ?d a <http://orkg.org/orkg/class/Dataset> }").boolean is True
    assert kg.select("ASK { ?d a <http://orkg.org/orkg/class/Nothing> }").flat() == ["false"]
    assert kg.ping() is True


def test_row_cap(virtuoso: VirtuosoServer) -> None:
    capped = EndpointKG(virtuoso.endpoint, row_cap=5, timeout=30.0, agent="kgqa-bot", retries=2)
    rows = capped.select("SELECT ?s WHERE { ?s a <http://orkg.org/orkg/class/Model> }")
    assert len(rows.rows) == 5 and rows.caveat == f"only the first 5 of {len(fx.MODELS)} rows are shown"


def test_syntax_error_carries_virtuosos_message(kg: EndpointKG) -> None:
    with pytest.raises(KnowledgeGraphError) as err:
        kg.select("SELECT ?s WHERE { ?s ?p ?o ")
    message = str(err.value)
    assert message.startswith("the endpoint rejected the query: Virtuoso 37000 Error SP030: SPARQL compiler")
    assert "syntax error" in message and "SPARQL query:" not in message and "\n" not in message
    assert not isinstance(err.value, EndpointUnreachable)


def test_nothing_listening_is_unreachable_at_once() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused, and no one can take the port
        url = f"http://127.0.0.1:{sock.getsockname()[1]}/sparql"
        started = time.monotonic()
        with pytest.raises(EndpointUnreachable, match=f"ORKG endpoint {url} could not be reached: connection refused"):
            EndpointKG(url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select("SELECT * WHERE { ?s ?p ?o }")
        assert time.monotonic() - started < 2
        assert EndpointKG(url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).ping() is False


def test_unresolvable_host_message() -> None:  # no DNS here: the conversion is checked on the error urllib raises
    exc = urllib.error.URLError(socket.gaierror(-2, "Name or service not known"))
    kg = EndpointKG("https://orkg.example/triplestore", timeout=30.0, row_cap=1000, agent="kgqa-bot", retries=2)
    err = kg._unreachable(exc)
    assert str(err) == "ORKG endpoint https://orkg.example/triplestore could not be reached: " \
                       "the host name could not be resolved"


class Scripted(BaseHTTPRequestHandler):
    """Answers by path: each path is one way an endpoint (or what stands in front of it) goes wrong."""

    release = threading.Event()
    HTML = b"<html><head><title>Oops</title><style>p {color: red}</style></head><body><h1>Oops</h1>" \
           b"<p>Something went &amp; wrong.</p></body></html>"
    ROUTES: ClassVar[dict[str, tuple[int, str, bytes]]] = {
        "/html": (200, "text/html; charset=utf-8", HTML),
        "/badjson": (200, "application/sparql-results+json", b'{"head": {"vars": ["s"]}, "results": '),
        "/notresults": (200, "application/json", b'{"message": "hello"}'),
        "/400html": (400, "text/html", b"<html><body><h1>Bad Request</h1><p>Query parse error near 'WHERE'</p>"
                                       b"</body></html>"),
        "/500": (500, "text/plain", b"Virtuoso 42000 Error The estimated execution time 900 (sec) exceeds the "
                                    b"limit of 300 (sec).\n\nSPARQL query:\nSELECT ..."),
        "/503": (503, "text/html", HTML),
        "/404": (404, "text/html", HTML),
    }

    def do_GET(self) -> None:
        self.answer(self.path.partition("?")[0], "GET")

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.answer(self.path, "POST")

    def answer(self, path: str, method: str) -> None:
        if path == "/hang":
            self.release.wait(timeout=30)  # until the test is over; bounded so a stuck test cannot hang the run
            return
        if path == "/drop":
            self.close_connection = True
            return
        if path == "/method":  # a valid result naming how the query came
            binding = {"m": {"type": "literal", "value": method}}
            route = (200, "application/sparql-results+json",
                     json.dumps({"head": {"vars": ["m"]}, "results": {"bindings": [binding]}}).encode())
        else:
            route = self.ROUTES[path]
        status, content_type, body = route
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def scripted() -> Iterator[str]:
    Scripted.release.clear()
    server = ThreadingHTTPServer(("127.0.0.1", 0), Scripted)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    Scripted.release.set()
    server.shutdown()
    server.server_close()
    thread.join(timeout=5)


QUERY = "SELECT * WHERE { ?s ?p ?o } LIMIT 1"


@pytest.mark.parametrize("path", ["/html", "/badjson", "/notresults"])
def test_not_sparql_json_is_an_error_not_empty_rows(scripted: str, path: str) -> None:
    with pytest.raises(KnowledgeGraphError, match="^the endpoint returned something that is not SPARQL JSON results$"):
        EndpointKG(scripted + path, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)


@pytest.mark.parametrize(("path", "error", "message"), [
    ("/400html", KnowledgeGraphError, "the endpoint rejected the query: Bad Request Query parse error near 'WHERE'"),
    ("/500", KnowledgeGraphError, "the endpoint failed the query (HTTP 500): Virtuoso 42000 Error The estimated "
                                  "execution time 900 (sec) exceeds the limit of 300 (sec)."),
    ("/503", EndpointUnreachable, "ORKG endpoint {url} is unavailable (HTTP 503): Oops Something went & wrong."),
    ("/404", KnowledgeGraphError, "there is no SPARQL endpoint at {url} (HTTP 404)"),
    ("/drop", EndpointUnreachable, "ORKG endpoint {url} could not be reached: the connection was closed before an "
                                   "answer came"),
])
def test_http_errors(scripted: str, path: str, error: type[Exception], message: str) -> None:
    url = scripted + path
    with pytest.raises(error) as err:
        EndpointKG(url, timeout=5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)
    assert str(err.value) == message.format(url=url)
    assert isinstance(err.value, KnowledgeGraphError)


def test_short_queries_go_by_get_and_long_ones_by_post(scripted: str) -> None:
    kg = EndpointKG(scripted + "/method", timeout=5, row_cap=1000, agent="kgqa-bot", retries=2)
    assert kg.select(QUERY).flat() == ["GET"]
    long_query = "SELECT * WHERE { ?s ?p ?o FILTER(?o IN (" + ", ".join(f'"{i}"' for i in range(800)) + ")) }"
    assert kg.select(long_query).flat() == ["POST"]


def test_a_hanging_endpoint_times_out(scripted: str) -> None:
    url = scripted + "/hang"
    started = time.monotonic()
    with pytest.raises(EndpointTimeout, match=f"^ORKG endpoint {url} did not answer in 0.5 s$"):
        EndpointKG(url, timeout=0.5, row_cap=1000, agent="kgqa-bot", retries=2).select(QUERY)
    assert time.monotonic() - started < 2.5


def test_summary_keeps_the_first_lines_only() -> None:
    first = "Virtuoso 37000 Error SP030: SPARQL compiler, line 3: syntax error at 'x'"
    assert summary(first + "\n\nSPARQL query:\nSELECT x") == first
    assert summary("x" * 1000).endswith("…") and len(summary("x" * 1000)) == 300
