"""The SciQA snapshot answers recorded queries, whatever their blanks, prefixes or variable names."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from pipeline.errors import NotInSnapshot
from pipeline.kg.snapshot import SnapshotKG
from pipeline.sciqa import SciQA
from pipeline.sparql.gate import gate
from pipeline.sparql.text import canonical, squash


@pytest.fixture(scope="module")
def snapshot(sciqa: SciQA) -> SnapshotKG:
    return SnapshotKG(sciqa.all())


def test_every_recorded_query_gets_its_recorded_answer(snapshot: SnapshotKG, sciqa: SciQA) -> None:
    wrong = [r.id for r in sciqa.all() if set(snapshot.select(r.sparql).flat()) != set(r.flat_answer)]
    assert wrong == []


def test_a_gated_variant_with_renamed_variables_finds_the_same_answer(snapshot: SnapshotKG, sciqa: SciQA) -> None:
    rec = next(r for r in sciqa.split("test") if r.template_id == "T05")
    variant = re.sub(r"\?(\w+)", r"?renamed_\1", squash(rec.sparql)).replace("SELECT", "select")
    rows = snapshot.select(gate(variant, 1000).fixed)  # prefixes declared, LIMIT added by the gate
    assert rows.flat() == list(rec.flat_answer) and "early 2023" in rows.caveat


def test_anything_else_is_not_in_the_snapshot(snapshot: SnapshotKG, sciqa: SciQA) -> None:
    rec = sciqa.split("test")[0]
    other = rec.sparql.replace(re.findall(r'"([^"]+)"', rec.sparql)[0], "No Such Dataset")
    with pytest.raises(NotInSnapshot, match="^not in snapshot"):
        snapshot.select(other)


def test_a_kept_snapshot_answers_the_same_and_follows_the_data(sciqa: SciQA, snapshot: SnapshotKG,
                                                                tmp_path: Path) -> None:
    saved = tmp_path / "snapshot.json"
    SnapshotKG(sciqa.all(), saved)
    assert saved.is_file()
    assert SnapshotKG(sciqa.all(), saved).answers == snapshot.answers  # loaded, not derived, and equal
    records = sciqa.split("test")[:3]
    assert set(SnapshotKG(records, saved).answers) == {canonical(r.sparql) for r in records}  # other data: derived
