"""The whole graph from SciQA's facts, shape by shape."""
from __future__ import annotations

import pyoxigraph as ox

from pipeline.kg.sciqa_graph import datasets, links
from pipeline.kg.sciqa_graph.backward import READINGS, algebra, answer, instances
from pipeline.kg.sciqa_graph.coverage import gold_flat
from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.witness import Witness, quad
from pipeline.records import Kind


def build_witness(facts: list[Fact]) -> Witness:
    """Every shape's nodes in one graph; where answers disagree, ``Witness.conflicts`` says what was kept."""
    w = Witness()
    links.register_datasets(w, facts)
    links.register_problems(w, facts)
    by_dataset: dict[str, list[str]] = {}
    for name, d in sorted(datasets.gather(facts, w).items()):
        dataset = w.entity(Kind.DATASET, name)
        by_dataset[dataset] = datasets.build_dataset(w, name, d)
    links.problems_datasets(w, facts, by_dataset)
    links.model_code(w, facts, links.contributions_by_model(w))
    links.field_problems(w, facts)
    handcrafted(w, [f for f in facts if f.handcrafted])
    return w


def handcrafted(w: Witness, facts: list[Fact]) -> None:
    """Each handcrafted query's triples, read backwards from its answer, kept when the query then gives exactly that
    answer (``kgqa kg coverage`` says why of the others); one a later addition breaks is listed as a conflict."""
    store = ox.Store()
    store.extend(w.quads())
    held: list[Fact] = []
    for f in facts:
        if answer(store, f.sparql) == gold_flat(f):
            held.append(f)
            continue
        if not f.rows and f.boolean is None:  # an empty record: facts can only be added, never make one empty
            continue
        tries = [(r, False) for r in READINGS] + [(READINGS[0], True)]
        tree = algebra(f.sparql)
        for reading, seed in tries:
            triples = instances(f, reading, seed, tree) if tree is not None else None
            new = [t for t in triples or [] if t not in w.triples]
            if triples is None or not new:
                continue
            quads = [quad(t) for t in new]
            store.extend(quads)
            if answer(store, f.sparql) == gold_flat(f):
                w.triples.update(new)
                held.append(f)
                break
            for q in quads:
                store.remove(q)
    for f in held:
        if answer(store, f.sparql) != gold_flat(f):
            w.conflict(f"HQ {f.id}: its recorded answer no longer holds once later questions' facts were added")
