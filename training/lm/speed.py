"""Scoring speed of the shipped n-gram LM: sentences/s over held-out (test-split) sentences, median of runs.

OMP_NUM_THREADS=1 python training/lm/speed.py --data ../shared/data --n 20000 --runs 3
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import corpus  # noqa: E402

from claimforge.backends import lm as lm_module  # noqa: E402
from claimforge.registry import registry  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--n", type=int, default=20000)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--path", default=None, help="a model directory (default: the shipped model)")
    args = ap.parse_args()
    texts: list[str] = []
    for source in corpus.SOURCES:
        for doc in corpus.documents(args.data, source):
            if doc.split == "test":
                texts.extend(doc.sentences)
    texts = texts[: args.n]
    words = sum(len(lm_module.tokenize(t)) for t in texts)
    load, uncached, cached = [], [], []
    for _ in range(args.runs):
        lm_module._load_ngram.cache_clear()
        t = time.perf_counter()
        model = registry.build("lm", {"name": "ngram", "path": args.path, "use_cache": False})
        load.append(time.perf_counter() - t)
        t = time.perf_counter()
        model.log_prob(texts)
        uncached.append(len(texts) / (time.perf_counter() - t))
        with tempfile.TemporaryDirectory() as tmp:
            model = registry.build("lm", {"name": "ngram", "path": args.path, "cache_dir": tmp})
            model.log_prob(texts)  # fill the cache
            t = time.perf_counter()
            model.log_prob(texts)
            cached.append(len(texts) / (time.perf_counter() - t))
            model._cache.close()
    out = {
        "sentences": len(texts),
        "words": words,
        "load_seconds_median": round(statistics.median(load), 3),
        "uncached_sentences_per_s_median": round(statistics.median(uncached)),
        "cached_sentences_per_s_median": round(statistics.median(cached)),
        "runs": {"load": load, "uncached": uncached, "cached": cached},
    }
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
