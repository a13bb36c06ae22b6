"""What a question asks beyond its names: the operators its words call for (how many, k-th, lowest, both, yes/no)."""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

ORDINALS = {"second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "fifth": 5, "5th": 5}
_COUNT = re.compile(r"\b(how many|number of|count the|count of)\b", re.I)
_KTH = re.compile(r"\b(" + "|".join(ORDINALS) + r")\b", re.I)
_LOWEST = re.compile(r"\b(lowest|worst|minimum|least|smallest|poorest|weakest)\b", re.I)
_BOTH = re.compile(r"\bboth\b|\ball of\b", re.I)
_YESNO = re.compile(r"^\s*(is|are|does|do|did|has|have|was|were)\b(?!\s+there\b)", re.I)  # "are there any X": a list
_PLACE = re.compile(r"\b(second|third|fourth|fifth|2nd|3rd|4th|5th)\s+(dataset|benchmark|paper|one)\b", re.I)

OPERATORS = ("count", "kth", "lowest", "both", "yesno")
_ASKED = {"paper": "paper", "papers": "paper", "model": "model", "models": "model", "dataset": "dataset",
          "datasets": "dataset", "metric": "metric", "metrics": "metric", "problem": "problem", "problems": "problem",
          "field": "field", "fields": "field", "code": "code"}


_SAID = {"paper": "paper article publication study studies title work", "model": "model method system approach",
         "dataset": "dataset benchmark corpus corpora", "metric": "metric measure score result value",
         "problem": "problem task challenge", "field": "field area domain realm",
         "code": "code link repository github implementation"}


def _near(word: str, target: str) -> bool:
    """Equal, or one typo apart (a letter missing, extra, wrong or two swapped) for words of three letters or more."""
    if word == target:
        return True
    if min(len(word), len(target)) < 3 or abs(len(word) - len(target)) > 1:
        return False
    if len(word) == len(target):
        diff = [i for i in range(len(word)) if word[i] != target[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and word[diff[0]] == target[diff[1]]
                                  and word[diff[1]] == target[diff[0]])
    short, long_ = sorted((word, target), key=len)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


def mentioned_kinds(question: str) -> frozenset[str]:
    """Every kind of thing the question mentions anywhere, in any of its usual words, typos forgiven."""
    words = {w.lower().rstrip("s") or w.lower() for w in re.findall(r"[A-Za-z]+", question)}
    return frozenset(kind for kind, said in _SAID.items()
                     if any(_near(w, t) for w in words for t in said.split()))


def asked_kinds(question: str, names: Sequence[tuple[int, int]] = ()) -> frozenset[str]:
    """The kinds of thing the question asks for: its words naming one (papers, models, datasets, metrics, problems,
    fields, code), except a name's own class word right after it ('the CoQA dataset', 'X benchmark dataset')."""
    out = set()
    for m in re.finditer(r"[A-Za-z]+", question):
        kind = _ASKED.get(m.group().lower())
        if kind and not any(0 <= m.start() - b and len(question[b:m.start()].split()) <= 1 for _, b in names):
            out.add(kind)
    return frozenset(out)


@dataclass(frozen=True)
class Intent:
    """The operators a question calls for; ``rank`` is k for "k-th best" (1 otherwise)."""

    operators: frozenset[str]
    rank: int = 1

    def says(self) -> str:
        """The operators in words, for a reply that declines."""
        words = {"count": "how many", "kth": f"the {ordinal(self.rank)} one", "lowest": "the lowest",
                 "both": "those on both", "yesno": "yes or no"}
        return ", ".join(words[o] for o in OPERATORS if o in self.operators)


def ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth"}.get(k, f"{k}th")


def read_intent(question: str) -> Intent:
    """The operators ``question`` asks for, read from its words alone."""
    ops: set[str] = set()
    if _COUNT.search(question):
        ops.add("count")
    rank = 1
    kth = _KTH.search(_PLACE.sub("", question))
    if kth:
        ops.add("kth")
        rank = ORDINALS[kth.group(1).lower()]
    if _LOWEST.search(question):
        ops.add("lowest")
    if _BOTH.search(question):
        ops.add("both")
    if _YESNO.search(question):
        ops.add("yesno")
    return Intent(frozenset(ops), rank)
