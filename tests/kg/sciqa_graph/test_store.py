"""The graph is built once under KGQA_HOME, again when SciQA changes; a half-built graph is never used."""
from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.kg.sciqa_graph.store import FINGERPRINT, FOLDER, GRAPH, ensure_graph, open_graph
from pipeline.sciqa import SPLITS

DATASETS = "PREFIX orkgc: <http://orkg.org/orkg/class/> SELECT (COUNT(?d) AS ?n) WHERE { ?d a orkgc:Dataset }"


@pytest.fixture
def small_sciqa(tmp_path: Path, sciqa_dir: Path) -> Path:
    """A copy of SciQA's files the tests may change or break."""
    root = tmp_path / "sciqa"
    for split in SPLITS:
        (root / split).mkdir(parents=True)
        for name in ("questions.json", "answers.json"):
            shutil.copyfile(sciqa_dir / split / name, root / split / name)
    return root


def test_the_graph_is_built_once_and_reused(tmp_path: Path, sciqa_dir: Path) -> None:
    folder = ensure_graph(sciqa_dir, tmp_path / "home")
    built = (folder / GRAPH).stat().st_mtime_ns
    assert ensure_graph(sciqa_dir, tmp_path / "home") == folder
    assert (folder / GRAPH).stat().st_mtime_ns == built


def test_a_change_to_sciqa_rebuilds_the_graph(tmp_path: Path, small_sciqa: Path) -> None:
    home = tmp_path / "home"
    before = ensure_graph(small_sciqa, home).joinpath(FINGERPRINT).read_text()
    answers = small_sciqa / "train" / "answers.json"
    answers.write_text(answers.read_text().replace('"XLNet-Large"', '"XLNet-Huge"'))
    folder = ensure_graph(small_sciqa, home)
    assert folder.joinpath(FINGERPRINT).read_text() != before
    assert "XLNet-Huge" in folder.joinpath(GRAPH).read_text()


def test_a_graph_killed_mid_build_is_rebuilt_not_used(tmp_path: Path, sciqa_dir: Path) -> None:
    home = tmp_path / "home"
    half = home / FOLDER
    half.mkdir(parents=True)
    (half / GRAPH).write_text("<urn:x> <urn:y> <urn:z> .\n")  # killed before the fingerprint was written
    (home / f"{FOLDER}.building-999999").mkdir()  # and another build's leftovers
    kg = open_graph(sciqa_dir, home, row_cap=1000)
    assert int(kg.select(DATASETS).flat()[0]) > 300
    assert (half / FINGERPRINT).is_file()


@pytest.mark.parametrize("name", ["questions.json", "answers.json"])
def test_a_missing_sciqa_file_is_one_clear_line_naming_it(tmp_path: Path, small_sciqa: Path, name: str) -> None:
    (small_sciqa / "valid" / name).unlink()
    with pytest.raises(ConfigError) as err:
        ensure_graph(small_sciqa, tmp_path / "home")
    assert str(small_sciqa / "valid" / name) in str(err.value) and "\n" not in str(err.value)
    assert not (tmp_path / "home" / FOLDER).exists()


def test_a_damaged_sciqa_file_is_one_clear_line_naming_it(tmp_path: Path, small_sciqa: Path) -> None:
    (small_sciqa / "train" / "answers.json").write_text('{"answers": [')
    with pytest.raises(ConfigError, match="damaged SciQA file .*train/answers.json") as err:
        ensure_graph(small_sciqa, tmp_path / "home")
    assert "\n" not in str(err.value)
    (small_sciqa / "train" / "answers.json").write_text('{"answer": []}')
    with pytest.raises(ConfigError, match="damaged SciQA file .*train/answers.json"):
        ensure_graph(small_sciqa, tmp_path / "home")
