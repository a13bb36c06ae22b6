"""One encoder worker for all questions: texts that concurrent questions want encoded wait in one queue and go to the
model together, so eight questions at once cost about one batch instead of eight passes fighting over the cores."""
from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field

from pipeline.parts import Encoder

MAX_BATCH = 64  # texts per model call; a larger request (indexing) is encoded as it is, by its caller


@dataclass
class _Job:
    texts: list[str]
    vectors: list[list[float]] = field(default_factory=list)
    error: BaseException | None = None
    done: threading.Event = field(default_factory=threading.Event)


class BatchingEncoder:
    """An Encoder that hands its work to one worker thread, which drains every waiting request into one model call
    (duplicate texts encoded once). The worker starts at the first request."""

    def __init__(self, inner: Encoder, max_batch: int) -> None:
        self.inner = inner
        self.name = inner.name
        self.max_batch = max_batch
        self.batches = 0  # model calls made by the worker (for benchmarks and tests)
        self._queue: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._worker: threading.Thread | None = None
        self._starting = threading.Lock()

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        texts = list(texts)
        if not texts:
            return []
        if len(texts) > self.max_batch:
            return self.inner.encode(texts)
        job = _Job(texts)
        self._queue.put(job)
        self._start()
        job.done.wait()
        if job.error is not None:
            raise job.error
        return job.vectors

    def _start(self) -> None:
        if self._worker is None:
            with self._starting:
                if self._worker is None:
                    self._worker = threading.Thread(target=self._drain, name="kgqa-encoder", daemon=True)
                    self._worker.start()

    def _drain(self) -> None:
        while True:
            jobs = [self._queue.get()]
            size = len(jobs[0].texts)
            while size < self.max_batch:
                try:
                    job = self._queue.get_nowait()
                except queue.Empty:
                    break
                jobs.append(job)
                size += len(job.texts)
            self._run(jobs)

    def _run(self, jobs: list[_Job]) -> None:
        unique = list(dict.fromkeys(t for job in jobs for t in job.texts))
        try:
            vectors = dict(zip(unique, self.inner.encode(unique)))
            self.batches += 1
            for job in jobs:
                job.vectors = [vectors[t] for t in job.texts]
        except BaseException as exc:  # the callers raise it, each in its own thread
            for job in jobs:
                job.error = exc
        finally:
            for job in jobs:
                job.done.set()
