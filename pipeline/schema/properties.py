"""Property search: the ORKG vocabulary's predicates a question is about. Each predicate is found by what it is called
(its label embedded once with the project's encoder, kept on disk per vocabulary and model) and by the schema's word
scoring (``retrieve.Schema``: its label, comment, and the phrases and questions of the stored pairs that use it);
of predicates labelled alike, the one the stored pairs use takes the best score of them; then ranked up by the queries
of the stored questions most like this one (what they pass through: a contribution's evaluation above its metric),
by what the best of them come with — predicates a stored query uses together, classes whose shapes carry them — and
by what the question's linked names carry (a comparison's contributions, a class's shape).

Weights tuned on SciQA's *train* handcrafted questions, each left out of the pairs it is scored against
(``scripts/bench_grounded.py --recall``; docs/results/vocabulary.md)."""
from __future__ import annotations

import hashlib
import logging
import math
import os
import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from pipeline.matching.wording import STOPWORDS
from pipeline.parts import Encoder
from pipeline.records import Example, Retrieved
from pipeline.schema.graph import GraphFacts
from pipeline.schema.retrieve import Schema, build_schema
from pipeline.schema.terms import TermKind, read_pairs
from pipeline.schema.vocabulary import Term, Vocabulary

PHRASE_WEIGHT = 0.5  # the question's best-matching phrase (1-3 words) beside the whole question
WORD_WEIGHT = 0.3  # the schema's word score, as a share of the best one
USED_BONUS = 0.06  # a predicate the stored pairs use (of several labelled alike, the one the graph is asked with)
ALIKE = 0.75  # labels this close (cosine) name one thing: the one the stored pairs use takes the best score of them
SIMILAR = 20  # the stored pairs nearest the question whose queries rank up what they use (``ExampleStore.search``)
ASKED_WEIGHT = 1.0  # a predicate such a query uses: by how much its question's cosine to this one ...
ASKED_FLOOR = 0.2  # ... exceeds (plain cosine, not the form-aware score; on train 0.1-0.4 within a predicate at k=10)
SEEDS = 3  # the best predicates whose company is ranked up
COUSED_BONUS = 0.2  # used in one stored query with a seed (an evaluation's metric with orkgp:P34, the hop to it)
SHAPE_WEIGHT = 0.05  # carried by a class that carries the seeds, by how specific the class is
LINKED_BONUS = 0.2  # carried by a linked comparison's contributions or a linked class's shape (no offline measure)
MAX_WORDS = 3
_CAMEL = re.compile(r"(?<=[a-z])(?=[A-Z])")
_QUOTED = re.compile(r"\"[^\"]*\"|“[^”]*”")
_WORD = re.compile(r"[A-Za-z0-9][\w\-]*")
log = logging.getLogger(__name__)


def said(label: str) -> str:
    """A label as it is embedded: ``hasFactsAbout`` -> ``has Facts About``, underscores and line breaks as blanks."""
    return " ".join(_CAMEL.sub(" ", label).replace("_", " ").split())


def phrases(question: str) -> list[str]:
    """The question's phrases of 1-3 words that neither start nor end with a stopword, quoted titles left out."""
    words = _WORD.findall(_QUOTED.sub(" ", question))
    found = {" ".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, min(len(words), i + MAX_WORDS) + 1)
             if words[i].lower() not in STOPWORDS and words[j - 1].lower() not in STOPWORDS}
    return sorted(found)


def embedded(texts: Sequence[str], encoder: Encoder, folder: Path | None) -> np.ndarray:
    """``texts`` as unit vectors (one row each), kept in ``folder`` under a key of the texts and the model."""
    key = hashlib.sha256("\n".join([encoder.name, *texts]).encode()).hexdigest()[:20]
    path = folder / f"embeddings-{key}.npy" if folder is not None else None
    if path is not None and path.is_file():
        try:
            vectors = np.load(path)
            if vectors.shape[0] == len(texts):
                return np.asarray(vectors, dtype=np.float32)
        except (OSError, ValueError):
            pass  # unreadable: encoded again and replaced
    vectors = np.asarray(encoder.encode(list(texts)), dtype=np.float32).reshape(len(texts), -1)
    if path is not None:
        partial = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with partial.open("wb") as out:
                np.save(out, vectors)
            os.replace(partial, path)
        except OSError as exc:  # the vectors are right; only the next process encodes them again
            partial.unlink(missing_ok=True)
            log.warning("the label vectors cannot be kept in %s (%s); they are encoded again next time", path, exc)
    return vectors


@dataclass(frozen=True)
class PropertyIndex:
    """The predicates searched, their label vectors and word scoring, and what the stored pairs and shapes say of
    which go together. Built once (``property_index``); searching it only encodes the question."""

    terms: tuple[Term, ...]
    vectors: np.ndarray  # one unit row per term
    schema: Schema  # the word scoring over the same predicates
    encoder: Encoder
    vocabulary: Vocabulary
    used: frozenset[str]  # predicates the stored pairs use
    together: Mapping[str, frozenset[str]]  # predicate -> those used in one stored query with it
    comparisons: Mapping[str, tuple[str, ...]]  # the graph's comparisons -> their contributions' predicates
    alike: Mapping[int, np.ndarray]  # a used predicate's position -> the positions of those labelled alike
    uses: Mapping[str, frozenset[str]]  # a stored query -> the predicates it uses

    def __len__(self) -> int:
        return len(self.terms)

    @cached_property
    def position(self) -> dict[str, int]:
        return {t.name: i for i, t in enumerate(self.terms)}

    @cached_property
    def in_pairs(self) -> np.ndarray:
        """1.0 where the stored pairs use the term, else 0.0."""
        return np.array([t.name in self.used for t in self.terms], dtype=np.float32)


def property_index(vocabulary: Vocabulary, encoder: Encoder, folder: Path | None,
                   examples: Iterable[Example] = (), facts: GraphFacts | None = None) -> PropertyIndex:
    """The vocabulary's predicates (with the graph's labels, which win, from ``facts``) made searchable; ``examples``
    are the stored pairs, ``folder`` keeps the label vectors (None: encoded each time)."""
    pairs = list(examples)
    facts = facts or GraphFacts({}, {})
    merged = vocabulary.merged(facts.labels)
    terms = tuple(t for _, t in sorted(merged.predicates.items()) if t.label.strip())
    vectors = embedded([said(t.label) for t in terms], encoder, folder)
    schema = build_schema(pairs, frozenset(t.name for t in terms), GraphFacts({}, {}), merged)
    together: defaultdict[str, set[str]] = defaultdict(set)
    uses = {ex.sparql: _predicates(ex) for ex in pairs}
    for names in uses.values():
        for name in names:
            together[name] |= names - {name}
    used = frozenset(n for names in uses.values() for n in names)
    return PropertyIndex(terms, vectors, schema, encoder, merged, used,
                         {n: frozenset(p) for n, p in together.items()}, dict(facts.comparisons),
                         _alike(terms, vectors, used), uses)


def _predicates(example: Example) -> frozenset[str]:
    return frozenset(n for n in read_pairs([example]) if n.startswith("orkgp:"))


def _alike(terms: Sequence[Term], vectors: np.ndarray, used: frozenset[str]) -> dict[int, np.ndarray]:
    """Per predicate the stored pairs use (by position), the predicates whose labels are alike (itself among them)."""
    rows = [i for i, t in enumerate(terms) if t.name in used]
    if not rows:
        return {}
    cosines = vectors[rows] @ vectors.T
    return {i: np.flatnonzero(c >= ALIKE) for i, c in zip(rows, cosines)}


def search_properties(question: str, k: int, index: PropertyIndex, linked: Iterable[str] = (),
                      similar: Iterable[Retrieved] = ()) -> list[tuple[Term, float]]:
    """The ``k`` predicates ``question`` is most likely about, best first, with their scores. ``linked``: the
    question's names linked to the graph (a comparison ``orkgr:R…``, a class ``orkgc:…``), whose predicates rank up;
    ``similar``: the stored pairs nearest the question with their cosine (``ExampleStore.search``, ``SIMILAR`` of
    them), whose queries' predicates rank up."""
    if not index.terms or k <= 0:
        return []
    scores = _similarity(list(dict.fromkeys([question, _QUOTED.sub(" ", question)])), index)
    written = phrases(question)
    if written:  # encoded apart: a batch is padded to its longest text, and a phrase is a few words
        scores += PHRASE_WEIGHT * _similarity(written, index)
    position = index.position
    words = [(s, e.name) for s, e in index.schema.scored(question) if e.kind is TermKind.PREDICATE]
    best = words[0][0] if words else 1.0
    for s, name in words:
        scores[position[name]] += WORD_WEIGHT * s / best
    _take_the_best_alike(scores, index)
    scores += USED_BONUS * index.in_pairs
    for name, cosine in _asked(similar, index).items():
        if name in position and cosine > ASKED_FLOOR:
            scores[position[name]] += ASKED_WEIGHT * (cosine - ASKED_FLOOR)
    seeds = [index.terms[i].name for i in np.argsort(-scores)[:SEEDS]]
    _rank_up(scores, position, {p for s in seeds for p in index.together.get(s, ())}, COUSED_BONUS)
    for name, weight in _shared_shapes(seeds, index.vocabulary).items():
        if name in position:
            scores[position[name]] += SHAPE_WEIGHT * weight
    carried = {p for n in linked for p in (*index.comparisons.get(n, ()), *index.vocabulary.shapes.get(n, ()))}
    _rank_up(scores, position, carried, LINKED_BONUS)
    top = np.argsort(-scores, kind="stable")[:k]
    return [(index.terms[i], float(scores[i])) for i in top]


def _similarity(texts: list[str], index: PropertyIndex) -> np.ndarray:
    """Each predicate's best cosine to one of ``texts``."""
    vectors = np.asarray(index.encoder.encode(texts), dtype=np.float32).reshape(len(texts), -1)
    best: np.ndarray = (vectors @ index.vectors.T).max(axis=0)
    return best


def _take_the_best_alike(scores: np.ndarray, index: PropertyIndex) -> None:
    """Each predicate the stored pairs use scored as the best of those labelled alike (itself among them), before its
    ``USED_BONUS`` puts it above them: of "Authors", "author" and "has author", the graph is asked with the used one."""
    before = scores.copy()
    for i, alike in index.alike.items():
        scores[i] = before[alike].max(initial=before[i])


def _asked(similar: Iterable[Retrieved], index: PropertyIndex) -> dict[str, float]:
    """Per predicate the queries of ``similar`` use, the highest cosine of a question whose query uses it."""
    best: dict[str, float] = {}
    for found in similar:
        names = index.uses.get(found.example.sparql)
        for name in names if names is not None else _predicates(found.example):
            best[name] = max(best.get(name, found.score), found.score)
    return best


def _rank_up(scores: np.ndarray, position: Mapping[str, int], names: Iterable[str], bonus: float) -> None:
    for name in names:
        if name in position:
            scores[position[name]] += bonus


def _shared_shapes(seeds: Sequence[str], vocabulary: Vocabulary) -> dict[str, float]:
    """Predicates carried by a class whose shape carries seeds: the more seeds and the fewer predicates the class
    carries, the more (``orkgc:Resource`` carries nearly all and says nearly nothing)."""
    support: defaultdict[str, float] = defaultdict(float)
    for seed in seeds:
        for cls in vocabulary.carried_by(seed):
            support[cls] += 1.0 / math.log2(2 + len(vocabulary.shapes.get(cls, ())))
    weights: dict[str, float] = {}
    for cls, weight in support.items():
        for name in vocabulary.shapes.get(cls, ()):
            weights[name] = max(weights.get(name, 0.0), weight)
    return weights
