"""Gold queries rewritten in equivalent forms (and one that is not), to check that a KG that *runs* queries scores
a query by what it means, not how it is written.

    python -m pipeline.eval.rewrites --questions final --out DIR   # DIR/<rewrite>.json replay files
    kgqa eval --questions final --generator replay:DIR/swapped.json --kg sciqa --report R/swapped
"""
from __future__ import annotations

import argparse
import json
import re
from collections.abc import Callable, Sequence
from pathlib import Path

from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.brackets import closing
from pipeline.sparql.lexer import Token
from pipeline.sparql.parsed import parse
from pipeline.sparql.text import PREFIXES, declared_prefixes

_LABEL_TEST = re.compile(r'(str\(\s*\?\w+\s*\))\s*=\s*("(?:[^"\\]|\\.)*")', re.IGNORECASE)


def swap_label_tests(query: str) -> str:
    """``FILTER(str(?l) = "X")`` -> ``FILTER("X" = str(?l))``."""
    return _LABEL_TEST.sub(lambda m: f"{m.group(2)} = {m.group(1)}", query)


def rename_variables(query: str) -> str:
    """Every ``?x`` -> ``?renamed_x``."""
    return _replace(query, lambda t: f"?renamed_{t.text[1:]}" if t.kind == "var" else None)


def expand_prefixes(query: str) -> str:
    """Every ``orkgp:P31`` -> ``<http://orkg.org/orkg/predicate/P31>`` (the prefixes the query uses, in full)."""
    known = {**PREFIXES, **declared_prefixes(query)}

    def full(t: Token) -> str | None:
        if t.kind != "pname":
            return None
        prefix, local = t.text.split(":", 1)
        return f"<{known[prefix]}{local}>" if prefix in known else None
    return _replace(query, full)


def reorder_projection(query: str) -> str:
    """The first SELECT's projected items rotated by one: ``SELECT ?a ?b`` -> ``SELECT ?b ?a``."""
    toks = parse(query).tokens
    at = next((i for i, t in enumerate(toks) if t.text.upper() == "SELECT"), None)
    if at is None:
        return query
    i = at + 1
    if i < len(toks) and toks[i].text.upper() in ("DISTINCT", "REDUCED"):
        i += 1
    items: list[tuple[int, int]] = []  # token ranges of the projected items
    while (i < len(toks) and toks[i].kind == "var") or (i < len(toks) and toks[i].text == "("):
        j = i if toks[i].text != "(" else closing(toks, i)
        j = len(toks) - 1 if j is None else j
        items.append((i, j))
        i = j + 1
    if len(items) < 2:
        return query
    texts = [query[toks[a].start:toks[b].end] for a, b in items]
    start, end = toks[items[0][0]].start, toks[items[-1][1]].end
    return query[:start] + " ".join(texts[1:] + texts[:1]) + query[end:]


def limit_one(query: str) -> str:
    """Not equivalent: the query cut to its first row."""
    return query.rstrip() + "\nLIMIT 1"


REWRITES: dict[str, Callable[[str], str]] = {
    "swapped": swap_label_tests, "reordered": reorder_projection, "renamed": rename_variables,
    "expanded": expand_prefixes, "all": lambda q: expand_prefixes(rename_variables(reorder_projection(
        swap_label_tests(q)))), "limit1": limit_one,
}


def _replace(query: str, new: Callable[[Token], str | None]) -> str:
    out, pos = [], 0
    for t in parse(query).tokens:
        text = new(t)
        if text is not None:
            out += [query[pos:t.start], text]
            pos = t.end
    return "".join(out) + query[pos:]


def rewritten(sciqa: SciQA, phase: str, kind: str) -> list[dict[str, str]]:
    """A replay file's content: the challenge set's gold queries, rewritten."""
    return [{"id": i, "sparql": REWRITES[kind](sciqa.by_id[i].sparql)} for i, _ in sciqa.challenge(phase)]


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m pipeline.eval.rewrites", description=__doc__.splitlines()[0])
    p.add_argument("--questions", choices=("dev", "final"), default="final")
    p.add_argument("--out", type=Path, required=True)
    args = p.parse_args(argv)
    sciqa = SciQA.from_settings(Settings.from_env())
    args.out.mkdir(parents=True, exist_ok=True)
    for kind in REWRITES:
        (args.out / f"{kind}.json").write_text(json.dumps(rewritten(sciqa, args.questions, kind), indent=1))
        print(f"wrote {args.out / kind}.json")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
