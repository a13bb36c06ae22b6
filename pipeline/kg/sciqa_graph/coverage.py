"""Run every gold query on the graph and count exact reproductions of its recorded answer, per split and shape, with
the reason for each one that is not reproduced."""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field

from pipeline.errors import KnowledgeGraphError
from pipeline.kg.sciqa_graph.facts import Fact
from pipeline.parts import KnowledgeGraph
from pipeline.sparql.dialect import normalise
from pipeline.sparql.text import add_prefixes

# what a handcrafted query is made of, read from its text: one question counts under each shape it has
_SHAPES = (("comparison property (orkgp:P…)", r"orkgp:P\d"), ("compareContribution", r"compareContribution"),
           ("OPTIONAL", r"\bOPTIONAL\b"), ("UNION", r"\bUNION\b"), ("FILTER REGEX", r"\bREGEX\s*\("),
           ("FILTER on a number", r"FILTER\s*\([^)]*[<>=]\s*\d"), ("aggregate", r"\b(COUNT|AVG|MAX|MIN|SUM)\s*\("),
           ("ORDER BY + LIMIT", r"ORDER\s+BY[^}]*LIMIT"), ("subquery", r"\{\s*SELECT\b"), ("BIND", r"\bBIND\s*\("),
           ("cast", r"xsd:(int|integer|float|double|decimal|dateTime)\s*\("), ("ASK", r"^\s*ASK\b"))
_NUMBER = re.compile(r"-?\d+(\.\d+)?(e-?\d+)?")


@dataclass
class Coverage:
    """Exact reproductions per template (T01–T08, HQ), per split and handcrafted shape, and why the others miss."""

    exact: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    total: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    missed: list[str] = field(default_factory=list)  # ids whose gold answer did not come back
    unsupported: list[Fact] = field(default_factory=list)  # handcrafted questions the graph does not reproduce
    why: dict[str, str] = field(default_factory=dict)  # id -> why its answer did not come back
    by_split: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))  # "test HQ" -> held, n
    by_shape: dict[str, list[int]] = field(default_factory=lambda: defaultdict(lambda: [0, 0]))

    def share(self, templated: bool = True) -> float:
        keys = [k for k in self.total if k.startswith("T") == templated]
        total = sum(self.total[k] for k in keys)
        return sum(self.exact[k] for k in keys) / total if total else 0.0

    def lines(self) -> list[str]:
        out = [f"{k}: {self.exact[k]}/{self.total[k]} gold answers reproduced" for k in sorted(self.total)]
        templated = sum(v for k, v in self.total.items() if k.startswith("T"))
        out.append(f"templated: {sum(v for k, v in self.exact.items() if k.startswith('T'))}/{templated} "
                   f"({self.share():.2%})")
        out += [f"{key}: {held}/{n}" for key, (held, n) in sorted(self.by_split.items())]
        out += [f"handcrafted with {key}: {held}/{n}" for key, (held, n) in sorted(self.by_shape.items())]
        out += [f"unsupported handcrafted shape: {f.id}: {self.why[f.id]}: {' '.join(f.sparql.split())[:120]}"
                for f in self.unsupported]
        return out


def gold_flat(f: Fact) -> set[str]:
    if f.boolean is not None:
        return {str(f.boolean).lower()}
    return {t["value"] for row in f.rows for t in row.values()}


def shapes(sparql: str) -> list[str]:
    return [name for name, pattern in _SHAPES if re.search(pattern, sparql, re.I | re.S)]


def why_not(gold: set[str], got: set[str] | None, error: str) -> str:
    """Why a recorded answer did not come back, in words."""
    if got is None:
        return f"does not run here ({error})"
    if not gold:
        return f"its recorded answer is empty (the 2023 ORKG gave nothing); here it gives {len(got)} value(s)"
    if len(got) == len(gold) and all(_NUMBER.fullmatch(v) for v in gold | got) and \
            sorted(float(v) for v in got) == sorted(float(v) for v in gold):
        return (f"the same number written otherwise by this engine ({', '.join(sorted(got))} for "
                f"{', '.join(sorted(gold))})")
    return (f"no reading of the query backwards gives its answer on this graph ({len(gold & got)} of {len(gold)} "
            f"recorded values, {len(got - gold)} others)")


def measure(facts: list[Fact], kg: KnowledgeGraph) -> Coverage:
    cov = Coverage()
    for f in facts:
        cov.total[f.template] += 1
        error = ""
        try:
            got: set[str] | None = set(kg.select(add_prefixes(normalise(f.sparql).query)).flat())
        except KnowledgeGraphError as exc:
            got, error = None, str(exc).splitlines()[0][:100]
        held = got == gold_flat(f)
        kind = "HQ" if f.handcrafted else "templated"
        for bucket in [cov.by_split[f"{f.split} {kind}".strip()]] + \
                ([cov.by_shape[s] for s in shapes(f.sparql)] if f.handcrafted else []):
            bucket[0] += held
            bucket[1] += 1
        if held:
            cov.exact[f.template] += 1
            continue
        cov.missed.append(f.id)
        cov.why[f.id] = why_not(gold_flat(f), got, error)
        if f.handcrafted:
            cov.unsupported.append(f)
    return cov
