"""The intent step's tests over the fixture graph: the store over SciQA train, the graph written as N-Triples."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from pipeline.settings import Settings
from standins.orkg_fixture import write_ntriples


@pytest.fixture
def env(monkeypatch: pytest.MonkeyPatch, train_settings: Settings, train_store: Any, tmp_path: Path) -> Path:
    monkeypatch.setenv("KGQA_HOME", str(train_settings.home))
    monkeypatch.setenv("SCIQA_DIR", str(train_settings.sciqa_dir))
    return write_ntriples(tmp_path / "fixture.nt")
