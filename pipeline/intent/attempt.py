"""What the composer tried for a question: the composition it wrote, or why it wrote none (the words its best pair
leaves out, a ranking asked with no metric, a metric the dataset has no scores by and the ones it has)."""
from __future__ import annotations

import re
from dataclasses import dataclass, replace

from pipeline.errors import KgqaError
from pipeline.intent.named import Name
from pipeline.names.index import squash
from pipeline.parts import KnowledgeGraph
from pipeline.records import Example, Kind
from pipeline.sparql.gate import gate
from pipeline.sparql.literal import quoted


@dataclass(frozen=True)
class Composition:
    sparql: str
    pair: Example
    names: tuple[Name, ...]
    read: tuple[tuple[str, str], ...] = ()  # (as typed, the graph's label) for each name typed with a slip


@dataclass(frozen=True)
class Attempt:
    """What composing found: the query (None when no pair fits), and the question's words the best pair that fits
    otherwise does not say (its reading would be partial: the reply names them)."""

    composition: Composition | None
    unplaced: tuple[str, ...] = ()
    unmeasured: str = ""  # a ranking asked on this dataset with no metric named: the answer depends on which
    nearest: Composition | None = None  # the best pair that fits but for the words in ``unplaced``, filled
    unscored: Name | None = None  # the metric named that ``unmeasured`` has no scores by
    measured: tuple[str, ...] = ()  # the metrics ``unmeasured`` has scores by, when read


def metrics_of(kg: KnowledgeGraph, dataset: str) -> list[str]:
    """The metrics the graph has scores of on ``dataset`` (its label), sorted; none when it cannot say."""
    query = ("SELECT DISTINCT ?metric_lbl WHERE { ?dataset rdfs:label ?dataset_lbl. FILTER(str(?dataset_lbl) = "
             f"{quoted(dataset)}) ?benchmark orkgp:HAS_DATASET ?dataset; orkgp:HAS_EVALUATION ?eval. "
             "?eval orkgp:HAS_METRIC ?metric. ?metric rdfs:label ?metric_lbl. }")
    check = gate(query, 200)
    try:
        rows = kg.select(check.fixed) if check.ok else None
    except KgqaError:
        return []
    return sorted({row["metric_lbl"]["value"] for row in rows.rows if "metric_lbl" in row}) if rows else []


def scored(got: Attempt, kg: KnowledgeGraph) -> Attempt:
    """``got``; or, where its query reads one dataset's scores by a metric the graph has none of there, no query:
    its answer would be empty for a reason the user can be told (the metrics it has are asked back)."""
    done = got.composition
    if done is None or "HAS_VALUE" not in done.sparql or re.search(r"NOT\s+EXISTS|\bMINUS\b|\bASK\b", done.sparql):
        return got
    datasets = [n for n in done.names if Kind.DATASET in n.kinds]
    metrics = [n for n in done.names if Kind.METRIC in n.kinds]
    if len(datasets) != 1 or len(metrics) != 1:
        return got
    known = metrics_of(kg, datasets[0].label)
    if not known or metrics[0].label in known:
        return got
    # the dataset's own spelling of that metric ('Top 1 Accuracy' for 'Top-1 Accuracy', 'F1' for 'F1 score')
    same = [m for m in known if squash(m) in (squash(metrics[0].label), squash(_SCORE.sub("", metrics[0].label)))]
    if len(same) == 1:
        return Attempt(replace(done, sparql=done.sparql.replace(quoted(metrics[0].label), quoted(same[0])),
                               read=done.read + ((metrics[0].label, same[0]),)))
    return Attempt(None, unmeasured=datasets[0].label, unscored=metrics[0], measured=tuple(known))


_SCORE = re.compile(r"\s+scores?$", re.I)
