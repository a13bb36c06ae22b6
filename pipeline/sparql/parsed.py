"""A query parsed once: its tokens with their places, its groups (``pipeline.sparql.groups``: triple patterns,
filters, binds, VALUES, sub-selects, solution modifiers), and what the checks ask of it — the prefixed names it uses,
its numbers, strings, keywords and variables, the prefixes it declares — each read once and kept on it.

``parse`` is the one entry: every reader of a query's text, in ``pipeline.sparql`` and outside it, asks the
structure instead of splitting the text again, and a query of a usual size is parsed once however many checks read
it (tests/sparql/test_parsed.py counts one parse per query through ``Pipeline.ask``)."""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property, lru_cache
from types import MappingProxyType

from pipeline.sparql.groups import Groups, grouped
from pipeline.sparql.lexer import Token, literal_text, tokenize

CACHED_QUERY_CHARS = 4_000  # a longer query (rare: SciQA's longest is under 2,000) is parsed anew by each reader
AGGREGATES = frozenset({"COUNT", "SUM", "AVG", "MIN", "MAX", "SAMPLE", "GROUP_CONCAT"})


@dataclass(frozen=True, eq=False)
class Query:
    """A query's text and its tokens (blanks and comments dropped); the rest is read from them on first use."""

    text: str
    tokens: tuple[Token, ...]

    @cached_property
    def groups(self) -> Groups:
        """The first SELECT or ASK read into its groups (lenient: ``faults`` counts what did not read)."""
        return grouped(self.tokens)

    @cached_property
    def pnames(self) -> tuple[str, ...]:
        """Every prefixed name in order, those a PREFIX declares (``orkgp:``) included."""
        return tuple(t.text for t in self.tokens if t.kind == "pname")

    @cached_property
    def named(self) -> tuple[Token, ...]:
        """The prefixed names and IRIs the query uses, in order: a PREFIX declaration's name and IRI are no use."""
        declaring = {i + k for i, t in enumerate(self.tokens) if t.kind == "word" and t.text.upper() == "PREFIX"
                     for k in (1, 2)}
        return tuple(t for i, t in enumerate(self.tokens) if t.kind in ("pname", "iri") and i not in declaring)

    @cached_property
    def declared(self) -> Mapping[str, str]:
        """The prefixes the query declares: name (no ':') -> IRI."""
        toks = self.tokens
        out: dict[str, str] = {}
        for i, tok in enumerate(toks[:-2]):
            if tok.kind == "word" and tok.text.upper() == "PREFIX" and toks[i + 1].kind == "pname" \
                    and toks[i + 2].kind == "iri":
                out[toks[i + 1].text[:-1]] = toks[i + 2].text[1:-1]
        return MappingProxyType(out)

    @cached_property
    def numbers(self) -> tuple[str, ...]:
        """The number literals as written, in order."""
        return tuple(t.text for t in self.tokens if t.kind == "number")

    @cached_property
    def strings(self) -> tuple[str, ...]:
        """The contents of the string literals, in order."""
        return tuple(literal_text(t.text) for t in self.tokens if t.kind == "string")

    @cached_property
    def words(self) -> frozenset[str]:
        """The keywords and function names it holds (bare words, uppercased): SELECT, OPTIONAL, COUNT, STR …"""
        return frozenset(t.text.upper() for t in self.tokens if t.kind == "word")

    @property
    def aggregates(self) -> frozenset[str]:
        """The aggregate functions it calls anywhere (its answer, a sub-select, an ordering, a HAVING)."""
        return self.words & AGGREGATES

    @cached_property
    def variables(self) -> tuple[str, ...]:
        """The variable names (no '?'), in order of first appearance."""
        return tuple(dict.fromkeys(t.text[1:] for t in self.tokens if t.kind == "var"))


def parse(text: str) -> Query:
    """``text`` parsed: the same structure for every reader of a query of a usual size (cached by its text)."""
    return _parsed(text) if len(text) <= CACHED_QUERY_CHARS else _read(text)


@lru_cache(maxsize=512)
def _parsed(text: str) -> Query:
    return _read(text)


def _read(text: str) -> Query:
    return Query(text, tuple(tokenize(text)))
