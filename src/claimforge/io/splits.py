"""Held-out slices that share no text with training data: a pair is dropped from the training side when its
normalised claim or any normalised evidence sentence also occurs in a held-out pair (SNLI reuses a premise for
three hypotheses, FEVER a claim for several evidence sets; a split by pair id would leak them).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Sequence

from claimforge.records import Pair

_NON_WORD = re.compile(r"[\W_]+")


def text_key(text: str) -> str:
    """The text compared across splits: NFKC, case-folded, punctuation and spacing removed."""
    return _NON_WORD.sub(" ", unicodedata.normalize("NFKC", text).casefold()).strip()


def pair_texts(pair: Pair) -> set[str]:
    """The normalised claim and evidence sentences of a pair (empty texts left out)."""
    return {k for k in (text_key(pair.claim), *(text_key(s) for s in pair.evidence)) if k}


TextsOf = Callable[[Pair], set[str]]


def texts_of(pairs: Iterable[Pair], texts: TextsOf = pair_texts) -> set[str]:
    return {t for p in pairs for t in texts(p)}


def drop_shared(pairs: Sequence[Pair], taken: set[str], texts: TextsOf = pair_texts) -> tuple[list[Pair], list[Pair]]:
    """(kept, dropped): ``dropped`` are the pairs with a text (by default: claim or evidence) in ``taken``."""
    kept: list[Pair] = []
    dropped: list[Pair] = []
    for p in pairs:
        (dropped if texts(p) & taken else kept).append(p)
    return kept, dropped
