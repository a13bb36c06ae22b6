"""Letter pairs of the labels' keys, so that a fuzzy lookup compares a typed name with the few labels that share
enough of its letter pairs rather than with every label of a similar length (the ORKG holds hundreds of thousands).

A label within rapidfuzz's ratio ``c`` of a key of ``n`` letters differs from it by at most
``D = (1 - c/100) * (n + m)`` insertions and deletions (``m`` the label's length), and each edit destroys at most
two of the key's letter pairs: such a label shares at least ``pairs(key) - 2 * D`` of them (the count filter of
approximate string matching). Labels below that count cannot reach the ratio, so leaving them out changes nothing.
"""
from __future__ import annotations

from array import array

import numpy as np

POOL = 400  # an unknown name's suggestions are sought among this many labels sharing the most letter pairs
COMMON = 0.02  # ... counting only the pairs at most this share of the labels hold


def pairs(key: str) -> set[str]:
    """The distinct letter pairs of a key ('mrpc' -> {'mr', 'rp', 'pc'})."""
    return {key[i:i + 2] for i in range(len(key) - 1)}


class Grams:
    """Which keys hold each letter pair, and each key's length, by position (the order keys were added)."""

    def __init__(self) -> None:
        self._postings: dict[str, array[int]] = {}
        self._lengths = array("i")

    def add(self, key: str) -> None:
        """Index the next key (its position is the number of keys added before it)."""
        at = len(self._lengths)
        self._lengths.append(len(key))
        for pair in pairs(key):
            self._postings.setdefault(pair, array("i")).append(at)

    def _lists(self, key: str) -> list[np.ndarray]:
        """The positions holding each of ``key``'s letter pairs, the rarest pair first."""
        return sorted((np.frombuffer(self._postings[p], dtype=np.int32) for p in pairs(key) if p in self._postings),
                      key=len)

    def _shared(self, lists: list[np.ndarray]) -> np.ndarray:
        """For each position, in how many of ``lists`` it is."""
        return np.bincount(np.concatenate(lists), minlength=len(self._lengths))

    def _within(self, positions: np.ndarray, low: int, high: int) -> list[int]:
        """Of ``positions``, those whose key's length is ``low``..``high``, ordered by length then position."""
        lengths = np.frombuffer(self._lengths, dtype=np.int32)
        kept = positions[(lengths[positions] >= low) & (lengths[positions] <= high)]
        ordered: list[int] = kept[np.lexsort((kept, lengths[kept]))].tolist()
        return ordered

    def sharing(self, key: str, edits: int, low: int, high: int) -> list[int] | None:
        """The positions of keys of length ``low``..``high`` that may be within ``edits`` edits of ``key``
        (a superset: every such key is in it), ordered by length then position; None when the count filter
        cannot rule anything out (a key too short for its edits): the caller then compares every key."""
        least = len(pairs(key)) - 2 * edits
        if least < 1:
            return None
        lists = self._lists(key)
        if not lists:
            return []
        return self._within(np.flatnonzero(self._shared(lists) >= least), low, high)

    def nearest(self, key: str, low: int, high: int) -> list[int]:
        """Up to about POOL positions of keys of length ``low``..``high`` sharing the most letter pairs with ``key``
        (none shared: none), ordered by length then position: where to look for an unknown name's look-alikes.
        Pairs held by more than COMMON of the keys tell too little to be counted (the rarest is, all the same)."""
        lists = self._lists(key)
        lists = lists[:1] + [held for held in lists[1:] if len(held) <= COMMON * len(self._lengths)]
        if not lists:
            return []
        shared = self._shared(lists)
        found = np.flatnonzero(shared)
        if len(found) > POOL:
            counts = shared[found]
            found = found[counts >= np.partition(counts, len(found) - POOL)[len(found) - POOL]]
        return self._within(found, low, high)
