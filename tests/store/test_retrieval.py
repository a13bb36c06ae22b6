"""Form-aware retrieval: re-ranks by the question's form, works for team pairs, keeps the raw lookup."""
from __future__ import annotations

from collections.abc import Sequence

from pipeline.matching.fill import fill, names_in
from pipeline.records import Example, Retrieved
from pipeline.store.retrieval import Features, FormAwareStore, found_share, kind_fit, mask, vote, weigh
from standins.fakes import HashEncoder
from tests.generators.test_adapter import BEST, BEST2, JACQUARD, MODELS, NO_LABELS, STORY
from tests.matching.test_forms import T01


class ListStore:
    """A plain store over a list: cosine of hashed bags of words (what the real store does with MiniLM)."""

    def __init__(self, examples: Sequence[Example]) -> None:
        self.encoder = HashEncoder()
        self.items = list(examples)
        self.searches = 0

    def search(self, question: str, k: int) -> list[Retrieved]:
        self.searches += 1
        q = self.encoder.encode([question])[0]
        vectors = self.encoder.encode([e.question for e in self.items])
        scored = [Retrieved(e, sum(a * b for a, b in zip(q, v))) for e, v in zip(self.items, vectors)]
        return sorted(scored, key=lambda r: -r.score)[:k]

    def add(self, examples: Sequence[Example]) -> int:
        self.items += list(examples)
        return len(examples)

    def examples(self, source: str | None = None) -> list[Example]:
        return [e for e in self.items if source is None or e.source == source]

    def count(self) -> int:
        return len(self.items)


def store() -> FormAwareStore:
    base = ListStore([BEST, BEST2, MODELS, JACQUARD, STORY, NO_LABELS])
    return FormAwareStore(base, base.encoder, recheck=1.0)


def test_the_form_wins_over_shared_names() -> None:
    # plain bag-of-words puts the pair sharing the dataset name first; the form puts the right kind first
    question = "What models have the highest Accuracy score on the Story Cloze Test dataset?"
    s = store()
    assert s.lookup(question, 1)[0].example.id == "t1s"
    top = s.search(question, 3)
    assert top[0].example.template_id == "T05" and 0 < top[0].score <= 1
    assert len({r.example.id for r in top}) == len(top)


def test_one_example_per_form_and_the_nearest_member_first() -> None:
    found = store().search("What models are being evaluated on the Story Cloze Test dataset?", 5)
    assert found[0].example.id == "t1s"  # of the three pairs in that form, the one sharing the name
    assert sum(r.example.template_id == "T01" for r in found) == 1


def test_team_pairs_added_later_are_found() -> None:
    s = store()
    s.search("warm up", 1)
    team = Example("team-1", "Where is the code of the BERT model?", T01.format(d="BERT"), "", "team")
    s.add([team])
    assert s.search("where is the code of the GPT-2 model", 1)[0].example.id == "team-1"


def test_knowledge_is_rebuilt_only_when_the_store_changes() -> None:
    s = store()
    s.recheck = 0  # (every look asks the store)
    first = s.knowledge()
    assert s.knowledge() is first
    s.base.add([Example("x", "Which papers cite the X dataset?", T01.format(d="X"), "", "team")])
    assert s.knowledge() is not first


def test_one_question_asks_the_store_once_whether_it_changed() -> None:
    s = store()
    s.recheck = 3600  # (a slow machine must not leave the window between two looks)
    s.search("warm up", 1)
    counted = []
    count = s.base.count
    s.base.count = lambda: counted.append(1) or count()  # type: ignore[method-assign]
    s.search("Which model has achieved the highest F1 score on the SQuAD benchmark dataset?", 3)
    s.knowledge(), s.knowledge()  # (the adapter's and the intent step's looks)
    assert counted == []  # within the recheck window: no store round trip at all
    s.recheck = 0
    s.knowledge()
    assert counted == [1]


def test_an_empty_store_falls_back_to_the_plain_search() -> None:
    base = ListStore([])
    assert FormAwareStore(base, base.encoder, recheck=1.0).search("anything", 3) == []


def test_signals() -> None:
    know = store().knowledge()
    assert mask("on the RACE dataset", [(7, 11)]) == "on the X dataset"
    t05 = next(f for f in know.forms if f.kinds == ("metric", "dataset"))
    assert kind_fit(t05, ["metric", "dataset"]) == 1.0 and kind_fit(t05, ["dataset"]) < 1.0
    text = "who leads on Story Cloze Test for Score?"
    filling = fill(t05, text, know.labels, know.generic, names_in(text, know.labels, know.generic))
    assert filling.values == ("Score", "Story Cloze Test") and filling.by_kind
    assert found_share(weigh(["highest", "model"], know.idf), know.words[know.forms.index(t05)]) == 1.0
    assert found_share(weigh(["weather"], know.idf), know.words[0]) == 0.0
    assert 0.0 < Features(1, 1, 1, 1, 1).score() <= 1.0 + 1e-9


def test_near_ties_vote_by_query_kind() -> None:
    order = vote([0, 1, 2], {0: 0.80, 1: 0.79, 2: 0.79}, ["a", "b", "b"])
    assert order[0] == 1
    assert vote([0, 1], {0: 0.9, 1: 0.5}, ["a", "b"]) == [0, 1]
