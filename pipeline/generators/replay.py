"""Replays a recorded generation file (``[{"id", "sparql", "question"?}]``), matched by question text: an item's own
``question`` when it has one (a set of questions SciQA does not hold), else the text its id has."""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

from pipeline.errors import ConfigError
from pipeline.records import Generation, Retrieved


def _key(text: str) -> str:
    return " ".join(text.lower().split())


class ReplayGenerator:
    """What a recorded system generated; ``questions`` maps the file's ids to their question texts."""

    def __init__(self, path: Path, questions: Mapping[str, str]) -> None:
        self.name = f"replay:{path}"
        try:
            items = json.loads(Path(path).read_text(encoding="utf-8"))
            recorded = {str(i["id"]): str(i.get("sparql") or "") for i in items}
            texts = {**questions, **{str(i["id"]): str(i["question"]) for i in items if i.get("question")}}
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            raise ConfigError(f"cannot read the replay file {path}: expected [{{\"id\", \"sparql\"}}]") from exc
        self.by_question = {_key(texts[i]): q for i, q in recorded.items() if i in texts}

    def ping(self, timeout: float = 2.0) -> bool:
        """Nothing to reach."""
        return True

    def generate(self, question: str, examples: Sequence[Retrieved]) -> Generation:
        sparql = self.by_question.get(_key(question))
        if sparql is None:
            return Generation(self.name, None, explanation="the recording has no query for this question")
        return Generation(self.name, sparql or None, raw=sparql,
                          explanation="" if sparql else "the recorded system wrote no query")
