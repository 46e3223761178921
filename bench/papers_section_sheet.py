"""A hand-check sheet for section typing (docs/papers.md, "Section-type accuracy"): papers drawn with a fixed
seed from ``claimforge papers convert`` outputs, a fixed number per format, every section listed with the type
the parser gave and the start of its text; then the reader's corrections are scored.

    python bench/papers_section_sheet.py /tmp/m/jats.jsonl:8 /tmp/m/scirex.jsonl:7 /tmp/m/s2orc.jsonl:3 \
        /tmp/m/tei.jsonl:2 --seed 14 --out build/reading/sections
    # read sheet.md; write one JSON line per section whose type is wrong into corrections.jsonl:
    #   {"format": "jats", "paper": "PMC1065065", "n": 4, "type": "results", "note": "..."}
    python bench/papers_section_sheet.py --score build/reading/sections
    # a second sheet of other papers (after changing the rules): --seed 15 --exclude build/reading/sections

Only ``sheet.md``/``sections.jsonl`` (what was shown) and ``corrections.jsonl`` (the reader's verdicts) are kept;
``--score`` prints the accuracy overall and per format, and the errors.
"""

from __future__ import annotations

import argparse
import json
import random
from collections import Counter
from pathlib import Path


def make_sheet(inputs: list[str], seed: int, out: Path, exclude: Path | None = None) -> None:
    rng = random.Random(seed)
    seen: set[str] = set()  # papers of an earlier sheet (in any format): never drawn again
    if exclude is not None:
        rows_before = (exclude / "sections.jsonl").read_text(encoding="utf-8").splitlines()
        seen = {json.loads(r)["paper"] for r in rows_before if r.strip()}
    rows: list[dict] = []  # type: ignore[type-arg]
    lines = ["# Section typing: hand check", ""]
    for spec in inputs:
        path, _, n = spec.rpartition(":")
        papers = [json.loads(x) for x in Path(path).read_text(encoding="utf-8").splitlines() if x.strip()]
        papers = sorted((p for p in papers if p["id"] not in seen), key=lambda p: p["id"])
        for p in rng.sample(papers, min(int(n), len(papers))):
            lines += [
                f"## {p['id']} ({p['format']}): {p['title'][:100]}",
                "",
                "| n | type | heading | text |",
                "|---|---|---|---|",
            ]
            for i, s in enumerate(p["sections"], 1):
                first = " ".join(x for para in s["paragraphs"] for x in para)[:90].replace("|", "/")
                lines.append(f"| {i} | {s['type']} | {s['heading'].replace('|', '/')} | {first} |")
                rows.append(
                    {"paper": p["id"], "format": p["format"], "n": i, "heading": s["heading"], "type": s["type"]}
                )
            lines.append("")
    out.mkdir(parents=True, exist_ok=True)
    (out / "sheet.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / "sections.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    print(f"{out}/sheet.md: {len(rows)} sections of {len({(r['format'], r['paper']) for r in rows})} papers")


def score(folder: Path) -> None:
    rows = [json.loads(x) for x in (folder / "sections.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()]
    fixes = [
        json.loads(x) for x in (folder / "corrections.jsonl").read_text(encoding="utf-8").splitlines() if x.strip()
    ]
    wrong = {(f["format"], f["paper"], f["n"]): f for f in fixes}
    known = {(r["format"], r["paper"], r["n"]) for r in rows}
    assert set(wrong) <= known, f"corrections of sections not on the sheet: {set(wrong) - known}"
    total, errors = Counter(), Counter()
    for r in rows:
        total[r["format"]] += 1
        errors[r["format"]] += (r["format"], r["paper"], r["n"]) in wrong
    n, e = sum(total.values()), sum(errors.values())
    papers = len({(r["format"], r["paper"]) for r in rows})
    print(f"{n - e}/{n} sections typed right ({(n - e) / n:.1%}) in {papers} papers")
    for fmt in sorted(total):
        print(f"  {fmt:<7} {total[fmt] - errors[fmt]}/{total[fmt]} ({(total[fmt] - errors[fmt]) / total[fmt]:.1%})")
    by_row = {(r["format"], r["paper"], r["n"]): r for r in rows}
    for key, f in sorted(wrong.items()):
        r = by_row[key]
        print(f"  {r['paper']} #{r['n']} {r['heading']!r}: {r['type']} -> {f['type']} ({f.get('note', '')})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="*", help="FILE.jsonl:N (papers convert output, papers to draw)")
    ap.add_argument("--seed", type=int, default=14)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--score", type=Path, help="a sheet folder with corrections.jsonl")
    ap.add_argument("--exclude", type=Path, help="an earlier sheet folder: its papers are not drawn again")
    args = ap.parse_args()
    if args.score:
        score(args.score)
    else:
        if not args.inputs or args.out is None:
            ap.error("give FILE.jsonl:N inputs and --out (or --score FOLDER)")
        make_sheet(args.inputs, args.seed, args.out, args.exclude)


if __name__ == "__main__":
    main()
