"""How often the one sentence splitter (``claimforge.nlp.sentences.split_sentences``) cuts a real text differently
from the four splitters it replaced (2026-11-26, issue 10), on the texts each of them used to split:

    python bench/sentence_splitter.py --data ../shared/data [--show 3]

The retired splitters are kept below only for this comparison, with their sentences' whitespace collapsed as the
new splitter does (the label check and the LLM judge used to get uncollapsed inner whitespace): ``io.dataset``
(exports, the label check's evidence sentences, benchmark evidence passages), ``io.sentences.split_text`` (readers, the
review page, retrieval corpora), ``backends.lm`` (the n-gram LM's scoring) and ``generate.qa2d`` (the asking
sentence and figure sentences of a question).
"""

from __future__ import annotations

import argparse
import csv
import json
import random
import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from claimforge.io.rows import normalize_text  # noqa: E402
from claimforge.nlp.sentences import split_sentences  # noqa: E402

# -- the retired splitters -------------------------------------------------------------------------------

_DATASET = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def old_dataset(text: str) -> list[str]:
    return [normalize_text(s) for p in text.split("\n") for s in _DATASET.split(p) if s.strip()]


_ABBREV_END = re.compile(
    r"(?:\b(?:[Ff]igs?|[Rr]efs?|[Ee]qs?|vs|cf|approx|ca|No|[Ss]uppl|[Vv]ol|pp|Dr|Prof|Rs)|(?<![\w.])(?:e\.g|i\.e))\.$"
)
_ET_AL_END = re.compile(r"\bet[\s\u00a0\u2009]*al\.$")


def old_split_text(text: str) -> list[str]:
    out: list[str] = []
    for piece in old_dataset(text):
        if out and (_ABBREV_END.search(out[-1]) or (_ET_AL_END.search(out[-1]) and not piece[0].isupper())):
            out[-1] = f"{out[-1]} {piece}"
        else:
            out.append(piece)
    return out


_LM_ABBREVIATIONS = frozenset(
    re.findall(
        r"\S+",
        "al e.g i.e fig figs eq eqs ref refs vs approx ca cf dr prof no nos vol pp st mr mrs ms jr sr inc ltd co etc "
        "resp sp spp var min max sec hr wk mo yr dept univ",
    )
)
_LM_BOUNDARY = re.compile(r"[.!?][\"')\]]*\s+(?=[\"'(\[]?[A-Z0-9])")


def old_lm(text: str) -> list[str]:
    out, start = [], 0
    for m in _LM_BOUNDARY.finditer(text):
        if text[m.start()] == ".":
            words = text[start : m.start()].split()
            last = words[-1].lower().lstrip("([\"'") if words else ""
            if last in _LM_ABBREVIATIONS or (len(last) == 1 and last.isalpha()):
                continue
        out.append(normalize_text(text[start : m.start() + 1]))
        start = m.end()
    return [p for p in (*out, normalize_text(text[start:])) if p]


_QA2D = re.compile(r"(?:(?<=[a-z0-9)%][.!?])|(?<=\s[A-Z]\.))\s+(?=[A-Z])")


def old_qa2d(question: str) -> list[str]:
    return _QA2D.split(" ".join(question.split()))


def one_line(text: str) -> list[str]:
    """How QA2D calls the new splitter: a question's line breaks are not sentence ends."""
    return split_sentences(" ".join(text.split()))


# ---------------------------------------------------------------------------------------------------------


def _texts(data: Path) -> dict[str, list[str]]:
    sciq = [r for f in ("train", "valid", "test") for r in json.loads((data / "sciq" / f"{f}.json").read_text())]
    corpus = (data / "citation_integrity" / "corpus.jsonl").read_text().splitlines()
    csv.field_size_limit(1 << 30)
    covid = [
        r["sentence1"]
        for f in ("rte_train.tsv", "rte_dev.tsv")
        for r in csv.DictReader((data / "covidfact" / f).open(newline=""), delimiter="\t")
    ]
    medmcqa = [json.loads(line)["question"] for f in sorted((data / "medmcqa").glob("*.jsonl")) for line in f.open()]
    return {
        "SciQ supports": [r["support"] for r in sciq if r.get("support")],
        "Citation-Integrity abstracts (joined)": [" ".join(json.loads(line)["abstract"]) for line in corpus],
        "COVID-Fact evidence passages": covid,
        "SciQ questions": [r["question"] for r in sciq],
        "MedMCQA questions": medmcqa,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--show", type=int, default=0, help="print this many differing texts per cell")
    args = ap.parse_args()
    retired: dict[str, tuple[Callable[[str], list[str]], Callable[[str], list[str]]]] = {
        "io.dataset": (old_dataset, split_sentences),
        "split_text": (old_split_text, split_sentences),
        "backends.lm": (old_lm, split_sentences),
        "qa2d": (old_qa2d, one_line),
    }
    print("| texts | n | " + " | ".join(f"differ from {k}" for k in retired) + " |")
    print("|---|---:|" + "---:|" * len(retired))
    rng = random.Random(0)
    for name, texts in _texts(args.data).items():
        cells = []
        for old, splitter in retired.values():
            new = [splitter(t) for t in texts]
            diff = [(t, n) for t, n in zip(texts, new, strict=True) if old(t) != n]
            cells.append(f"{len(diff)} ({100 * len(diff) / len(texts):.1f}%)")
            for t, n in rng.sample(diff, min(args.show, len(diff))):
                print(f"  {old.__name__}: {old(t)}\n  new: {n}\n", file=sys.stderr)
        print(f"| {name} | {len(texts):,} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
