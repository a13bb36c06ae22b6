"""Property search over a small vocabulary the test writes, with the product's encoder: a predicate found by a
paraphrase of its label, ranked up by the stored pairs (the one used of labels alike, what the queries of similar
questions pass through), the shapes and the question's linked names; label vectors encoded once and kept on disk."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.records import Example, Retrieved
from pipeline.schema import properties
from pipeline.schema.graph import GraphFacts
from pipeline.schema.properties import PropertyIndex, phrases, property_index, said, search_properties
from pipeline.schema.vocabulary import Term, Vocabulary

LABELS = {"P5049": "location", "P15687": "Sample size", "P41242": "Museum involved", "P43095": "Type of Biosensor",
          "P34": "evaluation", "P5015": "Recall", "P3004": "Precision", "P7034": "Ontology", "P7038": "Class count",
          "P27": "has author", "P37560": "Reaction yield (%)", "P41022": "Response time (ms)",
          "P41021": "Piezoresistive Material", "P37586": "hasFactsAbout"}
VOCABULARY = Vocabulary({f"orkgp:{n}": Term(f"orkgp:{n}", label) for n, label in LABELS.items()}, {},
                        {"orkgc:C5004": frozenset({"orkgp:P5015", "orkgp:P3004", "orkgp:P41022"}),
                         "orkgc:Resource": frozenset(f"orkgp:{n}" for n in LABELS)})


class Counted:
    """The encoder, counting the texts it is asked to encode."""

    def __init__(self, inner: Any) -> None:
        self.inner, self.name, self.texts = inner, inner.name, 0

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += len(texts)
        return list(self.inner.encode(texts))


@pytest.fixture(scope="module")
def index(encoder: Any) -> PropertyIndex:
    return property_index(VOCABULARY, encoder, None)


def names(found: list[tuple[Term, float]]) -> list[str]:
    return [t.name for t, _ in found]


@pytest.mark.parametrize(("question", "predicate"), [
    ("Which galleries took part in the IntARSI project?", "orkgp:P41242"),  # Museum involved
    ("Who wrote the SOSA paper?", "orkgp:P27"),  # has author
    ("How many people took part in the survey?", "orkgp:P15687"),  # Sample size
    ("What fraction of the product was obtained?", "orkgp:P37560"),  # Reaction yield (%)
])
def test_a_predicate_is_found_by_a_paraphrase_of_its_label(index: PropertyIndex, question: str,
                                                           predicate: str) -> None:
    assert names(search_properties(question, 1, index)) == [predicate]


def test_the_best_come_first_with_their_scores_and_k_bounds_them(index: PropertyIndex) -> None:
    found = search_properties("Which kinds of biosensor are there?", 5, index)
    assert len(found) == 5 and found[0][0] == VOCABULARY.predicates["orkgp:P43095"]
    assert [s for _, s in found] == sorted((s for _, s in found), reverse=True)
    assert search_properties("Which kinds of biosensor are there?", 0, index) == []
    assert len(search_properties("Which kinds of biosensor are there?", 99, index)) == len(LABELS) == len(index)


def test_the_stored_pairs_rank_up_a_predicate_their_words_name_and_the_one_used_with_it(encoder: Any) -> None:
    question = "Which papers did the energy modelling studies report on?"
    plain = names(search_properties(question, len(LABELS), property_index(VOCABULARY, encoder, None)))
    pairs = [Example("T1", "Which energy modelling studies report on which papers?",
                     "SELECT ?paper WHERE { ?c orkgp:P37586 ?energy_modelling_studies . ?c orkgp:P7034 ?x }")]
    taught = names(search_properties(question, len(LABELS), property_index(VOCABULARY, encoder, None, pairs)))
    assert taught.index("orkgp:P37586") < plain.index("orkgp:P37586") and taught[0] == "orkgp:P37586"
    assert taught.index("orkgp:P7034") < plain.index("orkgp:P7034")  # used in one query with it


def test_of_labels_alike_the_one_the_stored_pairs_use_comes_first(encoder: Any,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    alike = Vocabulary({**VOCABULARY.predicates, "orkgp:P15206": Term("orkgp:P15206", "Authors"),
                        "orkgp:P6": Term("orkgp:P6", "author")}, {}, VOCABULARY.shapes)
    pairs = [Example("T1", "List every paper of a venue.", "SELECT ?w WHERE { ?paper orkgp:P27 ?w }")]
    index = property_index(alike, encoder, None, pairs)
    question = "Which authors wrote the reports on ocean currents?"
    plain = names(search_properties(question, 3, property_index(alike, encoder, None)))
    assert plain[0] != "orkgp:P27" and "orkgp:P27" in plain  # "Authors" or "author" matches best by itself
    assert names(search_properties(question, 1, index)) == ["orkgp:P27"]
    monkeypatch.setattr(properties, "ALIKE", 1.01)  # no two labels alike: the used bonus alone does not lift it
    assert names(search_properties(question, 1, property_index(alike, encoder, None, pairs))) != ["orkgp:P27"]


def test_the_queries_of_similar_stored_questions_rank_up_what_they_pass_through(index: PropertyIndex) -> None:
    question = "What precision does the TableQA parser reach?"  # its query passes through the evaluation
    plain = names(search_properties(question, 3, index))
    assert plain[0] == "orkgp:P3004" and "orkgp:P34" not in plain
    taught = Example("T9", "How accurate is the GraphParser system?",
                     "SELECT ?a WHERE { ?c orkgp:P34 ?e . ?e orkgp:P5015 ?a }")  # not in the index: read as it comes
    found = names(search_properties(question, 3, index, similar=[Retrieved(taught, 0.6)]))
    assert found[0] == "orkgp:P3004" and "orkgp:P34" in found
    unlike = search_properties(question, len(LABELS), index, similar=[Retrieved(taught, properties.ASKED_FLOOR)])
    assert unlike == search_properties(question, len(LABELS), index)  # a question no more alike than that: nothing


def test_a_predicate_gains_most_from_a_small_class_that_carries_the_best_ones(index: PropertyIndex,
                                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    question = "What is the recall of the system?"
    shaped = {t.name: s for t, s in search_properties(question, len(LABELS), index)}
    monkeypatch.setattr(properties, "SHAPE_WEIGHT", 0.0)
    plain = {t.name: s for t, s in search_properties(question, len(LABELS), index)}
    gain = {n: shaped[n] - plain[n] for n in plain}
    assert max(plain, key=plain.__getitem__) == "orkgp:P5015"
    # Response time shares orkgc:C5004 (3 predicates) with Recall; location only orkgc:Resource (all of them)
    assert gain["orkgp:P41022"] > gain["orkgp:P5049"] > 0


def test_the_linked_names_rank_up_what_they_carry(encoder: Any) -> None:
    facts = GraphFacts({"orkgr:R138374": ("orkgp:P41021", "orkgp:P41022")}, {"orkgp:P41021": "Sensing material"})
    linked = property_index(VOCABULARY, encoder, None, facts=facts)
    question = "Which one is the fastest?"
    plain = names(search_properties(question, len(LABELS), linked))
    found = names(search_properties(question, len(LABELS), linked, linked=["orkgr:R138374"]))
    assert found.index("orkgp:P41021") < plain.index("orkgp:P41021")
    assert found.index("orkgp:P41022") < plain.index("orkgp:P41022")
    assert linked.vocabulary.label("orkgp:P41021") == "Sensing material"  # the graph's own label wins
    by_class = names(search_properties(question, len(LABELS), linked, linked=["orkgc:C5004"]))
    assert by_class.index("orkgp:P3004") < plain.index("orkgp:P3004")


def test_the_label_vectors_are_encoded_once_and_kept_on_disk(encoder: Any, tmp_path: Path) -> None:
    counted = Counted(encoder)
    first = property_index(VOCABULARY, counted, tmp_path)  # type: ignore[arg-type]
    assert counted.texts == len(LABELS) and len(list(tmp_path.glob("embeddings-*.npy"))) == 1
    again = property_index(VOCABULARY, counted, tmp_path)  # type: ignore[arg-type]
    assert counted.texts == len(LABELS) and (again.vectors == first.vectors).all()
    relabelled = VOCABULARY.merged({"orkgp:P34": "has evaluation"})
    property_index(relabelled, counted, tmp_path)  # type: ignore[arg-type]
    assert counted.texts == 2 * len(LABELS) and len(list(tmp_path.glob("embeddings-*.npy"))) == 2
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_questions_phrases_and_a_labels_words() -> None:
    found = phrases('What is the most common type of biosensor in "A Cheap Sensor"?')
    assert "type of biosensor" in found and "biosensor" in found and "most common type" in found
    assert not [p for p in found if p.split()[0].lower() in ("the", "of", "in", "what") or "Cheap" in p]
    assert said("hasFactsAbout") == "has Facts About" and said("Feature\nExtraction") == "Feature Extraction"
    assert said("HAS_SOURCE_CODE") == "HAS SOURCE CODE"


def test_the_product_builds_it_from_the_setting_with_the_example_stores_encoder(tmp_path: Path) -> None:
    from pipeline.factory import build_encoder, property_search
    from pipeline.settings import Settings

    assert property_search(Settings(home=tmp_path)) is None  # the setting off
    orkg = tmp_path / "orkg.nt"
    orkg.write_text("".join(f'<http://orkg.org/orkg/predicate/{n}> <http://www.w3.org/2000/01/rdf-schema#label> '
                            f'"{label}" .\n' for n, label in LABELS.items()), encoding="utf-8")
    settings = Settings(home=tmp_path / "home", orkg_vocabulary=str(orkg))
    built = property_search(settings)
    assert built is not None and built.encoder is build_encoder(settings) and len(built) == len(LABELS)
    assert list(settings.vocabulary_dir.glob("embeddings-*.npy"))
    assert names(search_properties("Who wrote the SOSA paper?", 1, built)) == ["orkgp:P27"]
