"""SciQA: load the benchmark's splits and challenge subsets from a folder or from its public home."""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pipeline.errors import ConfigError

if TYPE_CHECKING:
    from pipeline.settings import Settings

SPLITS = ("train", "valid", "test")
HF_REPO = "orkg/SciQA"
ATTRIBUTION = "SciQA (Auer et al. 2023, CC BY 4.0)"


@dataclass(frozen=True)
class Record:
    """One SciQA question with its gold SPARQL and the answer recorded from ORKG in early 2023."""

    id: str
    question: str
    sparql: str
    template_id: str
    split: str
    answer: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)  # SPARQL-JSON results
    flat_answer: tuple[str, ...] = ()  # the challenge's flat answer strings

    @property
    def handcrafted(self) -> bool:
        return not self.template_id.startswith("T")


def question_text(item: dict[str, Any]) -> str:
    q = item.get("question", "")
    return str(q.get("string", "") if isinstance(q, dict) else q)


class SciQA:
    """The benchmark, read from a folder laid out like ``../shared/sciqa`` (``train/ valid/ test/ challenge/``)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        if not (self.root / "train" / "questions.json").is_file():
            raise ConfigError(f"no SciQA data in {self.root} (expected train/questions.json); set SCIQA_DIR")

    @classmethod
    def from_settings(cls, settings: Settings) -> SciQA:
        """SCIQA_DIR, else the download in ``settings.sciqa_cache`` (the one cache every command uses)."""
        return cls.open(settings.sciqa_dir, settings.sciqa_cache)

    @classmethod
    def open(cls, root: Path | None, cache_dir: Path) -> SciQA:
        """From a folder, or (when none is given) downloaded once from the Hugging Face dataset orkg/SciQA into
        ``cache_dir`` (``Settings.sciqa_cache``: one cache for every command)."""
        return cls(root if root is not None else download(cache_dir))

    def split(self, name: str) -> list[Record]:
        return list(self._splits[name])

    @cached_property
    def _splits(self) -> dict[str, list[Record]]:
        return {s: self._load(s) for s in SPLITS if (self.root / s / "questions.json").is_file()}

    @cached_property
    def by_id(self) -> dict[str, Record]:
        return {r.id: r for recs in self._splits.values() for r in recs}

    def all(self) -> list[Record]:
        return [r for recs in self._splits.values() for r in recs]

    def _load(self, split: str) -> list[Record]:
        folder = self.root / split
        questions = _read(folder / "questions.json")["questions"]
        answers = {a["id"]: a["answer"] for a in _read(folder / "answers.json")["answers"]} \
            if (folder / "answers.json").is_file() else {}
        flat = {a["id"]: a["answer"] for a in _read(folder / "non_sparql_answers_1.json")} \
            if (folder / "non_sparql_answers_1.json").is_file() else {}
        return [Record(q["id"], question_text(q), q["query"]["sparql"], q.get("template_id") or "HQ", split,
                       answers.get(q["id"], {}), flat_strings(flat.get(q["id"], [])))
                for q in questions]

    def challenge(self, phase: str) -> list[tuple[str, str]]:
        """(id, question) of the Scholarly QALD 2023 subsets: ``dev`` or ``final``."""
        name = {"dev": "random_test_200_questions_1.json", "final": "final_phase_sciqa_200_questions_1.json"}[phase]
        items = _read(self.root / "challenge" / name)
        return [(q["id"], question_text(q)) for q in items]

    def challenge_gold(self, phase: str) -> dict[str, list[str]]:
        """Gold flat answers: the dev subset's own file, or the final subset's ids in test/."""
        if phase == "dev":
            return {a["id"]: list(a["answer"])
                    for a in _read(self.root / "challenge" / "random_test_200_answers_1.json")}
        return {i: list(self.by_id[i].flat_answer) for i, _ in self.challenge("final")}


def flat_strings(answer: Any) -> tuple[str, ...]:
    """The flat answer form; an ASK answer (a bare boolean in SciQA's files) becomes ('true',) or ('false',)."""
    if isinstance(answer, bool):
        return (str(answer).lower(),)
    return tuple(str(a) for a in answer)


def _read(path: Path) -> Any:
    try:
        with path.open(encoding="utf-8") as fh:
            return json.load(fh)
    except (OSError, ValueError) as exc:
        raise ConfigError(f"cannot read SciQA file {path}: {exc}") from exc


def download(cache_dir: Path) -> Path:
    """Fetch the dataset's files from the Hugging Face hub (needs network once; cached after)."""
    try:
        from huggingface_hub import snapshot_download

        path = snapshot_download(HF_REPO, repo_type="dataset", cache_dir=str(cache_dir))
    except Exception as exc:
        raise ConfigError(f"SciQA is not available offline and could not be downloaded from {HF_REPO}: "
                          f"{type(exc).__name__}; set SCIQA_DIR to a local copy") from exc
    root = Path(path)
    candidates = [p.parent.parent for p in root.rglob("train/questions.json")]
    if not candidates:
        raise ConfigError(f"the {HF_REPO} download has no train/questions.json")
    return candidates[0]


@lru_cache(maxsize=4)
def sciqa_at(root: Path | None, cache: Path) -> SciQA:
    """SciQA from ``root`` (else downloaded to ``cache``), opened once per process."""
    return SciQA.open(root, cache)


def sciqa_for(settings: Settings) -> SciQA:
    """SciQA where the settings say: SCIQA_DIR, else the download cache under $KGQA_HOME."""
    return sciqa_at(settings.sciqa_dir, settings.sciqa_cache)
