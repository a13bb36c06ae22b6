"""How people type: word similarity tolerant of typos and word endings (the chatter around a question is peeled off
by ``pipeline.question.tidy``)."""
from __future__ import annotations

from functools import lru_cache

from rapidfuzz.distance import OSA

STOPWORDS = frozenset(["a", "an", "the", "of", "on", "in", "for", "to", "by", "with", "and", "or", "is", "are", "was",
                       "were", "be", "been", "being", "that", "this", "these", "those", "what", "which", "who", "whom",
                       "whose", "where", "when", "how", "can", "could", "would", "you", "me", "i", "my", "we", "our",
                       "us", "it", "its", "do", "does", "did", "have", "has", "had", "any", "all", "some", "there",
                       "their", "them", "they", "as", "at", "from", "into", "over", "under"])
_STRIP = "?!.,;:\"'`“”‘’()[]"


def norm_word(word: str) -> str:
    return word.lower().strip(_STRIP)


def stem(w: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


_cached_stem = lru_cache(maxsize=65536)(stem)


def within_edits(a: str, b: str, cap: int = 1) -> bool:
    """Whether ``a`` and ``b`` are at most ``cap`` typos apart: a letter added, dropped or changed, or two neighbours
    swapped (the optimal-string-alignment distance, rapidfuzz's)."""
    return OSA.distance(a, b, score_cutoff=cap) <= cap


@lru_cache(maxsize=65536)
def word_sim(a: str, b: str) -> float:
    """1 for the same word, less for the same stem or a typo, 0 otherwise."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    if _cached_stem(a) == _cached_stem(b):
        return 0.9
    shorter = min(len(a), len(b))
    if shorter >= 4 and within_edits(a, b):
        return 0.85
    if shorter >= 7 and within_edits(a, b, 2):
        return 0.75
    if shorter == 3 and within_edits(a, b):
        return 0.7
    return 0.0
