"""Thresholds for the judge's gates, chosen on one split and reported on another.

The label check (``claimforge.verify.label_check``) confirms SUPPORTED when P(entailment) ≥ t, REFUTED when
P(contradiction) ≥ t (also KBIN's ``min_contradiction``), NOT_ENOUGH_INFO when both are below their NEI
thresholds. For each label, the gate (0.05 steps) with the highest recall whose precision on the *dev* split
reaches ``--precision`` is chosen (dev: the judge's early-stopping pairs, general NLI + scientific minimal pairs
+ any --extra datasets); precision and recall are then measured on the *held-out* slices, which chose nothing.
The output's ``label_thresholds`` is what a pipeline's ``label_thresholds`` takes.

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

from nli_data import add_data_arguments, data_splits  # noqa: E402

from claimforge.records import Label, Pair  # noqa: E402
from claimforge.verify.base import load_verifier  # noqa: E402
from claimforge.verify.label_check import Thresholds, verdict  # noqa: E402

GRID = [round(float(t), 2) for t in np.arange(0.05, 1.0, 0.05)]


def three_way(pairs: list[Pair]) -> list[Pair]:
    """Pairs with one gold label (binary "not entailment" pairs say nothing about contradiction)."""
    return [p for p in pairs if len(p.labels) == 1]


def gate_stats(probs: np.ndarray, gold: list[Label], label: Label, th: Thresholds) -> dict[str, float]:
    """Precision / recall of "the check confirms ``label``" among all pairs (gold ``label`` = positive)."""
    passed = np.array([verdict(label, p, th).passed for p in probs])
    positive = np.array([g == label for g in gold])
    tp = int((passed & positive).sum())
    return {
        "precision": round(tp / max(1, int(passed.sum())), 3),
        "recall": round(tp / max(1, int(positive.sum())), 3),
        "kept": int(passed.sum()),
    }


def candidates(label: Label) -> list[dict[str, float]]:
    if label == Label.SUPPORTED:
        return [{"entailment": t} for t in GRID]
    if label == Label.REFUTED:
        return [{"contradiction": t} for t in GRID]
    return [{"nei_entailment": e, "nei_contradiction": c} for e in GRID for c in GRID]


def choose(probs: np.ndarray, gold: list[Label], label: Label, target: float) -> dict[str, float]:
    """The gate of ``label`` with the highest recall whose precision reaches ``target`` (else the most precise)."""
    scored = [(gate_stats(probs, gold, label, Thresholds(**c)), c) for c in candidates(label)]
    ok = [(s["recall"], c) for s, c in scored if s["kept"] and s["precision"] >= target]
    if ok:
        return max(ok, key=lambda rc: rc[0])[1]
    return max(scored, key=lambda sc: sc[0]["precision"])[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, default=Path("src/claimforge/models/nli-minilm"))
    add_data_arguments(ap)
    ap.add_argument("--precision", type=float, default=0.85)
    ap.add_argument("--out", type=Path, default=Path("build/judge_thresholds.json"))
    args = ap.parse_args()
    _, dev, held, _ = data_splits(ap, args)
    verifier = load_verifier(args.model)
    dev3 = three_way(dev)
    held3 = three_way([p for ps in held.values() for p in ps])
    probs = {"dev": verifier.predict_proba(dev3), "held_out": verifier.predict_proba(held3)}
    report: dict = {
        "model": str(args.model),
        "precision_target": args.precision,
        "pairs": {"dev": len(dev3), "held_out": len(held3)},
    }
    gold = {"dev": [p.labels[0] for p in dev3], "held_out": [p.labels[0] for p in held3]}
    chosen: dict[str, float] = {}
    for label in Label:
        gate = choose(probs["dev"], gold["dev"], label, args.precision)
        chosen.update(gate)
        entry: dict = {"thresholds": gate}
        for name in ("dev", "held_out"):
            entry[name] = gate_stats(probs[name], gold[name], label, Thresholds(**gate))
        report[label.value] = entry
        print(label.value, entry, flush=True)
    report["label_thresholds"] = Thresholds(**chosen).model_dump()
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
