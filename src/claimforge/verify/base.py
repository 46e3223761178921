"""The verifier interface and what all trainable (PyTorch) verifiers share: label spaces, batching,
saving and loading (safetensors weights + a JSON config; never pickle).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from claimforge.records import Label, Pair
from claimforge.registry import ComponentConfig, registry
from claimforge.types import LABELS_2, LABELS_3, Verifier, gold_label, label_space, project_labels  # noqa: F401  (the verifier API)

VERIFIER_FILE = "verifier.json"


def target_mask(pairs: Sequence[Pair], space: Sequence[Label]) -> np.ndarray:
    """A (n, k) 0/1 matrix of the labels each pair allows; training maximises their summed probability."""
    index = {lab: i for i, lab in enumerate(space)}
    mask = np.zeros((len(pairs), len(space)), dtype=np.float32)
    for row, pair in enumerate(pairs):
        if not pair.labels:
            raise ValueError(f"pair {pair.id!r} ({pair.source}) has no gold label; cannot train on it")
        for lab in project_labels(pair.labels, space):
            mask[row, index[lab]] = 1.0
    return mask


def two_way(probs: np.ndarray) -> np.ndarray:
    """3-way probabilities (S, R, N) → 2-way (S, not S): "not supported" is REFUTED + NOT_ENOUGH_INFO."""
    return np.stack([probs[:, 0], probs[:, 1] + probs[:, 2]], axis=1)


class TwoWay:
    """A 3-way verifier read in a 2-way label space (for binary benchmarks such as COVID-Fact)."""

    def __init__(self, inner: Verifier) -> None:
        self.inner = inner
        self.labels = LABELS_2
        self.model_id = f"{inner.model_id}|2way"

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        return two_way(self.inner.predict_proba(pairs, progress=progress))


def predict_labels(verifier: Verifier, pairs: Sequence[Pair], progress: Any = None) -> list[Label]:
    probs = verifier.predict_proba(pairs, progress=progress)
    return [verifier.labels[i] for i in probs.argmax(axis=1)]


class VerifierConfig(ComponentConfig):
    """Fields every verifier has."""

    num_labels: int = 3
    batch_size: int = 32  # inference batch size


class TorchVerifier:
    """Base for verifiers with a trainable ``torch.nn.Module`` (cross-encoder, CEM, GCEM).

    Subclasses implement ``prepare`` (precompute features for pairs), ``collate`` (pairs → tensors),
    ``forward`` (tensors → logits), ``length`` (a sort key for length bucketing), and the weight I/O.
    """

    kind: ClassVar[str]
    # Training settings that suit this model; a user's TrainConfig values override them.
    default_train: ClassVar[dict[str, Any]] = {"lr": 1e-3, "epochs": 30, "batch_size": 32, "patience": 5}
    config: VerifierConfig
    module: Any

    @property
    def labels(self) -> tuple[Label, ...]:
        return label_space(self.config.num_labels)

    @property
    def model_id(self) -> str:
        return f"{self.kind}:{getattr(self, 'source_id', '')}"

    # -- per-model hooks -------------------------------------------------------------------------
    def prepare(self, pairs: Sequence[Pair], progress: Any = None) -> None:
        """Precompute whatever ``collate`` needs for these pairs (embeddings, selected sentences)."""

    def collate(self, pairs: Sequence[Pair]) -> dict[str, Any]:
        raise NotImplementedError

    def forward(self, batch: dict[str, Any]) -> Any:
        raise NotImplementedError

    def length(self, pair: Pair) -> int:
        return len(pair.claim) + sum(len(s) for s in pair.evidence)

    def batches(self, order: list[int], pairs: Sequence[Pair]) -> list[list[int]]:
        """Inference batches: ``order`` (indices of ``pairs``, sorted by length) cut into ``batch_size`` pieces.
        A model whose memory grows with more than the pair count (GCEM's graph edges) cuts them smaller."""
        bs = self.config.batch_size
        return [order[s : s + bs] for s in range(0, len(order), bs)]

    def save_weights(self, directory: Path, half: bool = False) -> None:
        raise NotImplementedError

    def load_weights(self, directory: Path, strict: bool = True) -> list[str]:
        """Load weights saved by ``save_weights``; returns the names of tensors left at their init
        (a head whose label count changed) when ``strict`` is false."""
        raise NotImplementedError

    # -- shared ----------------------------------------------------------------------------------
    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        import torch

        if not pairs:
            return np.zeros((0, len(self.labels)), dtype=np.float32)
        self.prepare(pairs)
        order = sorted(range(len(pairs)), key=lambda i: self.length(pairs[i]))
        out = np.zeros((len(pairs), len(self.labels)), dtype=np.float32)
        self.module.eval()
        done = 0
        with torch.inference_mode():
            for idx in self.batches(order, pairs):
                logits = self.forward(self.collate([pairs[i] for i in idx]))
                out[idx] = torch.softmax(logits.float(), dim=-1).cpu().numpy()
                done += len(idx)
                if progress is not None:
                    progress(done, len(order))
        return out

    def save(self, directory: str | Path, half: bool = False) -> Path:
        """Write ``verifier.json`` (kind + config) and the weights; ``half`` stores fp16 weights."""
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        self.save_weights(out, half=half)
        spec = {"name": self.kind, **self.config.model_dump(mode="json")}
        (out / VERIFIER_FILE).write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")
        return out


def saved_spec(directory: str | Path) -> dict[str, Any]:
    path = Path(directory) / VERIFIER_FILE
    if not path.is_file():
        raise FileNotFoundError(f"{directory}: not a saved verifier (no {VERIFIER_FILE})")
    return json.loads(path.read_text(encoding="utf-8"))


def load_verifier(directory: str | Path, **overrides: Any) -> TorchVerifier:
    """Rebuild a saved trainable verifier (its config from ``verifier.json``) and load its weights."""
    spec = {**saved_spec(directory), **overrides}
    verifier = registry.build("verifier", spec)
    verifier.load_weights(Path(directory))
    return verifier
