"""Fine-tuning a seq2seq model on citance -> claim pairs (CLAIMGEN-BART's training; ``claimforge train-claimgen``).

Inputs: SciFact's citance file (``scifact_citances_train.jsonl``: one pair per non-negated rewritten claim,
model input ``"{context} || {citance} ||"``) or the same as seq2seq pairs
(``claim_generation_pairs_train.jsonl``: ``{context, claims}``). The model is any HF seq2seq model
(``facebook/bart-base`` where a hub is reachable, or a local path); weights are written as safetensors.
A dev share of the *citances* (not of the pairs, so one citance's claims stay together) measures the loss.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import Field

from claimforge.io.rows import InputError
from claimforge.records import SentenceItem
from claimforge.registry import ComponentConfig, registry


class ClaimGenTrainConfig(ComponentConfig):
    model: str  # HF name or local path of the seq2seq model to start from
    epochs: int = Field(3, ge=1)
    batch_size: int = Field(8, ge=1)
    lr: float = 3e-5
    weight_decay: float = 0.01
    max_input_tokens: int = 256
    max_target_tokens: int = 64
    dev_fraction: float = Field(0.1, ge=0, lt=1)
    seed: int = 13


def load_pairs(path: str | Path) -> list[tuple[str, str, str]]:
    """(group id, model input, target claim) triples from either file layout (detected by its keys)."""
    from claimforge.generate.claimgen import seq2seq_input

    path = Path(path)
    with open(path, encoding="utf-8") as f:
        first = next((line for line in f if line.strip()), "")
    try:
        keys = set(json.loads(first)) if first else set()
    except json.JSONDecodeError as e:
        raise InputError(path, "line 1", f"invalid JSON: {e.msg}") from None
    out: list[tuple[str, str, str]] = []
    if "citance" in keys:
        reader = registry.build("reader", {"name": "scifact-citances", "path": str(path)})
        for it in reader.read():
            if isinstance(it, SentenceItem):
                out.extend((it.id, seq2seq_input(it), ref) for ref in it.references)
        return out
    if "context" not in keys or "claims" not in keys:
        raise InputError(path, "line 1", "expected SciFact citances (citance, claims) or pairs (context, claims)")
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                row = json.loads(line)
                claims = row["claims"]
                context = str(row["context"])
            except (json.JSONDecodeError, KeyError, TypeError) as e:
                raise InputError(path, f"line {n}", f"bad pair record: {e}") from None
            if isinstance(claims, str):
                claims = [claims]
            out.extend((f"{path.stem}:{n}", context, str(c)) for c in claims if str(c).strip())
    return out


def finetune(
    config: ClaimGenTrainConfig,
    pairs: list[tuple[str, str, str]],
    out: Path,
    log: Callable[[str], Any] = print,
) -> dict[str, Any]:
    """Train, keep the epoch with the lowest dev loss, save it to ``out`` (safetensors + tokenizer + card)."""
    import torch

    from claimforge.backends.seq2seq import _resolve, load_hf_model

    torch.manual_seed(config.seed)
    # not the cached inference copy: training changes the weights
    tokenizer, model = load_hf_model(_resolve(config.model), "cpu", "AutoModelForSeq2SeqLM", "seq2seq model")
    groups = sorted({g for g, _, _ in pairs})
    rng = random.Random(config.seed)
    dev_groups = set(rng.sample(groups, int(len(groups) * config.dev_fraction))) if config.dev_fraction else set()
    train = [(x, y) for g, x, y in pairs if g not in dev_groups]
    dev = [(x, y) for g, x, y in pairs if g in dev_groups]
    if not train:
        raise ValueError("no training pairs")

    def batches(data: list[tuple[str, str]], shuffle: bool) -> Any:
        order = list(range(len(data)))
        if shuffle:
            rng.shuffle(order)
        for i in range(0, len(order), config.batch_size):
            part = [data[j] for j in order[i : i + config.batch_size]]
            enc = tokenizer(
                [x for x, _ in part],
                text_target=[y for _, y in part],
                padding=True,
                truncation=True,
                max_length=config.max_input_tokens,
                return_tensors="pt",
            )
            labels = enc["labels"][:, : config.max_target_tokens]
            labels[labels == tokenizer.pad_token_id] = -100
            yield enc["input_ids"], enc["attention_mask"], labels

    def dev_loss() -> float | None:
        if not dev:
            return None
        model.eval()
        total, n = 0.0, 0
        with torch.inference_mode():
            for ids, mask, labels in batches(dev, False):
                total += float(model(input_ids=ids, attention_mask=mask, labels=labels).loss) * len(ids)
                n += len(ids)
        return total / max(n, 1)

    opt = torch.optim.AdamW(model.parameters(), lr=config.lr, weight_decay=config.weight_decay)
    history: list[dict[str, Any]] = []
    best: float | None = None
    started = time.time()
    out.mkdir(parents=True, exist_ok=True)
    for epoch in range(1, config.epochs + 1):
        model.train()
        losses = []
        for ids, mask, labels in batches(train, True):
            loss = model(input_ids=ids, attention_mask=mask, labels=labels).loss
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
            opt.zero_grad()
            losses.append(loss.item())
        dl = dev_loss()
        row = {"epoch": epoch, "train_loss": round(sum(losses) / len(losses), 4), "dev_loss": dl}
        history.append(row)
        log(f"epoch {epoch}: train loss {row['train_loss']:.4f}" + (f", dev loss {dl:.4f}" if dl is not None else ""))
        if best is None or dl is None or dl < best:
            best = dl
            model.save_pretrained(out, safe_serialization=True)
            tokenizer.save_pretrained(out)
            row["saved"] = True
    card = {
        "config": config.model_dump(mode="json"),
        "train_pairs": len(train),
        "dev_pairs": len(dev),
        "dev_groups": len(dev_groups),
        "history": history,
        "best_dev_loss": best,
        "seconds": round(time.time() - started, 1),
    }
    (out / "claimgen_train.json").write_text(json.dumps(card, indent=2) + "\n", encoding="utf-8")
    return card
