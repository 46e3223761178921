"""Calibrate the emit-time claim check's LM limits on real declarative sentences the shipped n-gram LM was not
trained on: EntailmentBank hypotheses (grade-school science statements, sentence-cased, final period added) and
sentences of the NCBI-disease test abstracts (PubMed). Prints, per set and pooled, the percentiles of perplexity
and perplexity ratio, the pass rate of the parse checks, and the limits at ``--percentile`` (default 99).

    python bench/claim_check_calibration.py --data ../shared/data [--n 1500] [--seed 0] [--percentile 99]
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

import numpy as np

from claimforge.backends.lm import lm_fluency_stats
from claimforge.nlp.sentences import split_sentences
from claimforge.nlp.wellformed import wellformed_reasons
from claimforge.registry import registry


def entailmentbank(data: Path) -> list[str]:
    rows = [json.loads(x) for x in (data / "qa2d/entailmentbank_train.jsonl").read_text().splitlines()]
    out = []
    for r in rows:
        h = r["hypothesis"].strip().rstrip(".")
        if h:
            out.append(h[:1].upper() + h[1:] + ".")
    return out


def ncbi(data: Path) -> list[str]:
    out = []
    for line in (data / "ncbi_disease/original-data__test__NCBItestset_corpus.txt").read_text().splitlines():
        parts = line.split("|", 2)
        if len(parts) == 3 and parts[1] in ("t", "a"):
            out.extend(s for s in split_sentences(parts[2]) if len(s.split()) >= 4)
    return out


def _short(texts: list[str], values: np.ndarray, max_words: int = 12) -> list[float]:
    """Percentiles of the ratio on the sentences of at most ``max_words`` words (short claims' ratios spread more)."""
    short = np.array([v for t, v in zip(texts, values, strict=True) if len(t.split()) <= max_words])
    if not len(short):
        return []
    return [round(float(np.percentile(short, q)), 3) for q in (99, 99.9, 100)] + [len(short)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--n", type=int, default=1500, help="sentences per set (random, seeded)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--percentile", type=float, default=99.0)
    ap.add_argument("--shuffles", type=int, default=5)
    args = ap.parse_args()
    lm = registry.build("lm", {"name": "ngram"})
    nlp = registry.build("nlp", {"name": "spacy"})
    sets = {"entailmentbank": entailmentbank(args.data), "ncbi_test": ncbi(args.data)}
    out: dict[str, object] = {"lm": lm.model_id, "nlp": nlp.model_id, "percentile": args.percentile}
    pooled_ppl, pooled_ratio = [], []
    for name, texts in sets.items():
        texts = random.Random(args.seed).sample(texts, min(args.n, len(texts)))
        ppl, ratio = lm_fluency_stats(lm, texts, args.shuffles)
        reasons = [wellformed_reasons(t, d) for t, d in zip(texts, nlp.parse(texts), strict=True)]
        codes = Counter(r.split(":")[0] for rs in reasons for r in rs)
        pooled_ppl.append(ppl)
        pooled_ratio.append(ratio)
        out[name] = {
            "n": len(texts),
            "perplexity_p50_p95_p99_p999": [round(float(np.percentile(ppl, q)), 1) for q in (50, 95, 99, 99.9)],
            "ratio_p50_p95_p99_p999_max": [round(float(np.percentile(ratio, q)), 3) for q in (50, 95, 99, 99.9, 100)],
            "ratio_short_p99_p999_max": _short(texts, ratio),
            "parse_checks_pass": round(sum(not r for r in reasons) / len(texts), 4),
            "parse_check_reasons": dict(codes.most_common()),
            "examples_failing": [(t, r) for t, r in zip(texts, reasons, strict=True) if r][:8],
        }
    ppl_all, ratio_all = np.concatenate(pooled_ppl), np.concatenate(pooled_ratio)
    out["limits_at_percentile"] = {
        "max_perplexity": round(float(np.percentile(ppl_all, args.percentile)), -2),
        "max_ratio": round(float(np.percentile(ratio_all, args.percentile)), 2),
    }
    out["ratio_max_on_real_sentences"] = round(float(ratio_all.max()), 3)
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
