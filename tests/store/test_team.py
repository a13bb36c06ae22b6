"""The team's pairs as a file: export writes exactly the taught pairs; import checks each line like teaching does,
stores the good ones as team pairs and reports the rest by line, storing nothing of them."""
from __future__ import annotations

import io
import json

from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, team_id
from pipeline.store.connection import open_client
from pipeline.store.team import export_pairs, import_pairs
from standins.fakes import HashEncoder

TAUGHT = {
    "Which papers use the Zebra-7 benchmark?": "SELECT ?paper WHERE { ?paper orkgp:P31 ?c . ?c rdfs:label ?l . "
                                               'FILTER(str(?l) = "Zebra-7") }',
    "Is there a model called Okapi?": 'ASK { ?m rdfs:label "Okapi" }',
}


def store_in(settings: Settings, name: str) -> ChromaStore:
    return ChromaStore(open_client(settings.home / name), HashEncoder(), "pairs")


def test_export_writes_the_team_pairs_only_and_import_brings_them_back(settings: Settings) -> None:
    source = store_in(settings, "a")
    source.add([Example("AQ0001", "Which model is best on MUTAG?", "SELECT ?m WHERE { ?m ?p ?o }", "T05", "sciqa")])
    source.add([Example(team_id(q), q, s, "", "team") for q, s in TAUGHT.items()])
    out = io.StringIO()
    assert export_pairs(source, out) == 2
    lines = out.getvalue().splitlines()
    assert [json.loads(line) for line in lines] == [
        {"id": team_id(q), "question": q, "sparql": TAUGHT[q]} for q in sorted(TAUGHT, key=str.lower)]
    target = store_in(settings, "b")
    report = import_pairs(target, lines, max_question_chars=2000)
    assert report.added == 2 and report.skipped == []
    assert {(e.question, e.sparql, e.source) for e in target.examples()} == {(q, s, "team") for q, s in TAUGHT.items()}
    question = "Which papers use the Zebra-7 benchmark?"
    assert target.search(question, 1)[0].example.question == question
    assert import_pairs(target, lines,
                        max_question_chars=2000).added == 2 and target.count() == 2  # again: replaced, not doubled


def test_import_refuses_what_teaching_would_and_reports_each_line(settings: Settings) -> None:
    good = json.dumps({"question": "  Which   papers use\tZebra-7? ", "sparql": 'ASK { ?p rdfs:label "Zebra-7" }'})
    lines = [
        good,
        json.dumps({"question": "Drop everything", "sparql": "DELETE WHERE { ?s ?p ?o }"}),
        json.dumps({"question": "Sneaky",
                    "sparql": "SELECT * WHERE { SERVICE <http://evil.example.org/> { ?s ?p ?o } }"}),
        json.dumps({"question": "Broken", "sparql": "SELECT ?x WHERE { ?x "}),
        json.dumps({"question": "", "sparql": "ASK {}"}),
        json.dumps({"question": "x" * 3000, "sparql": "ASK {}"}),
        json.dumps(["not", "a", "pair"]),
        '{"question": "cut off',
        "",
    ]
    store = store_in(settings, "c")
    report = import_pairs(store, lines, max_question_chars=2000)
    assert report.added == 1
    why = dict(report.skipped)
    assert sorted(why) == [2, 3, 4, 5, 6, 7, 8]
    assert why[2].startswith("refused") and "DELETE" in why[2] and "SERVICE" in why[3]
    assert why[5].startswith("the question is empty") and why[6].startswith("the question is empty or longer")
    assert why[7].startswith("not a pair") and why[8].startswith("not JSON")
    [stored] = store.examples()
    assert (stored.question, stored.source) == ("Which papers use Zebra-7?", "team")
