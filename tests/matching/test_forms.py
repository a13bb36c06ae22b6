"""Question forms and the stored labels, derived from pairs alone (SciQA's or a team's)."""
from __future__ import annotations

from pipeline.matching.forms import Labels, form_of, group_forms, slot_values, vocabulary
from pipeline.records import Example

T05 = ('SELECT DISTINCT ?model ?model_lbl WHERE {{ ?metric a orkgc:Metric; rdfs:label ?metric_lbl. '
       'FILTER (str(?metric_lbl) = "{m}") {{ SELECT ?model ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; '
       'rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "{d}") ?benchmark orkgp:HAS_DATASET ?dataset; '
       'orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value; orkgp:HAS_METRIC ?metric. ?cont '
       'orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }} '
       'ORDER BY DESC(?value) LIMIT 1 }} }}')
T01 = ('SELECT DISTINCT ?model ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
       'FILTER (str(?dataset_lbl) = "{d}") ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. '
       '?paper orkgp:HAS_BENCHMARK ?benchmark. OPTIONAL {{ ?paper orkgp:HAS_MODEL ?model. '
       '?model rdfs:label ?model_lbl. }} }}')


def ex(id_: str, question: str, sparql: str, source: str = "team") -> Example:
    return Example(id_, question, sparql, "", source)


def test_a_form_masks_the_labels_and_knows_their_kinds() -> None:
    f = form_of(ex("t1", "Which model scores best in F1 on the CoNLL 2003 dataset?",
                   T05.format(m="F1", d="CoNLL 2003")))
    assert f.masked == "Which model scores best in X on the X dataset?"
    assert f.kinds == ("metric", "dataset")
    assert '"<metric>"' in f.skeleton and '"<dataset>"' in f.skeleton and "CoNLL" not in f.skeleton


def test_pairs_of_one_wording_and_one_query_kind_share_a_form() -> None:
    pairs = [ex("a", "Which models were run on the RACE dataset?", T01.format(d="RACE")),
             ex("b", "Which models were run on the SQuAD dataset?", T01.format(d="SQuAD")),
             ex("c", "Which model scores best in F1 on the SQuAD dataset?", T05.format(m="F1", d="SQuAD"))]
    forms = group_forms(pairs)
    assert [len(f.examples) for f in forms] == [2, 1]
    assert forms[0].skeleton != forms[1].skeleton


def test_slot_values_keep_the_graphs_own_spelling() -> None:
    pair = ex("j", "What models are being evaluated on the  Jacquard dataset dataset?",
              T01.format(d=" Jacquard dataset"))
    assert slot_values(pair) == [(" Jacquard dataset", "dataset")]


def test_labels_find_known_names_by_kind_longest_first() -> None:
    labels = Labels([ex("a", "Which model scores best in F1 on the Story Cloze Test dataset?",
                        T05.format(m="F1", d="Story Cloze Test")),
                     ex("b", "Which model scores best in Score on the Story dataset?",
                        T05.format(m="Score", d="Story"))])
    text = "who leads on story cloze test for F1, by score?"
    found = [(text[a:b], k) for a, b, k in labels.find(text, frozenset({"score"}))]
    assert found == [("story cloze test", "dataset"), ("F1", "metric")]  # 'score' must match a stored casing
    assert labels.kind("F1") == "metric" and "story CLOZE test" in labels


def test_spelling_repairs_blanks_and_an_all_lowercase_label_only() -> None:
    labels = Labels([ex("j", "What models are being evaluated on the  Jacquard dataset dataset?",
                        T01.format(d=" Jacquard dataset")),
                     ex("r", "What models are being evaluated on the RACE dataset?", T01.format(d="RACE")),
                     ex("s1", "What models are being evaluated on the NER dataset?", T01.format(d="NER")),
                     ex("s2", "What models are being evaluated on the Ner dataset?", T01.format(d="Ner"))])
    assert labels.spelling("Jacquard dataset") == " Jacquard dataset"
    assert labels.spelling("race") == "RACE"
    assert labels.spelling("Race") is None  # typed with capitals: the user's casing stays
    assert labels.spelling("ner") is None  # two casings stored: no guess
    assert labels.spelling("RACE") is None and labels.spelling("unknown") is None


def test_vocabulary_lists_the_prefixed_names() -> None:
    assert "orkgp:HAS_DATASET" in vocabulary([ex("a", "q", T01.format(d="X"))])
