"""Speed of ``claimforge check`` on this CPU, in one process with the models loaded once (as a server or a batch
run keeps them):

- load: building the checker and loading its models (the verifier's weights, the sentence embedder that picks
  the sentences of long evidence), by checking one made-up claim;
- first answer: the first real claim against its abstract, right after loading;
- warm answers: ``--repeats`` more single claims, each new (no cached scores), median;
- batch: ``--batch`` claims with their SciFact dev oracle abstracts in one call: claims/s.

Each figure is the median over ``--runs`` child processes (this machine is noisy). The claims are SciFact dev
claims with their cited abstracts (evaluation only; nothing is tuned on them). The on-disk caches are off
(``CLAIMFORGE_NO_CACHE=1``), so every score is computed.

    python bench/bench_check.py --runs 3 --out build/bench_check.json
    python bench/bench_check.py --runs 3 --aspects --out build/bench_check_aspects.json   # what the CLI does

``--aspects``: the full explanation as ``claimforge check`` gives it by default — the 5W aspects from the parse,
each scored without it, and each question answered from the evidence by the embedded reader (QA validation).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _child(args: argparse.Namespace) -> dict:
    os.environ["CLAIMFORGE_NO_CACHE"] = "1"
    import torch

    torch.set_num_threads(args.threads)
    from claimforge.check import Checker, CheckItem, load_check_verifier
    from claimforge.io.benchmarks import load_task

    os.environ["CLAIMFORGE_DATA"] = str(args.data)
    pairs = [p for p in load_task({"name": "scifact"}).load("dev") if p.evidence]
    items = [CheckItem(p.id, p.claim, p.evidence) for p in pairs]
    t = time.perf_counter()
    nlp = reader = None
    if args.aspects:
        from claimforge.registry import registry

        nlp, reader = registry.build("nlp", {"name": "spacy"}), registry.build("qa", {"name": "embedded"})
    checker = Checker(load_check_verifier(args.model), nlp=nlp, qa=reader)
    dummy = tuple(
        f"Sentence number {i} of a long made-up evidence text about nothing in particular." for i in range(12)
    )
    checker.check([CheckItem("warm-up", "A made-up claim.", dummy)])  # loads the weights and the embedder
    load = time.perf_counter() - t
    t = time.perf_counter()
    checker.check([items[0]])
    first = time.perf_counter() - t
    warm = []
    for it in items[1 : 1 + args.repeats]:
        t = time.perf_counter()
        checker.check([it])
        warm.append(time.perf_counter() - t)
    batch = items[1 + args.repeats : 1 + args.repeats + args.batch]
    t = time.perf_counter()
    checker.check(batch)
    batch_s = time.perf_counter() - t
    return {
        "load_s": round(load, 3),
        "first_answer_s": round(first, 3),
        "warm_answer_median_s": round(statistics.median(warm), 3),
        "batch_claims": len(batch),
        "batch_claims_per_s": round(len(batch) / batch_s, 2),
        "evidence_sentences_per_claim": round(sum(len(i.evidence) for i in batch) / len(batch), 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", default="zero-shot-nli")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=10)
    ap.add_argument("--batch", type=int, default=100)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--aspects", action="store_true", help="with the 5W aspects and QA validation")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(_child(args)))
        return
    rows = []
    for _ in range(args.runs):
        cmd = [sys.executable, __file__, "--child", "--model", args.model, "--data", str(args.data)]
        cmd += ["--repeats", str(args.repeats), "--batch", str(args.batch), "--threads", str(args.threads)]
        cmd += ["--aspects"] if args.aspects else []
        res = subprocess.run(cmd, capture_output=True, text=True, check=True)
        rows.append(json.loads(res.stdout.strip().splitlines()[-1]))
        print(rows[-1], file=sys.stderr, flush=True)
    keys = [k for k in rows[0] if k != "batch_claims"]
    med = {k: statistics.median(r[k] for r in rows) for k in keys}
    print("| measure | median over runs |\n|---|---:|")
    for k in keys:
        print(f"| {k} | {med[k]} |")
    if args.out:
        summary = {"median": med, "runs": rows, "threads": args.threads, "aspects": args.aspects}
        args.out.write_text(json.dumps(summary, indent=2) + "\n")


if __name__ == "__main__":
    main()
