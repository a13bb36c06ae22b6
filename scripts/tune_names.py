"""Calibrate the name resolver's threshold and margin on a loose-name set (pipeline.eval.loose) over the snapshot's
labels: for each (threshold, margin), how many loosened names resolve to the graph's label (right), to another label
(wrong), or are asked about / unknown; and, leaving each gold label out of the index, how often a correctly typed
name the graph lacks is wrongly replaced by another label (false substitutions).

    python scripts/tune_names.py --seed 1
"""
from __future__ import annotations

import argparse

import pipeline.names.index as names
from pipeline.eval.loose import loosen, sources
from pipeline.kg.snapshot import SnapshotKG
from pipeline.matching.align import slots
from pipeline.names.index import LabelIndex, kind_of
from pipeline.sciqa import SciQA
from pipeline.settings import Settings
from pipeline.sparql.shape import read


def cases(sciqa: SciQA, n: int, seed: int) -> list[tuple[str, str, str]]:
    """(typed, graph label, kind) for the loosened name of each question."""
    out = []
    for r in sources(sciqa, n, seed):
        made = loosen(r, seed)
        if made is None:
            continue
        _, _, name, typed = made
        shape = read(r.sparql)
        slot = next(s for s in slots(r.question, r.sparql) if r.question[s.start:s.end] == name)
        kind = kind_of(shape.kind_of_literal(slot.literal))
        if kind:
            out.append((typed, slot.literal, kind))
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--n", type=int, default=200)
    args = p.parse_args()
    sciqa = SciQA.from_settings(Settings.from_env())
    pairs = list(SnapshotKG(sciqa.all()).label_pairs())
    tests = cases(sciqa, args.n, args.seed)
    print(f"{len(tests)} loosened names (seed {args.seed}); {len(pairs)} labels")
    print("threshold margin  right wrong asked  false-subst (leave-one-out)")
    for threshold in (70.0, 75.0, 80.0, 85.0, 90.0):
        for margin in (0.0, 2.0, 4.0, 6.0):
            names.MARGIN = margin
            index = LabelIndex(pairs, threshold)
            right = wrong = asked = 0
            for typed, label, kind in tests:
                r = index.find(typed, kind)
                right += r.chosen == label
                wrong += r.chosen is not None and r.chosen != label
                asked += r.chosen is None
            false = 0
            for _, label, kind in tests:
                without = LabelIndex([(lab, k) for lab, k in pairs if lab != label], threshold)
                false += without.find(label, kind).chosen is not None
            print(f"{threshold:9.0f} {margin:6.0f} {right:6d} {wrong:5d} {asked:5d}  {false:5d} of {len(tests)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
