"""Training throughput of the embedded NLI cross-encoder on this CPU: fp32 vs bf16 autocast, maximum
length, and partial freezing. Steps per second over real VitaminC / SNLI pairs, median of ``--runs``.

    python bench/bench_nli_training.py --data ../shared/data/nli --steps 30 --runs 3 --threads 1
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from pathlib import Path

from claimforge.io.nli_sources import nli_sources
from claimforge.verify.base import load_verifier, target_mask

SETTINGS = {
    "fp32, len 128": {"precision": "fp32", "max_length": 128, "freeze_layers": 0},
    "bf16, len 128": {"precision": "bf16", "max_length": 128, "freeze_layers": 0},
    "bf16, len 96": {"precision": "bf16", "max_length": 96, "freeze_layers": 0},
    "bf16, len 128, 2 layers frozen": {"precision": "bf16", "max_length": 128, "freeze_layers": 2},
}


def pairs_per_second(model: Path, pairs: list, setting: dict, steps: int, batch: int) -> float:
    import torch

    v = load_verifier(
        model, max_length=setting["max_length"], freeze_layers=setting["freeze_layers"], freeze_embeddings=True
    )
    v.prepare(pairs)
    params = [p for p in v.module.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=1e-5)
    masks = torch.from_numpy(target_mask(pairs, v.labels))
    v.module.train()
    order = sorted(range(len(pairs)), key=lambda i: v.length(pairs[i]))  # bucketed, as the trainer does
    batches = [order[i : i + batch] for i in range(0, len(order), batch)]
    random.Random(0).shuffle(batches)
    t = time.perf_counter()
    for b in batches[:steps]:
        with torch.autocast("cpu", dtype=torch.bfloat16, enabled=setting["precision"] == "bf16"):
            logits = v.forward(v.collate([pairs[i] for i in b]))
        logp = torch.log_softmax(logits.float(), -1)
        loss = -(torch.logsumexp(logp.masked_fill(masks[b] == 0, -1e9), -1)).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return steps * batch / (time.perf_counter() - t)


def main() -> None:
    import torch

    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--data", type=Path, default=Path("../shared/data/nli"))
    ap.add_argument("--model", type=Path, default=Path("src/claimforge/models/nli-minilm"))
    ap.add_argument("--steps", type=int, default=30)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    args = ap.parse_args()
    torch.set_num_threads(args.threads)
    src = nli_sources(args.data)
    pool = src["vitaminc_real"]() + src["snli"]()
    pairs = random.Random(1).sample(pool, args.steps * args.batch)
    out = {}
    for name, setting in SETTINGS.items():
        runs = [pairs_per_second(args.model, pairs, setting, args.steps, args.batch) for _ in range(args.runs)]
        out[name] = {"pairs_per_s_median": round(statistics.median(runs), 2), "runs": [round(r, 2) for r in runs]}
        print(name, out[name], flush=True)
    print(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()
