"""Turning Slack's message markup into a plain question (and slash-command text into what was typed)."""
from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.question import printable
from pipeline.sparql.text import typed_query

_USER = re.compile(r"<@[UW][A-Z0-9]+(?:\|[^>]*)?>")
_CHANNEL = re.compile(r"<#C[A-Z0-9]+(?:\|([^>]*))?>")
_SPECIAL = re.compile(r"<!(?:subteam\^[A-Z0-9]+|[a-z]+)(?:\|([^>]*))?>")  # <!here>, <!subteam^S1|@team>, dates
_LINK = re.compile(r"<((?:https?|mailto|ftp):[^|>\s]*)(?:\|([^>]*))?>")
_LABELLED_LINK = re.compile(r"<((?:https?|ftp):[^|>\s]*)\|[^>]*>")
# Formatting pairs only where they wrap words, so "WMT2014_en_de" or "5*3" survive.
_WRAPPED = [re.compile(rf"(?<!\w){re.escape(c)}(?=\S)(.+?)(?<=\S){re.escape(c)}(?!\w)") for c in "*_~"]
_QUOTE = re.compile(r"^\s*(?:&gt;|>)+ ?", re.MULTILINE)
ENTITIES = (("&lt;", "<"), ("&gt;", ">"), ("&amp;", "&"))
RAW_FACTOR = 4  # markup and blanks stripped from a question rarely shrink it more than this


@dataclass(frozen=True)
class Cleaned:
    """A question as the pipeline should see it; ``too_long`` when the cleaned text exceeds the cap."""

    text: str
    chars: int
    too_long: bool = False


def unescape(text: str) -> str:
    """Slack's three HTML entities back to characters (``&amp;`` last, so ``&amp;lt;`` stays ``&lt;``)."""
    for entity, char in ENTITIES:
        text = text.replace(entity, char)
    return text


def strip_markup(text: str) -> str:
    """Mentions dropped; channel names, link labels and broadcast labels kept as words; emphasis and code marks gone."""
    text = _USER.sub(" ", text)
    text = _CHANNEL.sub(lambda m: "#" + m.group(1) if m.group(1) else " ", text)
    text = _SPECIAL.sub(lambda m: m.group(1) or " ", text)
    text = _LINK.sub(lambda m: m.group(2) or m.group(1).removeprefix("mailto:"), text)
    text = _QUOTE.sub("", text)
    text = text.replace("`", "")
    for pattern in _WRAPPED:
        text = pattern.sub(r"\1", text)
    return unescape(text)


def clean_question(text: str, max_chars: int) -> Cleaned:
    """The question in a Slack message: markup stripped, then the pipeline's own normaliser; length checked."""
    raw = text[: max_chars * RAW_FACTOR + 1]  # never run the patterns over a 100 kB paste
    cleaned = printable(strip_markup(raw))
    if not any(ch.isalnum() for ch in cleaned):
        cleaned = ""  # stray punctuation or emoji alone is no question
    too_long = len(cleaned) > max_chars or len(text) > len(raw)
    chars = max(len(cleaned), len(text)) if too_long else len(cleaned)
    return Cleaned(cleaned[:max_chars], chars, too_long)


def command_text(text: str) -> str:
    """Slash-command text as typed: entities undone, labelled links back to ``<IRI>``, control characters dropped.

    Slack escapes what the user typed (``&lt;http://...&gt;``) but sends its own link markup raw, so the link
    labels go before the entities are undone; an IRI in SPARQL keeps its angle brackets either way.
    """
    return typed_query(unescape(_LABELLED_LINK.sub(r"<\1>", text)))


def split_teach(text: str) -> tuple[str, str] | None:
    """``QUESTION ||| SPARQL`` into its two halves, or None when the separator or a half is missing."""
    question, sep, sparql = text.partition("|||")
    if not sep or not question.strip() or not sparql.strip():
        return None
    return question.strip(), sparql.strip()
