"""SPARQL laid out as people write it: one clause a line, blocks indented. Built on the tokenizer, so it moves only
blanks between tokens (comments dropped) and never changes what the query means."""
from __future__ import annotations

from pipeline.sparql.text import Token, tokenize

INDENT = "  "
_OWN_LINE = frozenset({"PREFIX", "BASE", "SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "FILTER", "OPTIONAL", "MINUS",
                       "BIND", "VALUES", "UNION", "GRAPH", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET"})
_NO_SPACE_BEFORE = frozenset({")", ",", ";", ".", "^^"})


def _glued(prev: Token, tok: Token) -> bool:
    """True when ``tok`` is written right after ``prev`` with no blank."""
    if tok.kind == "lang" or prev.text == "^^" or prev.text == "(":
        return True
    if tok.text == "." and prev.kind == "number":
        return False  # "2019." would read as one decimal number
    if tok.text in _NO_SPACE_BEFORE:
        return True
    return tok.text == "(" and prev.kind == "word" and prev.text != "a"


def layout(query: str) -> str:
    """The query with one clause a line and each block indented; the same tokens in the same order."""
    lines: list[str] = []
    line: list[Token] = []
    depth = parens = 0
    continued = False  # after ';' the next predicate is indented one more step

    def flush() -> None:
        nonlocal continued
        if line:
            text = line[0].text + "".join(("" if _glued(a, b) else " ") + b.text for a, b in zip(line, line[1:]))
            lines.append(INDENT * (depth + continued) + text)
            line.clear()

    for tok in tokenize(query):
        up = tok.text.upper() if tok.kind == "word" else ""
        if parens == 0 and up in _OWN_LINE and not (up == "SELECT" and line and line[-1].text == "{"):
            flush()
            continued = False
        if tok.text == "}":
            flush()
            continued = False
            depth = max(0, depth - 1)
        line.append(tok)
        if tok.text == "(":
            parens += 1
        elif tok.text == ")":
            parens = max(0, parens - 1)
            if parens == 0 and depth > 0 and line[0].text.upper() in ("FILTER", "BIND"):
                flush()  # the filter or binding is a clause of its own
        elif tok.text == "{":
            flush()
            depth += 1
        elif tok.text == "}" or (parens == 0 and tok.text == "." and depth > 0):
            flush()
            continued = False
        elif parens == 0 and tok.text == ";":
            flush()
            continued = True
    flush()
    return "\n".join(lines)
