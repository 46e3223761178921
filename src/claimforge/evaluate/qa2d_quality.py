"""Automatic checks of QA2D output: is a claim a declarative sentence that states the answer? And ROUGE-L
against reference declaratives. Used by bench/qa2d_quality.py and reported in docs/qa2d_quality.md.
"""

from __future__ import annotations

import random
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from claimforge.nlp.normalize import contains_content, content_lemmas

# A claim that still reads as a question: a wh-word (other than a subordinating when/where/how clause) or an
# auxiliary at the start.
_QUESTION_START = re.compile(
    r"^((what|which|who|whom|whose|why)\b|(where|when|how)\s+(is|are|was|were|do|does|did|can|could|will)\b"
    r"|(is|are|was|were|do|does|did|can|could)\s)",
    re.I,
)
FINITE_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})


def claim_checks(claim: str | None, answer: str, doc: Any | None) -> dict[str, bool]:
    """Per-claim booleans; ``doc`` is the claim's parse (for the finite-verb check)."""
    if not claim:
        return {"produced": False, "contains_answer": False, "declarative": False, "finite_verb": False, "ok": False}
    needle = content_lemmas(answer)
    contains = contains_content(content_lemmas(claim), needle) if needle else answer.lower() in claim.lower()
    declarative = (
        claim.endswith(".")
        and "?" not in claim
        and "_" not in claim
        and not _QUESTION_START.match(claim)
        and "of the following" not in claim.lower()
    )
    # The tagger or the morphologizer may be the one that gets a verb right ("oxides cause" tagged IN/VERB).
    finite = doc is not None and any(
        t.tag_ in FINITE_TAGS or (t.pos_ in ("VERB", "AUX") and t.tag_ not in ("VBG", "VBN", "TO")) for t in doc
    )
    return {
        "produced": True,
        "contains_answer": contains,
        "declarative": declarative,
        "finite_verb": finite,
        "ok": contains and declarative and finite,
    }


def rouge_l(predictions: Sequence[str], references: Sequence[str]) -> dict[str, float]:
    """Mean ROUGE-L precision/recall/F1 (rouge-score, stemmed) over aligned pairs."""
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(["rougeL"], use_stemmer=True)
    p = r = f = 0.0
    for pred, ref in zip(predictions, references, strict=True):
        s = scorer.score(ref, pred)["rougeL"]
        p, r, f = p + s.precision, r + s.recall, f + s.fmeasure
    n = max(1, len(predictions))
    return {"precision": round(100 * p / n, 2), "recall": round(100 * r / n, 2), "f1": round(100 * f / n, 2)}


def sample(data: Path, n: int, seed: int) -> dict[str, list[tuple[str, str, str]]]:
    """``n`` seeded random SciQ train and MedMCQA validation questions with keyed answers: (id, question, answer);
    for a keyed "all of the above" the answer is the true option a Multi2Claim build states (:func:`keyed_option`)."""
    from claimforge.generate.multi2claim import keyed_option
    from claimforge.registry import registry

    rng = random.Random(seed)
    out: dict[str, list[tuple[str, str, str]]] = {}
    sciq = [i for i in registry.build("reader", {"name": "sciq", "path": str(data / "sciq/train.json")}).read()]
    out["sciq"] = [(i.id, i.question, i.answer or "") for i in rng.sample(sciq, n)]
    med = [
        i
        for i in registry.build("reader", {"name": "medmcqa", "path": str(data / "medmcqa/validation.jsonl")}).read()
        if i.answer
    ]
    # the option a Multi2Claim build states for the key: the answer, or one true option for "all of the above"
    out["medmcqa"] = [(i.id, i.question, keyed_option(i) or i.answer or "") for i in rng.sample(med, n)]
    return out


def summarise(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Percentages of rows passing each check of :func:`claim_checks` (``rows[i]["checks"]``), reject reasons."""
    n = len(rows)
    keys = ("produced", "contains_answer", "declarative", "finite_verb", "ok")
    s: dict[str, Any] = {k: round(100 * sum(r["checks"][k] for r in rows) / n, 1) for k in keys}
    s["n"] = n
    s["inverted_stems"] = sum(r["polarity"] == "inverted" for r in rows)
    reasons: dict[str, int] = {}
    for r in rows:
        if r["reason"]:
            reasons[r["reason"]] = reasons.get(r["reason"], 0) + 1
    s["reject_reasons"] = reasons
    return s
