"""Vocabulary the model cannot invent: a grammar whose only prefixed names are the graph's own (and the few standard
ones a query needs: ``rdfs:label``, ``rdf:type``, ``xsd:`` casts), with SPARQL's words, variables, numbers, strings and
punctuation around them; full IRIs (``<http://…>``) only in the prefix declarations of the known namespaces. The same
language two ways: llama.cpp's GBNF (the local server's ``grammar``) and a regular expression (TGI's ``grammar`` of
type ``regex``). It is a token-level grammar — brackets are not balanced here; the parser checks that later — so it
stays regular and cheap to decode with."""
from __future__ import annotations

import re
from collections.abc import Iterable

from pipeline.sparql.text import PREFIXES

STANDARD = ("rdfs:label", "rdf:type", "owl:sameAs", "xsd:string", "xsd:integer", "xsd:int", "xsd:float",
            "xsd:double", "xsd:decimal", "xsd:date", "xsd:dateTime", "xsd:gYear", "xsd:boolean")
PUNCTUATION = ("^^", "&&", "||", "!=", "<=", ">=", "{", "}", "(", ")", "[", "]", ".", ";", ",", "*", "=", "<", ">",
               "!", "+", "-", "/")
REFUSAL = "I cannot"  # a reply that explains instead of querying starts so, and holds no name or brace
_NAME = re.compile(r"^[A-Za-z][\w-]*:[\w-]+$")


def allowed_names(graph: Iterable[str], extra: Iterable[str] = ()) -> list[str]:
    """The prefixed names a query may write: the graph's, ``extra`` (a question's linked resources) and STANDARD;
    anything that is not a plain prefixed name is left out (it could not be written safely in a grammar)."""
    return sorted({n for n in (*graph, *extra, *STANDARD) if _NAME.match(n)})


def _gbnf_literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def gbnf(names: Iterable[str]) -> str:
    """llama.cpp's GBNF for a query that writes only ``names`` as prefixed names (or one refusal line)."""
    listed = sorted(set(names))
    decls = " | ".join(f'"{p}:" sp "<{iri}>"' for p, iri in PREFIXES.items())
    rules = {
        "root": 'fence? sp (refusal | chunk* wordy?) sp unfence?',
        "fence": '"```" "sparql"? "\\n"',
        "unfence": '"```"',
        "refusal": f'{_gbnf_literal(REFUSAL)} [^:{{}}\\n`]*',
        "chunk": "prefix | wordy ws | wordy punct sp | punct sp | string sp",
        "prefix": f'("PREFIX" | "prefix") ws ({decls}) ws',
        "wordy": "name | word | var | number",
        "name": " | ".join(_gbnf_literal(n) for n in listed) or '"rdfs:label"',
        "word": "[A-Za-z] [A-Za-z0-9_]*",
        "var": "[?$] [A-Za-z0-9_]+",
        "number": '[0-9]+ ("." [0-9]+)?',
        "punct": " | ".join(_gbnf_literal(p) for p in PUNCTUATION),
        "string": r'''"\"" ([^"\\\n] | "\\" ["'\\nrt])* "\"" lang? | "'" ([^'\\\n] | "\\" ["'\\nrt])* "'" lang?''',
        "lang": '"@" [A-Za-z] [A-Za-z0-9-]*',
        "ws": "[ \\t\\n]+",
        "sp": "[ \\t\\n]*",
    }
    return "\n".join(f"{k} ::= {v}" for k, v in rules.items()) + "\n"


def regex(names: Iterable[str]) -> str:
    """The same language as ``gbnf`` as one regular expression (for servers that constrain by regex: TGI)."""
    listed = sorted(set(names), key=lambda n: (-len(n), n))
    name = "|".join(re.escape(n) for n in listed) or re.escape("rdfs:label")
    decls = "|".join(f"{p}:[ \\t\\n]*<{re.escape(iri)}>" for p, iri in PREFIXES.items())
    punct = "|".join(re.escape(p) for p in sorted(PUNCTUATION, key=len, reverse=True))
    lang = r"(?:@[A-Za-z][A-Za-z0-9-]*)?"
    string = rf'(?:"(?:[^"\\\n]|\\["\'\\nrt])*"{lang}|\'(?:[^\'\\\n]|\\[\'"\\nrt])*\'{lang})'
    wordy = rf"(?:{name}|[A-Za-z][A-Za-z0-9_]*|[?$][A-Za-z0-9_]+|[0-9]+(?:\.[0-9]+)?)"
    chunk = (rf"(?:(?:PREFIX|prefix)[ \t\n]+(?:{decls})[ \t\n]+|{wordy}[ \t\n]+|{wordy}(?:{punct})[ \t\n]*"
             rf"|(?:{punct})[ \t\n]*|{string}[ \t\n]*)")
    refusal = re.escape(REFUSAL) + r"[^:{}\n`]*"
    return rf"(?:```(?:sparql)?\n)?[ \t\n]*(?:{refusal}|{chunk}*{wordy}?)[ \t\n]*(?:```)?"
