"""The docs stay true: every command block of README.md and docs/ (and of the evaluation sets' notes in
tests/data/eval/) that needs no server runs as written (and exits 0), every relative link resolves, every setting is
in docs/configuration.md, docs/layout.md names every package and no other, and the README stays short.

A command block is a fenced block whose info string starts with ``bash`` (or ``sh``, ``shell``); words after it say
what the block needs, and a block with any of them is not run here: ``setup`` (installs: the two set-up commands),
``server`` (Slack, a GPU server, Virtuoso, Redis or the network), ``model`` (a real language model on this machine:
a download, minutes a question), ``slow`` (minutes or more). Blocks run with ``kgqa`` on the PATH, the session's
example store as ``KGQA_HOME``, SciQA and the seed outputs as ``SCIQA_DIR``/``SEED_DIR``, the live ORKG endpoint
pointed at a closed loopback port (``--kg auto`` falls back to the graph rebuilt from SciQA, as it does offline),
in a scratch folder that links the repository's files, so that what a block writes stays out of the checkout."""
from __future__ import annotations

import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from pipeline.settings import variables

REPO = Path(__file__).resolve().parents[1]
DOCS = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md")), *sorted((REPO / "tests" / "data").rglob("*.md"))]
SHELLS = {"bash", "sh", "shell"}
MARKERS = {"setup", "server", "model", "slow"}
NEWCOMER = [REPO / "README.md", *(REPO / "docs" / f"{name}.md" for name in
                                  ("answering", "cli", "configuration", "deployment", "layout", "llm", "mcp"))]
# Files other branches of issue 37 write; a link to one is allowed while it is absent, and checked once it is there.
FENCE = re.compile(r"^(`{3,})(.*)$")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
PACKAGE_ROOTS = ("pipeline", "bot", "standins")  # the three packages docs/layout.md maps
FOLDER = re.compile(r"`([A-Za-z_][\w.-]*(?:/[\w.-]+)*)/`")  # `pipeline/state/limits/`: a folder, from the root


@dataclass(frozen=True)
class Block:
    path: Path
    line: int
    words: tuple[str, ...]
    text: str

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(REPO)}:{self.line}"


def fenced(path: Path) -> tuple[list[Block], str]:
    """The fenced blocks of a markdown file, and its text with them blanked out (links are read outside them)."""
    blocks: list[Block] = []
    prose: list[str] = []
    opened: tuple[str, int, tuple[str, ...]] | None = None
    body: list[str] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        fence = FENCE.match(line)
        if opened is None and fence:
            opened, body = (fence.group(1), number, tuple(fence.group(2).split())), []
        elif opened is not None and line.strip() == opened[0]:
            blocks.append(Block(path, opened[1], opened[2], "\n".join(body) + "\n"))
            opened = None
        elif opened is not None:
            body.append(line)
        else:
            prose.append(line)
    assert opened is None, f"{path.relative_to(REPO)}:{opened[1]}: a fence is never closed"
    return blocks, "\n".join(prose)


def command_blocks() -> list[Block]:
    return [b for path in DOCS for b in fenced(path)[0] if b.words and b.words[0] in SHELLS]


def runnable() -> list[Block]:
    return [b for b in command_blocks() if not set(b.words[1:]) & MARKERS]


def test_the_reader_sees_a_fenced_block_its_info_string_and_links_outside_code(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("See [a](a.md).\n```bash server\nkgqa mcp --http\n```\n```\n[b](b.md)\n```\n", encoding="utf-8")
    blocks, prose = fenced(page)
    assert [(b.line, b.words, b.text) for b in blocks] == [(2, ("bash", "server"), "kgqa mcp --http\n"),
                                                          (5, (), "[b](b.md)\n")]
    assert LINK.findall(prose) == ["a.md"]


def test_every_command_block_is_marked_only_with_known_needs() -> None:
    unknown = [f"{b.where}: {' '.join(b.words)}" for b in command_blocks() if not set(b.words[1:]) <= MARKERS]
    assert not unknown, f"mark a block with one of {sorted(MARKERS)} (tests/test_docs.py says what each means)"
    assert len(runnable()) >= 5  # the README's first question and its neighbours run here


@pytest.fixture(scope="module")
def shell(tmp_path_factory: pytest.TempPathFactory, train_settings: Any, train_store: Any, sciqa_dir: Path,
          seed_dir: Path) -> tuple[Path, dict[str, str]]:
    """Where and with what environment a block runs: the session's store, no network, no developer settings."""
    work = tmp_path_factory.mktemp("docs-work")
    for entry in REPO.iterdir():
        if entry.name not in (".git", ".venv"):
            (work / entry.name).symlink_to(entry)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KGQA_", "SLACK_"))}
    env.update({"KGQA_HOME": str(train_settings.home), "SCIQA_DIR": str(sciqa_dir), "SEED_DIR": str(seed_dir),
                "KGQA_ENDPOINT": "http://127.0.0.1:9/sparql", "HF_HUB_OFFLINE": "1", "ANONYMIZED_TELEMETRY": "False",
                "PATH": os.pathsep.join((str(Path(sys.executable).parent), env.get("PATH", ""))),
                "PYTHONPATH": os.pathsep.join(p for p in (str(REPO), env.get("PYTHONPATH", "")) if p)})
    return work, env


@pytest.mark.slow
@pytest.mark.parametrize("block", runnable(), ids=lambda b: b.where)
def test_a_command_block_runs_as_written(block: Block, shell: tuple[Path, dict[str, str]]) -> None:
    work, env = shell
    try:
        done = subprocess.run(["bash", "-euo", "pipefail", "-c", block.text], cwd=work, env=env, capture_output=True,
                              text=True, timeout=300)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{block.where} ran over 300 s: mark it ```bash slow``` (or make it quicker)")
    assert done.returncode == 0, f"{block.where} exited {done.returncode}:\n{block.text}\n{done.stderr[-3000:]}"


def test_every_relative_link_resolves() -> None:
    broken = []
    for path in DOCS:
        for target in LINK.findall(fenced(path)[1]):
            if re.match(r"^[a-z][a-z0-9+.-]*:|^#", target):  # a URL or an anchor on the same page
                continue
            resolved = (path.parent / target.split("#")[0]).resolve()
            if not resolved.exists():
                broken.append(f"{path.relative_to(REPO)}: {target}")
    assert not broken


def test_every_setting_has_its_row_in_the_configuration_tables_and_every_row_is_a_setting() -> None:
    text = (REPO / "docs" / "configuration.md").read_text(encoding="utf-8")
    rows = set(re.findall(r"^\| `([A-Z][A-Z0-9_]+)` \|", text, re.MULTILINE))
    assert set(variables().values()) - rows == set(), "settings the tables lack"
    assert rows - set(variables().values()) == set(), "rows that name no setting"


def test_the_layout_names_every_package_by_its_path_and_no_folder_that_is_not_there() -> None:
    """Each package under pipeline/, bot/ and standins/ (a folder with an ``__init__.py``) is named in docs/layout.md
    by its path from the repository root, and every folder the page names is there (a name left from a package
    removed or moved, or written relative to its parent, fails)."""
    packages = {init.parent.relative_to(REPO).as_posix() for root in PACKAGE_ROOTS
                for init in (REPO / root).rglob("__init__.py") if init.parent != REPO / root}
    named = set(FOLDER.findall(fenced(REPO / "docs" / "layout.md")[1]))
    assert {"pipeline/cli", "bot/state"} <= packages  # the walk sees the packages
    assert sorted(packages - named) == [], "packages docs/layout.md leaves out"
    assert sorted(n for n in named if n.split("/")[0] in PACKAGE_ROOTS and "/" in n and n not in packages) == [], \
        "packages docs/layout.md names that do not exist"
    assert sorted(n for n in named if not (REPO / n).is_dir()) == [], "folders docs/layout.md names that are not there"


def test_the_readme_is_read_in_five_minutes_and_newcomers_type_kgqa_commands() -> None:
    assert len((REPO / "README.md").read_text(encoding="utf-8").splitlines()) <= 200
    by_path = [f"{p.relative_to(REPO)}:{n}" for p in NEWCOMER for n, line in
               enumerate(p.read_text(encoding="utf-8").splitlines(), 1) if re.search(r"python\S* scripts/", line)]
    assert not by_path, "a newcomer types `kgqa …` (pipeline/cli/tooling.py), not `python scripts/…`"
