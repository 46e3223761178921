"""The emit-time claim check: before a generated claim becomes a dataset row it must be a well-formed declarative
sentence. A claim that fails is a reject with its reasons (``not_wellformed``), never a row.

Checks (``claimforge.nlp.wellformed``), each failure a reason code: a root clause with a finite verb, no dangling
word at the end, no doubled word, balanced brackets, at least three words, nothing left of the question (``?``,
"which of the following", "how many", a blank, wh-word + verb at the start); with an LM, a language-model score
within the range of real sentences: perplexity ≤ ``max_perplexity`` and perplexity ratio (the claim's perplexity
over that of random orders of its own words; about 1 for word salad) ≤ ``max_ratio``; optionally
(``self_contained``, ``atomic``) that the claim stands on its own and states one thing. The LM defaults bound the
range of real declarative sentences the shipped n-gram LM was not trained on (``bench/claim_check_calibration.py``,
2,246 EntailmentBank and PubMed sentences, ``docs/qa2d_quality.md``): the largest ratio seen there (0.85) and about
their 99.9th percentile of perplexity (4,150-4,730). The 99th percentiles (0.53, 2,000) rejected many fluent
technical claims ("Stiffness is resistance to elastic deformation."). Since wellformed-v12 the LM scores unknown words
without its unknown-word penalty (``unk_penalty: false``): the calibration set's largest perplexity stays 4,666 (that
sentence has no unknown word), its 99.9th percentile falls to 2,755, and a claim with several rare terms is no longer
over the bound for its terms alone ("Auriculotemporal nerve encircles middle meningeal artery.": 24,142 -> 1,605).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from pydantic import Field

from claimforge.backends.lm import lm_fluency_stats, verb_reader
from claimforge.nlp.wellformed import (
    COMMON_ABBREVIATIONS,
    atomicity_reasons,
    decontextualization_reasons,
    headline_reasons,
    reason,
    wellformed_reasons,
)
from claimforge.registry import ComponentConfig, registry


class ClaimCheckConfig(ComponentConfig):
    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    # None: parse checks only. The n-gram LM without its unknown-word penalty: a word it never saw costs the
    # probability of an unknown word in that place, not also that of one word among 51,245 rare ones, so a rare
    # technical term ("Auriculotemporal nerve encircles ...") is no sign of a broken sentence (wellformed-v12)
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram", "unk_penalty": False})
    max_ratio: float = 0.85
    max_perplexity: float = 5000.0
    shuffles: int = Field(default=5, ge=1)
    # At most this share of a claim's words (of 4 or more) unknown to the n-gram LM: without the unknown-word penalty
    # a run of rare terms is cheap ("Odontoblasts dentinogenesis ameloblasts amelogenesis cementoblasts produce.":
    # perplexity 44); 1 of 30,248 passing MedMCQA and SciQ conversions goes over 0.5
    max_unknown_share: float = Field(default=0.5, ge=0.0, le=1.0)
    # The LM measures are noisy on very short claims (few words to shuffle, few n-grams): shorter ones skip them.
    lm_min_words: int = Field(default=6, ge=1)
    # Also require the claim to stand on its own (no unresolved pronoun or demonstrative, no "we" / "this study" /
    # "Figure 2", no citation marker, no undefined abbreviation) and to be atomic (one predicate, no list):
    # docs/claim_quality.md lists the reasons. On for ClaimGen, whose claims come from sentences in a paper.
    self_contained: bool = False
    atomic: bool = False
    # Require a finite main verb by the parse alone (``headline_fragment``): for titles and posts, where headline
    # fragments ("Predicting epidemic risk from contact data") are common and the verb fallback lets them pass.
    strict_root: bool = False
    extra_abbreviations: tuple[str, ...] = ()


class ClaimCheck:
    """``check(texts)`` → the reasons each text fails (an empty list: it passes)."""

    def __init__(self, config: ClaimCheckConfig) -> None:
        self.config = config
        self._nlp = registry.build("nlp", config.nlp)
        self._lm = registry.build("lm", config.lm) if config.lm is not None else None
        lm_id = f"+{self._lm.model_id}" if self._lm is not None else ""
        if config.lm is not None and config.lm.get("unk_penalty") is False:
            lm_id += ":no-unk-penalty"
        # v3: words that lost their leading symbol ("The -diversity") and a verb with no subject are rejected; v4:
        # a claim may not end in a preposition, subordinator or determiner ("associated with a decrease in.")
        # v6: references to the sentence before ("Another possibility is", "Besides this", "similar results") are
        # not self-contained; v7: an acronym at the end is no dangling word ("in severe AS"), a singular the tagger
        # calls plural is no agreement error ("Pulp proper resembles"; "people", "cattle" are plural), a lone
        # "Since ..." clause is no sentence; v8: "such as" followed by a coordinator is a broken list,
        # a capitalised word is no fallback verb ("... for Chronic Diseases Collaboration." has no verb); v9: a
        # sentence opening on a past form with no subject ("Measured calibration accuracy for ..."), a passive
        # reporting verb before a clause without "that" ("has been suggested it can"), "As" + one clause ("As
        # metformin is an inhibitor of complex I."), "this"/"these" standing alone ("The reason for this"), "their"
        # with nothing to point to; v10: a "Not" left before the verb it belonged to ("Not should be used in ...")
        # v11: with an n-gram LM, a verb form the tagger took for a plural noun counts as the verb before a
        # preposition, adverb, "to" or the end when it reads as one ("The maxillary sinus drains into the middle
        # meatus"), and is an agreement error after a plural subject ("Minerals changes from heat"); an exam's
        # truth stem left at the start is a question left ("True about placenta accreta is seen in ..."), and a
        # sentence that opens on a copula ("Are helper T cells.") or is an order ("Maintain vertical height of face.")
        # has no subject; v12: the recipes' n-gram LM scores unknown words without the penalty (the claim check's
        # default), an unknown word is plural for the agreement check only with an "-s" ("foramen is"), and
        # "means", "series", "species" are either number; a sentence ending on a copula with no clause that can end
        # so dangles ("The most appropriate management of such a case is."); more than half the words unknown to the
        # n-gram LM is lm_unknown_words; v13: a plural noun after a participle in its own phrase ("The tooth most
        # commonly having bifurcated roots is") or an age unit ("2 years female has been treated") is no subject for
        # the agreement check, and a particle ending a hyphenated word does not dangle ("wax chew-in"); v14: any
        # "what" ending the claim is a question left ("... and what it does define its what.")
        self.model_id = f"wellformed-v14+{self._nlp.model_id}{lm_id}"
        self._verb_reading = verb_reader(self._lm)

    def check(self, texts: Sequence[str]) -> list[list[str]]:
        if not texts:
            return []
        docs = self._nlp.parse(list(texts))
        c = self.config
        known = frozenset(COMMON_ABBREVIATIONS) | frozenset(c.extra_abbreviations)
        out = []
        for t, d in zip(texts, docs, strict=True):
            reasons = wellformed_reasons(t, d, self._verb_reading)
            if c.self_contained:
                reasons += decontextualization_reasons(t, d, known)
            if c.atomic:
                reasons += atomicity_reasons(t, d)
            if c.strict_root:
                reasons += headline_reasons(t, d)
            out.append(reasons)
        unknown = getattr(self._lm, "unknown_words", None)  # the n-gram LM only
        if unknown is not None:
            for t, reasons in zip(texts, out, strict=True):
                n_unknown, n_words = unknown(t)
                if n_words >= 4 and n_unknown > c.max_unknown_share * n_words:
                    reasons.append(reason("lm_unknown_words", f"{n_unknown} of {n_words}"))
        scored = [i for i, t in enumerate(texts) if len(t.split()) >= c.lm_min_words]
        if self._lm is not None and scored:
            ppl, ratio = lm_fluency_stats(self._lm, [texts[i] for i in scored], c.shuffles)
            for reasons, p, r in zip([out[i] for i in scored], ppl, ratio, strict=True):
                if not math.isfinite(p) or p > c.max_perplexity:
                    reasons.append(reason("lm_perplexity", f"{p:.0f} > {c.max_perplexity:g}"))
                if not math.isfinite(r) or r > c.max_ratio:
                    reasons.append(reason("lm_ratio", f"{r:.2f} > {c.max_ratio:g}"))
        return out


@registry.register("claim_check", "wellformed", ClaimCheckConfig)
def build_claim_check(config: ClaimCheckConfig) -> ClaimCheck:
    """Parse and LM checks that a claim is a well-formed declarative sentence (default)."""
    return ClaimCheck(config)
