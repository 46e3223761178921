"""Interfaces shared by claim generators: the QA2D converter (question + answer -> declarative claim)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, Protocol

from pydantic import BaseModel, ConfigDict


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
    polarity: Literal["as_is", "inverted"] = "as_is"


class QA2DConverter(Protocol):
    model_id: str

    def convert(self, requests: Sequence[QA2DRequest]) -> list[QA2DResult]:
        """Convert a batch; the output has one result per request, in order."""
        ...
