"""What the LLM-backed generators share: reading a model's reply as a query or as a reason."""
from __future__ import annotations

from pipeline.records import Generation
from pipeline.sparql.text import extract_query, squash

MAX_REASON = 600


def interpret(raw: str, generator: str, prompt: str) -> Generation:
    """A query when the reply holds one; otherwise the reply itself becomes the explanation."""
    query = extract_query(raw)
    if query:
        return Generation(generator, query, raw, prompt)
    reason = squash(raw)[:MAX_REASON] or "the model returned no text"
    return Generation(generator, None, raw, prompt, explanation=f"The model could not write a query: {reason}",
                      reason=reason)
