"""Convert the BIO TSV corpora (BC5CDR, NCBI-disease) to spaCy DocBin files for ``spacy train``.

    python training/ner/convert.py --bc5cdr ../shared/data/bc5cdr --ncbi ../shared/data/ncbi_disease \
        --out build/ner/corpus [--n-sents 10] [--devel-holdout 0.2] [--mask-model PATH [--silver]]

Writes ``bc5cdr_{train,devel,test}.spacy`` and ``ncbi_{train,devel,test}.spacy`` (one Doc per ``n-sents``
consecutive sentences, gold tokens, entity spans from :func:`claimforge.nlp.entities.bio_to_spans`), and BC5CDR
devel cut in two: ``bc5cdr_devel_fit.spacy`` (its first 80% of sentences, used for training the final model) and
``bc5cdr_devel_holdout.spacy`` (the last 20%, used to pick the checkpoint).

NCBI-disease annotates diseases only: its chemicals are tagged ``O``, which would teach the model that they are not
entities. With ``--mask-model`` (a BC5CDR-trained pipeline) the tokens it tags ``Chemical`` in NCBI training
sentences (outside gold Disease spans) are marked *missing* instead of ``O`` (spaCy learns nothing about them),
written as ``ncbi_train_masked.spacy``; with ``--silver`` they are labelled Chemical instead
(``ncbi_train_silver.spacy``). A summary (counts per split) goes to stdout as JSON.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

import spacy
from spacy.tokens import Doc, DocBin, Span

from claimforge.nlp.entities import bio_to_spans, read_bio_tsv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tokenizer  # noqa: E402,F401  (registers the corpus tokenizer callback for loading model-best)

FILES = {
    "bc5cdr": "data__BC5CDR-IOB__{split}.tsv",
    "ncbi": "data__NCBI-disease-IOB__{split}.tsv",
}


def sentence_docs(vocab, path: Path) -> list[Doc]:  # type: ignore[no-untyped-def]
    docs = []
    for words, tags in read_bio_tsv(path):
        doc = Doc(vocab, words=words)
        doc.ents = [Span(doc, s, e, label=lab) for s, e, lab in bio_to_spans(tags)]
        docs.append(doc)
    return docs


def group(docs: list[Doc], n: int) -> list[Doc]:
    out = []
    for i in range(0, len(docs), n):
        part = docs[i : i + n]
        merged = Doc.from_docs(part, ensure_whitespace=True)
        starts, acc = set(), 0
        for d in part:
            starts.add(acc)
            acc += len(d)
        for tok in merged:
            tok.is_sent_start = tok.i in starts
        out.append(merged)
    return out


def mask_chemicals(docs: list[Doc], model: str, silver: bool = False, batch_size: int = 256) -> tuple[list[Doc], dict]:
    """Copies of ``docs`` where tokens of predicted Chemical entities (not overlapping gold entities) are missing
    (or, with ``silver``, labelled Chemical)."""
    nlp = spacy.load(model)
    out, n_masked_ents, n_masked_toks = [], 0, 0
    pred_docs = nlp.pipe((Doc(nlp.vocab, words=[t.text for t in d]) for d in docs), batch_size=batch_size)
    for gold, pred in zip(docs, pred_docs, strict=True):
        doc = Doc(gold.vocab, words=[t.text for t in gold], spaces=[bool(t.whitespace_) for t in gold])
        gold_ents = [Span(doc, e.start, e.end, label=e.label_) for e in gold.ents]
        covered = {i for e in gold.ents for i in range(e.start, e.end)}
        missing, silver_ents = [], []
        for e in pred.ents:
            if e.label_ == "Chemical" and not covered & set(range(e.start, e.end)):
                if silver:
                    silver_ents.append(Span(doc, e.start, e.end, label="Chemical"))
                else:
                    missing.append(Span(doc, e.start, e.end))
                n_masked_ents += 1
                n_masked_toks += e.end - e.start
        doc.set_ents(sorted(gold_ents + silver_ents), missing=missing, default="outside")
        for j, tok in enumerate(doc):
            tok.is_sent_start = gold[j].is_sent_start
        out.append(doc)
    return out, {"masked_chemical_mentions": n_masked_ents, "masked_tokens": n_masked_toks}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bc5cdr", type=Path, default=Path("../shared/data/bc5cdr"))
    ap.add_argument("--ncbi", type=Path, default=Path("../shared/data/ncbi_disease"))
    ap.add_argument("--out", type=Path, default=Path("build/ner/corpus"))
    ap.add_argument("--n-sents", type=int, default=10)
    ap.add_argument("--mask-model", default=None, help="BC5CDR-trained pipeline: mask its Chemicals in NCBI train")
    ap.add_argument(
        "--silver",
        action="store_true",
        help="with --mask-model: label the predicted Chemicals (ncbi_train_silver.spacy) instead of masking them",
    )
    ap.add_argument(
        "--devel-holdout",
        type=float,
        default=0.2,
        help="also split BC5CDR devel into bc5cdr_devel_fit.spacy (first 1-x of its sentences, for training) and "
        "bc5cdr_devel_holdout.spacy (the last x, for checkpoint selection)",
    )
    args = ap.parse_args()

    nlp = spacy.blank("en")
    args.out.mkdir(parents=True, exist_ok=True)
    summary: dict[str, dict] = {}
    for corpus, folder in (("bc5cdr", args.bc5cdr), ("ncbi", args.ncbi)):
        for split in ("train", "devel", "test"):
            sents = sentence_docs(nlp.vocab, folder / FILES[corpus].format(split=split))
            docs = group(sents, args.n_sents)
            labels = Counter(e.label_ for d in sents for e in d.ents)
            summary[f"{corpus}_{split}"] = {
                "sentences": len(sents),
                "docs": len(docs),
                "tokens": sum(len(d) for d in sents),
                "entities": dict(sorted(labels.items())),
            }
            if corpus == "bc5cdr" and split == "devel" and args.devel_holdout > 0:
                cut = round(len(sents) * (1 - args.devel_holdout))
                for name, part in (("fit", sents[:cut]), ("holdout", sents[cut:])):
                    DocBin(docs=group(part, args.n_sents), store_user_data=False).to_disk(
                        args.out / f"bc5cdr_devel_{name}.spacy"
                    )
                    summary[f"bc5cdr_devel_{name}"] = {
                        "sentences": len(part),
                        "entities": dict(sorted(Counter(e.label_ for d in part for e in d.ents).items())),
                    }
            if args.mask_model and corpus == "ncbi" and split == "train":
                masked, stats = mask_chemicals(docs, args.mask_model, silver=args.silver)
                name = "ncbi_train_silver" if args.silver else "ncbi_train_masked"
                DocBin(docs=masked, store_user_data=False).to_disk(args.out / f"{name}.spacy")
                summary[name] = stats
            DocBin(docs=docs, store_user_data=False).to_disk(args.out / f"{corpus}_{split}.spacy")
    print(json.dumps(summary, indent=1))


if __name__ == "__main__":
    main()
