"""Long question->SPARQL pairs in this process, remembered for their 👍 button by a short reference."""
from __future__ import annotations

import threading
from collections import OrderedDict

from bot.state.proposals.base import proposal_id


class Recent:
    """Question->SPARQL pairs too long for a button's value, remembered for a while by a short reference."""

    def __init__(self, maxsize: int) -> None:
        self.maxsize = maxsize
        self._pairs: OrderedDict[str, tuple[str, str]] = OrderedDict()
        self._lock = threading.Lock()

    def remember(self, question: str, sparql: str) -> str:
        ref = proposal_id(question, sparql)
        with self._lock:
            self._pairs[ref] = (question, sparql)
            while len(self._pairs) > self.maxsize:
                self._pairs.popitem(last=False)
        return ref

    def recall(self, ref: str) -> tuple[str, str] | None:
        with self._lock:
            return self._pairs.get(ref)
