"""The emit-time claim check: before a generated claim becomes a dataset row it must be a well-formed declarative
sentence. A claim that fails is a reject with its reasons (``not_wellformed``), never a row.

Checks (``claimforge.nlp.wellformed``): a root clause with a finite verb, no dangling word at the end, no doubled
word, balanced brackets, at least three words, nothing left of the question (``?``, "which of the following",
"how many", a blank, wh-word + verb at the start); and, with an LM, a language-model score within the range of
real sentences: perplexity ≤ ``max_perplexity`` and perplexity ratio (the claim's perplexity over that of random
orders of its own words; about 1 for word salad) ≤ ``max_ratio``. The defaults are the 99th percentiles of the
shipped n-gram LM on real declarative sentences it was not trained on (``bench/claim_check_calibration.py``,
``docs/qa2d_quality.md``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from claimforge.backends.lm import lm_fluency_stats
from claimforge.nlp.wellformed import reason, wellformed_reasons
from claimforge.registry import ComponentConfig, registry


class ClaimCheckConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram"})  # None: parse checks only
    max_ratio: float = 0.9
    max_perplexity: float = 20000.0
    shuffles: int = Field(default=5, ge=1)


class ClaimCheck:
    """``check(texts)`` → the reasons each text fails (an empty list: it passes)."""

    def __init__(self, config: ClaimCheckConfig) -> None:
        self.config = config
        self._nlp = registry.build("nlp", config.nlp)
        self._lm = registry.build("lm", config.lm) if config.lm is not None else None
        lm_id = f"+{self._lm.model_id}" if self._lm is not None else ""
        self.model_id = f"wellformed-v1+{self._nlp.model_id}{lm_id}"

    def check(self, texts: Sequence[str]) -> list[list[str]]:
        if not texts:
            return []
        docs = self._nlp.parse(list(texts))
        out = [wellformed_reasons(t, d) for t, d in zip(texts, docs, strict=True)]
        if self._lm is not None:
            ppl, ratio = lm_fluency_stats(self._lm, texts, self.config.shuffles)
            c = self.config
            for reasons, p, r in zip(out, ppl, ratio, strict=True):
                if not math.isfinite(p) or p > c.max_perplexity:
                    reasons.append(reason("lm_perplexity", f"{p:.0f} > {c.max_perplexity:g}"))
                if not math.isfinite(r) or r > c.max_ratio:
                    reasons.append(reason("lm_ratio", f"{r:.2f} > {c.max_ratio:g}"))
        return out


@registry.register("claim_check", "wellformed", ClaimCheckConfig)
def build_claim_check(config: ClaimCheckConfig) -> ClaimCheck:
    """Parse and LM checks that a claim is a well-formed declarative sentence (default)."""
    return ClaimCheck(config)
