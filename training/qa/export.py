"""Ship a checkpoint of ``training/qa/train.py`` (e.g. a run stopped before its last step) as a reader folder.

    python training/qa/export.py build/qa/run1 --out src/claimforge/models/qa-minilm

Writes the reader folder the package loads (weights as safetensors, and its config) to ``--out``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from claimforge.backends import qa  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("work", type=Path, help="the run's --work folder (checkpoint.safetensors + checkpoint.json)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    step = json.loads((args.work / "checkpoint.json").read_text())["step"]
    model, _ = qa.base_qa()
    named = dict(model.named_parameters())
    with torch.no_grad():
        for name, t in load_file(str(args.work / "checkpoint.safetensors")).items():
            named[name].copy_(t)
    qa.save_shipped(model, args.out, {"steps": step, "note": f"exported from the checkpoint at step {step}"})
    print(f"wrote {args.out} (step {step})")


if __name__ == "__main__":
    main()
