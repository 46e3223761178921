"""The types and interfaces every layer shares, with no claimforge dependency but ``records``: what a QA2D
converter takes and returns, the label spaces, and the protocols of verifiers, negators and claim generators.

Lower layers (backends, io, kb) import these instead of the higher layers that use them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np
from pydantic import BaseModel, ConfigDict

from claimforge.records import Label, Pair

LABELS_3: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
LABELS_2: tuple[Label, ...] = (Label.SUPPORTED, Label.REFUTED)


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


class QA2DRequest(BaseModel):
    model_config = ConfigDict(frozen=True)

    question: str
    answer: str


class QA2DResult(BaseModel):
    """A converted claim, or ``text=None`` with a ``reason`` when the pair could not be converted.

    ``polarity="inverted"`` means the question asked for an exception ("all of the following EXCEPT",
    "which is NOT ..."): ``text`` is the positive statement, which is *false* for the keyed answer
    and true for the other options. Backends that keep the stem's negation return "as_is".
    """

    model_config = ConfigDict(frozen=True)

    text: str | None
    reason: str | None = None
    detail: str = ""  # what went wrong, for the reject (e.g. the server's message for a refused request)
    polarity: Literal["as_is", "inverted"] = "as_is"


class QA2DConverter(Protocol):
    model_id: str

    def convert(self, requests: Sequence[QA2DRequest]) -> list[QA2DResult]:
        """Convert a batch; the output has one result per request, in order."""
        ...


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


class Negator(Protocol):
    """Makes a minimally changed, false version of each claim (or says why it could not)."""

    name: str
    model_id: str

    def negate(
        self, claims: Sequence[str], progress: Any = None, evidence: Sequence[tuple[str, ...]] | None = None
    ) -> list[Any]:
        """One ``Negation`` (text, or None with a reason) per claim, in order. ``evidence``: per claim, the
        sentences that support it; a negator that judges its negations uses them (the negation must be false
        given the evidence, not only differ from the claim)."""
        ...


class ClaimGenerator(Protocol):
    """Makes claims from sentences (``SentenceItem``s): claims and the rejects of what it could not use."""

    model_id: str

    def generate(self, items: Sequence[Any], tick: Any = None) -> Any:
        """A ``Generated`` (claims in item order, rejects)."""
        ...
