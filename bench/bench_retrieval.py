"""Retrieval speed: claimforge's BM25 retriever against raw ``bm25s`` on the same corpus, and the dense and hybrid
retrievers' build and query speed.

BM25: the SciFact corpus (5,183 abstracts) split into its sentences, queried with the SciFact train + dev claims
(top 10). Raw bm25s is the README usage (``bm25s.tokenize`` with English stopwords and the same stemmer, then
``BM25().index`` and ``retrieve``; its ``save`` is timed apart); claimforge's build is ``index()`` into an empty
index folder (fingerprint of the corpus, unit table, bm25s build, save to disk), its load is a second ``index()``
of the same corpus (from disk), its query is ``search()`` (tokenise, bm25s retrieve, hits). Both must return the
same top-10 units.

Dense and hybrid: the first ``--dense-docs`` abstracts (sentence unit), the bundled MiniLM embedder without its
text cache (every build embeds), ``--dense-queries`` claims. Medians of ``--runs`` runs; prints JSON.

    OMP_NUM_THREADS=1 python bench/bench_retrieval.py --threads 1 --runs 5
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
DATA = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", REPO.parent / "shared" / "data")) / "scifact"


def _claims() -> list[str]:
    out = []
    for name in ("claims_train.jsonl", "claims_dev.jsonl"):
        with open(DATA / name, encoding="utf-8") as f:
            out.extend(json.loads(line)["claim"] for line in f if line.strip())
    return out


def _median(xs: list[float]) -> float:
    return round(statistics.median(xs), 4)


def _timed(fn: Any) -> tuple[float, Any]:
    t = time.perf_counter()
    out = fn()
    return time.perf_counter() - t, out


def bench_bm25(docs: list[Any], queries: list[str], runs: int, k: int) -> dict[str, Any]:
    import bm25s
    import numpy as np

    from claimforge.backends.retrieval import _stemmer
    from claimforge.registry import registry

    stemmer_name, stem = _stemmer("auto")
    texts = [s for d in docs for s in d.sentences if s]
    raw_build, raw_save, raw_query, cf_build, cf_load, cf_query = [], [], [], [], [], []
    raw_ids: Any = None
    cf_hits: Any = None
    for _ in range(runs):

        def raw_index() -> Any:
            r = bm25s.BM25()
            r.index(bm25s.tokenize(texts, stopwords="en", stemmer=stem, show_progress=False), show_progress=False)
            return r

        t, raw = _timed(raw_index)
        raw_build.append(t)
        with tempfile.TemporaryDirectory() as tmp:
            t, _ = _timed(lambda raw=raw, tmp=tmp: raw.save(tmp))
            raw_save.append(t)
        t, res = _timed(
            lambda raw=raw: raw.retrieve(
                bm25s.tokenize(queries, stopwords="en", stemmer=stem, show_progress=False),
                k=k,
                show_progress=False,
                n_threads=0,
            )
        )
        raw_query.append(t)
        raw_ids = res.documents
        with tempfile.TemporaryDirectory() as tmp:
            spec = {"name": "bm25", "index_dir": tmp, "units": ["sentence"]}
            ours = registry.build("retriever", spec)
            t, _ = _timed(lambda ours=ours: ours.index(docs))
            cf_build.append(t)
            again = registry.build("retriever", spec)
            t, _ = _timed(lambda again=again: again.index(docs))
            cf_load.append(t)
            assert again.stats == {"built": 0, "loaded": 1}
            t, cf_hits = _timed(lambda again=again: again.search(queries, k=k, unit="sentence"))
            cf_query.append(t)
    # the same units: unit i of the sentence table is the i-th non-empty sentence, as in ``texts``
    offsets: dict[tuple[str, int], int] = {}
    for d in docs:
        for j, s in enumerate(d.sentences):
            if s:
                offsets[(d.id, j)] = len(offsets)
    same = 0
    for row, hits in zip(raw_ids, cf_hits, strict=True):
        ours_ids = [offsets[(h.doc_id, h.start)] for h in hits]
        same += ours_ids == [int(u) for u in np.asarray(row)[: len(ours_ids)]]
    return {
        "stemmer": stemmer_name,
        "units": len(texts),
        "queries": len(queries),
        "k": k,
        "raw_bm25s_build_s": _median(raw_build),
        "raw_bm25s_save_s": _median(raw_save),
        "claimforge_build_s": _median(cf_build),
        "claimforge_load_s": _median(cf_load),
        "raw_bm25s_query_s": _median(raw_query),
        "claimforge_query_s": _median(cf_query),
        "raw_queries_per_s": round(len(queries) / statistics.median(raw_query), 1),
        "claimforge_queries_per_s": round(len(queries) / statistics.median(cf_query), 1),
        "same_top_k": f"{same}/{len(queries)}",
    }


def bench_dense(docs: list[Any], queries: list[str], runs: int, k: int) -> dict[str, Any]:
    from claimforge.registry import registry

    embedder = {"name": "sentence-transformers", "use_cache": False}
    out: dict[str, Any] = {"documents": len(docs), "units": sum(1 for d in docs for s in d.sentences if s)}
    out["queries"] = len(queries)
    for name in ("dense", "hybrid"):
        builds, loads, searches = [], [], []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as tmp:
                spec: dict[str, Any] = {"name": name, "index_dir": tmp, "units": ["sentence"]}
                if name == "dense":
                    spec["embedder"] = embedder
                else:
                    spec["dense"] = {"name": "dense", "embedder": embedder}
                r = registry.build("retriever", spec)
                registry.build("embedder", embedder).embed(["warm up"])  # the model load is not timed
                t, _ = _timed(lambda r=r: r.index(docs))
                builds.append(t)
                again = registry.build("retriever", spec)
                t, _ = _timed(lambda again=again: again.index(docs))
                loads.append(t)
                t, _ = _timed(lambda again=again: again.search(queries, k=k, unit="sentence"))
                searches.append(t)
        out[name] = {
            "build_s": _median(builds),
            "units_per_s": round(out["units"] / statistics.median(builds), 1),
            "load_s": _median(loads),
            "query_s": _median(searches),
            "queries_per_s": round(len(queries) / statistics.median(searches), 1),
        }
    return out


def bench_passages(docs: list[Any], grid: list[tuple[int, int]], k: int) -> dict[str, Any]:
    """BM25 passage retrieval for SciFact train claims with evidence, per (size, stride): the share of claims whose
    top-k passages include one of a gold evidence document (doc recall) and one holding a gold rationale sentence
    (rationale recall), and the mean words per passage (longer passages make both easier)."""
    from claimforge.registry import registry

    claims, rationales = [], []
    with open(DATA / "claims_train.jsonl", encoding="utf-8") as f:
        for line in f:
            rec = json.loads(line)
            if rec.get("evidence"):
                claims.append(rec["claim"])
                rationales.append({(d, s) for d, sets in rec["evidence"].items() for e in sets for s in e["sentences"]})
    out: dict[str, Any] = {"claims": len(claims), "k": k}
    with tempfile.TemporaryDirectory() as tmp:
        for size, stride in grid:
            spec = {"name": "bm25", "index_dir": tmp, "units": ["passage"]}
            r = registry.build("retriever", {**spec, "passage_sentences": size, "passage_stride": stride})
            r.index(docs)
            hits = r.search(claims, k=k, unit="passage")
            doc_hit = sum(
                any(h.doc_id in {d for d, _ in g} for h in hs) for hs, g in zip(hits, rationales, strict=True)
            )
            rat_hit = sum(
                any((h.doc_id, s) in g for h in hs for s in range(h.start, h.end))
                for hs, g in zip(hits, rationales, strict=True)
            )
            words = [len(h.text.split()) for hs in hits for h in hs]
            out[f"{size}/{stride}"] = {
                "doc_recall": round(100 * doc_hit / len(claims), 2),
                "rationale_recall": round(100 * rat_hit / len(claims), 2),
                "words_per_passage": round(sum(words) / max(len(words), 1), 1),
            }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--dense-runs", type=int, default=3)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--threads", type=int, default=1, help="torch and faiss threads")
    ap.add_argument("--dense-docs", type=int, default=500, help="abstracts for the dense and hybrid runs (0: none)")
    ap.add_argument("--dense-queries", type=int, default=300)
    ap.add_argument("--passage-grid", default="", help="size/stride pairs for bench_passages, e.g. 2/1,3/2,4/2,5/3")
    ap.add_argument("--out", type=Path, default=None)
    args = ap.parse_args()

    import faiss
    import torch

    torch.set_num_threads(args.threads)
    faiss.omp_set_num_threads(args.threads)

    from claimforge.backends.retrieval import read_corpus

    docs = read_corpus(DATA / "corpus.jsonl")
    queries = _claims()
    result: dict[str, Any] = {
        "machine": f"{platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, {args.threads} thread(s)"
    }
    if args.passage_grid:
        grid = [(int(a), int(b)) for a, b in (x.split("/") for x in args.passage_grid.split(","))]
        result["passages"] = bench_passages(docs, grid, args.k)
        print(json.dumps(result["passages"], indent=1), flush=True)
    if args.runs:
        result["runs"] = args.runs
        result["bm25"] = bench_bm25(docs, queries, args.runs, args.k)
        print(json.dumps(result["bm25"], indent=1), flush=True)
    if args.dense_docs:
        result["dense_runs"] = args.dense_runs
        result["dense"] = bench_dense(docs[: args.dense_docs], queries[: args.dense_queries], args.dense_runs, args.k)
        print(json.dumps(result["dense"], indent=1), flush=True)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
