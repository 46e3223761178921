"""Pairwise fluency test: does a scorer rank a real held-out sentence above a corrupted copy of it?

    OMP_NUM_THREADS=1 python training/lm/pairwise.py --data ../shared/data --work build/lm \
        --out build/lm/pairwise.json

Originals are test-split sentences (training/lm/corpus.py; documents never seen in training) of 6-40 words,
up to ``--per-source`` per source. Corruptions, the kinds KBIN and claim generators produce (parsed with the
shipped spaCy pipeline en_claimforge_sci):
  np_swap    a noun phrase replaced by a random noun phrase from another test sentence (KBIN-like substitution)
  drop       one word dropped
  swap       two adjacent words swapped
  verb_noun  a verb replaced by a noun from another test sentence
Scorers (higher = judged more fluent; a tie counts one half):
  ngram-N      the KN models trained by train.py (``<work>/orderN``), by per-token perplexity (the interface's
               ``perplexity``); ``ngram-4 logp`` ranks by total log-probability, ``ngram-4 SLOR`` by the
               syntactic log-odds ratio (log p - log p_unigram) / tokens (Kann et al. 2018; the ``slor`` method)
  unigram      the word-frequency unigram table stored with the 4-gram model (raw counts, modified-KN
               discounts), by per-token perplexity
  minilm-centroid  cosine of the all-MiniLM-L6-v2 embedding to the mean embedding of 5,000 dev sentences
  minilm-probe     logistic regression on MiniLM embeddings, trained to tell real train-split sentences from
                   their corruptions (the same four kinds; a supervised upper bound for an embedding scorer)
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

import corpus  # noqa: E402

from claimforge.backends.lm import NGramLM, perplexity_of, text_to_sentences  # noqa: E402

KINDS = ("np_swap", "drop", "swap", "verb_noun")
_NP_LEFT = {"det", "amod", "compound", "nummod", "nmod:poss", "poss", "flat", "advmod", "obl:npmod"}


def _np_spans(doc) -> list[tuple[int, int]]:  # type: ignore[no-untyped-def]
    """[start, end) token spans of base noun phrases: a noun with its left modifiers (det, amod, compound...)."""
    spans = []
    for tok in doc:
        if tok.pos_ not in ("NOUN", "PROPN") or tok.dep_ in ("compound", "flat"):
            continue
        start = tok.i
        for child in tok.lefts:
            if child.dep_ in _NP_LEFT:
                start = min(start, child.left_edge.i)
        # keep spans made of word tokens only
        if all(not t.is_punct for t in doc[start : tok.i + 1]):
            spans.append((start, tok.i + 1))
    return spans


def _render(pieces: list[tuple[str, str]]) -> str:
    return "".join(t + ws for t, ws in pieces).strip()


def corrupt(docs: list, rng: random.Random) -> list[dict]:  # type: ignore[type-arg]
    """Original + one corruption per kind (when the sentence allows it) for each parsed sentence."""
    all_nps = [(i, doc[a:b].text) for i, doc in enumerate(docs) for a, b in _np_spans(doc)]
    all_nouns = [(i, t.text) for i, doc in enumerate(docs) for t in doc if t.pos_ == "NOUN" and t.is_alpha]
    pairs = []
    for i, doc in enumerate(docs):
        pieces = [(t.text, t.whitespace_) for t in doc]
        original = _render(pieces)
        words = [t.i for t in doc if not t.is_punct and not t.is_space]
        out: dict[str, str] = {}
        spans = _np_spans(doc)
        if spans:
            a, b = rng.choice(spans)
            for _ in range(20):
                j, np_text = rng.choice(all_nps)
                if j != i and np_text.lower() != doc[a:b].text.lower():
                    out["np_swap"] = _render(pieces[:a] + [(np_text, doc[b - 1].whitespace_)] + pieces[b:])
                    break
        if len(words) > 3:
            k = rng.choice(words)
            out["drop"] = _render(pieces[:k] + pieces[k + 1 :])
        adjacent = [k for k in words if k + 1 in words and doc[k].lower_ != doc[k + 1].lower_]
        if adjacent:
            k = rng.choice(adjacent)
            swapped = list(pieces)
            swapped[k], swapped[k + 1] = (pieces[k + 1][0], pieces[k][1]), (pieces[k][0], pieces[k + 1][1])
            out["swap"] = _render(swapped)
        verbs = [t.i for t in doc if t.pos_ == "VERB"]
        if verbs:
            k = rng.choice(verbs)
            for _ in range(20):
                j, noun = rng.choice(all_nouns)
                if j != i and noun.lower() != doc[k].lower_:
                    out["verb_noun"] = _render(pieces[:k] + [(noun, pieces[k][1])] + pieces[k + 1 :])
                    break
        for kind, text in out.items():
            if text != original:
                pairs.append({"kind": kind, "original": original, "corrupted": text, "sentence": i})
    return pairs


def _parse(texts: list[str]) -> list:  # type: ignore[type-arg]
    import spacy

    from claimforge.nlp.pipeline import resolve_pipeline

    nlp = spacy.load(resolve_pipeline("en_claimforge_sci"))
    return list(nlp.pipe(texts, batch_size=128))


def sample(sents: list[corpus.Sentence], per_source: int, rng: random.Random) -> list[tuple[str, str]]:
    """(text, source) of up to ``per_source`` claim-like sentences per source."""
    by_source: dict[str, list[str]] = {}
    for s in sents:
        if 6 <= sum(1 for t in s.tokens if t[0].isalpha()) <= 40 and s.text[:1].isupper() and s.text[-1:] in ".!?":
            by_source.setdefault(s.source, []).append(s.text)
    out = []
    for source in sorted(by_source):
        texts = by_source[source]
        out.extend((t, source) for t in rng.sample(texts, min(per_source, len(texts))))
    return out


def accuracy(pairs: list[dict], score: Callable[[list[str]], np.ndarray]) -> dict[str, float]:
    """Share of pairs ranked right, per corruption kind, overall, and overall per source (``src:<name>``)."""
    texts = sorted({p["original"] for p in pairs} | {p["corrupted"] for p in pairs})
    value = dict(zip(texts, score(texts), strict=True))
    res: dict[str, float] = {}
    groups = [*KINDS, "all", *(f"src:{s}" for s in sorted({p["source"] for p in pairs}))]
    for kind in groups:
        sel = [p for p in pairs if kind in ("all", p["kind"], f"src:{p['source']}")]
        wins = [
            1.0
            if value[p["original"]] > value[p["corrupted"]]
            else 0.5
            if value[p["original"]] == value[p["corrupted"]]
            else 0.0
            for p in sel
        ]
        res[kind] = round(float(np.mean(wins)), 4) if wins else float("nan")
    return res


def ngram_scorer(model: NGramLM, how: str) -> Callable[[list[str]], np.ndarray]:
    """``ppl``: -perplexity; ``logp``: total log-probability; ``slor``: SLOR; ``unigram``: -perplexity of the
    model's word-frequency unigram table."""

    def score(texts: list[str]) -> np.ndarray:
        sents = [text_to_sentences(t) for t in texts]
        flat = [s for group in sents for s in group]
        owner = np.repeat(np.arange(len(texts)), [len(g) for g in sents])
        n = np.bincount(owner, weights=[len(s) + 1 for s in flat], minlength=len(texts))
        lp1 = np.bincount(owner, weights=model.frequency_scores(flat), minlength=len(texts))
        if how == "unigram":
            return -perplexity_of(list(zip(lp1, n.astype(int), strict=True)))
        lp = np.bincount(owner, weights=model.score_sentences(flat), minlength=len(texts))
        if how == "logp":
            return lp
        if how == "slor":
            return (lp - lp1) / n
        return -perplexity_of(list(zip(lp, n.astype(int), strict=True)))

    return score


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--work", type=Path, default=Path("build/lm"))
    ap.add_argument("--out", type=Path, default=Path("build/lm/pairwise.json"))
    ap.add_argument("--per-source", type=int, default=300)
    ap.add_argument("--probe-sentences", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--no-minilm", action="store_true")
    ap.add_argument("--extra", nargs="*", default=[], help="more n-gram models to score: name=directory")
    args = ap.parse_args()
    t0 = time.time()
    rng = random.Random(args.seed)
    splits = corpus.split_corpus(args.data)
    test = sample(splits["test"], args.per_source, rng)
    test_texts = [t for t, _ in test]
    pairs = corrupt(_parse(test_texts), rng)
    for p in pairs:
        p["source"] = test[p["sentence"]][1]
    counts = {k: sum(p["kind"] == k for p in pairs) for k in KINDS}
    print(f"{len(test_texts)} originals, {len(pairs)} pairs {counts} ({time.time() - t0:.0f}s)", flush=True)

    shipped = NGramLM.load(args.work / "order4")
    scorers: dict[str, Callable[[list[str]], np.ndarray]] = {"unigram": ngram_scorer(shipped, "unigram")}
    for order in (2, 3, 4):
        if (args.work / f"order{order}").is_dir():
            scorers[f"ngram-{order}"] = ngram_scorer(NGramLM.load(args.work / f"order{order}"), "ppl")
        if (args.work / f"order{order}-unpruned").is_dir():
            m = NGramLM.load(args.work / f"order{order}-unpruned")
            scorers[f"ngram-{order} unpruned"] = ngram_scorer(m, "ppl")
    for spec in args.extra:
        name, _, path = spec.partition("=")
        extra = NGramLM.load(path)
        scorers[name] = ngram_scorer(extra, "ppl")
        scorers[f"{name} SLOR"] = ngram_scorer(extra, "slor")
    scorers["ngram-4 logp"] = ngram_scorer(shipped, "logp")
    scorers["ngram-4 SLOR"] = ngram_scorer(shipped, "slor")

    if not args.no_minilm:
        from claimforge.registry import registry

        embedder = registry.build("embedder", {"name": "sentence-transformers", "use_cache": False})
        dev = [s.text for s in splits["dev"]]
        centroid = embedder.embed(random.Random(1).sample(dev, min(5000, len(dev)))).mean(axis=0)
        centroid /= np.linalg.norm(centroid)
        scorers["minilm-centroid"] = lambda texts: embedder.embed(texts) @ centroid
        # probe: real vs corrupted train-split sentences (documents disjoint from the test originals)
        from sklearn.linear_model import LogisticRegression

        probe_texts = [t for t, _ in sample(splits["train"], args.probe_sentences // 5, random.Random(args.seed + 1))]
        probe_pairs = corrupt(_parse(probe_texts), random.Random(args.seed + 2))
        real = sorted({p["original"] for p in probe_pairs})
        fake = sorted({p["corrupted"] for p in probe_pairs})
        x = embedder.embed(real + fake)
        y = np.array([1] * len(real) + [0] * len(fake))
        clf = LogisticRegression(max_iter=2000, C=1.0, class_weight="balanced").fit(x, y)
        scorers["minilm-probe"] = lambda texts: clf.decision_function(embedder.embed(texts))
        print(f"probe trained on {len(real)} real / {len(fake)} corrupted ({time.time() - t0:.0f}s)", flush=True)

    results = {}
    for name, score in scorers.items():
        results[name] = accuracy(pairs, score)
        print(f"{name:22s} {json.dumps(results[name])}", flush=True)
    report = {
        "date": time.strftime("%Y-%m-%d"),
        "originals": len(test_texts),
        "pairs": counts,
        "seed": args.seed,
        "results": results,
        "examples": rng.sample(pairs, min(12, len(pairs))),
        "seconds": round(time.time() - t0, 1),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n")
    columns = list(next(iter(results.values())))
    print("| scorer | " + " | ".join(columns) + " |\n|" + "---|" * (len(columns) + 1))
    for name, r in results.items():
        print(f"| {name} | " + " | ".join(f"{r[k]:.3f}" for k in columns) + " |")


if __name__ == "__main__":
    main()
