"""A text as a SPARQL string literal: the one quoting function (SPARQL 1.1 grammar, STRING_LITERAL2 and ECHAR)."""
from __future__ import annotations

# a double-quoted literal may hold neither '"', '\' nor a line break unescaped; a tab is escaped too, to stay readable
_ESCAPES = str.maketrans({"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"})


def quoted(text: str) -> str:
    """``text`` as a double-quoted SPARQL literal, escaped so that it reads back as exactly ``text``."""
    return '"' + text.translate(_ESCAPES) + '"'
