"""Train the embedded word n-gram LM (interpolated modified Kneser-Ney) on scientific prose from ../shared/data.

    OMP_NUM_THREADS=1 python training/lm/train.py --data ../shared/data --work build/lm \
        --ship src/claimforge/models/lm-ngram

Writes ``<work>/order{2,3,4}/`` (models used by the pairwise test, training/lm/pairwise.py), ``<work>/train.json``
(counts, sizes, held-out perplexity per source) and, with ``--ship``, the shipped model directory
(header.json + arrays.npz). Sentences are split 94/3/3 by document (training/lm/corpus.py); dev chooses the
pruning, test is reported.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import corpus  # noqa: E402
from kneser_ney import build_vocab, train_kneser_ney  # noqa: E402

from claimforge.backends.lm import NGramLM  # noqa: E402

# Shipped configuration (chosen on dev, docs/models/lm.md).
ORDER = 4
MAX_VOCAB = 65_536
MIN_COUNT = 2
PRUNE = (2.0, 5.0, 10.0)  # weighted-difference thresholds for orders 2, 3, 4 (training/lm/sweep.py on dev)
DTYPE = "float16"


def heldout(model: NGramLM, sentences: list[corpus.Sentence], unk_penalty: bool = False) -> dict[str, dict]:
    """Perplexity per source and overall (``</s>`` counted; <unk> scored as its class unless unk_penalty), and
    ``perplexity_unk_penalty``, where an unknown word also pays log(#types behind <unk>) (the component's
    default; comparable across vocabularies)."""
    out: dict[str, dict] = {}
    by_source: dict[str, list[corpus.Sentence]] = {}
    for s in sentences:
        by_source.setdefault(s.source, []).append(s)
    by_source["all"] = sentences
    for source, sents in by_source.items():
        lp = model.score_sentences([s.tokens for s in sents], unk_penalty=unk_penalty)
        lp_pen = model.score_sentences([s.tokens for s in sents], unk_penalty=True)
        n = sum(len(s.tokens) + 1 for s in sents)
        oov = sum(1 for s in sents for t in s.tokens if t not in model.word_id)
        out[source] = {
            "sentences": len(sents),
            "tokens": n,
            "perplexity": round(math.exp(-float(lp.sum()) / n), 2),
            "perplexity_unk_penalty": round(math.exp(-float(lp_pen.sum()) / n), 2),
            "oov_rate": round(oov / max(1, n - len(sents)), 4),
        }
    return out


def model_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--work", type=Path, default=Path("build/lm"))
    ap.add_argument("--ship", type=Path, default=None, help="also write the shipped model here")
    ap.add_argument("--sources", default=",".join(corpus.SOURCES))
    ap.add_argument("--fraction", default="", help='train on a document-level fraction of sources, "evinf=0.25"')
    ap.add_argument("--orders", default="2,3,4", help="orders to train (the shipped one is --order)")
    ap.add_argument("--order", type=int, default=ORDER)
    ap.add_argument("--max-vocab", type=int, default=MAX_VOCAB)
    ap.add_argument("--min-count", type=int, default=MIN_COUNT)
    ap.add_argument("--prune", default=",".join(str(p) for p in PRUNE), help="thresholds for orders 2..N")
    ap.add_argument("--dtype", default=DTYPE, choices=["float16", "float32"])
    ap.add_argument("--unpruned", action="store_true", help="also train and evaluate unpruned models")
    args = ap.parse_args()

    t0 = time.time()
    sources = tuple(s for s in args.sources.split(",") if s)
    splits = corpus.split_corpus(args.data, sources)
    fractions = corpus.parse_fractions(args.fraction) or {}
    if fractions:
        splits["train"] = corpus.subsample(splits["train"], fractions)
    train = splits["train"]
    stats = {
        split: {
            "sentences": len(sents),
            "documents": len({(s.source, s.doc_id) for s in sents}),
            "words": sum(len(s.tokens) for s in sents),
            "by_source": dict(Counter(s.source for s in sents)),
        }
        for split, sents in splits.items()
    }
    print(json.dumps(stats, indent=1), f"{time.time() - t0:.0f}s", flush=True)

    counts: Counter[str] = Counter()
    for s in train:
        counts.update(s.tokens)
    vocab, unk_types = build_vocab(counts, args.min_count, args.max_vocab)
    in_vocab = set(vocab)
    unk_tokens = sum(c for w, c in counts.items() if w not in in_vocab)
    print(f"vocab {len(vocab)} (min count {counts[vocab[-1]]}); {unk_types} types / {unk_tokens} tokens -> <unk>")
    prune = [float(x) for x in args.prune.split(",")]
    report: dict = {
        "date": time.strftime("%Y-%m-%d"),
        "sources": list(sources),
        "fractions": fractions,
        "splits": stats,
        "vocab": len(vocab),
        "vocab_min_count": counts[vocab[-1]],
        "unk_types": unk_types,
        "unk_train_tokens": unk_tokens,
        "models": {},
    }
    token_lists = [s.tokens for s in train]
    meta_base = {
        "sources": list(sources),
        "source_fractions": fractions,
        "train_sentences": len(train),
        "train_words": stats["train"]["words"],
        "vocab_min_count": counts[vocab[-1]],
        "tokenizer": "claimforge.backends.lm.tokenize (lower-case, NFKC, <num>, digits in words -> 0)",
        "trained": time.strftime("%Y-%m-%d"),
    }
    orders = sorted({int(x) for x in args.orders.split(",")} | {args.order})
    for order in orders:
        variants = [("pruned", prune[: order - 1])] + ([("unpruned", None)] if args.unpruned else [])
        for name, pr in variants:
            t1 = time.time()
            meta = dict(
                meta_base, prune_criterion="weighted difference count*(log p - log backoff p)", dtype=args.dtype
            )
            model = train_kneser_ney(
                token_lists, order=order, vocab=vocab, unk_types=unk_types, prune=pr, meta=meta
            ).astype(np.dtype(args.dtype))
            out = args.work / (f"order{order}" if name == "pruned" else f"order{order}-unpruned")
            model.save(out)
            loaded = NGramLM.load(out)
            entry = {
                "seconds": round(time.time() - t1, 1),
                "ngrams_before_pruning": model.meta["ngrams_before_pruning"],
                "ngrams": model.meta["ngrams"],
                "discounts": model.meta["discounts"],
                "bytes": model_bytes(out),
                "dev": heldout(loaded, splits["dev"])["all"],
                "test": heldout(loaded, splits["test"]),
            }
            report["models"][f"order{order}-{name}"] = entry
            print(f"order {order} {name}: {json.dumps(entry)}", flush=True)
            if args.ship is not None and order == args.order and name == "pruned":
                model.save(args.ship)
                print(f"shipped to {args.ship} ({model_bytes(args.ship)} bytes)", flush=True)
    report["seconds"] = round(time.time() - t0, 1)
    args.work.mkdir(parents=True, exist_ok=True)
    (args.work / "train.json").write_text(json.dumps(report, indent=1) + "\n")
    print(f"done in {report['seconds']}s", flush=True)


if __name__ == "__main__":
    main()
