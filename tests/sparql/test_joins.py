"""Which parts of a query are joined to its answer, and which hold a constant."""
from __future__ import annotations

from pipeline.sparql.joins import joins

# SciQA's T05 query: the answer is joined to the dataset inside a sub-select; the outer metric pattern to nothing
T05 = """SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl.
  FILTER (str(?metric_lbl) = "Accuracy") { SELECT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset;
  rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "Story Cloze Test") ?benchmark orkgp:HAS_DATASET ?dataset;
  orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric. ?cont orkgp:HAS_BENCHMARK
  ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1 } }"""


def test_a_sub_select_joins_what_it_projects_and_keeps_its_other_variables_apart() -> None:
    found = joins(T05)
    assert found.answer == ("?model", "?model_lbl")
    assert found.constants_of("?model") == ("Story Cloze Test",)
    assert found.with_answer("Story Cloze Test") is True
    assert found.with_answer("Accuracy") is False  # the outer ?metric is not the sub-select's
    assert found.with_answer("SQuAD") is None
    inside = T05.replace("?model ?model_lbl WHERE { ?dataset", "?model ?model_lbl ?metric WHERE { ?dataset")
    assert joins(inside).with_answer("Accuracy") is True


def test_a_variable_beside_the_named_things_is_tied_to_no_constant() -> None:
    beside = """SELECT DISTINCT ?field WHERE { ?problem a orkgc:Problem; rdfs:label ?l. FILTER(str(?l) = "QA")
      ?field a orkgc:ResearchField; rdfs:label ?field_lbl. }"""
    found = joins(beside)
    assert found.constants_of("?field") == () and found.has_constants and not found.alone("?field")
    joined = beside.replace("?field a orkgc:ResearchField;", "?paper orkgp:P30 ?field; orkgp:P31 ?c. ?c orkgp:P32 "
                                                             "?problem. ?field a orkgc:ResearchField;")
    assert joins(joined).constants_of("?field") == ("QA",)


def test_brackets_paths_binds_values_and_resources_join_and_tie() -> None:
    brackets = 'SELECT ?t WHERE { ?p a orkgc:Paper; orkgp:P31 [ orkgp:P2005 [ rdfs:label "DBLP"^^xsd:string ] ]; ' \
               'rdfs:label ?t. }'
    assert joins(brackets).constants_of("?t") == ("DBLP",)  # the datatype is no constant of its own
    path = 'SELECT ?x WHERE { ?x orkgp:P31/orkgp:P32 ?y. ?y rdfs:label "QA" }'
    assert joins(path).constants_of("?x") == ("QA",)
    bound = 'SELECT ?u WHERE { ?p rdfs:label ?t. FILTER(REGEX(?t, "ZoomRDF")) ?p orkgp:P5025 ?f. ' \
            'BIND(IF(?f = "T", "Yes", "No") AS ?u) }'
    assert "ZoomRDF" in joins(bound).constants_of("?u")
    resource = "SELECT ?d WHERE { orkgr:R1 orkgp:compareContribution ?c. ?c orkgp:P9040 ?d }"
    assert joins(resource).constants_of("?d") == ("orkgr:R1",)
    values = 'SELECT ?m WHERE { VALUES ?n { "BERT" } ?m rdfs:label ?n }'
    assert joins(values).constants_of("?m") == ("BERT",)
    count = 'SELECT (COUNT(?p) AS ?n) WHERE { ?p orkgp:P31 ?c. ?c orkgp:P32 ?r. ?r rdfs:label "QA" }'
    assert joins(count).constants_of("?n") == ("QA",)


def test_classes_and_predicates_are_no_constants_and_a_projected_name_alone_is_alone() -> None:
    classes = "SELECT ?f ?x WHERE { ?f a orkgc:ResearchField; rdf:type orkgc:Thing. }"
    found = joins(classes)
    assert not found.has_constants and found.alone("?x") and not found.alone("?f")


def test_malformed_text_is_read_as_far_as_it_goes() -> None:
    assert joins("").answer == () and joins("SELECT ?x WHERE { ?x ?p").answer == ("?x",)
    assert joins('ASK { ?x rdfs:label "A" }').answer == ()


def test_a_filter_call_without_outer_parentheses_ties_its_constants_and_no_predicate() -> None:
    call = 'SELECT ?p WHERE { ?p rdfs:label ?t FILTER regex(?t, "Zoom") ?p orkgp:P31 ?c . }'
    assert joins(call).constants_of("?p") == ("Zoom",) and joins(call).with_answer("Zoom") is True
    assert joins('SELECT ?p WHERE { ?p rdfs:label ?t . FILTER CONTAINS(STR(?t), "Zoom") }').has_constants


def test_values_after_the_solution_modifiers_bind_the_answer() -> None:
    query = 'SELECT ?x WHERE { ?x rdfs:label ?l } ORDER BY ?l LIMIT 3 VALUES ?l { "a" "b" }'
    assert joins(query).constants_of("?x") == ("a", "b") and joins(query).with_answer("b") is True


def test_a_where_clause_that_is_a_sub_select_keeps_its_own_variables() -> None:
    query = 'SELECT ?x WHERE { SELECT ?x WHERE { ?x rdfs:label ?l FILTER(?l = "a") } }'
    assert joins(query).constants_of("?x") == ("a",) and joins(query).alone("?l")


def test_braces_inside_a_projected_expression_do_not_open_the_where_clause() -> None:
    query = 'SELECT ?x (EXISTS { ?x orkgp:P1 "q" } AS ?b) WHERE { ?x rdfs:label ?l }'
    assert joins(query).constants_of("?x") == ("q",)
