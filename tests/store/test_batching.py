"""The encoder worker: concurrent questions' texts go to the model together, each caller gets its own vectors."""
from __future__ import annotations

import threading
import time
from collections.abc import Sequence

import pytest

from pipeline.errors import ConfigError
from pipeline.store.batching import MAX_BATCH, BatchingEncoder
from standins.fakes import HashEncoder


class HeldEncoder(HashEncoder):
    """Records each model call; the first call waits until the test lets it go (so others can queue meanwhile)."""

    def __init__(self, error: Exception | None = None) -> None:
        super().__init__()
        self.calls: list[list[str]] = []
        self.release = threading.Event()
        self.entered = threading.Event()
        self.error = error

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls.append(list(texts))
        self.entered.set()
        self.release.wait(10)
        if self.error is not None:
            raise self.error
        return super().encode(texts)


def poll(condition: object, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached"
        time.sleep(0.001)


def ask_at_once(encoder: BatchingEncoder, inner: HeldEncoder, requests: list[list[str]]) -> list[object]:
    """The first request enters the model; the rest queue behind it; then the model is let go."""
    results: list[object] = [None] * len(requests)

    def call(i: int) -> None:
        try:
            results[i] = encoder.encode(requests[i])
        except Exception as exc:
            results[i] = exc

    threads = [threading.Thread(target=call, args=(0,))]
    threads[0].start()
    inner.entered.wait(10)
    threads += [threading.Thread(target=call, args=(i,)) for i in range(1, len(requests))]
    for t in threads[1:]:
        t.start()
    poll(lambda: encoder._queue.qsize() == len(requests) - 1)
    inner.release.set()
    for t in threads:
        t.join(10)
    return results


def test_waiting_questions_share_one_model_call_and_each_gets_its_own_vectors() -> None:
    inner = HeldEncoder()
    encoder = BatchingEncoder(inner, MAX_BATCH)
    requests = [[f"question {i} about SQuAD", f"question X {i}"] for i in range(8)] + [["question 1 about SQuAD"]]
    results = ask_at_once(encoder, inner, requests)
    assert len(inner.calls) == 2  # the first question alone, then the eight that waited meanwhile, together
    assert sorted(inner.calls[1]) == sorted({t for r in requests[1:] for t in r})  # duplicates encoded once
    assert results == [HashEncoder().encode(r) for r in requests]
    assert encoder.name == inner.name and encoder.batches == 2


def test_a_model_failure_reaches_every_waiting_caller() -> None:
    inner = HeldEncoder(ConfigError("the embedding model cannot be loaded"))
    results = ask_at_once(BatchingEncoder(inner, MAX_BATCH), inner, [["a"], ["b"], ["c"]])
    assert all(isinstance(r, ConfigError) for r in results)


def test_large_requests_and_empty_ones_bypass_the_queue() -> None:
    inner = HashEncoder()
    encoder = BatchingEncoder(inner, max_batch=4)
    assert encoder.encode([]) == []
    texts = [f"pair {i}" for i in range(10)]
    assert encoder.encode(texts) == inner.encode(texts) and encoder.batches == 0 and encoder._worker is None


def test_the_worker_keeps_serving_after_a_failure() -> None:
    inner = HeldEncoder(ValueError("bad input"))
    inner.release.set()
    encoder = BatchingEncoder(inner, MAX_BATCH)
    with pytest.raises(ValueError):
        encoder.encode(["x"])
    inner.error = None
    assert encoder.encode(["y"]) == HashEncoder().encode(["y"])
