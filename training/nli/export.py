"""Evaluate a judge on its held-out slices, and ship a model (a run's best, or any saved one; fp16 safetensors) as the
embedded one.

    python training/nli/export.py --model src/claimforge/models/nli-minilm --sci build/sci_pairs/pairs.jsonl \
        --out build/heldout_old.json                                    # any saved model, nothing shipped
    python training/nli/export.py --run build/judge_run --sci build/sci_pairs/pairs.jsonl \
        --ship src/claimforge/models/nli-minilm --out build/heldout_new.json   # ship, then score what users get
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from nli_data import add_data_arguments, data_splits  # noqa: E402

from claimforge.evaluate.experiments import score  # noqa: E402
from claimforge.generate.minimal_pairs import edit_kind  # noqa: E402
from claimforge.verify.base import TwoWay, load_verifier  # noqa: E402
from claimforge.verify.metrics import classification_metrics  # noqa: E402

BINARY = {"fever_nli", "nli4ct", "vitaminc_synthetic", "citation_integrity"}  # sources with two gold labels


def heldout_scores(verifier, held) -> dict:  # type: ignore[no-untyped-def]
    out = {}
    for name, pairs in held.items():
        v = TwoWay(verifier) if name in BINARY else verifier
        t = time.perf_counter()
        gold, pred, _ = score(v, pairs)
        m = classification_metrics(gold, pred, v.labels)
        out[name] = {
            "n": m["n"],
            "ways": len(v.labels),
            "accuracy": round(m["accuracy"], 4),
            "macro_f1": round(m["macro_f1"], 4),
            "seconds": round(time.perf_counter() - t, 1),
        }
        if name == "sci":  # the minimal pairs: how often each kind of edit is judged right
            right: dict[str, list[int]] = {}
            for p, g, y in zip(pairs, gold, pred, strict=True):
                right.setdefault(f"{p.labels[0].value}:{edit_kind(p)}", []).append(int(g == y))
            out[name]["accuracy_by_kind"] = {k: [round(sum(h) / len(h), 4), len(h)] for k, h in sorted(right.items())}
        print(name, out[name], flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--run", type=Path, default=None, help="a training run (its best/ is used)")
    ap.add_argument("--model", type=Path, default=None, help="a saved model to score instead of a run")
    add_data_arguments(ap)
    ap.add_argument("--ship", type=Path, default=None, help="write the model (a run's best) here, fp16")
    ap.add_argument("--out", type=Path, default=Path("build/nli_heldout.json"))
    args = ap.parse_args()
    if (args.run is None) == (args.model is None):
        ap.error("give exactly one of --run and --model")
    _, _, held, _ = data_splits(ap, args)
    report: dict = {"run": str(args.run or args.model)}
    if args.run is not None and (args.run / "run.json").is_file():
        report["step"] = json.loads((args.run / "run.json").read_text())["best"]["step"]
    source = args.model if args.model is not None else args.run / "best"
    if not args.ship:
        report["scores"] = heldout_scores(load_verifier(source), held)
    else:
        tmp = args.ship.with_name(args.ship.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        load_verifier(source).save(tmp, half=True)
        shutil.rmtree(args.ship, ignore_errors=True)
        tmp.rename(args.ship)
        report["scores"] = heldout_scores(load_verifier(args.ship), held)  # what users get (fp16)
        report["size_bytes"] = sum(p.stat().st_size for p in args.ship.rglob("*") if p.is_file())
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
