"""What an adapted query answers (pipeline.intent.adapted): the stored pair it came from, that pair's question with
the query's names, and the user's words the pair does not say."""
from __future__ import annotations

from pipeline.intent.adapted import adapted_from, adapted_question, unsaid
from pipeline.records import Example, Retrieved

QUERY = ('SELECT DISTINCT ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
         'FILTER(str(?dataset_lbl) = "{}") ?benchmark orkgp:HAS_DATASET ?dataset. ?cont orkgp:HAS_BENCHMARK '
         '?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }}')
STORED = Retrieved(Example("S1", "Which models have been evaluated on the DBLP dataset?", QUERY.format("DBLP")), 0.7)


def test_the_pair_a_query_was_adapted_from_and_what_it_answers() -> None:
    written = QUERY.format("Tiny Objects 20")
    assert adapted_from(written, [STORED]) is STORED.example
    assert adapted_question(written, [STORED]) == "Which models have been evaluated on the Tiny Objects 20 dataset?"
    assert adapted_from(written.replace("HAS_MODEL", "HAS_METRIC"), [STORED]) is None  # another query: no pair


def test_the_words_the_stored_question_does_not_say_are_named() -> None:
    written = QUERY.format("Tiny Objects 20")
    asked = "which models were evaluated on tiny objects 20 but were not run on zorblax?"
    (left,) = unsaid(asked, [], written, [STORED])
    assert "'not'" in left and "'zorblax'" in left and "'tiny'" not in left  # the name the query was filled with
    assert unsaid("which models were evaluated on tiny objects 20?", [], written, [STORED]) == ()
    assert unsaid(asked, [], QUERY.format("Other"), []) == ()  # adapted from no pair: nothing to hold it to
