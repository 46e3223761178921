"""Train the embedded NLI cross-encoder (MiniLM-L6 weights) on ../shared/data/nli.

python training/nli/train.py --data ../shared/data/nli --out build/nli_run
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from nli_data import splits  # noqa: E402

from claimforge.registry import registry  # noqa: E402
from claimforge.verify.trainer import TrainConfig, train  # noqa: E402

VERIFIER = {"name": "cross-encoder", "max_length": 128, "freeze_embeddings": True, "batch_size": 64}
TRAIN = {
    "epochs": 1.0,
    "batch_size": 16,
    "lr": 4e-5,
    "warmup_ratio": 0.06,
    "eval_every": 500,
    "patience": 4,
    "seed": 13,
    "threads": 1,
    "max_train_pairs": 50000,
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=Path("../shared/data/nli"))
    ap.add_argument("--out", type=Path, default=Path("build/nli_run"))
    args = ap.parse_args()
    tr, dev, held = splits(args.data)
    print(f"train {len(tr)} {Counter(p.id.split(':')[0] for p in tr)}", flush=True)
    print(f"dev {len(dev)}; held-out { {k: len(v) for k, v in held.items()} }", flush=True)
    verifier = registry.build("verifier", VERIFIER)
    card = train(
        verifier,
        tr,
        dev,
        TrainConfig(**TRAIN),
        args.out,
        data_info={"sources": sorted(held), "root": str(args.data)},
        log=lambda m: print(m, flush=True),
    )
    print(card["best"], card["train_seconds"], flush=True)


if __name__ == "__main__":
    main()
