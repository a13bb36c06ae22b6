"""A plugin package adds a generator or an example store with one module and no edit to the project: docs/PLUGINS.md's
examples, installed as a distribution with a ``kgqa.plugins`` entry point on ``sys.path``, are found by name."""
from __future__ import annotations

import json
import re
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import pipeline.registry as registry
from pipeline.cli import main
from pipeline.errors import ConfigError
from pipeline.factory import build_generator, build_store
from pipeline.records import Example, Retrieved
from pipeline.settings import Settings

REPO = Path(__file__).resolve().parents[1]


def documented_plugin(n: int = 0) -> str:
    """The ``n``-th plugin module exactly as docs/PLUGINS.md shows it."""
    text = (REPO / "docs" / "PLUGINS.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)[n]


def install(site: Path, name: str, module: str, source: str) -> None:
    """What ``pip install`` leaves in site-packages: the module and its dist-info with the entry point."""
    (site / f"{module}.py").write_text(source, encoding="utf-8")
    info = site / f"{name.replace('-', '_')}-0.1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(f"[kgqa.plugins]\n{module} = {module}\n", encoding="utf-8")


@pytest.fixture
def site(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A fresh site folder on sys.path, and a registry that loads its plugins again (restored afterwards)."""
    registry.generator_names()
    generators, kgs, stores = dict(registry._GENERATORS), dict(registry._KGS), dict(registry._STORES)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(registry, "_loaded", type(registry._loaded)())
    yield tmp_path
    for table, saved in ((registry._GENERATORS, generators), (registry._KGS, kgs), (registry._STORES, stores)):
        table.clear()
        table.update(saved)  # type: ignore[arg-type]
    for module in [m for m in sys.modules if m.startswith("kgqa_")]:
        del sys.modules[module]


def test_the_documented_plugin_is_under_sixty_lines_and_is_used_by_name(site: Path) -> None:
    source = documented_plugin()
    assert len(source.splitlines()) < 60
    with pytest.raises(ConfigError, match="unknown generator 'shout:3'"):
        build_generator(Settings(), "shout:3")  # not installed yet (the registry has loaded what there is)
    registry._loaded.clear()
    install(site, "kgqa-shout", "kgqa_shout", source)
    shout = build_generator(Settings(), "shout:3")
    nearest = Retrieved(Example("1", "Which papers use SQuAD?", "SELECT ?p WHERE { ?p ?x ?y }"), 0.9)
    made = shout.generate("Which papers are there?", [nearest])
    assert made.sparql == "SELECT ?paper WHERE { ?paper a orkgc:Paper } LIMIT 3" and made.generator == "shout"
    assert "Which papers use SQuAD?" in made.explanation and "shout:N" in registry.generator_names()


def test_a_plugin_that_cannot_be_imported_is_a_one_line_error_naming_it(site: Path) -> None:
    install(site, "kgqa-broken", "kgqa_broken", "raise RuntimeError('missing its server library')\n")
    with pytest.raises(ConfigError, match=r"^the kgqa plugin 'kgqa_broken' \(kgqa_broken\) cannot be loaded: "
                                          r"RuntimeError: missing its server library$"):
        build_generator(Settings(), "adapter")


def test_the_documented_store_plugin_is_what_kgqa_lookup_searches(site: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("KGQA_HOME", str(home))
    monkeypatch.setenv("KGQA_STORE", "pairs-file")
    monkeypatch.setenv("KGQA_RETRIEVAL", "plain")
    with pytest.raises(ConfigError, match="unknown store 'pairs-file' \\(KGQA_STORE\\); choose one of chroma-server, "
                                          "chroma$"):
        build_store(Settings(store="pairs-file"))
    registry._loaded.clear()
    install(site, "kgqa-pairs", "kgqa_pairs", documented_plugin(1))
    stored = build_store(Settings(home=home, store="pairs-file"))
    stored.add([Example("P1", "Which model is best on SQuAD 1.1?", "SELECT ?m WHERE { ?m ?p ?o }", "T05", "team"),
                Example("P2", "List the papers about knowledge graphs", "SELECT ?p WHERE { ?p ?x ?y }")])
    assert main(["lookup", "best model on SQuAD", "-k", "1", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert [(f["id"], f["source"], f["template_id"]) for f in found] == [("P1", "team", "T05")]
    assert "pairs-file" in registry.store_names()
