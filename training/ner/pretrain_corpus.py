"""Unlabelled biomedical text for ``spacy pretrain`` (JSONL ``{"text": ...}``), pre-tokenised like the NER corpora.

    python training/ner/pretrain_corpus.py --data ../shared/data --out build/ner/pretrain/texts.jsonl \
        [--max-words 6000000]

Sources (all under ../shared/data): SciFact, Citation-Integrity and HealthVer abstracts (title + abstract), the
PubMed Central randomised-trial articles of Evidence-Inference (abstract and body paragraphs from the
``xml_files.tar.xz`` archive, read in place), and the *training and development* sentences of BC5CDR and
NCBI-disease (their test splits are never used). Texts are tokenised with the corpus rule (runs of letters/digits,
single other characters) and re-joined with spaces, so spaCy's default tokenizer in ``spacy pretrain`` keeps the
same tokens the NER sees. Order is shuffled with a fixed seed; at most ``--max-words`` tokens are written.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import tarfile
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path

from claimforge.nlp.entities import read_bio_tsv

TOKEN = re.compile(r"[^\W_]+|[^\w\s]|_")


def abstracts(path: Path) -> Iterator[str]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            row = json.loads(line)
            abstract = row.get("abstract") or []
            text = " ".join([row.get("title") or "", *(abstract if isinstance(abstract, list) else [abstract])])
            if text.strip():
                yield text


def nxml_paragraphs(blob: bytes) -> Iterator[str]:
    try:
        root = ET.fromstring(blob)
    except ET.ParseError:
        return
    for tag in ("abstract", "body"):
        for part in root.iter(tag):
            for p in part.iter("p"):
                text = " ".join("".join(p.itertext()).split())
                if len(text) > 40:
                    yield text


def evidence_inference(archive: Path) -> Iterator[str]:
    with tarfile.open(archive, "r:xz") as tar:
        for member in tar:
            if member.isfile() and member.name.endswith(".nxml"):
                f = tar.extractfile(member)
                if f is not None:
                    yield from nxml_paragraphs(f.read())


def bio_sentences(folder: Path, pattern: str) -> Iterator[str]:
    for split in ("train", "devel"):
        for words, _ in read_bio_tsv(folder / pattern.format(split=split)):
            yield " ".join(words)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/ner/pretrain/texts.jsonl"))
    ap.add_argument("--max-words", type=int, default=6_000_000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()

    d = args.data
    sources = {
        "scifact": abstracts(d / "scifact" / "corpus.jsonl"),
        "citation_integrity": abstracts(d / "citation_integrity" / "corpus.jsonl"),
        "healthver": abstracts(d / "healthver" / "corpus.jsonl"),
        "bc5cdr_train_devel": bio_sentences(d / "bc5cdr", "data__BC5CDR-IOB__{split}.tsv"),
        "ncbi_train_devel": bio_sentences(d / "ncbi_disease", "data__NCBI-disease-IOB__{split}.tsv"),
        "evidence_inference": evidence_inference(d / "papers" / "evidence_inference" / "xml_files.tar.xz"),
    }
    texts: list[str] = []
    counts: dict[str, dict[str, int]] = {}
    total = 0
    for name, it in sources.items():
        n_texts = n_words = 0
        for text in it:
            tokens = TOKEN.findall(text)
            if not tokens:
                continue
            texts.append(" ".join(tokens))
            n_texts += 1
            n_words += len(tokens)
            if total + n_words >= args.max_words:
                break
        total += n_words
        counts[name] = {"texts": n_texts, "words": n_words}
        if total >= args.max_words:
            break
    random.Random(args.seed).shuffle(texts)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w", encoding="utf-8") as f:
        for text in texts:
            f.write(json.dumps({"text": text}, ensure_ascii=False) + "\n")
    print(json.dumps({"sources": counts, "texts": len(texts), "words": total}, indent=1))


if __name__ == "__main__":
    main()
