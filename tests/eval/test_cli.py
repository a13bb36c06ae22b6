"""``kgqa eval`` end to end: recorded answers reproduce the reference figures; a fake pipeline writes a report."""
from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

import pytest

from pipeline.errors import ConfigError
from pipeline.eval.arguments import add_eval_arguments
from pipeline.eval.cli import command_line, run_eval_command
from pipeline.eval.cli import seed_dir as find_seed_dir
from pipeline.eval.questions import load_questions
from pipeline.eval.retrieval import reference_lists
from pipeline.sciqa import SciQA
from pipeline.settings import Settings

from .fakes import FakePipeline, example


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="kgqa eval")
    add_eval_arguments(parser)
    return parser.parse_args(list(argv))


@pytest.fixture()
def settings(sciqa_dir: Path, tmp_path: Path) -> Settings:
    return Settings(home=tmp_path / "home", sciqa_dir=sciqa_dir)


def no_pipeline(**kwargs: Any) -> Any:
    raise AssertionError("no pipeline may be built to score recorded answers")


@pytest.mark.parametrize(("questions", "answers", "lines"), [
    ("final", "test/one_shot/answer_predictions.json", ("0.99171", "0.93069", "0.96023")),
    ("final", "test/three_shot/answer.json", ("0.99219", "0.98868", "0.99044")),
    ("final", "test/few_shot/answer.json", ("0.98938", "0.98868", "0.98903")),
    ("dev", "dev/three_shot/answer_predictions.json", ("0.98972", "0.95930", "0.97427")),
])
def test_recorded_answers_print_the_reference_figures(settings: Settings, seed_dir: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str], questions: str,
                                                      answers: str, lines: tuple[str, str, str]) -> None:
    args = parse("--questions", questions, "--answers", str(seed_dir / answers), "--report", str(tmp_path / "r"))
    assert run_eval_command(args, settings, no_pipeline) == 0
    out = capsys.readouterr().out.splitlines()
    assert "system answers: loaded 200 questions!" in out
    assert [f"\tPrecision: {lines[0]}", f"\tRecall: {lines[1]}", f"\tF1: {lines[2]}"] == out[3:6]
    report = json.loads((tmp_path / "r" / "report.json").read_text(encoding="utf-8"))
    assert f"{report['micro_f1']:.5f}" == lines[2] and report["n"] == 200
    assert report["template_hit_at_1"] is None and report["config"]["generator"] == "recorded"
    assert report["templated"]["n"] + report["handcrafted"]["n"] == 200 and report["handcrafted"]["n"] > 0
    assert report["config"]["command"].startswith(f"kgqa eval --questions {questions} --answers ")
    assert (tmp_path / "r" / "report.md").is_file() and (tmp_path / "r" / "f1.png").is_file()


def test_pipeline_run_on_final(settings: Settings, sciqa: SciQA, seed_dir: Path, tmp_path: Path,
                               capsys: pytest.CaptureFixture[str]) -> None:
    questions = load_questions("final", sciqa)[:20]
    lists = reference_lists(seed_dir, "final")
    assert lists is not None
    theirs: dict[str, list[str]] = lists
    ids = {q.question: q.id for q in questions}
    built: list[dict[str, Any]] = []

    def build(**kwargs: Any) -> FakePipeline:
        built.append(kwargs)
        return FakePipeline(questions, lambda n, q: "gold" if n % 4 else "snapshot",
                            examples=lambda q: [example(q.id + str(k), q.template_id, s)
                                                for k, s in enumerate(theirs[q.id])])

    args = parse("--questions", "final", "--generator", "adapter", "--kg", "snapshot", "--shots", "5",
                 "--limit", "20", "--workers", "3", "--report", str(tmp_path / "run"))
    assert run_eval_command(args, settings.with_(seed_dir=seed_dir), build) == 0
    assert built == [{"generator": "adapter", "shots": 5, "kg": "snapshot"}]
    out = capsys.readouterr().out
    assert "\tTemplate hit@1: 1.00000" in out and "\tReference overlap@5: 1.00000" in out
    report = json.loads((tmp_path / "run" / "report.json").read_text(encoding="utf-8"))
    assert report["n"] == 20 and report["not_in_snapshot"] == 5 and report["exact_question_accuracy"] == 0.75
    assert report["reference_overlap_at_5"] == 1.0 and report["template_hit_at_3"] == 1.0
    assert report["config"]["generator"] == "fake-gen" and report["config"]["shots"] == 5
    assert [q["id"] for q in report["questions"]] == [q.id for q in questions] == list(ids.values())
    assert (tmp_path / "run" / "f1.png").read_bytes()[:4] == b"\x89PNG"


def test_every_question_failing_exits_1(settings: Settings, sciqa: SciQA, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    questions = load_questions("dev", sciqa)[:3]
    args = parse("--questions", "dev", "--limit", "3")
    assert run_eval_command(args, settings, lambda **kw: FakePipeline(questions, lambda n, q: "raise")) == 1
    assert "every question failed; the first: GeneratorError: TGI is down" in capsys.readouterr().err


def test_compare(settings: Settings, seed_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name, path in (("one", "test/one_shot/answer_predictions.json"), ("three", "test/three_shot/answer.json")):
        run_eval_command(parse("--questions", "final", "--answers", str(seed_dir / path), "--report",
                               str(tmp_path / name)), settings, no_pipeline)
    capsys.readouterr()
    args = parse("--compare", str(tmp_path / "one"), str(tmp_path / "three"), "--report", str(tmp_path / "cmp"))
    assert run_eval_command(args, settings, no_pipeline) == 0
    out = capsys.readouterr().out
    assert "| | one | three |" in out and "| micro F1 | 0.96023 | 0.99044 |" in out
    assert (tmp_path / "cmp" / "compare.png").is_file()


@pytest.mark.parametrize("argv", [(), ("--questions", "final", "--workers", "0"),
                                  ("--questions", "final", "--limit", "0"), ("--questions", "nowhere.json")])
def test_errors_are_one_line(settings: Settings, argv: tuple[str, ...]) -> None:
    with pytest.raises(ConfigError) as err:
        run_eval_command(parse(*argv), settings, no_pipeline)
    assert "\n" not in str(err.value)


def test_seed_dir(sciqa_dir: Path, seed_dir: Path, tmp_path: Path) -> None:
    assert find_seed_dir(Settings(sciqa_dir=sciqa_dir, seed_dir=tmp_path)) == tmp_path
    beside = tmp_path / "data" / "seed-paper-outputs"
    beside.mkdir(parents=True)
    assert find_seed_dir(Settings(sciqa_dir=tmp_path / "data" / "sciqa")) == beside
    assert find_seed_dir(Settings(sciqa_dir=tmp_path / "sciqa")) is None
    with pytest.raises(ConfigError, match="SEED_DIR"):
        find_seed_dir(Settings(seed_dir=tmp_path / "missing"))


def test_command_line() -> None:
    args = parse("--questions", "final", "--generator", "replay:a b.json", "--shots", "3", "--report", "R")
    assert command_line(args) == "kgqa eval --questions final --generator 'replay:a b.json' --shots 3 --report R"
