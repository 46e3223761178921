"""One trainer for every PyTorch verifier: seeded, length-bucketed batches, AdamW with warm-up,
early stopping on dev macro-F1, safetensors checkpoints that resume, and a run card.

A run directory holds ``best/`` (the selected model), ``checkpoint/`` (the latest state, for resuming),
``run.json`` (data, parameters, metrics per evaluation) and ``metrics.json`` (the final dev metrics).
"""

from __future__ import annotations

import json
import math
import random
import shutil
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, Literal

import numpy as np

from claimforge.cache import fingerprint
from claimforge.io.dataset import atomic_open
from claimforge.records import Pair
from claimforge.registry import ComponentConfig
from claimforge.verify.base import TorchVerifier, gold_label, target_mask

BEST_DIR = "best"
CHECKPOINT_DIR = "checkpoint"
RUN_FILE = "run.json"


class TrainConfig(ComponentConfig):
    epochs: float = 3.0  # fractional epochs allowed (e.g. 0.5 of a large set)
    batch_size: int = 16
    lr: float = 1e-3
    weight_decay: float = 0.01
    warmup_ratio: float = 0.1
    grad_clip: float = 1.0
    eval_every: int | None = None  # steps between dev evaluations (None: once per epoch)
    patience: int = 3  # evaluations without dev macro-F1 gain before stopping
    seed: int = 13
    max_train_pairs: int | None = None  # a seeded subsample of the training pairs
    max_dev_pairs: int | None = None
    bucket_size: int = 50  # batches per length bucket (0 disables bucketing)
    threads: int | None = None
    # "bf16": forward and backward under CPU bfloat16 autocast (weights and optimizer stay fp32); faster on
    # CPUs with AVX-512 BF16 / AMX (docs/benchmarks.md), about the same quality.
    precision: Literal["fp32", "bf16"] = "fp32"


def train_config(verifier: TorchVerifier, overrides: dict[str, Any] | None = None) -> TrainConfig:
    """The verifier's own training defaults with ``overrides`` on top."""
    return TrainConfig(**{**verifier.default_train, **(overrides or {})})


def set_seed(seed: int) -> None:
    import torch

    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def subsample(pairs: Sequence[Pair], limit: int | None, seed: int) -> list[Pair]:
    """A seeded sample of at most ``limit`` pairs, kept in input order."""
    if limit is None or len(pairs) <= limit:
        return list(pairs)
    keep = sorted(random.Random(seed).sample(range(len(pairs)), limit))
    return [pairs[i] for i in keep]


def epoch_batches(lengths: Sequence[int], batch_size: int, bucket_size: int, seed: int) -> list[list[int]]:
    """Shuffled batches of indices; within buckets of ``bucket_size`` batches, pairs of similar length
    share a batch (less padding), and the batch order is shuffled again."""
    rng = random.Random(seed)
    order = list(range(len(lengths)))
    rng.shuffle(order)
    if bucket_size > 0:
        span = batch_size * bucket_size
        order = [i for s in range(0, len(order), span) for i in sorted(order[s : s + span], key=lambda j: lengths[j])]
    batches = [order[s : s + batch_size] for s in range(0, len(order), batch_size)]
    rng.shuffle(batches)
    return batches


def lr_factor(step: int, total_steps: int, warmup: int) -> float:
    """The learning-rate multiplier at ``step``: linear warm-up over ``warmup`` steps, then linear decay to 0."""
    if step < warmup:
        return (step + 1) / max(1, warmup)
    return max(0.0, (total_steps - step) / max(1, total_steps - warmup))


def _save_state(path: Path, optimizer: Any, scheduler: Any, state: dict[str, Any]) -> None:
    """Optimizer moments as safetensors + scalars as JSON (no pickle)."""
    from safetensors.torch import save_file

    tensors: dict[str, Any] = {}
    scalars: dict[str, Any] = {}
    for pid, pstate in optimizer.state_dict()["state"].items():
        for key, value in pstate.items():
            if hasattr(value, "shape") and value.dim() > 0:
                tensors[f"{pid}.{key}"] = value.contiguous()
            else:
                scalars[f"{pid}.{key}"] = float(value)
    save_file(tensors, str(path / "optimizer.safetensors"))
    meta = {"optimizer_scalars": scalars, "scheduler": scheduler.state_dict(), **state}
    with atomic_open(path / "state.json") as f:
        json.dump(meta, f, default=float)


def _load_state(path: Path, optimizer: Any, scheduler: Any) -> dict[str, Any]:
    import torch
    from safetensors.torch import load_file

    meta = json.loads((path / "state.json").read_text(encoding="utf-8"))
    tensors = load_file(str(path / "optimizer.safetensors"))
    sd = optimizer.state_dict()
    state: dict[int, dict[str, Any]] = {}
    for name, value in tensors.items():
        pid, key = name.split(".", 1)
        state.setdefault(int(pid), {})[key] = value
    for name, value in meta.pop("optimizer_scalars").items():
        pid, key = name.split(".", 1)
        state.setdefault(int(pid), {})[key] = torch.tensor(value)
    sd["state"] = state
    optimizer.load_state_dict(sd)
    scheduler.load_state_dict(meta.pop("scheduler"))
    for group, lr in zip(optimizer.param_groups, scheduler.get_last_lr(), strict=True):
        group["lr"] = lr  # the optimizer was built at step 0; continue at the checkpoint's rate
    return meta


def _saved_run_id(ckpt: Path) -> str | None:
    try:
        return json.loads((ckpt / "state.json").read_text(encoding="utf-8")).get("run_id")
    except (OSError, ValueError):
        return None


def dev_scores(verifier: TorchVerifier, dev: Sequence[Pair]) -> dict[str, float]:
    from claimforge.verify.metrics import classification_metrics

    probs = verifier.predict_proba(dev)
    pred = [verifier.labels[i] for i in probs.argmax(axis=1)]
    gold = [gold_label(p.labels, verifier.labels, y) for p, y in zip(dev, pred, strict=True)]
    m = classification_metrics(gold, pred, labels=verifier.labels)
    allowed = (probs * target_mask(dev, verifier.labels)).sum(axis=1)
    loss = float(-np.log(np.clip(allowed, 1e-12, None)).mean())
    return {"accuracy": m["accuracy"], "macro_f1": m["macro_f1"], "loss": loss}


def _better(scores: dict[str, float], best: list[float] | None) -> bool:
    """Higher dev macro-F1 wins; on a tie, lower dev loss."""
    return best is None or (scores["macro_f1"], -scores["loss"]) > (best[0], best[1])


def train(
    verifier: TorchVerifier,
    train_pairs: Sequence[Pair],
    dev_pairs: Sequence[Pair],
    config: TrainConfig,
    out: str | Path,
    data_info: dict[str, Any] | None = None,
    progress: Callable[[str, int, int], None] | None = None,
    log: Callable[[str], None] | None = None,
    init_id: str | None = None,
) -> dict[str, Any]:
    """Train ``verifier`` in place and write the run directory ``out``; returns the run card.

    An existing ``out/checkpoint`` from the same data and parameters is resumed; a finished run is
    not retrained.
    """
    import torch

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    say = log or (lambda msg: None)
    if config.threads:
        torch.set_num_threads(config.threads)
    set_seed(config.seed)
    train_set = subsample(train_pairs, config.max_train_pairs, config.seed)
    dev_set = subsample(dev_pairs, config.max_dev_pairs, config.seed + 1)
    if not train_set:
        raise ValueError("no training pairs")
    masks = torch.from_numpy(target_mask(train_set, verifier.labels))
    spec = {"name": verifier.kind, **verifier.config.model_dump(mode="json")}
    # The run's identity: model, parameters, data and the weights it started from (``init_id``), so a
    # changed starting point is retrained rather than reused.
    run_id = fingerprint(
        spec,
        config.model_dump(mode="json"),
        [(p.id, p.claim, p.evidence, p.labels) for p in train_set],
        [p.id for p in dev_set],  # dev picks the checkpoint that is kept
        init_id,
    )[:16]
    card_path = out / RUN_FILE
    if card_path.is_file():
        try:
            previous = json.loads(card_path.read_text(encoding="utf-8"))
        except ValueError as e:
            raise ValueError(f"{card_path}: not a readable run card ({e})") from None
        if previous.get("run_id") == run_id and previous.get("status") == "finished":
            say(f"{out}: finished run with the same data and parameters; loading it")
            verifier.load_weights(out / BEST_DIR)
            return dict(previous)
    # Another run's card or best model must not outlive this run's first checkpoint: an interrupted
    # run would otherwise leave the old card describing new weights.
    card_path.unlink(missing_ok=True)
    if _saved_run_id(out / CHECKPOINT_DIR) != run_id:
        shutil.rmtree(out / BEST_DIR, ignore_errors=True)

    say(f"preparing {len(train_set)} train / {len(dev_set)} dev pairs")
    verifier.prepare(list(train_set) + list(dev_set))
    lengths = [verifier.length(p) for p in train_set]
    ckpt = out / CHECKPOINT_DIR
    resume = (ckpt / "state.json").is_file() and _saved_run_id(ckpt) == run_id
    if resume:
        verifier.load_weights(ckpt)  # before the optimizer is built on the parameters
    module = verifier.module
    params = [p for p in module.parameters() if p.requires_grad]
    no_decay = [p for p in params if p.dim() < 2]
    decay = [p for p in params if p.dim() >= 2]
    lr = config.lr
    optimizer = torch.optim.AdamW(
        [{"params": decay, "weight_decay": config.weight_decay}, {"params": no_decay, "weight_decay": 0.0}], lr=lr
    )
    steps_per_epoch = math.ceil(len(train_set) / config.batch_size)
    total_steps = max(1, int(round(config.epochs * steps_per_epoch)))
    warmup = int(config.warmup_ratio * total_steps)

    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: lr_factor(step, total_steps, warmup))
    eval_every = config.eval_every or steps_per_epoch
    state: dict[str, Any] = {"step": 0, "best": None, "bad_evals": 0, "history": [], "train_seconds": 0.0}
    if resume:
        state = _load_state(ckpt, optimizer, scheduler)
        say(f"resuming {out} at step {state['step']}/{total_steps}")
    state["run_id"] = run_id

    def checkpoint(target: Path) -> None:
        tmp = target.with_name(target.name + ".tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        verifier.save(tmp)
        if target.name == CHECKPOINT_DIR:
            _save_state(tmp, optimizer, scheduler, state)
        shutil.rmtree(target, ignore_errors=True)
        tmp.rename(target)

    card: dict[str, Any] = {
        "run_id": run_id,
        "status": "running",
        "verifier": spec,
        "train": config.model_dump(mode="json"),
        "lr": lr,
        "data": {**(data_info or {}), "train_pairs": len(train_set), "dev_pairs": len(dev_set)},
        "total_steps": total_steps,
    }
    stopped_early = False
    t_start = time.perf_counter() - state["train_seconds"]
    loss_sum, loss_n = 0.0, 0
    while state["step"] < total_steps and not stopped_early:
        epoch = state["step"] // steps_per_epoch
        batches = epoch_batches(lengths, config.batch_size, config.bucket_size, config.seed * 1000 + epoch)
        for b in batches[state["step"] - epoch * steps_per_epoch :]:
            module.train()
            with torch.autocast("cpu", dtype=torch.bfloat16, enabled=config.precision == "bf16"):
                logits = verifier.forward(verifier.collate([train_set[i] for i in b]))
            logits = logits.float()
            allowed = masks[b]
            # -log P(gold set): one label is plain cross-entropy; a set ("not entailment") sums its labels.
            logp = torch.log_softmax(logits, dim=-1)
            loss = -(torch.logsumexp(logp.masked_fill(allowed == 0, -1e9), dim=-1)).mean()
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            if config.grad_clip:
                torch.nn.utils.clip_grad_norm_(params, config.grad_clip)
            optimizer.step()
            scheduler.step()
            state["step"] += 1
            loss_sum += float(loss.detach())
            loss_n += 1
            if progress is not None:
                progress("train", state["step"], total_steps)
            if state["step"] % eval_every == 0 or state["step"] == total_steps:
                state["train_seconds"] = time.perf_counter() - t_start
                scores = dev_scores(verifier, dev_set) if dev_set else {"accuracy": 0.0, "macro_f1": 0.0, "loss": 0.0}
                entry = {"step": state["step"], "train_loss": loss_sum / max(1, loss_n), **scores}
                state["history"].append(entry)
                loss_sum, loss_n = 0.0, 0
                say(
                    f"step {state['step']}/{total_steps} loss {entry['train_loss']:.4f} "
                    f"dev acc {scores['accuracy']:.4f} macro-F1 {scores['macro_f1']:.4f} loss {scores['loss']:.4f}"
                )
                if _better(scores, state["best"]) or not dev_set:
                    state["best"] = [scores["macro_f1"], -scores["loss"]]
                    state["bad_evals"] = 0
                    checkpoint(out / BEST_DIR)
                else:
                    state["bad_evals"] += 1
                checkpoint(ckpt)
                if dev_set and state["bad_evals"] >= config.patience:
                    say(f"early stop: no dev macro-F1 gain in {config.patience} evaluations")
                    stopped_early = True
                    break
            if state["step"] >= total_steps:
                break
    elapsed = time.perf_counter() - t_start
    verifier.load_weights(out / BEST_DIR)
    best = max(state["history"], key=lambda h: (h["macro_f1"], -h["loss"])) if state["history"] else {}
    card.update(
        status="finished",
        steps=state["step"],
        stopped_early=stopped_early,
        train_seconds=round(elapsed, 1),
        train_pairs_per_second=round(state["step"] * config.batch_size / max(elapsed, 1e-9), 2),
        history=state["history"],
        best=best,
    )
    with atomic_open(card_path) as f:
        json.dump(card, f, indent=2)
    with atomic_open(out / "metrics.json") as f:
        json.dump(best, f, indent=2)
    shutil.rmtree(ckpt, ignore_errors=True)
    return card
