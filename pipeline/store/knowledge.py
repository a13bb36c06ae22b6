"""What the stored pairs teach (their question forms, label knowledge, vocabulary and word weights), built once with
the store and kept on disk beside it, so a new process loads it instead of deriving it again."""
from __future__ import annotations

import base64
import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pipeline.matching.fill import Name, names_in
from pipeline.matching.forms import Form, Labels, group_forms, vocabulary
from pipeline.matching.wording import norm_word, stem
from pipeline.parts import Encoder
from pipeline.records import Example
from pipeline.store.derived import code_digest, load_json, save_json

NAMES_KEPT = 256  # questions whose reading is kept (concurrent questions each find theirs)


@dataclass(frozen=True)
class Neighbours:
    """Every stored question's vector, searched exactly: the same neighbours in every process (an approximate index
    may return a different 20th one from one process to the next) and no round trip to the store."""

    ids: tuple[str, ...]
    matrix: Any  # numpy array, one unit row per stored question

    def nearest(self, vector: Any, k: int) -> list[str]:
        """The ids of the ``k`` stored questions nearest ``vector`` (cosine), nearest first; ties in stored order."""
        import numpy as np

        if not self.ids:
            return []
        k = min(max(1, k), len(self.ids))
        distance = -(self.matrix @ np.asarray(vector, dtype=np.float32))
        # the k nearest and any tied with the k-th (a partition, not a sort of every stored question), in stored order
        near = np.flatnonzero(distance <= np.partition(distance, k - 1)[k - 1]) if k < len(self.ids) else \
            np.arange(len(self.ids))
        order = near[np.argsort(distance[near], kind="stable")][:k]
        return [self.ids[i] for i in order]


@dataclass
class Knowledge:
    """What the stored pairs teach: their distinct forms (with embeddings of the masked forms) and labels."""

    forms: list[Form]
    vectors: Any  # numpy array, one unit row per form
    labels: Labels
    generic: frozenset[str]  # lowercase words of the forms' fixed text ("benchmark", "dataset", "metrics", ...)
    form_of: dict[str, int]  # example id -> index into forms
    size: int  # stored pairs this was built from
    words: list[frozenset[str]]  # per form, the normalised words of its fixed text
    idf: dict[str, float]  # word stem -> log(1 + query kinds / query kinds whose forms use it)
    prefixed: frozenset[str]  # prefixed names the stored queries use (orkgp:HAS_DATASET, orkgc:Model, ...)
    neighbours: Neighbours | None = None  # the stored questions' vectors, when the store hands them out
    _names: dict[str, list[Name]] = field(default_factory=dict, repr=False, compare=False)
    _by_id: dict[str, Example] = field(default_factory=dict, repr=False, compare=False)
    _taught: tuple[Example, ...] = field(default=(), repr=False, compare=False)

    def __post_init__(self) -> None:
        self._by_id.update((ex.id, ex) for form in self.forms for ex in form.examples)
        self._taught = tuple(ex for ex in self._by_id.values() if ex.source == "team")

    def example(self, id_: str) -> Example:
        """The stored pair of this id."""
        return self._by_id[id_]

    def taught(self) -> tuple[Example, ...]:
        """The pairs the team taught (source "team"), in stored order (found once, when this is built)."""
        return self._taught

    def names(self, text: str) -> list[Name]:
        """The names in a tidied question (known labels with their kinds, other name-like runs): read once per
        question and shared by retrieval, the adapter and the intent step."""
        found = self._names.get(text)
        if found is None:
            found = names_in(text, self.labels, self.generic)
            if len(self._names) >= NAMES_KEPT:
                self._names.clear()
            self._names[text] = found
        return list(found)


def build_knowledge(examples: Sequence[Example], encoder: Encoder, neighbours: Neighbours | None = None) -> Knowledge:
    """Forms, labels, vocabulary and word weights of ``examples``; the masked forms are embedded (one batch).
    ``neighbours``: the stored questions' own vectors, as the store holds them."""
    import numpy as np

    forms = group_forms(examples)
    vectors = np.asarray(encoder.encode([f.masked for f in forms]) if forms else np.zeros((0, 1)), dtype=np.float32)
    generic = frozenset(w.lower().strip("?!.,;:()\"'") for f in forms if len(f.examples) > 1
                        for p in f.pieces for w in p.split()) - {""}
    words = [frozenset(w for p in f.pieces for w in map(norm_word, p.split()) if w) for f in forms]
    by_kind: dict[str, set[str]] = defaultdict(set)
    for f, ws in zip(forms, words):
        by_kind[f.skeleton] |= {stem(w) for w in ws}
    df: dict[str, int] = defaultdict(int)
    for stems in by_kind.values():
        for st in stems:
            df[st] += 1
    idf = {st: math.log(1 + len(by_kind) / n) for st, n in df.items()}
    return Knowledge(forms, vectors, Labels(examples), generic, _form_index(forms), len(examples), words, idf,
                     frozenset(vocabulary(examples)), neighbours)


def _form_index(forms: Sequence[Form]) -> dict[str, int]:
    return {ex.id: n for n, f in enumerate(forms) for ex in f.examples}


# -- on disk: one JSON file (the vectors as little-endian float32, base64), under the store's state and our code ----
DERIVED_BY = ("matching", "sparql", "store/knowledge.py")  # the code that derives it: any change there rebuilds it


def _key(version: str) -> str:
    return f"{version}|{code_digest(*DERIVED_BY)}"


def save_knowledge(know: Knowledge, path: Path, version: str) -> None:
    """Keep ``know`` as the knowledge of the store state ``version``."""
    examples = {ex.id: ex for f in know.forms for ex in f.examples}
    near = know.neighbours
    save_json(path, _key(version), {
        "size": know.size,
        "examples": [[e.id, e.question, e.sparql, e.template_id, e.source] for e in examples.values()],
        "forms": [[list(f.pieces), list(f.kinds), f.skeleton, [e.id for e in f.examples]] for f in know.forms],
        "vectors": _packed(know.vectors),
        "neighbours": None if near is None else {"ids": list(near.ids), "vectors": _packed(near.matrix)},
        "labels": {"casing": know.labels.casing, "kinds": know.labels.kinds, "longest": know.labels.longest},
        "generic": sorted(know.generic), "words": [sorted(w) for w in know.words], "idf": know.idf,
        "prefixed": sorted(know.prefixed),
    })


def load_knowledge(path: Path, version: str) -> Knowledge | None:
    """The knowledge kept for store state ``version``; None when there is none, it is of another state or was
    derived by other code, or it cannot be read (the caller then builds it again)."""
    data = load_json(path, _key(version))
    if data is None:
        return None
    try:
        examples = {row[0]: Example(*row) for row in data["examples"]}
        forms = [Form(tuple(p), tuple(k), s, tuple(examples[i] for i in ids)) for p, k, s, ids in data["forms"]]
        vectors = _unpacked(data["vectors"])
        near = data.get("neighbours")
        neighbours = None if near is None else Neighbours(tuple(near["ids"]), _unpacked(near["vectors"]))
        if vectors.shape[0] != len(forms) or (neighbours and neighbours.matrix.shape[0] != len(neighbours.ids)):
            return None
        labels = Labels()
        labels.casing.update({key: Counter(c) for key, c in data["labels"]["casing"].items()})
        labels.kinds.update({key: Counter(c) for key, c in data["labels"]["kinds"].items()})
        labels.longest = int(data["labels"]["longest"])
        return Knowledge(forms, vectors, labels, frozenset(data["generic"]), _form_index(forms), int(data["size"]),
                         [frozenset(w) for w in data["words"]], dict(data["idf"]), frozenset(data["prefixed"]),
                         neighbours)
    except (ValueError, KeyError, TypeError, IndexError, AttributeError):
        return None


def _packed(vectors: Any) -> dict[str, Any]:
    import numpy as np

    rows = np.ascontiguousarray(vectors, dtype="<f4")
    return {"shape": list(rows.shape), "f4": base64.b64encode(rows.tobytes()).decode("ascii")}


def _unpacked(packed: dict[str, Any]) -> Any:
    import numpy as np

    return np.frombuffer(base64.b64decode(packed["f4"]), dtype="<f4").reshape(packed["shape"]).astype(np.float32)
