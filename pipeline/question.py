"""A question as people type it, made fit for the pipeline: the one normaliser every entry point uses (the CLI, the
pipeline, Slack after its markup is gone, teaching, team import).

SPARQL text has its own (``pipeline.sparql.text.squash``); a question is not SPARQL, and ``#`` starts no comment in
it. How people phrase a question (greetings, thanks, typos) is read by ``pipeline.matching.wording``."""
from __future__ import annotations

import unicodedata


def printable(text: str) -> str:
    """NFC text without control, format (zero-width, bidi) or unpaired-surrogate characters; blanks collapsed."""
    text = text.encode("utf-8", "replace").decode("utf-8", "replace") if _has_surrogates(text) else text
    text = unicodedata.normalize("NFC", text)
    kept = (" " if ch.isspace() else ch for ch in text if ch.isspace() or unicodedata.category(ch)[0] != "C")
    return " ".join("".join(kept).split())


def clean(text: str, max_chars: int) -> str:
    """``printable``, cut at ``max_chars``."""
    return printable(text)[:max_chars]


def _has_surrogates(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False
