"""The names step on whole queries: each label filter of a known kind checked, changed only when clear."""
from __future__ import annotations

from pipeline.names.check import NameCheck, check_names, held_message, substitutions
from pipeline.names.index import LabelIndex
from pipeline.records import Match

INDEX = LabelIndex([("SQuAD1.1", "dataset"), ("SQuAD2.0", "dataset"), ("F1", "metric"), ("Atari 2600 Pong", "dataset"),
                    ("Atari 2600 HERO", "dataset")], threshold=85.0)


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
             '?c orkgp:P1 ?compounds. ?compounds rdfs:label ?compounds_labels. '
             'FILTER(str(?compounds_labels) = "etanin") '
             '?m a orkgc:Model; rdfs:label ?m_lbl. FILTER(str(?m_lbl) = "Nobody") }')
    checked = check_names(other, INDEX)
    assert checked.sparql == other and checked.resolutions == ()


def test_no_index_means_nothing_is_checked() -> None:
    text = query("squad 1.1")
    assert NameCheck(lambda: None)(text).sparql == text
    assert NameCheck(lambda: INDEX)(text).sparql != text


TWINS = LabelIndex([("NCBI-disease", "dataset"), ("NCBI Disease", "dataset"), ("F1 entity level", "metric"),
                    ("Percentage error", "metric"), ("Percentage Error", "metric"), ("BC5CDR-disease", "dataset"),
                    ("NCBI Disease", "model")], threshold=85.0)
ASKED = "Which model is best in terms of F1 entity level on the NCBI Disease dataset?"


def test_a_name_spelled_otherwise_than_the_question_writes_a_label_of_the_graph_takes_the_questions() -> None:
    """The graph has both datasets; the query copied its example's 'NCBI-disease', the question says 'NCBI Disease'."""
    checked = check_names(query("NCBI-disease", metric="F1 entity level"), TWINS, ASKED)
    assert '"NCBI Disease"' in checked.sparql and "NCBI-disease" not in checked.sparql and not checked.held
    assert checked.notes == ("wrote 'NCBI Disease' for 'NCBI-disease', as the question writes this dataset of the "
                             "graph",)
    assert substitutions(checked.resolutions) == "I read 'NCBI-disease' as 'NCBI Disease'."
    # without the question (or with a question writing neither) the query's own label stands
    for question in ("", "Which model is best in terms of F1 entity level on the NCBI corpus?"):
        alone = check_names(query("NCBI-disease", metric="F1 entity level"), TWINS, question)
        assert '"NCBI-disease"' in alone.sparql and alone.notes == ()


def test_a_name_the_question_writes_is_never_respelled_to_another_label() -> None:
    asked = ASKED.replace("NCBI Disease", "NCBI-disease")
    checked = check_names(query("NCBI-disease", metric="F1 entity level"), TWINS, asked)
    assert '"NCBI-disease"' in checked.sparql and checked.notes == ()
    lower = check_names(query("NCBI-disease", metric="F1 entity level"), TWINS, asked.lower())
    assert '"NCBI-disease"' in lower.sparql and lower.notes == ()


def test_the_label_taken_is_of_the_literals_kind_and_written_as_a_whole_name() -> None:
    metric = check_names(query("SQuAD1.1", metric="Percentage Error"), TWINS,
                         "Best on SQuAD1.1 by Percentage error?")
    assert '"Percentage error"' in metric.sparql
    # 'percentage error' in lowercase writes both metrics: neither is the question's, nothing changes
    both = check_names(query("SQuAD1.1", metric="Percentage Error"), TWINS, "best by percentage error?")
    assert '"Percentage Error"' in both.sparql and both.notes == ()
    inside = check_names(query("BC5CDR disease"), TWINS, "Best on the XBC5CDR-diseases set?")
    assert inside.notes == ()
    other_kind = LabelIndex([("NCBI-disease", "dataset"), ("NCBI Disease", "model")], threshold=85.0)
    assert check_names(query("NCBI-disease"), other_kind, ASKED).notes == ()


def test_the_names_step_reads_the_question_it_is_given() -> None:
    step = NameCheck(lambda: TWINS)
    assert '"NCBI Disease"' in step(query("NCBI-disease", metric="F1 entity level"), ASKED).sparql
    assert '"NCBI-disease"' in step(query("NCBI-disease", metric="F1 entity level")).sparql


def test_a_name_with_quotes_is_the_same_name_escaped_in_the_query_not_a_respelling() -> None:
    from pipeline.names.check import respelled
    from pipeline.sparql.literal import quoted

    name = 'NarrativeNet ("large", 2×)'
    index = LabelIndex([(name, "model"), ("LoreQA Reading Set", "dataset")], threshold=85.0)
    sparql = ('SELECT ?d WHERE { ?m a orkgc:Model; rdfs:label ?l. FILTER(str(?l) = ' + quoted(name) + ') '
              '?c orkgp:HAS_MODEL ?m; orkgp:HAS_BENCHMARK ?b. ?b orkgp:HAS_DATASET ?d. }')
    assert respelled(sparql, index, f"On which datasets was {name} evaluated?") == (sparql, ())
    checked = check_names(sparql, index, f"On which datasets was {name} evaluated?")
    assert checked.sparql == sparql and checked.notes == () and not checked.held
