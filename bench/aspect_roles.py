"""How well does ``nlp/aspects.py`` find a claim's 5W aspects? (issue 15: role accuracy on 100 claims annotated by
hand from the shared benchmarks' claims, with a written guideline; FACTIFY-5WQA reports 56-100% human agreement
per aspect.)

1. ``--sheet``: ``--n`` claims drawn with a fixed seed from the dev claims of SciFact, HealthVer and COVID-Fact
   (only the claim texts; nothing here trains or tunes on them), written as a sheet with the guideline below; the
   annotator never sees the parser's aspects.
2. ``--score``: the annotator's spans against the parser's, per aspect kind. A predicted span matches a gold span
   of the same kind when their word overlap (token F1) is at least 0.5; precision, recall and F1 per kind, and
   the share of claims where the parser's and the annotator's sets of kinds agree.

    python bench/aspect_roles.py --sheet --n 100 --seed 20261126 --out build/aspect_roles
    python bench/aspect_roles.py --score build/aspect_roles/answers.jsonl --key build/aspect_roles/key.jsonl
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
from collections import Counter
from pathlib import Path

KINDS = ("who", "what", "when", "where", "why")

GUIDELINE = """Annotate each claim's 5W aspects, as FACTIFY-5WQA defines them (PropBank roles → 5W), for each main
predicate: the main verb or copular predicate of the claim, verbs conjoined with it ("X rose and then fell"), and
the content clause of a reporting verb ("Studies show that X reduces Y": annotate "X reduces Y"; the reporting
verb itself is not an aspect).

- **who**: the doer of an action: the active subject of an action verb ("Aspirin" in "Aspirin reduces fever"),
  the "by" agent of a passive ("the FDA" in "approved by the FDA"; write it with "by").
- **what**: (a) the predicate itself with its auxiliaries and negation ("reduces", "was approved", "does not
  cause", "is effective"); (b) the thing acted on or described: the object ("fever"), the passive subject, the
  subject of a copular or state predicate ("Vitamin D" in "Vitamin D is effective"), and arguments introduced by
  a verb's own preposition ("to cancer" in "leads to cancer": write "cancer").
- **when**: time: dates, years, periods, "after 12 weeks", "during pregnancy", "recently" (without the preposition).
- **where**: place or setting, including populations: "in mice", "in older adults", "in the UK" (without the
  preposition).
- **why**: cause or purpose: "because of X", "due to X", "to prevent Y" (without "because"/"due to"/"to").

Copy each span exactly from the claim (including determiners: "the risk of stroke"). Modifiers inside a noun
phrase stay inside it ("the risk of stroke in adults" is one what-span) unless they are time or place of the
whole claim. A claim with no verb (a title) may have no aspects: answer an empty list.

Answer one JSON line per claim: {"n": 1, "aspects": [{"kind": "who", "span": "Aspirin"}, ...], "note": ""}
"""


def claims(data: Path) -> list[tuple[str, str]]:
    """(source, claim) of the dev claims of SciFact, HealthVer and COVID-Fact, deduplicated."""
    out: list[tuple[str, str]] = []
    for name in ("scifact", "healthver"):
        with open(data / name / "claims_dev.jsonl", encoding="utf-8") as f:
            out += [(name, json.loads(line)["claim"]) for line in f if line.strip()]
    with open(data / "covidfact" / "rte_dev.tsv", encoding="utf-8") as f:
        for row in csv.reader(f, delimiter="\t"):
            if len(row) >= 3 and row[0] != "index":  # index, sentence1 (evidence), Sentence2 (claim), label
                out.append(("covidfact", row[2]))
    seen: set[str] = set()
    return [(s, c) for s, c in out if not (c in seen or seen.add(c))]  # type: ignore[func-returns-value]


def make_sheet(data: Path, n: int, seed: int, out: Path) -> None:
    pool = claims(data)
    picked = random.Random(seed).sample(pool, n)
    out.mkdir(parents=True, exist_ok=True)
    lines = [f"# 5W aspect annotation ({len(picked)} claims)", "", GUIDELINE]
    for i, (_, c) in enumerate(picked, 1):
        lines += [f"## {i}", "", c, ""]
    (out / "sheet.md").write_text("\n".join(lines), encoding="utf-8")
    key = [{"n": i, "source": s, "claim": c} for i, (s, c) in enumerate(picked, 1)]
    (out / "key.jsonl").write_text("".join(json.dumps(k) + "\n" for k in key), encoding="utf-8")
    print(f"wrote {out}/sheet.md and key.jsonl ({len(picked)} of {len(pool)} claims, seed {seed})")


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


_DROP = {"by", "because", "due", "to", "of", "in", "at", "on", "during", "after", "before", "the", "a", "an"}


def overlap(a: str, b: str) -> float:
    """Token F1 of two spans, ignoring prepositions and articles at their edges' level (bag of words)."""
    x = [w for w in _words(a) if w not in _DROP] or _words(a)
    y = [w for w in _words(b) if w not in _DROP] or _words(b)
    common = sum((Counter(x) & Counter(y)).values())
    if not common:
        return 0.0
    p, r = common / len(x), common / len(y)
    return 2 * p * r / (p + r)


def score(answers: Path, key_path: Path, out: Path | None) -> None:
    from claimforge.nlp.aspects import aspects
    from claimforge.registry import registry

    key = [json.loads(x) for x in key_path.read_text(encoding="utf-8").splitlines() if x.strip()]
    gold = {a["n"]: a for a in map(json.loads, filter(str.strip, answers.read_text(encoding="utf-8").splitlines()))}
    nlp = registry.build("nlp", {"name": "spacy"})
    docs = nlp.parse([k["claim"] for k in key])
    tp: Counter[str] = Counter()
    n_pred: Counter[str] = Counter()
    n_gold: Counter[str] = Counter()
    same_kinds = 0
    rows = []
    for k, doc in zip(key, docs, strict=True):
        pred = [(a.kind, a.text) for a in aspects(doc)]
        g = [(a["kind"], a["span"]) for a in gold.get(k["n"], {}).get("aspects", [])]
        for kind in KINDS:
            ps = [s for kd, s in pred if kd == kind]
            gs = [s for kd, s in g if kd == kind]
            n_pred[kind] += len(ps)
            n_gold[kind] += len(gs)
            used: set[int] = set()
            for s in ps:  # greedy one-to-one matching
                best = max(((overlap(s, t), j) for j, t in enumerate(gs) if j not in used), default=(0.0, -1))
                if best[0] >= 0.5:
                    used.add(best[1])
                    tp[kind] += 1
        same_kinds += {kd for kd, _ in pred} == {kd for kd, _ in g}
        rows.append({"n": k["n"], "claim": k["claim"], "predicted": pred, "gold": g})
    table = {}
    print(f"{'kind':6} {'gold':>5} {'pred':>5} {'P':>6} {'R':>6} {'F1':>6}")
    for kind in (*KINDS, "all"):
        t = sum(tp.values()) if kind == "all" else tp[kind]
        ng = sum(n_gold.values()) if kind == "all" else n_gold[kind]
        npred = sum(n_pred.values()) if kind == "all" else n_pred[kind]
        p = t / npred if npred else 0.0
        r = t / ng if ng else 0.0
        f = 2 * p * r / (p + r) if p + r else 0.0
        table[kind] = {"gold": ng, "predicted": npred, "matched": t, "precision": p, "recall": r, "f1": f}
        print(f"{kind:6} {ng:5d} {npred:5d} {p:6.2f} {r:6.2f} {f:6.2f}")
    print(f"claims whose set of aspect kinds agrees: {same_kinds}/{len(key)}")
    if out:
        out.write_text(json.dumps({"per_kind": table, "same_kinds": same_kinds, "n": len(key), "rows": rows}, indent=1))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sheet", action="store_true")
    ap.add_argument("--data", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "data")
    ap.add_argument("--n", type=int, default=100)
    ap.add_argument("--seed", type=int, default=20261126)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--score", type=Path, help="the annotator's answers.jsonl")
    ap.add_argument("--key", type=Path)
    args = ap.parse_args()
    if args.sheet:
        make_sheet(args.data, args.n, args.seed, args.out)
    else:
        score(args.score, args.key, args.out)


if __name__ == "__main__":
    main()
