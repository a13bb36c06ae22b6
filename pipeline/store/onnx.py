"""all-MiniLM-L6-v2 run by ONNX Runtime: the vectors sentence-transformers gives (within 1e-6), in a third of the time
per short question, and without importing torch in the process that asks.

The ONNX file is exported once from the packaged, checksummed weights (torch's exporter) into a cache folder shared by
every process and home, and named after the weights' hash, so other weights never meet a stale export."""
from __future__ import annotations

import json
import logging
import os
import tempfile
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError
from pipeline.parts import Encoder

log = logging.getLogger(__name__)

EXPORT_VERSION = 1  # bump when the export below changes: older files are then left alone, not loaded
INPUTS = ("input_ids", "attention_mask", "token_type_ids")


def export_path(cache: Path, weights_sha256: str) -> Path:
    return cache / f"minilm-{weights_sha256[:16]}-v{EXPORT_VERSION}.onnx"


def mean_pooled(folder: Path) -> bool:
    """Whether the model in ``folder`` pools by the mean of its tokens, the one pooling this encoder does."""
    try:
        pooling = json.loads((folder / "1_Pooling" / "config.json").read_text())
    except (OSError, ValueError):
        return False
    modes = [k for k, v in pooling.items() if k.startswith("pooling_mode") and v]
    return modes == ["pooling_mode_mean_tokens"]


def onnx_usable() -> bool:
    """Whether ONNX Runtime can run here and torch's exporter can write a model (it needs the onnx package)."""
    from importlib.util import find_spec

    return all(find_spec(module) is not None for module in ("onnxruntime", "onnx", "tokenizers"))


def export(folder: Path, target: Path) -> Path:
    """Export the transformer in ``folder`` to ``target`` (written to a temporary file, then renamed: concurrent
    exports from several processes leave one whole file)."""
    import warnings

    import torch
    from transformers import AutoModel, AutoTokenizer

    model = AutoModel.from_pretrained(str(folder), local_files_only=True).eval()
    model.config.return_dict = False
    sample = AutoTokenizer.from_pretrained(str(folder), local_files_only=True)(  # type: ignore[no-untyped-call]
        ["a sample sentence", "another one, a little longer"], padding=True, return_tensors="pt")
    axes = {name: {0: "batch", 1: "tokens"} for name in (*INPUTS, "hidden")}
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=target.name, suffix=".part")
    os.close(fd)
    try:
        with torch.no_grad(), warnings.catch_warnings():
            warnings.simplefilter("ignore")  # the tracer's notes on Python values it records as constants
            torch.onnx.export(model, tuple(sample[name] for name in INPUTS), tmp, input_names=list(INPUTS),
                              output_names=["hidden"], dynamic_axes=axes, opset_version=17, dynamo=False)
        os.chmod(tmp, 0o644)  # mkstemp's 0600 would hide it from other users of a shared cache
        os.replace(tmp, target)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return target


class OnnxEncoder:
    """Encodes sentences to normalised vectors with ONNX Runtime; the export and the session load on first use."""

    def __init__(self, name: str, folder: Path, weights_sha256: str, cache: Path, fallback: Callable[[], Encoder],
                 batch_size: int) -> None:
        self.name = name
        self.folder = folder
        self.path = export_path(cache, weights_sha256)
        self.batch_size = batch_size
        self._parts: tuple[Any, Any] | None = None
        self._make_fallback = fallback  # sentence-transformers, when no export can be made or loaded here
        self._fallback: Encoder | None = None
        self._lock = threading.Lock()

    def parts(self) -> tuple[Any, Any] | None:
        """The tokenizer and the inference session (exporting the model first if no export is cached); None when
        ONNX cannot be used here, and sentence-transformers encodes instead."""
        with self._lock:
            if self._parts is None and self._fallback is None:
                try:
                    self._parts = self._load()
                except (ConfigError, OSError, RuntimeError, ValueError) as exc:
                    log.warning("%s; encoding with sentence-transformers (torch) instead", exc)
                    self._fallback = self._make_fallback()
            return self._parts

    def _load(self) -> tuple[Any, Any]:
        import onnxruntime
        from tokenizers import Tokenizer

        tokenizer = Tokenizer.from_file(str(self.folder / "tokenizer.json"))
        config = json.loads((self.folder / "sentence_bert_config.json").read_text())
        tokenizer.enable_truncation(int(config.get("max_seq_length", 256)))
        tokenizer.enable_padding(pad_id=0, pad_token="[PAD]")
        options = onnxruntime.SessionOptions()
        options.enable_cpu_mem_arena = False  # the arena keeps the largest batch's memory (indexing) for good
        options.log_severity_level = 3
        # idle threads sleep rather than spin between calls: a question's Python work runs between two encoder calls
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        for attempt in (1, 2):
            if not self.path.is_file():
                log.info("exporting %s to ONNX at %s (once per machine)", self.name, self.path)
                try:
                    export(self.folder, self.path)
                except Exception as exc:
                    raise ConfigError(f"{self.name} cannot be exported to ONNX at {self.path} "
                                      f"({type(exc).__name__}: {exc})") from exc
            try:
                session = onnxruntime.InferenceSession(str(self.path), options, providers=["CPUExecutionProvider"])
            except Exception as exc:  # a truncated or foreign file: export again, once
                if attempt == 2:
                    raise ConfigError(f"the ONNX export of {self.name} at {self.path} cannot be loaded "
                                      f"({type(exc).__name__})") from exc
                log.warning("the ONNX export at %s is unreadable (%s); exporting it again", self.path,
                            type(exc).__name__)
                self.path.unlink(missing_ok=True)
                continue
            if [i.name for i in session.get_inputs()] != list(INPUTS):
                raise ConfigError(f"the ONNX file {self.path} does not take {', '.join(INPUTS)}")
            return tokenizer, session
        raise AssertionError("unreachable")

    def encode(self, texts: Sequence[str]) -> list[list[float]]:
        import numpy as np

        texts = list(texts)
        parts = self.parts()
        if parts is None:
            assert self._fallback is not None
            return list(self._fallback.encode(texts))
        tokenizer, session = parts
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))  # batches of like lengths pad little
        out: list[Any] = [None] * len(texts)
        for start in range(0, len(texts), self.batch_size):
            chunk = order[start:start + self.batch_size]
            encoded = tokenizer.encode_batch([texts[i].strip() for i in chunk])  # as sentence-transformers
            ids = np.array([e.ids for e in encoded], dtype=np.int64)
            mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
            hidden = session.run(None, {"input_ids": ids, "attention_mask": mask,
                                        "token_type_ids": np.zeros_like(ids)})[0]
            weights = mask[..., None].astype(np.float32)
            pooled = (hidden * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
            pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12)
            for i, vector in zip(chunk, pooled):
                out[i] = vector
        return [list(map(float, v)) for v in out]
