"""Derived data on disk: used only under the key it was saved with; a broken or unwritable file is no error."""
from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.store.derived import code_digest, load_json, save_json


def test_saved_data_comes_back_only_under_its_key(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "d.json"
    save_json(path, "k1", {"a": [1, 2]})
    assert load_json(path, "k1") == {"a": [1, 2]}
    assert load_json(path, "k2") is None
    save_json(path, "k2", ["replaced"])
    assert load_json(path, "k2") == ["replaced"] and load_json(path, "k1") is None
    assert [p.name for p in path.parent.iterdir()] == ["d.json"]  # no temporary file left behind


@pytest.mark.parametrize("text", ["", "{", "[1, 2]", '{"data": 1}', "\xff"])
def test_a_damaged_file_reads_as_absent(tmp_path: Path, text: str) -> None:
    (tmp_path / "d.json").write_text(text, encoding="latin-1")
    assert load_json(tmp_path / "d.json", "k") is None


def test_an_unwritable_place_is_not_an_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    save_json(tmp_path / "file" / "d.json", "k", 1)  # its folder is a file: nothing saved, nothing raised
    assert load_json(tmp_path / "file" / "d.json", "k") is None


def test_the_code_digest_names_the_source_it_covers() -> None:
    assert code_digest("matching") == code_digest("matching")
    assert code_digest("matching") != code_digest("sparql") != code_digest("matching", "sparql")
    assert code_digest("store/knowledge.py") != code_digest("store")
