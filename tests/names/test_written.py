"""The graph label a question writes for a name the query spells otherwise: cut short, with a class word too many,
with a slip; never another thing the question does not write, never a name the question writes as it is."""
from __future__ import annotations

from pipeline.names.check import check_names, respelled
from pipeline.names.index import LabelIndex
from pipeline.names.written import as_the_question_writes, written_labels

INDEX = LabelIndex([("LSTM", "model"), ("LSTM (Bai et al., 2018)", "model"), ("AlexNet", "model"),
                    ("AlexNet, MultiGrasp", "model"), ("Duel hs", "model"), ("Dueling DDQN", "model"),
                    ("FG fine-grained gate", "model"), ("FTD dataset", "dataset"), (" Jacquard dataset", "dataset"),
                    ("Jacard dataset", "dataset"), ("Accuracy", "metric"), ("Accuracy score", "metric"),
                    ("WMT2014 English-German", "dataset"), ("WMT2016 English-German", "dataset"),
                    ("BLEU", "metric"), ("BLEU score", "metric")], threshold=85.0)
CODE = "List the code links in papers that use the {} model in any benchmark?"


def test_the_labels_a_question_writes_are_found_as_runs_of_whole_words() -> None:
    found = written_labels(CODE.format("LSTM (Bai et al., 2018)"), "model", INDEX)
    assert set(found) == {"LSTM", "LSTM (Bai et al., 2018)"}
    assert written_labels("Is XLSTM good?", "model", INDEX) == {}


def test_a_name_cut_short_takes_the_longer_label_the_question_writes_around_it() -> None:
    assert as_the_question_writes("LSTM", "model", CODE.format("LSTM (Bai et al., 2018)"), INDEX) == \
        "LSTM (Bai et al., 2018)"
    assert as_the_question_writes("AlexNet", "model", CODE.format("AlexNet, MultiGrasp"), INDEX) == \
        "AlexNet, MultiGrasp"
    # the question also writes the short name on its own: both are asked about, nothing changes
    assert as_the_question_writes("LSTM", "model", "Compare LSTM and LSTM (Bai et al., 2018)?", INDEX) is None
    # a longer label that only adds a class word is not another name for a name the graph has
    assert as_the_question_writes("Accuracy", "metric", "Which model has the highest Accuracy score on CoQA?",
                                  INDEX) is None


def test_a_name_the_graph_lacks_takes_the_label_the_question_writes_with_or_without_its_class_word() -> None:
    assert as_the_question_writes("FTD", "dataset", "What models are evaluated on the FTD dataset dataset?",
                                  INDEX) == "FTD dataset"
    assert as_the_question_writes("FG fine-grained gate model", "model", CODE.format("FG fine-grained gate"),
                                  INDEX) == "FG fine-grained gate"
    # a name the graph reads in other case ('BLEU score') keeps its class word: it is not the graph's 'BLEU'
    assert as_the_question_writes("Bleu score", "metric", "Which model has the highest Bleu score score on WMT?",
                                  INDEX) is None


def test_a_slip_takes_the_close_label_the_question_writes_with_the_same_numbers() -> None:
    asked = "What are the models that have been benchmarked on the  Jacquard dataset dataset?"
    assert as_the_question_writes("Jacard dataset", "dataset", asked, INDEX) == " Jacquard dataset"
    assert as_the_question_writes("Dueling hs", "model", CODE.format("Duel hs"), INDEX) == "Duel hs"
    # another year is another dataset, however close the spelling
    assert as_the_question_writes("WMT2014 English-German", "dataset", "Best BLEU on WMT2016 English-German?",
                                  INDEX) is None


def test_a_label_the_query_uses_for_another_name_is_never_taken() -> None:
    asked = "Is Duel hs better than Dueling DDQN?"
    assert as_the_question_writes("Dueling hs", "model", asked, INDEX, frozenset({"Duel hs"})) is None


def test_the_query_is_respelled_with_a_note_and_the_names_step_says_what_it_read() -> None:
    query = ('SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl. '
             'FILTER (str(?model_lbl) = "LSTM") ?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }')
    asked = CODE.format("LSTM (Bai et al., 2018)")
    sparql, notes = respelled(query, INDEX, asked)
    assert '"LSTM (Bai et al., 2018)"' in sparql and '"LSTM"' not in sparql
    assert notes == ("wrote 'LSTM (Bai et al., 2018)' for 'LSTM', as the question writes this model of the graph",)
    assert respelled(sparql, INDEX, asked) == (sparql, ())
    assert check_names(query, INDEX, asked).sparql == sparql
