"""Ablations from a run's recorded replies, replayed through the pipeline on the fixture graph: a hand-made report
of a few questions, each changed by one ablation."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from pipeline.core import Bounds, Parts, Pipeline
from pipeline.eval.ablations import ablate, changes, lines
from pipeline.factory import build_names
from pipeline.generators.adapter import AdapterGenerator
from pipeline.intent.step import IntentStep
from pipeline.kg.oxigraph import OxigraphKG
from pipeline.names.lexicon import Lexicon
from pipeline.records import Ask, Attempt, Verdict
from pipeline.settings import Settings
from pipeline.sparql.text import add_prefixes
from tests.loop.test_order import STORY, Store
from tests.matching.test_forms import T01

REPO = Path(__file__).resolve().parents[2]
RIGHT = STORY.sparql
NOTHING = RIGHT.replace("orkgp:HAS_EVALUATION", "orkgp:HAS_MODEL")  # a benchmark has no model: finds nothing
OTHER = T01.format(d="LoreQA Reading Set")  # another dataset's models


def attempt(ask: Ask, sparql: str, verdict: Verdict) -> dict[str, Any]:
    return Attempt(ask, f"reply: {sparql}", sparql, verdict, "" if verdict is Verdict.TAKEN else "why").to_json()


def question(id_: str, gold: list[str], system: list[str], **details: Any) -> dict[str, Any]:
    return {"id": id_, "question": STORY.question, "gold": gold, "system": system, **details}


def made_report(gold: list[str], other: list[str]) -> dict[str, Any]:
    return {"micro_f1": None, "questions": [
        question("right", gold, gold, outcome="answered", sparql=RIGHT, written_by="llm_first_try",
                 attempts=[attempt(Ask.PROMPT, RIGHT, Verdict.TAKEN)]),
        question("vocab", gold, other, outcome="answered", sparql=OTHER, written_by="llm_after_reprompt",
                 attempts=[attempt(Ask.PROMPT, RIGHT, Verdict.VOCABULARY),
                           attempt(Ask.VOCABULARY, OTHER, Verdict.TAKEN)]),
        question("vocab-empty", gold, other, outcome="answered", sparql=OTHER, written_by="llm_after_reprompt",
                 attempts=[attempt(Ask.PROMPT, NOTHING, Verdict.VOCABULARY),
                           attempt(Ask.VOCABULARY, OTHER, Verdict.TAKEN)]),
        question("retried", gold, gold, outcome="answered", sparql=RIGHT, written_by="llm_after_empty_retry",
                 attempts=[attempt(Ask.PROMPT, NOTHING, Verdict.TAKEN), attempt(Ask.EMPTY, RIGHT, Verdict.TAKEN)]),
        question("guarded", gold, [], outcome="declined", sparql=None, offer="", written_by="",
                 attempts=[attempt(Ask.PROMPT, RIGHT, Verdict.TAKEN)]),
    ]}


def test_each_ablation_replays_what_it_changes_and_says_what_is_not_exact(settings: Settings,
                                                                          local_kg: OxigraphKG) -> None:
    gold = local_kg.select(add_prefixes(RIGHT)).flat()  # the test's oracle: the fixture graph itself
    other = local_kg.select(add_prefixes(OTHER)).flat()
    assert gold and other and set(gold) != set(other)
    report = made_report(gold, other)
    assert [c.id for c in changes(report, "vocabulary_check_off")] == ["vocab", "vocab-empty"]
    lexicon = Lexicon.of(settings, local_kg)
    names, intent = build_names(lexicon), IntentStep(labels=lexicon.labels.available)
    pipe = Pipeline(Parts(Store(0.9), AdapterGenerator(0.5), local_kg,  # type: ignore[arg-type]
                          names=names, intent=intent),
                    Bounds(shots=3, row_cap=1000, max_question_chars=2000, workers=4))
    result = ablate(report, pipe)
    assert result["run"]["exact_question_accuracy"] == 2 / 5
    vocab = result["vocabulary_check_off"]
    assert vocab["changed"] == ["vocab", "vocab-empty"] and vocab["inexact"] == ["vocab-empty"]
    assert vocab["exact_question_accuracy"] == 3 / 5 and vocab["delta_micro_f1"] > 0
    retry = result["empty_retry_off"]
    assert retry["changed"] == ["retried"] and retry["inexact"] == [] and retry["exact_question_accuracy"] == 1 / 5
    guard = result["intent_guard_off"]
    assert guard["changed"] == ["guarded"] and guard["exact_question_accuracy"] == 3 / 5
    assert pipe.intent is intent and [type(w.generator) for w in pipe.writers] == [AdapterGenerator]  # given back
    assert "| empty_retry_off | 1 | 0 |" in "\n".join(lines(result))


def test_the_script_reads_a_report_folder_and_writes_its_figures(tmp_path: Path, train_settings: Settings,
                                                                 train_store: Any, local_kg: OxigraphKG,
                                                                 orkg_fixture_nt: Path) -> None:
    gold = local_kg.select(add_prefixes(RIGHT)).flat()
    report = {**made_report(gold, local_kg.select(add_prefixes(OTHER)).flat()),
              "config": {"kg": str(orkg_fixture_nt), "shots": 3}}
    (tmp_path / "report.json").write_text(json.dumps(report), encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(REPO), "KGQA_HOME": str(train_settings.home),
           "SCIQA_DIR": str(train_settings.sciqa_dir)}
    done = subprocess.run([sys.executable, str(REPO / "scripts" / "ablate.py"), str(tmp_path)], env=env,
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr
    written = json.loads((tmp_path / "ablations.json").read_text(encoding="utf-8"))
    assert written["empty_retry_off"]["changed"] == ["retried"] and "| the run |" in done.stdout
    missing = subprocess.run([sys.executable, str(REPO / "scripts" / "ablate.py"), str(tmp_path / "none")], env=env,
                             capture_output=True, text=True, timeout=600)
    assert missing.returncode == 2 and missing.stderr.startswith("ablate: no readable report at")


def test_with_the_guard_off_the_models_first_query_stands_where_the_guard_had_it_asked_again() -> None:
    """The query the guard declined, not the one the model wrote when told why, is what runs without the guard."""
    asked_again = question("reasked", [], [], outcome="answered", sparql=RIGHT, written_by="llm_after_guard_retry",
                           attempts=[attempt(Ask.PROMPT, OTHER, Verdict.TAKEN),
                                     attempt(Ask.DECLINED, RIGHT, Verdict.TAKEN)])
    assert [(c.id, c.sparql) for c in changes({"questions": [asked_again]}, "intent_guard_off")] == \
        [("reasked", OTHER)]
    assert changes({"questions": [asked_again]}, "empty_retry_off") == []
