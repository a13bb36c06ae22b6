"""Shared fixtures: SciQA and the seed outputs read in place, the real encoder, a train-split store, stand-in
servers."""
from __future__ import annotations

import ipaddress
import os
import socket
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest_plugins = ["tests.standins.fixtures"]

from pipeline.sciqa import SciQA
from pipeline.settings import Settings, variables

SHARED = Path(__file__).resolve().parents[2] / "shared"
NON_LOOPBACK: list[str] = []


def _loopback(host: Any) -> bool:
    if not isinstance(host, str) or host in ("localhost", "") or host.startswith("/"):
        return True
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False  # a host name other than localhost


def _guard(event: str, args: tuple[Any, ...]) -> None:
    """Fail any connection beyond loopback made by the code under test (no network here, and none may be used)."""
    if event == "socket.connect" and args[0].family in (socket.AF_INET, socket.AF_INET6):
        host = args[1][0]
    elif event == "socket.getaddrinfo":
        host = args[0]
    else:
        return
    if isinstance(host, bytes):
        host = host.decode()
    if not _loopback(host):
        NON_LOOPBACK.append(f"{event} {host}")
        raise OSError(f"tests may not reach beyond loopback ({host})")


sys.addaudithook(_guard)


@pytest.fixture(scope="session")
def sciqa_dir() -> Path:
    return Path(os.environ.get("SCIQA_DIR") or SHARED / "sciqa").resolve()  # tests that change directory keep it


@pytest.fixture(scope="session")
def seed_dir() -> Path:
    return Path(os.environ.get("SEED_DIR") or SHARED / "seed-paper-outputs").resolve()


@pytest.fixture(scope="session")
def sciqa(sciqa_dir: Path) -> SciQA:
    return SciQA(sciqa_dir)


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    """The process environment without any setting's variable (the developer's own stay out), to set for a test of
    ``Settings.from_env``."""
    for var in variables().values():
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


@pytest.fixture
def settings(tmp_path: Path, sciqa_dir: Path) -> Settings:
    """Settings for one test: a fresh home, SciQA in place, nothing from the developer's environment."""
    return Settings(home=tmp_path / "home", sciqa_dir=sciqa_dir)


@pytest.fixture(scope="session")
def sciqa_graph(tmp_path_factory: pytest.TempPathFactory, sciqa_dir: Path) -> Any:
    """The graph rebuilt from SciQA (``--kg sciqa``), built once per session in a home of its own."""
    from pipeline.kg.sciqa_graph.store import open_graph

    return open_graph(sciqa_dir, tmp_path_factory.mktemp("sciqa-graph-home"), row_cap=1000)


@pytest.fixture(scope="session")
def encoder() -> Any:
    """The product's encoder: all-MiniLM-L6-v2 run by ONNX Runtime (exported once per machine)."""
    from pipeline.store.encoder import model_encoder

    return model_encoder("sentence-transformers/all-MiniLM-L6-v2", "onnx", Settings().encoder_dir, offline=False)


@pytest.fixture(scope="session")
def torch_encoder() -> Any:
    """all-MiniLM-L6-v2 run by sentence-transformers (torch): what the ONNX encoder must agree with."""
    from pipeline.store import encoder

    return encoder.torch_encoder("sentence-transformers/all-MiniLM-L6-v2", offline=False)


@pytest.fixture(scope="session")
def train_settings(tmp_path_factory: pytest.TempPathFactory, sciqa_dir: Path) -> Settings:
    return Settings(home=tmp_path_factory.mktemp("train-home"), sciqa_dir=sciqa_dir)


@pytest.fixture(scope="session")
def train_store(train_settings: Settings, encoder: Any) -> Any:
    """The real example store (MiniLM + Chroma on disk) over SciQA train, built once per session."""
    from pipeline.factory import build_index
    from pipeline.store.chroma import ChromaStore
    from pipeline.store.connection import open_client

    store = ChromaStore(open_client(train_settings.chroma_path), encoder, train_settings.collection)
    build_index(train_settings, store)
    return store


@pytest.fixture
def tgi() -> Iterator[Any]:
    from standins.tgi import TGIServer

    with TGIServer() as srv:
        yield srv
