"""Numeric counter-claims (``claimforge.generate.numeric``) on real result sentences: the ``<p>`` text of every
``<sec>`` whose title contains "Results" in the shared PLOS JATS starter corpus, split with
``claimforge.nlp.sentences.split_sentences``, kept if it has a digit; ``--n`` of them drawn with ``--seed``. Prints the
share of sentences with at least one edit, the kind counts, what was protected, and ``--show`` random
original → edited pairs (one edit per sentence: the first, most checkable one) for reading. Offline, seconds.

    .venv/bin/python bench/numeric_negation_sample.py --corpus ../shared/data/papers/plos_jats/starter_corpus \
        [--n 300] [--seed 0] [--show 40] [--jsonl build/numeric_negation/pairs.jsonl]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from dataclasses import asdict
from pathlib import Path
from typing import Any

from claimforge.generate.numeric import numeric_edits, numeric_mentions, protected_spans
from claimforge.nlp.sentences import split_sentences


def _text(el: ET.Element) -> str:
    return " ".join("".join(el.itertext()).split())


def result_sentences(corpus: Path) -> list[tuple[str, str]]:
    """(file stem, sentence) for every sentence with a digit in the paragraphs of a section titled "...Results..."."""
    out: list[tuple[str, str]] = []
    for path in sorted(corpus.glob("*.xml")):
        root = ET.parse(path).getroot()
        for sec in root.iter("sec"):
            title = sec.find("title")
            if title is None or "results" not in _text(title).lower():
                continue
            # the section's own paragraphs: not its subsections' (their titles name the finding, not
            # "Results"), nor figure captions or table cells
            for p in sec.findall("p"):
                out.extend((path.stem, s) for s in split_sentences(_text(p)) if re.search(r"[0-9]", s))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--corpus", type=Path, default=Path("../shared/data/papers/plos_jats/starter_corpus"))
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--show", type=int, default=40)
    ap.add_argument("--max-edits", type=int, default=3)
    ap.add_argument("--magnitude", choices=("same", "any"), default="same")
    ap.add_argument("--jsonl", type=Path, default=None, help="write every sentence and its edits here")
    args = ap.parse_args()

    pool = result_sentences(args.corpus)
    rnd = random.Random(args.seed)
    sample = rnd.sample(pool, min(args.n, len(pool)))
    rng = random.Random(args.seed)
    kinds: Counter[str] = Counter()
    first_kinds: Counter[str] = Counter()
    mention_kinds: Counter[str] = Counter()
    protected: Counter[str] = Counter()
    rows: list[dict[str, Any]] = []
    for stem, sentence in sample:
        edits = numeric_edits(sentence, rng, max_edits=args.max_edits, magnitude=args.magnitude)
        mention_kinds.update(m.kind for m in numeric_mentions(sentence))
        protected.update(r for _, _, r in protected_spans(sentence))
        kinds.update(e.kind for e in edits)
        if edits:
            first_kinds[edits[0].kind] += 1
        rows.append({"paper": stem, "sentence": sentence, "edits": [asdict(e) for e in edits]})
    with_edit = [r for r in rows if r["edits"]]
    summary = {
        "corpus_sentences_with_digit": len(pool),
        "sampled": len(rows),
        "with_at_least_one_edit": len(with_edit),
        "share_with_edit": round(len(with_edit) / max(1, len(rows)), 3),
        "edits": sum(kinds.values()),
        "edits_per_sentence_with_edit": round(sum(kinds.values()) / max(1, len(with_edit)), 2),
        "edit_kinds": dict(kinds.most_common()),
        "first_edit_kinds": dict(first_kinds.most_common()),
        "mention_kinds": dict(mention_kinds.most_common()),
        "protected_reasons": dict(protected.most_common()),
        "max_edits": args.max_edits,
        "magnitude": args.magnitude,
        "seed": args.seed,
    }
    print(json.dumps(summary, indent=2, ensure_ascii=False))
    if args.jsonl:
        args.jsonl.parent.mkdir(parents=True, exist_ok=True)
        args.jsonl.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows))
    shown = random.Random(args.seed).sample(with_edit, min(args.show, len(with_edit)))
    for k, r in enumerate(shown, 1):
        e = r["edits"][0]
        print(f"\n[{k}] {r['paper']}  {e['kind']}: {e['original']!r} -> {e['replacement']!r}")
        print(f"  O: {r['sentence']}")
        print(f"  E: {e['text']}")


if __name__ == "__main__":
    main()
