"""Question sets to evaluate on: the challenge's dev/final 200, SciQA's valid/test splits, or a JSON file."""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.sciqa import SciQA, question_text

NAMED = ("dev", "final", "valid", "test")


@dataclass(frozen=True)
class EvalQuestion:
    """A question with its gold flat answer strings and SciQA template (``HQ`` for handcrafted, ``""`` unknown)."""

    id: str
    question: str
    gold: list[str]
    template_id: str = ""
    thread: tuple[str, ...] = ()  # earlier questions of the same thread, oldest first, asked before this one
    intent: str = ""  # the kind of question (a generated or new-intent set's ``intent`` or ``category``)
    gold_sparql: str = ""  # when set, the gold is this query's result on the evaluated graph (pipeline.eval.generated)
    accepted: tuple[tuple[str, ...], ...] = ()  # other flat answers that are the same answer (labels with IRIs)


def load_questions(spec: str, sciqa: SciQA | None) -> list[EvalQuestion]:
    """``dev`` | ``final`` | ``valid`` | ``test`` | a path to ``{"questions": [{"id", "question", "answer"?}]}``; a
    question with a ``gold_sparql`` and no ``answer`` gets its gold from the graph (``generated.gold.with_gold``)."""
    if spec in NAMED:
        if sciqa is None:
            raise ConfigError(f"--questions {spec} needs the SciQA data; set SCIQA_DIR")
        return _named(spec, sciqa)
    path = Path(spec)
    if not path.is_file():
        raise ConfigError(f"--questions must be one of {', '.join(NAMED)} or a JSON file; {spec} is neither")
    return _from_file(path, sciqa)


def _named(spec: str, sciqa: SciQA) -> list[EvalQuestion]:
    if spec in ("valid", "test"):
        return [EvalQuestion(r.id, r.question, list(r.flat_answer), r.template_id) for r in sciqa.split(spec)]
    gold = sciqa.challenge_gold(spec)
    return [EvalQuestion(i, q, list(gold.get(i, [])), _template(sciqa, i)) for i, q in sciqa.challenge(spec)]


def _template(sciqa: SciQA | None, qid: str) -> str:
    record = sciqa.by_id.get(qid) if sciqa is not None else None
    return record.template_id if record is not None else ""


def _from_file(path: Path, sciqa: SciQA | None) -> list[EvalQuestion]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        items: list[dict[str, Any]] = data["questions"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ConfigError(f"cannot read questions file {path}: expected {{\"questions\": [...]}} ({exc})") from exc
    out = []
    for n, item in enumerate(items):
        if not isinstance(item, dict) or "id" not in item or "question" not in item:
            raise ConfigError(f"{path}: question #{n + 1} needs an \"id\" and a \"question\"")
        qid = str(item["id"])
        thread = item.get("thread", [])
        if not isinstance(thread, list) or not all(isinstance(t, str) for t in thread):
            raise ConfigError(f"{path}: the \"thread\" of question {qid} must be a list of earlier questions")
        by_query = "gold_sparql" in item and "answer" not in item  # answered on the graph at eval time
        out.append(EvalQuestion(qid, question_text(item), [] if by_query else _gold(item, qid, sciqa, path),
                                str(item.get("template_id") or _template(sciqa, qid)), tuple(thread),
                                str(item.get("intent") or item.get("category") or ""),
                                str(item["gold_sparql"]) if by_query else ""))
    duplicates = sorted(i for i, count in Counter(q.id for q in out).items() if count > 1)
    if duplicates:
        raise ConfigError(f"{path}: duplicate question ids {', '.join(duplicates[:5])}")
    return out


def _gold(item: dict[str, Any], qid: str, sciqa: SciQA | None, path: Path) -> list[str]:
    if "answer" in item:
        return flat_strings(item["answer"], f"{path}: answer of {qid}")
    record = sciqa.by_id.get(qid) if sciqa is not None else None
    if record is None:
        where = "SciQA" if sciqa is not None else "SciQA (not loaded; set SCIQA_DIR)"
        raise ConfigError(f"{path}: question {qid} has no \"answer\" and is not in {where}")
    return list(record.flat_answer)


def flat_strings(value: Any, what: str) -> list[str]:
    """A flat answer as strings: a list of strings, or a bare boolean (an ASK answer) as ``["true"]``/``["false"]``."""
    if isinstance(value, bool):
        return [str(value).lower()]
    if not isinstance(value, list):
        raise ConfigError(f"{what} must be a list of strings, not {type(value).__name__}")
    return [str(v).lower() if isinstance(v, bool) else str(v) for v in value]


def write_set(target: Path, data: Mapping[str, Any], check: bool, stale: str) -> bool:
    """Write a question set as JSON, or with ``check`` compare it with the file committed; True when the file is
    stale (``stale`` says what to do then)."""
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if check:
        same = target.is_file() and target.read_text(encoding="utf-8") == text
        print(f"{target}: " + ("up to date" if same else stale))
        return not same
    target.write_text(text, encoding="utf-8")
    print(f"{len(data['questions'])} questions written to {target}")
    return False
