"""Thresholds for the judge's gates, chosen on one split and reported on another.

A gate keeps a REFUTED label when P(contradiction) ≥ t (KBIN's ``min_contradiction``) and a SUPPORTED label
when P(entailment) ≥ t. For each, the smallest t whose precision on the *dev* split reaches ``--precision`` is
chosen (dev: the judge's early-stopping pairs, general NLI + scientific minimal pairs); precision and recall at
that t are then measured on the *held-out* slices, which chose nothing.

    python training/nli/calibrate.py --model src/claimforge/models/nli-minilm --data ../shared/data/nli \
        --sci build/sci_pairs/pairs.jsonl --out build/judge_thresholds.json
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))

from nli_data import splits  # noqa: E402

from claimforge.records import Label, Pair  # noqa: E402
from claimforge.verify.base import load_verifier  # noqa: E402

GATES = {"contradiction": (1, Label.REFUTED), "entailment": (0, Label.SUPPORTED)}


def three_way(pairs: list[Pair]) -> list[Pair]:
    """Pairs with one gold label (binary "not entailment" pairs say nothing about contradiction)."""
    return [p for p in pairs if len(p.labels) == 1]


def precision_recall(scores: np.ndarray, gold: np.ndarray, t: float) -> tuple[float, float, int]:
    kept = scores >= t
    tp = int((kept & gold).sum())
    return tp / max(1, int(kept.sum())), tp / max(1, int(gold.sum())), int(kept.sum())


def choose(scores: np.ndarray, gold: np.ndarray, target: float) -> float:
    """The smallest threshold (0.05 steps) whose precision reaches ``target`` (else the most precise one)."""
    grid = np.round(np.arange(0.05, 1.0, 0.05), 2)
    for t in grid:
        p, _, n = precision_recall(scores, gold, float(t))
        if n and p >= target:
            return float(t)
    return float(max(grid, key=lambda t: precision_recall(scores, gold, float(t))[0]))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=Path("src/claimforge/models/nli-minilm"))
    ap.add_argument("--data", type=Path, default=Path("../shared/data/nli"))
    ap.add_argument("--sci", type=Path, default=None)
    ap.add_argument("--precision", type=float, default=0.85)
    ap.add_argument("--out", type=Path, default=Path("build/judge_thresholds.json"))
    args = ap.parse_args()
    _, dev, held, _ = splits(args.data, args.sci)
    verifier = load_verifier(args.model)
    dev3 = three_way(dev)
    held3 = three_way([p for ps in held.values() for p in ps])
    probs = {"dev": verifier.predict_proba(dev3), "held_out": verifier.predict_proba(held3)}
    report: dict = {
        "model": str(args.model),
        "precision_target": args.precision,
        "pairs": {"dev": len(dev3), "held_out": len(held3)},
    }
    for gate, (column, label) in GATES.items():
        gold = {name: np.array([p.labels[0] == label for p in ps]) for name, ps in (("dev", dev3), ("held_out", held3))}
        t = choose(probs["dev"][:, column], gold["dev"], args.precision)
        entry = {"threshold": t}
        for name in ("dev", "held_out"):
            p, r, n = precision_recall(probs[name][:, column], gold[name], t)
            entry[name] = {"precision": round(p, 3), "recall": round(r, 3), "kept": n}
        report[gate] = entry
        print(gate, entry, flush=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
