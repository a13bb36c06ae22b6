"""Team teaching, human-gated: 👍 proposals wait in a small JSON file for a maintainer (or in this process when no
file is given); nothing here is in the example store."""
from __future__ import annotations

import fcntl
import json
import logging
import os
import tempfile
import threading
import time
from collections import OrderedDict
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import asdict
from pathlib import Path

from bot.state.proposals.base import Proposal, proposal_id

log = logging.getLogger("kgqa.bot")


class Proposals:
    """Pending proposals in a small JSON file (when ``path`` is given) so a restart keeps them.

    Every change re-reads the file under a lock file first, so replicas sharing the path (one host or volume) see
    each other's proposals; every write goes to a temporary file that replaces the old one, so a crash leaves the
    old file or the new one, never half of one."""

    def __init__(self, path: Path | None, max_pending: int) -> None:
        self.path = path
        self.max_pending = max_pending
        self._lock = threading.Lock()
        self._pending: OrderedDict[str, Proposal] = OrderedDict()
        with self._synced():
            pass

    def propose(self, question: str, sparql: str, proposer: str, channel: str) -> tuple[Proposal, bool]:
        """The proposal for this pair, and whether it is new (a second 👍 on the same pair adds nothing)."""
        pid = proposal_id(question, sparql)
        with self._synced():
            if pid in self._pending:
                return self._pending[pid], False
            proposal = Proposal(pid, question, sparql, proposer, channel, time.time())
            self._pending[pid] = proposal
            while len(self._pending) > self.max_pending:
                self._pending.popitem(last=False)
            self._save()
            return proposal, True

    def get(self, pid: str) -> Proposal | None:
        with self._synced():
            return self._pending.get(pid)

    def take(self, pid: str) -> Proposal | None:
        """Remove and return a pending proposal; None when it was decided already (or never existed)."""
        with self._synced():
            proposal = self._pending.pop(pid, None)
            if proposal is not None:
                self._save()
            return proposal

    def pending(self) -> list[Proposal]:
        with self._synced():
            return list(self._pending.values())

    @contextmanager
    def _synced(self) -> Iterator[None]:
        """This process's lock, the file's lock (other processes), and the file's current content loaded."""
        with self._lock:
            if self.path is None:
                yield
                return
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.path.with_suffix(".lock"), "a+b") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                self._load()
                yield

    def _load(self) -> None:
        assert self.path is not None
        if not self.path.is_file():
            return
        try:
            items = json.loads(self.path.read_text(encoding="utf-8"))
            self._pending = OrderedDict((item["id"], Proposal(**item)) for item in items)
        except (OSError, ValueError, TypeError, KeyError) as exc:
            log.warning("pending proposals at %s unreadable (%s); keeping the %d known here", self.path,
                        type(exc).__name__, len(self._pending))

    def _save(self) -> None:
        if self.path is None:
            return
        data = json.dumps([asdict(p) for p in self._pending.values()], ensure_ascii=False).encode("utf-8")
        fd, tmp = tempfile.mkstemp(prefix=self.path.name + ".", suffix=".tmp", dir=self.path.parent)
        try:
            with os.fdopen(fd, "wb") as fh:
                fh.write(data)
                fh.flush()
                os.fsync(fh.fileno())  # the bytes are on disk before the name points at them
            os.replace(tmp, self.path)  # atomic: readers see the old file or the new one
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
