"""What the stand-in TGI server says: prompt parsing, the recorded Vicuna-13B outputs, and stop/length handling.

Kept apart from the HTTP code in ``tgi.py`` so each stays short. Nothing here touches the network.
"""

from __future__ import annotations

import functools
import json
import os
import re
from dataclasses import dataclass
from pathlib import Path

# The seed's shot folders and the number of examples their prompts held ("few_shot" is the paper's 5-shot run).
SHOT_FOLDERS = {"one_shot": 1, "three_shot": 3, "few_shot": 5}
FALLBACK_SHOTS = 3

GARBAGE_TEXT = (
    "The knowledge graph is a vast meadow of papers; benchmarks graze quietly while the metrics watch the sunset "
    "over the leaderboard, and nobody remembers which model came first."
)
REFUSAL_TEMPLATE = (
    "I cannot generate a SPARQL query for this question because the examples do not cover the entities or "
    "properties needed to answer: {question}"
)
NO_EXAMPLES_REFUSAL = "I cannot generate a SPARQL query because no examples were provided."

_QUESTION = re.compile(r"Question:")
_SPARQL = re.compile(r"Sparql:", re.IGNORECASE)
_LITERAL_NEWLINES = re.compile(r"(?:\\n\s*)+$")  # a literal backslash-n left at the end of a flattened line


def default_seed_dir() -> Path:
    """``$SEED_DIR``, else ``../shared/seed-paper-outputs`` beside the repository."""
    env = os.environ.get("SEED_DIR")
    if env:
        return Path(env)
    return Path(__file__).resolve().parents[2] / ".." / "shared" / "seed-paper-outputs"


def normalise(text: str) -> str:
    """Collapse whitespace and case, the key recorded questions are matched by."""
    return " ".join(text.split()).casefold()


def flatten(text: str) -> str:
    """One line, single blanks: how the example SPARQL sits in the paper's prompt."""
    return " ".join(_LITERAL_NEWLINES.sub("", text.strip()).split())


@dataclass(frozen=True)
class Prompt:
    """The parts of a few-shot prompt the server cares about."""

    asked: str  # the last ``Question:`` text, flattened; "" when the prompt has none
    examples: tuple[tuple[str, str], ...]  # (question, SPARQL) pairs before it, flattened

    @property
    def shots(self) -> int:
        return len(self.examples)


def parse_prompt(text: str) -> Prompt:
    """Split on ``Question:``; each part's question runs up to ``Sparql:`` and its SPARQL to the next part."""
    parts = _QUESTION.split(text)[1:]
    if not parts:
        return Prompt(asked="", examples=())
    pairs = []
    for part in parts:
        pieces = _SPARQL.split(part, maxsplit=1)
        if len(pieces) == 2:
            pairs.append((flatten(pieces[0]), flatten(pieces[1])))
        else:  # no "Sparql:" cue after it: the question is the rest of its line
            pairs.append((flatten(part.strip().split("\n", 1)[0]), ""))
    return Prompt(asked=pairs[-1][0], examples=tuple(pairs[:-1]))


@dataclass(frozen=True)
class Recorded:
    """The seed's generated SPARQL, by shot count and normalised question text."""

    by_shots: dict[int, dict[str, str]]

    def lookup(self, question: str, shots: int) -> str | None:
        key = normalise(question)
        for n in (shots, FALLBACK_SHOTS):
            found = self.by_shots.get(n, {}).get(key)
            if found is not None:
                return found
        return None

    def answer(self, prompt: Prompt) -> str:
        """The recorded output; else, like a model copying its closest example, the first example's SPARQL."""
        found = self.lookup(prompt.asked, prompt.shots)
        if found is not None:
            return found
        if prompt.examples:
            return prompt.examples[0][1]
        return NO_EXAMPLES_REFUSAL


@functools.lru_cache(maxsize=4)
def load_recorded(seed_dir: Path) -> Recorded:
    """Read ``{dev,test}/*top_n_similar_questions*.json`` (id → question) and every shot folder's SPARQL file."""
    questions: dict[str, str] = {}
    for path in sorted(seed_dir.glob("*/*top_n_similar_questions*.json")):
        questions.update({row["id"]: row["question"] for row in json.loads(path.read_text(encoding="utf-8"))})
    if not questions:
        raise FileNotFoundError(f"no seed outputs under {seed_dir} (expected dev/ and test/); set SEED_DIR")
    by_shots: dict[int, dict[str, str]] = {}
    for folder, shots in SHOT_FOLDERS.items():
        index = by_shots.setdefault(shots, {})
        for path in sorted(seed_dir.glob(f"*/{folder}/*sparql*.json")):
            for row in json.loads(path.read_text(encoding="utf-8")):
                if row["id"] in questions:
                    index[normalise(questions[row["id"]])] = row["sparql"]
    return Recorded(by_shots)


@dataclass(frozen=True)
class Finished:
    """Generated text after stop sequences and the token budget, split into whitespace-word tokens."""

    text: str
    tokens: tuple[str, ...]
    finish_reason: str  # TGI's names: "eos_token", "stop_sequence", "length"


def split_tokens(text: str) -> list[str]:
    """Words with their leading whitespace, so that ``"".join(tokens) == text``."""
    tokens = re.findall(r"\s*\S+", text)
    rest = text[len("".join(tokens)) :]
    return tokens + [rest] if rest else tokens


def finish(text: str, stop: list[str], max_new_tokens: int | None) -> Finished:
    """Cut at the earliest stop sequence (kept, as TGI keeps it), then at ``max_new_tokens`` words."""
    reason = "eos_token"
    cuts = [text.index(s) + len(s) for s in stop if s and s in text]
    if cuts:
        text, reason = text[: min(cuts)], "stop_sequence"
    tokens = split_tokens(text)
    if max_new_tokens is not None and len(tokens) > max_new_tokens:
        tokens, reason = tokens[: max(max_new_tokens, 0)], "length"
        text = "".join(tokens)
    return Finished(text=text, tokens=tuple(tokens), finish_reason=reason)
