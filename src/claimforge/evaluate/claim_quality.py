"""Automatic per-claim quality scores on the scales of Wright et al. (2022) Table 2 (``ClaimScorer``): fluency,
de-contextualisation, atomicity and faithfulness. ROUGE: ``evaluate/rouge.py``; Krippendorff's alpha:
``evaluate/agreement.py``; human-evaluation sheets: ``evaluate/sheets.py``. See docs/claim_quality.md.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from claimforge.backends.lm import lm_fluency_stats, verb_reader
from claimforge.evaluate.sheets import CLAIM_CRITERIA, annotated_criteria, context_text, is_acceptable, table3_summary
from claimforge.nlp.wellformed import (
    COMMON_ABBREVIATIONS,
    atomicity_reasons,
    decontextualization_reasons,
    fluency_checks,
    reason,
)
from claimforge.registry import ComponentConfig, registry

# ----------------------------------------------------------------------------------------------------------------
# Automatic per-claim scores on the Table 2 scales


def content_overlap(claim: str, premise: str) -> float:
    """Share of the claim's content lemmas that occur in the premise (0 for a claim with no content word)."""
    from claimforge.nlp.normalize import content_lemmas

    words = set(content_lemmas(claim))
    if not words:
        return 0.0
    return len(words & set(content_lemmas(premise))) / len(words)


class ClaimScorerConfig(ComponentConfig):
    """What ``ClaimScorer`` runs and the thresholds that map model outputs onto the Table 2 scales."""

    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram"})  # None: parse checks only
    nli: dict[str, Any] = Field(default_factory=lambda: {"name": "embedded"})
    # Fluency from the LM (docs/claim_quality.md; defaults measured by bench/claim_quality_calibration.py on the
    # SciFact train claims with the shipped lm-ngram): "perplexity", and "ratio" = the claim's perplexity divided
    # by the geometric mean perplexity of `shuffles` random orders of its own words (rare terms cancel out).
    # Per measure ≤ good → 3, ≤ bad → 2, above → 1; "both" takes the lower level; then −1 per failed parse check.
    fluency_measure: Literal["both", "ratio", "perplexity"] = "both"
    shuffles: int = Field(default=5, ge=1)
    ratio_good: float = 0.51
    ratio_bad: float = 1.0
    ppl_good: float = 1670.0
    ppl_bad: float = 6120.0
    # Faithfulness from NLI (premise = source sentence + context, hypothesis = claim).
    # Defaults calibrated for the embedded NLI model on SciFact citances and their expert rewrites (see
    # faithfulness_score for the order in which they apply; another NLI model needs its own calibration).
    # Calibrated for the embedded judge of 2026-11-24 (bench/claim_quality_calibration.py; docs/claim_quality.md)
    entail_high: float = 0.92  # P(entailment) ≥ → 5
    entail_low: float = 0.0  # P(entailment) ≥ → 4 (this judge is bimodal: its 10th percentile of faithful is 0.002)
    contradiction: float = 0.76  # P(contradiction) ≥ → 2
    unrelated_overlap: float = 0.4  # content-word overlap with the premise < (and not entailed ≥ entail_high) → 1
    use_context: bool = True  # put the context into the NLI premise after the source sentence
    check_abbreviations: bool = True  # false: undefined abbreviations do not make a claim context-dependent
    common_abbreviations: tuple[str, ...] = COMMON_ABBREVIATIONS
    extra_abbreviations: tuple[str, ...] = ()
    abbreviation_max_caps: int | None = 3  # longer all-capital tokens are taken as gene/protein symbols
    digit_symbols_ok: bool = True


class ClaimScores(BaseModel):
    """Automatic scores of one claim on the Table 2 scales, each with the reasons behind it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    fluency: int
    decontextualized: int
    atomicity: int
    faithfulness: int
    acceptable: bool
    reasons: dict[str, list[str]]
    perplexity: float | None = None
    perplexity_ratio: float | None = None  # perplexity / geometric mean perplexity of shuffled word orders
    nli: dict[str, float] | None = None
    overlap: float = 0.0


def faithfulness_score(probs: Sequence[float], overlap: float, config: ClaimScorerConfig) -> tuple[int, str]:
    """Map NLI probabilities (entailment, contradiction, neutral) of premise (source sentence + context) → claim,
    and the claim's content-word overlap with the premise, onto the 1–5 scale, in this order:

    1. overlap < unrelated_overlap and P(ent) < entail_high → 1 (nothing to do with the sentence). Not "neutral":
       the embedded NLI model rarely predicts neutral for unrelated scientific sentences (docs/claim_quality.md);
    2. P(ent) ≥ entail_high → 5 (fully supported);
    3. P(con) ≥ contradiction → 2 (explicitly incorrect information);
    4. P(ent) ≥ entail_low → 4 (supported, less certain: the model cannot tell "leaves out information");
    5. otherwise → 3 (related, not explicitly stated).
    """
    ent, con, _neu = (float(p) for p in probs)
    c = config
    if overlap < c.unrelated_overlap and ent < c.entail_high:
        return 1, reason("unrelated", f"content overlap {overlap:.2f} < {c.unrelated_overlap}, P(entailment) {ent:.2f}")
    if ent >= c.entail_high:
        return 5, reason("entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_high}")
    if con >= c.contradiction:
        return 2, reason("contradicted", f"P(contradiction) {con:.2f} ≥ {c.contradiction}")
    if ent >= c.entail_low:
        return 4, reason("probably_entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_low}")
    return 3, reason("related_not_stated", f"P(entailment) {ent:.2f}, content overlap {overlap:.2f}")


def fluency_score(
    perplexity: float | None,
    checks: Sequence[str],
    config: ClaimScorerConfig,
    ratio: float | None = None,
) -> tuple[int, list[str]]:
    """The LM level — 3 / 2 / 1 by the thresholds of the measure(s) in ``config.fluency_measure``, the lower level
    when both are used, 3 without an LM — minus one per failed parse/surface check, at least 1."""
    reasons: list[str] = []
    measures = []
    if config.fluency_measure in ("both", "perplexity"):
        measures.append(("perplexity", perplexity, config.ppl_good, config.ppl_bad))
    if config.fluency_measure in ("both", "ratio"):
        measures.append(("perplexity_ratio", ratio, config.ratio_good, config.ratio_bad))
    level = 3
    for name, value, good, bad in measures:
        if value is None:
            continue
        if not math.isfinite(value) or value > bad:
            level = 1
            reasons.append(reason(f"{name}_very_high", f"{value:.3g} > {bad:g}"))
        elif value > good:
            level = min(level, 2)
            reasons.append(reason(f"{name}_high", f"{value:.3g} > {good:g}"))
    reasons.extend(checks)
    return max(1, level - len(checks)), reasons


Triple = tuple[str, str, "str | Sequence[str] | None"]


class ClaimScorer:
    """Automatic scores of (claim, source sentence, context) triples on the paper's Table 2 scales.

    Components are built from the config on first use (kind "nlp", "lm", "nli" of the registry); tests and
    callers may pass ready objects instead (``nlp=``, ``lm=``, ``nli=``) with the same interfaces.
    """

    def __init__(self, config: ClaimScorerConfig | None = None, *, nlp: Any = None, lm: Any = None, nli: Any = None):
        self.config = config or ClaimScorerConfig()
        self._nlp, self._lm, self._nli = nlp, lm, nli
        self.known = frozenset(self.config.common_abbreviations) | frozenset(self.config.extra_abbreviations)

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = registry.build("nlp", self.config.nlp)
        return self._nlp

    @property
    def lm(self) -> Any:
        if self._lm is None and self.config.lm is not None:
            self._lm = registry.build("lm", self.config.lm)
        return self._lm

    @property
    def nli(self) -> Any:
        if self._nli is None:
            self._nli = registry.build("nli", self.config.nli)
        return self._nli

    def components(self) -> dict[str, str]:
        """Model ids of the components used (for the summary)."""
        out = {"nlp": str(getattr(self.nlp, "model_id", self.config.nlp.get("name")))}
        if self.lm is not None:
            out["lm"] = str(getattr(self.lm, "model_id", ""))
        out["nli"] = str(getattr(self.nli, "model_id", ""))
        return out

    def score(self, claims: Sequence[Triple], progress: Any = None) -> list[ClaimScores]:
        """Scores of each (claim, source_sentence, context) in order: one parse batch, one LM call, one NLI call."""
        from claimforge.records import Pair

        if not claims:
            return []
        texts = [c[0].strip() for c in claims]
        premises = []
        for _, source, context in claims:
            ctx = context_text(context) if self.config.use_context else ""
            premises.append((source.strip(), ctx) if ctx else (source.strip(),))
        docs = self.nlp.parse(texts)
        ppl: list[float | None] = [None] * len(texts)
        ratio: list[float | None] = [None] * len(texts)
        if self.lm is not None:
            if self.config.fluency_measure != "perplexity":
                own, rel = lm_fluency_stats(self.lm, texts, self.config.shuffles)
                ppl, ratio = [float(p) for p in own], [float(r) for r in rel]
            else:
                ppl = [float(p) for p in np.asarray(self.lm.perplexity(texts), dtype=float)]
        pairs = [Pair(id=str(i), claim=t, evidence=p) for i, (t, p) in enumerate(zip(texts, premises, strict=True))]
        probs = np.asarray(self.nli.predict_proba(pairs), dtype=float)
        verb_reading = verb_reader(self.lm)  # the claim check's verb fallback, with the same LM
        out = []
        for i, (text, doc) in enumerate(zip(texts, docs, strict=True)):
            overlap = content_overlap(text, " ".join(premises[i]))
            fl, fl_reasons = fluency_score(ppl[i], fluency_checks(text, doc, verb_reading), self.config, ratio[i])
            dc_reasons = decontextualization_reasons(
                text,
                doc,
                self.known if self.config.check_abbreviations else None,
                self.config.digit_symbols_ok,
                self.config.abbreviation_max_caps,
            )
            at_reasons = atomicity_reasons(text, doc)
            fa, fa_reason = faithfulness_score(probs[i], overlap, self.config)
            dc, at = int(not dc_reasons), int(not at_reasons)
            out.append(
                ClaimScores(
                    claim=text,
                    fluency=fl,
                    decontextualized=dc,
                    atomicity=at,
                    faithfulness=fa,
                    acceptable=is_acceptable(fl, dc, at, fa),
                    reasons={
                        "fluency": fl_reasons,
                        "decontextualized": dc_reasons,
                        "atomicity": at_reasons,
                        "faithfulness": [fa_reason],
                    },
                    perplexity=_round(ppl[i], 3),
                    perplexity_ratio=_round(ratio[i], 4),
                    nli={
                        k: round(float(v), 4)
                        for k, v in zip(("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"), probs[i], strict=True)
                    },
                    overlap=round(overlap, 4),
                )
            )
        return out


def _round(v: float | None, nd: int) -> float | None:
    return None if v is None or not math.isfinite(v) else round(v, nd)


def summarise(scores: Sequence[ClaimScores]) -> dict[str, Any]:
    """Table 3 over automatic scores, with the paper's annotation rule applied as if the scorer were an annotator
    (De-Con. % over claims with fluency > 1; Atomic % and Faithfulness over claims also de-contextualized), plus
    the unconditional rates and how often each reason code fired."""
    records = []
    for s in scores:
        rated = annotated_criteria(s.fluency, s.decontextualized)
        rec: dict[str, Any] = {c: (getattr(s, c) if c in rated else None) for c in CLAIM_CRITERIA}
        rec["accepted"] = s.acceptable
        records.append(rec)
    out = table3_summary(records)
    n = len(scores)
    out["all_claims"] = {
        "decontextualized_pct": round(100 * sum(s.decontextualized for s in scores) / n, 2) if n else None,
        "atomicity_pct": round(100 * sum(s.atomicity for s in scores) / n, 2) if n else None,
        "faithfulness": round(sum(s.faithfulness for s in scores) / n, 4) if n else None,
        "fluency_distribution": {str(v): sum(1 for s in scores if s.fluency == v) for v in (3, 2, 1)},
        "faithfulness_distribution": {str(v): sum(1 for s in scores if s.faithfulness == v) for v in (5, 4, 3, 2, 1)},
    }
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    for s in scores:
        for crit, reasons in s.reasons.items():
            for r in dict.fromkeys(r.split(":")[0] for r in reasons):
                codes[crit][r] += 1
    out["reasons"] = {c: dict(cnt.most_common()) for c, cnt in sorted(codes.items())}
    return out
