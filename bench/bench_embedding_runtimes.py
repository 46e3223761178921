"""Speed and neighbour agreement of the embedder's CPU runtimes on the texts the Multi2Claim build spends its
time on: "answer + explanation" of SciQ train questions (the NOT_ENOUGH_INFO retrieval embeddings).

    python bench/bench_embedding_runtimes.py --data ../shared/data --n 3000 --runs 3 --out build/emb_runtimes.json

For each runtime (and max_seq_length) it embeds the same texts, without cache, ``--runs`` times in this process
after one warm-up batch, and compares the vectors with fp32 PyTorch at max_seq_length 256 (the default): the
share of queries whose 10 nearest neighbours (cosine, the query excluded) are the same set, the mean overlap of
the two top-10 sets, top-1 agreement, and the smallest cosine between a text's two vectors.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import numpy as np

from claimforge.registry import registry

VARIANTS = [
    ("torch", 256),
    ("torch-bf16", 256),
    ("torch-int8", 256),
    ("onnx", 256),
    ("onnx-int8", 256),
    ("torch", 128),
    ("torch-bf16", 128),
    ("onnx", 128),
]


def texts(data: Path, n: int) -> list[str]:
    rows = json.loads((data / "sciq" / "train.json").read_text())
    out = [f"{r['correct_answer']} {r['support']}" for r in rows if len(r.get("support", "").split()) >= 50]
    return out[:n]


def top10(vecs: np.ndarray) -> np.ndarray:
    sims = vecs @ vecs.T
    np.fill_diagonal(sims, -np.inf)
    return np.argsort(-sims, axis=1, kind="stable")[:, :10]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--n", type=int, default=3000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    docs = texts(args.data, args.n)
    ref_top = ref_vecs = None
    report = {}
    for runtime, length in VARIANTS:
        spec = {"name": "sentence-transformers", "runtime": runtime, "max_seq_length": length}
        embedder = registry.build("embedder", spec)
        embedder._encode(docs[:64])  # load (and for ONNX export) the model outside the timing
        seconds, vecs = [], None
        for _ in range(args.runs):
            t0 = time.perf_counter()
            vecs = embedder._encode(docs)
            seconds.append(time.perf_counter() - t0)
        assert vecs is not None
        top = top10(vecs)
        if ref_top is None:
            ref_top, ref_vecs = top, vecs
        assert ref_vecs is not None
        same = [set(a) == set(b) for a, b in zip(top, ref_top, strict=True)]
        overlap = [len(set(a) & set(b)) / 10 for a, b in zip(top, ref_top, strict=True)]
        row = {
            "median_seconds": round(statistics.median(seconds), 2),
            "seconds": [round(s, 2) for s in seconds],
            "texts_per_second": round(len(docs) / statistics.median(seconds), 1),
            "top10_same_set": round(float(np.mean(same)), 4),
            "top10_mean_overlap": round(float(np.mean(overlap)), 4),
            "top1_agree": round(float(np.mean(top[:, 0] == ref_top[:, 0])), 4),
            "min_cosine_to_fp32": round(float((vecs * ref_vecs).sum(1).min()), 5),
        }
        report[f"{runtime}@{length}"] = row
        print(f"{runtime}@{length}", json.dumps(row), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps({"n_texts": len(docs), "runs": args.runs, "variants": report}, indent=1) + "\n")


if __name__ == "__main__":
    main()
