"""The one-sentence reading of a query, built from its shape; shown with every answer, used when it is empty."""
from __future__ import annotations

from collections.abc import Sequence

import pytest

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.records import Example, Generation, Retrieved, Rows
from pipeline.sciqa import SciQA
from pipeline.sparql.explain import explain
from standins.fakes import RecordingKG
from tests.matching.test_forms import T01, T05
from tests.sparql.test_shape import T04

T07 = ('SELECT DISTINCT ?code WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl. FILTER (str(?model_lbl) = "BERT") '
       '?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark. ?cont orkgp:HAS_MODEL ?model; '
       'orkgp:HAS_SOURCE_CODE ?code. }')
T06 = ('SELECT DISTINCT ?dataset ?dataset_lbl WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl. '
       'FILTER (str(?problem_lbl) = "Question Answering") ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
       '?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:P32 ?problem. }')
T08 = ('SELECT DISTINCT ?problem ?problem_lbl WHERE { ?rf a orkgc:ResearchField; rdfs:label ?rf_label. '
       'FILTER (str(?rf_label) = "Robotics") ?paper orkgp:P30 ?rf; orkgp:P31 ?cont. ?cont orkgp:HAS_BENCHMARK '
       '?benchmark; orkgp:P32 ?problem. ?problem rdfs:label ?problem_lbl. }')
T03 = ('SELECT DISTINCT ?metric ?metric_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
       'FILTER (str(?dataset_lbl) = "QNLI") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. '
       'OPTIONAL { ?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. } }')


class OneStore:
    """An example store holding nothing; the scripted generator needs no examples."""

    def search(self, question: str, k: int) -> list[Retrieved]:
        return []

    def add(self, examples: Sequence[Example]) -> int:
        return 0

    def count(self) -> int:
        return 0

    def examples(self, source: str | None = None) -> list[Example]:
        return []


class Scripted:
    name = "scripted"

    def __init__(self, sparql: str | None) -> None:
        self.sparql = sparql

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        return Generation(self.name, self.sparql)


@pytest.mark.parametrize(("query", "reading"), [
    (T05.format(m="Accuracy", d="Story Cloze Test"), "It asks for models evaluated on dataset 'Story Cloze Test', "
                                                     "ordered by their 'Accuracy' score, the best one."),
    (T01.format(d="RACE"), "It asks for models evaluated on dataset 'RACE'."),
    (T03, "It asks for metrics used to evaluate models on dataset 'QNLI'."),
    (T04, "It asks for metrics used to evaluate models on dataset 'IMDb', each with its highest score."),
    (T06, "It asks for datasets benchmarked for research problem 'Question Answering'."),
    (T07, "It asks for code links of papers that use model 'BERT'."),
    (T08, "It asks for research problems in research field 'Robotics'."),
    ("SELECT (COUNT(?m) AS ?n) WHERE { ?m a orkgc:Model }", "It asks for the number of models."),
    ("SELECT (MIN(?score) AS ?lowest) (MAX(?score) AS ?highest) WHERE { ?d a orkgc:Dataset; rdfs:label ?d_lbl. "
     'FILTER(str(?d_lbl) = "OxiTea") ?b orkgp:HAS_DATASET ?d; orkgp:HAS_EVALUATION ?e. ?e orkgp:HAS_VALUE ?score. }',
     "It asks for the lowest and the highest scores evaluated on dataset 'OxiTea'."),
    # the venues asked are not said to have a venue; a named exclusion is said by its name, not its chain
    ("SELECT ?venue_lbl (COUNT(DISTINCT ?paper) AS ?papers) WHERE { ?venue a orkgc:Venue; rdfs:label ?venue_lbl. "
     "?paper orkgp:HAS_VENUE ?venue. } GROUP BY ?venue ?venue_lbl",
     "It asks for venues, each with its number of papers."),
    ('SELECT DISTINCT ?paper_lbl WHERE { ?paper rdfs:label ?paper_lbl. FILTER NOT EXISTS { ?v a orkgc:Venue; '
     'rdfs:label ?v_lbl. FILTER(str(?v_lbl) = "WACV") ?paper orkgp:P31 ?c. ?paper orkgp:HAS_VENUE ?v. } }',
     "It asks for papers but not linked to venue 'WACV'."),
    ('SELECT ?drug WHERE { orkgr:R155621 orkgp:compareContribution ?c. ?c orkgp:P37578 ?drug. } '
     'ORDER BY DESC(COUNT(?drug)) LIMIT 1',
     "It asks for drug in comparison orkgr:R155621, ordered by how often they occur, the most common one."),
])
def test_readings_follow_the_query_structure(query: str, reading: str) -> None:
    assert explain(query) == reading


def test_the_gates_row_cap_is_not_part_of_the_question() -> None:
    assert explain(T01.format(d="RACE") + " LIMIT 1000") == explain(T01.format(d="RACE"))


def test_what_is_not_a_query_has_no_reading() -> None:
    assert explain("I cannot write a query for this.") == ""
    assert explain("INSERT DATA { <a> <b> <c> }") == ""


def test_every_sciqa_query_gets_one_sentence(sciqa: SciQA) -> None:
    for record in sciqa.all():
        reading = explain(record.sparql)
        assert reading.startswith("It asks ") and reading.endswith(".") and "\n" not in reading, record.id


def test_the_pipeline_attaches_the_reading_and_uses_it_when_nothing_matches() -> None:
    query = T01.format(d="RACE")
    found = Pipeline(Parts(OneStore(), Scripted(query), RecordingKG()),
                     Bounds(shots=3, row_cap=1000, max_question_chars=2000,
                            workers=4)).ask("Which models ran on RACE?")
    assert found.reading == explain(query) and found.to_json()["reading"] == found.reading
    empty = Pipeline(Parts(OneStore(), Scripted(query), RecordingKG(Rows(["model"], []))),
                     Bounds(shots=3, row_cap=1000, max_question_chars=2000,
                            workers=4)).ask("Which models ran on RACE?")
    assert empty.explanation.endswith(explain(query))
    pipeline = Pipeline(Parts(OneStore(), Scripted(None), RecordingKG()),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    assert pipeline.run_sparql(query).reading == explain(query)


def test_a_number_compared_with_is_said_and_the_top_of_an_error_is_its_highest() -> None:
    after = ("SELECT DISTINCT ?paper ?paper_lbl WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl; orkgp:P29 ?year. "
             "FILTER(xsd:integer(?year) > 2023) }")
    assert explain(after) == "It asks for papers with year above '2023'."
    ranked = ('SELECT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. '
              'FILTER(str(?metric_lbl) = "{m}") ?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. '
              '?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1')
    assert explain(ranked.replace("{m}", "Latency (ms)")).endswith("the highest one.")
    assert explain(ranked.replace("{m}", "Accuracy")).endswith("the best one.")


def test_a_ranking_by_a_count_says_the_one_with_the_most() -> None:
    assert explain("SELECT ?problem ?problem_lbl (COUNT(DISTINCT ?paper) AS ?papers) WHERE { ?cont orkgp:P32 "
                   "?problem. ?paper orkgp:P31 ?cont. ?problem rdfs:label ?problem_lbl. } GROUP BY ?problem "
                   "?problem_lbl ORDER BY DESC(?papers) LIMIT 1").endswith(
        "ordered by their number of papers, the one with the most.")


def test_a_yes_or_no_says_what_it_asks_whether_there_are() -> None:
    asked = ('ASK WHERE { ?problem a orkgc:Problem; rdfs:label ?problem_lbl. FILTER(str(?problem_lbl) = "ASR") '
             '?cont orkgp:P32 ?problem. ?paper orkgp:P31 ?cont; rdfs:label ?paper_lbl; orkgp:P29 ?year. '
             'FILTER(xsd:integer(?year) < 2016) }')
    assert explain(asked).startswith("It asks whether there are papers ") and "'ASR'" in explain(asked)


def test_a_place_below_the_top_is_said_as_its_place() -> None:
    ranked = ('SELECT ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. FILTER(str(?metric_lbl) = '
              '"F1") ?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. ?cont orkgp:HAS_MODEL ?model. '
              '?model rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1 OFFSET 1')
    assert explain(ranked).endswith("the second one.")
    assert explain(ranked.replace("DESC(", "ASC(")).endswith("the second lowest one.")  # from the lowest: said
    assert explain(ranked.replace("DESC(", "ASC(").replace(" OFFSET 1", "").replace("LIMIT 1", "LIMIT 3")).endswith(
        "the lowest 3.")
    assert explain(ranked.replace("LIMIT 1 OFFSET 1", "LIMIT 3 OFFSET 2")).endswith("3 after the first 2.")


def test_a_restriction_to_code_the_answer_does_not_show_is_said() -> None:
    coded = ("SELECT (COUNT(DISTINCT ?paper) AS ?papers) WHERE { ?paper a orkgc:Paper; orkgp:P31 ?c. "
             "?c orkgp:HAS_SOURCE_CODE ?code. }")
    assert explain(coded) == "It asks for the number of papers with published code."
    shown = ("SELECT ?model_lbl ?code WHERE { ?c orkgp:HAS_MODEL ?m; orkgp:HAS_SOURCE_CODE ?code. "
             "?m rdfs:label ?model_lbl. }")
    assert "published code" not in explain(shown)


def test_what_a_query_leaves_out_is_said_as_left_out() -> None:
    except_ = ('SELECT DISTINCT ?model_lbl WHERE { ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
               'FILTER(str(?dataset_lbl) = "A") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK '
               '?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. FILTER NOT EXISTS { ?other a '
               'orkgc:Dataset; rdfs:label ?other_lbl. FILTER(str(?other_lbl) = "B") ?b2 orkgp:HAS_DATASET ?other. '
               '?c2 orkgp:HAS_BENCHMARK ?b2; orkgp:HAS_MODEL ?model. } }')
    said = explain(except_)
    assert "dataset 'A' but not " in said and said.endswith("dataset 'B'.") and "but not" not in said.split("'A'")[0]
    assert "but not" in explain(except_.replace("FILTER NOT EXISTS", "MINUS"))


def test_a_number_compared_inside_what_a_query_leaves_out_is_said_as_left_out() -> None:
    kept = ('SELECT DISTINCT ?model_lbl WHERE { ?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. '
            'FILTER NOT EXISTS { ?cont orkgp:HAS_BENCHMARK ?b. ?b orkgp:HAS_EVALUATION ?e. ?e orkgp:HAS_VALUE ?value. '
            'FILTER(xsd:decimal(?value) > 90) } }')
    assert "but not with score above '90'" in explain(kept), explain(kept)


def test_a_restriction_to_things_having_or_lacking_code_or_a_venue_is_said_as_it_is() -> None:
    """'FILTER NOT EXISTS { ?paper orkgp:HAS_SOURCE_CODE ?code }' leaves papers with code out: said 'without'."""
    lacking = ("SELECT DISTINCT ?paper ?paper_lbl WHERE { ?paper a orkgc:Paper; rdfs:label ?paper_lbl. "
               "FILTER NOT EXISTS { ?paper orkgp:HAS_SOURCE_CODE ?code. } }")
    assert explain(lacking) == "It asks for papers without published code."
    venue = lacking.replace("HAS_SOURCE_CODE ?code", "HAS_VENUE ?venue")
    assert explain(venue) == "It asks for papers without a venue."
    having = lacking.replace("FILTER NOT EXISTS { ?paper orkgp:HAS_SOURCE_CODE ?code. }",
                             "?paper orkgp:HAS_SOURCE_CODE ?code.")
    assert explain(having) == "It asks for papers with published code."


def test_the_groups_a_having_keeps_are_said() -> None:
    grouped = ("SELECT ?model_lbl (COUNT(DISTINCT ?dataset) AS ?datasets) WHERE { ?cont orkgp:HAS_MODEL ?model; "
               "orkgp:HAS_BENCHMARK ?b. ?b orkgp:HAS_DATASET ?dataset. ?model rdfs:label ?model_lbl. } "
               "GROUP BY ?model_lbl HAVING(COUNT(DISTINCT ?dataset) >= 3)")
    assert explain(grouped) == "It asks for models, each with its number of datasets (at least 3)."



def test_one_of_two_named_things_is_said_as_either_of_them() -> None:
    either = ('SELECT ?winner_lbl WHERE { ?model a orkgc:Model; rdfs:label ?model_lbl. FILTER(str(?model_lbl) = "A-1") '
              '?rival a orkgc:Model; rdfs:label ?rival_lbl. FILTER(str(?rival_lbl) = "B-2") '
              '?cont orkgp:HAS_MODEL ?winner. ?winner rdfs:label ?winner_lbl. '
              'FILTER(?winner = ?model || ?winner = ?rival) '
              '} ORDER BY DESC(?winner_lbl) LIMIT 1')
    said = explain(either)
    assert "of model 'A-1' or model 'B-2'" in said and "linked to model" not in said


def test_the_gap_between_the_highest_and_the_lowest_is_said_as_one_difference() -> None:
    gap = ('SELECT ((MAX(?score) - MIN(?score)) AS ?difference) WHERE { ?metric a orkgc:Metric; rdfs:label ?m_lbl. '
           'FILTER(str(?m_lbl) = "F1") ?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. '
           'BIND(xsd:decimal(?value) AS ?score) }')
    assert explain(gap).startswith("It asks for the difference between the highest and the lowest score ")
    both = gap.replace("((MAX(?score) - MIN(?score)) AS ?difference)", "(MIN(?score) AS ?lo) (MAX(?score) AS ?hi)")
    assert explain(both).startswith("It asks for the lowest and the highest score ")


def test_the_best_of_each_group_is_said_as_on_each() -> None:
    each = ('SELECT ?dataset_lbl ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. '
            'FILTER(str(?metric_lbl) = "MAE") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. '
            '?eval orkgp:HAS_METRIC ?metric; orkgp:HAS_VALUE ?value. ?dataset rdfs:label ?dataset_lbl. '
            '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. '
            'BIND(xsd:decimal(?value) AS ?score) { SELECT ?dataset (MIN(?s) AS ?best) WHERE { '
            '?b orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?e. ?e orkgp:HAS_VALUE ?v. '
            'BIND(xsd:decimal(?v) AS ?s) } GROUP BY ?dataset } FILTER(?score = ?best) }')
    assert explain(each).endswith(", the ones with the lowest 'MAE' score on each dataset.")


def test_a_thing_left_out_by_inequality_is_said_as_other_than_it() -> None:
    other = ('SELECT ?model_lbl WHERE { ?rival a orkgc:Model; rdfs:label ?rival_lbl. FILTER(str(?rival_lbl) = "A") '
             '?cont orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. FILTER(?model != ?rival) }')
    assert "other than model 'A'" in explain(other) and "linked to model 'A'" not in explain(other)
