"""SciQA's gold queries and answers read as facts: the labels a query tests and the rows it got back."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.records import Term
from pipeline.sciqa import SPLITS

# FILTER (str(?dataset_lbl) = "X"): the label a templated query tests, by variable
_LABEL_TEST = re.compile(r'str\(\s*\?(\w+)\s*\)\s*=\s*"((?:[^"\\]|\\.)*)"')
_ESCAPES = {"t": "\t", "n": "\n", "r": "\r", "b": "\b", "f": "\f", '"': '"', "'": "'", "\\": "\\"}


@dataclass(frozen=True)
class Fact:
    """One gold query: its template, the labels it tests (variable -> label) and the rows it returned."""

    id: str
    template: str
    sparql: str
    labels: dict[str, str]
    rows: list[dict[str, Term]]
    boolean: bool | None = None
    split: str = ""

    @property
    def handcrafted(self) -> bool:
        return not self.template.startswith("T")


def unescape(body: str) -> str:
    return re.sub(r"\\(.)", lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


def label_tests(sparql: str) -> dict[str, str]:
    return {var: unescape(body) for var, body in _LABEL_TEST.findall(sparql)}


def read_facts(root: Path) -> list[Fact]:
    """Every split's gold queries with their recorded answers; a missing or damaged file is one clear error."""
    facts: list[Fact] = []
    for split in SPLITS:
        questions = _items(root / split / "questions.json", "questions")
        answers = {a["id"]: a.get("answer") or {} for a in _items(root / split / "answers.json", "answers")}
        for q in questions:
            try:
                qid, sparql = str(q["id"]), str(q["query"]["sparql"])
            except (KeyError, TypeError) as exc:
                raise ConfigError(f"damaged SciQA file {root / split / 'questions.json'}: an item lacks "
                                  f"{exc}") from exc
            answer = answers.get(qid, {})
            facts.append(Fact(qid, q.get("template_id") or "HQ", sparql, label_tests(sparql),
                              list(answer.get("results", {}).get("bindings", [])),
                              bool(answer["boolean"]) if "boolean" in answer else None, split))
    return facts


def sciqa_files(root: Path) -> list[Path]:
    """The files the graph is derived from (their bytes are its fingerprint)."""
    return [root / split / name for split in SPLITS for name in ("questions.json", "answers.json")]


def _items(path: Path, key: str) -> list[dict[str, Any]]:
    try:
        with path.open(encoding="utf-8") as fh:
            data = json.load(fh)
    except FileNotFoundError as exc:
        raise ConfigError(f"missing SciQA file {path}; set SCIQA_DIR to a complete copy") from exc
    except (OSError, ValueError) as exc:
        raise ConfigError(f"damaged SciQA file {path}: {exc}") from exc
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list) or not all(isinstance(i, dict) for i in items):
        raise ConfigError(f"damaged SciQA file {path}: expected {{\"{key}\": [...]}}")
    return items
