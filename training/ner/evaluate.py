"""Entity-level evaluation (exact span + type) of a spaCy NER pipeline on BIO TSV test files.

    python training/ner/evaluate.py MODEL [--bc5cdr DIR] [--ncbi DIR] [--split test] [--out metrics.json]
        [--speed] [--runs 3]

Each sentence of the corpus is run through the pipeline on its gold tokens (the standard setting for these
corpora; the shipped tokenizer reproduces the corpus tokenisation on raw text anyway, which ``--speed`` checks).
BC5CDR is scored on Chemical and Disease; NCBI-disease (Disease only) on Disease, with predicted Chemicals ignored.
Prints and writes JSON: per type and micro-averaged overall precision / recall / F1 (percent) and counts.
``--speed`` adds raw-text throughput: ``nlp.pipe`` over the BC5CDR sentences (tokens joined by spaces), one
process, median sentences/s of ``--runs`` runs after a warm-up (set OMP_NUM_THREADS=1 for one thread).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import spacy
from spacy.tokens import Doc

from claimforge.nlp.entities import bio_to_spans, read_bio_tsv
from claimforge.nlp.pipeline import resolve_pipeline

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokenizer  # noqa: E402,F401  (lets spacy.load read training outputs whose config names the callback)


def prf(tp: int, fp: int, fn: int) -> dict[str, float | int]:
    p = tp / (tp + fp) if tp + fp else 0.0
    r = tp / (tp + fn) if tp + fn else 0.0
    f = 2 * p * r / (p + r) if p + r else 0.0
    return {
        "p": round(100 * p, 2),
        "r": round(100 * r, 2),
        "f": round(100 * f, 2),
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "gold": tp + fn,
        "pred": tp + fp,
    }


def score(nlp, path: Path, types: tuple[str, ...], batch_size: int = 256) -> dict:  # type: ignore[no-untyped-def]
    sents = list(read_bio_tsv(path))
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    docs = nlp.pipe((Doc(nlp.vocab, words=w) for w, _ in sents), batch_size=batch_size)
    for (_, tags), doc in zip(sents, docs, strict=True):
        gold = {s for s in bio_to_spans(tags) if s[2] in types}
        pred = {(e.start, e.end, e.label_) for e in doc.ents if e.label_ in types}
        for s in gold & pred:
            tp[s[2]] += 1
        for s in pred - gold:
            fp[s[2]] += 1
        for s in gold - pred:
            fn[s[2]] += 1
    out = {t: prf(tp[t], fp[t], fn[t]) for t in types}
    out["overall"] = prf(sum(tp.values()), sum(fp.values()), sum(fn.values()))
    out["sentences"] = len(sents)
    return out


def speed(nlp, path: Path, runs: int, batch_size: int) -> dict:  # type: ignore[no-untyped-def]
    sents = list(read_bio_tsv(path))
    texts = [" ".join(w) for w, _ in sents]
    agree = sum([t.text for t in nlp.make_doc(x)] == w for x, (w, _) in zip(texts, sents, strict=True))
    list(nlp.pipe(texts[:200], batch_size=batch_size))  # warm-up
    rates = []
    for _ in range(runs):
        t0 = time.perf_counter()
        for _ in nlp.pipe(texts, batch_size=batch_size):
            pass
        rates.append(len(texts) / (time.perf_counter() - t0))
    return {
        "sentences": len(texts),
        "tokens": sum(len(w) for w, _ in sents),
        "batch_size": batch_size,
        "runs_sentences_per_s": [round(r, 1) for r in rates],
        "median_sentences_per_s": round(statistics.median(rates), 1),
        "median_tokens_per_s": round(statistics.median(rates) * sum(len(w) for w, _ in sents) / len(texts), 1),
        "tokenizer_matches_corpus_tokens": f"{agree}/{len(texts)}",
        "omp_num_threads": os.environ.get("OMP_NUM_THREADS"),
        "cpu_count": os.cpu_count(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("model", help="pipeline name or path (en_claimforge_bioner = the shipped model)")
    ap.add_argument("--bc5cdr", type=Path, default=Path("../shared/data/bc5cdr"))
    ap.add_argument("--ncbi", type=Path, default=Path("../shared/data/ncbi_disease"))
    ap.add_argument("--split", default="test", choices=["train", "devel", "test"])
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--speed", action="store_true")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--batch-size", type=int, default=256)
    args = ap.parse_args()

    nlp = spacy.load(resolve_pipeline(args.model))
    result: dict = {"model": args.model, "split": args.split, "meta": {k: nlp.meta.get(k) for k in ("name", "version")}}
    result["bc5cdr"] = score(nlp, args.bc5cdr / f"data__BC5CDR-IOB__{args.split}.tsv", ("Chemical", "Disease"))
    result["ncbi_disease"] = score(nlp, args.ncbi / f"data__NCBI-disease-IOB__{args.split}.tsv", ("Disease",))
    if args.speed:
        result["speed"] = speed(nlp, args.bc5cdr / f"data__BC5CDR-IOB__{args.split}.tsv", args.runs, args.batch_size)
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
