"""The label check's share of a build's time (issue 11: ≤ 25%), and the build's wall time.

Each run is a fresh ``claimforge build`` process with a new cache folder that holds only the exported ONNX graphs
(parses, embeddings and judge scores are all computed; the graphs are exported once by an untimed build per
variant, as a user's first build does once). Per variant: the medians over ``--runs`` of the process's wall
time, the label check stage's seconds (from the manifest) and the examples written.

    python bench/bench_label_check.py --input sciq:../shared/data/sciq/valid.json --runs 3 \\
        --variant off:label_check=off --variant check: --variant onnx:judge.runtime=onnx --out build/bench_lc.json

A variant is ``NAME:`` followed by comma-separated ``--set`` overrides (none: the recipe's defaults).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = [sys.executable, "-m", "claimforge.cli"]  # the claimforge of this interpreter


def _build(recipe: str, source: str, sets: list[str], out: Path, cache: Path) -> dict:
    cmd = [*CLI, "build", recipe, "--input", source, "--out", str(out), "--cache-dir", str(cache)]
    for s in sets:
        cmd += ["--set", s]
    env = {**os.environ, "CLAIMFORGE_CACHE": str(cache)}
    start = time.perf_counter()
    subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wall = time.perf_counter() - start
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    stages = manifest.get("stage_seconds", {})
    examples = sum(1 for _ in (out / "examples.jsonl").open(encoding="utf-8"))
    return {"wall": round(wall, 2), "label_check": stages.get("label check", 0.0), "examples": examples}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--recipe", default="multi2claim")
    ap.add_argument("--input", required=True, help="NAME:PATH, as claimforge build takes it")
    ap.add_argument("--variant", action="append", required=True, metavar="NAME:SET,SET")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", type=Path, required=True)
    args = ap.parse_args()
    variants = {}
    for v in args.variant:
        name, sep, sets = v.partition(":")
        if not sep or not name:
            ap.error(f"--variant wants NAME:SETS, got {v!r}")
        variants[name] = [s for s in sets.split(",") if s]
    work = Path(tempfile.mkdtemp(prefix="bench_lc_"))
    warm = work / "warm_cache"
    try:
        for sets in variants.values():  # exports the graphs the variants need (untimed)
            _build(args.recipe, args.input, sets, work / "warm", warm)
            shutil.rmtree(work / "warm")
        results: dict[str, dict] = {}
        for name, sets in variants.items():
            runs = []
            for i in range(args.runs):
                out, cache = work / f"{name}_{i}", work / f"cache_{name}_{i}"
                if (warm / "onnx").is_dir():
                    shutil.copytree(warm / "onnx", cache / "onnx")
                runs.append(_build(args.recipe, args.input, sets, out, cache))
                shutil.rmtree(out)
                shutil.rmtree(cache)
                print(name, i, runs[-1], flush=True)
            wall = statistics.median(r["wall"] for r in runs)
            check = statistics.median(r["label_check"] for r in runs)
            results[name] = {
                "sets": sets,
                "runs": runs,
                "wall_median": wall,
                "label_check_median": check,
                "share": round(check / wall, 3),
                "examples": runs[0]["examples"],
            }
            print(name, {k: v for k, v in results[name].items() if k != "runs"}, flush=True)
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
