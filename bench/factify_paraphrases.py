"""The paraphrases of ``claimforge build factify``: FACTIFY-5WQA's Table 3 (coverage, correctness, diversity) from
a build's examples and rejects, and a blind reading sheet of its paraphrases.

- coverage: paraphrases per claim that pass the edit-distance filter (the paper: "considerable" generations);
- correctness: the share of those the judge finds entailed both ways;
- diversity: the mean inverse BLEU of the kept paraphrases (1 / BLEU against the claim and the claim's other kept
  paraphrases);
- kept per claim: after the label check and ``max_per_claim`` (what the dataset gains).

    python bench/factify_paraphrases.py --table build/factify/m2c_sciq_after3 build/factify/cg_after2
    python bench/factify_paraphrases.py --sheet build/factify/* --n 60 --seed 20261126 --out build/reading/factify
    python bench/factify_paraphrases.py --score build/reading/factify/answers.jsonl \
        --key build/reading/factify/key.jsonl

The reader answers one JSON line per item: {"n": 1, "meaning": "same|partly|different", "fluency": 1-3,
"note": "..."}.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path
from statistics import mean

INSTRUCTIONS = """Each item is a claim and a rewording of it. Judge the rewording only against the claim:

- meaning: "same" (it says exactly what the claim says: same facts, same strength, nothing added or lost),
  "partly" (close, but something is lost, added, weakened or changed in a way a fact-checker would notice),
  "different" (a different or wrong statement: a word used in the wrong sense, a changed fact);
- fluency: 3 fluent English, 2 awkward but clear, 1 broken.

Answer as JSON lines: {"n": 1, "meaning": "same", "fluency": 3, "note": "..."}
"""


def _rows(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


def table(builds: list[Path]) -> None:
    print(
        "| input | claims | coverage (pass edit distance / claim) | correctness (entailed both ways) | kept / claim "
        "| diversity (inverse BLEU) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for b in builds:
        ex = _rows(b / "examples.jsonl")
        rej = _rows(b / "rejects.jsonl")
        claims = sum(1 for e in ex if e["method"] != "factify")
        kept = [e for e in ex if e["method"] == "factify"]
        reasons = Counter(r["reason"] for r in rej if r["scope"] == "example")
        passed_med = (
            len(kept) + reasons["not_entailed_both_ways"] + reasons["max_per_claim"] + reasons["label_not_confirmed"]
        )
        entailed = passed_med - reasons["not_entailed_both_ways"]
        div = mean(e["provenance"]["details"]["inverse_bleu"] for e in kept) if kept else 0.0
        print(
            f"| {b.name} | {claims} | {passed_med / claims:.2f} | {entailed / max(passed_med, 1):.1%} "
            f"| {len(kept) / claims:.2f} | {div:.2f} |"
        )


def make_sheet(builds: list[Path], n: int, seed: int, out: Path) -> None:
    rng = random.Random(seed)
    per = -(-n // len(builds))
    picked = []
    for b in builds:
        pool = [e for e in _rows(b / "examples.jsonl") if e["method"] == "factify"]
        rng.shuffle(pool)
        picked += [(b.name, e) for e in pool[:per]]
    picked = picked[:n]
    rng.shuffle(picked)
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Paraphrase reading sheet ({len(picked)} items)", "", INSTRUCTIONS]
    key = []
    for i, (name, e) in enumerate(picked, 1):
        d = e["provenance"]["details"]
        lines += [
            f"## {i}",
            "",
            f"**Claim:** {d.get('paraphrased_claim') or d['original_claim']}",
            "",
            f"**Rewording:** {e['claim']}",
            "",
        ]
        key.append({"n": i, "id": e["id"], "build": name, "operations": d.get("operations", [])})
    (out / "sheet.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key.jsonl").write_text("".join(json.dumps(k) + "\n" for k in key), encoding="utf-8")
    print(f"wrote {out}/sheet.md and key.jsonl ({len(picked)} paraphrases, seed {seed})")


def score(answers: Path, key_path: Path) -> None:
    key = {k["n"]: k for k in _rows(key_path)}
    got = {a["n"]: a for a in _rows(answers)}
    n = len(key)
    same = sum(got[i]["meaning"] == "same" for i in key)
    fluent = sum(got[i]["fluency"] >= 2 for i in key)
    both = sum(got[i]["meaning"] == "same" and got[i]["fluency"] >= 2 for i in key)
    both3 = sum(got[i]["meaning"] == "same" and got[i]["fluency"] == 3 for i in key)
    print(
        f"meaning same {same}/{n}, partly {sum(got[i]['meaning'] == 'partly' for i in key)}, "
        f"different {sum(got[i]['meaning'] == 'different' for i in key)}"
    )
    print(
        f"fluency 3: {sum(got[i]['fluency'] == 3 for i in key)}, 2: {sum(got[i]['fluency'] == 2 for i in key)}, "
        f"1: {sum(got[i]['fluency'] == 1 for i in key)}"
    )
    print(f"meaning-preserving and at least clear: {both}/{n} ({both / n:.0%}); and fluent: {both3}/{n}")
    print(f"fluency >= 2: {fluent}/{n}")
    by_op: Counter[str] = Counter()
    bad_op: Counter[str] = Counter()
    for i, k in key.items():
        ops = sorted({o.split(":")[0] for o in k["operations"]}) or ["(none)"]
        tag = "+".join(ops)
        by_op[tag] += 1
        if not (got[i]["meaning"] == "same" and got[i]["fluency"] >= 2):
            bad_op[tag] += 1
    for tag, c in by_op.most_common():
        print(f"  {tag:30s} {c - bad_op[tag]}/{c} good")
    for i, k in key.items():
        if not (got[i]["meaning"] == "same" and got[i]["fluency"] >= 2):
            print(f"  #{i} [{k['build']}] {got[i]['meaning']}/{got[i]['fluency']}: {got[i].get('note', '')}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("builds", nargs="*", type=Path)
    ap.add_argument("--table", action="store_true")
    ap.add_argument("--sheet", action="store_true")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--score", type=Path)
    ap.add_argument("--key", type=Path)
    args = ap.parse_args()
    if args.table:
        table(args.builds)
    elif args.sheet:
        make_sheet(args.builds, args.n, args.seed, args.out)
    else:
        score(args.score, args.key)


if __name__ == "__main__":
    main()
