"""The graph's labels a question writes, and the one a query's name stands for when the query spells it otherwise:
cut short ('LSTM' where the question writes the model 'LSTM (Bai et al., 2018)'), with a class word too many ('FG
fine-grained gate model' for the model 'FG fine-grained gate'), with a slip ('Jacard dataset' for the question's
'Jacquard dataset'), or with other punctuation, blanks or case ('NCBI-disease' for 'NCBI Disease')."""
from __future__ import annotations

import re
from collections import defaultdict

from rapidfuzz import fuzz

from pipeline.names.index import LabelIndex, squash, squeeze
from pipeline.records import Match

MAX_WORDS = 8  # the longest run of the question's words read as one label
CLOSE = 75.0  # rapidfuzz ratio (squashed texts) from which a name the question does not write is its slip
# words a question writes around a name that say what kind of thing it is, not which
FORM_WORDS = frozenset({"dataset", "datasets", "data", "set", "benchmark", "benchmarks", "corpus", "model", "models",
                        "metric", "metrics", "score", "scores", "measure", "task", "problem", "field", "paper"})
Spans = dict[str, list[tuple[int, int]]]


def written_labels(question: str, kind: str, index: LabelIndex) -> Spans:
    """The labels of ``kind`` the question writes as runs of whole words, up to punctuation, blanks and case, with
    where it writes them."""
    words = [(m.start(), m.end()) for m in re.finditer(r"\S+", question)]
    found: Spans = defaultdict(list)
    for i, (start, _) in enumerate(words):
        for _, end in words[i:i + MAX_WORDS]:
            for label in index.spelled_alike(question[start:end], kind):
                found[label].append((start, end))
    return dict(found)


def as_the_question_writes(literal: str, kind: str, question: str, index: LabelIndex,
                           others: frozenset[str] = frozenset()) -> str | None:
    """The graph's label of ``kind`` that the question writes where the query writes ``literal``; None when the
    query's name is the question's (or no label, or several, fit). ``others``: the query's other names, never taken."""
    if not question or not index.knows(kind):
        return None
    mine = {label: at for label, at in written_labels(question, kind, index).items() if label not in others}
    if not mine:  # every rule below takes one of these: no fuzzy lookup for a question writing none
        return None
    key = squeeze(literal)
    read = index.has(literal, kind) or index.find(literal, kind).match is not Match.UNKNOWN  # the graph reads it
    longer = _outermost([label for label in mine if key and key in squeeze(label) and squeeze(label) != key
                         and _inside(literal, mine[label], question) and (not read or _more_than_form(label, literal))])
    if len(longer) == 1:
        return longer[0]
    bare = [label for label in mine if squeeze(label) == squeeze(_core(literal)) != key] if not read else []
    if len(bare) == 1:  # a name the graph lacks, the graph's with a class word too many
        return bare[0]
    if _written(literal, question, case=True):
        return None
    alike = [label for label in mine if squeeze(label) == key and label != literal]
    exact = [label for label in alike if _written(label, question, case=True)]
    if exact:
        return exact[0] if len(exact) == 1 else None
    if _written(literal, question, case=False):
        return None  # the question writes the query's name in other case: it stands
    loose = [label for label in alike if _written(label, question, case=False)]
    if loose:
        return loose[0] if len(loose) == 1 else None
    if literal in mine:  # the question writes the query's own label loosely: no other is its slip
        return None
    close = [label for label in mine if fuzz.ratio(squash(literal), squash(label)) >= CLOSE
             and _digits(literal) == _digits(label) and label != literal]
    return close[0] if len(close) == 1 else None


def _outermost(labels: list[str]) -> list[str]:
    """The labels no other of them holds."""
    return [a for a in labels if not any(squeeze(a) in squeeze(b) and squeeze(a) != squeeze(b) for b in labels)]


def _inside(literal: str, spans: list[tuple[int, int]], question: str) -> bool:
    """Whether every place the question writes ``literal`` lies inside one of ``spans``."""
    for found in re.finditer(rf"(?<![^\W_]){re.escape(literal)}(?![^\W_])", question, re.IGNORECASE):
        if not any(a <= found.start() and found.end() <= b for a, b in spans):
            return False
    return True


def _words(text: str) -> list[str]:
    return [w for w in re.split(r"[\W_]+", text.lower()) if w]


def _more_than_form(label: str, literal: str) -> bool:
    """Whether ``label`` adds to ``literal`` more than words saying what kind of thing it is ('LSTM (Bai et al.,
    2018)' to 'LSTM'; not 'Accuracy score' to 'Accuracy')."""
    return bool(set(_words(label)) - set(_words(literal)) - FORM_WORDS)


def _core(literal: str) -> str:
    """The literal without the class words at its end ('FG fine-grained gate model' -> 'FG fine-grained gate')."""
    words = literal.split()
    while len(words) > 1 and squeeze(words[-1]) in FORM_WORDS:
        words = words[:-1]
    return " ".join(words)


def _digits(text: str) -> str:
    return re.sub(r"\D", "", text)


def _written(label: str, question: str, case: bool) -> bool:
    """Whether the question holds ``label`` as it is (with its case, when ``case``), not inside a longer word."""
    found = re.search(rf"(?<![^\W_]){re.escape(label.strip())}(?![^\W_])", question, 0 if case else re.IGNORECASE)
    return found is not None
