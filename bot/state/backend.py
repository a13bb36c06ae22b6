"""Where the bot keeps what its replicas share, chosen once from settings (``shared_state``): Redis
(KGQA_REDIS_URL: replicas on any host; each part falls back to this process's own state while Redis is away),
SQLite (KGQA_DEDUP_PATH: replicas on one host, kept across restarts), or this process's memory. One backend object
gives every shared part: dedup, the per-user rate limit, the deployment's queue, proposals, recent answers and
thread memory."""
from __future__ import annotations

from pathlib import Path

from bot.limits import Limits
from bot.state.dedup.base import Dedup
from bot.state.dedup.memory import Seen
from bot.state.dedup.redis import RedisSeen
from bot.state.dedup.sqlite import SqliteSeen
from bot.state.proposals.base import MAX_PENDING, MAX_RECENT, Pending, Remembers
from bot.state.proposals.file import Proposals
from bot.state.proposals.memory import Recent
from bot.state.proposals.redis import RECENT_TTL_S, TTL_S, RedisProposals, RedisRecent
from pipeline.settings import Settings
from pipeline.state.admission.base import WaitingQueue
from pipeline.state.admission.redis import RedisQueue
from pipeline.state.limits.base import RateLimit
from pipeline.state.limits.memory import MAX_KEYS, RateLimiter
from pipeline.state.limits.redis import RedisRateLimiter
from pipeline.state.link import RedisLink, build_link
from pipeline.state.sqlite import BUSY_TIMEOUT_S
from pipeline.state.threads.base import KEEP_TURNS, TURN_TTL_S, ThreadMemory
from pipeline.state.threads.memory import local_memory
from pipeline.state.threads.redis import RedisThreadMemory
from pipeline.state.threads.sqlite import sqlite_memory


class MemoryState:
    """This process only; thread memory is still kept on disk under $KGQA_HOME, so a restart keeps threads."""

    name = "memory"
    link: RedisLink | None = None

    def __init__(self, settings: Settings, limits: Limits, workers: int) -> None:
        self.settings = settings
        self.limits = limits
        self.workers = workers

    def seen(self) -> Dedup:
        return Seen(self.limits.seen_events)

    def limiter(self) -> RateLimit:
        return RateLimiter(self.limits.user_questions, self.limits.user_window_s, MAX_KEYS)

    def queue(self) -> WaitingQueue | None:
        """The deployment's waiting questions, where replicas can see each other's (else None: the pool's own)."""
        return None

    def proposals(self) -> Pending:
        return self._file_proposals()

    def _file_proposals(self) -> Proposals:
        """Proposals awaiting a maintainer, in this replica's file."""
        return Proposals(self.settings.home / "bot" / "proposals.json", MAX_PENDING)

    def recent(self) -> Remembers:
        return Recent(MAX_RECENT)

    def memory(self) -> ThreadMemory:
        return sqlite_memory(self.settings.home / "bot" / "threads.sqlite3")


class SqliteState(MemoryState):
    """Dedup and thread memory in one SQLite file, shared by the replicas on one host; the rest this process's."""

    name = "sqlite"

    def __init__(self, settings: Settings, limits: Limits, workers: int, path: Path) -> None:
        super().__init__(settings, limits, workers)
        self.path = path

    def seen(self) -> Dedup:
        return SqliteSeen(self.path, self.settings.dedup_ttl, BUSY_TIMEOUT_S, self.limits.seen_events)

    def memory(self) -> ThreadMemory:
        return sqlite_memory(self.path)


class RedisState(MemoryState):
    """Every part in Redis, each falling back to this process's own state on a timeout or an outage."""

    name = "redis"

    def __init__(self, settings: Settings, limits: Limits, workers: int, link: RedisLink) -> None:
        super().__init__(settings, limits, workers)
        self.link = self.redis = link

    def seen(self) -> Dedup:
        return RedisSeen(self.redis, self.settings.dedup_ttl, self.limits.seen_events)

    def limiter(self) -> RateLimit:
        return RedisRateLimiter(self.redis, self.limits.user_questions, self.limits.user_window_s)

    def queue(self) -> WaitingQueue | None:
        # a waiting question's lease: the longest it can wait (the queue ahead of it, one deadline per worker
        # round) and then run
        lease = (self.limits.queue_size // self.workers + 2) * (self.settings.deadline or 0.0)
        return RedisQueue(self.redis, self.limits.queue_size, lease)

    def proposals(self) -> Pending:
        return RedisProposals(self.redis, self._file_proposals(), MAX_PENDING, TTL_S)

    def recent(self) -> Remembers:
        return RedisRecent(self.redis, Recent(MAX_RECENT), RECENT_TTL_S)

    def memory(self) -> ThreadMemory:
        return RedisThreadMemory(self.redis, KEEP_TURNS, TURN_TTL_S, local_memory())


def shared_state(settings: Settings, limits: Limits, workers: int) -> MemoryState:
    """The one backend for this deployment: Redis when KGQA_REDIS_URL is set, else SQLite at KGQA_DEDUP_PATH, else
    this process's memory."""
    link = build_link(settings)
    if link is not None:
        return RedisState(settings, limits, workers, link)
    if settings.dedup_path:
        return SqliteState(settings, limits, workers, settings.dedup_path)
    return MemoryState(settings, limits, workers)
