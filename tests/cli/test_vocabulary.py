"""`kgqa kg vocabulary FILE…`: indexes once and says what it holds; a bad file exits non-zero with one line and the
index already there stays."""
from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.schema import vocabulary as module
from pipeline.schema.vocabulary import INDEX

P, C, S = "http://orkg.org/orkg/predicate/", "http://orkg.org/orkg/class/", "http://orkg.org/orkg/shapes/"
LABEL, COMMENT = "<http://www.w3.org/2000/01/rdf-schema#label>", "<http://www.w3.org/2000/01/rdf-schema#comment>"
SH = "http://www.w3.org/ns/shacl#"
FILE = f"""<{P}P5049> {LABEL} "location" .
<{P}P5049> {COMMENT} "Where the study was carried out" .
<{P}P15687> {LABEL} "Sample size" .
<{C}Study> {LABEL} "Study" .
<{S}Study> <{SH}targetClass> <{C}Study> .
<{S}Study> <{SH}property> <{S}location> .
<{S}location> <{SH}path> <{P}P5049> .
"""


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for var in list(os.environ):
        if var.startswith(("KGQA_", "SLACK_")):
            monkeypatch.delenv(var)
    monkeypatch.setenv("KGQA_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    module._HELD.clear()
    return tmp_path / "home"


def test_the_vocabulary_is_indexed_once_and_what_it_holds_is_said(home: Path, tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch,
                                                                 capsys: pytest.CaptureFixture[str]) -> None:
    orkg = tmp_path / "orkg.nt"
    orkg.write_text(FILE, encoding="utf-8")
    assert main(["kg", "vocabulary", str(orkg)]) == 0
    out = capsys.readouterr().out
    assert out.startswith("2 predicates, 1 classes, 1 class shapes, 1 comments: read and indexed in ")
    assert str(home / "vocabulary" / INDEX) in out and f"KGQA_ORKG_VOCABULARY={orkg}" in out
    module._HELD.clear()
    monkeypatch.setenv("KGQA_ORKG_VOCABULARY", str(orkg))  # the files the setting names: in use
    assert main(["kg", "vocabulary", "--json", str(orkg)]) == 0
    said = json.loads(capsys.readouterr().out)
    index = str(home / "vocabulary" / INDEX)
    assert said == {"predicates": 2, "classes": 1, "shapes": 1, "comments": 1, "index": index, "read": False,
                    "seconds": said["seconds"], "in_use": True}


@pytest.mark.parametrize(("text", "said"), [
    (FILE + "not a triple\n", "line 8: not an N-Triples triple: 'not a triple'"),
    (f'<{P}P5049> {LABEL} "Study location" .\n', "orkgp:P5049 is labelled 'location' at"),
    (None, "no such file or folder"),
], ids=["malformed", "clash", "missing"])
def test_a_bad_file_exits_non_zero_with_one_line_and_the_index_stays(home: Path, tmp_path: Path, text: str | None,
                                                                    said: str,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "orkg.nt"
    good.write_text(FILE, encoding="utf-8")
    assert main(["kg", "vocabulary", str(good)]) == 0
    before = (home / "vocabulary" / INDEX).read_bytes()
    capsys.readouterr()
    bad = tmp_path / "bad.nt"
    if text is not None:
        bad.write_text(text, encoding="utf-8")
    assert main(["kg", "vocabulary", str(good), str(bad)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and err.startswith("kgqa: ") and said in err and str(bad) in err
    assert (home / "vocabulary" / INDEX).read_bytes() == before
    module._HELD.clear()
    assert main(["kg", "vocabulary", str(good)]) == 0 and "already indexed" in capsys.readouterr().out
