"""Prediction speed of the whole-paper verifiers on synthetic full-paper pairs (not collected by pytest).

    .venv/bin/python bench/bench_paper_verifiers.py --pairs 64 --runs 3

Each pair's evidence is a synthetic "paper" of ``--sentences`` sentences (20-34 words drawn from a fixed
scientific vocabulary, seeded); ``--claims-per-paper`` claims share one paper (SciClaimHunt makes several
claims per paper). Every run starts with an empty on-disk cache (a fresh ``CLAIMFORGE_CACHE``) and a new
verifier, so embeddings are computed, not read back; the models are loaded before the clock starts. Prints
pairs/s per run and the median, and the CPU seconds per pair (which contention hardly moves), for ER and
RAG-extractive (defaults: dense retrieval, MiniLM embedder, the embedded NLI cross-encoder at max_length 128),
ER variants (BM25; mean-of-sentence passage vectors; the inner model at max_length 256) and, with ``--heads``,
CEM/GCEM over all the sentences. ``--only er,rag-extractive`` picks some; ``--warm`` times a second pass whose
embeddings are already cached on disk.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import tempfile
import time
from typing import Any

_WORDS = (
    "cell cells protein proteins gene genes expression increased decreased significantly patients treatment "
    "group groups control controls mice model models analysis data results showed observed associated with "
    "between during after before response levels activity binding receptor pathway signaling tumor growth "
    "infection virus viral immune inflammation dose doses trial randomized placebo outcome outcomes mortality "
    "risk ratio confidence interval compared higher lower than the of in and to a was were is are by for on "
    "using measured samples tissue blood plasma concentration mutation mutations variant variants sequence "
    "structure function mechanism role effect effects study studies clinical cohort baseline follow-up months "
    "weeks days years age sex women men children adults temperature pressure rate rates network networks"
)
VOCAB = _WORDS.split()


def synthetic_pairs(n_pairs: int, sentences: int, claims_per_paper: int, seed: int = 0) -> list[Any]:
    from claimforge.records import Label, Pair

    rng = random.Random(seed)

    def sentence() -> str:
        words = [rng.choice(VOCAB) for _ in range(rng.randint(20, 34))]
        return " ".join(words).capitalize() + f" ({rng.randint(1, 99)}%)."

    pairs = []
    paper: tuple[str, ...] = ()
    for i in range(n_pairs):
        if i % claims_per_paper == 0:
            paper = tuple(sentence() for _ in range(sentences))
        claim = " ".join(rng.choice(VOCAB) for _ in range(rng.randint(10, 16))).capitalize() + "."
        label = (Label.SUPPORTED, Label.REFUTED)[i % 2]
        pairs.append(Pair(id=f"syn:{i}", claim=claim, evidence=paper, labels=(label,)))
    return pairs


def _time(spec: dict[str, Any], pairs: list[Any], runs: int, warm: bool) -> list[tuple[float, float]]:
    """(pairs/s wall-clock, CPU seconds per pair) of ``predict_proba`` by a new verifier, per run; ``warm``: the
    on-disk caches (embeddings, LLM replies) already hold the pairs' texts, from an untimed first pass with
    another verifier. CPU time (all threads of this process) hardly moves when other processes share the CPU."""
    from claimforge.registry import registry

    probe = synthetic_pairs(2, 8, 1, seed=99)
    out = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory() as cache:
            os.environ["CLAIMFORGE_CACHE"] = cache
            if warm:
                registry.build("verifier", spec).predict_proba(pairs)
            verifier = registry.build("verifier", spec)
            verifier.predict_proba(probe)  # loads the models
            start, cpu = time.perf_counter(), time.process_time()
            verifier.predict_proba(pairs)
            wall, cpu = time.perf_counter() - start, time.process_time() - cpu
            out.append((len(pairs) / wall, cpu / len(pairs)))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--pairs", type=int, default=64)
    ap.add_argument("--sentences", type=int, default=265)
    ap.add_argument("--claims-per-paper", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--heads", action="store_true", help="also CEM and GCEM (untrained heads) over all sentences")
    ap.add_argument("--warm", action="store_true", help="time with the embedding cache already filled")
    ap.add_argument("--only", default="", help="comma-separated labels of the specs to run")
    args = ap.parse_args()
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import torch

    pairs = synthetic_pairs(args.pairs, args.sentences, args.claims_per_paper)
    specs: dict[str, dict[str, Any]] = {
        "er": {"name": "er"},
        "rag-extractive": {"name": "rag"},
        "er-bm25": {"name": "er", "retrieval": "bm25"},
        "er-mean": {"name": "er", "passage_vectors": "mean"},
        "er-inner256": {"name": "er", "inner": {"max_length": 256}},
    }
    if args.heads:
        full = {"max_sentences": args.sentences}
        specs.update(
            {
                "cem": {"name": "cem", **full},
                "gcem-0.75": {"name": "gcem", **full},
                "gcem-0.25": {"name": "gcem", "beta": 0.25, **full},
            }
        )
    only = {s for s in args.only.split(",") if s}
    print(
        f"{len(pairs)} pairs, {args.sentences} sentences each, {args.claims_per_paper} claim(s) per paper, "
        f"torch threads {torch.get_num_threads()}, {args.runs} runs, {'warm' if args.warm else 'cold'} cache"
    )
    for label, spec in specs.items():
        if only and label not in only:
            continue
        runs = _time(spec, pairs, args.runs, args.warm)
        rates, cpu = [r for r, _ in runs], [c for _, c in runs]
        load = os.getloadavg()[0]
        print(
            f"{label}: {statistics.median(rates):.2f} pairs/s (median; runs {', '.join(f'{r:.2f}' for r in rates)}); "
            f"{statistics.median(cpu):.2f} CPU s/pair; 1-min load average at the end {load:.1f}",
            flush=True,
        )


if __name__ == "__main__":
    main()
