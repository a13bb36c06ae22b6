"""The ONNX encoder: sentence-transformers' vectors, exported once per machine, a broken export replaced, no torch
in the process that asks."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from pipeline.store import onnx
from pipeline.store.encoder import (
    ENCODE_BATCH,
    MINILM_SHA256,
    SentenceTransformerEncoder,
    model_encoder,
    packaged_minilm,
    torch_encoder,
)
from pipeline.store.onnx import OnnxEncoder

ROOT = Path(__file__).resolve().parents[2]
SENTENCES = ["Which model has achieved the highest Accuracy score on the Story Cloze Test benchmark dataset?",
             "which model is best on squad 1.1 in terms of F1", "", "   padded   ", "ü 漢字 🙂 émoji?",
             "word " * 600, "Where can I find code for BERT?"]


def torch() -> SentenceTransformerEncoder:
    """The fallback the product gives the ONNX encoder."""
    return torch_encoder("all-MiniLM-L6-v2", offline=False)


def test_the_onnx_encoder_gives_sentence_transformers_vectors(encoder: Any, torch_encoder: Any) -> None:
    import numpy as np

    assert isinstance(encoder, OnnxEncoder)  # the product's encoder
    ours, theirs = np.array(encoder.encode(SENTENCES)), np.array(torch_encoder.encode(SENTENCES))
    assert ours.shape == (len(SENTENCES), 384)
    assert np.abs(ours - theirs).max() < 1e-5
    one_by_one = np.array([encoder.encode([s])[0] for s in SENTENCES])
    assert np.abs(one_by_one - ours).max() < 1e-5  # padding in a batch changes nothing
    assert np.allclose(np.linalg.norm(ours, axis=1), 1.0, atol=1e-5) and encoder.encode([]) == []


def test_the_export_is_made_once_then_reused_and_a_broken_one_replaced(tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    folder = packaged_minilm()
    assert folder is not None
    exports: list[Path] = []
    real_export = onnx.export
    monkeypatch.setattr(onnx, "export", lambda f, target: exports.append(target) or real_export(f, target))

    def fresh() -> OnnxEncoder:  # a process's encoder over the shared cache
        return OnnxEncoder("all-MiniLM-L6-v2", folder, MINILM_SHA256, tmp_path, torch, ENCODE_BATCH)

    first = fresh()
    vector = first.encode(["Which papers use SQuAD?"])[0]
    assert exports == [first.path] and first.path.is_file() and first.path.stat().st_mode & 0o777 == 0o644
    assert [p.name for p in tmp_path.iterdir()] == [first.path.name]  # no temporary file left behind
    # another process: loaded, not exported again
    assert fresh().encode(["Which papers use SQuAD?"])[0] == vector and len(exports) == 1
    first.path.write_bytes(first.path.read_bytes()[:1000])  # cut short (a disk filled up mid-copy, say)
    assert fresh().encode(["Which papers use SQuAD?"])[0] == pytest.approx(vector, abs=1e-6) and len(exports) == 2


def test_where_no_export_can_be_written_sentence_transformers_encodes(tmp_path: Path, torch_encoder: Any,
                                                                      caplog: pytest.LogCaptureFixture) -> None:
    folder = packaged_minilm()
    assert folder is not None
    (tmp_path / "cache").write_text("a file where the cache folder should be")
    encoder = OnnxEncoder("all-MiniLM-L6-v2", folder, MINILM_SHA256, tmp_path / "cache", torch, ENCODE_BATCH)
    assert encoder.encode(SENTENCES[:2]) == torch_encoder.encode(SENTENCES[:2])
    assert "cannot be exported to ONNX" in caplog.text and "sentence-transformers" in caplog.text


def test_the_backend_follows_the_setting_and_what_can_run(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert isinstance(model_encoder("all-MiniLM-L6-v2", "onnx", tmp_path, offline=False), OnnxEncoder)
    assert isinstance(model_encoder("all-MiniLM-L6-v2", "torch", tmp_path, offline=False), SentenceTransformerEncoder)
    assert isinstance(model_encoder("someone/other-model", "onnx", tmp_path, offline=False), SentenceTransformerEncoder)
    monkeypatch.setattr(onnx, "onnx_usable", lambda: False)
    assert isinstance(model_encoder("all-MiniLM-L6-v2", "onnx", tmp_path, offline=False), SentenceTransformerEncoder)
    assert not list(tmp_path.iterdir())  # choosing exports nothing: that waits for the first sentence


def test_a_model_pooled_otherwise_is_not_run_by_onnx(tmp_path: Path) -> None:
    (tmp_path / "1_Pooling").mkdir()
    (tmp_path / "1_Pooling" / "config.json").write_text(json.dumps({"pooling_mode_cls_token": True}))
    assert not onnx.mean_pooled(tmp_path) and not onnx.mean_pooled(tmp_path / "absent")
    folder = packaged_minilm()
    assert folder is not None and onnx.mean_pooled(folder)


def test_asking_a_question_loads_no_torch_and_one_blas_thread(train_settings: Any, train_store: Any) -> None:
    """The process that answers imports neither torch nor transformers (it starts sooner and holds less memory), and
    its small matrix-vector products run on one BLAS thread (a second one only fights for the cores)."""
    script = ("import sys\nfrom threadpoolctl import threadpool_info\nfrom pipeline.factory import build_pipeline\n"
              "from pipeline.settings import Settings\n"
              "answer = build_pipeline(Settings.from_env()).ask('Which model has achieved the highest Accuracy score "
              "on the Story Cloze Test benchmark dataset?')\n"
              "blas = {p['num_threads'] for p in threadpool_info() if p['user_api'] == 'blas'}\n"
              "print(blas, answer.outcome.value, 'torch' in sys.modules, 'transformers' in sys.modules)")
    env = dict(os.environ, KGQA_HOME=str(train_settings.home), SCIQA_DIR=str(train_settings.sciqa_dir),
               KGQA_KG="snapshot", KGQA_GENERATOR="adapter", PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=300,
                          cwd=ROOT)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split()[-4:] == ["{1}", "answered", "False", "False"], done.stdout
