"""The scaled ORKG-shaped graph: deterministic by seed, about the size asked, SciQA's graph inside it unchanged,
look-alikes of SciQA's names beside them and never one of them."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pyoxigraph as ox

from pipeline.names.index import squeeze
from standins.orkg_scale import write_scaled

LABEL = "http://www.w3.org/2000/01/rdf-schema#label"


def labels(path: Path, prefix: str) -> list[str]:
    return [q.object.value for q in ox.parse(path=str(path), format=ox.RdfFormat.N_TRIPLES)
            if q.predicate.value == LABEL and q.subject.value.startswith(prefix)]


def test_scaled_graph_is_deterministic_sized_and_holds_sciqa(sciqa_graph: Any, tmp_path: Path) -> None:
    base = sciqa_graph.folder / "graph.nt"
    first = write_scaled(base, tmp_path / "a.nt", 3, seed=7)
    again = write_scaled(base, tmp_path / "b.nt", 3, seed=7)
    other = write_scaled(base, tmp_path / "c.nt", 3, seed=8)
    assert (tmp_path / "a.nt").read_bytes() == (tmp_path / "b.nt").read_bytes()
    assert (tmp_path / "a.nt").read_bytes() != (tmp_path / "c.nt").read_bytes()
    assert 3 * first.sciqa_triples <= first.triples < 3 * first.sciqa_triples + 200
    assert again.triples == first.triples and other.triples >= 3 * other.sciqa_triples
    text = (tmp_path / "a.nt").read_text(encoding="utf-8")
    assert text.startswith(base.read_text(encoding="utf-8"))  # SciQA's graph as it is
    store = ox.Store()
    store.load(path=str(tmp_path / "a.nt"), format=ox.RdfFormat.N_TRIPLES)
    assert len(store) == first.triples  # every line a distinct triple


def test_invented_names_have_the_orkgs_skew(sciqa_graph: Any, tmp_path: Path) -> None:
    base = sciqa_graph.folder / "graph.nt"
    write_scaled(base, tmp_path / "g.nt", 3, seed=7)
    sciqa = labels(base, "")
    invented = labels(tmp_path / "g.nt", "http://orkg.org/orkg/resource/S")
    keys = {squeeze(label) for label in sciqa}
    assert not [label for label in invented if squeeze(label) in keys]  # no SciQA name typed another way
    squad = [label for label in invented if label.startswith("SQuAD")]
    assert squad and all(label not in sciqa for label in squad)  # versions and splits beside SciQA's SQuAD
    assert any(re.search(r" v\d+$", label) for label in invented)
    assert any(not label.isascii() for label in invented)
    spelled = {}
    for label in invented:
        spelled.setdefault(squeeze(label), set()).add(label)
    assert any(len(s) >= 3 for s in spelled.values())  # one dataset under several spellings
