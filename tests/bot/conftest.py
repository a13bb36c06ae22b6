"""Bot fixtures: a real Chroma store (hashed bag-of-words vectors, no model), the adapter generator, the SciQA
snapshot KG, the Slack Web API stand-in, and the bot itself over HTTP on loopback."""
from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from bot.limits import Limits
from pipeline.core import Bounds, Parts, Pipeline
from pipeline.generators.adapter import AdapterGenerator
from pipeline.kg.snapshot import SnapshotKG
from pipeline.names.check import Checked
from pipeline.parts import Generator, KnowledgeGraph
from pipeline.records import Example
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from standins.harness import MAINTAINER, Harness, hash_store, train_slice
from standins.slack.api import SlackAPIServer


@pytest.fixture(scope="session")
def snapshot_kg(sciqa: SciQA) -> SnapshotKG:
    return SnapshotKG(sciqa.all())


@pytest.fixture(scope="session")
def train_examples(sciqa: SciQA) -> list[Example]:
    return train_slice(sciqa)


@pytest.fixture
def store(tmp_path: Path, train_examples: list[Example]) -> ChromaStore:
    return hash_store(tmp_path / "chroma", train_examples)


@pytest.fixture
def make_pipeline(store: ChromaStore, snapshot_kg: SnapshotKG) -> Callable[..., Pipeline]:
    def make(kg: KnowledgeGraph | None = None, generator: Generator | None = None) -> Pipeline:
        return Pipeline(Parts(store, generator or AdapterGenerator(0.45), kg or snapshot_kg),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))

    return make


@pytest.fixture
def slack() -> Iterator[SlackAPIServer]:
    with SlackAPIServer() as server:
        yield server


@pytest.fixture
def bot_settings(settings: Settings) -> Settings:
    """The placeholder-and-update path (what a workspace refusing the AI-app methods gets); tests/bot/test_agent.py
    starts bots on the agent surface."""
    return settings.with_(maintainers=MAINTAINER, workers=2, slack_surface="classic")


@pytest.fixture
def start_bot(slack: SlackAPIServer, make_pipeline: Callable[..., Pipeline],
              bot_settings: Settings) -> Iterator[Callable[..., Harness]]:
    """Start a bot (closed after the test): ``start_bot(kg=..., generator=..., limits=..., **settings)``."""
    started: list[Harness] = []

    def start(kg: KnowledgeGraph | None = None, generator: Generator | None = None, limits: Limits | None = None,
              **overrides: Any) -> Harness:
        harness = Harness.start(slack, make_pipeline(kg, generator), bot_settings.with_(**overrides), limits)
        started.append(harness)
        return harness

    yield start
    for harness in started:
        harness.close()


@pytest.fixture
def bot(start_bot: Callable[..., Harness]) -> Harness:
    return start_bot()


@pytest.fixture
def agent(start_bot: Callable[..., Harness]) -> Harness:
    """A bot on Slack's AI-app surface (status lines, streamed answers with their plan)."""
    return start_bot(slack_surface="agent")


@pytest.fixture
def named_agent(slack: SlackAPIServer, store: ChromaStore, snapshot_kg: SnapshotKG,
                bot_settings: Settings) -> Iterator[Harness]:
    """An agent bot whose pipeline also checks names (so every step is announced)."""
    pipeline = Pipeline(Parts(store, AdapterGenerator(0.45), snapshot_kg,
                              names=lambda sparql, question: Checked(sparql)),
                        Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    harness = Harness.start(slack, pipeline, bot_settings.with_(slack_surface="agent"))
    yield harness
    harness.close()
