"""Slack-style question sets, generated deterministically from SciQA's valid/test questions (never the challenge
subsets) at evaluation time: a mention in front, "hey, quick one: ... thanks!", no question mark, doubled blanks,
typos in the wording, lowercase. Written as eval FILEs (ids are SciQA ids, so gold answers come from SciQA).

    python -m pipeline.eval.variants --out DIR [--n 200] [--seed 5]   # DIR/slack.json, DIR/slack-lower.json
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

from pipeline.matching.align import slots
from pipeline.sciqa import Record, SciQA
from pipeline.settings import Settings

MENTIONS = ("<@U0KGQABOT> ", "<@U0KGQABOT>  ", "@kgqa ")
WRAPPERS = (("hey, quick one: ", " thanks!"), ("hi! ", ""), ("quick question: ", " thx"), ("", " thanks"),
            ("hey ", " please"), ("hey, quick one: ", ""), ("ok so ", " cheers"))
KEYS = "qwertyuiop asdfghjkl zxcvbnm"


def sources(sciqa: SciQA, n: int, seed: int) -> list[Record]:
    """``n`` templated valid/test questions outside the challenge subsets, picked deterministically."""
    challenge = {i for phase in ("dev", "final") for i, _ in sciqa.challenge(phase)}
    pool = [r for split in ("valid", "test") for r in sciqa.split(split)
            if not r.handcrafted and r.id not in challenge]
    pool.sort(key=lambda r: hashlib.sha256(f"{seed}:{r.id}".encode()).hexdigest())
    return sorted(pool[:n], key=lambda r: r.id)


def typo(word: str, rng: random.Random) -> str:
    """One slip of the fingers: a swap, a dropped or doubled letter, or a neighbouring key."""
    i = rng.randrange(1, len(word) - 1)
    kind = rng.choice(("swap", "drop", "double", "near"))
    if kind == "swap":
        return word[:i] + word[i + 1] + word[i] + word[i + 2:]
    if kind == "drop":
        return word[:i] + word[i + 1:]
    if kind == "double":
        return word[:i] + word[i] + word[i:]
    row = next((r for r in KEYS.split() if word[i].lower() in r), "")
    j = row.find(word[i].lower()) if row else -1
    near = row[j + 1] if 0 <= j < len(row) - 1 else (row[j - 1] if j > 0 else word[i])
    return word[:i] + near + word[i + 1:]


def slackify(record: Record, seed: int, lower_names: bool = False) -> tuple[str, list[str]]:
    """A Slack-style version of a question (and what was done to it); label spans stay intact unless lowercased."""
    rng = random.Random(hashlib.sha256(f"{seed}:{record.id}".encode()).digest())
    text = record.question
    names = [(s.start, s.end) for s in slots(text, record.sparql)]
    done: list[str] = []
    pieces, pos = [], 0  # the wording between names, and the names themselves
    for start, end in names:
        pieces += [("w", text[pos:start]), ("n", text[start:end])]
        pos = end
    pieces.append(("w", text[pos:]))
    if rng.random() < 0.5:  # typos in the wording (one or two words of four letters or more)
        words = [(k, m) for k, (kind, piece) in enumerate(pieces) if kind == "w"
                 for m in re.finditer(r"[A-Za-z]{4,}", piece)]
        for k, m in rng.sample(words, min(len(words), rng.choice((1, 1, 2)))):
            kind, piece = pieces[k]
            pieces[k] = (kind, piece[:m.start()] + typo(m.group(), rng) + piece[m.end():]) \
                if piece[m.start():m.end()] == m.group() else (kind, piece)
        done.append("typo")
    if lower_names:
        pieces = [(kind, piece.lower()) for kind, piece in pieces]
        done.append("all lowercase")
    elif rng.random() < 0.5:
        pieces = [(kind, piece.lower() if kind == "w" else piece) for kind, piece in pieces]
        done.append("lowercase wording")
    text = "".join(piece for _, piece in pieces)
    if rng.random() < 0.6:
        text = text.rstrip(" ?")
        done.append("no question mark")
    if rng.random() < 0.4:
        blanks = [m.start() for m in re.finditer(" ", text)]
        for at in sorted(rng.sample(blanks, min(len(blanks), 2)), reverse=True):
            text = text[:at] + "  " + text[at:]
        done.append("doubled blanks")
    if rng.random() < 0.45:
        before, after = rng.choice(WRAPPERS)
        text = before + text + after
        done.append("wrapped")
    if rng.random() < 0.4:
        text = rng.choice(MENTIONS) + text
        done.append("mention")
    if len(done) < 2 and "wrapped" not in done:  # at least two things differ from the original
        before, after = WRAPPERS[0]
        text = before + text + after
        done.append("wrapped")
    if len(done) < 2:
        text = MENTIONS[0] + text
        done.append("mention")
    return text, done


def build_set(sciqa: SciQA, n: int = 200, seed: int = 5, lower_names: bool = False) -> dict[str, object]:
    """An eval FILE document: ids are SciQA ids (gold answers are looked up by id)."""
    items = []
    for r in sources(sciqa, n, seed):
        text, done = slackify(r, seed, lower_names)
        items.append({"id": r.id, "question": text, "variant": done})
    about = ("Slack-style variants of SciQA valid/test questions (CC BY 4.0), generated by pipeline.eval.variants "
             f"with n={n}, seed={seed}{', names lowercased too' if lower_names else ''}; not for committing.")
    return {"about": about, "questions": items}


def set_arguments(prog: str, description: str, n: int, seed: int, argv: Sequence[str] | None) -> argparse.Namespace:
    """The command line every generated question set shares: --out DIR, --n, --seed."""
    p = argparse.ArgumentParser(prog=prog, description=description)
    p.add_argument("--out", type=Path, required=True, help="folder to write the set(s) into")
    p.add_argument("--n", type=int, default=n)
    p.add_argument("--seed", type=int, default=seed)
    return p.parse_args(argv)


def write_sets(out: Path, docs: dict[str, dict[str, object]]) -> None:
    """Write eval FILE documents as ``out/NAME`` and say how many questions each holds."""
    out.mkdir(parents=True, exist_ok=True)
    for name, doc in docs.items():
        (out / name).write_text(json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        print(f"{out / name}: {len(doc['questions'])} questions")  # type: ignore[arg-type]


def main(argv: Sequence[str] | None = None) -> int:
    args = set_arguments("python -m pipeline.eval.variants", __doc__.splitlines()[0], 200, 5, argv)
    sciqa = SciQA.from_settings(Settings.from_env())
    write_sets(args.out, {name: build_set(sciqa, args.n, args.seed, lower)
                          for name, lower in (("slack.json", False), ("slack-lower.json", True))})
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
