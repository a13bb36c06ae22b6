"""The generator: deterministic by seed, every name of each kind asked about, every wording naming what it asks
about (however the name is typed), the committed sets in sync, and no question copied from another set."""
from __future__ import annotations

import importlib.util
import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from pipeline.eval.generated.build import NAMED, SIZES, STYLES, generate, per_intent, question
from pipeline.eval.generated.intents import INTENTS, GoldIntent
from pipeline.eval.generated.names import KINDS, Names, covered
from pipeline.intent.pairs import blocks
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.sciqa import SciQA
from pipeline.sparql.gate import gate
from standins import orkg_fixture as fx

ROOT = Path(__file__).resolve().parents[2]
EVAL = ROOT / "tests" / "data" / "eval"
_SLOTS = re.compile(r"\{(\w+)\}")


@pytest.fixture(scope="module")
def names(orkg_fixture_nt: Path) -> Names:
    return Names.of(OxigraphKG(orkg_fixture_nt, row_cap=100_000))


def squeezed(text: str) -> str:
    return "".join(text.casefold().split())


def test_the_same_seed_gives_the_same_set_and_another_seed_other_wordings(names: Names) -> None:
    first, again, other = generate(names, 7), generate(names, 7), generate(names, 8)
    assert first == again
    assert [q["id"] for q in first] == [q["id"] for q in other]
    assert [q["gold_sparql"] for q in first] == [q["gold_sparql"] for q in other]
    assert [q["question"] for q in first] != [q["question"] for q in other]


@pytest.mark.parametrize("size", ["sample", "every"])
def test_every_name_of_each_kind_is_asked_about(names: Names, size: str) -> None:
    asked = generate(names, 39, size)
    by_kind = {"dataset": fx.DATASETS, "model": fx.MODELS, "metric": fx.METRICS, "problem": fx.PROBLEMS,
               "field": fx.FIELDS, "paper": tuple(p.title for p in fx.PAPERS)}
    assert set(by_kind) == set(KINDS)
    for kind, labels in by_kind.items():
        assert covered([q["names"] for q in asked], kind) == set(labels), kind
    for intent in INTENTS:  # each intent about every binding of its names
        mine = [q["names"] for q in asked if q["intent"] == intent.id]
        assert {json.dumps(b, sort_keys=True) for b in mine} == \
            {json.dumps(b, sort_keys=True) for b in names.bindings(intent.over)}


def test_the_full_set_has_every_wording_and_the_sample_draws_each_of_them(names: Names) -> None:
    every, sample = generate(names, 39, "every"), generate(names, 39, "sample")
    for intent in INTENTS:
        n = len(names.bindings(intent.over))
        assert sum(q["intent"] == intent.id for q in every) == n * len(intent.wordings)
        assert sum(q["intent"] == intent.id for q in sample) == n
    assert {(q["intent"], q["wording"]) for q in sample} == {(i.id, w + 1) for i in INTENTS
                                                             for w in range(len(i.wordings))}


def test_the_graph_holds_names_with_parentheses_punctuation_and_non_ascii(names: Names) -> None:
    every = [n for kind in ("dataset", "model", "metric") for n in names.labels[kind]]
    assert any("(" in n for n in names.labels["dataset"]) and any("(" in n for n in names.labels["model"])
    assert any(not n.isascii() for n in every) and any(c in n for n in every for c in "&:+@–")


@pytest.mark.parametrize("intent", INTENTS, ids=[i.id for i in INTENTS])
def test_every_wording_reads_back_to_each_name_however_it_is_typed(names: Names, intent: GoldIntent) -> None:
    bindings = names.bindings(intent.over)
    for wording in intent.wordings:
        assert set(_SLOTS.findall(wording)) == set(bindings[0]), wording  # it names everything the gold filters on
        for binding in bindings:
            for style in STYLES:
                text, typed = question(intent, wording, binding, _Always(style))
                for slot, name in binding.items():
                    assert squeezed(name) in squeezed(text) and typed[slot] in text, (wording, name)
                    assert slot not in NAMED or typed[slot] == style(name)


class _Always(random.Random):
    """A draw that always picks one spelling."""

    def __init__(self, style: Any) -> None:
        super().__init__(0)
        self.style = style

    def choice(self, seq: Any) -> Any:
        return self.style if seq is STYLES else seq[0]


def test_every_gold_query_passes_the_read_only_gate(names: Names) -> None:
    for q in generate(names, 39, "every"):
        assert gate(q["gold_sparql"], None).ok, q["id"]


def _script() -> Any:
    spec = importlib.util.spec_from_file_location("gen_intent_sets", ROOT / "scripts" / "gen_intent_sets.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def test_the_committed_sets_are_the_generators_and_carry_no_answer(capsys: pytest.CaptureFixture[str]) -> None:
    assert _script().main(["--check"]) == 0, capsys.readouterr().out
    for size in SIZES:
        data = json.loads((EVAL / f"generated-{size}.json").read_text(encoding="utf-8"))
        assert data["questions"] and all("answer" not in q and q["gold_sparql"] for q in data["questions"])


def test_the_per_intent_sample_is_one_question_of_each_intent_of_the_sample(names: Names) -> None:
    sample = generate(names, 39, "sample")
    few = per_intent(sample, 39)
    assert [q["intent"] for q in few] == [i.id for i in INTENTS] and all(q in sample for q in few)
    assert per_intent(sample, 39) == few != per_intent(sample, 40)


def _other_questions(sciqa: SciQA) -> set[str]:
    out = {squeezed(r.question) for split in ("train", "valid", "test") for r in sciqa.split(split)}
    out |= {squeezed(str(item["question"])) for item in blocks((ROOT / "pipeline" / "intent" / "pairs.txt")
                                                                .read_text(encoding="utf-8"))}
    for path in EVAL.glob("*.json"):
        if not path.name.startswith("generated-"):
            for q in json.loads(path.read_text(encoding="utf-8")).get("questions", []):
                text = q["question"]["string"] if isinstance(q["question"], dict) else q["question"]
                out.add(squeezed(text))
    return out


def test_no_generated_question_is_a_question_of_another_set_nor_a_composer_pair(names: Names, sciqa: SciQA) -> None:
    others = _other_questions(sciqa)
    assert len(others) > 2000
    assert not [q["question"] for q in generate(names, 39, "every") if squeezed(q["question"]) in others]
