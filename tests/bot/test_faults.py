"""Fault injection through the real stand-ins over loopback (TGI, the SPARQL endpoint, Slack's Web API): every fault
ends in a Slack reply that says what happened, within the question's deadline."""
from __future__ import annotations

import logging
from pathlib import Path

import pytest

from pipeline.factory import build_kg
from pipeline.kg.snapshot import SnapshotKG
from pipeline.records import Example
from pipeline.settings import Settings
from pipeline.store.chroma import ChromaStore
from standins.faults import SCENARIOS, TIMEOUTS, Scenario, run
from standins.harness import MAINTAINER, hash_store, shown

SLACK_RETRY_S = 2.5  # a 429's Retry-After (1 s) and the client's jitter (< 1 s)


@pytest.fixture(scope="module")
def fault_settings(tmp_path_factory: pytest.TempPathFactory, sciqa_dir: Path) -> Settings:
    """One home for the module, so the factory builds the SciQA snapshot once (it caches it per home), and the graph
    rebuilt from SciQA — the fallback when the endpoint fails — built before the scenarios: a question's deadline is
    the product's promise for a running bot, not for the first build of that graph on a loaded machine."""
    settings = Settings(home=tmp_path_factory.mktemp("faults"), sciqa_dir=sciqa_dir, maintainers=MAINTAINER, workers=2)
    build_kg(settings, "sciqa").select("SELECT ?s WHERE { ?s ?p ?o } LIMIT 1")
    return settings


@pytest.fixture(scope="module")
def fault_store(tmp_path_factory: pytest.TempPathFactory, train_examples: list[Example]) -> ChromaStore:
    return hash_store(tmp_path_factory.mktemp("fault-store"), train_examples)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.fault for s in SCENARIOS])
def test_a_fault_ends_in_a_reply_that_says_what_happened(scenario: Scenario, fault_store: ChromaStore,
                                                         fault_settings: Settings, snapshot_kg: SnapshotKG,
                                                         caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.INFO, logger="kgqa")
    outcome = run(scenario, fault_store, fault_settings, snapshot_kg)
    deadline = scenario.settings.get("deadline", TIMEOUTS["deadline"])
    assert outcome.seconds < deadline + SLACK_RETRY_S
    if not scenario.answered:
        assert outcome.reply is None
        assert "could not deliver the answer" in caplog.text and '"outcome": "undelivered_answered"' in caplog.text
        return
    assert outcome.reply is not None
    text = shown(outcome.reply)
    missing = [e for e in scenario.expect if e not in text]
    assert not missing, f"{scenario.fault}: the reply does not say {missing}: {outcome.sees}"
