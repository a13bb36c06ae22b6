"""The rules as a writer: a whole reading answered without a model, anything else handed on."""
from __future__ import annotations

from pathlib import Path

from pipeline.intent.comparisons import ComparisonFacts
from pipeline.intent.writer import ComparisonWriter
from pipeline.kg.oxigraph import OxigraphKG
from standins.comparison_fixture import write_comparisons
from standins.orkg_fixture import write_ntriples


def test_a_whole_reading_is_written_and_anything_else_handed_on(tmp_path: Path) -> None:
    writer = ComparisonWriter(OxigraphKG(write_comparisons(tmp_path / "c.nt"), row_cap=100), ComparisonFacts())
    written = writer.generate("how many soil types are in the urban tree comparison?", [])
    assert written.sparql is not None and "COUNT(DISTINCT" in written.sparql and "orkgp:P9004" in written.sparql
    assert written.reading_record is not None and written.reading_record.said in written.notes[0]
    partial = writer.generate("how many soil types are in the urban tree comparison in norwegian towns?", [])
    assert partial.sparql is None and partial.reading_record is not None and not partial.reading_record.whole
    assert writer.generate("Which model is best on SQuAD?", []).reading_record is None


def test_a_graph_without_comparisons_hands_every_question_on(tmp_path: Path) -> None:
    writer = ComparisonWriter(OxigraphKG(write_ntriples(tmp_path / "f.nt"), row_cap=100), ComparisonFacts())
    assert writer.generate("where were the urban tree studies done?", []).sparql is None
