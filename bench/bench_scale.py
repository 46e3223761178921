"""Time and peak memory of `claimforge build` runs (each a fresh process with --no-cache, a new output folder).

    python bench/bench_scale.py --data ../shared/data --runs 3 --out build/bench_build.json \
        --variant full:workers=1 --variant full:workers=2 --variant 3000:workers=1 --variant 3000:workers=2

A variant is LIMIT:OPTIONS, LIMIT a number of SciQ train questions or "full", OPTIONS comma-separated
claimforge build options without dashes (workers=2, engine=ray, chunk-size=500) or set.KEY=VALUE recipe
overrides. Reports each variant's median wall time and peak resident memory (GNU time's %M: the largest
resident set of the build process or any worker process it waited for).
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_once(data: Path, limit: str, options: list[str], python: str) -> dict[str, float]:
    out = Path(tempfile.mkdtemp(prefix="cf-bench-")) / "o"
    cmd = [python, "-m", "claimforge.cli", "build", "multi2claim", "--input", f"sciq:{data / 'sciq' / 'train.json'}"]
    cmd += ["--out", str(out), "--no-cache"]
    if limit != "full":
        cmd += ["--limit", limit]
    for opt in options:
        key, _, value = opt.partition("=")
        cmd += ["--set", f"{key[4:]}={value}"] if key.startswith("set.") else [f"--{key}", value]
    rss = out.parent / "maxrss"
    t0 = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-f", "%M", "-o", str(rss), *cmd], capture_output=True, text=True)
    seconds = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"failed: {' '.join(cmd)}\n{proc.stdout[-2000:]}\n{proc.stderr[-2000:]}")
    manifest = json.loads((out / "manifest.json").read_text())
    peak_kib = int(rss.read_text().split()[-1])
    shutil.rmtree(out.parent, ignore_errors=True)
    return {
        "seconds": seconds,
        "peak_rss_mib": peak_kib / 1024,
        "examples": manifest["counts"]["examples"],
        "labels": manifest["counts"]["labels"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--variant", action="append", required=True)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()
    report = {}
    for variant in args.variant:
        limit, _, opts = variant.partition(":")
        options = [o for o in opts.split(",") if o]
        runs = [run_once(args.data, limit, options, args.python) for _ in range(args.runs)]
        report[variant] = {
            "median_seconds": round(statistics.median(r["seconds"] for r in runs), 1),
            "seconds": [round(r["seconds"], 1) for r in runs],
            "median_peak_rss_mib": round(statistics.median(r["peak_rss_mib"] for r in runs)),
            "examples": runs[0]["examples"],
            "labels": runs[0]["labels"],
        }
        print(variant, json.dumps(report[variant]), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
