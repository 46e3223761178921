"""The judge's scientific minimal pairs (``claimforge.generate.minimal_pairs``) from scientific text that is
not a benchmark: the Citation-Integrity corpus abstracts, PLOS articles (JATS) and PubMed Central trial reports
(evidence-inference NXML). Sentences whose normalised text occurs in SciFact, HealthVer or COVID-Fact (claims
or evidence) are never used.

    python training/nli/sci_pairs.py --data ../shared/data --out build/sci_pairs
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
import tarfile
import time
from pathlib import Path

from claimforge.generate.minimal_pairs import MinimalPairsConfig, make_pairs
from claimforge.io.papers.jats import jats_document
from claimforge.io.sentences import load_corpus
from claimforge.io.splits import text_key
from claimforge.records import Document
from claimforge.registry import registry


def benchmark_texts(data: Path) -> set[str]:
    """Normalised claims and evidence sentences of the benchmarks (never training material)."""
    keys: set[str] = set()
    for corpus in (data / "scifact/corpus.jsonl", data / "healthver/corpus.jsonl"):
        if corpus.is_file():
            for line in corpus.open(encoding="utf-8"):
                row = json.loads(line)
                keys.update(text_key(s) for s in row.get("abstract", []))
    for claims in [*data.glob("scifact/claims_*.jsonl"), *data.glob("healthver/claims_*.jsonl")]:
        for line in claims.open(encoding="utf-8"):
            keys.add(text_key(json.loads(line)["claim"]))
    for tsv in data.glob("covidfact/*.tsv"):
        with tsv.open(encoding="utf-8", newline="") as f:
            for row in csv.reader(f, delimiter="\t"):
                keys.update(text_key(c) for c in row[1:3])
    csv.field_size_limit(sys.maxsize)
    for pairs in data.glob("healthver/*.csv"):
        with pairs.open(encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                keys.update(text_key(row.get(k) or "") for k in ("evidence", "claim"))
    keys.discard("")
    return keys


def documents(data: Path, max_pmc: int) -> list[Document]:
    docs: dict[str, Document] = {}
    for doc in load_corpus(data / "citation_integrity/corpus.jsonl").values():
        docs[f"ci{doc.id}"] = doc.model_copy(update={"id": f"ci{doc.id}"})
    for path in sorted((data / "papers/plos_jats").rglob("*.xml")):
        doc = jats_document(path.read_bytes(), f"plos-{path.stem}", str(path))
        docs[doc.id] = doc
    for path in sorted((data / "papers/evidence_inference/xml_sample_ev2_val_test").glob("*.nxml")):
        doc = jats_document(path.read_bytes(), f"pmc-{path.stem}", str(path))
        docs[doc.id] = doc
    tar = data / "papers/evidence_inference/xml_files.tar.xz"
    n = 0
    with tarfile.open(tar) as tf:
        for member in tf:
            if n >= max_pmc:
                break
            if not member.name.endswith(".nxml"):
                continue
            doc_id = f"pmc-{Path(member.name).stem}"
            f = tf.extractfile(member)
            if doc_id in docs or f is None:
                continue
            docs[doc_id] = jats_document(f.read(), doc_id, f"{tar}:{member.name}")
            n += 1
    return list(docs.values())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--data", type=Path, default=Path("../shared/data"))
    ap.add_argument("--out", type=Path, default=Path("build/sci_pairs"))
    ap.add_argument("--max-pmc", type=int, default=400, help="trial reports read from the evidence-inference tar")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument(
        "--overclaims",
        nargs="+",
        default=[],
        choices=["added_item", "hedge_removed"],
        help="also these NOT_ENOUGH_INFO claims that say more than their evidence",
    )
    args = ap.parse_args()
    t = time.perf_counter()
    args.out.mkdir(parents=True, exist_ok=True)
    exclude = benchmark_texts(args.data)
    docs = documents(args.data, args.max_pmc)
    print(f"{len(docs)} documents, {len(exclude)} benchmark texts excluded", flush=True)
    nlp = registry.build("nlp", {"name": "spacy"})
    ner = registry.build("ner", {"name": "spacy", "noun_chunks": False})
    # the added items are ranked by closeness to the mention with the bundled sentence encoder (ItemNeighbours);
    # fp32 torch, so that the same seed gives the same pairs on every CPU (bf16 could move a cosine across the band)
    embedder = (
        registry.build("embedder", {"name": "sentence-transformers", "runtime": "torch"})
        if "added_item" in args.overclaims
        else None
    )
    pairs, report = make_pairs(
        docs,
        MinimalPairsConfig(seed=args.seed, overclaims=tuple(args.overclaims)),
        parse=nlp.parse,
        mentions=ner.mentions,
        exclude=exclude,
        log=lambda m: print(m, flush=True),
        embed=embedder.embed if embedder is not None else None,
    )
    with open(args.out / "pairs.jsonl", "w", encoding="utf-8") as f:
        for p in pairs:
            f.write(p.model_dump_json() + "\n")
    report.update(seconds=round(time.perf_counter() - t, 1), seed=args.seed, max_pmc=args.max_pmc)
    (args.out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(report, indent=2), flush=True)


if __name__ == "__main__":
    main()
