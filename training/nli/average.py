"""Average the weights of two saved judges (WiSE-FT, Wortsman et al. 2022: interpolating a model and its
fine-tuned continuation often keeps what the first did well and gains what the second learnt).

    python training/nli/average.py src/claimforge/models/nli-minilm build/judge_run6/best --alpha 0.5 \
        --out build/judge_avg6
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

WEIGHTS = Path("model") / "model.safetensors"


def main() -> None:
    import torch
    from safetensors.torch import load_file, save_file

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("first", type=Path, help="a saved judge (verifier.json, model/)")
    ap.add_argument("second", type=Path, help="another saved judge with the same architecture")
    ap.add_argument("--alpha", type=float, default=0.5, help="the second model's weight (0: the first, 1: the second)")
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    if not 0.0 <= args.alpha <= 1.0:
        ap.error("--alpha must be in [0, 1]")
    if args.out.resolve() in (args.first.resolve(), args.second.resolve()):
        ap.error("--out must be a new folder, not one of the judges averaged")
    a, b = load_file(args.first / WEIGHTS), load_file(args.second / WEIGHTS)
    if a.keys() != b.keys() or any(a[k].shape != b[k].shape for k in a):
        raise SystemExit(f"{args.first} and {args.second} do not have the same weights (names or shapes differ)")
    mixed = {
        k: ((1 - args.alpha) * a[k].float() + args.alpha * b[k].float()) if a[k].is_floating_point() else b[k]
        for k in a
    }
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(args.second, args.out)  # configuration and tokenizer of the second (the same architecture)
    save_file(
        {k: (v.to(torch.float32) if v.is_floating_point() else v).contiguous() for k, v in mixed.items()},
        str(args.out / WEIGHTS),
    )
    print(f"wrote {args.out}: {len(mixed)} tensors, alpha {args.alpha}")


if __name__ == "__main__":
    main()
