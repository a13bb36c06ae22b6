"""Pure functions on SPARQL text: tokenise, clean, declare prefixes, canonicalise (the gate: pipeline.sparql.gate)."""
from __future__ import annotations

import re
import threading
import unicodedata
from functools import lru_cache

from pipeline.sparql.lexer import Token, matches
from pipeline.sparql.parsed import parse

PREFIXES: dict[str, str] = {
    "orkgp": "http://orkg.org/orkg/predicate/",
    "orkgc": "http://orkg.org/orkg/class/",
    "orkgr": "http://orkg.org/orkg/resource/",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
    "owl": "http://www.w3.org/2002/07/owl#",
}
RDF_TYPE = PREFIXES["rdf"] + "type"
UPDATE_WORDS = frozenset({"INSERT", "DELETE", "LOAD", "CLEAR", "DROP", "CREATE", "ADD", "MOVE", "COPY", "WITH",
                          "USING"})
FORBIDDEN_WORDS = UPDATE_WORDS | {"SERVICE"}
MAX_QUERY_CHARS = 20_000  # SciQA's longest query is under 2,000; parsing a 100 kB one ties a worker up for seconds
# Virtuoso (ORKG's engine) calls its built-in and SQL procedures through these namespaces: `bif:exec('DELETE ...')`
# runs any SQL the endpoint's user may run, inside a query that is a SELECT by every other measure.
ENGINE_NAMESPACES = ("bif:", "sql:")

def typed_query(text: str) -> str:
    """A query as a person typed it, outer blanks trimmed: control, format and private-use characters dropped
    between its tokens (zero-width spaces and the like that chat clients add), never inside a string literal or an
    IRI, which are left exactly as typed (newlines and tabs kept everywhere)."""
    return "".join(m.group() if m.lastgroup in ("string", "iri") else _printable_code(m.group())
                   for m in matches(text)).strip()


def _printable_code(text: str) -> str:
    return "".join(ch for ch in text if ch in "\n\t" or unicodedata.category(ch)[0] != "C")


def squash(text: str) -> str:
    """Remove newlines, comments and runs of blanks outside string literals; literals are kept intact."""
    parts: list[str] = []
    for m in matches(text):
        piece = " " if m.lastgroup in ("ws", "comment") else m.group()
        if not (piece == " " and parts and parts[-1] == " "):
            parts.append(piece)
    return "".join(parts).strip()


_FENCE = re.compile(r"```(?:sparql|SPARQL)?\s*(.*?)(?:```|$)", re.DOTALL)
_START = re.compile(r"\b(PREFIX|SELECT|ASK|CONSTRUCT|DESCRIBE|BASE)\b", re.IGNORECASE)


def extract_query(text: str) -> str | None:
    """Pull the SPARQL out of a model's reply (code fences, a leading 'Sparql:', trailing chatter); None if none."""
    fence = _FENCE.search(text)
    if fence and _START.search(fence.group(1)):
        text = fence.group(1)
    start = _START.search(text)
    if not start:
        return None
    body = text[start.start():]
    end = _query_end(body)
    return squash(body[:end]) if end else None


def _query_end(body: str) -> int:
    """Index just past the query: the outermost '}' closing the WHERE clause and any solution modifiers after it."""
    depth, seen_open, end = 0, False, 0
    tokens = list(matches(body))
    for i, m in enumerate(tokens):
        t = m.group()
        if m.lastgroup == "punct" and t == "{":
            depth, seen_open = depth + 1, True
        elif m.lastgroup == "punct" and t == "}":
            depth -= 1
            if depth == 0:
                end = m.end()
                end = _modifiers_end(tokens, i + 1, end)
                break
    if seen_open and depth > 0:  # unbalanced: keep everything, the validator reports it
        return len(body.rstrip())
    return end


_MODIFIERS = frozenset({"GROUP", "ORDER", "BY", "HAVING", "LIMIT", "OFFSET", "ASC", "DESC", "VALUES"})


def _modifiers_end(tokens: list[re.Match[str]], i: int, end: int) -> int:
    depth = 0
    while i < len(tokens):
        m = tokens[i]
        kind, t = m.lastgroup, m.group()
        if kind in ("ws", "comment"):
            pass
        elif (depth == 0 and kind == "word" and t.upper() not in _MODIFIERS and t.upper() not in _FUNCS) or (
                depth == 0 and kind not in ("word", "var", "number", "punct")):
            break
        elif t == "(":
            depth += 1
        elif t == ")":
            depth -= 1
        elif depth == 0 and kind == "punct" and t not in ("(", ")", "{", "}"):
            break
        if kind not in ("ws", "comment"):
            end = m.end()
        i += 1
    return end


_FUNCS = frozenset({"STR", "LCASE", "UCASE", "XSD", "COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "STRLEN",
                    "UNDEF"})


def declared_prefixes(query: str) -> dict[str, str]:
    """The prefixes the query declares (name -> IRI)."""
    return dict(parse(query).declared)


def add_prefixes(query: str) -> str:
    """Declare the known prefixes a query uses but does not declare (never twice)."""
    declared = declared_prefixes(query)
    used = {name.split(":", 1)[0] for name in parse(query).pnames}
    missing = [p for p in PREFIXES if p in used and p not in declared]
    head = "".join(f"PREFIX {p}: <{PREFIXES[p]}>\n" for p in missing)
    return head + query


def forbidden_words(query: str) -> list[str]:
    """Update operations and SERVICE found outside strings, IRIs and comments."""
    return sorted(parse(query).words & FORBIDDEN_WORDS)


def engine_procedures(query: str) -> list[str]:
    """Calls into the engine's own procedures (Virtuoso's ``bif:``/``sql:``), as pnames, IRIs or declared prefixes."""
    found = set()
    for tok in parse(query).tokens:
        if (tok.kind == "pname" and (tok.text.split(":", 1)[0] + ":").lower() in ENGINE_NAMESPACES) or (
                tok.kind == "iri" and tok.text[1:-1].strip().lower().startswith(ENGINE_NAMESPACES)):
            found.add(tok.text)
    return sorted(found)


def syntax_errors(query: str) -> list[str]:
    """Parse with the SPARQL 1.1 query grammar; a list of one message on failure, empty when it parses (Oxigraph's
    quick yes first, as ``parses``; the verdicts equal the grammar's alone, tests/sparql/test_text.py)."""
    return [] if _surely_parses(query) else list(_syntax_errors(query))


def _standard_view(query: str) -> str:
    """The query as standard SPARQL sees it: Virtuoso's comma-separated projection and the escape \\' inside
    double-quoted literals (valid, but rdflib's grammar trips on it) rewritten to equivalents. Only for parsing."""
    out: list[str] = []
    in_projection = False
    for m in matches(query):
        kind, text = m.lastgroup, m.group()
        if kind == "word" and text.upper() == "SELECT":
            in_projection = True
        elif (kind == "word" and text.upper() == "WHERE") or text == "{":
            in_projection = False
        if in_projection and text == ",":
            text = " "
        elif kind == "string" and text.startswith('"'):
            text = text.replace("\\'", "'")
        out.append(text)
    return "".join(out)


_PARSER_LOCK = threading.Lock()  # rdflib's pyparsing grammar breaks for good if two threads parse at once


def parses(query: str) -> bool:
    """Whether the query parses as it is written, by the SPARQL 1.1 grammar alone (no Virtuoso leniency): what a
    stored pair must do to be adapted, since an adapted query may run on any SPARQL engine.

    Oxigraph's parser (Rust, a fraction of a millisecond) accepts most queries first; rdflib's grammar (several ms)
    decides the rest, every query with the escape ``\\'`` (which only rdflib rejects) and any naming SERVICE. On
    all 2,565 SciQA queries the verdicts equal rdflib's alone (tests/sparql/test_text.py)."""
    return _surely_parses(query) or not _syntax_errors(query, strict=True)


def _surely_parses(query: str) -> bool:
    """Oxigraph accepts the query, and nothing in it is read differently by the grammar (``\\'``, SERVICE)."""
    return "\\'" not in query and "service" not in query.lower() and _engine_accepts(query)


_ENGINE = threading.local()


def _engine_accepts(query: str) -> bool:
    """Whether Oxigraph parses (and plans) the query with our prefixes declared; nothing is evaluated: the results
    are never read, on an empty store of this thread's own."""
    import pyoxigraph

    store = getattr(_ENGINE, "store", None)
    if store is None:
        store = _ENGINE.store = pyoxigraph.Store()
    try:
        store.query(add_prefixes(query))
    except Exception:  # SyntaxError for a bad query; anything else: let the grammar decide
        return False
    return True


@lru_cache(maxsize=8192)
def _syntax_errors(query: str, strict: bool = False) -> tuple[str, ...]:
    from rdflib.plugins.sparql.parser import parseQuery  # heavy import, only when needed

    if not strict and _standard_view(query) == query:  # the grammar reads the same text: one parse serves both
        return _syntax_errors(query, strict=True)
    try:
        with _PARSER_LOCK:
            parseQuery(query if strict else _standard_view(query))
    except Exception as exc:  # pyparsing raises its own exception types
        return (f"syntax error: {_short(exc)}",)
    return ()


def _short(exc: Exception) -> str:
    text = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
    return text[:300]


def canonical(query: str) -> str:
    """A form that is equal for queries differing only in blanks, keyword case, prefixes or variable names."""
    toks = parse(query).tokens
    prefixes = dict(PREFIXES)
    prefixes.update(declared_prefixes(query))
    names: dict[str, str] = {}
    out: list[str] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.kind == "word" and tok.text.upper() in ("PREFIX", "BASE"):
            i += 3 if tok.text.upper() == "PREFIX" else 2
            continue
        out.append(_canon_token(tok, prefixes, names))
        i += 1
    cleaned = [t for j, t in enumerate(out) if not (t == "." and j + 1 < len(out) and out[j + 1] == "}")]
    return " ".join(cleaned)


def variables(query: str) -> list[str]:
    """The query's variable names (no '?'), in order of first appearance: ``canonical`` numbers them so."""
    return list(parse(query).variables)


def _canon_token(tok: Token, prefixes: dict[str, str], names: dict[str, str]) -> str:
    if tok.kind == "var":
        return names.setdefault(tok.text[1:], f"?v{len(names)}")
    if tok.kind == "pname":
        ns, _, local = tok.text.partition(":")
        return f"<{prefixes[ns]}{local}>" if ns in prefixes else tok.text
    if tok.kind == "word":
        return f"<{RDF_TYPE}>" if tok.text == "a" else tok.text.upper()
    if tok.kind == "string":
        body = tok.text[3:-3] if tok.text[:3] in ('"""', "'''") else tok.text[1:-1]
        if tok.text[0] == "'":
            body = body.replace('"', '\\"')
        return f'"{body}"'
    return tok.text


def string_literals(query: str) -> list[str]:
    """The contents of the string literals in a query, in order."""
    return list(parse(query).strings)

