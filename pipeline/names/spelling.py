"""How one name is typed otherwise: a version with or without its 'v' or glued to the name, a slip that is a typo
rather than another name, the words of a name each close to the label's, and of labels alike the one nearest to what
was typed."""
from __future__ import annotations

import re

from rapidfuzz import fuzz, utils

SHORT = 5  # a name this short with one wrong letter is another name (an acronym: BERT, BART)
WORD_MIN = 80.0  # a typed word this close (rapidfuzz ratio; 75 for four letters) to one of the label's: that word

def versions(typed: str) -> list[str]:
    """``typed`` with a version number's 'v' dropped ('BalticSonar v1.1' as '… 1.1'), or added where a number stands
    alone ('balticsonar 1.1' as '… v1.1') or ends a word ('BATSOUND2' as 'BATSOUND v2'): how a version is typed."""
    out = [VERSION_V.sub("", typed), ALONE_NUMBER.sub("v", typed), GLUED_NUMBER.sub(" v", typed)]
    return [v for v in dict.fromkeys(out) if v != typed]


VERSION_V = re.compile(r"(?<=[\s-])v(?=\d)", re.IGNORECASE)
ALONE_NUMBER = re.compile(r"(?<=\s)(?=\d)")
GLUED_NUMBER = re.compile(r"(?<=[A-Za-z])(?<![\s-][vV])(?=\d+(?:\.\d+)?$)")  # not after a version's own 'v'


def a_slip(key: str, other: str) -> bool:
    """Whether a close spelling is a typo rather than another name: the numbers agree ('ResNet-50' is not 'ResNet-56',
    nor 'GPT-2' 'GPT-3'), and a short name is not one wrong letter away ('BERT' is not 'BART'; 'MPRC', two letters
    swapped, is 'MRPC')."""
    if re.sub(r"\D", "", key) != re.sub(r"\D", "", other):
        return False
    return not (len(key) <= SHORT and len(key) == len(other) and sum(a != b for a, b in zip(key, other)) == 1)


def words_agree(typed: str, label: str) -> bool:
    """For a name of several words: each typed word is close to one of the label's (a slip inside words, not another
    word: 'Switch Transformer' is not 'Sandwich Transformer')."""
    words, theirs = utils.default_process(typed).split(), utils.default_process(label).split()
    if len(words) < 2:
        return True
    joined = "".join(theirs)
    return all(w in joined or max((fuzz.ratio(w, x) for x in theirs), default=0) >= (WORD_MIN if len(w) > 4 else 75)
               for w in words)


def spelled_closest(typed: str, labels: list[str]) -> list[str]:
    """Of labels that squash alike, those nearest to the typed text as written (case and blanks counted)."""
    if len(labels) < 2:
        return labels
    scores = {label: fuzz.ratio(typed.lower(), label.lower()) + fuzz.ratio(typed, label) / 1000 for label in labels}
    best = max(scores.values())
    return [label for label in labels if scores[label] == best]
