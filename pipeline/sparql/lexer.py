"""SPARQL's terminals: the one lexer every reader of a query's text goes through (``pipeline.sparql.parsed`` reads a
query with it once; the text rewrites in ``pipeline.sparql.text`` walk its matches, blanks and comments included)."""
from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

# The SPARQL 1.1 terminals (grammar section 19.8), so that a token here is a token to any SPARQL parser: a blank
# node label, a prefixed name with its escapes (`:c:d\?`), a signed number (`-1`) and a language tag are one token.
_PN_CHAR = r"[\w\-\u00B7-\uFFFF]"  # PN_CHARS (letters, digits, '_', '-', U+00B7 and above)
_PLX = r"%[0-9A-Fa-f]{2}|\\[_~.\-!$&'()*+,;=/?#@%]"
_LOCAL = rf"(?:{_PN_CHAR}|:|{_PLX})"
_TOKEN = re.compile(
    rf"""
    (?P<ws>\s+)
  | (?P<comment>\#[^\n\r]*)
  | (?P<string>\"\"\"(?:[^"\\]|\\.|"(?!""))*\"\"\"|'''(?:[^'\\]|\\.|'(?!''))*'''
               |"(?:[^"\\\n\r]|\\.)*"|'(?:[^'\\\n\r]|\\.)*')
  | (?P<iri><[^<>"{{}}|^`\\\x00-\x20]*>)
  | (?P<bnode>_:[\w\u00B7-\uFFFF](?:(?:{_PN_CHAR}|\.(?=[.\w\-\u00B7-\uFFFF]*{_PN_CHAR}))*)?)
  | (?P<var>[?$][\w\u00B7-\uFFFF]+)
  | (?P<pname>(?:[A-Za-z\u00C0-\uFFFF](?:{_PN_CHAR}|\.(?=[.\w\-\u00B7-\uFFFF]*{_PN_CHAR}))*)?:
               (?:(?!-){_LOCAL}(?:{_LOCAL}|\.(?=(?:\.|{_LOCAL})*{_LOCAL}))*)?)
  | (?P<lang>@[A-Za-z]+(?:-[A-Za-z0-9]+)*)
  | (?P<number>[+-]?(?:\d+\.\d*[eE][+-]?\d+|\d*\.\d+(?:[eE][+-]?\d+)?|\d+(?:[eE][+-]?\d+)?))
  | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>\^\^|&&|\|\||!=|<=|>=|[{{}}()\[\];,.*=<>!+\-/|^?])
  | (?P<other>.)
    """,
    re.VERBOSE | re.DOTALL,
)


@dataclass(frozen=True, slots=True)
class Token:
    """A token: its kind and text, and its place in the query (``start``/``end``), which is not part of what it is
    (two ``?x`` are equal wherever they stand)."""

    kind: str
    text: str
    start: int = field(default=0, compare=False, repr=False)
    end: int = field(default=0, compare=False, repr=False)


def tokenize(query: str) -> list[Token]:
    """Split a query into tokens with their places; blanks and comments are dropped. Read a query through
    ``pipeline.sparql.parsed.parse``, which splits it once."""
    return [Token(m.lastgroup or "other", m.group(), m.start(), m.end()) for m in _TOKEN.finditer(query)
            if m.lastgroup not in ("ws", "comment")]


def matches(query: str) -> Iterator[re.Match[str]]:
    """Every token with its place, blanks and comments included (``m.lastgroup`` is its kind)."""
    return _TOKEN.finditer(query)


def literal_text(token: str) -> str:
    """The contents of a string literal token, without its quotes."""
    return token[3:-3] if token[:3] in ('"""', "'''") else token[1:-1]
