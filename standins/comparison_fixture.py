"""A small graph of ORKG comparisons for tests: two comparisons whose contributions carry numbered properties with
labels (as the live ORKG gives them), values that are things with labels or plain numbers, papers with years and
fields. Invented names only; the predicates' numbers are made up too (tests load their labels from the graph or from
a vocabulary file they write)."""
from __future__ import annotations

from pathlib import Path

ORKG = "http://orkg.org/orkg/"
LABEL = "http://www.w3.org/2000/01/rdf-schema#label"
TYPE = "http://www.w3.org/1999/02/22-rdf-syntax-ns#type"
PROPERTIES = {"P9001": "Study location", "P9002": "has sample size", "P9003": "Tree species", "P9004": "Soil type",
              "P9005": "Roof material", "P9006": "Energy saving"}
# comparison -> (label, [(paper title, year, field, problem, {property: value})])
COMPARISONS = {
    "R9100": ("Comparison of urban tree survival studies", [
        ("Street trees in dry summers", "2014", "Urban Ecology", "Tree survival",
         {"P9001": "Lisbon", "P9002": "120", "P9003": "Plane tree", "P9004": "Clay"}),
        ("Roots under pavement", "2017", "Urban Ecology", "Tree survival",
         {"P9001": "Oslo", "P9002": "45", "P9003": "Linden", "P9004": "Sand"}),
        ("Linden mortality in parks", "2019", "Forestry", "Tree mortality",
         {"P9001": "Lisbon", "P9002": "300", "P9003": "Linden", "P9004": "Loam"}),
        ("Heat and young trees", "2021", "Urban Ecology", "Tree survival",
         {"P9001": "Athens", "P9002": "80", "P9003": "Linden", "P9004": "Clay"}),
    ]),
    "R9200": ("Green roof cooling comparison", [
        ("Sedum roofs in winter", "2012", "Building Physics", "Roof cooling",
         {"P9001": "Oslo", "P9005": "Sedum mat", "P9006": "12.5"}),
        ("Gravel versus grass roofs", "2016", "Building Physics", "Roof cooling",
         {"P9001": "Madrid", "P9005": "Gravel", "P9006": "7"}),
        ("Cool roofs for schools", "2020", "Architecture", "Roof cooling",
         {"P9001": "Madrid", "P9005": "Sedum mat", "P9006": "18 %"}),
    ]),
}


def triples() -> list[str]:
    """The graph as N-Triples lines."""
    out: list[str] = []

    def add(s: str, p: str, o: str, literal: bool = False) -> None:
        out.append(f'<{s}> <{p}> ' + (f'"{o}"' if literal else f"<{o}>") + " .")

    for pid, label in PROPERTIES.items():
        add(f"{ORKG}predicate/{pid}", LABEL, label, True)
    things: dict[str, str] = {}

    def thing(label: str, cls: str = "") -> str:
        if label not in things:
            things[label] = f"{ORKG}resource/R9{500 + len(things)}"
            add(things[label], LABEL, label, True)
            if cls:
                add(things[label], TYPE, f"{ORKG}class/{cls}")
        return things[label]

    n = 0
    for cid, (label, papers) in COMPARISONS.items():
        add(f"{ORKG}resource/{cid}", TYPE, f"{ORKG}class/Comparison")
        add(f"{ORKG}resource/{cid}", LABEL, label, True)
        for title, year, field, problem, values in papers:
            n += 1
            paper, cont = f"{ORKG}resource/R98{n:02d}", f"{ORKG}resource/R97{n:02d}"
            add(paper, TYPE, f"{ORKG}class/Paper")
            add(paper, LABEL, title, True)
            add(paper, f"{ORKG}predicate/P29", year, True)
            add(paper, f"{ORKG}predicate/P30", thing(field, "ResearchField"))
            add(paper, f"{ORKG}predicate/P31", cont)
            add(cont, TYPE, f"{ORKG}class/Contribution")
            add(cont, LABEL, f"Contribution {n}", True)
            add(cont, f"{ORKG}predicate/P32", thing(problem, "Problem"))
            add(f"{ORKG}resource/{cid}", f"{ORKG}predicate/compareContribution", cont)
            for pid, value in values.items():
                if value.replace(".", "").isdigit():
                    add(cont, f"{ORKG}predicate/{pid}", value, True)
                else:
                    add(cont, f"{ORKG}predicate/{pid}", thing(value))
    return out


def write_comparisons(path: Path) -> Path:
    path.write_text("\n".join(triples()) + "\n", encoding="utf-8")
    return path
