"""The Chroma example store: search results, idempotent index, rebuilds, persistence, train-only, corruption."""
from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import StoreError
from pipeline.factory import build_index, build_store
from pipeline.records import Example
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore, team_id
from pipeline.store.connection import open_client
from standins.fakes import HashEncoder

REPO = Path(__file__).resolve().parents[2]


def small_store(settings: Settings, encoder: Any = None) -> ChromaStore:
    return ChromaStore(open_client(settings.chroma_path), encoder or HashEncoder(), settings.collection)


def test_search_returns_question_sparql_score_and_template(train_store: ChromaStore, sciqa: SciQA) -> None:
    rec = sciqa.split("train")[7]
    found = train_store.search(rec.question, 3)
    assert len(found) == 3 and found[0].example.id == rec.id and found[0].score > 0.99
    assert found[0].example.sparql == rec.sparql and found[0].example.template_id == rec.template_id
    assert found[0].score >= found[1].score >= found[2].score


def test_index_is_idempotent(train_store: ChromaStore, train_settings: Settings) -> None:
    before = train_store.fingerprint()
    assert build_index(train_settings, train_store) == (False, 1795)
    assert train_store.fingerprint() == before and train_store.count() == 1795


def test_the_store_holds_train_only_so_no_dev_or_test_query_reaches_the_generator(
        train_store: ChromaStore, sciqa: SciQA) -> None:
    train_ids = {r.id for r in sciqa.split("train")}
    held_out = {r.id for r in sciqa.split("valid") + sciqa.split("test")}
    stored = {e.id for e in train_store.examples()}
    assert stored == train_ids and not stored & held_out
    questions = [q for phase in ("dev", "final") for _, q in sciqa.challenge(phase)]
    vectors = train_store.encoder.encode(questions)
    for vector in vectors:
        assert all(r.example.id in train_ids for r in train_store.search_vector(vector, 5))


def test_changed_data_or_model_rebuilds_and_keeps_team_pairs(settings: Settings) -> None:
    settings = settings.with_(index_splits="valid")
    store = small_store(settings)
    assert build_index(settings, store) == (True, 257)
    team = Example(team_id("How many papers use SQuAD?"), "How many papers use SQuAD?", "SELECT ?x WHERE {}", "",
                   "team")
    store.add([team])
    assert build_index(settings, store) == (False, 258)
    other_model = settings.with_(embedding_model="hash-other")
    assert build_index(other_model, small_store(other_model, HashEncoder("hash-other"))) == (True, 258)
    assert build_index(settings.with_(index_splits="valid,test"), store)[1] == 257 + 513 + 1
    assert [e.id for e in store.examples("team")] == [team.id]


def test_the_store_persists_across_processes(train_settings: Settings, train_store: ChromaStore) -> None:
    code = ("import json,sys; from pipeline.store.connection import open_client; "
            "from pipeline.store.chroma import ChromaStore; "
            "from pipeline.store.encoder import torch_encoder as E; "
            f"s = ChromaStore(open_client(__import__('pathlib').Path({str(train_settings.chroma_path)!r})), "
            f"E('sentence-transformers/all-MiniLM-L6-v2', offline=False), {train_settings.collection!r}); "
            "r = s.search('List the code links in papers that use the BERT model in any benchmark?', 1)[0]; "
            "print(json.dumps([s.count(), r.example.template_id]))")
    out = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout.strip().splitlines()[-1]) == [1795, "T07"]


def test_an_empty_or_corrupt_store_is_a_clear_error(settings: Settings) -> None:
    with pytest.raises(StoreError, match="kgqa index"):
        small_store(settings).search("anything", 3)
    corrupt = settings.with_(home=settings.home / "corrupt")
    corrupt.chroma_path.mkdir(parents=True)
    (corrupt.chroma_path / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError, match="kgqa index"):
        small_store(corrupt).search("anything", 3)


def test_a_corrupt_store_is_reported_with_its_place_and_the_fix_when_built(settings: Settings,
                                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("pipeline.factory._encoder", lambda *_: HashEncoder())
    settings.chroma_path.mkdir(parents=True)
    (settings.chroma_path / "chroma.sqlite3").write_bytes(b"this is not a database" * 100)
    with pytest.raises(StoreError) as caught:
        build_store(settings)
    assert str(caught.value).startswith(f"the example store at {settings.chroma_path} cannot be opened (")
    assert str(caught.value).endswith("run `kgqa index --rebuild`")


class CountingEncoder(HashEncoder):
    """The hash encoder, keeping every text it was asked to encode."""

    def __init__(self, name: str = "hash-bow-128") -> None:
        super().__init__(name)
        self.texts: list[str] = []

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.texts += list(texts)
        return super().encode(texts)


def test_a_rebuild_carries_the_teams_vectors_over_unless_the_model_changed(settings: Settings) -> None:
    settings = settings.with_(index_splits="valid")
    encoder = CountingEncoder()
    store = small_store(settings, encoder)
    build_index(settings, store)
    team = [Example(team_id(f"How many papers use SQuAD {n}?"), f"How many papers use SQuAD {n}?",
                    "SELECT ?x WHERE {}", "", "team") for n in range(3)]
    store.add(team)
    before = dict(zip(*store.embeddings()))
    encoder.texts = []
    assert build_index(settings.with_(index_splits="valid,test"), store) == (True, 257 + 513 + 3)
    assert not {e.question for e in team} & set(encoder.texts)  # only SciQA's pairs were embedded again
    ids, vectors = store.embeddings()
    after = dict(zip(ids, vectors))
    assert all(list(after[e.id]) == list(before[e.id]) for e in team)
    other, other_model = CountingEncoder("hash-other"), settings.with_(embedding_model="hash-other")
    assert build_index(other_model, small_store(other_model, other))[1] == 257 + 3
    assert {e.question for e in team} <= set(other.texts)  # another model: the team's pairs embedded anew
