"""The ``minimal-edit`` negator: false versions of a claim made by the edits of the judge's scientific minimal
pairs (``generate/minimal_pairs.py``), which a blind reading found right 21 of 23 times — a quantity the
evidence states otherwise, a direction word reversed ("increased" → "decreased", "higher" → "lower"), a
negation removed ("did not improve" → "improved"), or the main verb negated ("is associated" → "is not
associated"). Each candidate is judged against the evidence (P(contradiction) ≥ ``min_contradiction``), like
KBIN's; the first kind in ``edits`` that passes is kept. Unlike KBIN it never substitutes a term, so it cannot
make the nonsense swaps KBIN's readings found (``docs/claimgen.md``); it makes fewer negations.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Literal

from pydantic import Field

from claimforge.generate.kbin import Negation
from claimforge.generate.minimal_pairs import Edit, direction_edit, negation_edit, number_edit
from claimforge.progress import phase
from claimforge.registry import ComponentConfig, registry
from claimforge.verify.label_check import judge

EditKind = Literal["number", "direction", "negation_removed", "negation_added"]


class MinimalEditConfig(ComponentConfig):
    nlp: dict[str, Any] = {"name": "spacy"}  # the parse that finds the main verb
    nli: dict[str, Any] = {"name": "embedded", "runtime": "onnx"}
    # tried in this order; negation_added ("not") last: the edit almost every claim allows, and the one a
    # verifier can learn as an artefact
    edits: tuple[EditKind, ...] = ("number", "direction", "negation_removed", "negation_added")
    min_contradiction: float = Field(0.65, ge=0, le=1)  # the judge's REFUTED gate (docs/models/nli.md)
    seed: int = 13


@registry.register("negator", "minimal-edit", MinimalEditConfig)
class MinimalEditNegator:
    """Negations by one minimal edit, judged against the evidence."""

    name = "minimal-edit"

    def __init__(self, config: MinimalEditConfig) -> None:
        self.config = config
        self.nlp = registry.build("nlp", config.nlp)
        self.nli = registry.build("nli", config.nli)
        # the rules' version: 2 (2026-11-27) plurals after a removed "no", "also"/"still", adverbs, no direction swap
        # in a negated claim; 3 (2026-11-27) a negation is removed only from the main clause; 4 (2026-11-28) no
        # negation added to a main clause with a clause of reason ("…, as mitochondria are both …")
        self.model_id = f"minimal-edit/4({','.join(config.edits)};nli={self.nli.model_id})"

    def _edits(self, claim: str, evidence: str, doc: Any, rng: random.Random) -> list[Edit]:
        out = []
        for kind in self.config.edits:
            if kind == "number":
                e = number_edit(claim, evidence, rng)
            elif kind == "direction":
                e = direction_edit(claim, rng)
            else:
                e = negation_edit(claim, doc)
                e = e if e is not None and e.kind == kind else None
            if e is not None:
                out.append(e)
        return out

    def negate(
        self, claims: Sequence[str], progress: Any = None, evidence: Sequence[tuple[str, ...]] | None = None
    ) -> list[Negation]:
        rng = random.Random(self.config.seed)
        premises = list(evidence) if evidence is not None else [(c,) for c in claims]
        docs = self.nlp.parse(list(claims), phase(progress, 0.0, 0.3))
        per_claim = [self._edits(c, " ".join(ev), d, rng) for c, ev, d in zip(claims, premises, docs, strict=True)]
        flat = [(n, e) for n, edits in enumerate(per_claim) for e in edits]
        probs = judge(self.nli, [e.claim for _, e in flat], [premises[n] for n, _ in flat], phase(progress, 0.3, 1.0))
        out: list[Negation] = []
        i = 0
        for n, edits in enumerate(per_claim):
            scores = probs[i : i + len(edits)]
            i += len(edits)
            if not edits:
                out.append(Negation(None, "no_minimal_edit", {"method": "minimal-edit", "original_claim": claims[n]}))
                continue
            passing = [k for k in range(len(edits)) if scores[k, 1] >= self.config.min_contradiction]
            k = passing[0] if passing else int(scores[:, 1].argmax())
            e = edits[k]
            details = {
                "method": "minimal-edit",
                "original_claim": claims[n],
                "edit": e.kind,
                "replaced": e.old,
                "replacement": e.new,
                "contradiction": round(float(scores[k, 1]), 4),
                "entailment": round(float(scores[k, 0]), 4),
                "judged_against": "evidence" if evidence is not None else "claim",
                "candidates": len(edits),
            }
            if passing:
                out.append(Negation(e.claim, None, details))
            else:
                out.append(Negation(None, "contradiction_below_threshold", details))
        if progress is not None:
            progress(len(claims), len(claims))
        return out
