"""The names step on whole queries: each label filter of a known kind checked, changed only when clear."""
from __future__ import annotations

from pipeline.names.check import NameCheck, check_names, held_message, substitutions
from pipeline.names.index import LabelIndex
from pipeline.records import Match

INDEX = LabelIndex([("SQuAD1.1", "dataset"), ("SQuAD2.0", "dataset"), ("F1", "metric"), ("Atari 2600 Pong", "dataset"),
                    ("Atari 2600 HERO", "dataset")])


def query(dataset: str, metric: str = "F1") -> str:
    return ('SELECT ?model WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. '
            f'FILTER (str(?metric_lbl) = "{metric}") ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
            f'FILTER (str(?dataset_lbl) = "{dataset}") }}')


def test_a_loose_name_is_replaced_by_the_graphs_label_and_said() -> None:
    checked = check_names(query("squad 1.1"), INDEX)
    assert '"SQuAD1.1"' in checked.sparql and "squad 1.1" not in checked.sparql and not checked.held
    assert substitutions(checked.resolutions) == "I read 'squad 1.1' as 'SQuAD1.1'."


def test_correct_names_leave_the_query_untouched() -> None:
    text = query("SQuAD2.0")
    checked = check_names(text, INDEX)
    assert checked.sparql == text and all(r.match is Match.EXACT for r in checked.resolutions)
    assert substitutions(checked.resolutions) == ""


def test_an_ambiguous_or_unknown_name_holds_the_query_with_candidates() -> None:
    held = check_names(query("Atari 2600"), INDEX).held
    assert [r.match for r in held] == [Match.AMBIGUOUS]
    assert "Atari 2600 Pong" in held_message(held) and "Which one" in held_message(held)
    unknown = check_names(query("SQuAD1.1", metric="Perplexity"), INDEX).held
    assert [(r.typed, r.match) for r in unknown] == [("Perplexity", Match.UNKNOWN)]
    assert "no metric called 'Perplexity'" in held_message(unknown)


def test_filters_of_other_kinds_regexes_and_kinds_the_graph_lacks_are_not_checked() -> None:
    other = ('SELECT ?x WHERE { ?p a orkgc:Paper; rdfs:label ?t. FILTER(REGEX(?t, "vernier")) '
             '?c orkgp:P1 ?compounds. ?compounds rdfs:label ?compounds_labels. FILTER(str(?compounds_labels) = "etanin") '
             '?m a orkgc:Model; rdfs:label ?m_lbl. FILTER(str(?m_lbl) = "Nobody") }')
    checked = check_names(other, INDEX)
    assert checked.sparql == other and checked.resolutions == ()


def test_no_index_means_nothing_is_checked() -> None:
    text = query("squad 1.1")
    assert NameCheck(lambda: None)(text).sparql == text
    assert NameCheck(lambda: INDEX)(text).sparql != text
