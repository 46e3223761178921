"""Convert every SciQ train question (or, with ``--dataset medmcqa``, every MedMCQA validation question) with its
keyed answer and its first distractor by the rule QA2D converter and write one JSON line per conversion (question,
answer, claim), so two versions of the rules or of the parser can be compared line by line (docs/qa2d_quality.md,
"Rules v5"; docs/models/parser.md).

    python bench/qa2d_sciq_conversions.py --data ../shared/data --out build/qa2d_after.jsonl
    python bench/qa2d_sciq_conversions.py --out build/qa2d_parser.jsonl --pipeline build/parser_s34/model
    python bench/qa2d_sciq_conversions.py --dataset medmcqa --out build/qa2d_medmcqa.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from claimforge.registry import registry
from claimforge.types import QA2DRequest


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--pipeline", default=None, help="a spaCy pipeline (name or folder) instead of the shipped one")
    ap.add_argument("--dataset", choices=("sciq", "medmcqa"), default="sciq")
    args = ap.parse_args()
    requests = []
    if args.dataset == "sciq":  # the raw file's "distractor1", as every earlier dump
        for d in json.loads((args.data / "sciq" / "train.json").read_text(encoding="utf-8")):
            requests.append(QA2DRequest(question=d["question"], answer=d["correct_answer"]))
            requests.append(QA2DRequest(question=d["question"], answer=d["distractor1"]))
    else:
        path = str(args.data / "medmcqa" / "validation.jsonl")
        for item in registry.build("reader", {"name": "medmcqa", "path": path}).read():
            if item.answer:
                requests.append(QA2DRequest(question=item.question, answer=item.answer))
                requests.extend(QA2DRequest(question=item.question, answer=d) for d in item.distractors[:1])
    spec: dict[str, object] = {"name": "rules"}
    if args.pipeline:
        spec["nlp"] = {"name": "spacy", "pipeline": args.pipeline}
    converter = registry.build("qa2d", spec)
    t0 = time.time()
    results = converter.convert(requests)
    print(f"{len(requests)} conversions in {time.time() - t0:.1f} s ({converter.model_id})", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for r, q in zip(results, requests, strict=True):
            f.write(json.dumps({"q": q.question, "a": q.answer, "text": r.text}, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
