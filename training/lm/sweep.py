"""Dev-set sweep of the n-gram LM's pruning thresholds (and vocabulary size): perplexity vs shipped bytes.

    OMP_NUM_THREADS=1 python training/lm/sweep.py --data ../shared/data --out build/lm/sweep.json \
        --configs "4:4,8,8" "4:2,8,16" "3:2,4"

Each config is ``order:thresholds`` (weighted-difference thresholds for orders 2..N), optionally
``@max_vocab``. Models are saved to a temporary directory only to measure their size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import corpus  # noqa: E402
from kneser_ney import build_vocab, train_kneser_ney  # noqa: E402
from train import MIN_COUNT, heldout, model_bytes  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/lm/sweep.json"))
    ap.add_argument("--sources", default=",".join(corpus.SOURCES))
    ap.add_argument("--dtype", default="float16")
    ap.add_argument("--fraction", default="", help='train on a document-level fraction of sources, "evinf=0.25"')
    ap.add_argument("--configs", nargs="+", required=True)
    args = ap.parse_args()
    splits = corpus.split_corpus(args.data, tuple(args.sources.split(",")))
    if args.fraction:
        splits["train"] = corpus.subsample(splits["train"], corpus.parse_fractions(args.fraction))
    counts: Counter[str] = Counter()
    for s in splits["train"]:
        counts.update(s.tokens)
    tokens = [s.tokens for s in splits["train"]]
    results = []
    for spec in args.configs:
        head, _, vocab_size = spec.partition("@")
        order_s, _, thr = head.partition(":")
        order = int(order_s)
        prune = [float(x) for x in thr.split(",")] if thr else None
        vocab, unk_types = build_vocab(counts, MIN_COUNT, int(vocab_size) if vocab_size else 65536)
        t = time.time()
        model = train_kneser_ney(tokens, order=order, vocab=vocab, unk_types=unk_types, prune=prune)
        model = model.astype(np.dtype(args.dtype))
        with tempfile.TemporaryDirectory() as tmp:
            model.save(tmp)
            size = model_bytes(Path(tmp))
        row = {
            "config": spec,
            "ngrams": model.num_ngrams,
            "bytes": size,
            "dev": heldout(model, splits["dev"])["all"]["perplexity"],
            # an unknown word also pays log(#types behind <unk>): comparable across vocabulary sizes
            "dev_unk_penalty": heldout(model, splits["dev"])["all"]["perplexity_unk_penalty"],
            "test_by_source_unk_penalty": {
                k: v["perplexity_unk_penalty"] for k, v in heldout(model, splits["test"]).items()
            },
            "seconds": round(time.time() - t, 1),
        }
        results.append(row)
        print(json.dumps(row), flush=True)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=1) + "\n")


if __name__ == "__main__":
    main()
