"""Queries of every SPARQL 1.1 production class through ``run_sparql`` as ``kgqa sparql`` builds it, on a local
graph: counts what ran with the meaning it had (same solutions as the query asked of the store directly), what was
refused and why, and crashes. Then the gate's time per query on every SciQA gold query.

Usage: PYTHONPATH=$PWD SCIQA_DIR=../shared/sciqa python scripts/sparql_conformance.py [--repeat N]
"""
from __future__ import annotations

import argparse
import json
import os
import time
from collections import Counter
from pathlib import Path

import pyoxigraph as ox

from pipeline.cli import _NoGenerator
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.given import NoExamples
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.records import Outcome
from pipeline.sparql.gate import gate
from pipeline.sparql.layout import layout
from pipeline.sparql.text import PREFIXES
from standins.solutions import solutions

EX = "http://example.org/"
GRAPH = f"""@prefix : <{EX}> . @prefix xsd: <{PREFIXES['xsd']}> .
:a :p :b , :c ; :n 1 , -1 , 2.5 ; :l "a"@en , "A"^^xsd:string , "t\\tx" , "\u0007\ue000" .
:b :p :c ; :q :a . :c :n 3 . _:x :p :a . :c:d :p :a . :x\\?y :p :a .
"""
H = f"PREFIX : <{EX}> "
VALID = [H + q for q in [
    "SELECT * { ?s ?p ?o }", "SELECT ?s { ?s :p ?o } VALUES ?o { :b :c }",
    "SELECT ?s { ?s :p ?o } LIMIT 1 VALUES ?s { :a }",
    "SELECT ?s { ?s :p ?o } OFFSET 1", "SELECT ?s { { SELECT ?s { ?s :p ?o } ORDER BY ?s LIMIT 1 } }",
    "SELECT ?s { ?s :p _:y . _:y :p :c }", "SELECT ?s { ?s ?p :c:d }", "SELECT ?o { :x\\?y :p ?o }",
    "SELECT ?s { ?s :n -1 }", "SELECT ?s { ?s :n ?n FILTER(?n-1 >= +0 && ?n > -1.5e0) }", "SELECT * { ?s :p+ ?o }",
    "SELECT * { ?s ^:q/:p* ?o }", "SELECT * { ?s !(:q|^:p) ?o }", "SELECT * { ?s (:p|:q)? ?o }",
    "SELECT ?s { ?s :l \"a\"@en }", "SELECT ?s { ?s :l \"A\"^^xsd:string }", "SELECT ?s { ?s :l \"\"\"t\tx\"\"\" }",
    "SELECT ?s { ?s :l 't\\tx' }", "SELECT ?s { ?s :l \"\u0007\ue000\" }",
    "SELECT ?s (COUNT(?o) AS ?c) { ?s :p ?o } GROUP BY ?s HAVING (COUNT(?o) > 1)",
    "SELECT ?s { ?s :p ?o OPTIONAL { ?o :q ?x } FILTER(!BOUND(?x)) MINUS { ?s :q ?y } }",
    "SELECT ?s { { ?s :p :b } UNION { ?s :n 3 } }", "SELECT ?s ?t { ?s :p ?o BIND(STR(?o) AS ?t) }",
    "ASK { :a :p :b }", "ASK { :a :p :b } LIMIT 1", "SELECT * { [] :p ?o }", "SELECT ?s { ?s :p ?o # { DELETE }\n}",
    "BASE <http://example.org/> SELECT ?s { ?s <p> <b> }", "SELECT (SUM(?n) AS ?t) { ?s :n ?n }",
    "SELECT ?s { ?s :p ?o FILTER EXISTS { ?o :p ?x } }",
    "SELECT ?s { ?s :n ?n FILTER(?n IN (1, 3)) } ORDER BY DESC(?s)",
    "SELECT (GROUP_CONCAT(?l; SEPARATOR=\", \") AS ?g) { :a :l ?l FILTER(isLiteral(?l)) }",
    "SELECT DISTINCT ?p { ?s ?p ?o } ORDER BY ?p", "SELECT REDUCED ?s { ?s :p ?o }",
    "SELECT ?s { VALUES (?s ?o) { (:a :b) (UNDEF :c) } ?s :p ?o }", "SELECT ?s { ?s :p [ :p :c ] }",
    "SELECT ?s { ?s :n ?n FILTER(REGEX(STR(?s), \"^http\", \"i\")) }", "SELECT ?x { BIND(\"\\u00e9\" AS ?x) }",
]]
DIALECT = [H + q for q in ["SELECT ?s, ?o { ?s :p ?o }", "SELECT ?s COUNT(?o) { ?s :p ?o }",
                           "SELECT ?s { ?s :p ?o } ORDER BY DESC(COUNT(?o)) LIMIT 1",
                           "SELECT COUNT(?o) AS ?n { ?s :p ?o }"]]
INVALID = [H + q for q in [
    "SELECT ?x { ?x ?p }", "SELECT ?x { ?x ?p ?o ", "SELEC ?x { ?x ?p ?o }", "SELECT ?s { ?s ?p ?o BIND(1 AS ?o) }",
    "SELECT * { BIND(1 AS ?x) BIND(2 AS ?x) }", "SELECT * { ?s ?p ?o } GROUP BY ?s",
    "SELECT ?o (COUNT(?s) AS ?c) { ?s ?p ?o } GROUP BY ?s", "SELECT ?s { ?s ?p ?o } GROUP BY ?o",
    "SELECT ?s ?s { ?s ?p ?o }", "SELECT (1 AS ?s) { ?s ?p ?o }", "SELECT ?s { VALUES (?a ?b) { (1) } }",
    "SELECT ?s { ?s ?p ?o } VALUES (?s ?o) { (1 2 3) }", "SELECT ?s { ?s ?p \"\\q\" }",
    "SELECT ?s { ?s ?p \"\\U0011FFFF\" }", "SELECT ?s { ?s ?p \"a\nb\" }", "SELECT ?s { ?s ?p <a b> }",
    "SELECT ?s { ?s foaf:name ?o }", "SELECT ?s { ?s ?p ?o } LIMIT 1 LIMIT 2",
    "SELECT ?s { ?s ?p ?o FILTER(COUNT(?s) > 1) }", "(SELECT ?s { ?s ?p ?o })", "SELECT ?s { ?s ?p ?o } ORDER ?s",
    "SELECT ?s { ?s :p _:b OPTIONAL { _:b :p ?o } }", "SELECT ?s { ?s ?p ?o . . }", "SELECT ?s {{ ?s ?p ?o }",
    "SELECT ?s { ?s ?p ?o \"unterminated }", "SELECT ?x (AVG(?m AS ?a)) { ?x :n ?m }", "SELECT ?s WHERE",
    "SELECT ?s { ?s ?p ?o } LIMIT -1", "SELECT ?s { ?s ?p 1.2.3 }", "SELECT ?s { FILTER() }",
]]
UPDATES = ["INSERT DATA { <http://a> <http://b> <http://c> }", "DELETE WHERE { ?s ?p ?o }", "DROP ALL",
           "CLEAR GRAPH <http://g>", "LOAD <http://x/y.ttl>", "CREATE GRAPH <http://g>", "ADD <http://a> TO <http://b>",
           "MOVE DEFAULT TO <http://g>", "COPY <http://a> TO <http://b>",
           "WITH <http://g> DELETE { ?s ?p ?o } WHERE { ?s ?p ?o }",
           "SELECT * { ?s ?p ?o } ; DELETE WHERE { ?s ?p ?o }",
           "INSERT { ?s ?p ?o } WHERE { ?s ?p"]
SERVICES = ["SELECT * { SERVICE <http://x/sparql> { ?s ?p ?o } }", "SELECT * { SERVICE SILENT ?e { ?s ?p ?o } }",
            "SELECT * { ?s ?p ?o SERVICE <http://x/> { ?o ?q ?r } }"]


def conformance() -> Counter[str]:
    kg = OxigraphKG(None, row_cap=100_000)
    kg.store.load(GRAPH.encode(), ox.RdfFormat.TURTLE)
    pipe = Pipeline(Parts(NoExamples(), _NoGenerator(), kg),
                    Bounds(shots=3, row_cap=100_000, max_question_chars=2000, workers=4))
    counts: Counter[str] = Counter()
    for group, queries in (("valid", VALID), ("dialect", DIALECT), ("invalid", INVALID), ("update", UPDATES),
                           ("service", SERVICES)):
        for query in queries:
            try:
                answer = pipe.run_sparql(query)
            except Exception as exc:  # a crash is what this counts
                counts[f"{group}: crashed ({type(exc).__name__})"] += 1
                continue
            ran = answer.outcome in (Outcome.ANSWERED, Outcome.EMPTY)
            if group in ("valid", "dialect") and ran:
                same = group == "dialect" or solutions(kg.store, query) == solutions(kg.store, answer.sparql or "")
                shown = layout(answer.sparql or "")
                same = same and solutions(kg.store, shown) == solutions(kg.store, answer.sparql or "")
                counts[f"{group}: ran, {'same meaning' if same else 'MEANING CHANGED'}"] += 1
            elif ran:
                counts[f"{group}: RAN"] += 1
            else:
                placed = "line " in answer.error and "column " in answer.error
                kind = "the place given" if placed else "no place"
                counts[f"{group}: refused ({kind})" if group == "invalid" else f"{group}: refused"] += 1
                if (group == "invalid" and not placed) or (group != "invalid" and "read-only" not in answer.error \
                        and "SERVICE" not in answer.error):
                    print(f"  {group}: {answer.error}  <- {query!r}")
    return counts


def gate_speed(repeat: int) -> str:
    root = Path(os.environ.get("SCIQA_DIR", "../shared/sciqa"))
    gold = [q["query"]["sparql"] for split in ("train", "valid", "test")
            for q in json.loads((root / split / "questions.json").read_text(encoding="utf-8"))["questions"]]
    started = time.perf_counter()
    for n in range(repeat):
        for query in gold:
            gate(query + " " * n, 1000)  # a new text each round: the verdict cache is not what is timed
    per = (time.perf_counter() - started) / (repeat * len(gold)) * 1e6
    return f"gate on {len(gold)} SciQA gold queries x {repeat}: {per:.0f} us per query (uncached)"


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    for line, n in sorted(conformance().items()):
        print(f"{n:4d}  {line}")
    print(gate_speed(args.repeat))


if __name__ == "__main__":
    main()
