"""How people type: word similarity tolerant of typos and word endings (the chatter around a question is peeled off
by ``pipeline.question.tidy``)."""
from __future__ import annotations

from functools import lru_cache


STOPWORDS = frozenset("a an the of on in for to by with and or is are was were be been being that this these those "
                      "what which who whom whose where when how can could would you me i my we our us it its do does "
                      "did have has had any all some there their them they as at from into over under".split())
_STRIP = "?!.,;:\"'`“”‘’()[]"


def norm_word(word: str) -> str:
    return word.lower().strip(_STRIP)


def stem(w: str) -> str:
    for suffix in ("ations", "ation", "ings", "ing", "ies", "ed", "es", "s"):
        if len(w) > len(suffix) + 3 and w.endswith(suffix):
            return w[: -len(suffix)]
    return w


_cached_stem = lru_cache(maxsize=65536)(stem)


def _within_one(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are at most one edit apart (``_edits(a, b, 1) <= 1``, in one pass)."""
    if len(a) > len(b):
        a, b = b, a
    if len(b) - len(a) > 1:
        return False
    k, n = 0, len(a)
    while k < n and a[k] == b[k]:
        k += 1
    if n < len(b):
        return a[k:] == b[k + 1:]
    return a[k + 1:] == b[k + 1:] or (a[k + 1:k + 2] == b[k:k + 1] and a[k:k + 1] == b[k + 1:k + 2]
                                      and a[k + 2:] == b[k + 2:])


def _edits(a: str, b: str, cap: int) -> int:
    """Optimal-string-alignment distance, giving up above ``cap``."""
    if abs(len(a) - len(b)) > cap:
        return cap + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > cap:
            return cap + 1
        prev2, prev = prev, cur
    return prev[-1]


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
    if shorter >= 4 and _within_one(a, b):
        return 0.85
    if shorter >= 7 and _edits(a, b, 2) <= 2:
        return 0.75
    if shorter == 3 and _within_one(a, b):
        return 0.7
    return 0.0
