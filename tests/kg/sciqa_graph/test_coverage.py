"""Every SciQA gold query run on the rebuilt graph: how many return their recorded gold answer."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from pipeline.kg.sciqa_graph.coverage import gold_flat, measure, shapes, why_not
from pipeline.kg.sciqa_graph.facts import read_facts

TEMPLATES = ("T01", "T02", "T03", "T04", "T05", "T06", "T07", "T08")


def test_gold_queries_reproduce_their_gold_answers_on_the_graph(sciqa_dir: Path, sciqa_graph: Any) -> None:
    cov = measure(read_facts(sciqa_dir), sciqa_graph)
    assert sum(cov.total[t] for t in TEMPLATES) == 2465 and cov.total["HQ"] == 100
    assert cov.share() >= 0.995  # today: 2465 of 2465
    for template in TEMPLATES:
        assert cov.exact[template] >= 0.99 * cov.total[template], template
    # handcrafted shapes the builder does not support are listed, one line each, not hidden
    assert {f.id for f in cov.unsupported} == {i for i in cov.missed if i.startswith("HQ")}
    lines = cov.lines()
    assert len([x for x in lines if x.startswith("unsupported handcrafted shape: HQ")]) == len(cov.unsupported)
    assert cov.exact["HQ"] + len(cov.unsupported) == 100
    # the handcrafted questions with a recorded answer: their facts read backwards hold beside every templated one
    answered = [f for f in read_facts(sciqa_dir) if f.handcrafted and gold_flat(f)]
    assert len(answered) == 52 and sum(f.id not in cov.missed for f in answered) >= 49  # today: 49
    assert set(cov.why) == set(cov.missed) and all(cov.why.values())
    assert cov.by_split["test templated"] == [492, 492] and sum(n for _, n in cov.by_shape.values()) > 100


def test_a_miss_says_why() -> None:
    assert why_not({"1461.0"}, {"1461"}, "").startswith("the same number written otherwise")
    assert why_not(set(), {"a"}, "").startswith("its recorded answer is empty")
    assert why_not({"a"}, None, "expected WHERE") == "does not run here (expected WHERE)"
    query = "SELECT (COUNT(?x) AS ?n) { orkgr:R1 orkgp:compareContribution ?c. OPTIONAL { ?c orkgp:P7 ?x } }"
    assert shapes(query) == \
        ["comparison property (orkgp:P…)", "compareContribution", "OPTIONAL", "aggregate"]


def test_a_query_on_the_graph_finds_names_by_their_rdfs_label(sciqa_graph: Any) -> None:
    rows = sciqa_graph.select("PREFIX rdfs: <http://www.w3.org/2000/01/rdf-schema#> "
                              "SELECT ?m WHERE { ?m rdfs:label ?l FILTER(str(?l) = \"XLNet-Large\") }")
    assert "http://orkg.org/orkg/resource/R122148" in rows.flat()  # the IRI SciQA's answers give it
    assert "early 2023" in rows.caveat and rows.source == "sciqa"
