"""The verifier interface and what all trainable (PyTorch) verifiers share: label spaces, batching,
saving and loading (safetensors weights + a JSON config; never pickle).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar, Protocol, runtime_checkable

import numpy as np

from claimforge.records import Label, Pair
from claimforge.registry import ComponentConfig, registry

LABELS_3: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
LABELS_2: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED)
VERIFIER_FILE = "verifier.json"


def label_space(num_labels: int) -> tuple[Label, ...]:
    if num_labels not in (2, 3):
        raise ValueError(f"num_labels must be 2 or 3, got {num_labels}")
    return LABELS_3 if num_labels == 3 else LABELS_2


def project_labels(labels: Sequence[Label], space: Sequence[Label]) -> tuple[Label, ...]:
    """Gold labels in a verifier's label space: a 2-way space reads NOT_ENOUGH_INFO as REFUTED
    ("not supported"), the reading of the binary benchmarks (COVID-Fact, FEVER-NLI)."""
    out: list[Label] = []
    for lab in labels:
        mapped = lab if lab in space else Label.REFUTED
        if mapped not in out:
            out.append(mapped)
    return tuple(out)


def gold_label(labels: Sequence[Label], space: Sequence[Label], pred: Label | None = None) -> Label:
    """The gold label to score a prediction against: when the source allows several ("not entailment" =
    REFUTED or NOT_ENOUGH_INFO), a prediction among them is right, so it is the gold; otherwise the first."""
    allowed = project_labels(labels, space)
    return pred if pred in allowed else allowed[0]


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


@runtime_checkable
class Verifier(Protocol):
    """Predicts label probabilities for claim–evidence pairs."""

    @property
    def labels(self) -> tuple[Label, ...]:
        """The label space, in the column order of ``predict_proba``."""
        ...

    @property
    def model_id(self) -> str:
        """Identifies the model (and its weights) in caches and run cards."""
        ...

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        """An (n, len(labels)) array of probabilities, rows in the order of ``pairs``."""
        ...


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
        bs = self.config.batch_size
        with torch.inference_mode():
            for start in range(0, len(order), bs):
                idx = order[start : start + bs]
                logits = self.forward(self.collate([pairs[i] for i in idx]))
                out[idx] = torch.softmax(logits.float(), dim=-1).cpu().numpy()
                if progress is not None:
                    progress(min(start + bs, len(order)), len(order))
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
