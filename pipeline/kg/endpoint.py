"""A remote SPARQL endpoint (ORKG's Virtuoso by default), asked through SPARQLWrapper for SPARQL JSON results."""
from __future__ import annotations

import ast
import html
import json
import re
import socket
import ssl
import time
import urllib.error
import urllib.parse
import warnings
from http.client import HTTPException
from typing import Any

from SPARQLWrapper import JSON, POST, SPARQLWrapper
from SPARQLWrapper.SPARQLExceptions import SPARQLWrapperException

from pipeline.errors import EndpointTimeout, EndpointUnreachable, KnowledgeGraphError
from pipeline.kg.label_forms import LabelForms
from pipeline.records import Rows, Term
from pipeline.sparql.literal import XSD_STRING

NOT_RESULTS = "the endpoint returned something that is not SPARQL JSON results"
ASK_VAR = "__ASK_RETVAL"
MAX_GET = 4000  # longest encoded query sent in the URL
UNAVAILABLE = {502, 503, 504}  # a gateway in front of the endpoint says the endpoint is down
AGENT = "kgqa-bot"  # the User-Agent sent to the endpoint
RETRIES = 2  # more tries after a dropped connection or a 502/503/504; never after a timeout or a refusal
BACKOFF_S = 0.25


class NotSparqlResults(EndpointUnreachable):
    """A 200 that is no SPARQL result (a proxy's or maintenance page, a cut body): as good as no answer at all, so
    the snapshot or the answer cache may stand in for it."""


class EndpointKG:
    """Runs SELECT/ASK queries on a SPARQL endpoint; errors come out as KnowledgeGraphError, never as empty rows."""

    def __init__(self, url: str, *, timeout: float, row_cap: int, agent: str, retries: int) -> None:
        if timeout <= 0:
            raise ValueError("the endpoint timeout must be a positive number of seconds")
        self.url = url
        self.name = url
        self.timeout = timeout
        self.row_cap = row_cap
        self.agent = agent
        self.retries = retries
        self.labels = LabelForms(self._sent)  # label tests turned into index lookups, the meaning kept

    def select(self, query: str) -> Rows:
        return self._sent(self.labels.rewrite(query))

    def _sent(self, query: str) -> Rows:
        data = _ask_result(self._fetch(query))
        rows = Rows.from_json(data, source=self.url)
        if rows.boolean is not None:
            return rows
        bindings = [{var: normalise(term) for var, term in row.items()} for row in rows.rows]
        caveat = ""
        if len(bindings) > self.row_cap:
            caveat = f"only the first {self.row_cap} of {len(bindings)} rows are shown"
            bindings = bindings[:self.row_cap]
        return Rows(rows.vars, bindings, None, self.url, caveat)

    remote = True
    virtuoso = True  # ORKG's engine; any other endpoint is asked what ORKG accepts, as before

    def ping(self, timeout: float | None = None) -> bool:
        """True when the endpoint answers a trivial query (within ``timeout`` s, default the query timeout)."""
        try:
            self._fetch_once("ASK {}", timeout or self.timeout)
        except KnowledgeGraphError:
            return False
        return True

    def _fetch(self, query: str) -> dict[str, Any]:
        """Every query that gets here passed the read-only gate, so asking again after a dropped connection or a
        gateway's 502/503/504 is safe; a bounded number of times, with backoff."""
        for attempt in range(self.retries + 1):
            try:
                return self._fetch_once(query, self.timeout)
            except EndpointUnreachable as exc:
                if attempt >= self.retries or not _retryable(exc):
                    raise
                time.sleep(BACKOFF_S * 2 ** attempt)
        raise AssertionError("unreachable")

    def _fetch_once(self, query: str, timeout: float) -> dict[str, Any]:
        wrapper = SPARQLWrapper(self.url, agent=self.agent)
        if len(urllib.parse.quote_plus(query)) > MAX_GET:  # GET survives redirects; POST fits any length
            wrapper.setMethod(POST)
        wrapper.setReturnFormat(JSON)
        # set directly: setTimeout() truncates to whole seconds, and 0 means no timeout at all
        wrapper.timeout = timeout  # type: ignore[assignment]
        with warnings.catch_warnings():  # it warns about query forms it does not know; the endpoint will judge
            warnings.simplefilter("ignore")
            wrapper.setQuery(query)
        try:
            response = wrapper.query().response
            try:
                content_type = response.headers.get("Content-Type", "") or ""
                body = response.read()
            finally:
                response.close()
        except SPARQLWrapperException as exc:
            raise self._rejected(exc) from exc
        except urllib.error.HTTPError as exc:
            raise self._http_error(exc.code, _body_of(exc)) from exc
        except (urllib.error.URLError, OSError, HTTPException) as exc:
            raise self._unreachable(exc) from exc
        return _parse(body, content_type)

    def _rejected(self, exc: SPARQLWrapperException) -> KnowledgeGraphError:
        cause = exc.__context__  # SPARQLWrapper raises its errors while handling urllib's HTTPError
        code = cause.code if isinstance(cause, urllib.error.HTTPError) else 400
        return self._http_error(code, _response_of(exc))

    def _http_error(self, code: int, body: str) -> KnowledgeGraphError:
        message = summary(body)
        if code == 400:
            return KnowledgeGraphError(f"the endpoint rejected the query: {message or 'HTTP 400 Bad Request'}")
        if code in UNAVAILABLE:
            return EndpointUnreachable(f"ORKG endpoint {self.url} is unavailable (HTTP {code})"
                                       + (f": {message}" if message else ""))
        if code == 404:
            return KnowledgeGraphError(f"there is no SPARQL endpoint at {self.url} (HTTP 404)")
        what = f"the endpoint failed the query (HTTP {code})" if code >= 500 else \
            f"the endpoint refused the query (HTTP {code})"
        return KnowledgeGraphError(f"{what}: {message}" if message else what)

    def _unreachable(self, exc: BaseException) -> EndpointUnreachable:
        reason: Any = exc.reason if isinstance(exc, urllib.error.URLError) else exc
        if isinstance(reason, (socket.timeout, TimeoutError)):
            return EndpointTimeout(f"ORKG endpoint {self.url} did not answer in {self.timeout:g} s")
        if isinstance(reason, ConnectionRefusedError):
            detail = "connection refused"
        elif isinstance(reason, socket.gaierror):
            detail = "the host name could not be resolved"
        elif isinstance(reason, ssl.SSLError):
            detail = f"TLS error ({reason.reason or reason})"
        elif isinstance(reason, (ConnectionError, HTTPException)):
            detail = "the connection was closed before an answer came"
        else:
            detail = str(reason) or type(reason).__name__
        return EndpointUnreachable(f"ORKG endpoint {self.url} could not be reached: {detail}")


def _retryable(exc: EndpointUnreachable) -> bool:
    """A gateway's 502/503/504 or a connection closed mid-answer; not a timeout, a refusal or a malformed answer."""
    cause = exc.__cause__
    if isinstance(cause, urllib.error.HTTPError):
        return cause.code in UNAVAILABLE
    reason = cause.reason if isinstance(cause, urllib.error.URLError) else cause
    if isinstance(reason, (socket.timeout, TimeoutError, ConnectionRefusedError)):
        return False
    return isinstance(reason, (ConnectionResetError, ConnectionAbortedError, HTTPException))


def normalise(term: Term) -> Term:
    """A term as SPARQL 1.1 JSON has it: Virtuoso's "typed-literal" becomes "literal", xsd:string is implicit."""
    if term.get("type") == "typed-literal":
        term = {**term, "type": "literal"}
    if term.get("datatype") == XSD_STRING:
        term = {k: v for k, v in term.items() if k != "datatype"}
    return term


def _ask_result(data: dict[str, Any]) -> dict[str, Any]:
    """Virtuoso 7.2.5 answers ASK with a one-cell table ``__ASK_RETVAL`` (1/0) instead of ``{"boolean": ...}``."""
    if data.get("head", {}).get("vars") != [ASK_VAR]:
        return data
    bindings = data.get("results", {}).get("bindings", [])
    value = bindings[0].get(ASK_VAR, {}).get("value", "0") if bindings else "0"
    return {"head": {}, "boolean": value not in ("0", "false")}


def _parse(body: bytes, content_type: str) -> dict[str, Any]:
    if "html" in content_type.lower():
        raise NotSparqlResults(NOT_RESULTS)
    try:
        data = json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise NotSparqlResults(NOT_RESULTS) from exc
    if not isinstance(data, dict) or not ("boolean" in data or _has_bindings(data)):
        raise NotSparqlResults(NOT_RESULTS)
    return data


def _has_bindings(data: dict[str, Any]) -> bool:
    head, results = data.get("head"), data.get("results")
    return isinstance(head, dict) and isinstance(results, dict) and isinstance(results.get("bindings"), list)


_TAG = re.compile(r"<[^>]*>")


def summary(body: str, max_lines: int = 3, max_chars: int = 300) -> str:
    """The first lines of an error page, tags and the echoed query left out."""
    is_html = bool(re.search(r"(?i)<(html|body|head|title|h1|p|pre|div)\b", body))
    if is_html:
        body = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", body)
        body = html.unescape(_TAG.sub("\n", body))
    lines: list[str] = []
    for line in (ln.strip() for ln in body.splitlines()):
        if not line:
            if lines and not is_html:
                break  # Virtuoso follows its message with a blank line and the query it was given
            continue
        if line not in lines:  # an HTML page's title and heading often say the same
            lines.append(line)
        if len(lines) == max_lines:
            break
    text = " ".join(lines)
    return text if len(text) <= max_chars else text[:max_chars - 1] + "…"


def _response_of(exc: SPARQLWrapperException) -> str:
    """The endpoint's body, which SPARQLWrapper keeps only as a repr inside its message."""
    _, _, raw = str(exc).partition("\n\nResponse:\n")
    try:
        value = ast.literal_eval(raw) if raw else b""
    except (ValueError, SyntaxError):
        return raw
    return value.decode("utf-8", "replace") if isinstance(value, bytes) else str(value)


def _body_of(exc: urllib.error.HTTPError) -> str:
    try:
        return exc.read().decode("utf-8", "replace")
    except (OSError, HTTPException):
        return ""
