"""Template hit@k and overlap with the reference system's retrieved examples."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.retrieval import hit_rate, mean, overlap, reference_lists, template_hit


def test_template_hit() -> None:
    assert template_hit("T01", ["T01", "T02"], 1)
    assert not template_hit("T01", ["T02", "T03", "T01"], 1) and template_hit("T01", ["T02", "T03", "T01"], 3)
    assert not template_hit("T01", ["T02", "T03", "T04", "T01"], 3)
    assert not template_hit("", [""], 1)  # an unknown template never hits


def test_hit_rate() -> None:
    pairs: list[tuple[str, list[str]]] = [("T01", ["T01"]), ("T02", ["T01", "T02"]), ("T03", [])]
    assert hit_rate(pairs, 1) == pytest.approx(1 / 3)
    assert hit_rate(pairs, 3) == pytest.approx(2 / 3)
    assert hit_rate([], 1) is None


def test_overlap() -> None:
    theirs = ["a", "b", "c", "d", "e", "f"]
    assert overlap(["a", "b", "c", "d", "e"], theirs) == 1.0
    assert overlap(["a ", "x", "c"], theirs) == pytest.approx(2 / 5)
    assert overlap(["f"], theirs) == 0.0  # only the top five of theirs count
    assert overlap(["a", "a", "b"], ["a", "a", "c"]) == pytest.approx(2 / 5)  # a repeated question counts twice
    assert overlap(["a", "a"], ["a", "c"]) == pytest.approx(1 / 5)


def test_mean_skips_missing() -> None:
    assert mean([1.0, None, 0.0]) == 0.5 and mean([None]) is None


@pytest.mark.parametrize("questions", ["dev", "final"])
def test_reference_lists(seed_dir: Path, questions: str) -> None:
    lists = reference_lists(seed_dir, questions)
    assert lists is not None and len(lists) == 200
    assert all(len(v) == 5 for v in lists.values())


def test_reference_lists_final_first(seed_dir: Path) -> None:
    lists = reference_lists(seed_dir, "final")
    assert lists is not None
    assert lists["AQ0638"][0].startswith("List the title and ID of research papers that contain a benchmark over")


def test_no_reference_for_other_sets(seed_dir: Path, tmp_path: Path) -> None:
    assert reference_lists(seed_dir, "valid") is None
    with pytest.raises(ConfigError, match="SEED_DIR"):
        reference_lists(tmp_path, "dev")
