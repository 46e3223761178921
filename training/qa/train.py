"""Train the embedded extractive reader (``qa-minilm``): a span head and the six encoder layers of the bundled
all-MiniLM-L6-v2 (the word embeddings stay the bundled model's and are not shipped).

Data (``../shared/data``):
- SQuAD v1.1 dev (the only SQuAD file here), split by article: articles whose title hashes into the held-out share
  (sha1 % 100 < 18) are never trained on and give the model card's exact match / F1 (all gold answers, SQuAD's
  official normalisation); the rest are training data.
- SciQ train: the questions whose correct answer occurs in the support paragraph (its first whole-word occurrence
  is the span). SciQ valid, made the same way, is a second held-out slice (science text, one gold answer).
No benchmark of claimforge's evaluation (SciFact, HealthVer, COVID-Fact, Climate-FEVER) is used.

    OMP_NUM_THREADS=1 ONEDNN_PRIMITIVE_CACHE_CAPACITY=64 python training/qa/train.py --data ../shared/data \
        --work build/qa/run1 --epochs 2 --ship src/claimforge/models/qa-minilm

Checkpoints (safetensors + JSON, every ``--ckpt-every`` steps) let a killed run resume with the same command;
``--init DIR`` starts from a shipped reader instead of the bare encoder.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import logging
import math
import random
import re
import sys
import time
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "src"))

from claimforge.backends import qa  # noqa: E402

log = logging.getLogger("qa")
HELD_OUT_SHARE = 18  # percent of SQuAD articles held out


def held_out(title: str) -> bool:
    return int(hashlib.sha1(title.encode()).hexdigest(), 16) % 100 < HELD_OUT_SHARE


def squad(path: Path) -> dict[str, list[dict]]:
    """{"train": [...], "test": [...]} of {id, question, context, answers: [{text, start}]}, split by article."""
    out: dict[str, list[dict]] = {"train": [], "test": []}
    for article in json.loads(path.read_text(encoding="utf-8"))["data"]:
        part = "test" if held_out(article["title"]) else "train"
        for para in article["paragraphs"]:
            for q in para["qas"]:
                answers = [{"text": a["text"], "start": a["answer_start"]} for a in q["answers"]]
                out[part].append(
                    {"id": q["id"], "question": q["question"], "context": para["context"], "answers": answers}
                )
    return out


def sciq(path: Path) -> tuple[list[dict], int]:
    """SciQ questions whose answer is a whole-word span of the support paragraph; and how many had none."""
    rows, missing = [], 0
    for i, r in enumerate(json.loads(path.read_text(encoding="utf-8"))):
        support, answer = r.get("support") or "", (r.get("correct_answer") or "").strip()
        m = re.search(rf"(?<!\w){re.escape(answer)}(?!\w)", support, flags=re.IGNORECASE) if answer else None
        if not m:
            missing += 1
            continue
        span = {"text": support[m.start() : m.end()], "start": m.start()}
        rows.append({"id": f"{path.stem}-{i}", "question": r["question"], "context": support, "answers": [span]})
    return rows, missing


def featurize(tokenizer, rows: list[dict], max_length: int, stride: int) -> list[tuple[list[int], list[int], int, int]]:
    """Training windows: (input ids, token types, start token, end token); a window without the first gold
    answer points at [CLS] (position 0), as in BERT's SQuAD recipe."""
    feats = []
    for b in range(0, len(rows), 256):
        part = rows[b : b + 256]
        enc = tokenizer(
            [r["question"].strip() for r in part],
            [r["context"] for r in part],
            truncation="only_second",
            max_length=max_length,
            stride=stride,
            return_overflowing_tokens=True,
            return_offsets_mapping=True,
        )
        for w, owner in enumerate(enc["overflow_to_sample_mapping"]):
            row = part[owner]
            a = row["answers"][0]
            start_char, end_char = a["start"], a["start"] + len(a["text"])
            seq = enc.sequence_ids(w)
            offsets = enc["offset_mapping"][w]
            ctx = [i for i, s in enumerate(seq) if s == 1]
            s_tok = e_tok = 0
            if ctx and offsets[ctx[0]][0] <= start_char and offsets[ctx[-1]][1] >= end_char:
                s_tok = next(i for i in ctx if offsets[i][1] > start_char)
                e_tok = next(i for i in reversed(ctx) if offsets[i][0] < end_char)
            feats.append((enc["input_ids"][w], enc["token_type_ids"][w], s_tok, e_tok))
    return feats


def batches(feats, batch_size: int, seed: int, epoch: int):
    """A seeded permutation per epoch, cut into chunks of 50 batches sorted by length (less padding)."""
    rng = random.Random(seed * 1000 + epoch)
    order = list(range(len(feats)))
    rng.shuffle(order)
    chunk = batch_size * 50
    out = []
    for c in range(0, len(order), chunk):
        part = sorted(order[c : c + chunk], key=lambda i: len(feats[i][0]))
        out.extend(part[b : b + batch_size] for b in range(0, len(part), batch_size))
    rng.shuffle(out)
    return out


def collate(feats, idx, pad_id: int):
    # widths rounded up to a multiple of 32: a handful of distinct shapes, so oneDNN's per-shape kernel cache (and
    # the process's memory) stays small; padding is masked, so the result is the same
    width = -(-max(len(feats[i][0]) for i in idx) // 32) * 32
    ids = torch.full((len(idx), width), pad_id, dtype=torch.long)
    types = torch.zeros((len(idx), width), dtype=torch.long)
    att = torch.zeros((len(idx), width), dtype=torch.long)
    for r, i in enumerate(idx):
        n = len(feats[i][0])
        ids[r, :n] = torch.tensor(feats[i][0])
        types[r, :n] = torch.tensor(feats[i][1])
        att[r, :n] = 1
    starts = torch.tensor([feats[i][2] for i in idx])
    ends = torch.tensor([feats[i][3] for i in idx])
    return ids, types, att, starts, ends


def evaluate(model, tokenizer, rows: list[dict], threads: int) -> dict[str, float]:
    """SQuAD exact match and F1 (max over the gold answers), in percent."""
    model.eval()
    engine = qa.SpanQAEngine(tokenizer, model, max_length=384, stride=128, batch_size=32, bf16=True)
    preds = engine.read([(r["question"], r["context"]) for r in rows])
    em = sum(max(qa.exact_match(p.text, a["text"]) for a in r["answers"]) for p, r in zip(preds, rows, strict=True))
    f1 = sum(max(qa.token_f1(p.text, a["text"]) for a in r["answers"]) for p, r in zip(preds, rows, strict=True))
    model.train()
    return {"exact_match": round(100 * em / len(rows), 2), "f1": round(100 * f1 / len(rows), 2), "n": len(rows)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=ROOT.parent / "shared" / "data")
    ap.add_argument("--work", type=Path, required=True)
    ap.add_argument("--init", type=Path, help="a shipped reader to start from")
    ap.add_argument("--epochs", type=float, default=2.0)
    ap.add_argument("--batch-size", type=int, default=32)
    ap.add_argument("--lr", type=float, default=1e-4)
    ap.add_argument("--warmup", type=float, default=0.1)
    ap.add_argument("--max-length", type=int, default=256)
    ap.add_argument("--stride", type=int, default=96)
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--ckpt-every", type=int, default=100)
    ap.add_argument("--max-steps", type=int, help="stop after this many steps (a pilot)")
    ap.add_argument("--eval-limit", type=int, help="evaluate on the first N held-out questions only")
    ap.add_argument("--ship", type=Path, help="write the final model here (fp16 tensors + header)")
    args = ap.parse_args()
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")
    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    args.work.mkdir(parents=True, exist_ok=True)

    sq = squad(args.data / "squad" / "dev-v1.1.json")
    sci_train, sci_missing = sciq(args.data / "sciq" / "train.json")
    sci_valid, _ = sciq(args.data / "sciq" / "valid.json")
    held_contexts = {r["context"] for r in sq["test"]}
    train_rows = [r for r in sq["train"] + sci_train if r["context"] not in held_contexts]
    counts = {
        "squad_train": len(sq["train"]),
        "squad_test": len(sq["test"]),
        "squad_test_articles": len({r["context"] for r in sq["test"]}),
        "sciq_train": len(sci_train),
        "sciq_train_without_span": sci_missing,
        "sciq_valid": len(sci_valid),
    }
    log.info("data %s", counts)

    model, tokenizer = qa.base_qa()
    if args.init:
        qa.load_shipped(model, args.init)
    for name, p in model.named_parameters():
        p.requires_grad = name in set(qa.trainable_names(model))
    feats = featurize(tokenizer, train_rows, args.max_length, args.stride)
    steps_per_epoch = math.ceil(len(feats) / args.batch_size)
    total = int(steps_per_epoch * args.epochs)
    log.info("%d windows, %d steps per epoch, %d steps", len(feats), steps_per_epoch, total)
    params = [p for p in model.parameters() if p.requires_grad]
    opt = torch.optim.AdamW(params, lr=args.lr, weight_decay=0.01)
    warm = max(1, int(args.warmup * total))
    sched = torch.optim.lr_scheduler.LambdaLR(
        opt, lambda s: min(1.0, (s + 1) / warm) * max(0.0, (total - s) / max(1, total - warm))
    )
    step = 0
    ckpt = args.work / "checkpoint.safetensors"
    if ckpt.is_file():
        state = json.loads((args.work / "checkpoint.json").read_text())
        named = dict(model.named_parameters())
        with torch.no_grad():
            for n, t in load_file(str(ckpt)).items():
                named[n].copy_(t)
        opt.load_state_dict(torch.load(args.work / "optimizer.pt", weights_only=True))  # written by this script
        sched.load_state_dict(state["scheduler"])
        step = state["step"]
        log.info("resumed at step %d", step)

    model.train()
    t0 = time.time()
    loss_avg = None
    epoch_batches: list = []
    while step < total and (args.max_steps is None or step < args.max_steps):
        epoch, pos = divmod(step, steps_per_epoch)
        if pos == 0 or not epoch_batches:
            epoch_batches = batches(feats, args.batch_size, args.seed, epoch)
        ids, types, att, s, e = collate(feats, epoch_batches[pos], tokenizer.pad_token_id)
        with torch.autocast("cpu", dtype=torch.bfloat16):
            out = model(input_ids=ids, token_type_ids=types, attention_mask=att, start_positions=s, end_positions=e)
        out.loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        opt.step()
        sched.step()
        opt.zero_grad(set_to_none=True)
        step += 1
        loss_avg = out.loss.item() if loss_avg is None else 0.98 * loss_avg + 0.02 * out.loss.item()
        if step % 20 == 0:
            rate = (time.time() - t0) / 20
            t0 = time.time()
            log.info("step %d/%d loss %.3f lr %.2e %.2f s/step", step, total, loss_avg, sched.get_last_lr()[0], rate)
        if step % args.ckpt_every == 0 or step == total:
            named = dict(model.named_parameters())
            save_file({n: named[n].detach().contiguous() for n in qa.trainable_names(model)}, str(ckpt))
            torch.save(opt.state_dict(), args.work / "optimizer.pt")
            (args.work / "checkpoint.json").write_text(json.dumps({"step": step, "scheduler": sched.state_dict()}))

    test = sq["test"][: args.eval_limit] if args.eval_limit else sq["test"]
    valid = sci_valid[: args.eval_limit] if args.eval_limit else sci_valid
    result = {
        "step": step,
        "squad_held_out": evaluate(model, tokenizer, test, args.threads),
        "sciq_valid": evaluate(model, tokenizer, valid, args.threads),
        "counts": counts,
        "args": {k: str(v) for k, v in vars(args).items()},
    }
    log.info("result %s", json.dumps(result))
    (args.work / f"result-{step}.json").write_text(json.dumps(result, indent=2))
    if args.ship and step >= total:
        meta = {
            "trained_on": "SQuAD v1.1 dev (82% of articles) + SciQ train (answer in support)",
            "squad_held_out": result["squad_held_out"],
            "sciq_valid": result["sciq_valid"],
            "steps": step,
            "seed": args.seed,
        }
        qa.save_shipped(model, args.ship, meta)
        log.info("shipped to %s", args.ship)


if __name__ == "__main__":
    main()
