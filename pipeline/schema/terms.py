"""What a graph's classes, predicates and comparisons mean, read from the stored question->SPARQL pairs: the variable
names a query binds next to a name (``?contrib orkgp:P43135 ?energy_sources`` says "energy sources") and the words of
the questions whose queries use it. Pure functions on text; which names the graph holds is
``pipeline.schema.graph``'s."""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from pipeline.matching.wording import STOPWORDS, norm_word, stem
from pipeline.records import Example
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse

GROUNDED = ("orkgp", "orkgc", "orkgr")
COMPARE = "orkgp:compareContribution"
# variable names that say nothing of what a name means (they stand for "the thing", "its label", "a paper")
_BLAND = frozenset({"s", "o", "p", "x", "y", "_", "cont", "contrib", "contribution", "contributions", "paper",
                    "papers", "label", "labels", "value", "values", "title", "lbl", "comp", "comparison"})
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")


class TermKind(str, Enum):
    CLASS = "class"
    PREDICATE = "predicate"
    COMPARISON = "comparison"


@dataclass
class Term:
    """One name of the graph and what is known of what it means."""

    name: str  # prefixed: orkgp:P32, orkgc:Paper, orkgr:R153801
    kind: TermKind
    label: str = ""  # the graph's own rdfs:label, where it has one (else the ORKG vocabulary's)
    comment: str = ""  # the ORKG vocabulary's rdfs:comment, where it has one
    phrases: Counter[str] = field(default_factory=Counter)  # variable names bound next to it, as words
    questions: list[str] = field(default_factory=list)  # stored questions whose queries use it
    parts: list[str] = field(default_factory=list)  # a comparison's contributions' predicates

    def meaning(self, phrases: int = 3) -> str:
        """A short gloss: the label, else the commonest variable phrases, else the words of a spelled-out name."""
        if self.label:
            return self.label
        said = [p for p, _ in self.phrases.most_common(phrases)]
        return "; ".join(said) or spelled(self.name)


def phrase(variable: str) -> str:
    """``?energy_sources_labels`` -> ``energy sources``; "" for a bland one (``?cont``, ``?label``)."""
    words = [w.rstrip("0123456789") for w in _CAMEL.sub("_", variable.lstrip("?$")).lower().split("_")]
    words = [w for w in words if w]
    while words and words[-1] in ("label", "labels", "lbl", "value", "values", "iri"):
        words.pop()
    if not words or all(w in _BLAND or w.isdigit() for w in words):
        return ""
    return " ".join(words)


def spelled(name: str) -> str:
    """The words of a name spelled out (``orkgp:HAS_SOURCE_CODE`` -> ``has source code``); "" for a numbered one."""
    local = name.split(":", 1)[-1]
    if re.fullmatch(r"[PRC]\d+", local):
        return ""
    return " ".join(_CAMEL.sub("_", local).replace("_", " ").lower().split())


def content_words(text: str) -> list[str]:
    """A text's words as retrieval compares them: lowercased, stemmed, stopwords and one-letter words dropped."""
    words = (norm_word(w) for w in re.split(r"[\s_\-/]+", text))
    return [stem(w) for w in words if len(w) > 1 and w not in STOPWORDS]


def _near(tokens: Sequence[Token], i: int) -> list[str]:
    """The variable phrases bound next to the name at ``tokens[i]``: the object after a predicate, the subject
    before ``a Class``/``rdf:type Class``."""
    out = []
    after = tokens[i + 1] if i + 1 < len(tokens) else None
    before = tokens[i - 1] if i > 0 else None
    if after is not None and after.kind == "var":
        out.append(phrase(after.text))
    if before is not None and (before.text == "a" or before.text == "rdf:type") and i >= 2 \
            and tokens[i - 2].kind == "var":
        out.append(phrase(tokens[i - 2].text))
    return [p for p in out if p]


def _kind(tokens: Sequence[Token], i: int) -> TermKind:
    name = tokens[i].text
    if name.startswith("orkgc:"):
        return TermKind.CLASS
    if name.startswith("orkgr:"):
        return TermKind.COMPARISON
    return TermKind.PREDICATE


def read_pairs(examples: Iterable[Example]) -> dict[str, Term]:
    """Every grounded name the stored queries use, with the variable phrases and questions around it. A resource
    (``orkgr:``) counts only as the subject of ``orkgp:compareContribution`` (a comparison)."""
    terms: dict[str, Term] = {}
    seen: defaultdict[str, set[str]] = defaultdict(set)
    for ex in examples:
        tokens = parse(ex.sparql).tokens
        for i, tok in enumerate(tokens):
            if tok.kind != "pname" or tok.text.split(":", 1)[0] not in GROUNDED:
                continue
            kind = _kind(tokens, i)
            if kind is TermKind.COMPARISON and not (i + 1 < len(tokens) and tokens[i + 1].text == COMPARE):
                continue
            term = terms.setdefault(tok.text, Term(tok.text, kind))
            term.phrases.update(_near(tokens, i))
            if ex.question not in seen[tok.text]:
                seen[tok.text].add(ex.question)
                term.questions.append(ex.question)
    return terms
