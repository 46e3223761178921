"""Training of the embedded word n-gram LM: interpolated modified Kneser-Ney estimated from tokenised sentences,
with weighted-difference pruning, into the backoff form that ``claimforge.backends.lm.NGramLM`` scores and stores.

Used by ``train.py`` and ``sweep.py`` here; the package itself only loads and scores models.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from claimforge.backends.lm import (  # noqa: E402
    BOS_ID,
    EOS_ID,
    KEY_BITS,
    MAX_ORDER,
    MAX_VOCAB,
    SPECIALS,
    UNK_ID,
    NGramLM,
)


def build_vocab(counts: dict[str, int], min_count: int = 1, max_size: int = MAX_VOCAB) -> tuple[list[str], int]:
    """Specials first, then words by descending count (ties alphabetical) with count >= ``min_count``, at most
    ``max_size`` entries in all; also returns how many word types fall outside (the <unk> class)."""
    if max_size > MAX_VOCAB:
        raise ValueError(f"at most {MAX_VOCAB} vocabulary entries fit a {KEY_BITS}-bit id")
    words = sorted(
        (w for w, c in counts.items() if c >= min_count and w not in SPECIALS), key=lambda w: (-counts[w], w)
    )
    kept = words[: max_size - len(SPECIALS)]
    return [*SPECIALS, *kept], len([w for w in counts if w not in SPECIALS]) - len(kept)


def encode_corpus(sentences: Iterable[Sequence[str]], vocab: Sequence[str]) -> tuple[np.ndarray, np.ndarray]:
    """Concatenated ids ``<s> w1 .. wn </s>`` of all sentences and each token's position in its sentence."""
    word_id = {w: i for i, w in enumerate(vocab)}
    get = word_id.get
    chunks: list[np.ndarray] = []
    for s in sentences:
        chunks.append(np.array([BOS_ID, *(get(t, UNK_ID) for t in s), EOS_ID], dtype=np.uint16))
    if not chunks:
        return np.zeros(0, dtype=np.uint64), np.zeros(0, dtype=np.int64)
    seq = np.concatenate(chunks).astype(np.uint64)
    lengths = np.array([len(c) for c in chunks], dtype=np.int64)
    starts = np.cumsum(lengths) - lengths
    position = np.arange(len(seq), dtype=np.int64) - np.repeat(starts, lengths)
    return seq, position


def kn_discounts(adjusted_counts: np.ndarray) -> tuple[float, float, float]:
    """Modified Kneser-Ney discounts D1, D2, D3+ from counts of counts (Chen & Goodman 1998):
    Y = n1 / (n1 + 2 n2), D1 = 1 - 2Y n2/n1, D2 = 2 - 3Y n3/n2, D3+ = 3 - 4Y n4/n3. When a count of counts is
    zero (tiny corpora), the affected discount falls back to 0.5, 1.0 or 1.5; each D_i is kept within [0, i]."""
    c = np.asarray(adjusted_counts)
    n1, n2, n3, n4 = (int(np.sum(c == i)) for i in (1, 2, 3, 4))
    y = n1 / (n1 + 2 * n2) if n1 + 2 * n2 > 0 else 0.5
    d1 = 1 - 2 * y * n2 / n1 if n1 > 0 else 0.5
    d2 = 2 - 3 * y * n3 / n2 if n2 > 0 else 1.0
    d3 = 3 - 4 * y * n4 / n3 if n3 > 0 else 1.5
    return (min(max(d1, 0.0), 1.0), min(max(d2, 0.0), 2.0), min(max(d3, 0.0), 3.0))


def _segments(sorted_ctx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Start index of each run of equal values in a sorted array, and each element's run number."""
    if len(sorted_ctx) == 0:
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    new = np.ones(len(sorted_ctx), dtype=bool)
    new[1:] = sorted_ctx[1:] != sorted_ctx[:-1]
    starts = np.nonzero(new)[0]
    return starts, np.cumsum(new) - 1


@dataclass
class _Order:
    keys: np.ndarray  # sorted unique packed keys (uint64)
    raw: np.ndarray  # raw counts
    adj: np.ndarray  # counts used for estimation (raw for the top order / n-grams starting with <s>)
    logp: np.ndarray | None = None  # interpolated log p(w|h), float64
    gamma: np.ndarray | None = None  # log interpolation weight of the n-gram as a history (orders < N)


def _mask(k: int) -> np.uint64:
    return np.uint64((1 << (KEY_BITS * k)) - 1) if k < MAX_ORDER else np.uint64(0xFFFFFFFFFFFFFFFF)


def train_kneser_ney(
    sentences: Iterable[Sequence[str]],
    order: int = 4,
    min_count: int = 1,
    max_vocab: int = MAX_VOCAB,
    prune: Sequence[float] | None = None,
    discounts: dict[int, tuple[float, float, float]] | None = None,
    vocab: Sequence[str] | None = None,
    unk_types: int | None = None,
    meta: dict[str, Any] | None = None,
) -> NGramLM:
    """Estimate an interpolated modified Kneser-Ney model from tokenised sentences.

    Words seen fewer than ``min_count`` times (or beyond ``max_vocab``) become ``<unk>`` before counting, so
    ``<unk>`` is a word class with its own n-grams. Lower orders use continuation counts N1+(. w) except for
    n-grams starting with ``<s>`` (raw counts); unigrams interpolate with the uniform distribution over the
    vocabulary. ``prune[k - 2]`` (for orders 2..N) is a threshold on the weighted difference
    ``count(h w) * (log p(w|h) - log backoff(h) p(w|h'))``: n-grams below it are dropped unless they are the
    history of a kept longer n-gram, and all backoff weights are then recomputed so each history's distribution
    sums to one. ``discounts`` overrides the estimated (D1, D2, D3+) per order.
    """
    if not 1 <= order <= MAX_ORDER:
        raise ValueError(f"order must be within 1..{MAX_ORDER}")
    sentences = [list(s) for s in sentences]
    if vocab is None:
        counts: dict[str, int] = {}
        for s in sentences:
            for t in s:
                counts[t] = counts.get(t, 0) + 1
        vocab, unk_types = build_vocab(counts, min_count, max_vocab)
    vocab = list(vocab)
    if vocab[: len(SPECIALS)] != list(SPECIALS) or len(vocab) > MAX_VOCAB:
        raise ValueError("the vocabulary must start with <unk>, <s>, </s> and have at most 65,536 entries")
    seq, position = encode_corpus(sentences, vocab)
    n_vocab = len(vocab)
    bos = np.uint64(BOS_ID)

    # Raw counts of every order (n-grams never cross a sentence boundary).
    orders: list[_Order] = []
    for k in range(1, order + 1):
        ok = np.nonzero(position >= k - 1)[0]
        key = seq[ok].copy()
        for j in range(1, k):
            key |= seq[ok - j] << np.uint64(KEY_BITS * j)
        keys, raw = np.unique(key, return_counts=True)
        orders.append(_Order(keys=keys, raw=raw.astype(np.int64), adj=raw.astype(np.int64)))
    # Continuation counts for the lower orders.
    for k in range(1, order):
        lower, higher = orders[k - 1], orders[k]
        suffix = higher.keys & _mask(k)
        sk, sc = np.unique(suffix, return_counts=True)
        idx = np.searchsorted(sk, lower.keys)
        idx[idx == len(sk)] = 0
        cont = np.where(sk[idx] == lower.keys, sc[idx], 0) if len(sk) else np.zeros(len(lower.keys), np.int64)
        starts_bos = (lower.keys >> np.uint64(KEY_BITS * (k - 1))) == bos
        lower.adj = np.where(starts_bos, lower.raw, cont).astype(np.int64)

    # Unigrams: dense over the vocabulary, <s> never predicted.
    uni = orders[0]
    adj1 = np.zeros(n_vocab, dtype=np.int64)
    adj1[uni.keys.astype(np.int64)] = uni.adj
    adj1[BOS_ID] = 0
    predicted = np.ones(n_vocab, dtype=bool)
    predicted[BOS_ID] = False
    used = {1: kn_discounts(adj1[adj1 > 0])}
    for k in range(2, order + 1):
        used[k] = kn_discounts(orders[k - 1].adj)
    if discounts:
        used.update({int(k): tuple(v) for k, v in discounts.items()})  # type: ignore[misc]

    def discount(c: np.ndarray, d: tuple[float, float, float]) -> np.ndarray:
        return np.select([c == 0, c == 1, c == 2], [0.0, d[0], d[1]], d[2])

    total1 = adj1.sum()
    d1 = used[1]
    gamma0 = float(discount(adj1, d1).sum() / total1) if total1 > 0 else 1.0
    p1 = np.where(predicted, np.maximum(adj1 - discount(adj1, d1), 0) / max(total1, 1) + gamma0 / (n_vocab - 1), 0.0)
    with np.errstate(divide="ignore"):
        uni_logp = np.log(p1)
    uni_full = _Order(keys=np.arange(n_vocab, dtype=np.uint64), raw=adj1, adj=adj1, logp=uni_logp)
    # word-frequency unigram (raw counts), for SLOR
    raw1 = np.zeros(n_vocab, dtype=np.int64)
    raw1[uni.keys.astype(np.int64)] = uni.raw
    raw1[BOS_ID] = 0
    d_raw = kn_discounts(raw1[raw1 > 0])
    g_raw = float(discount(raw1, d_raw).sum() / raw1.sum()) if raw1.sum() > 0 else 1.0
    p_raw = np.maximum(raw1 - discount(raw1, d_raw), 0) / max(int(raw1.sum()), 1) + g_raw / (n_vocab - 1)
    with np.errstate(divide="ignore"):
        freq_logp = np.where(predicted, np.log(p_raw), -np.inf).astype(np.float32)

    # Higher orders: interpolated probabilities, and each history's interpolation weight gamma.
    tables = [uni_full]
    for k in range(2, order + 1):
        cur = orders[k - 1]
        ctx = cur.keys >> np.uint64(KEY_BITS)
        starts, seg = _segments(ctx)
        d = discount(cur.adj, used[k])
        total = np.add.reduceat(cur.adj, starts) if len(starts) else np.zeros(0)
        gamma = (np.add.reduceat(d, starts) / total) if len(starts) else np.zeros(0)
        lower_lp = _table_logp(tables, (cur.keys & _mask(k - 1)), k - 1)
        p = np.maximum(cur.adj - d, 0) / total[seg] + gamma[seg] * np.exp(lower_lp)
        cur.logp = np.log(p)
        prev = tables[k - 2]
        with np.errstate(divide="ignore"):
            g = np.zeros(len(prev.keys))
            gidx = np.searchsorted(prev.keys, ctx[starts])
            g[gidx] = np.log(gamma)
        prev.gamma = g
        tables.append(cur)
    tables[-1].gamma = None

    counts_before = [int(n_vocab)] + [len(t.keys) for t in tables[1:]]
    if prune is not None and any(p > 0 for p in prune):
        _prune(tables, list(prune), order)
    backoffs = _backoffs(tables, order) if prune is not None and any(p > 0 for p in prune) else None

    info = dict(meta or {})
    info.update(
        {
            "order": order,
            "discounts": {str(k): list(v) for k, v in used.items()},
            "unk_types": int(unk_types or 0),
            "ngrams_before_pruning": counts_before,
            "ngrams": [int(n_vocab)] + [len(t.keys) for t in tables[1:]],
            "prune": list(prune) if prune is not None else None,
            "tokens": int(np.sum(position > 0)),
            "sentences": int(np.sum(position == 0)),
        }
    )
    uni_bo = backoffs[0] if backoffs is not None else tables[0].gamma
    assert tables[0].logp is not None
    return NGramLM(
        vocab=vocab,
        order=order,
        unigram_logp=tables[0].logp.astype(np.float32),
        unigram_backoff=(uni_bo if uni_bo is not None else np.zeros(n_vocab)).astype(np.float32),
        frequency_logp=freq_logp,
        keys=[t.keys for t in tables[1:]],
        logp=[t.logp.astype(np.float32) for t in tables[1:]],  # type: ignore[union-attr]
        backoff=[
            (backoffs[k - 1] if backoffs is not None else tables[k - 1].gamma).astype(np.float32)  # type: ignore[union-attr]
            for k in range(2, order)
        ],
        meta=info,
    )


def _table_logp(tables: list[_Order], keys: np.ndarray, k: int) -> np.ndarray:
    """Interpolated log p of order-k n-grams that are all present in ``tables[k-1]``."""
    t = tables[k - 1]
    if k == 1:
        return t.logp[keys.astype(np.int64)]  # type: ignore[index]
    idx = np.searchsorted(t.keys, keys)
    assert np.all(t.keys[np.minimum(idx, len(t.keys) - 1)] == keys), "missing lower-order n-gram"
    return t.logp[idx]  # type: ignore[index]


def _model_from_tables(tables: list[_Order], order: int, backoffs: list[np.ndarray]) -> NGramLM:
    return NGramLM(
        vocab=[""] * len(tables[0].keys),
        order=order,
        unigram_logp=tables[0].logp,  # type: ignore[arg-type]
        unigram_backoff=backoffs[0],
        keys=[t.keys for t in tables[1:]],
        logp=[t.logp for t in tables[1:]],  # type: ignore[misc]
        backoff=list(backoffs[1:]),
    )


def _backoff_estimate(tables: list[_Order], k: int, keys: np.ndarray, model: NGramLM) -> np.ndarray:
    """log of backoff(h) * p(w|h') for order-k keys, using the (partly built) ``model`` for p(w|h')."""
    n = len(keys)
    words = keys & _mask(1)
    hist = np.zeros((n, k - 1), dtype=np.uint64)
    for j in range(k - 1):
        hist[:, j] = (keys >> np.uint64(KEY_BITS * (j + 1))) & _mask(1)
    # p(w|h') with h' = the history minus its first (oldest) word
    lower = model.score_ids(words, hist, np.full(n, k - 2)) if k > 1 else np.zeros(n)
    prev = tables[k - 2]
    ctx = keys >> np.uint64(KEY_BITS)
    idx = np.searchsorted(prev.keys, ctx)
    return lower + prev.gamma[idx]  # type: ignore[index]


def _prune(tables: list[_Order], thresholds: list[float], order: int) -> None:
    """Weighted-difference pruning from the top order down, keeping histories of kept n-grams."""
    full_backoffs = [tables[0].gamma] + [t.gamma for t in tables[1:-1]]
    model = _model_from_tables(tables, order, full_backoffs)  # type: ignore[arg-type]
    required: np.ndarray | None = None
    for k in range(order, 1, -1):
        t = tables[k - 1]
        theta = thresholds[k - 2] if k - 2 < len(thresholds) else 0.0
        keep = np.ones(len(t.keys), dtype=bool)
        if theta > 0:
            crit = t.adj * (t.logp - _backoff_estimate(tables, k, t.keys, model))  # type: ignore[operator]
            keep = crit >= theta
        if required is not None:
            keep |= np.isin(t.keys, required, assume_unique=False)
        t.keys, t.raw, t.adj = t.keys[keep], t.raw[keep], t.adj[keep]
        t.logp = t.logp[keep]  # type: ignore[index]
        if t.gamma is not None:
            t.gamma = t.gamma[keep]
        required = np.unique(t.keys >> np.uint64(KEY_BITS))


def _backoffs(tables: list[_Order], order: int) -> list[np.ndarray]:
    """Backoff weights that make every history's distribution sum to one in the pruned model:
    bo(h) = (1 - sum_{kept hw} p(w|h)) / (1 - sum_{kept hw} p(w|h')), computed bottom-up."""
    n_vocab = len(tables[0].keys)
    backoffs: list[np.ndarray] = [np.zeros(n_vocab)] + [np.zeros(len(t.keys)) for t in tables[1:-1]]
    model = _model_from_tables(tables, order, backoffs)
    for k in range(2, order + 1):
        t = tables[k - 1]
        words = t.keys & _mask(1)
        hist = np.zeros((len(words), k - 1), dtype=np.uint64)
        for j in range(k - 1):
            hist[:, j] = (t.keys >> np.uint64(KEY_BITS * (j + 1))) & _mask(1)
        lower = model.score_ids(words, hist, np.full(len(words), k - 2))  # p(w|h'), lower orders final
        ctx = t.keys >> np.uint64(KEY_BITS)
        starts, seg = _segments(ctx)
        if len(starts) == 0:
            continue
        num = 1.0 - np.add.reduceat(np.exp(t.logp), starts)  # type: ignore[arg-type]
        den = 1.0 - np.add.reduceat(np.exp(lower), starts)
        prev = tables[k - 2]
        idx = np.searchsorted(prev.keys, ctx[starts]) if k > 2 else ctx[starts].astype(np.int64)
        gamma = prev.gamma[idx]  # type: ignore[index]
        with np.errstate(divide="ignore", invalid="ignore"):
            bo = np.where(
                (num > 1e-12) & (den > 1e-12), np.log(np.maximum(num, 1e-300) / np.maximum(den, 1e-300)), gamma
            )
        backoffs[k - 2][idx] = bo
        model.unigram_backoff = backoffs[0]
        model.backoff = list(backoffs[1:])
    return backoffs
