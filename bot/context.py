"""What every listener shares: the pipeline, the Slack client, load limits and kept state, scrubbed ways to post."""
from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError, SlackClientError

from bot import logs
from bot.limits import Limits
from bot.logs import Scrubber
from bot.render import Attachment, Message, notice
from bot.state.backend import MemoryState, shared_state
from bot.state.dedup.base import Dedup
from bot.state.proposals.base import Pending, Remembers
from bot.streaming import Surfaces
from pipeline.conversation.talk import Conversation
from pipeline.core import Pipeline
from pipeline.names.check import label_index
from pipeline.records import Answer, Step
from pipeline.settings import Settings
from pipeline.state.admission.base import WaitingQueue
from pipeline.state.admission.pool import WorkerPool
from pipeline.state.limits.base import RateLimit
from pipeline.state.link import RedisLink

log = logging.getLogger("kgqa.bot")


@dataclass
class Bot:
    """The bot's parts, built once by ``create_app``; listeners get it through a closure. What replicas share comes
    from one backend (``state``; by default the one the settings choose, ``bot.state.backend.shared_state``)."""

    pipeline: Pipeline
    settings: Settings
    client: WebClient
    pool: WorkerPool
    limits: Limits
    state: MemoryState | None = None
    seen: Dedup = field(init=False)
    limiter: RateLimit = field(init=False)
    link: RedisLink | None = field(init=False)
    queue: WaitingQueue | None = field(init=False)  # the deployment's waiting questions, with Redis
    proposals: Pending = field(init=False)
    recent: Remembers = field(init=False)
    scrubber: Scrubber = field(init=False)
    conversation: Conversation = field(init=False)
    surfaces: Surfaces = field(init=False)  # what each workspace refused of the AI-app surface

    def __post_init__(self) -> None:
        state = self.state = self.state or shared_state(self.settings, self.limits, self.pool.workers)
        self.link = state.link
        self.seen, self.limiter, self.queue = state.seen(), state.limiter(), state.queue()
        self.proposals, self.recent = state.proposals(), state.recent()
        self.scrubber = Scrubber(self.settings.secrets())
        self.surfaces = Surfaces(self.log)
        self.conversation = Conversation(self.pipeline, state.memory(), label_index(self.pipeline))

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
