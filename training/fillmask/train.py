"""Train the embedded fill-mask model: an MLM head (and the top encoder layers) on the bundled all-MiniLM-L6-v2.

The encoder's embeddings and lower layers stay frozen (they are the bundled model's, reused at load time); the
head (transform dense + GELU + LayerNorm, decoder tied to the frozen input word embeddings, plus a bias) and the
top ``--train-layers`` layers are trained with whole-word masking of content words on scientific prose from
``../shared/data/papers`` (PLOS JATS and the Evidence-Inference PMC trial reports). Documents are split with the
n-gram LM's hash split (training/lm/corpus.py): its "test" documents are held out for evaluation (neither this model
nor the n-gram LM trained on them), its "dev" documents serve for choices (pilots); only "train" is trained on.

    OMP_NUM_THREADS=1 python training/fillmask/train.py --work build/fillmask/main --train-layers 2 \
        --steps 3600 --ship src/claimforge/models/fillmask-minilm

Checkpoints (safetensors + JSON, every ``--ckpt-every`` steps) let a killed run resume with the same command.
"""

from __future__ import annotations

import argparse
import json
import logging
import random
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np
import torch
from safetensors.torch import load_file, save_file

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "training" / "lm"))

import corpus  # noqa: E402
from spacy.lang.en.stop_words import STOP_WORDS  # noqa: E402

from claimforge.backends import fillmask  # noqa: E402

log = logging.getLogger("fillmask")


def content_word(word: str) -> bool:
    """The masking targets: alphabetic words of 3+ letters that are not stop words (spaCy's English list)."""
    return len(word) >= 3 and word.isalpha() and word.lower() not in STOP_WORDS


def load_splits(data: Path, cache: Path) -> dict[str, list[str]]:
    splits = corpus.split_corpus(data, ("plos", "evinf"), cache)
    return {k: [s.text for s in v if 6 <= len(s.tokens) <= 80] for k, v in splits.items()}


class Batcher:
    """Deterministic batches: a seeded permutation of the training sentences, cut into chunks of 64 batches that are
    sorted by length (less padding); masks drawn from an RNG seeded by (seed, step), so a resumed run sees the same
    batches and masks as an uninterrupted one."""

    def __init__(self, tokenizer, sentences: list[str], batch_size: int, seed: int, mask_prob: float, max_len: int):
        self.tok = tokenizer
        self.sents = sentences
        self.bs = batch_size
        self.seed = seed
        self.mask_prob = mask_prob
        self.max_len = max_len
        self.order = np.random.default_rng(seed).permutation(len(sentences))
        self.group = 64
        self._cache: dict[int, list[list[int]]] = {}

    def _group(self, g: int) -> list[list[int]]:
        if g not in self._cache:
            self._cache.clear()
            n = self.bs * self.group
            start = (g * n) % len(self.order)
            idx = [int(self.order[(start + i) % len(self.order)]) for i in range(n)]
            texts = [self.sents[i] for i in idx]
            lens = [len(t) for t in texts]
            by_len = sorted(range(n), key=lambda i: lens[i])
            batches = [by_len[b : b + self.bs] for b in range(0, n, self.bs)]
            random.Random(self.seed * 1000003 + g).shuffle(batches)
            self._cache[g] = [[idx[i] for i in b] for b in batches]
        return self._cache[g]

    def batch(self, step: int) -> dict[str, torch.Tensor]:
        ids = self._group(step // self.group)[step % self.group]
        enc = self.tok(
            [self.sents[i] for i in ids], truncation=True, max_length=self.max_len, padding=True, return_tensors="pt"
        )
        rng = np.random.default_rng([self.seed, step])
        input_ids = enc["input_ids"].clone()
        labels = torch.full_like(input_ids, -100)
        for row in range(input_ids.shape[0]):
            words: dict[int, list[int]] = {}
            for pos, w in enumerate(enc.word_ids(row)):
                if w is not None:
                    words.setdefault(w, []).append(pos)
            toks = enc.tokens(row)
            cands = [
                p for p in words.values() if content_word("".join(t.removeprefix("##") for t in (toks[i] for i in p)))
            ]
            if not cands:
                continue
            chosen = [p for p in cands if rng.random() < self.mask_prob] or [cands[int(rng.integers(len(cands)))]]
            for p in chosen:
                for i in p:
                    labels[row, i] = input_ids[row, i]
                    input_ids[row, i] = self.tok.mask_token_id
        return {"input_ids": input_ids, "attention_mask": enc["attention_mask"], "labels": labels}


def trainable(model, n_layers: int) -> dict[str, torch.nn.Parameter]:
    for p in model.parameters():
        p.requires_grad = False
    names = fillmask.trainable_names(model, n_layers)
    params = dict(model.named_parameters())
    out = {}
    for n in names:
        params[n].requires_grad = True
        out[n] = params[n]
    return out


def mlm_loss(model, batch: dict[str, torch.Tensor], bf16: bool) -> tuple[torch.Tensor, int, int]:
    ctx = torch.autocast("cpu", dtype=torch.bfloat16) if bf16 else torch.autocast("cpu", enabled=False)
    with ctx:
        h = model.bert(input_ids=batch["input_ids"], attention_mask=batch["attention_mask"]).last_hidden_state
        sel = batch["labels"] != -100
        logits = model.cls(h[sel]).float()
    y = batch["labels"][sel]
    loss = torch.nn.functional.cross_entropy(logits, y)
    correct = int((logits.argmax(-1) == y).sum())
    return loss, correct, int(y.numel())


def save_ckpt(path: Path, params: dict, opt: torch.optim.Optimizer, step: int, extra: dict) -> None:
    tensors = {f"param/{n}": p.detach().contiguous() for n, p in params.items()}
    names = list(params)
    state = opt.state_dict()
    for i, st in state["state"].items():
        for k, v in st.items():
            if torch.is_tensor(v):
                tensors[f"opt/{names[i]}/{k}"] = v.contiguous()
    tmp = path.with_suffix(".tmp")
    save_file(tensors, str(tmp))
    tmp.replace(path)
    path.with_suffix(".json").write_text(json.dumps({"step": step, **extra}))


def load_ckpt(path: Path, params: dict, opt: torch.optim.Optimizer) -> int:
    tensors = load_file(str(path))
    names = list(params)
    with torch.no_grad():
        for n, p in params.items():
            p.copy_(tensors[f"param/{n}"])
    state = opt.state_dict()
    for i, n in enumerate(names):
        st = {k.split("/")[-1]: v for k, v in tensors.items() if k.startswith(f"opt/{n}/")}
        if st:
            state["state"][i] = st
    opt.load_state_dict(state)
    return int(json.loads(path.with_suffix(".json").read_text())["step"])


def target_bias(batcher: Batcher, vocab_size: int, n_batches: int = 200) -> torch.Tensor:
    """Initial decoder bias: log frequency of each token among the masked targets of the first ``n_batches``
    training batches (add-0.1 smoothed), so training starts from the unigram distribution of what is masked
    (content-word pieces) instead of spending thousands of steps pushing down stop words and punctuation."""
    counts = np.full(vocab_size, 0.1, dtype=np.float64)
    for step in range(n_batches):
        labels = batcher.batch(step)["labels"]
        np.add.at(counts, labels[labels != -100].numpy(), 1)
    return torch.tensor(np.log(counts / counts.sum()), dtype=torch.float32)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--corpus-cache", type=Path, default=ROOT / "build" / "fillmask" / "corpus")
    ap.add_argument("--train-layers", type=int, default=2, help="top encoder layers to train (0 = head only)")
    ap.add_argument("--steps", type=int, default=3600)
    ap.add_argument("--stop-at", type=int, default=0, help="stop (after a checkpoint) at this step; 0 = --steps")
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--max-len", type=int, default=64)
    ap.add_argument("--mask-prob", type=float, default=0.2)
    ap.add_argument("--lr-head", type=float, default=2e-3)
    ap.add_argument("--lr-layers", type=float, default=2e-4)
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--no-bf16", action="store_true")
    ap.add_argument("--ckpt-every", type=int, default=250)
    ap.add_argument("--eval-every", type=int, default=500)
    ap.add_argument("--ship", type=Path, default=None, help="write the final model files here")
    args = ap.parse_args()

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.work.mkdir(parents=True, exist_ok=True)
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(message)s",
        handlers=[logging.FileHandler(args.work / "train.log"), logging.StreamHandler()],
    )
    log.info("args %s", vars(args))
    bf16 = not args.no_bf16

    t0 = time.time()
    splits = load_splits(args.data, args.corpus_cache)
    log.info("sentences: %s (%.0fs)", {k: len(v) for k, v in splits.items()}, time.time() - t0)

    model, tokenizer = fillmask.base_mlm()
    params = trainable(model, args.train_layers)
    log.info("trainable tensors %d, parameters %d", len(params), sum(p.numel() for p in params.values()))
    head = [p for n, p in params.items() if n.startswith("cls.")]
    layers = [p for n, p in params.items() if not n.startswith("cls.")]
    groups = [{"params": head, "lr": args.lr_head}]
    if layers:
        groups.append({"params": layers, "lr": args.lr_layers})
    opt = torch.optim.AdamW(groups, weight_decay=0.01)
    base_lrs = [g["lr"] for g in groups]

    batcher = Batcher(tokenizer, splits["train"], args.batch_size, args.seed, args.mask_prob, args.max_len)
    ckpt = args.work / "ckpt.safetensors"
    step = 0
    if ckpt.exists():
        step = load_ckpt(ckpt, params, opt)
        log.info("resumed at step %d", step)
    else:
        with torch.no_grad():
            model.cls.predictions.bias.copy_(target_bias(batcher, model.config.vocab_size))
        log.info("bias initialised from the masked targets of 200 batches")
    dev = Batcher(tokenizer, splits["dev"], 64, args.seed + 1, args.mask_prob, args.max_len)
    stop = args.stop_at or args.steps
    model.train()
    for m in model.modules():  # dropout off: frozen layers are the bundled model's; few steps, no overfitting
        if isinstance(m, torch.nn.Dropout):
            m.p = 0.0
    run_loss, run_ok, run_n, t_last = 0.0, 0, 0, time.time()
    while step < stop:
        frac = step / max(1, args.steps)
        scale = min(1.0, (step + 1) / args.warmup) * max(0.1, 1.0 - frac)
        for g, lr in zip(opt.param_groups, base_lrs, strict=False):
            g["lr"] = lr * scale
        loss, ok, n = mlm_loss(model, batcher.batch(step), bf16)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(list(params.values()), 1.0)
        opt.step()
        step += 1
        run_loss += float(loss.detach()) * n
        run_ok += ok
        run_n += n
        if step % 50 == 0:
            log.info(
                "step %d loss %.3f acc %.3f lr %.2e %.2fs/step",
                step,
                run_loss / run_n,
                run_ok / run_n,
                opt.param_groups[0]["lr"],
                (time.time() - t_last) / 50,
            )
            run_loss, run_ok, run_n, t_last = 0.0, 0, 0, time.time()
        if step % args.ckpt_every == 0 or step == stop:
            save_ckpt(ckpt, params, opt, step, {"args": {k: str(v) for k, v in vars(args).items()}})
        if step % args.eval_every == 0 or step == stop:
            model.eval()
            tot, okd, nd = 0.0, 0, 0
            with torch.no_grad():
                for b in range(20):
                    lo, o, n = mlm_loss(model, dev.batch(b), bf16)
                    tot += float(lo) * n
                    okd += o
                    nd += n
            model.train()
            log.info("dev step %d loss %.4f token-acc %.4f (%d masked tokens)", step, tot / nd, okd / nd, nd)
    log.info("done at step %d in %.0fs", step, time.time() - t0)
    if args.ship and step >= args.steps:
        fillmask.save_shipped(
            model,
            args.ship,
            args.train_layers,
            {
                "training": {
                    "steps": step,
                    "batch_size": args.batch_size,
                    "mask_prob": args.mask_prob,
                    "seed": args.seed,
                    "train_sentences": len(splits["train"]),
                },
                "length_prior": length_prior(tokenizer, splits["train"]),
            },
        )
        log.info("shipped to %s", args.ship)


def length_prior(tokenizer, sentences: list[str], n_max: int = 4) -> list[float]:
    """Share of content words with 1, 2, ... n_max WordPiece tokens (longer ones counted as n_max)."""
    c: Counter[int] = Counter()
    for i in range(0, min(len(sentences), 20000), 500):
        for s in sentences[i : i + 500]:
            for w in s.split():
                w = w.strip(".,;:()[]\"'")
                if content_word(w):
                    c[min(n_max, len(tokenizer.tokenize(w)))] += 1
    total = sum(c.values())
    return [round(c[n] / total, 5) for n in range(1, n_max + 1)]


if __name__ == "__main__":
    main()
