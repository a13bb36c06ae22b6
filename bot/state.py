"""What every listener shares: the pipeline, the Slack client, the guards, and scrubbed ways to post."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import logs
from bot.agent import Surfaces
from bot.dedup_store import SharedSeen
from bot.guard import Limits, RateLimiter, Seen, WorkerPool
from bot.logs import Scrubber
from bot.proposals import Proposals, Recent
from bot.render import Attachment, Message, notice
from bot.shared.admission import SharedQueue
from bot.shared.dedup import RedisSeen
from bot.shared.limits import RedisRateLimiter
from bot.shared.proposals import RedisProposals, RedisRecent
from pipeline.conversation.memory import ThreadMemory
from pipeline.conversation.talk import Conversation
from pipeline.core import Pipeline
from pipeline.records import Answer, Step
from pipeline.settings import Settings
from pipeline.shared.link import RedisLink, build_link

log = logging.getLogger("kgqa.bot")


@dataclass
class Bot:
    """The bot's parts, built once by ``create_app``; listeners get it through a closure."""

    pipeline: Pipeline
    settings: Settings
    client: WebClient
    pool: WorkerPool
    limits: Limits
    proposals: Proposals | RedisProposals
    seen: Seen | SharedSeen | RedisSeen = field(init=False)
    limiter: RateLimiter | RedisRateLimiter = field(init=False)
    link: RedisLink | None = field(init=False)
    queue: SharedQueue | None = field(init=False)  # the deployment's waiting questions, with Redis
    recent: Recent | RedisRecent = field(default_factory=Recent)
    scrubber: Scrubber = field(init=False)
    conversation: Conversation = field(init=False)
    surfaces: Surfaces = field(init=False)  # what each workspace refused of the AI-app surface

    def __post_init__(self) -> None:
        # Redis (KGQA_REDIS_URL): shared by replicas on any host; KGQA_DEDUP_PATH: by replicas on one host and kept
        # across restarts; else this process only
        self.link = build_link(self.settings)
        path = self.settings.dedup_path
        limit, window = self.limits.user_questions, self.limits.user_window_s
        self.queue = None
        if self.link is not None:
            self.seen = RedisSeen(self.link, self.settings.dedup_ttl, self.limits.seen_events)
            self.limiter = RedisRateLimiter(self.link, limit, window)
            # a waiting question's lease: the longest it can wait (the queue ahead of it, one deadline per worker
            # round) and then run
            lease = (self.limits.queue_size // self.pool.workers + 2) * (self.settings.deadline or 0.0)
            self.queue = SharedQueue(self.link, self.limits.queue_size, lease)
            if isinstance(self.proposals, Proposals):
                self.proposals = RedisProposals(self.link, self.proposals)
            if isinstance(self.recent, Recent):
                self.recent = RedisRecent(self.link, self.recent)
        else:
            self.seen = SharedSeen(path, self.settings.dedup_ttl) if path else Seen(self.limits.seen_events)
            self.limiter = RateLimiter(limit, window)
        self.scrubber = Scrubber(self.settings.secrets())
        self.surfaces = Surfaces(self.log)
        names = getattr(self.pipeline, "names", None)
        self.conversation = Conversation(self.pipeline, self._memory(), getattr(names, "index", None))

    def _memory(self) -> ThreadMemory:
        """Thread memory where the dedup state lives: Redis, the dedup SQLite file, or one under $KGQA_HOME."""
        from pipeline.conversation.local import LocalThreadMemory
        from pipeline.conversation.sqlite import SqliteThreadMemory

        if self.link is not None:
            from pipeline.shared.threads import RedisThreadMemory

            return RedisThreadMemory(self.link, fallback=LocalThreadMemory())
        return SqliteThreadMemory(self.settings.dedup_path or self.settings.home / "bot" / "threads.sqlite3")

    def ask(self, channel: str, thread_ts: str, question: str,
            progress: Callable[[Step], None] | None = None) -> Answer:
        """Answer in the thread's conversation (a follow-up is read with the thread's earlier turns)."""
        return self.conversation.ask(f"{channel}:{thread_ts}", question, progress=progress)

    def log(self, kind: str, **fields: Any) -> None:
        """One structured line, scrubbed here too (not only by the handler filter ``python -m bot`` installs)."""
        logs.event(kind, **self.scrubber.data(fields))

    def is_maintainer(self, user: str) -> bool:
        return user in self.settings.maintainer_ids

    def _payload(self, message: Message) -> dict[str, Any]:
        return {"text": self.scrubber.text(message.text), "blocks": self.scrubber.data(message.blocks) or None}

    def post(self, channel: str, message: Message, thread_ts: str | None = None) -> str:
        """Post (in a thread when ``thread_ts``); returns the new message's ts."""
        response = self.client.chat_postMessage(channel=channel, thread_ts=thread_ts, unfurl_links=False,
                                                unfurl_media=False, **self._payload(message))
        return str(response["ts"])

    def try_post(self, channel: str, message: Message, thread_ts: str | None = None) -> str | None:
        """``post``, or None (logged) when Slack fails it, so the caller can carry on and answer another way."""
        try:
            return self.post(channel, message, thread_ts)
        except (SlackClientError, OSError) as exc:  # an API error, or Slack unreachable after the client's retry
            log.warning("Slack failed a post in %s (%s); carrying on", channel, _reason(exc))
            return None

    def deliver(self, channel: str, ts: str | None, thread_ts: str, message: Message) -> None:
        """Replace the placeholder ``ts`` with ``message`` (or post it in the thread if that fails), then its files."""
        try:
            if ts is None:
                raise LookupError("no placeholder")
            self.client.chat_update(channel=channel, ts=ts, **self._payload(message))
        except (SlackClientError, OSError, LookupError) as exc:
            log.warning("could not update the placeholder (%s); posting the answer instead", _reason(exc))
            self.post(channel, message, thread_ts)
        failed = self.upload(channel, thread_ts, message.files)
        if failed:
            self.post(channel, notice(f"The full result could not be attached ({failed})."), thread_ts)

    def upload(self, channel: str, thread_ts: str | None, files: tuple[Attachment, ...]) -> str | None:
        """Attach ``files`` in the channel (or thread); None when done, else Slack's reason."""
        if not files:
            return None
        uploads: list[dict[str, str | bytes]] = [
                   {"content": self.scrubber.text(f.content), "filename": f.filename, "title": f.title}
                   if isinstance(f.content, str) else
                   {"file": f.content, "filename": f.filename, "title": f.title, "alt_txt": f.alt_text}
                   for f in files]
        try:
            self.client.files_upload_v2(channel=channel, thread_ts=thread_ts, file_uploads=uploads)
        except (SlackClientError, OSError) as exc:
            log.warning("could not attach %s (%s)", ", ".join(f.filename for f in files), _reason(exc))
            return _reason(exc)
        return None


def _reason(exc: Exception) -> str:
    if isinstance(exc, SlackApiError):
        return str(exc.response.get("error", "slack error"))
    return str(exc)
