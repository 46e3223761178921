"""Calibrate and check the automatic claim-quality scores (claimforge.evaluate.claim_quality) on real data.

1. Fluency thresholds, for the two measures of ClaimScorerConfig.fluency_measure: the perplexity of the
   embedded n-gram LM, and its ratio to the geometric mean perplexity of 5 random orders of the same words
   ("ratio"); the default "both" takes the lower of the two levels. Measured on the 809 SciFact train claims
   (expert-written; the LM is trained on abstracts, not on claims): good = the 95th percentile of real claims,
   bad = the larger of their 99.5th percentile and the median of the same claims with their words shuffled.
   Checked on the 300 SciFact dev claims and on corrupted dev claims (words shuffled, last 40% of words cut,
   every third word dropped), with the AUC of each measure for real vs corrupted.
2. Rule checks: how often each de-contextualization / atomicity / fluency check fires on the SciFact claims
   (expert-written, stand-alone and atomic by construction: ideally never) and on the citances they were
   written from (often not stand-alone and not atomic).
3. Faithfulness thresholds for the embedded NLI model: SciFact citance (+ context) -> its expert rewrites
   (faithful), -> the rewrites marked as negations (contradicted), and the rewrites paired with a random other
   citance (unrelated). Citances are split in two halves by position; thresholds are percentiles on the first
   half (entail_high = median P(entailment) of faithful claims, entail_low = their 10th percentile,
   contradiction = the 95th percentile of their P(contradiction), unrelated_overlap = midway between the 95th
   percentile of unrelated overlaps and the 5th of faithful ones); the score distributions are reported on the
   held-out half, with the whole calibrated scorer's Table 3 for the held-out expert rewrites.

    OMP_NUM_THREADS=1 python bench/claim_quality_calibration.py --data ../shared/data --out build/claim_quality_cal
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from claimforge.backends.lm import lm_fluency_stats
from claimforge.evaluate.claim_quality import (
    ClaimScorer,
    ClaimScorerConfig,
    atomicity_reasons,
    decontextualization_reasons,
    faithfulness_score,
    fluency_score,
    summarise,
)
from claimforge.nlp.wellformed import fluency_checks
from claimforge.registry import registry


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def corruptions(claims: list[str], seed: int) -> dict[str, list[str]]:
    rng = random.Random(seed)

    def shuffle(c: str) -> str:
        w = c.rstrip(".").split()
        rng.shuffle(w)
        return " ".join(w) + "."

    return {
        "shuffled": [shuffle(c) for c in claims],
        "truncated": [" ".join(c.split()[: max(1, int(0.6 * len(c.split())))]) for c in claims],
        "every_third_word_dropped": [" ".join(w for i, w in enumerate(c.split()) if i % 3 != 1) for c in claims],
    }


def fluency_levels(ppl: np.ndarray, good: float, bad: float) -> dict[str, float]:
    n = len(ppl)
    return {
        "3": round(100 * float(np.sum(ppl <= good)) / n, 1),
        "2": round(100 * float(np.sum((ppl > good) & (ppl <= bad))) / n, 1),
        "1": round(100 * float(np.sum(~(ppl <= bad))) / n, 1),
    }


def pct(a: np.ndarray, q: float) -> float:
    return round(float(np.nanpercentile(a, q)), 1)


def context_of(paragraph: str, citance: str) -> str:
    """The sentence before and the sentence after the citance in its paragraph (the paper's context)."""
    from claimforge.nlp.sentences import split_sentences

    i = paragraph.find(citance)
    if i < 0:
        return ""
    before = split_sentences(paragraph[:i])
    after = split_sentences(paragraph[i + len(citance) :])
    return " ".join(([before[-1]] if before else []) + ([after[0]] if after else []))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/claim_quality_cal"))
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--lm-path", default=None, help="an n-gram LM directory (default: the shipped lm-ngram)")
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    t0 = time.time()
    report: dict[str, Any] = {"seed": args.seed}

    # 1. fluency thresholds, for both measures: perplexity, and the ratio to shuffled orders of the same words
    lm = registry.build("lm", {"name": "ngram", **({"path": args.lm_path} if args.lm_path else {})})
    report["lm"] = lm.model_id
    k = ClaimScorerConfig().shuffles
    train = [r["claim"] for r in read_jsonl(args.data / "scifact" / "claims_train.jsonl")]
    dev = [r["claim"] for r in read_jsonl(args.data / "scifact" / "claims_dev.jsonl")]
    ppl_train, ratio_train = lm_fluency_stats(lm, train, k)
    ppl_shuf, ratio_shuf = lm_fluency_stats(lm, corruptions(train, args.seed)["shuffled"], k)
    thresholds = {
        "ppl_good": float(np.round(np.nanpercentile(ppl_train, 95), -1)),
        "ppl_bad": float(np.round(max(np.nanpercentile(ppl_train, 99.5), np.nanmedian(ppl_shuf)), -1)),
        "ratio_good": round(float(np.nanpercentile(ratio_train, 95)), 2),
        "ratio_bad": round(float(max(np.nanpercentile(ratio_train, 99.5), np.nanmedian(ratio_shuf))), 2),
    }
    qs = (5, 25, 50, 75, 90, 95, 99, 99.5)
    fluency: dict[str, Any] = {
        "n_train": len(train),
        "n_dev": len(dev),
        "shuffles": k,
        "thresholds": thresholds,
        "train_percentiles": {
            "perplexity": {f"p{q}": pct(ppl_train, q) for q in qs},
            "perplexity_shuffled_claims": {f"p{q}": pct(ppl_shuf, q) for q in qs},
            "ratio": {f"p{q}": round(float(np.nanpercentile(ratio_train, q)), 3) for q in qs},
            "ratio_shuffled_claims": {f"p{q}": round(float(np.nanpercentile(ratio_shuf, q)), 3) for q in qs},
        },
        "dev_levels": {"perplexity": {}, "ratio": {}, "both": {}},
        "dev_auc_real_vs_corrupted": {"perplexity": {}, "ratio": {}},
    }
    from sklearn.metrics import roc_auc_score

    dev_sets = {"real": dev, **corruptions(dev, args.seed + 1)}
    stats = {name: lm_fluency_stats(lm, texts, k) for name, texts in dev_sets.items()}
    for name, (ppl, ratio) in stats.items():
        fluency["dev_levels"]["perplexity"][name] = fluency_levels(ppl, thresholds["ppl_good"], thresholds["ppl_bad"])
        fluency["dev_levels"]["ratio"][name] = fluency_levels(ratio, thresholds["ratio_good"], thresholds["ratio_bad"])
        both = np.array(
            [fluency_score(p, [], ClaimScorerConfig(**thresholds), r)[0] for p, r in zip(ppl, ratio, strict=True)]
        )
        fluency["dev_levels"]["both"][name] = {str(v): round(100 * float(np.mean(both == v)), 1) for v in (3, 2, 1)}
        if name != "real":
            for m, col in (("perplexity", 0), ("ratio", 1)):
                y = [0] * len(dev) + [1] * len(dev)
                x = np.r_[np.log(stats["real"][col]), np.log(stats[name][col])]
                fluency["dev_auc_real_vs_corrupted"][m][name] = round(float(roc_auc_score(y, x)), 3)
    report["fluency"] = fluency

    # 2. rule checks on real claims vs citances
    nlp = registry.build("nlp", {"name": "spacy"})
    known = frozenset(ClaimScorerConfig().common_abbreviations)
    cit_rows = read_jsonl(args.data / "claimgen" / "scifact_citances_train.jsonl")
    citances = [r["citance"] for r in cit_rows]
    rules: dict[str, Any] = {}
    for name, texts in (("scifact_train_claims", train), ("scifact_citances", citances)):
        docs = nlp.parse(texts)
        counts: Counter[str] = Counter()
        any_fail = Counter()
        for t, d in zip(texts, docs, strict=True):
            checks = {
                "fluency_checks": fluency_checks(t, d),
                "decontextualized": decontextualization_reasons(t, d, known),
                "atomicity": atomicity_reasons(t, d),
            }
            for crit, reasons in checks.items():
                any_fail[crit] += bool(reasons)
                counts.update(set(r.split(":")[0] for r in reasons))
        n = len(texts)
        rules[name] = {
            "n": n,
            "flagged_pct": {k: round(100 * v / n, 1) for k, v in any_fail.items()},
            "reason_pct": {k: round(100 * v / n, 1) for k, v in counts.most_common()},
        }
    report["rules"] = rules

    # 3. faithfulness thresholds for the embedded NLI: citances split in two halves by position; the thresholds are
    # percentiles of the NLI probabilities of the expert rewrites of the first half; all rates are reported on
    # the held-out second half.
    groups: dict[str, dict[str, list[tuple[str, str, str]]]] = {
        half: {"entailed": [], "negated": [], "unrelated": []} for half in ("calibration", "held_out")
    }
    rng = random.Random(args.seed)
    for k, r in enumerate(cit_rows):
        half = "calibration" if k % 2 == 0 else "held_out"
        ctx = context_of(r.get("citation_paragraph") or "", r["citance"])
        for c in r["claims"]:
            groups[half]["negated" if c["is_negation"] else "entailed"].append((c["text"].strip(), r["citance"], ctx))
            if not c["is_negation"]:
                other = rng.choice([o for o in cit_rows if o is not r])
                octx = context_of(other.get("citation_paragraph") or "", other["citance"])
                groups[half]["unrelated"].append((c["text"].strip(), other["citance"], octx))
    base = ClaimScorerConfig(**thresholds)
    scorer = ClaimScorer(base, nlp=nlp, lm=lm)
    scored = {h: {g: scorer.score(t) for g, t in gs.items()} for h, gs in groups.items()}
    cal = scored["calibration"]
    ent_p = np.array([s.nli["SUPPORTED"] for s in cal["entailed"]])
    con_p = np.array([s.nli["REFUTED"] for s in cal["entailed"]])
    ov_unrel = np.array([s.overlap for s in cal["unrelated"]])
    ov_ent = np.array([s.overlap for s in cal["entailed"]])
    faith_thresholds = {
        "entail_high": round(float(np.median(ent_p)), 2),  # the more confident half of faithful claims -> 5
        "entail_low": round(float(np.percentile(ent_p, 10)), 2),  # 90% of faithful claims reach 4
        "contradiction": round(float(np.percentile(con_p, 95)), 2),  # only 5% of faithful claims look contradicted
        # between the 95th percentile of unrelated pairs and the 5th of faithful ones
        "unrelated_overlap": round(float((np.percentile(ov_unrel, 95) + np.percentile(ov_ent, 5)) / 2), 1),
    }
    cfg = base.model_copy(update=faith_thresholds)
    faith: dict[str, Any] = {
        "thresholds": faith_thresholds,
        "calibration_percentiles": {
            "P(ent) of faithful": {f"p{q}": round(float(np.percentile(ent_p, q)), 3) for q in (10, 25, 50, 75, 90)},
            "P(con) of faithful": {f"p{q}": round(float(np.percentile(con_p, q)), 3) for q in (50, 90, 95)},
            "overlap of unrelated": {f"p{q}": round(float(np.percentile(ov_unrel, q)), 3) for q in (50, 90, 95, 99)},
            "overlap of faithful": {f"p{q}": round(float(np.percentile(ov_ent, q)), 3) for q in (1, 5, 10, 50)},
        },
    }
    from sklearn.metrics import roc_auc_score

    for half, by_group in scored.items():
        faith[half] = {}
        for name, scores in by_group.items():
            mapped = [faithfulness_score(list(s.nli.values()), s.overlap, cfg)[0] for s in scores]
            faith[half][name] = {
                "n": len(scores),
                "distribution": {str(v): mapped.count(v) for v in (5, 4, 3, 2, 1)},
                "argmax_nli": dict(Counter(max(s.nli, key=s.nli.get) for s in scores)),
            }
        e, n = by_group["entailed"], by_group["negated"]
        faith[half]["auc_entailed_vs_negated_P(ent)"] = round(
            float(roc_auc_score([1] * len(e) + [0] * len(n), [s.nli["SUPPORTED"] for s in e + n])), 3
        )
    # the whole scorer (calibrated) on the held-out expert rewrites: what Table 3 says about human-written claims
    final = ClaimScorer(cfg, nlp=nlp, lm=lm)
    held = groups["held_out"]["entailed"]
    held_scores = final.score(held)
    summary = summarise(held_scores)
    faith["held_out_table3_expert_claims"] = {
        k: summary[k]
        for k in (
            "fluency",
            "decontextualized_pct",
            "atomicity_pct",
            "faithfulness",
            "n_generated",
            "n_accepted",
            "precision_pct",
        )
    }
    faith["held_out_reasons"] = summary["reasons"]
    with open(args.out / "scored_held_out_expert_claims.jsonl", "w", encoding="utf-8") as f:
        for t, sc in zip(held, held_scores, strict=True):
            f.write(json.dumps({"source": t[1], "context": t[2], **sc.model_dump()}, ensure_ascii=False) + "\n")
    report["faithfulness"] = faith
    report["nli"] = scorer.nli.model_id
    report["seconds"] = round(time.time() - t0, 1)
    (args.out / "calibration.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
