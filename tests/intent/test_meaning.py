"""The guard's checks of a query's form against what the question asks: direction, answer shape, an answer tied to
what the question names. They hold whatever vocabulary the query uses, and none vetoes SciQA's own gold queries."""
from __future__ import annotations

from pipeline.intent.guard import check, contradicted
from pipeline.intent.meaning import (
    bare_things,
    conflicting_kinds,
    rankings,
    unjoined_literals,
    untied_answers,
    with_labels,
    wrong_direction,
)
from pipeline.intent.reading import read_intent
from pipeline.sciqa import SciQA
from pipeline.sparql.shape import read
from pipeline.sparql.text import parses
from tests.sparql.test_joins import T05

BEST = """SELECT ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?d. FILTER(str(?d) = "SQuAD1.1")
  ?metric a orkgc:Metric; rdfs:label ?m. FILTER(str(?m) = "F1")
  ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_METRIC ?metric;
  orkgp:HAS_VALUE ?value. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.
} ORDER BY DESC(?value) LIMIT 1"""
WORST = BEST.replace("DESC(?value)", "ASC(?value)")
# the same ranking in a vocabulary the guard cannot read (a comparison's own properties)
OPAQUE = """SELECT ?system WHERE { orkgr:R6946 orkgp:compareContribution ?cont. ?cont orkgp:P5015 ?recall;
  rdfs:label ?system. } ORDER BY DESC(?recall) LIMIT 1"""
PAPERS = """SELECT ?paper WHERE { ?paper rdf:type orkgc:Paper; orkgp:P31 ?c. ?c orkgp:P32 ?p. ?p rdfs:label ?l.
  FILTER(REGEX(?l, "Common Sense Reasoning", "i")) ?paper orkgp:P29 ?authors. }"""


def _missing(question: str, names: list[str], sparql: str) -> tuple[str, ...]:
    return check(read_intent(question), names, sparql, question=question).missing


def test_the_direction_a_query_ranks_in_is_read_from_the_ordering_that_picks_its_answer() -> None:
    assert rankings(BEST) == [("DESC", True)] and rankings(WORST) == [("ASC", True)]
    assert rankings(T05) == [("DESC", True)]  # the sub-select's LIMIT 1 picks
    assert rankings(BEST.replace("LIMIT 1", "LIMIT 1000")) == [("DESC", False)]  # a row cap keeps them all
    assert rankings("SELECT ?x WHERE { ?x ?p ?v } ORDER BY ?v LIMIT 3") == [("ASC", True)]


def test_a_superlative_answered_the_other_way_round_is_not_run() -> None:
    lowest, highest = read_intent("Which model has the lowest F1 on SQuAD1.1?"), \
        read_intent("Which model has the highest F1 on SQuAD1.1?")
    assert wrong_direction(lowest, BEST, read(BEST)) == "it ranks from the highest first"
    assert wrong_direction(highest, WORST, read(WORST)) == "it ranks from the lowest first"
    assert wrong_direction(lowest, WORST, read(WORST)) == wrong_direction(highest, BEST, read(BEST)) == ""
    minimum = "SELECT (MAX(?v) AS ?top) WHERE { ?e orkgp:HAS_VALUE ?v }"
    assert wrong_direction(lowest, minimum, read(minimum)) == "it takes the maximum"
    both = read_intent("What is the minimum and maximum installed capacity?")
    assert wrong_direction(both, minimum, read(minimum)) == ""
    # "best" and "top" are not read: which end is best depends on the metric (SciQA ranks every "best" DESC)
    assert _missing("Which model performs best in terms of F1 on SQuAD1.1?", ["F1", "SQuAD1.1"], WORST) == ()
    assert _missing("Which model has the highest F1 score on SQuAD1.1?", ["F1", "SQuAD1.1"], WORST) == \
        ("the highest value (it ranks from the lowest first)",)


def test_the_highest_asked_of_a_query_listing_every_model_in_no_order_is_not_run() -> None:
    """The model dropped the ranking: every model evaluated would answer "which has the highest"."""
    unranked = BEST.replace("ORDER BY DESC(?value) LIMIT 1", "LIMIT 1000")
    question = "On SQuAD1.1, which model has the highest F1?"
    assert _missing(question, ["F1", "SQuAD1.1"], unranked) == (
        "the highest value (it lists them without ranking them)",)
    assert _missing(question, ["F1", "SQuAD1.1"], BEST) == ()
    # a value asked for ("what is the highest F1"), a maximum taken, or "best" (not read): the query stands
    top = "SELECT (MAX(?value) AS ?top) WHERE { ?eval orkgp:HAS_VALUE ?value }"
    assert _missing("What is the highest F1 ever reported?", [], top) == ()
    assert _missing("Which model performs best in terms of F1 on SQuAD1.1?", ["F1", "SQuAD1.1"], unranked) == ()


def test_what_the_form_plainly_contradicts_is_held_even_in_a_vocabulary_the_guard_cannot_read() -> None:
    assert _missing("Which system has the worst recall?", [], OPAQUE) == \
        ("the lowest value (it ranks from the highest first)",)
    assert _missing("Which system has the best recall?", [], OPAQUE) == ()
    assert _missing("Which system has the second best recall?", [], OPAQUE) == \
        ("the second place in a ranking (it skips no places)",)
    counted = check(read_intent("How many papers address Common Sense Reasoning?"), ["Common Sense Reasoning"],
                    PAPERS, question="How many papers address Common Sense Reasoning?")
    assert counted.missing == ("a count (how many) (it lists things instead of counting them)",)
    assert _missing("Do papers address Common Sense Reasoning?", ["Common Sense Reasoning"], PAPERS) == \
        ("a yes/no answer (it lists things instead)",)


def test_a_plain_reading_only_where_the_words_are_plain() -> None:
    """'the largest number of' ranks by a count; 'Do you know which' asks for a list; a value is no list."""
    ranked = PAPERS.replace("SELECT ?paper", "SELECT ?authors") + " ORDER BY DESC(COUNT(?paper)) LIMIT 1"
    assert not any("count" in m for m in _missing("Who wrote the largest number of papers?", [], ranked))
    listed = "Do you know which papers address Common Sense Reasoning?"
    assert _missing(listed, ["Common Sense Reasoning"], PAPERS) == ()
    value = 'SELECT ?v WHERE { orkgr:R1 orkgp:P31 ?c. ?c orkgp:P9 ?v }'
    assert _missing("How many parameters does the model in R1 have?", [], value) == ()


def test_an_answer_joined_to_none_of_the_names_is_not_run() -> None:
    beside = """SELECT DISTINCT ?research_field WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl.
      FILTER (str(?problem_lbl) = "Paraphrase Identification") ?research_field a orkgc:ResearchField;
      rdfs:label ?research_field_labels. }"""
    question = "Which research field does the Paraphrase Identification problem belong to?"
    assert untied_answers(beside) == ["?research_field"]
    assert _missing(question, ["Paraphrase Identification"], beside) == (
        "an answer tied to what the question names (?research_field is joined to none of its names)",)
    joined = beside.replace("?research_field a orkgc:ResearchField;", "?cont orkgp:P32 ?problem. ?paper orkgp:P31 "
                            "?cont; orkgp:P30 ?research_field. ?research_field")
    assert _missing(question, ["Paraphrase Identification"], joined) == ()
    # no name in the question, or no constant in the query: nothing to be tied to
    assert _missing("Which research fields are there?", [], beside) == ()
    assert untied_answers("SELECT ?f WHERE { ?f a orkgc:ResearchField }") == []


def test_several_answers_joined_to_none_of_the_names_are_said_once() -> None:
    """A model and its label in an OPTIONAL tied to nothing: one reason naming both (the user and the re-asked
    model read it), not the same words twice."""
    optional = """SELECT DISTINCT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl.
      FILTER (str(?dataset_lbl) = "CommonsenseQA") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval.
      OPTIONAL {?paper orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl.} }"""
    assert _missing("Which models have been evaluated on the CommonsenseQA dataset?", ["CommonsenseQA"], optional) == (
        "an answer tied to what the question names (?model and ?model_lbl are joined to none of its names)",)


def test_sciqas_leaderboard_query_is_run_and_its_metric_noted_as_joined_to_nothing() -> None:
    """T05 (470 of SciQA's gold queries) is a cross product: its answer is tied to the dataset, its metric pattern
    to nothing. Its answer stands (not vetoed); the step composes a better query only for an operator it reads."""
    question = "Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?"
    verdict = check(read_intent(question), ["Accuracy", "Story Cloze Test"], T05, question=question)
    assert verdict.ok and verdict.unjoined == ("Accuracy",)
    assert unjoined_literals(["Story Cloze Test"], T05) == []


def test_what_a_predicate_leads_to_is_what_the_answer_is_whatever_its_variable_is_called() -> None:
    problems = """SELECT DISTINCT ?research_fields WHERE { ?papers rdf:type orkgc:Paper. ?papers rdfs:label ?t.
      FILTER(REGEX(?t, "Question Answering", "i")) ?papers orkgp:P31 ?contrib. ?contrib orkgp:P32 ?research_fields.
      ?research_fields rdfs:label ?research_fields_labels. }"""
    question = "In which research fields is Question Answering studied?"
    assert check(read_intent(question), ["Question Answering"], problems, frozenset({"researchfield"}),
                 mentioned=frozenset({"researchfield"}), question=question).missing == ("fields as its answer",)
    crossed = """SELECT DISTINCT ?dataset WHERE { ?model a orkgc:Model; rdfs:label ?l. FILTER(str(?l) = "Plain LSTM")
      ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?model. }"""
    assert conflicting_kinds(read(crossed)) == ["?model as one kind of thing (typed a model, reached as a problem)"]
    assert conflicting_kinds(read(crossed.replace("orkgp:P32 ?model", "orkgp:HAS_MODEL ?model"))) == []


PROBLEMS = ('SELECT DISTINCT ?problem WHERE { ?d a orkgc:Dataset; rdfs:label ?l. FILTER(str(?l) = "SQuAD1.1") '
            '?b orkgp:HAS_DATASET ?d. ?c orkgp:HAS_BENCHMARK ?b; orkgp:P32 ?problem }')


def test_things_answered_by_their_iris_are_answered_by_their_labels() -> None:
    labelled = with_labels(PROBLEMS, "Which research problems is SQuAD1.1 used for?")
    shape = read(labelled)
    assert parses(labelled) and shape.projection == ["?problem_label"]
    assert ("?problem", "rdfs:label", "?problem_label") in shape.triples
    assert bare_things(read(PROBLEMS)) == ["?problem"] and bare_things(shape) == []


def test_labels_are_left_alone_where_given_asked_against_or_not_to_be_had() -> None:
    assert with_labels(PROBLEMS, "What are the IDs of the problems SQuAD1.1 is used for?") == ""  # ids asked for
    assert with_labels(BEST, "Which model is best on SQuAD1.1 by F1?") == ""  # its label is the answer already
    grouped = PROBLEMS.replace("DISTINCT ?problem", "?problem (COUNT(?b) AS ?n)") + " GROUP BY ?problem"
    assert with_labels(grouped, "Which research problems is SQuAD1.1 used for, how often?") == ""
    assert with_labels('SELECT ?code WHERE { ?c orkgp:HAS_SOURCE_CODE ?code }', "Where is the code?") == ""
    # ?model only an OPTIONAL binds: "?model rdfs:label ?l" after it would answer with every labelled thing of the
    # graph wherever the OPTIONAL finds no model (the 1.5B's query for "List all the models on the X dataset?"), so
    # the label goes inside that OPTIONAL
    optional = ('SELECT DISTINCT ?model WHERE { ?d a orkgc:Dataset; rdfs:label ?l. FILTER(str(?l) = "SQuAD1.1") '
                '?b orkgp:HAS_DATASET ?d; orkgp:HAS_EVALUATION ?e. OPTIONAL { ?e orkgp:HAS_MODEL ?model. } }')
    inside = with_labels(optional, "List all the models on the SQuAD1.1 dataset?")
    assert "OPTIONAL { ?e orkgp:HAS_MODEL ?model.  ?model rdfs:label ?model_label. } }" in inside
    assert parses(inside) and read(inside).projection == ["?model_label"]
    required = with_labels(optional.replace("OPTIONAL { ?e orkgp:HAS_MODEL ?model. }", "?e orkgp:HAS_MODEL ?model."),
                           "List all the models on the SQuAD1.1 dataset?")
    assert required.endswith("?e orkgp:HAS_MODEL ?model.  ?model rdfs:label ?model_label. }")


# a comparison's own properties, which the guard cannot read (invented: no set in the tree asks of them)
VALUES = "SELECT ?is_treated WHERE { orkgr:R4242 orkgp:compareContribution ?c. ?c orkgp:P7777 ?is_treated. }"
ALPHABETICAL = "SELECT DISTINCT ?tool WHERE { ?c orkgp:P8888 [ rdfs:label ?tool ] } ORDER BY ?tool"
MEAN = """SELECT (AVG(?v) AS ?mean) WHERE { orkgr:R4242 orkgp:compareContribution ?c. ?c orkgp:P6001 ?crop.
  ?crop orkgp:P6002 ?y. BIND(xsd:float(?y) AS ?v) }"""


def test_a_yes_no_question_answered_with_values_is_not_run() -> None:
    assert _missing("Are vaccines tested in the studies?", [], VALUES) == ("a yes/no answer (it lists values instead)",)
    asked = "ASK { orkgr:R4242 orkgp:compareContribution ?c. ?c orkgp:P7777 ?t. FILTER(REGEX(?t, 'vacc')) }"
    assert _missing("Are vaccines tested in the studies?", [], asked) == ()
    assert _missing("Are vaccines tested in the studies?", [], VALUES.replace("?is_treated WHERE",
                                                                              "(COUNT(?is_treated) AS ?n) WHERE")) == ()


def test_the_most_or_least_common_counts() -> None:
    assert _missing("What is the least common tool used?", [], ALPHABETICAL) == (
        "a ranking by how often ('least common' is a matter of how often, and it counts nothing)",)
    ranked = ALPHABETICAL.replace("ORDER BY ?tool", "GROUP BY ?tool ORDER BY ASC(COUNT(?tool)) LIMIT 1")
    assert _missing("What is the least common tool used?", [], ranked) == ()
    assert _missing("Which tool is used most often?", [], ALPHABETICAL)[0].startswith("a ranking by how often")
    # SciQA's own form: "the most commonly used datasets for field X" lists the datasets used
    assert not _missing("What are the most commonly used tools for the X field?", [], ALPHABETICAL)


def test_a_figure_for_each_is_not_one_figure_for_all() -> None:
    assert _missing("What is the average yield for each crop considered?", [], MEAN) == (
        "a figure for each one ('for each crop' asks for one figure each, and it gives one for all of them)",)
    grouped = MEAN.replace("SELECT (AVG", "SELECT ?crop (AVG") + " GROUP BY ?crop"
    assert _missing("What is the average yield for each crop considered?", [], grouped) == ()
    implicit = MEAN.replace("SELECT (AVG", "SELECT ?crop (AVG")  # Virtuoso groups by the plain variable itself
    assert _missing("What is the average yield per crop?", [], implicit) == ()
    assert _missing("What is the average yield of the crops considered?", [], MEAN) == ()


def test_a_count_answering_a_question_that_asks_which_ones_is_not_run() -> None:
    counted = ALPHABETICAL.replace("SELECT DISTINCT ?tool", "SELECT (COUNT(DISTINCT ?tool) AS ?n)").replace(
        " ORDER BY ?tool", "")
    assert _missing("Which tools are used in the studies?", [], counted) == (
        "the things asked for (which ones, not how many) (it counts them instead of naming them)",)
    assert _missing("Which tools are used in the studies?", [], ALPHABETICAL) == ()
    for amount in ("What is the number of tools used?", "How many tools are used?", "What is the total of tools?",
                   "Count the tools used", "Are any tools used?"):
        assert _missing(amount, [], counted) == (), amount
    # a count beside the things is no bare count ('which tools, and how often')
    assert _missing("Which tools are used?", [], counted.replace("SELECT (COUNT", "SELECT ?tool (COUNT")
                    + " GROUP BY ?tool") == ()


def test_the_most_of_a_kind_is_a_ranking_by_how_many() -> None:
    listed = "SELECT DISTINCT ?model WHERE { ?c orkgp:HAS_MODEL ?model; orkgp:HAS_BENCHMARK ?b. }"
    ranked = ("SELECT ?model WHERE { ?c orkgp:HAS_MODEL ?model; orkgp:HAS_BENCHMARK ?b. ?b orkgp:HAS_DATASET ?d. } "
              "GROUP BY ?model ORDER BY DESC(COUNT(DISTINCT ?d)) LIMIT 1")
    question = "Which model has been run on the most datasets?"
    assert _missing(question, [], listed)[0].startswith("a ranking by how often ('the most datasets'")
    assert _missing(question, [], ranked) == ()


def test_leaving_things_out_is_a_restriction_the_question_must_state() -> None:
    both = ('SELECT DISTINCT ?m WHERE { ?d rdfs:label "A". ?b orkgp:HAS_DATASET ?d. ?c orkgp:HAS_BENCHMARK ?b; '
            'orkgp:HAS_MODEL ?m. FILTER NOT EXISTS { ?e rdfs:label "B". ?f orkgp:HAS_DATASET ?e. '
            '?g orkgp:HAS_BENCHMARK ?f; orkgp:HAS_MODEL ?m. } }')
    assert any(m.startswith("no restriction the question does not state") for m in _missing(
        "Which models were run on both A and B?", [], both))
    for asked in ("Which models were run on A but not on B?", "Which models were run on A only?",
                  "Which models run on A don't have results on B?", "Models on A without results on B"):
        assert not any("restriction" in m for m in _missing(asked, [], both)), asked


def test_no_gold_query_of_sciqa_contradicts_its_question_in_form(sciqa: SciQA) -> None:
    """Every form the guard holds whatever the vocabulary, against all 2,565 of SciQA's gold pairs: none vetoed."""
    vetoed = [r.id for r in sciqa.all() if contradicted(r.question, r.sparql)]
    assert len(list(sciqa.all())) == 2565 and vetoed == []
