"""Knowledge kept on disk: a new process loads what `kgqa index` derived, and never knowledge of another store state."""
from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from pipeline.store.connection import open_client
from pipeline.store.knowledge import Neighbours, build_knowledge, load_knowledge, save_knowledge
from pipeline.store.retrieval import FormAwareStore
from standins.fakes import HashEncoder
from tests.generators.test_adapter import BEST, BEST2, JACQUARD, MODELS, NO_LABELS, STORY

PAIRS = [BEST, BEST2, MODELS, JACQUARD, STORY, NO_LABELS]
QUESTION = "What models have the highest Accuracy score on the Story Cloze Test dataset?"


class CountingEncoder(HashEncoder):
    """Counts the sentences it encodes."""

    def __init__(self) -> None:
        super().__init__()
        self.encoded = 0

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.encoded += len(texts)
        return super().encode(texts)


def chroma(settings: Settings, encoder: HashEncoder, pairs: Sequence[Example] = PAIRS) -> ChromaStore:
    store = ChromaStore(open_client(settings.chroma_path), encoder, settings.collection)
    if pairs:
        store.add(list(pairs))
    return store


def test_saved_knowledge_loads_equal_to_what_was_built(tmp_path: Path) -> None:
    built = build_knowledge(PAIRS, HashEncoder())
    save_knowledge(built, tmp_path / "k.json", "state-1")
    loaded = load_knowledge(tmp_path / "k.json", "state-1")
    assert loaded is not None
    assert [(f.pieces, f.kinds, f.skeleton, f.examples) for f in loaded.forms] == \
           [(f.pieces, f.kinds, f.skeleton, f.examples) for f in built.forms]
    assert loaded.vectors.tobytes() == built.vectors.tobytes() and loaded.vectors.dtype == built.vectors.dtype
    assert (loaded.generic, loaded.form_of, loaded.size, loaded.words, loaded.idf, loaded.prefixed) == \
           (built.generic, built.form_of, built.size, built.words, built.idf, built.prefixed)
    assert loaded.labels.casing == built.labels.casing and loaded.labels.kinds == built.labels.kinds
    assert loaded.labels.longest == built.labels.longest
    assert load_knowledge(tmp_path / "k.json", "state-2") is None  # another store state: rebuilt, never reused
    assert loaded.neighbours is None


def test_the_stored_vectors_are_kept_and_searched_exactly(tmp_path: Path) -> None:
    import numpy as np

    rng = np.random.default_rng(7)
    matrix = rng.normal(size=(50, 8)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix[20] = matrix[3]  # a tie: the one stored first comes first
    near = Neighbours(tuple(f"q{i}" for i in range(50)), matrix)
    query = matrix[3] + 0.01 * matrix[9]
    truth = sorted(range(50), key=lambda i: (-float(matrix[i] @ query), i))
    assert near.nearest(query, 10) == [f"q{i}" for i in truth[:10]] and near.nearest(query, 10)[:2] == ["q3", "q20"]
    assert near.nearest(query, 1) == ["q3"] and near.nearest(query, 2) == ["q3", "q20"]  # a tie across the k-th
    assert len(near.nearest(query, 500)) == 50 and Neighbours((), np.zeros((0, 8))).nearest(query, 5) == []
    save_knowledge(build_knowledge(PAIRS, HashEncoder(), near), tmp_path / "k.json", "state-1")
    loaded = load_knowledge(tmp_path / "k.json", "state-1")
    assert loaded is not None and loaded.neighbours is not None
    assert loaded.neighbours.ids == near.ids and loaded.neighbours.matrix.tobytes() == matrix.tobytes()


def test_a_search_over_chroma_finds_the_exact_neighbours_without_asking_it(settings: Settings) -> None:
    import numpy as np

    base = chroma(settings, HashEncoder())
    store = FormAwareStore(base, HashEncoder(), recheck=3600)
    know = store.knowledge()
    assert know.neighbours is not None and sorted(know.neighbours.ids) == sorted(p.id for p in PAIRS)
    def unreachable(*_: object) -> None:
        raise AssertionError("the store was asked")

    base._fresh = unreachable  # type: ignore[method-assign]
    vector = np.asarray(HashEncoder().encode([QUESTION])[0], dtype=np.float32)
    scores = {p.id: float(np.asarray(HashEncoder().encode([p.question])[0]) @ vector) for p in PAIRS}
    assert store._nearest(QUESTION, vector, 3, know) == sorted(scores, key=lambda i: -scores[i])[:3]
    assert store.search(QUESTION, 1)[0].example.template_id == "T05"


def test_unreadable_or_missing_knowledge_is_rebuilt_not_an_error(tmp_path: Path) -> None:
    assert load_knowledge(tmp_path / "absent.json", "v") is None
    (tmp_path / "bad.json").write_text("{\"key\": \"v\", \"data\": [", encoding="utf-8")
    assert load_knowledge(tmp_path / "bad.json", "v") is None


def test_a_new_process_loads_the_knowledge_instead_of_encoding_the_forms(settings: Settings) -> None:
    saved = settings.home / "knowledge" / "k.json"
    first = FormAwareStore(chroma(settings, HashEncoder()), HashEncoder(), saved, recheck=1.0)
    expected = first.search(QUESTION, 3)
    assert saved.is_file()
    encoder = CountingEncoder()
    second = FormAwareStore(chroma(settings, encoder, pairs=()), encoder, saved, recheck=1.0)
    assert second.search(QUESTION, 3) == expected
    assert encoder.encoded <= 3 + 6  # the question and its maskings only, no stored form


def test_knowledge_follows_pairs_added_by_another_process(settings: Settings) -> None:
    saved = settings.home / "knowledge" / "k.json"
    mine = FormAwareStore(chroma(settings, HashEncoder()), HashEncoder(), saved, recheck=0)
    before = mine.knowledge()
    other = FormAwareStore(chroma(settings, HashEncoder(), pairs=()), HashEncoder(), saved, recheck=1.0)
    taught = Example("team-1", "Which papers use the LoreQA dataset?", BEST.sparql.replace("Accuracy", "F1"),
                     "", "team")
    other.add([taught])
    after = mine.knowledge()
    assert after is not before and after.size == before.size + 1 and "team-1" in after.form_of
    assert load_knowledge(saved, mine.base.version()) is not None  # and kept for the next process


def test_a_team_pair_replaced_in_place_is_a_new_state(settings: Settings) -> None:
    base = chroma(settings, HashEncoder())
    pair = Example("team-1", "Which papers use the LoreQA dataset?", BEST.sparql, "", "team")
    base.add([pair])
    before = base.version()
    base.add([Example(pair.id, pair.question, BEST2.sparql, "", "team")])
    assert base.count() == len(PAIRS) + 1 and base.version() != before
