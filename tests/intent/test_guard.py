"""The guard refuses a query that answers another question than the one asked."""
from __future__ import annotations

from pipeline.intent.guard import check, loosely_other_kinds, searched_kinds, slot_kinds, wrong_kinds
from pipeline.intent.reading import asked_kinds, mentioned_kinds, read_intent
from pipeline.names.index import LabelIndex

BEST = """SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl.
  FILTER (str(?metric_lbl) = "EM") ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl.
  FILTER (str(?dataset_lbl) = "SQuAD1.1") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval.
  ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model.
  ?model rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1"""
LIST = """SELECT DISTINCT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl.
  FILTER (str(?dataset_lbl) = "SQuAD1.1") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark;
  orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }"""


def _check(question: str, names: list[str], sparql: str, asked: frozenset[str] = frozenset()) -> tuple[str, ...]:
    return check(read_intent(question), names, sparql, asked).missing


def test_a_named_model_the_query_drops_is_a_mismatch() -> None:
    missing = _check("What is the EM score of XLNet (single model) on SQuAD1.1?",
                     ["EM", "XLNet (single model)", "SQuAD1.1"], BEST)
    assert missing == ("the name 'XLNet (single model)'",)


def test_form_words_at_the_edge_of_a_name_do_not_count() -> None:
    assert check(read_intent("Which model has achieved the highest F1 score on SQuAD1.1?"), ["F1 score", "SQuAD1.1"],
                 BEST.replace('"EM"', '"F1"'), generic=frozenset({"score"})).ok


def test_the_question_it_was_written_for_passes() -> None:
    assert _check("Which model has achieved the highest EM score on the SQuAD1.1 dataset?", ["EM", "SQuAD1.1"],
                  BEST, frozenset({"model"})) == ()


def test_operators_the_query_lacks() -> None:
    assert _check("How many models have been evaluated on the SQuAD1.1 dataset?", ["SQuAD1.1"], LIST) == \
        ("a count (how many)",)
    assert _check("Which model is second best on SQuAD1.1 by EM?", ["SQuAD1.1", "EM"], BEST) == \
        ("the second place in a ranking (it skips no places)",)
    assert _check("Which model has the lowest EM on SQuAD1.1?", ["EM", "SQuAD1.1"], BEST) == \
        ("the lowest value (it ranks from the highest first)",)
    assert _check("Which models are evaluated on both SQuAD1.1 and SQuAD2.0?", ["SQuAD1.1", "SQuAD2.0"], LIST) == \
        ("the name 'SQuAD2.0'", "things on both of two")
    assert _check("Is BERT evaluated on SQuAD1.1?", ["SQuAD1.1"], LIST) == ("a yes/no answer",)


def test_a_query_answering_another_kind_of_thing_is_a_mismatch() -> None:
    assert check(read_intent("Which papers report on SQuAD1.1?"), ["SQuAD1.1"], LIST, frozenset({"paper"}),
                 mentioned=frozenset({"paper"})).missing == ("papers as its answer",)


def test_a_name_taken_for_another_kind_than_the_graph_has() -> None:
    taken = slot_kinds(LIST)
    assert taken == {"SQuAD1.1": "dataset"}
    assert wrong_kinds(taken, {"SQuAD1.1": ("SQuAD1.1", {"model"})}) == \
        ["'SQuAD1.1' as the model it is (the query takes it for a dataset)"]
    assert wrong_kinds(taken, {"SQuAD1.1": ("SQuAD1.1", {"dataset"})}) == []


CODE = """SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl. FILTER (str(?model_lbl) = "BiDAF")
  ?cont orkgp:HAS_MODEL ?model; orkgp:HAS_SOURCE_CODE ?code. }"""


def test_an_answer_of_a_kind_the_question_mentions_even_misspelt_passes() -> None:
    question = "List the cde links in papers that use the BiDAF model"
    assert check(read_intent(question), ["BiDAF"], CODE, frozenset({"paper"}), mentioned=mentioned_kinds(question)).ok
    question = "Which papers describe the BiDAF model?"
    assert check(read_intent(question), ["BiDAF"], CODE, frozenset({"paper"}),
                 mentioned=mentioned_kinds(question)).missing == ("papers as its answer",)


COMPARISON = """SELECT ?number_of_questions WHERE { orkgr:R154290 orkgp:P31 ?contrib.
  ?contrib orkgp:P41923 ?number_of_questions. }"""


def test_a_name_held_by_a_regex_a_number_or_with_two_letters_swapped_is_used() -> None:
    regex = 'SELECT ?p WHERE { ?paper rdfs:label ?t. FILTER(REGEX(STR(?t), "LIMSI participation at QALD-5@CLEF")) }'
    assert check(read_intent("Which problem does paper QADL-5@CLEF address?"), ["QADL-5@CLEF"], regex).ok
    year = "SELECT ?paper WHERE { ?paper orkgp:P29 ?year. FILTER(xsd:int(?year) = 2050) }"
    assert check(read_intent("Which papers consider the 2050 time frame?"), ["2050"], year).ok
    other = BEST.replace('"SQuAD1.1"', '"WMT2016 English-German"')
    assert _check("Which model is best on WMT2014 English-German by EM?", ["EM", "WMT2014 English-German"], other) == \
        ("the name 'WMT2014 English-German'",)


def test_a_name_an_orkg_resource_may_stand_for_runs_and_says_it_was_not_checked() -> None:
    verdict = check(read_intent("What is the amount of questions for LC-QuAD 2.0 dataset?"), ["LC-QuAD 2.0"],
                    COMPARISON, frozenset({"dataset"}))
    assert verdict.ok
    assert verdict.notes[0].startswith("took 'LC-QuAD 2.0' for what orkgr:R154290, orkgp:P41923")
    copied = check(read_intent("What is the amount of questions for QALD-9?"), ["QALD-9"], COMPARISON,
                   foreign=frozenset({"orkgr:R154290", "orkgp:P41923"}))
    assert copied.missing == ("the name 'QALD-9'",)


def test_an_answer_by_a_comparison_property_is_a_kind_the_guard_cannot_tell_apart() -> None:
    query = """SELECT DISTINCT ?location WHERE { ?_ orkgp:compareContribution [ orkgp:P32 [ rdfs:label ?label ];
      orkgp:P5049 ?location ] FILTER(REGEX(STR(?label), "geopoli?tics")) }"""
    verdict = check(read_intent("Which countries are considered in the papers about geopolitics?"), ["geopolitics"],
                    query, frozenset({"paper"}), mentioned=frozenset({"paper"}))
    assert verdict.ok and "papers as its answer" in verdict.notes[0]
    assert "orkgp:compareContribution" in verdict.notes[0]
    # the same answer over the vocabulary the guard reads is still refused
    assert check(read_intent("Which papers report on SQuAD1.1?"), ["SQuAD1.1"], LIST, frozenset({"paper"}),
                 mentioned=frozenset({"paper"})).missing == ("papers as its answer",)


def test_a_count_anywhere_a_total_and_a_bound_yes_or_no_are_what_was_asked() -> None:
    ranked = """SELECT ?author WHERE { ?paper a orkgc:Paper; orkgp:P27 ?author; rdfs:label ?t.
      FILTER(REGEX(?t, "music")) } ORDER BY DESC(COUNT(?author)) LIMIT 1"""
    assert "a count (how many)" not in _check("Who wrote the largest number of papers about music?", ["music"],
                                               ranked)
    total = "SELECT (SUM(?n) AS ?total) WHERE { ?paper a orkgc:Paper; orkgp:HAS_VALUE ?n. }"
    assert _check("What is the total number of species in the papers?", [], total) == ()
    uses = """SELECT ?uses WHERE { ?paper a orkgc:Paper; rdfs:label ?t. FILTER(REGEX(?t, "ZoomRDF"))
      ?paper orkgp:HAS_VALUE ?f. BIND(IF(?f = "T", "Yes", "No") AS ?uses) }"""
    assert _check('Does "ZoomRDF" use filters?', ["ZoomRDF"], uses) == ()
    assert _check("Is BERT evaluated on SQuAD1.1?", ["SQuAD1.1"], LIST) == ("a yes/no answer",)


def test_an_answer_labelling_a_typed_thing_is_of_its_class() -> None:
    titles = """SELECT DISTINCT ?title WHERE { ?paper a orkgc:Paper; orkgp:HAS_DATASET ?d; rdfs:label ?title.
      ?d rdfs:label ?l. FILTER(str(?l) = "DBLP") }"""
    assert check(read_intent("Which papers use the DBLP dataset?"), ["DBLP"], titles, frozenset({"paper"})).ok


def test_research_fields_and_papers_asked_for_are_named_in_plain_words() -> None:
    question = "Which research fields and papers report on SQuAD1.1?"
    verdict = check(read_intent(question), ["SQuAD1.1"], LIST, asked_kinds(question), mentioned=frozenset())
    assert verdict.missing == ("fields or papers as its answer",)


def test_prefix_declarations_name_no_resource_the_guard_cannot_read() -> None:
    """A model that declares its prefixes is judged like one that does not: its operators and kinds are read."""
    declared = "PREFIX orkgp: <http://orkg.org/orkg/predicate/>\nPREFIX orkgc: <http://orkg.org/orkg/class/>\n" + LIST
    assert _check("How many models have been evaluated on the SQuAD1.1 dataset?", ["SQuAD1.1"], declared) == \
        ("a count (how many)",)
    assert check(read_intent("Which papers report on SQuAD1.1?"), ["SQuAD1.1"], declared, frozenset({"paper"}),
                 mentioned=frozenset({"paper"})).missing == ("papers as its answer",)


def test_a_name_looked_for_in_titles_is_taken_for_a_paper_unless_the_question_asks_about_titles() -> None:
    ask = ('ASK { ?p a orkgc:Paper; rdfs:label ?t. FILTER(REGEX(?t, "BERT", "i")) ?p orkgp:P31 ?c. '
           '?c orkgp:P32 ?r. ?r rdfs:label ?rl. FILTER(str(?rl) = "Question Answering") }')
    assert searched_kinds(ask, "Does BERT address Question Answering?") == {"BERT": "paper"}
    assert searched_kinds(ask, "Is there a paper with BERT in its title on Question Answering?") == {}
    graph = {"BERT": ("BERT", {"model"})}
    assert wrong_kinds(searched_kinds(ask, "Does BERT address Question Answering?"), graph) == [
        "'BERT' as the model it is (the query takes it for a paper)"]


def test_a_name_taken_for_the_kind_asked_for_that_the_graph_has_loosely_as_another_is_a_mismatch() -> None:
    index = LabelIndex([("QuickReader", "model"), ("SQuAD1.1", "dataset")], threshold=85.0)
    taken = {"QuikReader": "dataset"}
    assert loosely_other_kinds(taken, {}, frozenset({"dataset"}), index) == [
        "'QuikReader' as the model it is in the graph ('QuickReader'), not a dataset"]
    assert loosely_other_kinds(taken, {}, frozenset({"paper"}), index) == []  # not the kind asked for
    assert loosely_other_kinds({"Zorblax": "dataset"}, {}, frozenset({"dataset"}), index) == []  # nothing like it
    assert loosely_other_kinds({"SQuAD1.2": "dataset"}, {}, frozenset({"dataset"}), index) == []  # a dataset's slip


def test_a_name_compared_as_a_value_is_not_the_thing_it_names() -> None:
    """A stored query's date filter refilled with a research field's name counts nothing of that field."""
    adapted = ('SELECT (COUNT(?date) AS ?n) WHERE { orkgr:R110393 orkgp:compareContribution ?contrib. '
               '?contrib orkgp:P9040 ?date. FILTER(?date > "Acoustic Signal Processing"^^xsd:string) }')
    question = "How many papers are there in Acoustic Signal Processing?"
    verdict = check(read_intent(question), ["Acoustic Signal Processing"], adapted, question=question)
    assert verdict.missing == ("the name 'Acoustic Signal Processing' as the thing it names (it compares it as a "
                               "value)",)
    held = adapted.replace('?date > "Acoustic Signal Processing"^^xsd:string',
                           'str(?date) = "Acoustic Signal Processing"')
    assert check(read_intent(question), ["Acoustic Signal Processing"], held, question=question).missing == ()


def test_those_of_one_but_not_of_the_other_are_held_by_a_query_that_excludes() -> None:
    question = "Which models were run on Story Cloze Test but not on LoreQA Reading Set?"
    both = ('SELECT DISTINCT ?m WHERE { ?d rdfs:label ?dl. FILTER(str(?dl) = "Story Cloze Test") '
            '?b orkgp:HAS_DATASET ?d. ?c orkgp:HAS_BENCHMARK ?b; orkgp:HAS_MODEL ?m. ?e rdfs:label ?el. '
            'FILTER(str(?el) = "LoreQA Reading Set") ?f orkgp:HAS_DATASET ?e. ?g orkgp:HAS_BENCHMARK ?f; '
            'orkgp:HAS_MODEL ?m. }')
    names = ["Story Cloze Test", "LoreQA Reading Set"]
    assert "those of one but not of the other (it excludes nothing)" in check(
        read_intent(question), names, both, question=question).missing
    minus = both.replace("?e rdfs:label", "FILTER NOT EXISTS { ?e rdfs:label")[:-1] + "} }"
    assert check(read_intent(question), names, minus, question=question).missing == ()


def test_a_value_asked_of_a_query_answering_with_things_is_not_run() -> None:
    from pipeline.intent.guard import VALUE_ASKED

    question = "What is the highest Accuracy reported on Story Cloze Test?"
    best = ('SELECT ?model_lbl WHERE { ?d rdfs:label ?dl. FILTER(str(?dl) = "Story Cloze Test") '
            '?b orkgp:HAS_DATASET ?d; orkgp:HAS_EVALUATION ?e. ?e orkgp:HAS_VALUE ?value. '
            '?c orkgp:HAS_BENCHMARK ?b; orkgp:HAS_MODEL ?m. ?m rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1')
    names = ["Accuracy", "Story Cloze Test"]
    assert VALUE_ASKED in check(read_intent(question), names, best, question=question, value=True).missing
    valued = best.replace("SELECT ?model_lbl", "SELECT ?value")
    assert VALUE_ASKED not in check(read_intent(question), names, valued, question=question, value=True).missing
    assert VALUE_ASKED not in check(read_intent(question), names, best, frozenset({"model"}), question=question,
                                    value=True).missing  # a kind asked ('which model …') is what answers it


def test_the_things_listed_last_as_what_to_show_are_each_given() -> None:
    from pipeline.intent.reading import read_intent

    q = "where + when was the paper X published? venue and year"
    year_only = 'SELECT ?year WHERE { ?paper a orkgc:Paper; rdfs:label ?t; orkgp:P29 ?year. FILTER(str(?t) = "A") }'
    assert check(read_intent(q), [], year_only, stated=q).missing == ("the venue asked for",)
    both = ('SELECT ?venue_lbl ?year WHERE { ?paper a orkgc:Paper; rdfs:label ?t; orkgp:P29 ?year; orkgp:HAS_VENUE ?v. '
            '?v rdfs:label ?venue_lbl. FILTER(str(?t) = "A") }')
    assert check(read_intent(q), [], both, stated=q).missing == ()
