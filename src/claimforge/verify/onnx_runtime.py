"""The cross-encoder verifier run by ONNX Runtime on CPU: the same tokenizer, evidence-sentence selection and
length-sorted batches as ``CrossEncoderVerifier`` (this class inherits them), only the forward pass differs.

The Hugging Face model is exported once with ``torch.onnx.export`` (dynamic batch and sequence axes; eager
attention, which ONNX Runtime fuses) into a cache directory keyed by the weights' content, optionally
quantised with ``onnxruntime.quantization.quantize_dynamic`` (int8 weights). Load a saved run with

    load_verifier("build/nli_run/best", name="cross-encoder-onnx", int8=True)

Needs ``onnxruntime`` and ``onnx``. Inference only: it cannot be trained or saved (bench/bench_verifier.py
measures its speed and macro-F1 against the torch variants).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any, ClassVar

from claimforge.backends.onnx import FP32_FILE, INT8_FILE, OPSET, Session, export, publish, quantize_onnx, runtime
from claimforge.cache import default_cache_dir, files_digest
from claimforge.registry import registry
from claimforge.verify.cross_encoder import MODEL_DIR, CrossEncoderConfig, CrossEncoderVerifier

INPUTS = ("input_ids", "attention_mask", "token_type_ids")  # BertModel.forward's argument order


class OnnxCrossEncoderConfig(CrossEncoderConfig):
    int8: bool = False  # dynamic int8 quantisation of the exported graph's weights
    onnx_cache: str | None = None  # exported graphs (default: <claimforge cache>/onnx)


def _weights_key(hf_dir: Path, num_labels: int) -> str:
    """A digest of the model's files and everything the exported graph depends on."""
    import torch

    salt = f"{num_labels}:{OPSET}:{torch.__version__}:{runtime().__version__}"
    return files_digest((p for p in hf_dir.iterdir() if p.is_file()), salt)[:24]


def export_onnx(verifier: CrossEncoderVerifier, target: Path) -> list[str]:
    """Export a torch cross-encoder's module to ``target`` (ONNX, fp32); returns the input names."""
    import copy

    module = copy.deepcopy(verifier.module).float().eval()
    if hasattr(module, "set_attn_implementation"):
        module.set_attn_implementation("eager")  # the attention pattern ONNX Runtime fuses on CPU
    dummy = verifier.tokenizer(
        ["a claim"] * 2, ["some evidence, a little longer"] * 2, padding=True, return_tensors="pt"
    )
    return export(module, {n: dummy[n] for n in INPUTS if n in dummy}, target, ["logits"])


class OnnxCrossEncoderVerifier(CrossEncoderVerifier):
    """A cross-encoder whose forward pass runs in ONNX Runtime (fp32, or int8 with ``int8``)."""

    kind: ClassVar[str] = "cross-encoder-onnx"

    def __init__(self, config: OnnxCrossEncoderConfig) -> None:
        super().__init__(config)
        self.config: OnnxCrossEncoderConfig = config
        self._int8 = config.int8
        self._source: Path | None = None

    @property
    def model_id(self) -> str:
        return super().model_id + ("+int8" if self._int8 else "")

    def _open(self, hf_dir: Path, strict: bool = False) -> list[str]:
        """Export (or find in the cache) the graph of the HF model in ``hf_dir``; load its tokenizer and session."""
        from transformers import AutoTokenizer

        from claimforge.verify.cross_encoder import _hf_env

        _hf_env()
        root = Path(self.config.onnx_cache) if self.config.onnx_cache else default_cache_dir() / "onnx"
        graphs = root / _weights_key(hf_dir, self.config.num_labels)
        fresh: list[str] = []
        if not (graphs / FP32_FILE).is_file():
            torch_verifier = CrossEncoderVerifier(CrossEncoderConfig(**self._torch_fields()))
            fresh = torch_verifier._load(str(hf_dir), ignore_mismatch=True)
            if strict and fresh:
                raise ValueError(f"{hf_dir}: weights missing or of another shape for {fresh[:5]}")
            tmp = graphs.with_name(f"{graphs.name}.tmp{os.getpid()}")
            shutil.rmtree(tmp, ignore_errors=True)
            tmp.mkdir(parents=True)
            export_onnx(torch_verifier, tmp / FP32_FILE)
            del torch_verifier
            publish(tmp, graphs)
        if self._int8 and not (graphs / INT8_FILE).is_file():
            tmp = graphs / f"{INT8_FILE}.tmp{os.getpid()}"
            quantize_onnx(graphs / FP32_FILE, tmp)
            tmp.replace(graphs / INT8_FILE)
        self._tokenizer = AutoTokenizer.from_pretrained(str(hf_dir))
        self._module = Session(graphs / (INT8_FILE if self._int8 else FP32_FILE), self._threads())
        self._source = hf_dir
        return fresh

    def _torch_fields(self) -> dict[str, Any]:
        return self.config.model_dump(include=set(CrossEncoderConfig.model_fields))

    def _threads(self) -> int:
        if self.config.threads:
            return self.config.threads
        import torch

        return torch.get_num_threads()

    def _load(self, path: str, ignore_mismatch: bool = False) -> list[str]:
        # the ``module`` / ``tokenizer`` properties of a verifier built from ``config.model``
        from claimforge.backends.embeddings import resolve_model_path

        return self._open(Path(resolve_model_path(path)))

    def load_weights(self, directory: Path, strict: bool = True) -> list[str]:
        return self._open(Path(directory) / MODEL_DIR, strict=strict)

    def save_weights(self, directory: Path, half: bool = False) -> None:
        raise ValueError("an ONNX verifier cannot be saved; save the torch cross-encoder it was loaded from")

    def quantize(self) -> None:
        """Switch to the int8 graph (exported and quantised once, then cached)."""
        self._int8 = True
        if self._source is not None:
            self._open(self._source)

    def forward(self, batch: dict[str, Any]) -> Any:
        return self.module(batch)


@registry.register("verifier", "cross-encoder-onnx", OnnxCrossEncoderConfig)
def build_onnx_cross_encoder(config: OnnxCrossEncoderConfig) -> OnnxCrossEncoderVerifier:
    """A cross-encoder run by ONNX Runtime (inference only; ``int8`` for dynamic int8 weights)."""
    return OnnxCrossEncoderVerifier(config)
