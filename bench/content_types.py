"""How well :func:`claimforge.io.papers.content_types.content_types` types paragraphs without their headings
(docs/papers.md, "Bodies without headings"): research papers whose headings are known (``claimforge papers
convert`` output), headings hidden, every paragraph of a main-part section typed from its text alone and
compared with the type its heading gave.

    S=../shared/data/papers
    claimforge papers convert $S/plos_jats $S/evidence_inference/xml_sample_ev2_val_test -f jats -o /tmp/ct/jats.jsonl
    python bench/content_types.py /tmp/ct/jats.jsonl --half test

Papers are split into two halves by a hash of their id: ``tune`` (the half the cue lists were adjusted on) and
``test`` (read only to report). A paper counts when its headings give at least three of the five main types.
"""

from __future__ import annotations

import argparse
import hashlib
import json
from collections import Counter
from pathlib import Path

from claimforge.io.papers.content_types import ORDER, content_types


def _half(paper_id: str) -> str:
    return "tune" if int(hashlib.sha256(paper_id.encode()).hexdigest(), 16) % 2 == 0 else "test"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("papers", nargs="+", type=Path, help="claimforge papers convert outputs (JSON Lines)")
    ap.add_argument("--half", choices=["tune", "test", "all"], default="test")
    ap.add_argument("--errors", type=int, default=0, help="print this many wrong paragraphs")
    args = ap.parse_args()

    confusion: Counter[tuple[str, str]] = Counter()
    papers = typed_ok = claimable = 0
    errors = []
    for path in args.papers:
        for line in path.read_text(encoding="utf-8").splitlines():
            p = json.loads(line)
            if args.half != "all" and _half(p["id"]) != args.half:
                continue
            main = [s for s in p["sections"] if s["type"] in ORDER]
            if len({s["type"] for s in main}) < 3:
                continue
            paragraphs = [(s["type"], para) for s in main for para in s["paragraphs"] if para]
            got = content_types([para for _, para in paragraphs])
            papers += 1
            kinds = set(got)
            typed_ok += len(kinds) >= 3
            claimable += bool(kinds & {"results", "discussion", "conclusion"})
            for (gold, para), g in zip(paragraphs, got, strict=True):
                confusion[(gold, g)] += 1
                if gold != g and len(errors) < args.errors:
                    errors.append(f"{p['id']}: {gold} -> {g}: {' '.join(para)[:160]}")
    total = sum(confusion.values())
    right = sum(n for (g, o), n in confusion.items() if g == o)
    print(f"{papers} papers ({args.half} half), {total} paragraphs: accuracy {right / max(1, total):.3f}")
    print(
        f"papers given >= 3 types: {typed_ok} ({typed_ok / max(1, papers):.1%}); "
        f"with results, discussion or conclusion: {claimable} ({claimable / max(1, papers):.1%})"
    )
    print("| type | paragraphs | precision | recall |")
    print("|---|---:|---:|---:|")
    for t in ORDER:
        gold = sum(n for (g, _), n in confusion.items() if g == t)
        said = sum(n for (_, o), n in confusion.items() if o == t)
        hit = confusion[(t, t)]
        print(f"| {t} | {gold} | {hit / max(1, said):.3f} | {hit / max(1, gold):.3f} |")
    # claims come from results, discussion and conclusion: how often a paragraph put there is really one of them
    claim_types = {"results", "discussion", "conclusion"}
    said = sum(n for (_, o), n in confusion.items() if o in claim_types)
    hit = sum(n for (g, o), n in confusion.items() if o in claim_types and g in claim_types)
    gold = sum(n for (g, _), n in confusion.items() if g in claim_types)
    print(
        f"results/discussion/conclusion together: precision {hit / max(1, said):.3f}, recall {hit / max(1, gold):.3f}"
    )
    for e in errors:
        print(e)


if __name__ == "__main__":
    main()
