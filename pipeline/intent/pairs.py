"""Question->SPARQL pairs written as text blocks (``## ID category`` / question / query): the intent pairs the
composer learns from, and the novel-intent evaluation sets (tests/data/eval/novel-intents*.txt)."""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pipeline.intent.reach import reach_pairs
from pipeline.records import Example

PAIRS = Path(__file__).with_name("pairs.txt")


def blocks(text: str) -> list[dict[str, str]]:
    """Each block's id, category, question (its first line) and query (the rest); ``#`` lines before are notes."""
    out: list[dict[str, str]] = []
    for chunk in text.split("\n## ")[1:]:
        head, question, *query = [line for line in chunk.strip().splitlines() if line.strip()]
        qid, category = head.split()
        out.append({"id": qid, "category": category, "question": question.strip(), "sparql": "\n".join(query)})
    return out


@lru_cache(maxsize=1)
def intent_pairs() -> tuple[Example, ...]:
    """The packaged intent pairs, as examples of source "intent": pairs.txt's, then those compiled for every two kinds
    (``reach``)."""
    return tuple(Example(b["id"], b["question"], b["sparql"], source="intent")
                 for b in blocks(PAIRS.read_text(encoding="utf-8"))) + reach_pairs()
