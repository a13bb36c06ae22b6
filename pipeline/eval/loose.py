"""Loose-name question sets, generated deterministically from SciQA's valid/test questions outside both challenge
subsets: one name in each question typed the way people type it in Slack (other case, blanks, hyphens, version
spacing, one swapped letter, a dropped word). Written as eval FILEs (ids are SciQA ids; gold answers from SciQA).

    python -m pipeline.eval.loose --out DIR [--n 200] [--seed 1]   # DIR/loose-seed1.json
"""
from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Callable, Sequence

from pipeline.eval.variants import set_arguments, sources, write_sets
from pipeline.matching.align import slots
from pipeline.sciqa import Record, SciQA
from pipeline.settings import Settings


def _case(name: str, rng: random.Random) -> str:
    return rng.choice((name.lower(), name.upper(), name.title()))


def _blanks(name: str, rng: random.Random) -> str:
    gaps = [m.start() for m in re.finditer(r" ", name)]
    if gaps and rng.random() < 0.5:
        at = rng.choice(gaps)
        return name[:at] + name[at + 1:]
    joints = [m.end() for m in re.finditer(r"[A-Za-z](?=\d)|[a-z](?=[A-Z])", name)]
    at = rng.choice(joints) if joints else 0
    return name[:at] + " " + name[at:] if at else name


def _hyphens(name: str, rng: random.Random) -> str:
    if "-" in name:
        return name.replace("-", rng.choice((" ", "")), 1)
    gaps = [m.start() for m in re.finditer(r" ", name)]
    if not gaps:
        return name
    at = rng.choice(gaps)
    return name[:at] + "-" + name[at + 1:]


def _version(name: str, rng: random.Random) -> str:
    m = re.search(r"(?<=[A-Za-z])(\d+(?:\.\d+)*)\b", name)
    if m:
        return name[:m.start()] + " " + name[m.start():]
    m = re.search(r"(?<=[A-Za-z]) (\d+(?:\.\d+)*)\b", name)
    return name[:m.start()] + name[m.start() + 1:] if m else name


def _swap(name: str, rng: random.Random) -> str:
    words = list(re.finditer(r"[A-Za-z]{4,}", name))
    if not words:
        return name
    w = rng.choice(words)
    i = rng.randrange(w.start() + 1, w.end() - 2)
    return name[:i] + name[i + 1] + name[i] + name[i + 2:]


def _drop(name: str, rng: random.Random) -> str:
    words = name.split()
    if len(words) < 3:
        return name
    k = rng.randrange(1, len(words))
    return " ".join(words[:k] + words[k + 1:])


PERTURBATIONS: dict[str, Callable[[str, random.Random], str]] = {
    "case": _case, "blanks": _blanks, "hyphens": _hyphens, "version": _version, "swap": _swap, "drop": _drop}


def loosen(record: Record, seed: int) -> tuple[str, str, str, str] | None:
    """(question with one name loosened, how, name as in the question, name as typed); None when nothing applies."""
    rng = random.Random(hashlib.sha256(f"loose:{seed}:{record.id}".encode()).digest())
    found = [s for s in slots(record.question, record.sparql) if len(s.literal) >= 3]
    if not found:
        return None
    slot = rng.choice(found)
    name = record.question[slot.start:slot.end]
    ways = list(PERTURBATIONS)
    rng.shuffle(ways)
    for how in ways:
        typed = PERTURBATIONS[how](name, rng)
        if typed != name and typed.strip():
            return record.question[:slot.start] + typed + record.question[slot.end:], how, name, typed
    return None


def build_set(sciqa: SciQA, n: int = 200, seed: int = 1) -> dict[str, object]:
    """An eval FILE document of ``n`` loose-name questions (fewer when some questions have no name to loosen)."""
    items = []
    for r in sources(sciqa, n, seed):
        made = loosen(r, seed)
        if made is not None:
            text, how, name, typed = made
            items.append({"id": r.id, "question": text, "variant": [how], "name": name, "typed": typed})
    about = ("Loose-name variants of SciQA valid/test questions outside both challenge subsets (CC BY 4.0), generated "
             f"by pipeline.eval.loose with n={n}, seed={seed}; not for committing.")
    return {"about": about, "questions": items}


def main(argv: Sequence[str] | None = None) -> int:
    args = set_arguments("python -m pipeline.eval.loose", __doc__.splitlines()[0], 200, 1, argv)
    write_sets(args.out, {f"loose-seed{args.seed}.json": build_set(SciQA.from_settings(Settings.from_env()),
                                                                   args.n, args.seed)})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
