"""The ORKG's own vocabulary, read from N-Triples files the test writes: what is stored, what is refused (and that the
index before it stays), which label wins, and the schema unchanged while the setting is off."""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError, VocabularyError
from pipeline.records import Example
from pipeline.schema import vocabulary as module
from pipeline.schema.graph import GraphFacts
from pipeline.schema.retrieve import build_schema
from pipeline.schema.vocabulary import INDEX, Term, indexed_vocabulary, read_vocabulary, vocabulary_for
from pipeline.settings import Settings

P = "http://orkg.org/orkg/predicate/"
C = "http://orkg.org/orkg/class/"
S = "http://orkg.org/orkg/shapes/"
LABEL = "<http://www.w3.org/2000/01/rdf-schema#label>"
COMMENT = "<http://www.w3.org/2000/01/rdf-schema#comment>"
SH = "http://www.w3.org/ns/shacl#"
# a few predicates (one label with escapes, one comment, one label in German beside the English), a class whose shape
# carries two of them (one property shape an IRI, one a blank node), and lines a reader skips
VOCABULARY = f"""
# the ORKG's vocabulary, in small
<{P}P5049> {LABEL} "location" .
<{P}P5049> {COMMENT} "Where the study was carried out" .
<{P}P15687> {LABEL} "Sample size"@en .
<{P}P15687> {LABEL} "Stichprobengr\\u00F6\\u00DFe"@de .
<{P}P41568> {LABEL} "Geographic scale (Km\\u00B2)" .
<{P}P15019> {LABEL} "Feature\\nExtraction" .
<{C}Study> {LABEL} "Study" .
<{C}Study> <http://www.w3.org/1999/02/22-rdf-syntax-ns#type> <http://www.w3.org/2002/07/owl#Class> .
"""
SHAPES = f"""
<{S}orkgc_Study> <{SH}targetClass> <{C}Study> .
<{S}orkgc_Study> <{SH}property> <{S}orkgp_P5049> .
<{S}orkgc_Study> <{SH}property> _:size .
<{S}orkgp_P5049> <{SH}path> <{P}P5049> .
_:size <{SH}path> <{P}P15687> .
<{S}orkgp_P5049> <{SH}nodeKind> <{SH}IRI> .
<{P}P5049> {LABEL} "Location" .
"""


def written(folder: Path, **files: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / f"{name}.nt").write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def orkg(tmp_path: Path) -> Path:
    """A folder holding a vocabulary file and a shapes file."""
    return written(tmp_path / "orkg", vocabulary=VOCABULARY, shapes=SHAPES)


def test_labels_comments_and_shapes_are_read_from_a_folder_of_files(orkg: Path) -> None:
    vocabulary = read_vocabulary([orkg])
    assert set(vocabulary.predicates) == {"orkgp:P5049", "orkgp:P15687", "orkgp:P41568", "orkgp:P15019"}
    assert vocabulary.predicates["orkgp:P5049"] == Term("orkgp:P5049", "Location", "Where the study was carried out")
    assert vocabulary.label("orkgp:P15687") == "Sample size"  # the English label, not the German one
    assert vocabulary.label("orkgp:P41568") == "Geographic scale (Km²)" and vocabulary.label("orkgc:Study") == "Study"
    assert vocabulary.label("orkgp:P15019") == "Feature\nExtraction" and vocabulary.label("orkgp:P1") is None
    assert vocabulary.shapes == {"orkgc:Study": frozenset({"orkgp:P5049", "orkgp:P15687"})}
    assert vocabulary.carried_by("orkgp:P15687") == {"orkgc:Study"} and vocabulary.carried_by("orkgp:P41568") == set()
    assert len(vocabulary) == 5 and vocabulary.comments == 1


def test_a_compressed_dump_is_read_and_a_string_typed_label_is_a_label(orkg: Path) -> None:
    import gzip

    typed = f'<{P}P27> {LABEL} "has author"^^<http://www.w3.org/2001/XMLSchema#string> .\n' \
            f'<{P}P28> {LABEL} "42"^^<http://www.w3.org/2001/XMLSchema#integer> .\n'
    with gzip.open(orkg / "dump.nt.gz", "wt", encoding="utf-8") as out:
        out.write(typed)
    vocabulary = read_vocabulary([orkg])
    assert vocabulary.label("orkgp:P27") == "has author" and vocabulary.label("orkgp:P28") is None
    assert vocabulary.label("orkgp:P5049") == "Location"


def test_one_label_up_to_case_and_spacing_is_not_a_clash_and_the_first_files_spelling_stays(orkg: Path) -> None:
    assert read_vocabulary([orkg / "shapes.nt", orkg / "vocabulary.nt"]).label("orkgp:P5049") == "Location"
    assert read_vocabulary([orkg / "vocabulary.nt", orkg / "shapes.nt"]).label("orkgp:P5049") == "location"


@pytest.mark.parametrize(("text", "said"), [
    (f'<{P}P1> {LABEL} "open', "line 2: not an N-Triples triple"),
    (f'<{P}P1> {LABEL} "x"', "line 2: not an N-Triples triple"),
    (f"<{P}P1> <{P}P2>", "line 2: not an N-Triples triple"),
], ids=["unclosed-literal", "no-full-stop", "two-terms"])
def test_a_malformed_line_is_refused_naming_the_file_and_line(tmp_path: Path, text: str, said: str) -> None:
    bad = tmp_path / "bad.nt"
    bad.write_text(f'<{P}P5049> {LABEL} "location" .\n{text}\n', encoding="utf-8")
    with pytest.raises(VocabularyError, match=f"{bad} {said}"):
        read_vocabulary([bad])


def test_a_missing_file_an_empty_folder_and_a_clash_are_refused_and_say_which(orkg: Path, tmp_path: Path) -> None:
    with pytest.raises(VocabularyError, match=f"{tmp_path / 'nowhere.nt'}: no such file or folder"):
        read_vocabulary([orkg, tmp_path / "nowhere.nt"])
    with pytest.raises(VocabularyError, match="holds no .nt"):
        read_vocabulary([written(tmp_path / "empty")])
    other = written(tmp_path / "other", later=f'\n<{P}P5049> {LABEL} "Study location" .\n')
    with pytest.raises(VocabularyError) as refused:
        read_vocabulary([orkg / "vocabulary.nt", other])
    message = str(refused.value)
    assert "orkgp:P5049" in message and "'location'" in message and "'Study location'" in message
    assert f"{orkg / 'vocabulary.nt'} line 3" in message and f"{other / 'later.nt'} line 2" in message
    assert isinstance(refused.value, ConfigError) and "\n" not in message  # one line, a configuration error


def test_the_index_is_written_once_read_again_and_rebuilt_when_a_file_changes(orkg: Path, tmp_path: Path) -> None:
    home = tmp_path / "home"
    first, read = indexed_vocabulary([orkg], home)
    assert read and (home / INDEX).is_file() and not [p for p in home.iterdir() if p.name != INDEX]
    module._HELD.clear()  # another process: only the file on disk
    again, read = indexed_vocabulary([orkg], home)
    assert not read and again == first
    (orkg / "vocabulary.nt").write_text(VOCABULARY + f'<{P}P9> {LABEL} "has sample size" .\n', encoding="utf-8")
    changed, read = indexed_vocabulary([orkg], home)
    assert read and changed.label("orkgp:P9") == "has sample size"


@pytest.mark.parametrize("broken", ["malformed", "missing", "clash"])
def test_a_file_that_cannot_be_read_leaves_the_index_before_it(orkg: Path, tmp_path: Path, broken: str) -> None:
    home = tmp_path / "home"
    indexed_vocabulary([orkg], home)
    before = (home / INDEX).read_bytes()
    bad = {"malformed": written(tmp_path / "bad", bad="<a> <b> .\n") / "bad.nt", "missing": tmp_path / "gone.nt",
           "clash": written(tmp_path / "bad", bad=f'<{P}P15687> {LABEL} "Participants" .\n') / "bad.nt"}[broken]
    with pytest.raises(VocabularyError):
        indexed_vocabulary([orkg, bad], home)
    assert (home / INDEX).read_bytes() == before and [p.name for p in home.iterdir()] == [INDEX]
    module._HELD.clear()
    assert indexed_vocabulary([orkg], home)[1] is False  # still indexed, nothing read again


def test_the_graphs_own_label_wins_and_a_name_only_the_graph_labels_is_added(orkg: Path) -> None:
    vocabulary = read_vocabulary([orkg])
    merged = vocabulary.merged({"orkgp:P5049": "Study location", "orkgp:P77": "has venue", "orkgr:R1": "a paper",
                                "orkgc:Study": "Study (ORKG)"})
    assert merged.predicates["orkgp:P5049"] == Term("orkgp:P5049", "Study location", "Where the study was carried out")
    assert merged.label("orkgp:P77") == "has venue" and merged.label("orkgc:Study") == "Study (ORKG)"
    assert merged.label("orkgr:R1") is None and merged.shapes == vocabulary.shapes
    assert vocabulary.label("orkgp:P5049") == "Location"  # the vocabulary itself is left as it was
    facts = GraphFacts({}, {"orkgp:P5049": "Study location"}).labelled(vocabulary)
    assert facts.labels["orkgp:P5049"] == "Study location" and facts.labels["orkgp:P15687"] == "Sample size"
    assert GraphFacts({}, {}).labelled(None) == GraphFacts({}, {})


def test_the_setting_names_files_and_folders_and_is_off_by_default(orkg: Path, tmp_path: Path) -> None:
    assert Settings(home=tmp_path).orkg_vocabulary_paths == () and vocabulary_for(Settings(home=tmp_path)) is None
    both = os.pathsep.join([str(orkg / "vocabulary.nt"), str(orkg / "shapes.nt")])
    settings = Settings(home=tmp_path / "home", orkg_vocabulary=both)
    assert settings.orkg_vocabulary_paths == (orkg / "vocabulary.nt", orkg / "shapes.nt")
    found = vocabulary_for(settings)
    assert found is not None and found.shapes and (settings.vocabulary_dir / INDEX).is_file()


PAIRS = [Example("T1", "Where were the studies of the sample comparison carried out?",
                 "SELECT ?l WHERE { orkgr:R1 orkgp:compareContribution ?c . ?c orkgp:P5049 ?location }")]


def test_the_schema_takes_the_vocabularys_labels_and_comments_where_the_graph_has_none(orkg: Path) -> None:
    facts = GraphFacts({"orkgr:R1": ("orkgp:P5049", "orkgp:P15687")}, {"orkgp:P15687": "N"})
    names = frozenset({"orkgp:P5049", "orkgp:P15687", "orkgp:P31"})
    lines = {e.name: e.line for e in build_schema(PAIRS, names, facts, read_vocabulary([orkg])).entries}
    assert lines["orkgp:P5049"] == "orkgp:P5049 predicate: Location (Where the study was carried out)"
    assert lines["orkgp:P15687"] == "orkgp:P15687 predicate: N"  # the graph's own label wins
    assert "orkgp:P5049 (Location)" in lines["orkgr:R1"]
    plain = {e.name: e.line for e in build_schema(PAIRS, names, facts).entries}
    assert plain["orkgp:P5049"] == "orkgp:P5049 predicate: location" and "Location" not in " ".join(plain.values())


def test_with_the_setting_off_the_grounding_is_what_it_was(tmp_path: Path) -> None:
    from pipeline.schema.grounding import Grounding, Levers

    class Graph:
        name = "graph"

        def select(self, query: str) -> Any:
            from pipeline.records import Rows

            return Rows(["c", "p", "t", "l"], [])

    def grounding(**orkg: Any) -> Grounding:
        return Grounding(Levers(schema=True, grammar=True), Graph(), lambda: PAIRS,  # type: ignore[arg-type]
                         lambda: frozenset({"orkgp:P5049"}), lambda: None, **orkg)

    off = Settings(home=tmp_path)
    before = grounding().context("Where were the studies carried out?")
    assert grounding(orkg=lambda: vocabulary_for(off)).context("Where were the studies carried out?") == before
    assert before.text and before.names is not None


def test_the_graph_rebuilt_from_sciqa_gets_the_vocabularys_labels_when_the_setting_names_it(
        sciqa: Any, sciqa_graph: Any, tmp_path: Path) -> None:
    from pipeline.factory import grounding_for
    from pipeline.names.lexicon import Lexicon
    from pipeline.names.vocabulary import sparql_terms
    from pipeline.schema.grounding import Grounding, Levers

    written(tmp_path / "orkg", energy=f'<{P}P43135> {LABEL} "Has energy sources" .\n')
    settings = Settings(home=tmp_path / "home", orkg_vocabulary=str(tmp_path / "orkg"))
    store: Any = type("Store", (), {"examples": lambda self: []})()
    assert grounding_for(settings, Lexicon.of(settings, sciqa_graph), store).orkg() == vocabulary_for(settings)
    home = Settings(home=tmp_path)
    assert grounding_for(home, Lexicon.of(home, sciqa_graph), store).orkg() is None
    train = [Example(r.id, r.question, r.sparql, r.template_id) for r in sciqa.split("train")]
    names = frozenset(sparql_terms(sciqa_graph))

    def schema(**orkg: Any) -> str:
        grounding = Grounding(Levers(schema=True), sciqa_graph, lambda: train, lambda: names, lambda: None, **orkg)
        return grounding.context("What is the average energy generation of all energy sources?").text

    assert "orkgp:P43135 predicate: Has energy sources" in schema(orkg=lambda: vocabulary_for(settings))
    assert "orkgp:P43135 predicate: energy sources" in schema()  # the stored pairs' words, as before
