"""The embedder's CPU runtimes give the fp32 PyTorch vectors (ONNX fp32) or close ones (bf16, int8), cached
under a model id that names the runtime; a model the ONNX path cannot export is refused with a reason."""

from __future__ import annotations

import numpy as np
import pytest

from claimforge.registry import registry

TEXTS = [
    "The mitochondria produce most of the cell's ATP through oxidative phosphorylation.",
    "Photosynthesis converts light energy into chemical energy stored in glucose.",
    "Vaccines train the immune system to recognise a pathogen.",
    "Plate tectonics explains earthquakes and the drift of continents over millions of years.",
    "ok",
]


def _embed(runtime: str, **extra: object) -> np.ndarray:
    spec = {"name": "sentence-transformers", "runtime": runtime, "batch_size": 2, **extra}
    return registry.build("embedder", spec).embed(TEXTS)


@pytest.fixture(scope="module")
def fp32() -> np.ndarray:
    return _embed("torch")


@pytest.mark.slow
@pytest.mark.parametrize(("runtime", "min_cos"), [("onnx", 0.99999), ("torch-bf16", 0.999), ("onnx-int8", 0.8)])
def test_runtimes_agree_with_fp32_torch(fp32: np.ndarray, runtime: str, min_cos: float) -> None:
    vecs = _embed(runtime)
    assert vecs.shape == fp32.shape and vecs.dtype == np.float32
    assert np.allclose(np.linalg.norm(vecs, axis=1), 1.0, atol=1e-3)
    assert (vecs * fp32).sum(1).min() >= min_cos

    # the nearest other text of each text is the same
    def nearest(v: np.ndarray) -> list[int]:
        s = v @ v.T
        np.fill_diagonal(s, -np.inf)
        return list(s.argmax(1))

    if runtime != "onnx-int8":
        assert nearest(vecs) == nearest(fp32)


def test_model_id_names_the_runtime() -> None:
    ids = {
        rt: registry.build("embedder", {"name": "sentence-transformers", "runtime": rt}).model_id
        for rt in ("torch", "torch-bf16", "torch-int8", "onnx", "onnx-int8")
    }
    assert ids["torch"] == "all-MiniLM-L6-v2@256" and ids["torch-int8"] == "all-MiniLM-L6-v2@256+int8"
    assert len(set(ids.values())) == 5


def test_unknown_runtime_is_a_config_error() -> None:
    with pytest.raises(ValueError, match="runtime"):
        registry.build("embedder", {"name": "sentence-transformers", "runtime": "gpu"})


@pytest.mark.slow
def test_onnx_refuses_a_model_without_mean_pooling(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from sentence_transformers import SentenceTransformer, models

    from claimforge.backends.embeddings import _check_mean_pooling, resolve_model_path

    base = SentenceTransformer(resolve_model_path("all-MiniLM-L6-v2"), device="cpu")
    cls_pooled = SentenceTransformer(modules=[base[0], models.Pooling(384, pooling_mode="cls")], device="cpu")
    with pytest.raises(ValueError, match="mean Pooling"):
        _check_mean_pooling(cls_pooled, "cls-model")


@pytest.mark.slow
def test_exporting_to_onnx_leaves_the_shared_torch_model_unchanged(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from claimforge.backends.embeddings import _onnx_session

    def encode() -> np.ndarray:
        return registry.build("embedder", {"name": "sentence-transformers", "batch_size": 2})._encode(TEXTS)

    before = encode()
    monkeypatch.setenv("CLAIMFORGE_CACHE", str(tmp_path))  # a new cache: the graph is exported again
    _onnx_session.cache_clear()
    registry.build("embedder", {"name": "sentence-transformers", "runtime": "onnx"})._encode(TEXTS)
    assert (tmp_path / "onnx").is_dir()
    assert np.array_equal(encode(), before)


def test_auto_runtime_is_bf16_only_on_cpus_with_native_bf16(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from claimforge.backends import embeddings

    monkeypatch.setattr(embeddings, "native_bf16", lambda: True)
    assert registry.build("embedder", {"name": "sentence-transformers"}).model_id == "all-MiniLM-L6-v2@256+torch-bf16"
    monkeypatch.setattr(embeddings, "native_bf16", lambda: False)
    assert registry.build("embedder", {"name": "sentence-transformers"}).model_id == "all-MiniLM-L6-v2@256"
