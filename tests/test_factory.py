"""The factory's warm-up: what the first questions would wait for is ready once it returns."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.factory import build_pipeline, warm_up
from pipeline.settings import Settings


def test_warm_up_readies_the_store_the_labels_and_the_vocabulary(train_settings: Settings, train_store: Any,
                                                                  orkg_fixture_nt: Path) -> None:
    settings = train_settings.with_(kg=str(orkg_fixture_nt), generator="adapter")
    with build_pipeline(settings, store=train_store) as pipe:
        took = warm_up(pipe)
        assert set(took) == {"store", "labels", "vocabulary", "comparisons"}
        assert pipe.lexicon is not None  # what the pipeline's parts read of the graph
        labels = pipe.lexicon.labels.available(wait=0)  # no wait left: built, not being built
        assert labels is not None and labels.find("story cloze test").chosen == "Story Cloze Test"
        assert "orkgp:HAS_BENCHMARK" in (pipe.lexicon.vocabulary.available() or frozenset())


def test_warm_up_reads_the_orkg_vocabulary_before_the_first_question_about_comparisons(
        train_settings: Settings, train_store: Any, orkg_fixture_nt: Path, tmp_path: Path) -> None:
    """A vocabulary 100x the ORKG's takes seconds to read: the warm-up reads it (with what the graph holds of its
    comparisons), not the first question that needs it (docs/results/vocabulary.md)."""
    vocabulary = tmp_path / "orkg.nt"
    vocabulary.write_text('<http://orkg.org/orkg/predicate/P9> <http://www.w3.org/2000/01/rdf-schema#label> '
                          '"has sample size" .\n', encoding="utf-8")
    settings = train_settings.with_(home=tmp_path / "home", kg=str(orkg_fixture_nt), generator="adapter",
                                    orkg_vocabulary=str(vocabulary))
    with build_pipeline(settings, store=train_store) as pipe:
        assert not (settings.vocabulary_dir / "index.json").exists()
        assert "comparisons" in warm_up(pipe)
        assert (settings.vocabulary_dir / "index.json").is_file()  # read, and indexed, before any question


def test_with_a_language_model_the_warm_up_reads_the_graphs_predicate_sets_too(
        train_settings: Settings, train_store: Any, orkg_fixture_nt: Path) -> None:
    settings = train_settings.with_(kg=str(orkg_fixture_nt), generator="tgi", tgi_url="http://127.0.0.1:9")
    with build_pipeline(settings, store=train_store) as pipe:
        assert "shapes" in warm_up(pipe)  # the model is not asked: nothing needs it up
        shapes = pipe.reply.shapes() if pipe.reply is not None and pipe.reply.shapes else None
        assert shapes is not None and shapes.meet(frozenset({"http://orkg.org/orkg/predicate/HAS_BENCHMARK",
                                                            "http://orkg.org/orkg/predicate/HAS_MODEL"}))


def test_warm_up_leaves_what_cannot_be_had_for_later(train_settings: Settings, train_store: Any,
                                                     caplog: pytest.LogCaptureFixture) -> None:
    settings = train_settings.with_(kg="http://127.0.0.1:9/sparql", generator="adapter", kg_timeout=0.5)
    with build_pipeline(settings, store=train_store) as pipe:
        took = warm_up(pipe)  # a graph that is down: no crash, the store is still warmed
    assert "store" in took and "labels" not in took
    assert "labels not ready" in caplog.text
