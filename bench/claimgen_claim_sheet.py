"""A triage sheet of ClaimGen's claims without the judge: the recipe's generator and emit-time claim check over a
Citation-Integrity split, one passing claim per citance, ``--n`` drawn with ``--seed``; the sheet asks a reader for
fluency and the fault (docs/claimgen.md, "A triage of ClaimGen's claims").

    python bench/claimgen_claim_sheet.py --input ../shared/data/citation_integrity/claims_train.jsonl \\
        --n 120 --seed 20261239 --out build/reading/claimgen_triage36
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

from claimforge.config import load_recipe
from claimforge.records import SentenceItem
from claimforge.registry import registry


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", type=Path, required=True, help="a Citation-Integrity claims_*.jsonl file")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--n", type=int, default=120)
    ap.add_argument("--seed", type=int, default=20261239)
    args = ap.parse_args()
    recipe = load_recipe("claimgen")
    reader = registry.build("reader", {"name": "citation-integrity", "path": str(args.input)})
    items = [x for x in reader.read(skip_bad=True) if isinstance(x, SentenceItem)]
    claims = registry.build("generator", recipe["generator"]).generate(items).claims
    why = registry.build("claim_check", recipe["claim_check"]).check([c.text for c in claims])
    first: dict[str, str] = {}
    for c, w in zip(claims, why, strict=True):
        if not w:
            first.setdefault(c.item_id, c.text)
    rows = list(first.items())  # in claim order
    pick = random.Random(args.seed).sample(rows, min(args.n, len(rows)))
    lines = [
        "# Triage: rate each sentence",
        "",
        "Each line is one claim sentence made automatically from a sentence of a scientific paper. Do not judge "
        "truth. For each, give fluency (3 = fluent, 2 = awkward but clear, 1 = broken) and, when below 3, a few words "
        'naming what is wrong (e.g. "fragment", "missing article", "agreement", "dangling reference", "garbled", '
        '"cut off").',
        "",
        'Answer as JSON lines: {"n": 1, "fluency": 3, "fault": ""}',
        "",
        *(f"{n}. {text}" for n, (_, text) in enumerate(pick, 1)),
    ]
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "sheet.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (args.out / "key.jsonl").write_text(
        "".join(json.dumps({"n": n, "item": i, "claim": t}) + "\n" for n, (i, t) in enumerate(pick, 1)), "utf-8"
    )
    print(
        f"{len(items)} citances, {len(claims)} claims, {sum(1 for w in why if not w)} pass the check; wrote {args.out}"
    )


if __name__ == "__main__":
    main()
