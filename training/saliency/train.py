"""Train the ``learned`` salient-word ranker (docs/models/saliency.md): a logistic regression over the
features of ``claimforge.generate.saliency.features`` (the judge's attention per layer x head, part of speech,
YAKE, position), predicting which words of a COVID-Fact train claim its counter-claims replaced.

    .venv/bin/python training/saliency/train.py --out src/claimforge/models/saliency-covidfact

Trained on the first half of COVID-Fact *train* (claims grouped by evidence, file order); the second half is
held out and reported (recall@3). The regularisation strength is chosen by 3-fold cross-validation inside the
first half. COVID-Fact dev and test are never read.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.linear_model import LogisticRegression

from claimforge.evaluate.saliency_recall import gold_items
from claimforge.evaluate.saliency_recall import recall_at as recall
from claimforge.generate.saliency import (
    AttentionSaliency,
    AttentionSaliencyConfig,
    YAKEConfig,
    YAKESaliency,
    _ranked,
    candidates,
    features,
)

VERSION = "1"
DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "covidfact" / "rte_train.tsv"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", default=str(DATA))
    ap.add_argument("--attention-model", default="embedded")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    items = gold_items(Path(args.data))
    claims = [c for c, _ in items]
    gold = [g for _, g in items]
    att = AttentionSaliency(AttentionSaliencyConfig(model=args.attention_model))
    yk = YAKESaliency(YAKEConfig())
    cands = [candidates(d) for d in att.nlp.parse(claims)]
    found = yk._scores(claims, cands)
    feats = [
        features(a, off, ws, [s > -1e8 for s in y]) if ws else None
        for (a, off), ws, y in zip(att.attentions(claims), cands, found, strict=True)
    ]
    labels = [np.array([w.start in g for w in ws], dtype=int) for ws, g in zip(cands, gold, strict=True)]
    half = len(items) // 2

    def fit(idx: list[int], c: float) -> LogisticRegression:
        x = np.concatenate([feats[i] for i in idx if feats[i] is not None])
        y = np.concatenate([labels[i] for i in idx if feats[i] is not None])
        return LogisticRegression(C=c, max_iter=5000).fit(x, y)

    def rank(m: LogisticRegression, idx: list[int]) -> list[list]:
        return [_ranked(cands[i], list(m.decision_function(feats[i])) if feats[i] is not None else []) for i in idx]

    a_idx = list(range(half))
    cv = {}
    for c in (0.01, 0.03, 0.1, 0.3, 1.0):
        folds = [a_idx[k::3] for k in range(3)]
        scores = []
        for k in range(3):
            train = [i for j, f in enumerate(folds) if j != k for i in f]
            m = fit(train, c)
            scores.append(recall(rank(m, folds[k]), [gold[i] for i in folds[k]], 3))
        cv[c] = float(np.mean(scores))
    best_c = max(cv, key=lambda c: cv[c])
    model = fit(a_idx, best_c)
    b_idx = list(range(half, len(items)))
    held = recall(rank(model, b_idx), [gold[i] for i in b_idx], 3)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    spec = {
        "version": VERSION,
        "attention_model": args.attention_model,
        "attention_model_id": att.model_id,
        "coef": [round(float(x), 6) for x in model.coef_[0]],
        "intercept": round(float(model.intercept_[0]), 6),
        "C": best_c,
        "cv_recall_at_3": {str(k): round(v, 4) for k, v in cv.items()},
        "train": {"data": "covidfact/rte_train.tsv, first half of the claims (by evidence)", "claims": half},
        "held_out": {"claims": len(b_idx), "recall_at_3": round(held, 4)},
        "date": time.strftime("%Y-%m-%d"),
    }
    (out / "weights.json").write_text(json.dumps(spec, indent=1) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in spec.items() if k != "coef"}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
