"""Interfaces shared by claim generators: the QA2D converter (question + answer -> declarative claim)."""

from __future__ import annotations

import re
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
    detail: str = ""  # what went wrong, for the reject (e.g. the server's message for a refused request)
    polarity: Literal["as_is", "inverted"] = "as_is"


class QA2DConverter(Protocol):
    model_id: str

    def convert(self, requests: Sequence[QA2DRequest]) -> list[QA2DResult]:
        """Convert a batch; the output has one result per request, in order."""
        ...


def finish_sentence(text: str) -> str | None:
    """Tidy a generated sentence: spacing around punctuation, a capital first letter (a first word with
    inner capitals or digits such as "mRNA", "pH" or "p53" keeps its case), capitals after inner sentence ends, and a
    final period. None when nothing but punctuation is left."""
    t = " ".join(text.split())
    t = re.sub(r"\s+([,.;:!?%)])", r"\1", t)
    t = re.sub(r"([(])\s+", r"\1", t)
    t = re.sub(r"\s+'s\b", "'s", t)
    t = t.rstrip(" ,;:-").strip()
    if not any(ch.isalnum() for ch in t):
        return None
    first = t.split(" ", 1)[0]
    if t[0].islower() and not any(ch.isupper() or ch.isdigit() for ch in first[1:]):
        t = t[0].upper() + t[1:]
    # "... a physicist. his name is" -> ". His"; not after abbreviations such as "E. coli".
    t = re.sub(r"(\w{3,}[.!?] )([a-z])(?=[a-z]* )", lambda m: m.group(1) + m.group(2).upper(), t)
    if t[-1] not in ".!?":
        t += "."
    return t
