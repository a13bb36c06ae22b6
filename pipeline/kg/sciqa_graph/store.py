"""The graph built once under ``$KGQA_HOME`` (again when SciQA's files change) and opened as a knowledge graph.

A build is written into a folder of its own and swapped into place only once complete (the fingerprint is written
last), so a build killed halfway is never opened: the next start builds again.
"""
from __future__ import annotations

import hashlib
import os
import shutil
from dataclasses import replace
from pathlib import Path

import pyoxigraph as ox

from pipeline.errors import ConfigError
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.kg.sciqa_graph.build import build_witness
from pipeline.kg.sciqa_graph.facts import read_facts, sciqa_files
from pipeline.records import Rows
from pipeline.sparql.reorder import triples_before_optionals

BUILDER = "sciqa-graph/2"  # bump when the builder changes what it writes
FOLDER = "sciqa-graph"
GRAPH, CONFLICTS, FINGERPRINT = "graph.nt", "conflicts.txt", "fingerprint"
CAVEAT = "from a graph rebuilt from SciQA's answers recorded from the ORKG in early 2023; today's graph may differ"


def fingerprint(root: Path) -> str:
    digest = hashlib.sha256(BUILDER.encode())
    for path in sciqa_files(root):
        try:
            digest.update(path.name.encode() + path.read_bytes())
        except FileNotFoundError as exc:
            raise ConfigError(f"missing SciQA file {path}; set SCIQA_DIR to a complete copy") from exc
        except OSError as exc:
            raise ConfigError(f"cannot read SciQA file {path}: {exc}") from exc
    return digest.hexdigest()


def ensure_graph(root: Path, home: Path) -> Path:
    """The folder holding the graph built from the SciQA at ``root``; built (aside, then swapped in) when missing,
    incomplete or out of date."""
    target = home / FOLDER
    wanted = fingerprint(root)
    if _fingerprint_of(target) == wanted:
        return target
    home.mkdir(parents=True, exist_ok=True)
    building = home / f"{FOLDER}.building-{os.getpid()}"
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir()
    witness = build_witness(read_facts(root))
    ox.serialize(witness.quads(), str(building / GRAPH), ox.RdfFormat.N_TRIPLES)
    (building / CONFLICTS).write_text("".join(f"{c}\n" for c in witness.conflicts), encoding="utf-8")
    (building / FINGERPRINT).write_text(wanted, encoding="utf-8")  # last: its presence means complete
    old = home / f"{FOLDER}.old-{os.getpid()}"
    if target.exists():
        target.rename(old)
    try:
        building.rename(target)
    except OSError:  # another process swapped its build in first
        shutil.rmtree(building, ignore_errors=True)
        if _fingerprint_of(target) != wanted:
            raise
    shutil.rmtree(old, ignore_errors=True)
    return target


def _fingerprint_of(folder: Path) -> str | None:
    try:
        return (folder / FINGERPRINT).read_text(encoding="utf-8") if (folder / GRAPH).is_file() else None
    except OSError:
        return None


class SciqaKG(OxigraphKG):
    """The rebuilt graph in an in-memory pyoxigraph store (loading its N-Triples takes a fraction of a second)."""

    def __init__(self, folder: Path, row_cap: int) -> None:
        super().__init__(folder / GRAPH, row_cap=row_cap)
        self.name = "sciqa"
        self.folder = folder

    def select(self, query: str) -> Rows:
        """``query`` as the gate gives it: SPARQL 1.1 (the gate reads ORKG's own dialect for a graph that does not
        take it, as this one)."""
        rows = super().select(triples_before_optionals(query))
        return replace(rows, caveat=f"{CAVEAT}; {rows.caveat}" if rows.caveat else CAVEAT)


def open_graph(root: Path, home: Path, row_cap: int) -> SciqaKG:
    return SciqaKG(ensure_graph(root, home), row_cap)
