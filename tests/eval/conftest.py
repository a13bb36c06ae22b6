"""Fixtures for the evaluation tests: SciQA and the reference system's outputs, read in place."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from pipeline.sciqa import SciQA

SHARED = Path(__file__).resolve().parents[3] / "shared"


@pytest.fixture(scope="session")
def sciqa_dir() -> Path:
    return Path(os.environ.get("SCIQA_DIR") or SHARED / "sciqa")


@pytest.fixture(scope="session")
def seed_dir() -> Path:
    return Path(os.environ.get("SEED_DIR") or SHARED / "seed-paper-outputs")


@pytest.fixture(scope="session")
def sciqa(sciqa_dir: Path) -> SciQA:
    return SciQA(sciqa_dir)
