"""The encoder resolves all-MiniLM-L6-v2 offline from its package, after checking the weights."""
from __future__ import annotations

import math

import pytest

from pipeline.errors import ConfigError
from pipeline.store import encoder as enc


def test_minilm_resolves_to_the_verified_package() -> None:
    folder = enc.resolve_model("sentence-transformers/all-MiniLM-L6-v2")
    assert folder.endswith("model") and enc.sha256_file(enc.Path(folder) / "model.safetensors") == enc.MINILM_SHA256


def test_tampered_weights_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(enc, "MINILM_SHA256", "0" * 64)
    with pytest.raises(ConfigError, match="do not match"):
        enc.resolve_model("all-MiniLM-L6-v2")


def test_other_models_load_by_name_and_fail_clearly_offline() -> None:
    assert enc.resolve_model("someone/not-cached-model") == "someone/not-cached-model"
    with pytest.raises(ConfigError, match="cannot be loaded"):
        enc.torch_encoder("someone/not-cached-model", offline=True).encode(["x"])


def test_vectors_are_unit_length_and_similar_questions_are_close(encoder: enc.SentenceTransformerEncoder) -> None:
    a, b, c = encoder.encode(["Which model is best on SQuAD?", "What model performs best on SQuAD?",
                              "List the code links of papers on CIFAR-10"])
    assert len(a) == 384 and math.isclose(sum(x * x for x in a), 1.0, rel_tol=1e-4)
    dot = lambda u, v: sum(x * y for x, y in zip(u, v))  # noqa: E731
    assert dot(a, b) > dot(a, c)


def test_the_weights_are_hashed_once_until_the_file_changes(tmp_path: enc.Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    hashed: list[enc.Path] = []
    real = enc.sha256_file
    monkeypatch.setattr(enc, "sha256_file", lambda path: hashed.append(path) or real(path))
    weights = tmp_path / "w.bin"
    weights.write_bytes(b"weights")
    for _ in range(3):
        stat = weights.stat()
        assert enc._file_sha256(str(weights), stat.st_size, stat.st_mtime_ns) == real(weights)
    weights.write_bytes(b"other weights")
    stat = weights.stat()
    assert enc._file_sha256(str(weights), stat.st_size, stat.st_mtime_ns) == real(weights) and len(hashed) == 2
