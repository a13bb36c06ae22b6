"""The names step inside the pipeline: between generation and the KG, for every generated query."""
from __future__ import annotations

from typing import Any

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.glance.textview import answer as as_text
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.check import NameCheck
from pipeline.names.index import LabelIndex
from pipeline.names.sources import LabelSource
from pipeline.records import Outcome
from pipeline.store.retrieval import FormAwareStore
from standins.fakes import RecordingKG
from tests.test_core import FixedStore, Scripted

BEST = ('SELECT ?model_lbl WHERE {{ ?dataset a orkgc:Dataset; rdfs:label ?dataset_lbl. '
        'FILTER (str(?dataset_lbl) = "{name}") ?benchmark orkgp:HAS_DATASET ?dataset. '
        '?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. ?model rdfs:label ?model_lbl. }}')


def test_a_loose_name_runs_as_the_graphs_label_and_the_reply_says_so(local_kg: OxigraphKG, tmp_path) -> None:
    names = NameCheck(LabelSource(local_kg, tmp_path, ttl=604800.0, page=1000).available)
    answer = Pipeline(Parts(FixedStore(), Scripted(BEST.format(name="story cloze-test")), local_kg, names=names),
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)).ask("q?")
    assert answer.rows is not None and {"CoherenceNet", "StoryLM-large"} <= set(answer.rows.flat())
    assert '"Story Cloze Test"' in (answer.sparql or "")
    assert "I read 'story cloze-test' as 'Story Cloze Test'." in as_text(answer)
    resolutions = answer.to_json()["resolutions"]
    assert resolutions == [{"typed": "story cloze-test", "kind": "dataset", "match": "normalised",
                            "chosen": "Story Cloze Test", "score": 100.0, "candidates": ["Story Cloze Test"]}]


def test_an_unknown_name_is_not_run_and_the_closest_labels_are_listed(local_kg: OxigraphKG, tmp_path) -> None:
    kg = RecordingKG()
    names = NameCheck(LabelSource(local_kg, tmp_path, ttl=604800.0, page=1000).available)
    answer = Pipeline(Parts(FixedStore(), Scripted(BEST.format(name="Penguin Treebank")), kg, names=names),
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)).ask("q?")
    assert kg.queries == [] and answer.rows is None
    assert "no dataset called 'Penguin Treebank'. The closest are: '" in answer.explanation
    listed = answer.explanation.split("The closest are: ", 1)[1].rstrip(".").split(", ")
    datasets = {label for label, kind in local_kg.label_pairs() if kind == "dataset"}
    assert listed and {name.strip("'") for name in listed} <= datasets  # the graph's own datasets
    assert answer.to_json()["resolutions"][0]["match"] == "unknown"


def test_a_query_the_names_step_rewrites_still_passes_the_read_only_gate() -> None:
    kg = RecordingKG()
    hostile = 'DELETE WHERE { ?d a orkgc:Dataset; rdfs:label ?dataset_lbl. FILTER(str(?dataset_lbl) = "squad 1.1") }'
    names = NameCheck(lambda: LabelIndex([("SQuAD1.1", "dataset")], threshold=85.0))
    answer = Pipeline(Parts(FixedStore(), Scripted(hostile), kg, names=names),
                      Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4)).ask("q?")
    assert kg.queries == [] and answer.error and answer.rows is None


def test_a_name_typed_in_lowercase_with_its_version_after_it_is_read_whole(train_store: Any, sciqa_graph: Any,
                                                                            tmp_path) -> None:
    """'squad 1.1' is one name (not the dataset '1.1'); the answer is the one the graph gives the stored wording."""
    store = FormAwareStore(train_store, train_store.encoder, recheck=1.0)
    pipe = Pipeline(Parts(store, AdapterGenerator(store.min_score, store.knowledge), sciqa_graph,
                          names=NameCheck(LabelSource(sciqa_graph, tmp_path, ttl=604800.0, page=1000).available)),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    typed = pipe.ask("which model is best on squad 1.1 in terms of F1")
    stored = pipe.ask("Which model has achieved the highest F1 score on the SQuAD1.1 benchmark dataset?")
    assert typed.outcome is Outcome.ANSWERED and '"SQuAD1.1"' in (typed.sparql or ""), typed.explanation
    assert typed.rows is not None and stored.rows is not None and typed.rows.flat() == stored.rows.flat()
    assert "I read 'squad 1.1' as 'SQuAD1.1'." in as_text(typed)
