"""Query by query: do this checkout's scope checks (``pipeline.sparql.scope``'s unbound projections and
``pipeline.sparql.joins``' parts) give the same results as another checkout's?

Usage: python scripts/same_scopes.py --before DIR [--mutate] FILE ...
Each FILE is a JSON list of {"id", "sparql"} (SciQA's gold queries, recorded model replies). Each checkout reads
every query in a process of its own (PYTHONPATH set to it); compared are the unbound projection, and joins' answer,
has_constants, constants_of and alone for every variable of the query, and with_answer for every literal, IRI and
number in it. ``--mutate`` also compares six malformed variants of each query (a token dropped, the text cut, a
token put in), seeded by position. Prints a line per file and the ids of the first queries that differ.
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
INSERTED = ["{", "}", "(", ")", ".", "FILTER", "VALUES", "OPTIONAL", "MINUS", "BIND", "AS", "GROUP BY", "SELECT",
            "HAVING", "?z", '"q"']


def variants(query: str, seed: int) -> list[str]:
    from pipeline.sparql.lexer import tokenize

    texts = [t.text for t in tokenize(query)]
    if not texts:
        return []
    rnd = random.Random(seed)
    dropped = [rnd.randrange(len(texts)) for _ in range(3)]
    cut = [rnd.randrange(len(texts)) for _ in range(2)]
    at = rnd.randrange(len(texts))
    return ([" ".join(texts[:k] + texts[k + 1:]) for k in dropped] + [" ".join(texts[:k]) for k in cut]
            + [" ".join(texts[:at] + [rnd.choice(INSERTED)] + texts[at:])])


def results(query: str) -> dict[str, Any]:
    from pipeline.sparql.joins import joins
    from pipeline.sparql.lexer import tokenize
    from pipeline.sparql.scope import unbound_projection

    found, toks = joins(query), tokenize(query)
    names = sorted({t.text for t in toks if t.kind == "var"} | {"?absent"})
    constants = sorted({t.text[1:-1] for t in toks if t.kind == "string"} | {"absent"} |
                       {t.text for t in toks if t.kind in ("number", "iri", "pname")})
    return {"unbound": unbound_projection(query), "answer": list(found.answer), "has_constants": found.has_constants,
            "constants_of": {v: list(found.constants_of(v)) for v in names},
            "alone": {v: found.alone(v) for v in names},
            "with_answer": {c: found.with_answer(c) for c in constants}}


def dump(path: str, mutate: bool) -> None:
    out: dict[str, Any] = {}
    for n, record in enumerate(json.loads(Path(path).read_text())):
        queries = [record["sparql"]] + (variants(record["sparql"], n) if mutate else [])
        for m, query in enumerate(queries):
            out[f"{record['id']}@{n}#{m}"] = [query, results(query)]
    json.dump(out, sys.stdout)


def run(tree: Path, path: str, mutate: bool) -> dict[str, Any]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    args = [sys.executable, str(REPO / "scripts" / "same_scopes.py"), "--dump", path] + (["--mutate"] if mutate else [])
    return dict(json.loads(subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="+")
    parser.add_argument("--before", type=Path, help="the other checkout")
    parser.add_argument("--mutate", action="store_true")
    parser.add_argument("--dump", action="store_true", help=argparse.SUPPRESS)  # one checkout's results
    args = parser.parse_args()
    if args.dump:
        return dump(args.files[0], args.mutate)
    if args.before is None:
        parser.error("--before DIR is needed")
    for path in args.files:
        before, after = run(args.before.resolve(), path, args.mutate), run(REPO, path, args.mutate)
        differ = [k for k in before if before[k][1] != after.get(k, [None, None])[1]]
        checks = {c: sum(before[k][1][c] != after[k][1][c] for k in differ) for c in before[next(iter(before))][1]} \
            if before else {}
        originals = sum(k.endswith("#0") for k in before)
        print(f"{path}: {originals} queries, {sum(k.endswith('#0') for k in differ)} differ; "
              f"{len(before) - originals} variants, {sum(not k.endswith('#0') for k in differ)} differ; {checks}")
        for key in differ[:5]:
            print(f"  {key}: {before[key][0][:160]}")


if __name__ == "__main__":
    main()
