"""What the LLM-backed generators share: reading a model's reply as a query or as a reason."""
from __future__ import annotations

import re

from pipeline.records import Generation
from pipeline.sparql.text import extract_query, squash

MAX_REASON = 600
_LINE_START = re.compile(r"(?im)^[ \t>*`]*(?:sparql:\s*)?(?=(?:PREFIX|SELECT|ASK|CONSTRUCT|DESCRIBE)\b)")
_PREFIX = re.compile(r"(?i)PREFIX\s+[\w-]*:\s*<[^<>\s]*>\s*")


def interpret(raw: str, generator: str, prompt: str) -> Generation:
    """A query when the reply holds one (fenced or not, after a chat preamble, before chatter); the reply itself
    as the explanation when it holds none; a reason when it holds several different ones (which answers is the
    model's to say, not ours to guess)."""
    query = extract_query(raw)
    if query:
        found = queries_in(raw)
        if len(found) > 1:
            return Generation(generator, None, raw, prompt, explanation=f"The model could not write a query: it "
                              f"wrote {len(found)} different queries and did not say which one answers")
        return Generation(generator, query, raw, prompt)
    reason = squash(raw)[:MAX_REASON] or "the model returned no text"
    return Generation(generator, None, raw, prompt, explanation=f"The model could not write a query: {reason}",
                      reason=reason)


def queries_in(raw: str) -> set[str]:
    """The different top-level queries a reply holds (each starting a line outside braces; prefixes aside)."""
    found = set()
    for m in _LINE_START.finditer(raw):
        if raw[:m.start()].count("{") > raw[:m.start()].count("}"):
            continue  # a subquery on its own line
        query = extract_query(raw[m.end():])
        if query:
            found.add(squash(_PREFIX.sub("", query)))
    return found
