"""A text as a SPARQL string literal: the one quoting function (SPARQL 1.1 grammar, STRING_LITERAL2 and ECHAR)."""
from __future__ import annotations

from collections.abc import Iterable

# a double-quoted literal may hold neither '"', '\' nor a line break unescaped; a tab is escaped too, to stay readable
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def quoted(text: str) -> str:
    """``text`` as a double-quoted SPARQL literal, escaped so that it reads back as exactly ``text``."""
    return '"' + text.translate(_ESCAPES) + '"'


XSD_STRING = "http://www.w3.org/2001/XMLSchema#string"


def label_literals(text: str, langs: Iterable[str] = ()) -> list[str]:
    """``text`` as the label literals a graph may hold it as: plain, typed ``xsd:string`` (one term in RDF 1.1, two in
    Virtuoso) and tagged with each of ``langs``."""
    return list(dict.fromkeys([quoted(text), quoted(text) + f"^^<{XSD_STRING}>"]
                              + [quoted(text) + f"@{lang}" for lang in langs]))
