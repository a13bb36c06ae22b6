"""Hand-written answers over the fixture graph's own records (standins/orkg_fixture.PAPERS), computed in Python and
not in SPARQL, for the intent tests to compare composed queries with."""
from __future__ import annotations

import re
from collections.abc import Iterator

from standins.orkg_fixture import PAPERS, Contribution, Paper, Result


def results() -> Iterator[tuple[Paper, Contribution, str, Result]]:
    """(paper, contribution, dataset, result) for every score of the graph."""
    for paper in PAPERS:
        for cont in paper.contributions:
            for bench in cont.benchmarks:
                for result in bench.results:
                    yield paper, cont, bench.dataset, result


def number(value: str) -> float | None:
    """A score as a number, as the composed queries read ORKG's plain strings: digits and the point kept."""
    digits = re.sub(r"[^0-9.]", "", value)
    try:
        return float(digits)
    except ValueError:
        return None


def boards() -> list[tuple[str, str]]:
    """Every (dataset, metric) with at least one numeric score."""
    return sorted({(d, r.metric) for _, _, d, r in results() if number(r.value) is not None})


def scores(dataset: str, metric: str) -> list[tuple[str, str]]:
    """(model, value as stored) of one leaderboard, best first by number (unreadable values left out)."""
    rows = {(c.model, r.value) for _, c, d, r in results() if d == dataset and r.metric == metric and c.model}
    return sorted((row for row in rows if number(row[1]) is not None), key=lambda row: -(number(row[1]) or 0.0))


def extreme(dataset: str, metric: str, highest: bool = True) -> set[str]:
    """The models at the top (or bottom) of one leaderboard, ties included."""
    board = scores(dataset, metric)
    end = (max if highest else min)(number(v) or 0.0 for _, v in board)
    return {m for m, v in board if number(v) == end}


def with_code(dataset: str) -> set[tuple[str, str]]:
    """(model, code link) of the contributions evaluated on ``dataset`` that link code."""
    return {(c.model, url) for paper in PAPERS for c in paper.contributions for b in c.benchmarks
            if b.dataset == dataset and c.model for url in c.code}


def datasets_of(model: str) -> set[str]:
    return {b.dataset for paper in PAPERS for c in paper.contributions if c.model == model for b in c.benchmarks}


def metrics_of(dataset: str) -> set[str]:
    return {r.metric for _, _, d, r in results() if d == dataset}


def models_on(dataset: str) -> set[str]:
    return {c.model for paper in PAPERS for c in paper.contributions for b in c.benchmarks
            if b.dataset == dataset and c.model}


def code_of(model: str) -> set[str]:
    return {url for paper in PAPERS for c in paper.contributions if c.model == model for url in c.code}


def models_of_problem(problem: str) -> set[str]:
    return {c.model for paper in PAPERS for c in paper.contributions if c.problem == problem and c.model}


def datasets_of_problem(problem: str) -> set[str]:
    return {b.dataset for paper in PAPERS for c in paper.contributions if c.problem == problem for b in c.benchmarks}


def papers_in(field: str) -> set[str]:
    return {paper.title for paper in PAPERS if paper.field == field}


def papers_of_problem_in(problem: str, year: str) -> set[str]:
    return {p.title for p in PAPERS if p.year == year and any(c.problem == problem for c in p.contributions)}


def years() -> list[str]:
    return sorted({p.year for p in PAPERS})


def papers_on(dataset: str) -> set[str]:
    """The titles of the papers with a result on ``dataset``."""
    return {p.title for p in PAPERS for c in p.contributions for b in c.benchmarks if b.dataset == dataset}


def average(dataset: str, metric: str) -> float | None:
    """The mean of one leaderboard's readable scores (every result, a model's repeats included)."""
    values = [number(r.value) for _, _, d, r in results() if d == dataset and r.metric == metric]
    read = [v for v in values if v is not None]
    return sum(read) / len(read) if read else None


def coded_models() -> set[str]:
    """The models some contribution links code for."""
    return {c.model for p in PAPERS for c in p.contributions if c.code and c.model}


def papers_of_problem(problem: str, code: bool | None = None) -> set[str]:
    """The titles of the papers with a contribution on ``problem``; with ``code``, only those whose contribution on it
    links code (True: code for another problem is not code for this one), or that link none in any contribution
    (False)."""
    return {p.title for p in PAPERS if any(c.problem == problem for c in p.contributions)
            and (code is None or (any(c.code for c in p.contributions if c.problem == problem) if code else
                                  not any(c.code for c in p.contributions)))}


def fields_of(dataset: str) -> set[str]:
    return {p.field for p in PAPERS for c in p.contributions for b in c.benchmarks if b.dataset == dataset}
