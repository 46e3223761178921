"""Do ``check``'s 5W aspects find the part of a refuted claim that was changed? (issue 15's target: on 60 refuted
claims from claimforge datasets, the aspect holding the changed span is marked refuted ≥ 70% of the time.)

REFUTED examples of claimforge builds whose provenance says what was changed:
- Multi2Claim: the distractor (``details.option``) in the claim;
- minimal edits (ClaimGen / SciClaimHunt negation, numeric, entity): the words of the claim that differ from
  ``details.supported_claim`` (a token diff).
``--n`` examples are drawn with a fixed seed, evenly over the builds given, and checked against their own
evidence with aspects on. For each: the verdict; whether some aspect overlapping the changed span is marked
refuted (the target's measure); whether the deciding aspect (largest change among the refuted) overlaps it; and,
whatever the verdict, whether the aspect whose removal lowers P(REFUTED) most overlaps it (localisation alone).

    python bench/aspect_localisation.py build/m2c_sciq_after3 build/sch_full2 build/cg_after2 --n 60 \\
        --out build/aspect_localisation.json
"""

from __future__ import annotations

import argparse
import difflib
import json
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any


def changed_span(example: dict[str, Any]) -> tuple[int, int] | None:
    """Character span of the claim that the generator changed, from the example's provenance."""
    claim = example["claim"]
    details = example.get("provenance", {}).get("details", {})
    option = details.get("option")
    if option and details.get("option_role") == "distractor":
        i = claim.lower().find(option.lower())
        return (i, i + len(option)) if i >= 0 else None
    source = details.get("supported_claim")
    if not source:
        return None
    a = [(m.start(), m.end(), m.group()) for m in re.finditer(r"\S+", claim)]
    b = [m.group() for m in re.finditer(r"\S+", source)]
    sm = difflib.SequenceMatcher(a=[w for _, _, w in a], b=b, autojunk=False)
    changed = [i for tag, i1, i2, _, _ in sm.get_opcodes() if tag != "equal" for i in range(i1, i2)]
    if not changed:  # a pure deletion (e.g. "not" removed): the word after the deletion point
        dels = [i1 for tag, i1, _, _, _ in sm.get_opcodes() if tag == "delete" or tag == "insert"]
        if not dels or dels[0] >= len(a):
            return None
        changed = [dels[0]]
    return a[min(changed)][0], a[max(changed)][1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="+", type=Path)
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--model", default="zero-shot-nli")
    ap.add_argument("--qa", default="embedded", help="the reader of QA validation: embedded, none, or a path")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    from claimforge.check import Checker, CheckItem, load_check_verifier
    from claimforge.registry import registry

    rng = random.Random(args.seed)
    per_build = -(-args.n // len(args.builds))
    chosen: list[tuple[str, dict[str, Any], tuple[int, int]]] = []
    for build in args.builds:
        pool = []
        with open(build / "examples.jsonl", encoding="utf-8") as f:
            for line in f:
                ex = json.loads(line)
                if ex["label"] == "REFUTED" and ex.get("evidence") and (span := changed_span(ex)) is not None:
                    pool.append((build.name, ex, span))
        rng.shuffle(pool)
        chosen.extend(pool[:per_build])
    chosen = chosen[: args.n]
    reader = None
    if args.qa != "none":
        reader = registry.build(
            "qa", {"name": "embedded"} if args.qa == "embedded" else {"name": "hf", "model": args.qa}
        )
    checker = Checker(load_check_verifier(args.model), nlp=registry.build("nlp", {"name": "spacy"}), qa=reader)
    from claimforge.nlp.sentences import split_sentences

    def sentences(evidence: str | list[str]) -> tuple[str, ...]:  # a build's evidence is a text or sentences
        return tuple(split_sentences(evidence)) if isinstance(evidence, str) else tuple(evidence)

    items = [CheckItem(str(i), ex["claim"], sentences(ex["evidence"])) for i, (_, ex, _) in enumerate(chosen)]
    results = checker.check(items)
    rows = []
    for (build, ex, (s, e)), r in zip(chosen, results, strict=True):
        claim = ex["claim"]

        def overlaps(a: Any, s: int = s, e: int = e) -> bool:
            return a.start < e and s < a.end

        refuted = [a for a in r.aspects if a.status == "refuted"]
        deciding = max(refuted, key=lambda a: a.change) if refuted else None
        # localisation whatever the verdict: the aspect whose removal moves the claim most towards SUPPORTED
        by_drop = max(
            r.aspects,
            key=lambda a: (
                a.probabilities_without["SUPPORTED"]
                - r.probabilities["SUPPORTED"]
                + r.probabilities["REFUTED"]
                - a.probabilities_without["REFUTED"]
            ),
            default=None,
        )
        rows.append(
            {
                "build": build,
                "method": ex["provenance"]["method"],
                "claim": claim,
                "changed": claim[s:e],
                "verdict": r.label,
                "aspects": [(a.kind, a.text, a.status, a.change, a.answer, a.qa_status) for a in r.aspects],
                # QA validation alone: some aspect holding the change has an answer the evidence contradicts
                "qa_refuted_holds_change": any(overlaps(a) for a in r.aspects if a.qa_status == "refuted"),
                "qa_refuted_elsewhere": any(not overlaps(a) for a in r.aspects if a.qa_status == "refuted"),
                "changed_aspect_refuted": any(overlaps(a) for a in refuted),
                "deciding_aspect_holds_change": deciding is not None and overlaps(deciding),
                "largest_drop_holds_change": by_drop is not None and overlaps(by_drop),
                "some_aspect_holds_change": any(overlaps(a) for a in r.aspects),
            }
        )
    n = len(rows)
    summary = {
        "n": n,
        "verdicts": dict(Counter(r["verdict"] for r in rows)),
        "changed_aspect_marked_refuted": sum(r["changed_aspect_refuted"] for r in rows),
        "deciding_aspect_holds_change": sum(r["deciding_aspect_holds_change"] for r in rows),
        "largest_drop_holds_change": sum(r["largest_drop_holds_change"] for r in rows),
        "some_aspect_holds_change": sum(r["some_aspect_holds_change"] for r in rows),
        "qa_refuted_holds_change": sum(r["qa_refuted_holds_change"] for r in rows),
        "qa_refuted_elsewhere": sum(r["qa_refuted_elsewhere"] for r in rows),
        "refuted_verdicts_with_changed_aspect_refuted": sum(
            r["changed_aspect_refuted"] for r in rows if r["verdict"] == "REFUTED"
        ),
        "by_method": {
            m: {
                "n": sum(r["method"] == m for r in rows),
                "marked_refuted": sum(r["changed_aspect_refuted"] for r in rows if r["method"] == m),
                "largest_drop": sum(r["largest_drop_holds_change"] for r in rows if r["method"] == m),
            }
            for m in sorted({r["method"] for r in rows})
        },
        "model": results[0].model if results else args.model,
    }
    print(json.dumps(summary, indent=2))
    if args.out:
        args.out.write_text(json.dumps({"summary": summary, "rows": rows}, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
