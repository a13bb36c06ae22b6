"""A GGUF model file checked before llama.cpp loads it: the magic, a header that parses, every tensor's bytes inside
the file (a truncated download), and room in memory for the weights and the context's KV cache — each failure one
line, raised as ``ModelUnavailable`` so that the question falls back instead of the server dying mid-load."""
from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from pipeline.errors import ModelUnavailable

MAGIC = b"GGUF"
MB = 1 << 20
# GGUF value types: fixed sizes (the string is 8 and the array 9, read apart)
_SCALARS = {0: "B", 1: "b", 2: "H", 3: "h", 4: "I", 5: "i", 6: "f", 7: "?", 10: "Q", 11: "q", 12: "d"}
# ggml tensor types: (bytes per block, elements per block), as ggml.c's type traits; others are checked by offset only
_BLOCKS = {0: (4, 1), 1: (2, 1), 2: (18, 32), 3: (20, 32), 6: (22, 32), 7: (24, 32), 8: (34, 32), 9: (36, 32),
           10: (84, 256), 11: (110, 256), 12: (144, 256), 13: (176, 256), 14: (210, 256), 15: (292, 256), 30: (2, 1)}
MAX_ITEMS = 1 << 24  # no honest header has more keys, tensors or array items than this


@dataclass(frozen=True)
class ModelFile:
    """What the header says, and the bytes the model needs in memory besides its file."""

    path: Path
    size: int
    architecture: str
    layers: int
    kv_width: int  # per layer and token: the keys' (or values') width, n_embd / n_head * n_head_kv

    def kv_bytes(self, context: int) -> int:
        """The f16 KV cache for ``context`` tokens (keys and values)."""
        return 2 * self.layers * context * self.kv_width * 2


class _Reader:
    def __init__(self, f: BinaryIO) -> None:
        self.f = f

    def unpack(self, fmt: str) -> tuple[object, ...]:
        size = struct.calcsize("<" + fmt)
        data = self.f.read(size)
        if len(data) != size:
            raise EOFError
        return struct.unpack("<" + fmt, data)

    def number(self, fmt: str) -> int:
        value = self.unpack(fmt)[0]
        assert isinstance(value, int), fmt  # an integer format
        return value

    def text(self) -> str:
        n = self.number("Q")
        if n > MAX_ITEMS:
            raise ValueError("a string longer than any header holds")
        data = self.f.read(n)
        if len(data) != n:
            raise EOFError
        return data.decode("utf-8", "replace")

    def value(self, kind: int) -> object:
        if kind == 8:
            return self.text()
        if kind == 9:
            item, count = self.number("I"), self.number("Q")
            if count > MAX_ITEMS:
                raise ValueError("an array longer than any header holds")
            if item in _SCALARS:  # skipped, not kept (the tokenizer's arrays are large)
                self.f.seek(count * struct.calcsize("<" + _SCALARS[item]), 1)
                return None
            return [self.value(item) for _ in range(count)]
        if kind not in _SCALARS:
            raise ValueError(f"unknown value type {kind}")
        return self.unpack(_SCALARS[kind])[0]


def read_model(path: Path) -> ModelFile:
    """The checked header of ``path``; ``ModelUnavailable`` (one line) when it is missing, not GGUF or truncated."""
    shown = f"KGQA_LOCAL_MODEL={path}"
    if not path.is_file():
        raise ModelUnavailable(f"{shown}: no such file (fetch one with `kgqa models fetch qwen2.5-coder-1.5b`)")
    size = path.stat().st_size
    with path.open("rb") as f:
        if f.read(4) != MAGIC:
            raise ModelUnavailable(f"{shown}: not a GGUF model file (it does not start with 'GGUF')")
        try:
            return _parsed(_Reader(f), path, size)
        except (EOFError, ValueError, struct.error, UnicodeError) as exc:
            raise ModelUnavailable(f"{shown}: a broken or truncated GGUF header ({exc or 'the file ends inside it'})"
                                   ) from None


def _parsed(r: _Reader, path: Path, size: int) -> ModelFile:
    version, tensors, keys = r.number("I"), r.number("Q"), r.number("Q")
    if version not in (2, 3) or tensors > MAX_ITEMS or keys > MAX_ITEMS:
        raise ValueError(f"GGUF version {version} with {tensors} tensors is not one llama.cpp reads")
    meta: dict[str, object] = {}
    for _ in range(keys):
        key = r.text()
        meta[key] = r.value(r.number("I"))
    last_offset, last_end = -1, 0  # the furthest tensor: where it starts, where it ends (0: size unknown)
    for _ in range(tensors):
        r.text()
        dims = [r.number("Q") for _ in range(r.number("I"))]
        kind, offset = r.number("I"), r.number("Q")
        elements = 1
        for d in dims:
            elements *= d
        block = _BLOCKS.get(kind)
        end = offset + elements // block[1] * block[0] if block else 0
        if offset > last_offset:
            last_offset, last_end = offset, end
    align = int(meta.get("general.alignment", 32) or 32)  # type: ignore[call-overload]
    start = -(-r.f.tell() // align) * align
    needed = start + max(last_end, last_offset + 1)
    if size < needed:
        raise ModelUnavailable(f"KGQA_LOCAL_MODEL={path}: truncated ({size:,} bytes of the {needed:,} its header "
                               "describes); fetch it again")
    arch = str(meta.get("general.architecture", "?"))
    layers = _int(meta, f"{arch}.block_count")
    embd, heads = _int(meta, f"{arch}.embedding_length"), _int(meta, f"{arch}.attention.head_count")
    kv_heads = _int(meta, f"{arch}.attention.head_count_kv") or heads
    width = embd // heads * kv_heads if heads else embd
    return ModelFile(path, size, arch, layers, width)


def _int(meta: dict[str, object], key: str) -> int:
    value = meta.get(key)
    return int(value) if isinstance(value, (int, float)) else 0


def available_memory() -> int | None:
    """MemAvailable from /proc/meminfo, in bytes (None where there is none)."""
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemAvailable:"):
                return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


def check_fits(model: ModelFile, context: int, slots: int, free: int | None) -> None:
    """``ModelUnavailable`` when the weights, the KV cache of every slot and a margin do not fit in ``free``."""
    if free is None:
        return
    need = model.size + model.kv_bytes(context) + 256 * MB  # the compute buffers and the server itself
    if need > free:
        raise ModelUnavailable(f"the local model {model.path.name} needs about {need // MB:,} MB of memory "
                               f"({model.size // MB:,} MB of weights, a {context}-token context over {slots} "
                               f"slot(s)); {free // MB:,} MB are free: use a smaller model or KGQA_LOCAL_CONTEXT")
