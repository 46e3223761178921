"""Salient-word recall (COVID-Fact §2.2.1): which words of a true claim its counter-claims replaced, and how often a
saliency method's top-k words hit one of them. Used by ``bench/covidfact_saliency.py`` and
``training/saliency/train.py`` on COVID-Fact's RTE files (``index, sentence1, Sentence2, label``)."""

from __future__ import annotations

import csv
import difflib
import re
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

_WORD = re.compile(r"[A-Za-z0-9][\w\-']*")


def words(text: str) -> list[tuple[int, int, str]]:
    """(start, end, lower-cased word) of each word of a text; punctuation is not a word."""
    return [(m.start(), m.end(), m.group(0).lower()) for m in _WORD.finditer(text)]


def replaced_words(claim: str, counter_claims: Sequence[str]) -> set[int]:
    """Character starts of the words of ``claim`` that any counter-claim replaced or deleted (word-level diff,
    case and punctuation ignored)."""
    ow = words(claim)
    gold: set[int] = set()
    for neg in counter_claims:
        sm = difflib.SequenceMatcher(a=[w for _, _, w in ow], b=[w for _, _, w in words(neg)], autojunk=False)
        for op, a0, a1, _b0, _b1 in sm.get_opcodes():
            if op in ("replace", "delete"):
                gold.update(ow[i][0] for i in range(a0, a1))
    return gold


def gold_items(path: Path) -> list[tuple[str, set[int]]]:
    """(true claim, starts of the words its counter-claims replaced) per evidence text with exactly one true claim
    and at least one counter-claim, in file order."""
    groups: dict[str, list[dict[str, str]]] = defaultdict(list)
    with path.open(encoding="utf-8", newline="") as f:
        for row in csv.DictReader(f, delimiter="\t", quoting=csv.QUOTE_NONE):
            groups[row["sentence1"]].append(row)
    out = []
    for rows in groups.values():
        origs = [r["Sentence2"] for r in rows if r["label"] == "entailment"]
        negs = [r["Sentence2"] for r in rows if r["label"] != "entailment"]
        if len(origs) == 1 and negs:
            gold = replaced_words(origs[0], negs)
            if gold:
                out.append((origs[0], gold))
    return out


def recall_at(ranked: Sequence[Sequence[Any]], gold: Sequence[set[int]], k: int) -> float:
    """The share of claims with a gold word among the top ``k`` ranked words (objects with ``start``/``end``)."""
    hits = [any(any(w.start <= s < w.end for s in g) for w in r[:k]) for r, g in zip(ranked, gold, strict=True)]
    return sum(hits) / len(hits) if hits else 0.0
