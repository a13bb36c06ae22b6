"""The whole graph from SciQA's facts, shape by shape."""
from __future__ import annotations

from pipeline.kg.sciqa_graph import datasets, links
from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.witness import Witness


def build_witness(facts: list[Fact]) -> Witness:
    """Every shape's nodes in one graph; where answers disagree, ``Witness.conflicts`` says what was kept."""
    w = Witness()
    links.register_datasets(w, facts)
    links.register_problems(w, facts)
    by_dataset: dict[str, list[str]] = {}
    for name, d in sorted(datasets.gather(facts, w).items()):
        dataset = w.entity("Dataset", name)
        by_dataset[dataset] = datasets.build_dataset(w, name, d)
    links.problems_datasets(w, facts, by_dataset)
    links.model_code(w, facts, links.contributions_by_model(w))
    links.field_problems(w, facts)
    return w
