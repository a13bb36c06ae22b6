"""SPARQL laid out as people write it: one clause a line, blocks indented. Token-exact: only blanks between tokens
change (comments dropped), two tokens written together stay together, and a layout whose tokens differ from the
query's is never shown (the query comes back squashed instead), so it means what the query means."""
from __future__ import annotations

from dataclasses import dataclass

from pipeline.sparql.lexer import matches
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import squash

INDENT = "  "
_OWN_LINE = frozenset({"PREFIX", "BASE", "SELECT", "ASK", "CONSTRUCT", "DESCRIBE", "FILTER", "OPTIONAL", "MINUS",
                       "BIND", "VALUES", "UNION", "GRAPH", "GROUP", "ORDER", "HAVING", "LIMIT", "OFFSET"})
_NO_SPACE_BEFORE = frozenset({")", ",", ";", "."})


@dataclass(frozen=True)
class _Tok:
    kind: str
    text: str
    spaced: bool  # written after a blank (or a comment) in the query


def _lexemes(query: str) -> list[_Tok]:
    out: list[_Tok] = []
    blank = False
    for m in matches(query):
        if m.lastgroup in ("ws", "comment"):
            blank = True
            continue
        out.append(_Tok(m.lastgroup or "other", m.group(), blank))
        blank = False
    return out


def _glued(prev: _Tok, tok: _Tok) -> bool:
    """True when ``tok`` is written right after ``prev`` with no blank: as typed, or where a blank adds nothing."""
    if not tok.spaced:
        return True
    if tok.text == "." and prev.kind == "number":
        return False  # "2019 ." must not become "2019." (one decimal number to a reader)
    return tok.text in _NO_SPACE_BEFORE or prev.text == "(" or (tok.text == "(" and prev.kind == "word" \
        and prev.text != "a")


def layout(query: str) -> str:
    """The query with one clause a line and each block indented; the same tokens in the same order."""
    shown = _laid_out(query)
    return shown if parse(shown).tokens == parse(query).tokens else squash(query)


def _laid_out(query: str) -> str:
    lines: list[str] = []
    line: list[_Tok] = []
    depth = parens = 0
    continued = False  # after ';' the next predicate is indented one more step

    def flush() -> None:
        nonlocal continued
        if line:
            text = line[0].text + "".join(("" if _glued(a, b) else " ") + b.text for a, b in zip(line, line[1:]))
            if text == "." and lines and lines[-1].endswith("}"):
                lines[-1] += text  # "} ." closes a block and its pattern together
            else:
                lines.append(INDENT * (depth + continued) + text)
            line.clear()

    for tok in _lexemes(query):
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
