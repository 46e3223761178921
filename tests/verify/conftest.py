"""Toy pairs the verifier tests train on (the tiny model itself is in tests/conftest.py)."""

from __future__ import annotations

from claimforge.records import Label, Pair

S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


def toy_pairs(n: int = 48) -> list[Pair]:
    """Separable toy data: the label is written in the evidence (so a few steps must lower the loss)."""
    words = {S: "yes indeed true", R: "no never false", N: "unrelated weather report"}
    out = []
    for i in range(n):
        lab = (S, R, N)[i % 3]
        out.append(
            Pair(
                id=f"toy:{i}",
                claim=f"claim number {i % 7} about cells",
                evidence=(f"sentence {i} {words[lab]}.", "the cell is a unit of life."),
                labels=(lab,),
            )
        )
    return out
