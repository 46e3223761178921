"""Interfaces shared by claim generators: the QA2D converter (question + answer -> declarative claim)."""

from __future__ import annotations

import random
import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict

from claimforge.records import Example, Label, Reject


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


@dataclass
class BuildResult:
    examples: list[Example]
    rejects: list[Reject]
    n_input: int
    used_item_ids: set[str]
    components: dict[str, str]
    config: dict[str, Any]
    stats: dict[str, Any] = field(default_factory=dict)

    @property
    def n_rejected_items(self) -> int:
        return sum(1 for r in self.rejects if r.scope == "item")


def account(
    items: Sequence[Any],
    examples: list[Example],
    rejects: list[Reject],
    n_input: int,
    components: dict[str, str],
    config: dict[str, Any],
) -> BuildResult:
    """Every input item ends used (≥ 1 example) or rejected as a whole; example-level losses of a
    used item stay in the rejects with scope 'example'."""
    used = {e.source_item_id for e in examples}
    rejected_items = {r.item_id for r in rejects if r.scope == "item"}
    parts: dict[str, list[Reject]] = defaultdict(list)
    for r in rejects:
        if r.scope == "example":
            parts[r.item_id].append(r)
    final = [r for r in rejects if r.scope == "item"]
    for it in items:
        if it.id in used or it.id in rejected_items:
            continue
        lost = parts.get(it.id, [])
        why = ",".join(sorted({r.reason for r in lost})) or "no_examples"
        final.append(Reject(item_id=it.id, stage="assemble", reason="all_examples_dropped", detail=why, ref=it.ref))
    final.extend(r for r in rejects if r.scope == "example")
    result = BuildResult(
        examples=examples,
        rejects=final,
        n_input=n_input,
        used_item_ids=used,
        components=components,
        config=config,
    )
    assert len(used) + result.n_rejected_items == n_input, "item accounting does not add up"
    return result


def balance_labels(examples: list[Example], labels: Sequence[Label], seed: int) -> tuple[list[Example], list[Reject]]:
    """Down-sample every label to the smallest label's count (seeded); the rest become rejects."""
    by: dict[Label, list[Example]] = {lab: [] for lab in labels}
    for e in examples:
        by[e.label].append(e)
    n = min(len(v) for v in by.values()) if by else 0
    rng = random.Random(seed)
    keep: set[str] = set()
    for lab in labels:
        pool = sorted(by[lab], key=lambda e: e.id)
        keep.update(e.id for e in (rng.sample(pool, n) if len(pool) > n else pool))
    kept = [e for e in examples if e.id in keep]
    dropped = [
        Reject(
            item_id=e.source_item_id,
            scope="example",
            stage="balance",
            reason="class_balancing",
            detail=f"{e.label.value} {e.id}",
            ref=e.provenance.source,
        )
        for e in examples
        if e.id not in keep
    ]
    return kept, dropped


def select_labels(
    examples: list[Example], rejects: list[Reject], labels: Sequence[Label], balance: bool, seed: int
) -> list[Example]:
    """Keep the requested labels (others become ``label_not_requested`` rejects) and, with ``balance``,
    down-sample to equal label counts; the losses are appended to ``rejects``."""
    for e in examples:
        if e.label not in labels:
            rejects.append(
                Reject(
                    item_id=e.source_item_id,
                    scope="example",
                    stage="labels",
                    reason="label_not_requested",
                    detail=e.id,
                    ref=e.provenance.source,
                )
            )
    kept = [e for e in examples if e.label in labels]
    if balance:
        kept, dropped = balance_labels(kept, labels, seed)
        rejects.extend(dropped)
    return kept
