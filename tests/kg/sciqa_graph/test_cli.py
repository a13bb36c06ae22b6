"""`kgqa kg coverage`, `kgqa kg export sciqa FILE.nt` and `--kg sciqa` from the command line."""
from __future__ import annotations

import json
from pathlib import Path

import pyoxigraph as ox
import pytest

from pipeline.cli import main
from pipeline.sciqa import SPLITS

STORY_CLOZE = ('SELECT DISTINCT ?model ?model_lbl WHERE { ?metric a orkgc:Metric; rdfs:label ?metric_lbl. '
               'FILTER (str(?metric_lbl) = "Accuracy") { SELECT ?model ?model_lbl WHERE { ?dataset a orkgc:Dataset; '
               'rdfs:label ?dataset_lbl. FILTER (str(?dataset_lbl) = "Story Cloze Test") ?benchmark '
               'orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. ?eval orkgp:HAS_VALUE ?value; '
               'orkgp:HAS_METRIC ?metric. ?cont orkgp:HAS_BENCHMARK ?benchmark; orkgp:HAS_MODEL ?model. '
               '?model rdfs:label ?model_lbl. } ORDER BY DESC(?value) LIMIT 1 } }')


@pytest.fixture
def small_sciqa(tmp_path: Path, sciqa_dir: Path) -> Path:
    """The first 40 questions of each split, with their answers (the full check runs in test_coverage)."""
    root = tmp_path / "small-sciqa"
    for split in SPLITS:
        (root / split).mkdir(parents=True)
        questions = json.loads((sciqa_dir / split / "questions.json").read_text())["questions"][:40]
        answers = json.loads((sciqa_dir / split / "answers.json").read_text())["answers"]
        kept = {q["id"] for q in questions}
        (root / split / "questions.json").write_text(json.dumps({"questions": questions}))
        (root / split / "answers.json").write_text(json.dumps({"answers": [a for a in answers if a["id"] in kept]}))
    return root


def test_coverage_prints_each_template_and_the_unsupported_handcrafted_shapes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, small_sciqa: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("KGQA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCIQA_DIR", str(small_sciqa))
    assert main(["kg", "coverage", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert sum(report["total"].values()) == 120 and report["templated_share"] == 1.0
    assert len(report["unsupported_handcrafted"]) == report["total"].get("HQ", 0) - report["exact"].get("HQ", 0)
    assert main(["kg", "coverage"]) == 0
    text = capsys.readouterr().out
    assert "templated: " in text and "(100.00%)" in text and "conflicts between answers: 0" in text


@pytest.fixture
def home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, sciqa_dir: Path) -> Path:
    monkeypatch.setenv("KGQA_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("SCIQA_DIR", str(sciqa_dir))
    return tmp_path / "home"


def test_export_writes_the_graph_as_n_triples_and_sparql_runs_on_it(
        home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "sciqa.nt"
    assert main(["kg", "export", "sciqa", str(out)]) == 0
    assert f"to {out}" in capsys.readouterr().out
    store = ox.Store()
    store.load(out.read_bytes(), format=ox.RdfFormat.N_TRIPLES)
    assert len(store) > 20000
    assert main(["sparql", "--kg", "sciqa", "--json", STORY_CLOZE]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert answer["kg"] == "sciqa" and answer["answer"]["rows"]


def test_export_to_an_unwritable_place_is_one_line(home: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["kg", "export", "sciqa", str(tmp_path / "no" / "such" / "dir" / "g.nt")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kgqa: cannot write") and err.count("\n") == 1
