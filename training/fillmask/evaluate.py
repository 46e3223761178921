"""Held-out accuracy of masked whole-word prediction: the fill-mask model vs the n-gram LM.

Sentences come from the held-out documents (the n-gram LM's "test" split of PLOS + Evidence-Inference, which
neither model trained on; training/fillmask/train.py). In each sampled sentence one content word is masked: a word
of 3+ ASCII letters, not adjacent to a letter, digit, hyphen or apostrophe (so it is one token for both models),
not a spaCy English stop word, chosen uniformly with a seeded RNG. A prediction is right when the candidate equals
the word (case-insensitive).

- fill-mask: ``MaskedLMEngine.candidates(..., exclude_original=False)``, fillers of 1..max_span_tokens WordPiece
  tokens ranked by summed log-probability + log length prior (the component's ranking).
- n-gram LM: the shipped 4-gram. Candidates are the ``--ngram-pool`` alphabetic vocabulary words with the highest
  p(w | left context); each is put in the gap and the whole sentence scored (<s> ... </s>, both contexts), and the
  candidates ranked by that log-probability. Also reported: the left-context-only ranking, and how often the word
  is in the pool at all (the ceiling of the two-sided ranking).

    OMP_NUM_THREADS=1 python training/fillmask/evaluate.py --n 2000 --out build/fillmask/eval.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training" / "lm"))
sys.path.insert(0, str(ROOT / "training" / "fillmask"))  # first: its train.py, not the n-gram LM's

from train import STOP_WORDS, load_splits  # noqa: E402

from claimforge.backends import fillmask  # noqa: E402
from claimforge.backends.lm import NGramLM, embedded_model_dir, tokenize  # noqa: E402

WORD = re.compile(r"(?<![A-Za-z0-9\-'\u2019])[A-Za-z]{3,}(?![A-Za-z0-9\-'\u2019])")


def sample(sentences: list[str], n: int, seed: int) -> list[tuple[str, int, int]]:
    rng = np.random.default_rng(seed)
    out: list[tuple[str, int, int]] = []
    for i in rng.permutation(len(sentences)):
        text = sentences[int(i)]
        if not 8 <= len(text.split()) <= 50:
            continue
        words = [m for m in WORD.finditer(text) if m.group().lower() not in STOP_WORDS]
        if not words:
            continue
        m = words[int(rng.integers(len(words)))]
        out.append((text, m.start(), m.end()))
        if len(out) == n:
            break
    return out


def hits(ranked: list[list[str]], gold: list[str]) -> dict[str, float]:
    top1 = sum(r[:1] == [g] for r, g in zip(ranked, gold, strict=True))
    top10 = sum(g in r[:10] for r, g in zip(ranked, gold, strict=True))
    return {"top1": top1 / len(gold), "top10": top10 / len(gold), "n": len(gold)}


def eval_fillmask(reqs, gold, path: str | None, max_span: int, bf16: bool) -> tuple[dict, list[list[str]]]:
    tokenizer, model, _ = fillmask._load_embedded(
        str(Path(path).resolve()) if path else str(fillmask.embedded_model_dir())
    )
    header = json.loads(((Path(path) if path else fillmask.embedded_model_dir()) / fillmask.CONFIG_FILE).read_text())
    engine = fillmask.MaskedLMEngine(
        tokenizer,
        model,
        max_span_tokens=max_span,
        length_prior=header.get("length_prior") or fillmask.DEFAULT_LENGTH_PRIOR,
        bf16=bf16,
        batch_size=64,
    )
    ranked: list[list[str]] = []
    for b in range(0, len(reqs), 64):
        for cands in engine.candidates(reqs[b : b + 64], 10, exclude_original=False):
            ranked.append([c.text.lower() for c in cands])
    res = hits(ranked, gold)
    pieces = [len(tokenizer.tokenize(g)) for g in gold]
    for label, keep in (("1 piece", lambda p: p == 1), ("2+ pieces", lambda p: p >= 2)):
        idx = [i for i, p in enumerate(pieces) if keep(p)]
        res[label] = hits([ranked[i] for i in idx], [gold[i] for i in idx])
    return res, ranked


def eval_ngram(reqs, gold, pool: int) -> dict:
    lm = NGramLM.load(embedded_model_dir())
    ok_word = np.array([w.isalpha() for w in lm.vocab])
    two_sided: list[list[str]] = []
    left_only: list[list[str]] = []
    in_pool = 0
    for text, s, e in reqs:
        left, right = tokenize(text[:s]), tokenize(text[e:])
        lp = lm.next_word_logprobs(left)
        lp = np.where(ok_word, lp, -np.inf)
        top = np.argsort(-lp, kind="stable")[:pool]
        words = [lm.vocab[i] for i in top]
        left_only.append(words[:10])
        scores = lm.score_sentences([[*left, w, *right] for w in words])
        order = np.argsort(-scores, kind="stable")
        two_sided.append([words[i] for i in order[:10]])
        in_pool += text[s:e].lower() in words
    return {
        "two-sided": hits(two_sided, gold),
        "left-only": hits(left_only, gold),
        "in pool": in_pool / len(gold),
        "pool": pool,
        "target in vocabulary": sum(g in lm.word_id for g in gold) / len(gold),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--corpus-cache", type=Path, default=ROOT / "build" / "fillmask" / "corpus")
    ap.add_argument("--split", default="test")
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--model", default=None, help="a fill-mask model directory; default: the shipped one")
    ap.add_argument("--max-span-tokens", type=int, default=3)
    ap.add_argument("--ngram-pool", type=int, default=500)
    ap.add_argument("--no-ngram", action="store_true")
    ap.add_argument("--bf16", action="store_true")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    import torch

    torch.set_num_threads(1)
    sents = load_splits(args.data, args.corpus_cache)[args.split]
    reqs = sample(sents, args.n, args.seed)
    gold = [t[s:e].lower() for t, s, e in reqs]
    report: dict = {"split": args.split, "n": len(reqs), "date": time.strftime("%Y-%m-%d"), "args": vars(args)}
    t = time.time()
    report["fillmask"], ranked = eval_fillmask(reqs, gold, args.model, args.max_span_tokens, args.bf16)
    report["fillmask"]["seconds"] = round(time.time() - t, 1)
    print(json.dumps(report["fillmask"]), flush=True)
    if not args.no_ngram:
        t = time.time()
        report["ngram"] = eval_ngram(reqs, gold, args.ngram_pool)
        report["ngram"]["seconds"] = round(time.time() - t, 1)
        print(json.dumps(report["ngram"]), flush=True)
    report["examples"] = [
        {"text": t, "word": t[s:e], "fillmask top10": r} for (t, s, e), r in list(zip(reqs, ranked, strict=True))[:20]
    ]
    if args.out:
        args.out.write_text(json.dumps(report, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
