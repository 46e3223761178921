"""End-to-end speed of `claimforge build multi2claim` against its floor: embedding the pipeline's texts once.

Each run uses a fresh (cold) cache. For every run it measures, in separate processes:
  1. the full build (read, filter, embed, parse, QA2D, NEI, write), wall time and peak RSS;
  2. a warm rerun with the cache of (1) (what an interrupted/repeated run costs);
  3. the floor: a process that only loads the embedder and embeds exactly the texts (1) embedded.
Prints JSON with medians and the ratio build/floor.

    python bench/bench_multi2claim.py --input sciq:../shared/data/sciq/train.json --runs 3
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _child(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Run one of this script's modes in a child; return (wall seconds, that child's own peak RSS MiB)."""
    t = time.perf_counter()
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    wall = time.perf_counter() - t
    return wall, json.loads(out.stdout.strip().splitlines()[-1])["peak_rss_mb"]


def _report_peak() -> None:
    print(json.dumps({"peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}), flush=True)


def record_texts(input_spec: str, out: Path, texts_file: Path, sets: list[str]) -> None:
    """Build once while recording every text handed to the embedder (runs in a child process)."""
    from claimforge.backends import embeddings
    from claimforge.build import run_build
    from claimforge.config import apply_overrides, load_recipe

    seen: dict[str, None] = {}
    original = embeddings.SentenceTransformerEmbedder.embed

    def recording(self, texts, progress=None):  # type: ignore[no-untyped-def]
        seen.update(dict.fromkeys(texts))
        return original(self, texts, progress)

    embeddings.SentenceTransformerEmbedder.embed = recording  # type: ignore[method-assign]
    name, _, path = input_spec.partition(":")
    recipe = apply_overrides(load_recipe("multi2claim"), [f"reader.name={name}", f"reader.path={path}", *sets])
    run_build(recipe, out)
    texts_file.write_text(json.dumps(list(seen)))


def embed_only(texts_file: Path, sets: list[str]) -> None:
    """The floor: load the embedder and embed the recorded texts once, no cache."""
    from claimforge.config import apply_overrides, load_recipe
    from claimforge.registry import registry

    spec = apply_overrides(load_recipe("multi2claim"), [*sets, "embedder.use_cache=false"])["embedder"]
    texts = json.loads(texts_file.read_text())
    registry.build("embedder", spec).embed(texts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", default="sciq:../shared/data/sciq/train.json")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--set", dest="sets", action="append", default=[], help="recipe override key=value")
    ap.add_argument("--mode", choices=["bench", "record", "embed"], default="bench", help=argparse.SUPPRESS)
    ap.add_argument("--texts", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.mode == "record":
        record_texts(args.input, args.out, args.texts, args.sets)
        _report_peak()
        return
    if args.mode == "embed":
        embed_only(args.texts, args.sets)
        _report_peak()
        return

    me = [sys.executable, __file__, "--input", args.input, *sum((["--set", s] for s in args.sets), [])]
    rows = []
    for run in range(args.runs):
        with tempfile.TemporaryDirectory() as tmp:
            t = Path(tmp)
            env = {**os.environ, "CLAIMFORGE_CACHE": str(t / "cache"), "HF_HUB_OFFLINE": "1"}
            texts = t / "texts.json"
            build_s, build_mb = _child([*me, "--mode", "record", "--out", str(t / "o"), "--texts", str(texts)], env)
            warm_s, _ = _child([*me, "--mode", "record", "--out", str(t / "o2"), "--texts", str(t / "t2.json")], env)
            floor_s, floor_mb = _child([*me, "--mode", "embed", "--texts", str(texts)], env)
            counts = json.loads((t / "o" / "manifest.json").read_text())["counts"]
            n_texts = len(json.loads(texts.read_text()))
        rows.append(
            {
                "run": run,
                "build_s": round(build_s, 1),
                "warm_rerun_s": round(warm_s, 1),
                "embed_floor_s": round(floor_s, 1),
                "ratio": round(build_s / floor_s, 3),
                "build_peak_rss_mb": round(build_mb),
                "embed_peak_rss_mb": round(floor_mb),
                "embedded_texts": n_texts,
                "counts": counts,
            }
        )
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)

    def med(k: str) -> float:
        return statistics.median(r[k] for r in rows)

    print(
        json.dumps(
            {
                "input": args.input,
                "sets": args.sets,
                "runs": args.runs,
                "median_build_s": med("build_s"),
                "median_warm_rerun_s": med("warm_rerun_s"),
                "median_embed_floor_s": med("embed_floor_s"),
                "median_ratio": med("ratio"),
                "max_build_peak_rss_mb": max(r["build_peak_rss_mb"] for r in rows),
                "machine": {"cores": os.cpu_count(), "python": platform.python_version()},
                "rows": rows,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
