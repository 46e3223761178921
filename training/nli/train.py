"""Train the embedded NLI cross-encoder (the judge) on ../shared/data/nli plus the project's scientific
minimal pairs. Safe to interrupt at any point: rerun the same command and it resumes from the last
checkpoint (the run directory's ``checkpoint/``); ``best/`` always holds the best dev model so far.

    python training/nli/train.py --data ../shared/data/nli --sci build/sci_pairs/pairs.jsonl \
        --init src/claimforge/models/nli-minilm --out build/judge_run
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from nli_data import add_data_arguments, extra_datasets, label_mix, splits  # noqa: E402

from claimforge.cache import files_digest  # noqa: E402
from claimforge.registry import registry  # noqa: E402
from claimforge.verify.base import load_verifier  # noqa: E402
from claimforge.verify.trainer import TrainConfig, train  # noqa: E402

VERIFIER = {"name": "cross-encoder", "max_length": 128, "freeze_embeddings": True, "batch_size": 64}
TRAIN = {
    "epochs": 1.0,
    "batch_size": 16,
    "lr": 3e-5,
    "warmup_ratio": 0.03,
    "eval_every": 1000,
    "patience": 6,
    "seed": 13,
    "threads": 1,
    "precision": "bf16",
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    add_data_arguments(ap)
    ap.add_argument("--init", type=Path, default=None, help="start from these weights (a saved verifier)")
    ap.add_argument("--out", type=Path, default=Path("build/judge_run"))
    ap.add_argument("--set", dest="sets", action="append", default=[], help="a TrainConfig field: key=value")
    args = ap.parse_args()
    extra = extra_datasets(ap, args.extra)
    tr, dev, held, counts = splits(args.data, args.sci, extra, args.real)
    print(json.dumps({"counts": counts, "train_labels": label_mix(tr)}), flush=True)
    overrides = dict(TRAIN)
    for item in args.sets:
        key, _, value = item.partition("=")
        overrides[key] = json.loads(value) if value[:1].isdigit() or value in ("true", "false") else value
    if args.init is not None:
        verifier = load_verifier(args.init, **{k: v for k, v in VERIFIER.items() if k != "name"})
        init_id = files_digest(sorted(p for p in args.init.rglob("*") if p.is_file()))
    else:
        verifier, init_id = registry.build("verifier", VERIFIER), None
    card = train(
        verifier,
        tr,
        dev,
        TrainConfig(**overrides),
        args.out,
        data_info={
            "root": str(args.data),
            "sci": str(args.sci) if args.sci else None,
            "extra": {k: str(v) for k, v in extra.items()},
            "real": str(args.real) if args.real else None,
            "counts": counts,
        },
        log=lambda m: print(m, flush=True),
        init_id=init_id,
    )
    print(card["best"], card["train_seconds"], flush=True)


if __name__ == "__main__":
    main()
