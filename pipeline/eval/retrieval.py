"""Retrieval metrics: template hit@k, and overlap with the reference system's retrieved examples."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from pipeline.errors import ConfigError

REFERENCE_FOLDERS = {"dev": "dev", "final": "test"}  # question set -> folder of the seed outputs
OVERLAP_K = 5


def template_hit(template_id: str, retrieved: Sequence[str], k: int) -> bool:
    """Whether any of the top ``k`` retrieved examples has the question's template."""
    return bool(template_id) and template_id in retrieved[:k]


def hit_rate(pairs: Iterable[tuple[str, Sequence[str]]], k: int) -> float | None:
    """Share of (question template, retrieved templates) pairs with a hit in the top ``k``; None without pairs."""
    hits = [template_hit(t, r, k) for t, r in pairs]
    return sum(hits) / len(hits) if hits else None


def overlap(ours: Sequence[str], theirs: Sequence[str], k: int = OVERLAP_K) -> float:
    """|our top-k ∩ their top-k| / k, by question text (trimmed); as multisets, since train repeats some questions."""
    common = Counter(q.strip() for q in ours[:k]) & Counter(q.strip() for q in theirs[:k])
    return sum(common.values()) / k


def reference_lists(seed_dir: Path, questions: str) -> dict[str, list[str]] | None:
    """Question id -> the similar training questions the reference system retrieved; None for other sets."""
    folder = REFERENCE_FOLDERS.get(questions)
    if folder is None:
        return None
    files = sorted((seed_dir / folder).glob("*top_n_similar_questions.json"))
    if not files:
        raise ConfigError(f"no *top_n_similar_questions.json in {seed_dir / folder}; set SEED_DIR")
    try:
        items = json.loads(files[0].read_text(encoding="utf-8"))
        return {str(i["id"]): [str(s["similar_question"]) for s in i["top_n_similar_questions"]] for i in items}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"cannot read the reference retrieval lists {files[0]}: {exc}") from exc


def mean(values: Iterable[float | None]) -> float | None:
    """Mean of the values that are not None; None when there are none."""
    present = [v for v in values if v is not None]
    return sum(present) / len(present) if present else None

