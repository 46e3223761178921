"""Writing a built dataset: examples (JSONL + Parquet), rejects, SciFact and FEVER/NLI exports, manifest.

Every file is written to a temporary name and renamed into place, so an interrupted run never leaves a
half-written output that looks complete.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from claimforge.records import Example, Label, Reject

FEVER_LABELS = {Label.SUPPORTED: "SUPPORTS", Label.REFUTED: "REFUTES", Label.NOT_ENOUGH_INFO: "NOT ENOUGH INFO"}
NLI_LABELS = {Label.SUPPORTED: "entailment", Label.REFUTED: "contradiction", Label.NOT_ENOUGH_INFO: "neutral"}
SCIFACT_LABELS = {Label.SUPPORTED: "SUPPORT", Label.REFUTED: "CONTRADICT"}

_SENT = re.compile(r"(?<=[.!?])\s+(?=[\"'(\[]?[A-Z0-9])")


def split_sentences(text: str) -> list[str]:
    """Cheap sentence split for export (paragraph breaks, then end punctuation + capital)."""
    out: list[str] = []
    for para in text.split("\n"):
        out.extend(s.strip() for s in _SENT.split(para) if s.strip())
    return out


@contextmanager
def atomic_open(path: Path, mode: str = "w") -> Iterator[IO[Any]]:
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    enc = None if "b" in mode else "utf-8"
    try:
        with open(tmp, mode, encoding=enc) as f:
            yield f
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if tmp.exists():
            tmp.unlink()


def _jsonl(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    n = 0
    with atomic_open(path) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def example_row(e: Example) -> dict[str, Any]:
    return e.model_dump(mode="json")


def write_examples(out: Path, examples: list[Example]) -> None:
    _jsonl(out / "examples.jsonl", (example_row(e) for e in examples))
    write_parquet(out / "examples.parquet", examples)


def write_parquet(path: Path, examples: list[Example]) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    cols: dict[str, list[Any]] = {
        k: [] for k in ("id", "claim", "evidence", "evidence_id", "label", "source_item_id", "method", "provenance")
    }
    for e in examples:
        cols["id"].append(e.id)
        cols["claim"].append(e.claim)
        cols["evidence"].append(e.evidence)
        cols["evidence_id"].append(e.evidence_id)
        cols["label"].append(e.label.value)
        cols["source_item_id"].append(e.source_item_id)
        cols["method"].append(e.method)
        cols["provenance"].append(json.dumps(e.provenance.model_dump(mode="json"), ensure_ascii=False))
    with atomic_open(path, "wb") as f:
        pq.write_table(pa.table(cols), f)


def write_rejects(out: Path, rejects: list[Reject]) -> None:
    _jsonl(out / "rejects.jsonl", (r.model_dump(mode="json") for r in rejects))


def write_fever(out: Path, examples: list[Example]) -> None:
    """FEVER-style claim/evidence/label rows and NLI premise/hypothesis pairs."""
    _jsonl(
        out / "fever" / "examples.jsonl",
        ({"id": e.id, "claim": e.claim, "evidence": e.evidence, "label": FEVER_LABELS[e.label]} for e in examples),
    )
    _jsonl(
        out / "nli" / "pairs.jsonl",
        ({"id": e.id, "premise": e.evidence, "hypothesis": e.claim, "label": NLI_LABELS[e.label]} for e in examples),
    )


def write_scifact(out: Path, examples: list[Example]) -> None:
    """SciFact format: corpus.jsonl (doc_id, title, abstract sentences) and claims.jsonl.

    Generated evidence has no sentence-level rationale, so every sentence of the document is listed
    as the rationale of SUPPORTED/REFUTED claims; NEI claims cite the document with no evidence.
    """
    doc_ids: dict[str, int] = {}
    docs: list[dict[str, Any]] = []
    claims: list[dict[str, Any]] = []
    for n, e in enumerate(examples):
        if e.evidence_id not in doc_ids:
            doc_ids[e.evidence_id] = len(doc_ids)
            docs.append(
                {
                    "doc_id": doc_ids[e.evidence_id],
                    "title": e.evidence_id,
                    "abstract": split_sentences(e.evidence),
                    "structured": False,
                }
            )
        d = doc_ids[e.evidence_id]
        row: dict[str, Any] = {"id": n, "claim": e.claim, "evidence": {}, "cited_doc_ids": [d], "claimforge_id": e.id}
        if e.label in SCIFACT_LABELS:
            n_sents = len(docs[d]["abstract"])
            row["evidence"] = {str(d): [{"sentences": list(range(n_sents)), "label": SCIFACT_LABELS[e.label]}]}
        claims.append(row)
    _jsonl(out / "scifact" / "corpus.jsonl", docs)
    _jsonl(out / "scifact" / "claims.jsonl", claims)


def write_json(path: Path, data: Any) -> None:
    with atomic_open(path) as f:
        json.dump(data, f, indent=2, ensure_ascii=False, default=str)
        f.write("\n")


def read_examples(path: Path) -> list[Example]:
    """Read ``examples.jsonl`` back (errors name the file and line)."""
    out: list[Example] = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(Example.model_validate_json(line))
            except ValueError as e:
                raise ValueError(f"{path}:{i}: not a claimforge example: {e}") from None
    return out
