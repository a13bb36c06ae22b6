"""Retrieval that weighs a question's form: an ExampleStore wrapper that re-ranks stored pairs by how the question
lines up with each stored question form, how close its entity-masked wording is to the form, and whether the names
it mentions are of the kinds the form's query expects. The wrapped store keeps its raw-question embeddings for lookup."""
from __future__ import annotations

import threading
from collections import OrderedDict, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from pipeline.align import Alignment, align_form
from pipeline.forms import MASK, Form, Labels, group_forms
from pipeline.parts import Encoder
from pipeline.records import Example, Retrieved
from pipeline.wording import STOPWORDS, tidy

RAW_K = 20  # raw neighbours whose forms are always considered
FORM_K = 25  # forms nearest to the entity-masked question, also considered
W_ALIGN, W_FORM, W_KIND = 0.5, 0.35, 0.15  # weights of the three signals in the score
TIE = 0.02  # forms within this of the best vote by query skeleton
CACHE = 4096


class BaseStore(Protocol):
    """What the wrapper needs of the store it wraps (``pipeline.store.ChromaStore`` has it)."""

    def search(self, question: str, k: int) -> list[Retrieved]: ...

    def add(self, examples: Sequence[Example]) -> int: ...

    def examples(self, source: str | None = None) -> list[Example]: ...

    def count(self) -> int: ...


@dataclass
class Knowledge:
    """What the stored pairs teach: their distinct forms (with embeddings of the masked forms) and labels."""

    forms: list[Form]
    vectors: Any  # numpy array, one unit row per form
    labels: Labels
    generic: frozenset[str]  # lowercase words of the forms' fixed text ("benchmark", "dataset", "metrics", ...)
    form_of: dict[str, int]  # example id -> index into forms
    size: int  # stored pairs this was built from


def build_knowledge(examples: Sequence[Example], encoder: Encoder) -> Knowledge:
    import numpy as np

    forms = group_forms(examples)
    vectors = np.asarray(encoder.encode([f.masked for f in forms]) if forms else np.zeros((0, 1)), dtype=np.float32)
    generic = frozenset(w.lower().strip("?!.,;:()\"'") for f in forms if len(f.examples) > 1
                        for p in f.pieces for w in p.split()) - {""}
    form_of = {ex.id: n for n, f in enumerate(forms) for ex in f.examples}
    return Knowledge(forms, vectors, Labels(examples), generic, form_of, len(examples))


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


def kind_fit(form: Form, alignment: Alignment, text: str, found: list[tuple[int, int, str]], labels: Labels) -> float:
    """How well the kinds of names in the question fit the form's slots: 1 all fit, 0 none, 0.5 nothing known."""
    known = [k for _, _, k in found if k]
    span_kinds = [labels.kind(text[s[0]:s[1]]) if s else "" for s in alignment.spans]
    agree = sum(1 for want, got in zip(form.kinds, span_kinds) if got and got == want)
    clash = sum(1 for want, got in zip(form.kinds, span_kinds) if got and got != want)
    wanted = list(form.kinds)
    matched = 0
    for k in known:
        if k in wanted:
            wanted.remove(k)
            matched += 1
    if not known and not (agree or clash):
        return 0.5
    size = max(len(form.kinds), len(known), 1)
    return max(0.0, min(1.0, 0.5 * (matched / size) + 0.5 * ((agree - clash) / max(len(form.kinds), 1) + 1) / 2))


class FormAwareStore:
    """An ExampleStore that finds examples of the right kind; ``search`` re-ranks, ``add`` passes through."""

    def __init__(self, base: BaseStore, encoder: Encoder) -> None:
        self.base = base
        self.encoder = encoder
        self._knowledge: Knowledge | None = None
        self._lock = threading.Lock()
        self._vectors: OrderedDict[str, Any] = OrderedDict()

    # -- the ExampleStore protocol ----------------------------------------------------------------------------
    def add(self, examples: Sequence[Example]) -> int:
        written = self.base.add(examples)
        self._knowledge = None
        return written

    def search(self, question: str, k: int) -> list[Retrieved]:
        text = tidy(question)
        raw = self.base.search(text, max(k, RAW_K))
        know = self.knowledge()
        if not know.forms:
            return raw[:k]
        ranked = self.rank(text, raw, know)
        return ranked[:k] if ranked else raw[:k]

    # -- helpers ----------------------------------------------------------------------------------------------
    def lookup(self, question: str, k: int) -> list[Retrieved]:
        """The wrapped store's raw nearest questions (by plain embedding)."""
        return self.base.search(question, k)

    def knowledge(self) -> Knowledge:
        """The forms and labels of the stored pairs, rebuilt when the store's size has changed."""
        size = self.base.count()
        know = self._knowledge
        if know is not None and know.size == size:
            return know
        with self._lock:
            if self._knowledge is None or self._knowledge.size != size:
                self._knowledge = build_knowledge(self.base.examples(), self.encoder)
            return self._knowledge

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

    def rank(self, text: str, raw: Sequence[Retrieved], know: Knowledge) -> list[Retrieved]:
        """Score candidate forms for ``text`` and return one example per form, best first."""
        import numpy as np

        found = know.labels.find(text, know.generic)
        first_mask = mask(text, [(s, e) for s, e, _ in found] + _name_runs(text, found, know.generic))
        first = self._encode([first_mask])[first_mask]
        nearest = np.argsort(-(know.vectors @ first))[:FORM_K]
        candidates = dict.fromkeys([know.form_of[r.example.id] for r in raw if r.example.id in know.form_of]
                                   + [int(i) for i in nearest])
        aligned = {i: align_form(know.forms[i].pieces, text, know.generic) for i in candidates}
        masked = {i: mask(text, al.spans) if al.score >= 0.5 and all(al.spans) else first_mask
                  for i, al in aligned.items()}
        vectors = self._encode(list(masked.values()))
        scores: dict[int, float] = {}
        for i, al in aligned.items():
            form_sim = float(know.vectors[i] @ vectors[masked[i]])
            fit = kind_fit(know.forms[i], al, text, found, know.labels)
            scores[i] = W_ALIGN * al.score + W_FORM * max(0.0, form_sim) + W_KIND * fit
        order = _vote(sorted(scores, key=lambda i: -scores[i]), scores, know.forms)
        rank_of = {r.example.id: n for n, r in enumerate(raw)}
        out = []
        for i in order:
            members = know.forms[i].examples
            best = min(members, key=lambda ex: rank_of.get(ex.id, len(raw)))
            out.append(Retrieved(best, round(scores[i], 6)))
        return out


def _vote(order: list[int], scores: dict[int, float], forms: list[Form]) -> list[int]:
    """Among forms within TIE of the best, the query skeleton with the most support goes first."""
    if not order:
        return order
    top = scores[order[0]]
    votes: dict[str, float] = defaultdict(float)
    for i in order:
        if scores[i] >= top - TIE:
            votes[forms[i].skeleton] += scores[i]
    winner = max(votes, key=lambda s: votes[s])
    lead = next(i for i in order if forms[i].skeleton == winner)
    return [lead] + [i for i in order if i != lead]


def _name_runs(text: str, found: list[tuple[int, int, str]], generic: frozenset[str]) -> list[tuple[int, int]]:
    """Spans that look like names (capitals or digits, not form words) outside the known labels."""
    import re

    out: list[tuple[int, int]] = []
    run: list[tuple[int, int]] = []
    for m in re.finditer(r"\S+", text):
        word = m.group().strip("?!.,;:\"'")
        low = word.lower()
        inside = any(s <= m.start() < e for s, e, _ in found)
        namey = (any(c.isupper() or c.isdigit() for c in word[1:]) or (word[:1].isupper() and m.start() > 0)) \
            and low not in generic and low not in STOPWORDS
        if namey and not inside:
            run.append((m.start(), m.start() + len(m.group().rstrip("?!.,;:\"'"))))
        elif run:
            out.append((run[0][0], run[-1][1]))
            run = []
    if run:
        out.append((run[0][0], run[-1][1]))
    return out
