"""Run every gold query on the graph and count exact reproductions of its recorded answer."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from pipeline.errors import KnowledgeGraphError
from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.parts import KnowledgeGraph
from pipeline.sparql.text import add_prefixes


@dataclass
class Coverage:
    """Exact reproductions per template (T01–T08, HQ) and the handcrafted questions the graph does not reproduce."""

    exact: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    total: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    missed: list[str] = field(default_factory=list)  # ids whose gold answer did not come back
    unsupported: list[Fact] = field(default_factory=list)  # handcrafted shapes the builder does not cover

    def share(self, templated: bool = True) -> float:
        keys = [k for k in self.total if k.startswith("T") == templated]
        total = sum(self.total[k] for k in keys)
        return sum(self.exact[k] for k in keys) / total if total else 0.0

    def lines(self) -> list[str]:
        out = [f"{k}: {self.exact[k]}/{self.total[k]} gold answers reproduced" for k in sorted(self.total)]
        templated = sum(v for k, v in self.total.items() if k.startswith("T"))
        out.append(f"templated: {sum(v for k, v in self.exact.items() if k.startswith('T'))}/{templated} "
                   f"({self.share():.2%})")
        out += [f"unsupported handcrafted shape: {f.id}: {' '.join(f.sparql.split())[:160]}"
                for f in self.unsupported]
        return out


def gold_flat(f: Fact) -> set[str]:
    if f.boolean is not None:
        return {str(f.boolean).lower()}
    return {t["value"] for row in f.rows for t in row.values()}


def measure(facts: list[Fact], kg: KnowledgeGraph) -> Coverage:
    cov = Coverage()
    for f in facts:
        cov.total[f.template] += 1
        try:
            got = set(kg.select(add_prefixes(f.sparql)).flat())
        except KnowledgeGraphError:
            got = None
        if got == gold_flat(f):
            cov.exact[f.template] += 1
        else:
            cov.missed.append(f.id)
            if f.handcrafted:
                cov.unsupported.append(f)
    return cov
