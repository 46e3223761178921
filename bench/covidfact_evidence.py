"""Evidence retrieval on COVID-Fact dev with the paper's metrics (§3.1; Tables 4 and 5 of the COVID-Fact paper).

There are no source documents offline, so the sentence pool is every distinct gold evidence text (``sentence1``)
of dev (``--pool dev+train``: of train too, as distractors), each one a document, split into sentences as the
covidfact task splits it (the project's splitter, ``claimforge.nlp.sentences.split_sentences``). For each claim
(``Sentence2``: true claims and their counter-claims) the retriever returns the top 1/3/5 sentences of the pool:

- precision: retrieved sentences that belong to the claim's gold evidence / retrieved sentences (all claims);
- recall: claims with at least one retrieved sentence from their gold evidence / claims;
- F1: of the two.

A retrieved sentence belongs to the gold evidence when its text is one of the sentences of the claim's
``sentence1`` (a sentence that occurs in two evidence texts counts for both).

COVID-FEVER: a claim scores 1 when the verifier's label on (claim, top-5 retrieved sentences) is right AND at least
one of those sentences is gold evidence. The verifier is the embedded judge as zero-shot NLI
(``{"name": "zero-shot-nli"}``): entailment -> SUPPORTED, contradiction or neutral -> REFUTED (the 3-way argmax,
the paper's binary RTE setting). ``label_acc`` is that verifier's accuracy alone on the retrieved evidence;
``gold`` rows give it the gold ``sentence1`` sentences instead (the ceiling retrieval can reach). Nothing is tuned
on this data.

    OMP_NUM_THREADS=1 python bench/covidfact_evidence.py --threads 1 --out build/covidfact_evidence.json
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DEV = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", REPO.parent / "shared" / "data")) / "covidfact" / "rte_dev.tsv"
PAPER = {  # Google search + SBERT, the paper's Table 5 (evidence) and Table 4 (COVID-FEVER, test set)
    "top5": {"P": 22.27, "R": 52.37, "F1": 31.25},
    "top3": {"P": 24.77, "R": 45.14, "F1": 31.99},
    "top1": {"P": 29.68, "R": 29.93, "F1": 29.80},
    "covid_fever_top5": {"RoBERTa-large MNLI (zero-shot)": 35.1, "RoBERTa-large COVID-Fact": 43.3},
    "gold_acc": {"RoBERTa-large MNLI (zero-shot)": 61.3, "RoBERTa-large COVID-Fact": 83.5},
}


def _f1(p: float, r: float) -> float:
    return 2 * p * r / (p + r) if p + r else 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dev", type=Path, default=DEV)
    ap.add_argument(
        "--pool",
        choices=["dev", "dev+train"],
        default="dev",
        help="dev+train: the train split's evidence texts join the pool as distractors (claims are dev's)",
    )
    ap.add_argument("--retrievers", default="bm25,dense,hybrid")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-verifier", action="store_true", help="skip the COVID-FEVER score")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    import numpy as np
    import torch

    torch.set_num_threads(args.threads)
    import faiss

    faiss.omp_set_num_threads(args.threads)

    from claimforge.backends.retrieval import Document
    from claimforge.records import Label, Pair
    from claimforge.registry import registry

    task = registry.build(
        "task", {"name": "covidfact", "dev": str(args.dev), "train": str(args.dev.parent / "rte_train.tsv")}
    )
    pairs: list[Pair] = task.load("dev")
    # the task splits each sentence1 into sentences with the project's splitter (nlp.sentences.split_sentences)
    pool = pairs + (task.load("train") if args.pool == "dev+train" else [])
    evidence_sets = list(dict.fromkeys(p.evidence for p in pool))
    doc_of = {ev: f"ev{i}" for i, ev in enumerate(evidence_sets)}
    docs = [Document(id=doc_of[ev], title="", sentences=ev) for ev in evidence_sets]
    gold = {d.id: set(d.sentences) for d in docs}
    n_sent = sum(len(d.sentences) for d in docs)
    counts: dict[str, int] = {}
    for d in docs:
        for s in d.sentences:
            counts[s] = counts.get(s, 0) + 1
    claims = [p.claim for p in pairs]
    truth = [p.labels[0] for p in pairs]
    result: dict[str, Any] = {
        "pool": args.pool,
        "claims": len(pairs),
        "supported": sum(t == Label.SUPPORTED for t in truth),
        "evidence_documents": len(docs),
        "pool_sentences": n_sent,
        "distinct_sentences": len(counts),
        "sentences_in_several_documents": sum(c > 1 for c in counts.values()),
        "paper": PAPER,
        "retrieval": {},
    }
    verifier = None if args.no_verifier else registry.build("verifier", {"name": "zero-shot-nli", "num_labels": 3})
    hits_of: dict[str, list[list[Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.retrievers.split(","):
            r = registry.build("retriever", {"name": name, "index_dir": tmp, "units": ["sentence"]})
            t0 = time.perf_counter()
            r.index(docs)
            hits = r.search(claims, k=5, unit="sentence")
            hits_of[name] = hits
            row: dict[str, Any] = {"model_id": r.model_id, "seconds": round(time.perf_counter() - t0, 1)}
            for n in (1, 3, 5):
                retrieved = good = recalled = 0
                for p, hs in zip(pairs, hits, strict=True):
                    g = gold[doc_of[p.evidence]]
                    top = hs[:n]
                    retrieved += len(top)
                    k = sum(h.text in g for h in top)
                    good += k
                    recalled += k > 0
                prec, rec = 100 * good / max(retrieved, 1), 100 * recalled / len(pairs)
                row[f"top{n}"] = {"P": round(prec, 2), "R": round(rec, 2), "F1": round(_f1(prec, rec), 2)}
            result["retrieval"][name] = row
            print(name, json.dumps(row), flush=True)

    if verifier is not None:
        labels = list(verifier.labels)

        def judge(evidence: list[tuple[str, ...]]) -> tuple[list[Label], list[Label]]:
            batch = [Pair(id=p.id, claim=p.claim, evidence=ev) for p, ev in zip(pairs, evidence, strict=True)]
            probs = verifier.predict_proba(batch)
            three = [Label.SUPPORTED if labels[int(i)] == Label.SUPPORTED else Label.REFUTED for i in probs.argmax(1)]
            s = labels.index(Label.SUPPORTED)
            two = [Label.SUPPORTED if row[s] >= 0.5 else Label.REFUTED for row in np.asarray(probs)]
            return three, two

        fever: dict[str, Any] = {"verifier": verifier.model_id}
        gold_ev = [p.evidence for p in pairs]
        three, two = judge(gold_ev)
        fever["gold"] = {
            "label_acc": round(100 * np.mean([a == b for a, b in zip(three, truth, strict=True)]), 2),
            "label_acc_2way": round(100 * np.mean([a == b for a, b in zip(two, truth, strict=True)]), 2),
        }
        for name, hits in hits_of.items():
            ev = [tuple(h.text for h in hs) for hs in hits]
            three, two = judge(ev)
            any_gold = [any(h.text in gold[doc_of[p.evidence]] for h in hs) for p, hs in zip(pairs, hits, strict=True)]
            fever[name] = {
                "covid_fever": round(
                    100 * np.mean([a == b and g for a, b, g in zip(three, truth, any_gold, strict=True)]), 2
                ),
                "label_acc": round(100 * np.mean([a == b for a, b in zip(three, truth, strict=True)]), 2),
                "covid_fever_2way": round(
                    100 * np.mean([a == b and g for a, b, g in zip(two, truth, any_gold, strict=True)]), 2
                ),
            }
        result["covid_fever"] = fever
        print(json.dumps(fever), flush=True)
    print(json.dumps(result, indent=1))
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
