"""The question's time budget: each stage runs in what is left of it, on stage threads a ``Deadline`` owns and
``close()`` shuts down (the CLI, the bot and the MCP server close theirs when they finish); and what a stage run
under it shares with the question (``Stage``): whether the question gave up on it (so a model server is told to stop
instead of writing on for nobody), and what it knew so far (the prompt sent, the text streamed back), so that a reply
past the deadline still shows them."""
from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from contextvars import ContextVar
from types import TracebackType
from typing import TypeVar

from pipeline.errors import DeadlinePassed
from pipeline.records import Generation

T = TypeVar("T")
_CURRENT: ContextVar[Stage | None] = ContextVar("kgqa_stage", default=None)


class Stage:
    """One stage of one question. ``abandon()`` runs the registered hooks (closing a stream) once, from any thread."""

    def __init__(self) -> None:
        self.prompt = ""
        self._parts: list[str] = []
        self._hooks: list[Callable[[], None]] = []
        self._lock = threading.Lock()
        self._abandoned = False

    @property
    def abandoned(self) -> bool:
        return self._abandoned

    @property
    def partial(self) -> str:
        with self._lock:
            return "".join(self._parts)

    def sent(self, prompt: str) -> None:
        """A new request to the model: its prompt, and nothing streamed back yet."""
        with self._lock:
            self.prompt, self._parts = prompt, []

    def streamed(self, text: str) -> None:
        with self._lock:
            self._parts.append(text)

    def on_abandon(self, hook: Callable[[], None]) -> Callable[[], None]:
        """Run ``hook`` when the question gives up (at once if it already has); returns the hook's remover."""
        with self._lock:
            late = self._abandoned
            if not late:
                self._hooks.append(hook)
        if late:
            hook()

        def remove() -> None:
            with self._lock:
                if hook in self._hooks:
                    self._hooks.remove(hook)
        return remove

    def abandon(self) -> None:
        with self._lock:
            self._abandoned, hooks, self._hooks = True, self._hooks, []
        for hook in hooks:
            try:
                hook()
            except OSError:  # the connection is already gone: nothing is left to stop
                pass

    def so_far(self, generator: str, explanation: str) -> Generation:
        """What the model had been sent and had written when the question gave up on it (no query)."""
        return Generation(generator, None, self.partial, self.prompt, explanation=explanation)


def current() -> Stage | None:
    """The stage the calling code runs in, if a deadline watches it."""
    return _CURRENT.get()


def running(stage: Stage, work: Callable[[], T]) -> T:
    """``work()`` with ``stage`` as the current stage (for a pool thread, which does not inherit the caller's)."""
    token = _CURRENT.set(stage)
    try:
        return work()
    finally:
        _CURRENT.reset(token)


@contextmanager
def timed(timings: dict[str, float], stage: str) -> Iterator[None]:
    """Add the time the block takes to ``timings[stage]`` (ms), whether it finishes or raises."""
    start = time.perf_counter()
    try:
        yield
    finally:
        timings[stage] = timings.get(stage, 0.0) + (time.perf_counter() - start) * 1000


class Clock:
    """One question's share of the budget, from when it started."""

    def __init__(self, deadline: Deadline) -> None:
        self.deadline = deadline
        self.started = time.monotonic()

    def within(self, stage: str, work: Callable[[], T], watch: Stage | None = None) -> T:
        """``work()`` inside what is left of the budget (the stage's own timeout still bounds its thread); past it the
        stage is abandoned (``watch`` tells a model server to stop) and DeadlinePassed says which step ran out."""
        return self.deadline.run(self.started, stage, work, watch or Stage())


class Deadline:
    """``seconds`` a question may take in all (None or 0: no limit), kept on stage threads sized for ``workers``
    questions at once."""

    def __init__(self, seconds: float | None, workers: int) -> None:
        self.seconds = seconds
        # Two stage threads per question at once: the running stage, and one left behind past a deadline (its own
        # timeout ends it). Made here, once: threads start only when a stage is submitted.
        self._pool = ThreadPoolExecutor(max_workers=2 * max(1, workers), thread_name_prefix="kgqa-stage")

    def start(self) -> Clock:
        """A clock for a question starting now."""
        return Clock(self)

    def run(self, started: float, stage: str, work: Callable[[], T], watch: Stage) -> T:
        if not self.seconds:
            return running(watch, work)
        left = self.seconds - (time.monotonic() - started)
        if left <= 0:
            raise DeadlinePassed(f"the question's time budget of {self.seconds:.0f} s ran out before the {stage} step")
        future = self._pool.submit(running, watch, work)
        try:
            return future.result(timeout=left)
        except FutureTimeout:
            watch.abandon()
            raise DeadlinePassed(f"the {stage} step did not finish within the question's time budget of "
                                 f"{self.seconds:.0f} s") from None

    def close(self) -> None:
        """Shut the stage threads down: stages not yet started are dropped, one left behind past a deadline ends by
        its own timeout (not waited for)."""
        self._pool.shutdown(wait=False, cancel_futures=True)

    def __enter__(self) -> Deadline:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()
