"""The model filling a reading the rules read in part (pipeline.intent.choose): over the small comparison graph
(standins), the readings it may mean are shown as sentences, and the model (the TGI stand-in, through the CLI) may
only copy one or write "none of these" — a JSON schema on the wire. What it copies is compiled and answers; "none",
or a reply that is not the JSON asked for, answers nothing from a reading."""
from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from pipeline.cli import main
from pipeline.intent.choose import NONE, TASK, picked, readings, schema, written
from pipeline.intent.comparison_reader import read_comparison
from pipeline.intent.comparisons import read_comparisons
from pipeline.kg.oxigraph import OxigraphKG
from standins.comparison_fixture import write_comparisons

PARTIAL = "which green roof paper performed the best?"  # 'best' by what: the rules do not guess


def copying(fragment: str) -> Callable[[str], str | None]:
    """A model that copies the reading holding ``fragment`` ("none of these" when none does)."""
    def respond(prompt: str) -> str | None:
        if TASK not in prompt:
            return None  # asked something else: the stand-in's usual answer
        listed = re.findall(r"^- (.*)$", prompt, re.M)
        return json.dumps({"same_as": next((r for r in listed if fragment in r), NONE)})
    return respond


def test_the_readings_shown_are_whole_and_only_of_what_the_comparison_carries(tmp_path: Path) -> None:
    kg = OxigraphKG(write_comparisons(tmp_path / "g.nt"), row_cap=1000)
    facts = read_comparisons(kg)
    assert facts is not None
    reading = read_comparison(PARTIAL, facts, kg)
    assert reading is not None and not reading.whole and reading.scope is not None
    shown = readings(reading, facts)
    assert shown and all(r.whole and r.writer == "model" and r.scope == reading.scope for r in shown)
    said = {written(r) for r in shown}
    assert "It asks for the papers with the highest 'Energy saving'." in said
    assert not any("Tree species" in s for s in said)  # the other comparison's property is no reading of this one
    assert not any("highest 'Roof material'" in s for s in said)  # no number: no highest
    enum = schema(shown)["properties"]["same_as"]["enum"]  # type: ignore[index]
    assert enum[-1] == NONE and len(enum) == len(said) + 1
    assert picked('{"same_as": "It asks for the papers with the highest \'Energy saving\'."}', shown) is not None
    for reply in ('{"same_as": "none of these"}', '{"same_as": "the best paper"}', "1", ""):
        assert picked(reply, shown) is None, reply


def _ask(tmp_path: Path, env: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tgi: Any,
         question: str) -> dict[str, Any]:
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_LLM_READER", "true")
    monkeypatch.setenv("KGQA_LLM_PICK", "true")
    monkeypatch.setenv("KGQA_LLM_ORDER", "llm-first")
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    graph = write_comparisons(tmp_path / "cmp.nt")
    assert main(["ask", "--generator", "tgi", "--kg", str(graph), "--json", question]) == 0
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    return out


def test_the_reading_the_model_copies_is_compiled_and_answers(
        tmp_path: Path, env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = copying("papers with the highest 'Energy saving'")
    out = _ask(tmp_path, env, monkeypatch, capsys, tgi, PARTIAL)
    # the paper, and the value it was ranked by beside it (as every ranking of a comparison shows it)
    assert out["outcome"] == "answered" and out["flat_answer"] == ["Cool roofs for schools", "18 %"]
    record = out["reading_record"]
    assert record["whole"] and record["writer"] == "model" and record["by"] == "orkgp:P9006"
    assert out["reading"] == record["said"]
    schemas = [body.get("parameters", {}).get("grammar") for _, body in tgi.requests if body]
    assert schemas and schemas[0]["type"] == "json"  # held to the schema on the wire


def test_none_of_these_answers_nothing_from_a_reading(
        tmp_path: Path, env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = copying("no such reading")
    out = _ask(tmp_path, env, monkeypatch, capsys, tgi, PARTIAL)
    assert "Cool roofs for schools" not in (out["flat_answer"] or [])
    assert (out.get("reading_record") or {}).get("writer") != "model"


def test_off_by_default_the_model_is_not_asked_to_pick(
        tmp_path: Path, env: Path, tgi: Any, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    tgi.respond = copying("papers with the highest 'Energy saving'")
    monkeypatch.delenv("KGQA_LLM_PICK", raising=False)
    monkeypatch.setenv("KGQA_TGI_URL", tgi.url)
    monkeypatch.setenv("KGQA_LLM_ORDER", "llm-first")
    monkeypatch.setenv("KGQA_LLM_FALLBACK", "none")
    graph = write_comparisons(tmp_path / "cmp.nt")
    assert main(["ask", "--generator", "tgi", "--kg", str(graph), "--json", PARTIAL]) == 0
    out = json.loads(capsys.readouterr().out)
    assert not any(TASK in str(body) for _, body in tgi.requests)
    assert (out.get("reading_record") or {}).get("writer") != "model"
