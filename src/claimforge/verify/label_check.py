"""The label check: does the judge (an NLI model) agree with a label, given the claim and its evidence?

SUPPORTED needs P(entailment) ≥ ``entailment``; REFUTED needs P(contradiction) ≥ ``contradiction``;
NOT_ENOUGH_INFO needs P(entailment) < ``nei_entailment`` and P(contradiction) < ``nei_contradiction``.
The thresholds are calibrated for precision on the judge's dev split (``training/nli/calibrate.py``,
``docs/models/nli.md``): a check keeps the labels the judge is sure of, and it is only as good as the judge.

Used by every pipeline's ``label check`` stage (:mod:`claimforge.pipeline`) and by ``claimforge audit labels``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from claimforge.nlp.sentences import split_sentences
from claimforge.records import Label, Pair

ENTAILMENT, CONTRADICTION, NEUTRAL = 0, 1, 2  # columns of predict_proba (SUPPORTED, REFUTED, NEI)
BATCH = 2048  # pairs per judge call: the NLI cache is written per call, so an interrupted check keeps its work
DEFAULT_JUDGE: dict[str, Any] = {"name": "embedded", "runtime": "auto"}  # bf16 where native, else ONNX fp32


class Thresholds(BaseModel):
    """The judge's gates. The defaults are the embedded judge's (version 3), calibrated for precision ≥ 0.85 on
    its dev split (general NLI, scientific minimal pairs, Multi2Claim SciQ pairs, Citation-Integrity and Evidence
    Inference; 2026-11-26); held-out precision / recall: SUPPORTED 0.902 / 0.606, REFUTED 0.850 / 0.518,
    NOT_ENOUGH_INFO 0.873 / 0.584 (docs/models/nli.md)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    entailment: float = Field(default=0.70, ge=0, le=1)
    contradiction: float = Field(default=0.65, ge=0, le=1)
    nei_entailment: float = Field(default=0.10, ge=0, le=1)
    nei_contradiction: float = Field(default=0.35, ge=0, le=1)


@dataclass(frozen=True)
class Verdict:
    """The judge's probabilities for one labelled pair and whether they agree with the label."""

    label: Label
    entailment: float
    contradiction: float
    neutral: float
    passed: bool
    margin: float  # how far past (> 0) or short of (< 0) its gate the pair is; the most suspect first when sorted

    @property
    def details(self) -> dict[str, Any]:
        return {
            "entailment": round(self.entailment, 4),
            "contradiction": round(self.contradiction, 4),
            "neutral": round(self.neutral, 4),
            "passed": self.passed,
        }

    def explain(self, th: Thresholds) -> str:
        """Why a pair failed, in words, with its scores."""
        e, c = f"P(entailment)={self.entailment:.3f}", f"P(contradiction)={self.contradiction:.3f}"
        if self.label == Label.SUPPORTED:
            return f"{e} < {th.entailment}"
        if self.label == Label.REFUTED:
            return f"{c} < {th.contradiction}"
        return f"{e} (must be < {th.nei_entailment}), {c} (must be < {th.nei_contradiction})"


def verdict(label: Label, probs: Sequence[float], th: Thresholds) -> Verdict:
    e, c, n = (float(probs[ENTAILMENT]), float(probs[CONTRADICTION]), float(probs[NEUTRAL]))
    if label == Label.SUPPORTED:
        margin = e - th.entailment
        passed = margin >= 0
    elif label == Label.REFUTED:
        margin = c - th.contradiction
        passed = margin >= 0
    else:
        margin = min(th.nei_entailment - e, th.nei_contradiction - c)
        passed = margin > 0
    return Verdict(label, e, c, n, passed, margin)


def reject_detail(label: Label, example_id: str, why: str) -> str:
    """The detail of a label-check reject: ``<LABEL> <example id>: <scores>`` (:func:`label_of_reject` reads it)."""
    return f"{label.value} {example_id}: {why}"


def label_of_reject(detail: str) -> str:
    return detail.split(" ", 1)[0]


def evidence_sentences(evidence: str) -> tuple[str, ...]:
    """An example's evidence text as the sentences a judge reads (it keeps the ones most like the claim
    when they do not all fit)."""
    return tuple(split_sentences(evidence)) or (evidence,)


def judge(nli: Any, claims: Sequence[str], evidence: Sequence[tuple[str, ...]], progress: Any = None) -> np.ndarray:
    """P(entailment, contradiction, neutral) of every (claim, evidence), batched (rows in input order)."""
    pairs = [Pair(id=str(i), claim=c, evidence=ev) for i, (c, ev) in enumerate(zip(claims, evidence, strict=True))]
    out = []
    for i in range(0, len(pairs), BATCH):
        out.append(nli.predict_proba(pairs[i : i + BATCH]))
        if progress is not None:
            progress(min(i + BATCH, len(pairs)), len(pairs))
    return np.concatenate(out) if out else np.zeros((0, 3), dtype=np.float32)
