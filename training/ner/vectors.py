"""Static word vectors for the NER pipeline: PPMI + truncated SVD on the unlabelled corpus (no download needed).

    python training/ner/vectors.py build/ner/pretrain/texts.jsonl build/ner/vectors.txt \
        [--vocab 20000] [--min-count 5] [--dim 64] [--window 4]

Input: the JSONL made by pretrain_corpus.py (tokens joined by spaces). Words are lower-cased; the ``--vocab``
most frequent ones with at least ``--min-count`` occurrences get a vector. Co-occurrence counts within ``--window``
tokens (weighted 1/distance, symmetric) -> positive PMI with context-distribution smoothing (alpha 0.75) ->
randomized truncated SVD (fixed seed) -> rows U * sqrt(S), L2-normalised. Written in word2vec text format for
``python -m spacy init vectors en build/ner/vectors.txt build/ner/vectors --attr LOWER``.
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.utils.extmath import randomized_svd


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("texts", type=Path)
    ap.add_argument("out", type=Path)
    ap.add_argument("--vocab", type=int, default=20000)
    ap.add_argument("--min-count", type=int, default=5)
    ap.add_argument("--dim", type=int, default=64)
    ap.add_argument("--window", type=int, default=4)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    t0 = time.time()

    docs = []
    with open(args.texts, encoding="utf-8") as f:
        for line in f:
            docs.append(json.loads(line)["text"].lower().split())
    counts = Counter(w for d in docs for w in d)
    words = [w for w, c in counts.most_common(args.vocab) if c >= args.min_count]
    index = {w: i for i, w in enumerate(words)}
    n = len(words)
    # one id stream, documents separated by -1 so windows never cross documents
    stream = np.fromiter(
        (index.get(w, -1) for d in docs for w in [*d, "\x00"]), dtype=np.int64, count=sum(len(d) + 1 for d in docs)
    )
    boundary = np.cumsum([len(d) + 1 for d in docs]) - 1
    stream[boundary] = -2  # separator
    cooc = sparse.csr_matrix((n, n), dtype=np.float64)
    for dist in range(1, args.window + 1):
        a, b = stream[:-dist], stream[dist:]
        # a window crossing a separator is invalid: mark positions with a separator inside (a, b]
        sep = (stream == -2).astype(np.int64)
        csum = np.concatenate([[0], np.cumsum(sep)])
        crosses = (csum[dist + 1 :] - csum[1:-dist]) > 0 if dist > 0 else np.zeros(len(a), bool)
        crosses = crosses[: len(a)]
        ok = (a >= 0) & (b >= 0) & ~crosses
        m = sparse.coo_matrix((np.full(ok.sum(), 1.0 / dist), (a[ok], b[ok])), shape=(n, n)).tocsr()
        cooc = cooc + m + m.T
    total = cooc.sum()
    row = np.asarray(cooc.sum(axis=1)).ravel()
    col = np.asarray(cooc.sum(axis=0)).ravel() ** 0.75
    col = col / col.sum()
    coo = cooc.tocoo()
    pmi = np.log(coo.data / total) - np.log(row[coo.row] / total) - np.log(col[coo.col])
    keep = pmi > 0
    ppmi = sparse.csr_matrix((pmi[keep], (coo.row[keep], coo.col[keep])), shape=(n, n))
    u, s, _ = randomized_svd(ppmi, n_components=args.dim, n_iter=5, random_state=args.seed)
    vecs = u * np.sqrt(s)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True) + 1e-8
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(f"{n} {args.dim}\n")
        for w, v in zip(words, vecs, strict=True):
            f.write(w + " " + " ".join(f"{x:.5f}" for x in v) + "\n")
    # a quick sanity check: nearest neighbours of a few words
    probe = {}
    for w in ("cisplatin", "nephrotoxicity", "hypertension", "dopamine", "patients", "carcinoma"):
        if w in index:
            sims = vecs @ vecs[index[w]]
            probe[w] = [words[j] for j in np.argsort(-sims)[1:6]]
    print(
        json.dumps(
            {
                "tokens": int(sum(len(d) for d in docs)),
                "vocab": n,
                "dim": args.dim,
                "nnz_ppmi": int(ppmi.nnz),
                "seconds": round(time.time() - t0, 1),
                "neighbours": probe,
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
