"""T06–T08: problems and their datasets, code of a model's papers, benchmarked problems of a research field."""
from __future__ import annotations

from collections import defaultdict

from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.kg.sciqa_graph.witness import ORKGP, Witness
from pipeline.records import Kind


def register_datasets(w: Witness, facts: list[Fact]) -> None:
    """T06 answers carry datasets' ORKG IRIs: register them before anything refers to a dataset by label."""
    for f in facts:
        if f.template == "T06":
            for row in f.rows:
                w.from_term(Kind.DATASET, row.get("dataset"), row.get("dataset_lbl"))


def register_problems(w: Witness, facts: list[Fact]) -> None:
    for f in facts:
        if f.template == "T08":
            for row in f.rows:
                w.from_term(Kind.PROBLEM, row.get("problem"), row.get("problem_lbl"))


def problems_datasets(w: Witness, facts: list[Fact], contributions: dict[str, list[str]]) -> None:
    """T06: the problem is on a contribution benchmarked on each dataset (one of the dataset's own, if any)."""
    for f in _first(w, facts, "T06", "problem_lbl"):
        problem = w.entity(Kind.PROBLEM, f.labels["problem_lbl"])
        for row in f.rows:
            dataset = w.from_term(Kind.DATASET, row.get("dataset"), row.get("dataset_lbl"))
            if dataset is None:
                continue
            own = contributions.get(dataset)
            cont = own[0] if own else _benchmarked(w, dataset)
            w.add(cont, ORKGP + "P32", problem)


def model_code(w: Witness, facts: list[Fact], by_model: dict[str, list[str]]) -> None:
    """T07: the code links sit on a contribution of the model (benchmarked on some dataset)."""
    for f in _first(w, facts, "T07", "model_lbl"):
        codes = [row["code"]["value"] for row in f.rows if "code" in row]
        if not codes:
            continue
        model = w.entity(Kind.MODEL, f.labels["model_lbl"])
        own = by_model.get(model)
        if own:
            cont = own[0]
        else:
            cont = _benchmarked(w, w.mint(Kind.DATASET))  # benchmarked on a dataset SciQA never names
            w.add(cont, ORKGP + "HAS_MODEL", model)
        for code in codes:
            w.literal(cont, ORKGP + "HAS_SOURCE_CODE", code)


def field_problems(w: Witness, facts: list[Fact]) -> None:
    """T08: a paper of the research field with one benchmarked contribution per problem."""
    for f in _first(w, facts, "T08", "rf_label"):
        if not f.rows:
            continue
        field = w.entity(Kind.RESEARCHFIELD, f.labels["rf_label"])
        paper = w.mint(Kind.PAPER)
        w.add(paper, ORKGP + "P30", field)
        for row in f.rows:
            problem = w.from_term(Kind.PROBLEM, row.get("problem"), row.get("problem_lbl"))
            if problem is None:
                continue
            cont = w.mint("contribution")
            w.add(cont, ORKGP + "HAS_BENCHMARK", w.mint("benchmark"))
            w.add(cont, ORKGP + "P32", problem)
            w.add(paper, ORKGP + "P31", cont)


def _benchmarked(w: Witness, dataset: str) -> str:
    cont, bench = w.mint("contribution"), w.mint("benchmark")
    w.add(cont, ORKGP + "HAS_BENCHMARK", bench)
    w.add(bench, ORKGP + "HAS_DATASET", dataset)
    return cont


def _first(w: Witness, facts: list[Fact], template: str, var: str) -> list[Fact]:
    """One fact per tested label; a later question with a different answer is reported, not used."""
    seen: dict[str, Fact] = {}
    for f in facts:
        if f.template != template or var not in f.labels:
            continue
        key = f.labels[var]
        if key not in seen:
            seen[key] = f
        elif _flat(seen[key]) != _flat(f):
            w.conflict(f"{template} {key!r}: {f.id} answers differently from {seen[key].id}; kept the first")
    return list(seen.values())


def _flat(f: Fact) -> set[str]:
    return {t["value"] for row in f.rows for t in row.values()}


def contributions_by_model(w: Witness) -> dict[str, list[str]]:
    out: dict[str, list[str]] = defaultdict(list)
    for s, p, o, lit in sorted(w.triples):
        if p == ORKGP + "HAS_MODEL" and not lit:
            out[o].append(s)
    return out
