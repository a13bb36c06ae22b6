"""Which queries are rankings (read from their shape), the companion query built for them, and the leaderboard made
of its rows: numbers sorted as numbers, text values kept (after them), the graph's text ordering called out."""
from __future__ import annotations

from pipeline.glance.leaderboard import Companion, build, companion
from pipeline.records import Rows
from pipeline.sparql.gate import gate
from standins.fixture_questions import t01, t04, t05

T02 = ('SELECT DISTINCT ?paper ?paper_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
       'FILTER (str(?dataset_lbl) = "SQuAD") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK '
       '?benchmark. ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl. }')
T07 = ('SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl. FILTER (str(?model_lbl) = "T5") '
       '?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark. ?cont orkgp:HAS_MODEL ?model; '
       'orkgp:HAS_SOURCE_CODE ?code. }')


def test_rankings_are_told_by_their_shape_and_keep_the_labels_they_asked_about() -> None:
    rankings = ((t01("SQuAD"), "", False), (t04("SQuAD"), "", True), (t05("SQuAD", "F1"), "F1", True))
    for query, metric, best_of in rankings:
        comp = companion(query)
        assert comp is not None and comp.dataset == "SQuAD" and comp.metric == metric and comp.best_of == best_of
        assert '"SQuAD"' in comp.query and (f'"{metric}"' in comp.query) == bool(metric)
        assert gate(comp.query, 1000).ok  # read-only, through the same gate as every query
    for not_ranking in (T02, T07, "ASK { ?x ?p ?o }", "SELECT ?x WHERE { ?x a orkgc:Dataset }", "not sparql"):
        assert companion(not_ranking) is None


def test_a_label_with_quotes_stays_one_literal_and_a_lowest_first_query_ranks_upwards() -> None:
    query = t05('NarrativeNet ("large")', "Error").replace("DESC(?value)", "ASC(?value)")
    comp = companion(query)
    assert comp is not None and not comp.descending and "ORDER BY ASC(?value)" in comp.query
    assert 'str(?dataset_lbl) = "NarrativeNet (\\"large\\")"' in comp.query and gate(comp.query).ok


def _rows(*scores: tuple[str, str, str]) -> Rows:
    terms = [{"model": {"type": "uri", "value": f"http://orkg.org/orkg/resource/R{i}"},
              "model_lbl": {"type": "literal", "value": model}, "metric_lbl": {"type": "literal", "value": metric},
              "value": {"type": "literal", "value": value}} for i, (model, metric, value) in enumerate(scores)]
    return Rows(["model", "model_lbl", "metric_lbl", "value"], terms)


def test_values_that_are_not_numbers_are_kept_as_text_after_the_numbers() -> None:
    comp = Companion("", "D", "", True, False)
    board = build(comp, _rows(("a", "Acc", "N/A"), ("b", "Acc", "9.5"), ("c", "Acc", "—"), ("d", "Acc", "12 M"),
                              ("e", "Acc", "10.2"), ("f", "BLEU", "30"), ("g", "BLEU", "n.a.")), None)
    assert board.metric == "Acc"  # the metric with most numbers is the one charted
    assert [(e.model, e.number) for e in board.entries] == [
        ("e", 10.2), ("b", 9.5), ("a", None), ("c", None), ("d", None), ("f", 30.0), ("g", None)]
    assert [e.model for e in board.tops()] == ["e", "f"]
    assert board.notes == ("The graph's own ordering puts '9.5' above '10.2' (it compares the stored values as text); "
                           "this list is sorted by number.",)


def test_the_answer_that_misses_the_top_by_number_is_called_out_and_one_that_names_it_is_not() -> None:
    comp = Companion("", "D", "Acc", True, True)
    result = _rows(("a", "Acc", "9.5"), ("b", "Acc", "10.2"))
    graph_pick = Rows(["model", "model_lbl"], [{"model": {"type": "uri", "value": "http://orkg.org/orkg/resource/R0"},
                                               "model_lbl": {"type": "literal", "value": "a"}}])
    right_pick = Rows(["model"], [{"model": {"type": "uri", "value": "http://orkg.org/orkg/resource/R1"}}])
    assert any("does not name" in n for n in build(comp, result, graph_pick).notes)
    assert not any("does not name" in n for n in build(comp, result, right_pick).notes)
    assert build(comp, _rows(("a", "Acc", "n/a")), graph_pick).top() is None  # nothing numeric: no top, no crash
