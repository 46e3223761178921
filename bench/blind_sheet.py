"""A blind reading sheet of a build (DEVELOPERS.md, "Read the data blind"): ``--n`` examples drawn with a fixed
seed, shown as claim + evidence only (no label, method or provenance), and the key kept apart.

    python bench/blind_sheet.py build/claimgen/ci_train --n 60 --seed 20261125 --out build/reading/claimgen
    # give sheet.md to a reader; then compare their answers with key.jsonl:
    python bench/blind_sheet.py --score build/reading/claimgen/answers.jsonl --key build/reading/claimgen/key.jsonl

The reader answers one JSON line per item: {"n": 1, "label": "SUPPORTED|REFUTED|NOT_ENOUGH_INFO",
"fluency": 1-3, "atomic": true|false, "self_contained": true|false, "note": "..."}.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path

INSTRUCTIONS = """For each item, read the claim and the evidence only, and answer:

- label: SUPPORTED (the evidence states or clearly implies the claim), REFUTED (the evidence shows the claim is
  false), NOT_ENOUGH_INFO (the evidence neither supports nor refutes it);
- fluency: 3 fluent, 2 awkward but clear, 1 broken;
- atomic: true if the claim states one fact;
- self_contained: true if the claim can be understood without its source (no "this study", undefined
  abbreviations or pronouns without antecedents).

Answer as JSON lines: {"n": 1, "label": "...", "fluency": 3, "atomic": true, "self_contained": true, "note": "..."}
"""


def evidence_shown(row: dict, which: str) -> str:
    """The evidence a reader sees: the example's evidence text, or (``judge``) the passages the label check read,
    for builds whose evidence is a whole paper (SciClaimHunt: ``provenance.details.judge_evidence``)."""
    if which == "judge":
        passages = row["provenance"]["details"].get("judge_evidence")
        if passages:
            return " … ".join(passages)
    return str(row["evidence"])


def make_sheet(build: Path, n: int, seed: int, out: Path, evidence: str = "text") -> None:
    rows = [json.loads(x) for x in (build / "examples.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    picked = random.Random(seed).sample(rows, min(n, len(rows)))
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# Blind reading sheet ({len(picked)} items)", "", INSTRUCTIONS]
    key = []
    for i, r in enumerate(picked, 1):
        lines += [f"## {i}", "", f"**Claim:** {r['claim']}", "", f"**Evidence:** {evidence_shown(r, evidence)}", ""]
        key.append({"n": i, "id": r["id"], "label": r["label"], "method": r["method"]})
    (out / "sheet.md").write_text("\n".join(lines), encoding="utf-8")
    (out / "key.jsonl").write_text("".join(json.dumps(k) + "\n" for k in key), encoding="utf-8")
    print(f"wrote {out}/sheet.md and {out}/key.jsonl ({len(picked)} of {len(rows)} examples, seed {seed})")


def score(answers: Path, key_path: Path) -> None:
    key = {k["n"]: k for k in map(json.loads, filter(str.strip, key_path.read_text(encoding="utf-8").splitlines()))}
    got = {a["n"]: a for a in map(json.loads, filter(str.strip, answers.read_text(encoding="utf-8").splitlines()))}
    agree: Counter[str] = Counter()
    total: Counter[str] = Counter()
    confusion: Counter[tuple[str, str]] = Counter()
    for n, k in key.items():
        a = got.get(n)
        if a is None:
            continue
        total[k["label"]] += 1
        agree[k["label"]] += a["label"] == k["label"]
        confusion[(k["label"], a["label"])] += 1
    answered = [got[n] for n in key if n in got]
    print(f"labels agree: {sum(agree.values())}/{sum(total.values())}")
    for lab in sorted(total):
        print(f"  {lab}: {agree[lab]}/{total[lab]}")
    print("confusion (built -> read):", dict(confusion))
    print("fluency:", dict(Counter(a.get("fluency") for a in answered)))
    print(
        "atomic:",
        sum(bool(a.get("atomic")) for a in answered),
        "self-contained:",
        sum(bool(a.get("self_contained")) for a in answered),
        "of",
        len(answered),
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("build", type=Path, nargs="?")
    ap.add_argument("--n", type=int, default=60)
    ap.add_argument("--seed", type=int, default=20261125)
    ap.add_argument("--out", type=Path)
    ap.add_argument(
        "--evidence",
        choices=["text", "judge"],
        default="text",
        help="show the evidence text (default) or the passages the judge read (whole-paper evidence)",
    )
    ap.add_argument("--score", type=Path, help="a reader's answers (JSON lines)")
    ap.add_argument("--key", type=Path)
    args = ap.parse_args()
    if args.score:
        if not args.key:
            ap.error("--score needs --key")
        score(args.score, args.key)
    elif args.build and args.out:
        make_sheet(args.build, args.n, args.seed, args.out, args.evidence)
    else:
        ap.error("give BUILD --out DIR, or --score ANSWERS --key KEY")


if __name__ == "__main__":
    main()
