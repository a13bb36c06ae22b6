"""Follow-up question sets, generated deterministically from SciQA's valid/test questions outside both challenge
subsets: a thread's earlier question and a follow-up whose gold answer is another SciQA question's.

- same template: the earlier question and the target share their form and differ in one name; the follow-up names
  only the new one ("and on X?", "what about X?", "same for X");
- cross template: the earlier question names a dataset the target asks something else about; the follow-up refers to
  it ("which metrics are used there?", "which of them is best by M?").

    python -m pipeline.eval.followups --out DIR [--n 100] [--seed 1]   # DIR/followups-{same,cross}-seedN.json
"""
from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Sequence

from pipeline.eval.variants import set_arguments, sources, write_sets
from pipeline.matching.forms import form_of, slot_values
from pipeline.records import Example, Kind
from pipeline.sciqa import Record, SciQA
from pipeline.settings import Settings

SAME: dict[str, tuple[str, ...]] = {
    Kind.DATASET: ("and on {}?", "what about {}?", "and for the {} dataset?", "same for {}"),
    Kind.METRIC: ("what about {}?", "and by {}?", "and in terms of {}?"),
    Kind.MODEL: ("same for {}", "and for {}?", "what about {}?"),
    Kind.PROBLEM: ("and for {}?", "what about {}?"),
    Kind.RESEARCHFIELD: ("and for {}?", "what about {}?")}
CROSS = {"T01": ("which models have been evaluated there?", "can you list the models evaluated on it?",
                 "and which models were tested on that one?"),
         "T02": ("which papers include a benchmark for it?", "and the papers that benchmark it?",
                 "list the papers with a benchmark there"),
         "T03": ("which metrics are used there?", "what metrics are used to evaluate models on it?",
                 "and which metrics are used for it?"),
         "T04": ("what's the top score there, and its metric?", "and the highest result on it, with the metric?"),
         "T05": ("which model is best there by {}?", "and the top model on it in terms of {}?")}
WHICH_OF_THEM = "which of them is best by {}?"  # after a question listing models (T01)


def _example(r: Record) -> Example:
    return Example(r.id, r.question, r.sparql, r.template_id)


def _rng(seed: int, *parts: str) -> random.Random:
    return random.Random(hashlib.sha256(":".join(("followups", str(seed)) + parts).encode()).digest())


def same_template(pool: list[Record], n: int, seed: int) -> list[dict[str, object]]:
    groups: dict[tuple[str, ...], list[Record]] = defaultdict(list)
    for r in pool:
        groups[form_of(_example(r)).kinds + (r.template_id,)].append(r)
    items: list[dict[str, object]] = []
    for target in pool:
        mine = slot_values(_example(target))
        rng = _rng(seed, target.id)
        partners = []
        for other in groups[form_of(_example(target)).kinds + (target.template_id,)]:
            theirs = slot_values(_example(other))
            differ = [i for i, (a, b) in enumerate(zip(mine, theirs)) if a[0].lower() != b[0].lower()]
            if other.id != target.id and len(differ) == 1 and mine[differ[0]][1] in SAME:
                partners.append((other, differ[0]))
        if not partners:
            continue
        earlier, slot = rng.choice(sorted(partners, key=lambda p: p[0].id))
        name, kind = mine[slot]
        items.append({"id": target.id, "thread": [earlier.question], "question": rng.choice(SAME[kind]).format(name),
                      "variant": ["same", kind]})
    return items[:n]


def cross_template(pool: list[Record], n: int, seed: int) -> list[dict[str, object]]:
    by_dataset: dict[str, list[tuple[Record, list[tuple[str, str]]]]] = defaultdict(list)
    for r in pool:
        values = slot_values(_example(r))
        for literal, kind in values:
            if kind == Kind.DATASET:
                by_dataset[literal].append((r, values))
    items: list[dict[str, object]] = []
    for target in pool:
        if target.template_id not in CROSS:
            continue
        values = slot_values(_example(target))
        dataset = next((lit for lit, kind in values if kind == Kind.DATASET), None)
        metric = next((lit for lit, kind in values if kind == Kind.METRIC), "")
        earlier = [r for r, _ in by_dataset.get(dataset or "", []) if r.template_id != target.template_id]
        if dataset is None or not earlier:
            continue
        rng = _rng(seed, target.id)
        first = rng.choice(sorted(earlier, key=lambda r: r.id))
        phrasings = CROSS[target.template_id] + ((WHICH_OF_THEM,) if target.template_id == "T05"
                                                 and first.template_id == "T01" else ())
        items.append({"id": target.id, "thread": [first.question],
                      "question": rng.choice(phrasings).format(metric), "variant": ["cross", first.template_id,
                                                                                    target.template_id]})
    return items[:n]


def build_sets(sciqa: SciQA, n: int = 100, seed: int = 1) -> dict[str, dict[str, object]]:
    pool = sources(sciqa, 10_000, seed)  # every templated valid/test question outside the challenge subsets
    _rng(seed).shuffle(pool)
    about = ("Follow-ups in a thread built from SciQA valid/test questions outside both challenge subsets (CC BY 4.0) "
             f"by pipeline.eval.followups with n={n}, seed={seed}; not for committing.")
    return {"same": {"about": about, "questions": same_template(pool, n, seed)},
            "cross": {"about": about, "questions": cross_template(pool, n, seed)}}


def main(argv: Sequence[str] | None = None) -> int:
    args = set_arguments("python -m pipeline.eval.followups", __doc__.splitlines()[0], 100, 1, argv)
    sets = build_sets(SciQA.from_settings(Settings.from_env()), args.n, args.seed)
    write_sets(args.out, {f"followups-{kind}-seed{args.seed}.json": doc for kind, doc in sets.items()})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
