"""Which ``aggregate`` should the zero-shot NLI verifier use by default? Chosen on Citation-Integrity's test split:
real citances against up to 5 sentences of the cited abstract (multi-sentence evidence), held out from the judge's
training (training/nli/nli_data.py uses train + dev) and not one of the evaluation benchmarks. 2-way: SUPPORTED
against not supported (the dataset's REFUTE and NEI).

    OMP_NUM_THREADS=1 python bench/nli_aggregate.py --data ../shared/data
"""

from __future__ import annotations

import argparse
from pathlib import Path

from claimforge.evaluate.experiments import score
from claimforge.io.nli_sources import citation_integrity
from claimforge.registry import registry
from claimforge.verify.metrics import classification_metrics


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    args = ap.parse_args()
    ci = args.data / "citation_integrity"
    pairs = citation_integrity("citation_integrity_test", ci / "claims_test.jsonl", ci / "corpus.jsonl")
    print(f"{len(pairs)} pairs, {sum(len(p.evidence) > 1 for p in pairs)} with more than one evidence sentence")
    for aggregate in ("whole", "max"):
        v = registry.build("verifier", {"name": "zero-shot-nli", "num_labels": 2, "aggregate": aggregate})
        gold, pred, _ = score(v, pairs)
        m = classification_metrics(gold, pred, v.labels)
        print(f"{aggregate:6s} accuracy {m['accuracy']:.4f} macro-F1 {m['macro_f1']:.4f}")


if __name__ == "__main__":
    main()
