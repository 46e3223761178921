"""Salient-word recall@k on COVID-Fact train (COVID-Fact §2.2.1): for each original (entailment) claim, the
gold words are those its counter-claims replaced (word-level diff of claim and counter-claim, punctuation and
case ignored); a claim is recalled when one of a method's top-k words is a gold word. The paper's human study
gives recall@3 68% (attention) and 54% (YAKE) against annotators' choices.

    .venv/bin/python bench/covidfact_saliency.py --methods pos yake attention --k 3 --out build/saliency.json
    .venv/bin/python bench/covidfact_saliency.py --sweep   # attention layer x head on the first half (choose),
                                                             # reported on the second half

The split: claims are ordered as in the file and cut in halves by evidence text (no evidence in both).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from claimforge.evaluate.saliency_recall import gold_items
from claimforge.evaluate.saliency_recall import recall_at as recall
from claimforge.registry import registry

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data" / "covidfact" / "rte_train.tsv"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--methods", nargs="+", default=["pos", "yake", "attention"])
    ap.add_argument("--k", type=int, default=3)
    ap.add_argument("--sweep", action="store_true", help="attention: every layer x head on half A, best on half B")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    items = gold_items(Path(args.data))
    half = len(items) // 2
    claims = [c for c, _ in items]
    gold = [g for _, g in items]
    result: dict = {"n_claims": len(items), "k": args.k, "date": time.strftime("%Y-%m-%d"), "methods": {}}
    # "chance": k random candidates
    for name in args.methods:
        spec = {"name": name}
        t0 = time.perf_counter()
        sal = registry.build("saliency", spec)
        ranked = sal.rank(claims)
        rng = np.random.default_rng(0)
        rand = [list(rng.permutation(np.array(r, dtype=object))) for r in ranked]
        result["methods"][name] = {
            "recall_all": round(recall(ranked, gold, args.k), 4),
            "recall_half_b": round(recall(ranked[half:], gold[half:], args.k), 4),
            "seconds": round(time.perf_counter() - t0, 1),
            "model_id": sal.model_id,
        }
        result["random_candidates"] = round(recall(rand, gold, args.k), 4)
        print(name, result["methods"][name], flush=True)
    if args.sweep:
        sal = registry.build("saliency", {"name": "attention"})
        docs = sal.nlp.parse(claims)
        from claimforge.generate.saliency import _ranked, candidates, word_scores

        cands = [candidates(d) for d in docs]
        atts = sal.attentions(claims)
        n_layers, n_heads = atts[0][0].shape[:2]
        grid = {}
        for layer in range(n_layers):
            for head in [*range(n_heads), None]:
                ranked = []
                for (att, off), ws in zip(atts, cands, strict=True):
                    w = att[layer].mean(axis=0) if head is None else att[layer][head]
                    ranked.append(_ranked(ws, word_scores(w, off, ws)))
                grid[(layer, head)] = (
                    recall(ranked[:half], gold[:half], args.k),
                    recall(ranked[half:], gold[half:], args.k),
                )
        best = max(grid, key=lambda k: grid[k][0])
        result["sweep"] = {
            "chosen_on_half_a": {
                "layer": best[0],
                "head": best[1],
                "recall_half_a": round(grid[best][0], 4),
                "recall_half_b": round(grid[best][1], 4),
            },
            "grid": {
                f"{lay}:{'mean' if h is None else h}": [round(a, 4), round(b, 4)] for (lay, h), (a, b) in grid.items()
            },
        }
        print("sweep", result["sweep"]["chosen_on_half_a"])
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(json.dumps(result, indent=1))
    print(json.dumps({k: v for k, v in result.items() if k != "sweep"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
