"""QA2D quality on real questions: 200 random SciQ + 200 random MedMCQA (seeded), and ROUGE-L against the
EntailmentBank declarative rewrites. Writes per-claim JSONL for reading and prints a JSON summary; "converted and
passed the claim check" is the share a Multi2Claim build turns into claims (the recipe's emit-time check).

    python bench/qa2d_quality.py --data ../shared/data --out build/qa2d_quality [--set qa2d.name=llm ...]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from claimforge.config import apply_overrides, load_recipe
from claimforge.evaluate.qa2d_quality import claim_checks, rouge_l, sample, summarise
from claimforge.registry import registry
from claimforge.types import QA2DRequest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/qa2d_quality"))
    ap.add_argument("--n", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--set", dest="sets", action="append", default=[])
    args = ap.parse_args()
    recipe = apply_overrides(load_recipe("multi2claim"), args.sets)
    conv = registry.build("qa2d", recipe["qa2d"])
    check = registry.build("claim_check", recipe["claim_check"]) if recipe.get("claim_check") else None
    nlp = registry.build("nlp", recipe["qa2d"].get("nlp", {"name": "spacy"}))
    args.out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, Any] = {"qa2d": conv.model_id, "seed": args.seed}
    for name, items in sample(args.data, args.n, args.seed).items():
        res = conv.convert([QA2DRequest(question=q, answer=a) for _, q, a in items])
        docs = nlp.parse([r.text or "" for r in res])
        # The emit-time claim check, as Multi2Claim runs it: a claim that fails is a not_wellformed reject.
        why = check.check([r.text or "" for r in res]) if check is not None else [[] for _ in res]
        rows = [
            {
                "id": i,
                "question": q,
                "answer": a,
                "claim": r.text,
                "reason": r.reason,
                "polarity": r.polarity,
                "checks": claim_checks(r.text, a, d),
                "claim_check": w if r.text else None,
            }
            for (i, q, a), r, d, w in zip(items, res, docs, why, strict=True)
        ]
        (args.out / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
        summary[name] = summarise(rows)
        passed = [r for r in rows if r["claim"] and not r["claim_check"]]
        codes: dict[str, int] = {}
        for r in rows:
            for c in r["claim_check"] or []:
                codes[c.split(":")[0]] = codes.get(c.split(":")[0], 0) + 1
        summary[name]["converted_and_passed_claim_check"] = round(100 * len(passed) / len(rows), 1)
        summary[name]["claim_check_reasons"] = codes
    eb = [json.loads(x) for x in (args.data / "qa2d/entailmentbank_train.jsonl").read_text().splitlines()]
    res = conv.convert([QA2DRequest(question=r["question"], answer=r["answer"]) for r in eb])
    preds = [(r.text or "").lower() for r in res]
    refs = [r["hypothesis"] for r in eb]
    summary["entailmentbank"] = {
        "n": len(eb),
        "produced": round(100 * sum(r.text is not None for r in res) / len(eb), 1),
        "rougeL_all": rouge_l(preds, refs),
        "rougeL_produced": rouge_l(
            [p for p, r in zip(preds, res, strict=True) if r.text],
            [h for h, r in zip(refs, res, strict=True) if r.text],
        ),
        "baseline_question_plus_answer": rouge_l([f"{r['question']} {r['answer']}".lower() for r in eb], refs),
    }
    (args.out / "entailmentbank.jsonl").write_text(
        "".join(
            json.dumps(
                {"question": r["question"], "answer": r["answer"], "reference": r["hypothesis"], "claim": x.text}
            )
            + "\n"
            for r, x in zip(eb, res, strict=True)
        )
    )
    print(json.dumps(summary, indent=2))


if __name__ == "__main__":
    main()
