"""Where the bot keeps what its replicas share, chosen once from settings (``shared_state``): Redis
(KGQA_REDIS_URL: replicas on any host; each part falls back to this process's own state while Redis is away),
SQLite (KGQA_DEDUP_PATH: replicas on one host, kept across restarts), or this process's memory. One backend object
gives every shared part: dedup, the per-user rate limit, the deployment's queue, proposals, recent answers and
thread memory."""
from __future__ import annotations

from pathlib import Path

from bot.dedup_store import SharedSeen
from bot.guard import MAX_KEYS, Limits, RateLimiter, Seen
from bot.proposals import MAX_PENDING, MAX_RECENT, Proposals, Recent
from bot.shared.admission import SharedQueue
from bot.shared.dedup import RedisSeen
from bot.shared.limits import RedisRateLimiter
from bot.shared.proposals import RECENT_TTL_S, TTL_S, RedisProposals, RedisRecent
from pipeline.conversation.memory import ThreadMemory
from pipeline.settings import Settings
from pipeline.shared.link import RedisLink, build_link

Dedup = Seen | SharedSeen | RedisSeen
Limiter = RateLimiter | RedisRateLimiter
Pending = Proposals | RedisProposals
Answered = Recent | RedisRecent


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

    def limiter(self) -> Limiter:
        return RateLimiter(self.limits.user_questions, self.limits.user_window_s, MAX_KEYS)

    def queue(self) -> SharedQueue | None:
        """The deployment's waiting questions, where replicas can see each other's (else None: the pool's own)."""
        return None

    def proposals(self) -> Pending:
        return self._file_proposals()

    def _file_proposals(self) -> Proposals:
        """Proposals awaiting a maintainer, in this replica's file."""
        return Proposals(self.settings.home / "bot" / "proposals.json", MAX_PENDING)

    def recent(self) -> Answered:
        return Recent(MAX_RECENT)

    def memory(self) -> ThreadMemory:
        from pipeline.conversation.sqlite import sqlite_memory

        return sqlite_memory(self.settings.home / "bot" / "threads.sqlite3")


class SqliteState(MemoryState):
    """Dedup and thread memory in one SQLite file, shared by the replicas on one host; the rest this process's."""

    name = "sqlite"

    def __init__(self, settings: Settings, limits: Limits, workers: int, path: Path) -> None:
        super().__init__(settings, limits, workers)
        self.path = path

    def seen(self) -> Dedup:
        from pipeline.conversation.sqlite import BUSY_TIMEOUT_S

        return SharedSeen(self.path, self.settings.dedup_ttl, BUSY_TIMEOUT_S, self.limits.seen_events)

    def memory(self) -> ThreadMemory:
        from pipeline.conversation.sqlite import sqlite_memory

        return sqlite_memory(self.path)


class RedisState(MemoryState):
    """Every part in Redis, each falling back to this process's own state on a timeout or an outage."""

    name = "redis"

    def __init__(self, settings: Settings, limits: Limits, workers: int, link: RedisLink) -> None:
        super().__init__(settings, limits, workers)
        self.link = self.redis = link

    def seen(self) -> Dedup:
        return RedisSeen(self.redis, self.settings.dedup_ttl, self.limits.seen_events)

    def limiter(self) -> Limiter:
        return RedisRateLimiter(self.redis, self.limits.user_questions, self.limits.user_window_s)

    def queue(self) -> SharedQueue | None:
        # a waiting question's lease: the longest it can wait (the queue ahead of it, one deadline per worker
        # round) and then run
        lease = (self.limits.queue_size // self.workers + 2) * (self.settings.deadline or 0.0)
        return SharedQueue(self.redis, self.limits.queue_size, lease)

    def proposals(self) -> Pending:
        return RedisProposals(self.redis, self._file_proposals(), MAX_PENDING, TTL_S)

    def recent(self) -> Answered:
        return RedisRecent(self.redis, Recent(MAX_RECENT), RECENT_TTL_S)

    def memory(self) -> ThreadMemory:
        from pipeline.conversation.local import local_memory
        from pipeline.conversation.memory import KEEP_TURNS, TURN_TTL_S
        from pipeline.shared.threads import RedisThreadMemory

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
