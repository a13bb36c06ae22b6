"""The GGUF check before a load: a missing, non-GGUF or truncated file, or one too large for memory, is one line."""
from __future__ import annotations

import struct
from pathlib import Path

import pytest

from pipeline.errors import ModelUnavailable
from pipeline.generators.gguf import MB, check_fits, read_model


def _text(s: str) -> bytes:
    return struct.pack("<Q", len(s)) + s.encode()


def write_gguf(path: Path, elements: int = 1024, cut: int = 0) -> int:
    """A tiny GGUF v3 file: the keys a model's KV cache is sized from and one F32 tensor; ``cut`` bytes removed."""
    keys = [("general.architecture", 8, _text("llama")), ("llama.block_count", 4, struct.pack("<I", 2)),
            ("llama.embedding_length", 4, struct.pack("<I", 64)),
            ("llama.attention.head_count", 4, struct.pack("<I", 4)),
            ("tokenizer.ggml.scores", 9, struct.pack("<IQ", 6, 3) + struct.pack("<3f", 0, 1, 2))]
    head = b"GGUF" + struct.pack("<IQQ", 3, 1, len(keys))
    head += b"".join(_text(k) + struct.pack("<I", t) + v for k, t, v in keys)
    head += _text("w") + struct.pack("<I", 1) + struct.pack("<Q", elements) + struct.pack("<IQ", 0, 0)
    head += b"\0" * (-len(head) % 32)
    data = head + b"\1" * (4 * elements)
    path.write_bytes(data[:len(data) - cut])
    return len(data)


def test_a_whole_file_is_read_with_what_sizes_its_kv_cache(tmp_path: Path) -> None:
    size = write_gguf(tmp_path / "m.gguf")
    model = read_model(tmp_path / "m.gguf")
    assert (model.size, model.architecture, model.layers, model.kv_width) == (size, "llama", 2, 64)
    assert model.kv_bytes(100) == 2 * 2 * 100 * 64 * 2


@pytest.mark.parametrize("make, says", [
    (lambda p: None, "no such file"),
    (lambda p: p.write_text("<html>not found</html>"), "not a GGUF model file"),
    (lambda p: p.write_bytes(b"GGUF" + struct.pack("<I", 3)), "broken or truncated GGUF header"),
    (lambda p: write_gguf(p, cut=100), "truncated"),
], ids=["missing", "html", "header-cut", "data-cut"])
def test_a_bad_file_is_one_line_naming_it(tmp_path: Path, make: object, says: str) -> None:
    path = tmp_path / "m.gguf"
    make(path)  # type: ignore[operator]
    with pytest.raises(ModelUnavailable, match=says) as caught:
        read_model(path)
    assert "\n" not in str(caught.value) and "KGQA_LOCAL_MODEL=" in str(caught.value)


def test_a_model_too_large_for_memory_is_refused_before_loading(tmp_path: Path) -> None:
    write_gguf(tmp_path / "m.gguf")
    model = read_model(tmp_path / "m.gguf")
    check_fits(model, 4096, 1, 10_000 * MB)
    check_fits(model, 4096, 1, None)  # nowhere to read free memory from: not refused
    with pytest.raises(ModelUnavailable, match=r"needs about 258 MB of memory .* 100 MB are free"):
        check_fits(model, 4096, 1, 100 * MB)
