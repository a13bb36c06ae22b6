"""Retrieval that weighs a question's form: an ExampleStore wrapper that re-ranks stored pairs by how the question
lines up with each stored question form, how close its entity-masked wording is to the form, and whether the names
it mentions are of the kinds the form's query expects. The wrapped store keeps its raw-question embeddings (lookup)."""
from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import repeat
from pathlib import Path
from typing import Any

from pipeline.matching.align import align_form
from pipeline.matching.fill import Name, fill
from pipeline.matching.forms import MASK, Form
from pipeline.matching.wording import STOPWORDS, norm_word, stem, word_sim
from pipeline.parts import Embedded, Encoder, ExampleStore, Versioned
from pipeline.records import Example, Retrieved
from pipeline.store.knowledge import Knowledge, Neighbours, build_knowledge, load_knowledge, save_knowledge

RAW_K = 20  # raw neighbours whose forms are always considered
FORM_K = 25  # forms nearest to the entity-masked question, also considered
ALIGNED_K = 6  # best-aligned forms whose own masking of the question is embedded
# weights of the signals (see Features)
W_ALIGN, W_MEANING, W_KIND, W_PLAUSIBLE, W_LEXICAL = 0.2, 0.35, 0.2, 0.05, 0.2
TIE = 0.05  # forms within this of the best vote by query skeleton
CACHE = 4096
RECHECK = 1.0  # seconds the knowledge is used without asking the store whether it changed
# Below this score the adapter declines. Calibrated on SciQA valid + Slack-style variants + hand-reworded questions
# (in scope) against unseen handcrafted and off-topic questions (out of scope): it keeps 99.7 % of the in-scope
# questions the adapter answers right and declines 89 % of the out-of-scope ones (docs/QUALITY.md).
MIN_SCORE = 0.58


@dataclass(frozen=True)
class Features:
    """The signals that score a form for a question, each in [0, 1]."""

    align: float  # the form's fixed wording found in the question (tolerant alignment)
    meaning: float  # cosine of the entity-masked question and the masked form
    kinds: float  # names in the question of the kinds the form's slots take
    plausible: float  # the slot fillers look like names
    lexical: float  # the question's content words found in the form's wording, rare ones weighing more

    def score(self) -> float:
        return (W_ALIGN * self.align + W_MEANING * self.meaning + W_KIND * self.kinds
                + W_PLAUSIBLE * self.plausible + W_LEXICAL * self.lexical)


def mask(text: str, spans: Sequence[tuple[int, int] | None]) -> str:
    """``text`` with each span replaced by the mask word."""
    out, pos = [], 0
    for span in sorted(s for s in spans if s is not None):
        if span[0] < pos:
            continue
        out += [text[pos:span[0]], MASK]
        pos = span[1]
    out.append(text[pos:])
    return " ".join("".join(out).split())


def kind_fit(form: Form, names: Sequence[str]) -> float:
    """How well the names in a question fit a form's slots, in [0, 1]: as many names as slots, and of the kinds
    the slots expect (``names`` holds each name's kind, "" when unknown)."""
    size = max(len(form.kinds), len(names), 1)
    count = 1 - abs(len(form.kinds) - len(names)) / size
    known = [k for k in names if k]
    if not known:
        return 0.5 * count + 0.25
    wanted = list(form.kinds)
    matched = 0
    for k in known:
        if k in wanted:
            wanted.remove(k)
            matched += 1
    return 0.5 * count + 0.5 * matched / len(known)


class FormAwareStore:
    """An ExampleStore that finds examples of the right kind; ``search`` re-ranks, ``add`` passes through."""

    min_score = MIN_SCORE  # the calibrated threshold for its scores

    def __init__(self, base: ExampleStore, encoder: Encoder, saved: Path | None = None, *,
                 recheck: float) -> None:
        """``saved``: a file where the knowledge of the store's current state is kept (written by ``kgqa index`` and
        after every change), so a new process loads it; only used when ``base`` can name its state (``version``).
        ``recheck``: seconds the knowledge is used before the store is asked again whether it changed."""
        self.base = base
        self.encoder = encoder
        self.saved = saved
        self._knowledge: Knowledge | None = None
        self.recheck = recheck
        self._checked = 0.0  # when the store's size was last compared with the knowledge's
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, Any] = OrderedDict()

    # -- the ExampleStore protocol ----------------------------------------------------------------------------
    def add(self, examples: Sequence[Example]) -> int:
        written = self.base.add(examples)
        self._knowledge = None
        return written

    def search(self, question: str, k: int) -> list[Retrieved]:
        """``question`` tidied (``pipeline.question.tidy``), as the pipeline and lookups pass it."""
        know = self.knowledge()
        if not know.forms:
            return self.base.search(question, k)
        ranked = self.rank(question, max(k, RAW_K), know)
        return ranked[:k]

    def count(self) -> int:
        return self.base.count()

    def examples(self, source: str | None = None) -> list[Example]:
        return self.base.examples(source)

    # -- helpers ----------------------------------------------------------------------------------------------
    def lookup(self, question: str, k: int) -> list[Retrieved]:
        """The wrapped store's raw nearest questions (by plain embedding)."""
        return self.base.search(question, k)

    def knowledge(self) -> Knowledge:
        """The forms and labels of the stored pairs, rebuilt when the store's size has changed (a change made by
        another process is seen within ``recheck`` seconds: one question's stages share one look at the store)."""
        know = self._knowledge
        if know is not None and time.monotonic() - self._checked < self.recheck:
            return know
        size = self.base.count()
        if know is not None and know.size == size:
            self._checked = time.monotonic()
            return know
        with self._lock:
            if self._knowledge is None or self._knowledge.size != size:
                self._knowledge = self._load_or_build(size)
                for form, vector in zip(self._knowledge.forms, self._knowledge.vectors):
                    self._vectors[form.masked] = vector  # a question in a stored form needs no encoding
            self._checked = time.monotonic()
            return self._knowledge

    def _load_or_build(self, size: int) -> Knowledge:
        if self.saved is None or not isinstance(self.base, Versioned):
            return self._build()
        version = self.base.version
        before = version()
        know = load_knowledge(self.saved, before)
        if know is not None and know.size == size:
            return know
        know = self._build()
        if version() == before:  # (not changed by another process while this was built)
            save_knowledge(know, self.saved, before)
        return know

    def _build(self) -> Knowledge:
        """The knowledge of the store as it is, with its questions' vectors when the store hands them out."""
        examples = self.base.examples()
        neighbours = None
        if isinstance(self.base, Embedded):
            ids, matrix = self.base.embeddings()
            neighbours = Neighbours(tuple(ids), matrix)
        return build_knowledge(examples, self.encoder, neighbours)

    def _encode(self, texts: Sequence[str]) -> dict[str, Any]:
        import numpy as np

        with self._lock:
            missing = [t for t in dict.fromkeys(texts) if t not in self._vectors]
        fresh = self.encoder.encode(missing) if missing else []
        with self._lock:
            for t, v in zip(missing, fresh):
                self._vectors[t] = np.asarray(v, dtype=np.float32)
            while len(self._vectors) > CACHE:
                self._vectors.popitem(last=False)
            return {t: self._vectors.get(t) for t in texts}

    def features(self, text: str, raw_k: int, know: Knowledge) -> tuple[list[str], dict[int, Features]]:
        """The ids of the raw neighbours of ``text`` and, for each candidate form, the signals that score it."""
        import numpy as np

        names = know.names(text)
        first_mask = mask(text, [(s, e) for s, e, _ in names])
        vectors = self._encode([text, first_mask])
        raw = self._nearest(text, vectors[text], raw_k, know)
        nearest = np.argsort(-(know.vectors @ vectors[first_mask]))[:FORM_K]
        candidates = dict.fromkeys([know.form_of[i] for i in raw if i in know.form_of] + [int(i) for i in nearest])
        aligned = {i: align_form(know.forms[i].pieces, text, know.generic) for i in candidates}
        # the question masked where each well-aligned form puts its slots (few distinct texts: one encoder batch)
        best_aligned = sorted(aligned, key=lambda i: -aligned[i].score)[:ALIGNED_K]
        masked = {i: mask(text, aligned[i].spans) if i in best_aligned and aligned[i].score >= 0.5
                  and all(aligned[i].spans) else first_mask for i in aligned}
        vectors.update(self._encode(list(masked.values())))
        kinds = [k for _, _, k in names]
        weighed = weigh(_content_words(text, names, know.generic), know.idf)
        out = {}
        for i, al in aligned.items():
            form = know.forms[i]
            out[i] = Features(al.score, max(0.0, float(know.vectors[i] @ vectors[masked[i]])), kind_fit(form, kinds),
                              fill(form, text, know.labels, know.generic, names, al).plausible,
                              found_share(weighed, know.words[i]))
        return raw, out

    def _nearest(self, text: str, vector: Any, k: int, know: Knowledge) -> list[str]:
        """The ids of the stored questions nearest ``text``: searched in memory when the knowledge holds their
        vectors (a store that hands them out), else asked of the store."""
        if know.neighbours is not None:
            return know.neighbours.nearest(vector, k)
        return [r.example.id for r in self.base.search(text, k)]

    def rank(self, text: str, raw_k: int, know: Knowledge) -> list[Retrieved]:
        """Score candidate forms for ``text`` and return one example per form, best first."""
        raw, features = self.features(text, raw_k, know)
        scores = {i: f.score() for i, f in features.items()}
        order = vote(sorted(scores, key=lambda i: -scores[i]), scores, [f.skeleton for f in know.forms])
        nearest: dict[int, str] = {}  # form -> its nearest raw neighbour (a form may hold thousands of pairs)
        for id_ in raw:
            if id_ in know.form_of:
                nearest.setdefault(know.form_of[id_], id_)
        return [Retrieved(know.example(nearest[i]) if i in nearest else know.forms[i].examples[0], round(scores[i], 6))
                for i in order]


def vote(order: list[int], scores: dict[int, float], skeletons: Sequence[str]) -> list[int]:
    """Among forms within TIE of the best, the query skeleton with the most support (each form counting by how
    close it comes to the best) goes first."""
    if not order:
        return order
    floor = scores[order[0]] - TIE
    votes: dict[str, float] = defaultdict(float)
    for i in order:
        if scores[i] > floor:
            votes[skeletons[i]] += scores[i] - floor
    winner = max(votes, key=lambda s: votes[s])
    lead = next(i for i in order if skeletons[i] == winner)
    return [lead] + [i for i in order if i != lead]


def _content_words(text: str, names: Sequence[Name], generic: frozenset[str]) -> list[str]:
    """The question's words outside the names found, less stop words."""
    out = []
    for m in re.finditer(r"\S+", text):
        if any(a <= m.start() < b for a, b, _ in names):
            continue
        word = norm_word(m.group())
        if word and word not in STOPWORDS:
            out.append(word)
    return out


def weigh(content: Sequence[str], idf: dict[str, float]) -> list[tuple[str, float]]:
    """The question's content words with their weights for ``found_share`` (the same for every form: weighed once);
    words no form has weigh most."""
    top = max(idf.values(), default=1.0) if content else 1.0
    return [(word, idf.get(stem(word), top)) for word in content]


def found_share(weighed: Sequence[tuple[str, float]], form_words: frozenset[str]) -> float:
    """The lexical signal: the share of the question's content words (weighed by how rare they are among the query
    kinds) that the form's wording has, typos and word endings forgiven."""
    if not weighed:
        return 0.5
    total = found = 0.0
    for word, weight in weighed:
        total += weight
        # (no word is more similar than the word itself)
        best = 1.0 if word in form_words else max(map(word_sim, repeat(word), form_words), default=0.0)
        found += weight * best
    return found / total if total else 0.5
