"""ROUGE of generated claims against reference claims (Wright et al. 2022, Table 5)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

# ----------------------------------------------------------------------------------------------------------------
# ROUGE (Table 5)

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")


def rouge_against_references(
    generated: Mapping[str, Sequence[str]], references: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """The paper's Table 5 protocol: for every generated claim of a source, the best ROUGE F-measure over that
    source's reference claims (each ROUGE type maximised on its own), averaged over all generated claims.

    Scores come from the PyPI ``rouge-score`` package (Google's reimplementation of Lin 2004) with
    ``use_stemmer=True`` (Porter stemming, lower-cased alphanumeric tokens) and are reported in percent.
    Sources with no (non-empty) references cannot be scored: their claims are counted and excluded, and the
    source ids are listed. Reference sources with no generated claim do not enter the mean (the protocol
    averages over generated claims) and are counted as ``references_without_generated``.
    """
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=True)
    sums = dict.fromkeys(ROUGE_TYPES, 0.0)
    per_source: dict[str, int] = {}
    unscored: dict[str, int] = {}
    for sid, claims in generated.items():
        claims = [c for c in claims if isinstance(c, str)]
        refs = [r for r in references.get(sid, ()) if isinstance(r, str) and r.strip()]
        if not refs:
            unscored[sid] = len(claims)
            continue
        per_source[sid] = len(claims)
        for claim in claims:
            scores = [scorer.score(ref, claim) for ref in refs]  # score(target, prediction)
            for t in ROUGE_TYPES:
                sums[t] += max(s[t].fmeasure for s in scores)
    n_claims = sum(per_source.values())
    out: dict[str, Any] = {t: (round(100 * sums[t] / n_claims, 4) if n_claims else None) for t in ROUGE_TYPES}
    out.update(
        {
            "n_sources": sum(1 for v in per_source.values() if v),
            "n_claims": n_claims,
            "claims_per_source": per_source,
            "sources_without_references": sorted(unscored),
            "claims_without_references": sum(unscored.values()),
            "references_without_generated": sum(
                1 for sid, refs in references.items() if refs and not generated.get(sid)
            ),
            "scorer": "rouge-score, use_stemmer=True, F-measure, max over references, mean over generated claims",
        }
    )
    return out
