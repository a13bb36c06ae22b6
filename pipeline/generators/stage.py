"""What a stage run under the question's deadline shares with the question: whether the question gave up on it (so a
model server is told to stop instead of writing on for nobody), and what it knew so far (the prompt sent, the text
streamed back), so that a reply past the deadline still shows them."""
from __future__ import annotations

import threading
from collections.abc import Callable
from contextvars import ContextVar
from typing import TypeVar

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
