"""ORKG-shaped graphs at a multiple of the SciQA graph's size, with SciQA's own graph embedded (a benchmark stand-in).

``write_scaled(sciqa_nt, out, factor, seed)`` writes the graph rebuilt from SciQA (``pipeline.kg.sciqa_graph``) as it
is, then invented papers until the file holds about ``factor`` times its triples. The invented part has the ORKG's
shape (papers with a field and contributions; a contribution's problem, model, code links and benchmarks; a benchmark's
dataset and evaluations; an evaluation's metric and value) and its label skew: names drawn by a long-tailed (Zipf)
popularity, shared words, non-ASCII letters, one dataset under several spellings, and look-alikes of SciQA's own
names ("SQuAD1.1 v17", "SQuAD1.1 (test split)"). No invented label equals a SciQA label, even up to case and blanks,
and invented papers use SciQA's metrics but none of its other nodes, so a SciQA question keeps its gold answer unless
it counts over every metric's evaluations. Deterministic by seed.
"""
from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pyoxigraph as ox

from pipeline.names.index import squeeze
from standins.orkg_fixture import ORKGC, ORKGP, RDF_TYPE, RDFS_LABEL

SYNTH = "http://orkg.org/orkg/resource/S"  # invented nodes: orkgr:S<n>, apart from SciQA's R<n> and witness IRIs
KINDS = ("Dataset", "Model", "Metric", "Problem", "ResearchField")
STEMS = ("Bench", "Net", "QA", "Set", "Corpus", "Former", "GAN", "BERT", "Flow", "Graph", "Seg", "Vision", "Text",
         "Speech", "Med", "Chem", "Geo", "Code", "Math", "Law", "Bio", "Quant", "Robo", "Climate", "Crowd")
WORDS = ("Deep", "Sparse", "Neural", "Open", "Multi", "Cross", "Zero", "Few", "Long", "Fast", "Robust", "Large",
         "Tiny", "Noisy", "Causal", "Visual", "Spoken", "Lingual", "Temporal", "Scientific", "Clinical", "Fair")
ACCENTED = ("Müller", "Zürich", "Café", "Ærø", "Łódź", "São Paulo", "Kraków", "Señor", "Ångström", "Tōkyō", "Øresund",
            "Dvořák", "Ελληνικά", "Русский", "中文")
SPLITS = (" (test split)", " (dev)", "-train", " – validation", " full", " (2019 version)")
FIELD_WORDS = ("Studies", "Engineering", "Sciences", "Analytics", "Informatics")


@dataclass(frozen=True)
class Scaled:
    """What was written: the file, its triples, and how many came from SciQA's graph."""

    path: Path
    triples: int
    sciqa_triples: int


class _Names:
    """Invented labels of one kind: unique, never a SciQA label up to case and blanks."""

    def __init__(self, taken: set[str], rnd: random.Random) -> None:
        self.taken = taken
        self.rnd = rnd
        self.labels: list[str] = []

    def add(self, label: str) -> bool:
        key = squeeze(label)
        if not key or key in self.taken:
            return False
        self.taken.add(key)
        self.labels.append(label)
        return True

    def invent(self, kind: str, n: int) -> str:
        r = self.rnd
        if kind == "ResearchField":
            return f"{r.choice(WORDS)} {r.choice(STEMS)} {r.choice(FIELD_WORDS)} {n}"
        if kind == "Problem":
            return f"{r.choice(WORDS)} {r.choice(STEMS).lower()} {r.choice(('detection', 'generation', 'parsing'))} {n}"
        if kind == "Metric":
            return f"{r.choice(('Accuracy', 'F1', 'BLEU', 'Recall', 'Error'))} @{n} ({r.choice(WORDS).lower()})"
        stem = r.choice(STEMS) + r.choice(STEMS)
        accent = f" {r.choice(ACCENTED)}" if r.random() < 0.08 else ""
        return f"{r.choice(WORDS)}{stem}{accent}-{n}" if kind == "Dataset" else f"{stem}-{r.choice('SBLX')}{n}"


def _sciqa_labels(sciqa_nt: Path) -> dict[str, list[str]]:
    kinds: dict[str, str] = {}
    labels: dict[str, str] = {}
    for q in ox.parse(path=str(sciqa_nt), format=ox.RdfFormat.N_TRIPLES):
        if q.predicate.value == RDF_TYPE and q.object.value.startswith(ORKGC):
            kinds[q.subject.value] = q.object.value.removeprefix(ORKGC)
        elif q.predicate.value == RDFS_LABEL and isinstance(q.object, ox.Literal):
            labels[q.subject.value] = q.object.value
    out: dict[str, list[str]] = {kind: [] for kind in (*KINDS, "Paper", "_metric_iri")}
    for iri, kind in sorted(kinds.items()):
        if kind in out and iri in labels:
            out[kind].append(labels[iri])
            if kind == "Metric":
                out["_metric_iri"].append(iri)
    return out


def _entities(sciqa: dict[str, list[str]], factor: float, rnd: random.Random) -> dict[str, list[str]]:
    """Invented labels per kind, about ``factor - 1`` times SciQA's count, look-alikes of SciQA's names first."""
    taken = {squeeze(label) for labels in sciqa.values() for label in labels}
    out: dict[str, list[str]] = {}
    for kind in KINDS:
        names = _Names(taken, rnd)
        want = max(3, int(len(sciqa[kind]) * (factor - 1)))
        if kind in ("Dataset", "Model"):
            for label in sciqa[kind]:  # the ORKG's versions and splits of one name
                for _ in range(rnd.choice((0, 1, 1, 2, 3))):
                    names.add(label + (f" v{rnd.randint(2, 40)}" if rnd.random() < 0.5 else rnd.choice(SPLITS)))
        n = 0
        while len(names.labels) < want:
            n += 1
            label = names.invent(kind, n)
            if names.add(label) and kind == "Dataset" and rnd.random() < 0.1:  # one dataset, several spellings
                names.labels.append(label.replace("-", " ", 1))  # same key: a spelling of the same name
                names.labels.append(label.upper())
        out[kind] = names.labels
    return out


def _zipf(rnd: random.Random, n: int) -> int:
    """An index in 0..n-1, small ones far more often (a long tail of names used once)."""
    return min(n - 1, int(rnd.paretovariate(1.1)) - 1)


def _lit(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _papers(ents: dict[str, list[str]], metric_iris: list[str], rnd: random.Random) -> Iterator[str]:
    """N-Triples lines of invented papers, endlessly (the caller stops at the size it wants)."""
    iris: dict[str, list[str]] = {}
    next_id = 0

    def node() -> str:
        nonlocal next_id
        next_id += 1
        return f"<{SYNTH}{next_id}>"

    for kind in KINDS:
        iris[kind] = []
        order = list(ents[kind])
        rnd.shuffle(order)  # popularity is not alphabetical
        for label in order:
            iri = node()
            iris[kind].append(iri)
            yield f"{iri} <{RDF_TYPE}> <{ORKGC}{kind}> .\n{iri} <{RDFS_LABEL}> {_lit(label)} .\n"
    metrics = [f"<{m}>" for m in metric_iris] + iris["Metric"]
    P = f"<{ORKGP}"
    while True:
        paper, n = node(), next_id
        lines = [f"{paper} <{RDF_TYPE}> <{ORKGC}Paper> .\n",
                 f"{paper} <{RDFS_LABEL}> {_lit(f'{rnd.choice(WORDS)} {rnd.choice(STEMS)} study {n}')} .\n",
                 f"{paper} {P}P30> {iris['ResearchField'][_zipf(rnd, len(iris['ResearchField']))]} .\n"]
        for _ in range(rnd.choice((1, 1, 2, 3))):
            cont = node()
            lines += [f"{paper} {P}P31> {cont} .\n",
                      f"{cont} {P}P32> {iris['Problem'][_zipf(rnd, len(iris['Problem']))]} .\n",
                      f"{cont} {P}HAS_MODEL> {iris['Model'][_zipf(rnd, len(iris['Model']))]} .\n"]
            if rnd.random() < 0.4:
                lines.append(f"{cont} {P}HAS_SOURCE_CODE> {_lit(f'https://github.com/example/repo-{n}')} .\n")
            for _ in range(rnd.choice((1, 1, 2))):
                bench = node()
                lines += [f"{cont} {P}HAS_BENCHMARK> {bench} .\n",
                          f"{bench} {P}HAS_DATASET> {iris['Dataset'][_zipf(rnd, len(iris['Dataset']))]} .\n"]
                for _ in range(rnd.choice((1, 2, 2, 3))):
                    ev = node()
                    lines += [f"{bench} {P}HAS_EVALUATION> {ev} .\n",
                              f"{ev} {P}HAS_METRIC> {metrics[_zipf(rnd, len(metrics))]} .\n",
                              f"{ev} {P}HAS_VALUE> {_lit(f'{rnd.uniform(1, 99):.2f}')} .\n"]
        yield "".join(lines)


def write_scaled(sciqa_nt: Path, out: Path, factor: float, seed: int = 0) -> Scaled:
    """SciQA's graph plus invented papers, about ``factor`` times its triples in all, as N-Triples at ``out``."""
    rnd = random.Random(seed)
    base = sciqa_nt.read_text(encoding="utf-8")
    sciqa_triples = base.count("\n")
    want = int(sciqa_triples * factor)
    labels = _sciqa_labels(sciqa_nt)
    total = sciqa_triples
    with out.open("w", encoding="utf-8") as f:
        f.write(base)
        if factor > 1:
            for block in _papers(_entities(labels, factor, rnd), labels["_metric_iri"], rnd):
                f.write(block)
                total += block.count("\n")
                if total >= want:
                    break
    return Scaled(out, total, sciqa_triples)
