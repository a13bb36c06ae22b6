"""Logging that never shows a secret: a scrubbing filter, and one structured line per question."""
from __future__ import annotations

import json
import logging
from collections.abc import Iterable
from typing import Any

log = logging.getLogger("kgqa.bot")
MASK = "[secret]"


class Scrubber:
    """Replaces the configured secret values (tokens, signing secret, API keys) wherever they appear."""

    def __init__(self, secrets: Iterable[str]) -> None:
        # longest first, so a secret containing another is masked whole
        self.secrets = sorted({s for s in secrets if s and len(s) >= 4}, key=len, reverse=True)

    def text(self, value: str) -> str:
        for secret in self.secrets:
            if secret in value:
                value = value.replace(secret, MASK)
        return value

    def data(self, value: Any) -> Any:
        """Strings inside nested lists and dicts scrubbed (for Block Kit payloads)."""
        if not self.secrets:
            return value
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, list):
            return [self.data(v) for v in value]
        if isinstance(value, dict):
            return {k: self.data(v) for k, v in value.items()}
        return value


class ScrubFilter(logging.Filter):
    """A handler filter: renders each record's message and traceback, then masks the secrets in them."""

    def __init__(self, scrubber: Scrubber) -> None:
        super().__init__()
        self.scrubber = scrubber

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = self.scrubber.text(record.getMessage())
        record.args = None
        if record.exc_info:
            record.exc_text = self.scrubber.text(logging.Formatter().formatException(record.exc_info))
            record.exc_info = None
        if record.stack_info:
            record.stack_info = self.scrubber.text(record.stack_info)
        return True


def configure(secrets: Iterable[str], level: int = logging.INFO, handler: logging.Handler | None = None) -> None:
    """Root logging for ``python -m bot``: one handler, every record scrubbed before it is written."""
    handler = handler or logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s %(message)s"))
    handler.addFilter(ScrubFilter(Scrubber(secrets)))
    root = logging.getLogger()
    for old in list(root.handlers):
        root.removeHandler(old)
    root.addHandler(handler)
    root.setLevel(level)


def event(kind: str, **fields: Any) -> None:
    """One structured line: ``kind`` then the fields as JSON (for grep and for log pipelines alike)."""
    log.info("%s %s", kind, json.dumps(fields, ensure_ascii=False, default=str, sort_keys=True))
