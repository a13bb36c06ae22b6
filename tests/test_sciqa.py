"""Loading SciQA from a folder: splits, challenge subsets, recorded answers."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.cli import _sciqa
from pipeline.records import Rows
from pipeline.sciqa import SciQA, sciqa_for
from pipeline.settings import Settings


def test_splits_hold_the_published_counts(sciqa: SciQA) -> None:
    assert [len(sciqa.split(s)) for s in ("train", "valid", "test")] == [1795, 257, 513]
    templated = [r for r in sciqa.all() if not r.handcrafted]
    assert len(templated) == 2465 and {r.template_id for r in templated} == {f"T0{i}" for i in range(1, 9)}


def test_records_carry_question_sparql_template_split_and_answer(sciqa: SciQA) -> None:
    rec = sciqa.split("train")[0]
    assert rec.id and rec.question.endswith("?") and "SELECT" in rec.sparql and rec.split == "train"
    assert Rows.from_json(rec.answer).flat() == list(rec.flat_answer)  # the challenge's flattening


def test_boolean_answers_become_strings(sciqa: SciQA) -> None:
    asks = [r for r in sciqa.all() if "boolean" in r.answer]
    assert asks and all(r.flat_answer in (("true",), ("false",)) for r in asks)


def test_challenge_subsets_and_their_gold(sciqa: SciQA) -> None:
    dev, final = sciqa.challenge("dev"), sciqa.challenge("final")
    assert len(dev) == len(final) == 200
    assert all(i in sciqa.by_id and sciqa.by_id[i].split == "test" for i, _ in final)
    gold = sciqa.challenge_gold("final")
    assert set(gold) == {i for i, _ in final}
    assert len(sciqa.challenge_gold("dev")) == 200


def test_a_folder_without_sciqa_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="SCIQA_DIR"):
        SciQA(tmp_path)


def test_every_command_downloads_sciqa_into_one_cache(tmp_path: Path, sciqa_dir: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """`kgqa eval` downloaded into the default Hugging Face cache while the factory used $KGQA_HOME/hf: twice."""
    caches: list[str] = []

    def snapshot_download(repo: str, repo_type: str, cache_dir: str | None = None) -> str:
        caches.append(str(cache_dir))
        return str(sciqa_dir)  # stands in for the hub: what a finished download leaves on disk

    monkeypatch.setattr("huggingface_hub.snapshot_download", snapshot_download)
    settings = Settings(home=tmp_path / "home")  # no SCIQA_DIR: the data comes from the hub
    sciqa_for(settings)
    _sciqa(settings, "dev")
    assert caches == [str(tmp_path / "home" / "hf")] * 2
