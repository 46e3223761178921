"""Verifier speed on this CPU: inference pairs/s and macro-F1 against sentence-transformers' CrossEncoder.predict
on the same weights (``--model``, a saved cross-encoder verifier), and, with ``--train``, training throughput.

Inference variants, each run in its own child process with torch / ONNX Runtime threads pinned to ``--threads``:

  st         sentence-transformers CrossEncoder.predict on the same HF weights, batch 32, default settings
             (it sorts its inputs by length too), same max_length; the baseline every ratio refers to
  fp32       claimforge CrossEncoderVerifier.predict_proba: length-sorted batches of the saved batch_size
  int8       the same after CrossEncoderVerifier.quantize() (torch dynamic int8 Linear layers)
  onnx       claimforge.verify.onnx_runtime: the same tokenisation, evidence selection and batching, the model
             exported with torch.onnx.export (dynamic batch and sequence axes, eager attention) and run by
             ONNX Runtime (all graph optimisations)
  onnx-int8  that graph after onnxruntime.quantization.quantize_dynamic (int8 weights)

The pairs: ``--pairs`` held-out pairs (training/nli/nli_data.splits) drawn with a fixed seed, evenly from
``--sources``; each source is scored as export.py scores it (binary sources in the 2-way space), and "macro-F1"
is the mean over sources. Every child warms up on one batch, then predicts all pairs once; wall time gives
pairs/s, process CPU time gives a second figure that is less disturbed by other load. The ONNX graphs are
exported once, before the runs (in a child; the export time is reported).

    python bench/bench_verifier.py --model build/nli_run/best --runs 3 --out build/bench_verifier.json
    python bench/bench_verifier.py --train --runs 3 --out build/bench_verifier_train.json

``--train`` measures training in the trainer itself (claimforge.verify.trainer.train, no dev set, no
checkpoint until the last step), timing steps after ``--warmup-steps`` from its progress callback:
the cross-encoder (default weights, ``--steps`` steps of batch 16, max_length 128) with freeze_embeddings
off and on, and CEM in two phases: embedding the texts of ``--cem-pairs`` training pairs (uncached), then
``--cem-epochs`` epochs of head training. Peak RSS is each child's own (getrusage).

Prints a Markdown table on stdout; ``--out`` gets the JSON (medians, per-run rows, machine).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
NLI_DIR = REPO / "training" / "nli"
INFER = ["st", "fp32", "int8", "onnx", "onnx-int8"]
TRAIN = ["ce", "ce-frozen", "cem"]
SEED = 2026


# -- shared helpers ------------------------------------------------------------------------------
def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _pin_threads(threads: int) -> None:
    import torch

    torch.set_num_threads(threads)
    torch.set_num_interop_threads(1)


def _child_env(threads: int, cache: Path | None = None) -> dict[str, str]:
    env = {
        **os.environ,
        "OMP_NUM_THREADS": str(threads),
        "MKL_NUM_THREADS": str(threads),
        "TOKENIZERS_PARALLELISM": "false",
        "HF_HUB_OFFLINE": "1",
    }
    if cache is not None:
        env["CLAIMFORGE_CACHE"] = str(cache)
    return env


def _child(cmd: list[str], env: dict[str, str]) -> dict[str, Any]:
    """Run one of this script's modes in a child; its last stdout line is a JSON report."""
    out = subprocess.run(cmd, env=env, check=True, stdout=subprocess.PIPE, text=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _splits(data: Path) -> tuple[list[Any], dict[str, list[Any]]]:
    sys.path.insert(0, str(NLI_DIR))
    from nli_data import splits

    train, _, held, _ = splits(data)
    return train, held


def _binary_sources() -> set[str]:
    sys.path.insert(0, str(NLI_DIR))
    from export import BINARY  # how training/nli/export.py scores the held-out slices

    return set(BINARY)


def _write_pairs(path: Path, pairs: list[Any], sources: list[str]) -> None:
    rows = [{"slice": s, **p.model_dump(mode="json")} for p, s in zip(pairs, sources, strict=True)]
    path.write_text(json.dumps(rows), encoding="utf-8")


def _read_pairs(path: Path) -> tuple[list[Any], list[str]]:
    from claimforge.records import Pair

    rows = json.loads(path.read_text(encoding="utf-8"))
    return [Pair(**{k: v for k, v in r.items() if k != "slice"}) for r in rows], [r["slice"] for r in rows]


# -- inference children --------------------------------------------------------------------------
def export_onnx(model_dir: Path, work: Path) -> None:
    """Export the fp32 and int8 ONNX graphs into the run's own cache (claimforge.verify.onnx_runtime)."""
    import claimforge.verify.onnx_runtime  # noqa: F401  (registers "cross-encoder-onnx")
    from claimforge.verify.base import load_verifier

    verifier: Any = load_verifier(model_dir, name="cross-encoder-onnx", onnx_cache=str(work / "onnx"))
    verifier.quantize()


def infer_child(
    variant: str, model_dir: Path, work: Path, threads: int, warmup: int, batch: int | None, out: Path
) -> dict[str, Any]:
    import numpy as np

    _pin_threads(threads)
    pairs, _ = _read_pairs(work / "pairs.json")
    spec = json.loads((model_dir / "verifier.json").read_text(encoding="utf-8"))
    t0 = time.perf_counter()
    if variant == "st":
        from sentence_transformers import CrossEncoder

        model = CrossEncoder(str(model_dir / "model"), max_length=spec["max_length"], device="cpu")
        batch_size = 32
        inputs = [(p.claim, " ".join(p.evidence)) for p in pairs]

        def predict(n: int) -> Any:
            return model.predict(inputs[:n], batch_size=batch_size, convert_to_numpy=True, show_progress_bar=False)

    else:
        overrides: dict[str, Any] = {"threads": threads, **({"batch_size": batch} if batch else {})}
        from claimforge.verify.base import load_verifier

        if variant.startswith("onnx"):
            import claimforge.verify.onnx_runtime  # noqa: F401  (registers "cross-encoder-onnx")

            overrides |= {
                "name": "cross-encoder-onnx",
                "int8": variant == "onnx-int8",
                "onnx_cache": str(work / "onnx"),
            }
        verifier: Any = load_verifier(model_dir, **overrides)
        if variant == "int8":
            verifier.quantize()
        batch_size = verifier.config.batch_size

        def predict(n: int) -> Any:
            return verifier.predict_proba(pairs[:n])

    load_s = time.perf_counter() - t0
    predict(min(warmup, len(pairs)))
    wall, cpu = time.perf_counter(), time.process_time()
    scores = np.asarray(predict(len(pairs)), dtype=np.float32)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    if variant == "st":  # CrossEncoder returns logits (identity activation for 3 labels)
        scores = np.exp(scores - scores.max(axis=1, keepdims=True))
        scores /= scores.sum(axis=1, keepdims=True)
    np.save(out, scores)
    return {
        "wall_s": wall,
        "cpu_s": cpu,
        "load_s": load_s,
        "batch_size": batch_size,
        "peak_rss_mb": _peak_mb(),
    }


def _scores(probs: Any, pairs: list[Any], slices: list[str], binary: set[str]) -> dict[str, float]:
    """Macro-F1 per held-out slice (binary slices in the 2-way space, as export.py scores them) and their mean."""
    from claimforge.verify.base import gold_label, label_space, two_way
    from claimforge.verify.metrics import classification_metrics

    out: dict[str, float] = {}
    for name in sorted(set(slices)):
        rows = [i for i, s in enumerate(slices) if s == name]
        p = probs[rows]
        if name in binary:
            p = two_way(p)
        labels = label_space(p.shape[1])
        pred = [labels[j] for j in p.argmax(axis=1)]
        gold = [gold_label(pairs[i].labels, labels, y) for i, y in zip(rows, pred, strict=True)]
        out[name] = classification_metrics(gold, pred, labels)["macro_f1"]
    out["mean"] = statistics.fmean(out.values())
    return out


def bench_inference(args: argparse.Namespace) -> dict[str, Any]:
    import numpy as np

    model_dir = args.model.resolve()
    if not (model_dir / "verifier.json").is_file():
        raise SystemExit(f"{model_dir}: not a saved verifier (no verifier.json)")
    variants = args.variants or INFER
    _, held = _splits(args.data)
    binary = _binary_sources()
    rng = random.Random(args.seed)
    picked: list[tuple[Any, str]] = []
    share, extra = divmod(args.pairs, len(args.sources))
    for k, name in enumerate(args.sources):
        pool = held[name]
        picked += [(p, name) for p in rng.sample(pool, min(len(pool), share + (k < extra)))]
    rng.shuffle(picked)
    pairs, slices = [p for p, _ in picked], [s for _, s in picked]

    rows: list[dict[str, Any]] = []
    probs: dict[str, Any] = {}
    export: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _write_pairs(work / "pairs.json", pairs, slices)
        me = [sys.executable, __file__, "--model", str(model_dir), "--work", str(work), "--threads", str(args.threads)]
        if args.infer_batch_size:
            me += ["--infer-batch-size", str(args.infer_batch_size)]
        env = _child_env(args.threads)
        if any(v.startswith("onnx") for v in variants):
            t = time.perf_counter()
            rep = _child([*me, "--mode", "export"], env)
            export = {
                "seconds": round(time.perf_counter() - t, 1),
                "peak_rss_mb": round(rep["peak_rss_mb"]),
                **{f"{g.name}_mb": round(g.stat().st_size / 2**20, 1) for g in sorted((work / "onnx").rglob("*.onnx"))},
            }
            print(json.dumps({"onnx_export": export}), file=sys.stderr, flush=True)
        for run in range(args.runs):
            for variant in variants:
                out = work / f"{variant}_{run}.npy"
                rep = _child(
                    [*me, "--mode", "infer", "--variant", variant, "--warmup", str(args.warmup), "--probs", str(out)],
                    env,
                )
                p = np.load(out)
                probs.setdefault(variant, p)
                f1 = _scores(p, pairs, slices, binary)
                rows.append(
                    {
                        "run": run,
                        "variant": variant,
                        "pairs_per_s": round(len(pairs) / rep["wall_s"], 2),
                        "cpu_pairs_per_s": round(len(pairs) / rep["cpu_s"], 2),
                        "seconds": round(rep["wall_s"], 2),
                        "load_s": round(rep["load_s"], 2),
                        "batch_size": rep["batch_size"],
                        "peak_rss_mb": round(rep["peak_rss_mb"]),
                        "macro_f1": {k: round(v, 4) for k, v in f1.items()},
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)

    def med(variant: str, key: str) -> float:
        return statistics.median(r[key] for r in rows if r["variant"] == variant)

    base = "st" if "st" in variants else variants[0]
    summary: dict[str, Any] = {}
    for v in variants:
        f1 = next(r["macro_f1"] for r in rows if r["variant"] == v)
        f1_base = next(r["macro_f1"] for r in rows if r["variant"] == base)
        summary[v] = {
            "pairs_per_s": med(v, "pairs_per_s"),
            "cpu_pairs_per_s": med(v, "cpu_pairs_per_s"),
            "speedup": round(med(v, "pairs_per_s") / med(base, "pairs_per_s"), 2),
            "cpu_speedup": round(med(v, "cpu_pairs_per_s") / med(base, "cpu_pairs_per_s"), 2),
            "macro_f1": f1,
            "macro_f1_delta_points": round(100 * (f1["mean"] - f1_base["mean"]), 2),
            "agreement": round(float((probs[v].argmax(1) == probs[base].argmax(1)).mean()), 4),
            "max_abs_prob_diff": float(np.abs(probs[v] - probs[base]).max()),
            "batch_size": rows[[r["variant"] for r in rows].index(v)]["batch_size"],
            "load_s": med(v, "load_s"),
            "max_peak_rss_mb": max(r["peak_rss_mb"] for r in rows if r["variant"] == v),
        }
    return {
        "mode": "inference",
        "model": str(args.model),
        "data": str(args.data),
        "sources": args.sources,
        "pairs": len(pairs),
        "per_source": {s: slices.count(s) for s in args.sources},
        "seed": args.seed,
        "threads": args.threads,
        "infer_batch_size": args.infer_batch_size,
        "warmup_pairs": args.warmup,
        "runs": args.runs,
        "baseline": base,
        "onnx_export": export,
        "summary": summary,
        "rows": rows,
    }


def inference_table(report: dict[str, Any]) -> str:
    srcs = sorted(report["per_source"])
    head = (
        ["variant", "pairs/s", f"× {report['baseline']}", "CPU pairs/s", f"CPU × {report['baseline']}"]
        + [f"macro-F1 {s}" for s in srcs]
        + ["mean macro-F1", "Δ points", "agreement", "batch", "peak RSS MB"]
    )
    lines = ["| " + " | ".join(head) + " |", "|---" + "|---:" * (len(head) - 1) + "|"]
    for v, s in report["summary"].items():
        cells = [
            v,
            f"{s['pairs_per_s']:.1f}",
            f"{s['speedup']:.2f}",
            f"{s['cpu_pairs_per_s']:.1f}",
            f"{s['cpu_speedup']:.2f}",
            *[f"{100 * s['macro_f1'][k]:.2f}" for k in srcs],
            f"{100 * s['macro_f1']['mean']:.2f}",
            f"{s['macro_f1_delta_points']:+.2f}",
            f"{100 * s['agreement']:.1f}%",
            str(s["batch_size"]),
            str(s["max_peak_rss_mb"]),
        ]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# -- training children ---------------------------------------------------------------------------
class _StepClock:
    """The trainer's progress callback: the time at which each training step finished."""

    def __init__(self) -> None:
        self.times: list[float] = []

    def __call__(self, phase: str, step: int, total: int) -> None:
        if phase == "train":
            self.times.append(time.perf_counter())

    def rate(self, batch_size: int, warmup: int) -> float:
        """Pairs per second over the steps after the first ``warmup`` (the first step's start is unknown)."""
        warmup = max(1, min(warmup, len(self.times) - 1))
        return (len(self.times) - warmup) * batch_size / (self.times[-1] - self.times[warmup - 1])


def train_child(variant: str, work: Path, args: argparse.Namespace) -> dict[str, Any]:
    from claimforge.registry import registry
    from claimforge.verify.trainer import TrainConfig, train

    _pin_threads(args.threads)
    pairs, _ = _read_pairs(work / "train_pairs.json")
    clock = _StepClock()
    if variant in ("ce", "ce-frozen"):
        spec = {"name": "cross-encoder", "max_length": args.max_length, "freeze_embeddings": variant == "ce-frozen"}
        verifier = registry.build("verifier", spec)
        n = args.steps * args.batch_size
        cfg = TrainConfig(**{**verifier.default_train, "batch_size": args.batch_size, "epochs": 1.0})
        cfg = cfg.model_copy(update={"max_train_pairs": n, "eval_every": args.steps + 1, "threads": args.threads})
        t = time.perf_counter()
        shutil.rmtree(work / f"run_{variant}", ignore_errors=True)  # a finished run would be reused, not timed
        train(verifier, pairs[:n], [], cfg, work / f"run_{variant}", progress=clock)
        return {
            "pairs_per_s": clock.rate(args.batch_size, args.warmup_steps),
            "steps": len(clock.times),
            "batch_size": args.batch_size,
            "total_s": time.perf_counter() - t,
            "peak_rss_mb": _peak_mb(),
        }
    # CEM: embedding the texts (the embedder's own cost, uncached), then the head alone
    verifier = registry.build(
        "verifier", {"name": "cem", "embedder": {"name": "sentence-transformers", "use_cache": False}}
    )
    subset = pairs[: args.cem_pairs]
    texts = len({t for p in subset for t in (p.claim, *p.evidence)})
    _ = verifier.dim  # loads the embedder (one probe text), outside the timing
    t = time.perf_counter()
    verifier.prepare(subset)
    embed_s = time.perf_counter() - t
    embed_rss = _peak_mb()
    cfg = TrainConfig(**{**verifier.default_train, "epochs": float(args.cem_epochs)})
    steps = args.cem_epochs * -(-len(subset) // cfg.batch_size)
    cfg = cfg.model_copy(update={"eval_every": steps + 1, "threads": args.threads})
    shutil.rmtree(work / "run_cem", ignore_errors=True)
    train(verifier, subset, [], cfg, work / "run_cem", progress=clock)
    return {
        "embed_pairs_per_s": len(subset) / embed_s,
        "embed_texts_per_s": texts / embed_s,
        "embed_texts": texts,
        "embed_peak_rss_mb": embed_rss,
        "pairs_per_s": clock.rate(cfg.batch_size, args.warmup_steps),
        "steps": len(clock.times),
        "batch_size": cfg.batch_size,
        "peak_rss_mb": _peak_mb(),
    }


def bench_training(args: argparse.Namespace) -> dict[str, Any]:
    variants = args.variants or TRAIN
    train_pairs, _ = _splits(args.data)
    need = max(args.steps * args.batch_size, args.cem_pairs)
    sample = random.Random(args.seed).sample(train_pairs, min(need, len(train_pairs)))
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        _write_pairs(work / "train_pairs.json", sample, ["train"] * len(sample))
        me = [sys.executable, __file__, "--train", "--work", str(work), "--threads", str(args.threads)]
        me += ["--steps", str(args.steps), "--batch-size", str(args.batch_size), "--max-length", str(args.max_length)]
        me += ["--cem-pairs", str(args.cem_pairs), "--cem-epochs", str(args.cem_epochs)]
        me += ["--warmup-steps", str(args.warmup_steps)]
        for run in range(args.runs):
            for variant in variants:
                env = _child_env(args.threads, cache=work / f"cache_{run}_{variant}")
                rep = _child([*me, "--mode", "train", "--variant", variant], env)
                rows.append({"run": run, "variant": variant, **{k: round(v, 2) for k, v in rep.items()}})
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    summary: dict[str, Any] = {}
    for v in variants:
        mine = [r for r in rows if r["variant"] == v]
        summary[v] = {
            k: (max(r[k] for r in mine) if "rss" in k else statistics.median(r[k] for r in mine))
            for k in mine[0]
            if k not in ("run", "variant")
        }
    return {
        "mode": "train",
        "data": str(args.data),
        "threads": args.threads,
        "runs": args.runs,
        "steps": args.steps,
        "batch_size": args.batch_size,
        "max_length": args.max_length,
        "cem_pairs": args.cem_pairs,
        "cem_epochs": args.cem_epochs,
        "warmup_steps": args.warmup_steps,
        "summary": summary,
        "rows": rows,
    }


def training_table(report: dict[str, Any]) -> str:
    what = {
        "ce": f"cross-encoder, batch {report['batch_size']}, max_length {report['max_length']}",
        "ce-frozen": "cross-encoder, freeze_embeddings",
        "cem": "CEM head (pre-embedded)",
    }
    lines = ["| training | pairs/s | peak RSS MB |", "|---|---:|---:|"]
    for v, s in report["summary"].items():
        if v == "cem":
            lines.append(
                f"| CEM embedding ({s['embed_texts']:.0f} texts, uncached) | {s['embed_pairs_per_s']:.1f} "
                f"({s['embed_texts_per_s']:.1f} texts/s) | {s['embed_peak_rss_mb']:.0f} |"
            )
        lines.append(f"| {what.get(v, v)} | {s['pairs_per_s']:.1f} | {s['peak_rss_mb']:.0f} |")
    return "\n".join(lines)


# -- entry point ---------------------------------------------------------------------------------
def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--model", type=Path, help="a saved cross-encoder verifier (verifier.json + model/)")
    ap.add_argument("--data", type=Path, default=REPO.parent / "shared" / "data" / "nli")
    ap.add_argument("--sources", nargs="+", default=["vitaminc_real", "fever_nli"], help="held-out slices")
    ap.add_argument("--pairs", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--warmup", type=int, default=32, help="pairs predicted once before timing")
    ap.add_argument(
        "--infer-batch-size", type=int, help="batch size of the claimforge variants (default: the saved config's)"
    )
    ap.add_argument("--variants", nargs="+", help=f"inference: {' '.join(INFER)}; training: {' '.join(TRAIN)}")
    ap.add_argument("--train", action="store_true", help="measure training instead of inference")
    ap.add_argument("--steps", type=int, default=20, help="cross-encoder training steps")
    ap.add_argument("--batch-size", type=int, default=16, help="cross-encoder training batch size")
    ap.add_argument("--max-length", type=int, default=128, help="cross-encoder training max_length")
    ap.add_argument("--cem-pairs", type=int, default=2000)
    ap.add_argument("--cem-epochs", type=int, default=3)
    ap.add_argument("--warmup-steps", type=int, default=2, help="training steps left out of the rate")
    ap.add_argument("--out", type=Path, help="write the JSON report here")
    ap.add_argument("--mode", choices=["bench", "export", "infer", "train"], default="bench", help=argparse.SUPPRESS)
    ap.add_argument("--variant", help=argparse.SUPPRESS)
    ap.add_argument("--work", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--probs", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()

    if args.mode == "export":
        export_onnx(args.model, args.work)
        print(json.dumps({"peak_rss_mb": _peak_mb()}), flush=True)
        return
    if args.mode == "infer":
        rep = infer_child(
            args.variant, args.model, args.work, args.threads, args.warmup, args.infer_batch_size, args.probs
        )
        print(json.dumps(rep), flush=True)
        return
    if args.mode == "train":
        print(json.dumps(train_child(args.variant, args.work, args)), flush=True)
        return

    if args.train:
        report = bench_training(args)
        table = training_table(report)
    else:
        if args.model is None:
            ap.error("--model is required for inference (or give --train)")
        report = bench_inference(args)
        table = inference_table(report)
    import torch

    report["machine"] = {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "load_average": os.getloadavg(),
    }
    try:
        import onnxruntime
        import sentence_transformers

        report["machine"] |= {
            "onnxruntime": onnxruntime.__version__,
            "sentence_transformers": sentence_transformers.__version__,
        }
    except ImportError:
        pass
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
