"""Writing a built dataset: examples (JSONL + Parquet), rejects, JSON files (exports: ``io/exports.py``).

Every file is written to a temporary name and renamed into place, so an interrupted run never leaves a
half-written output that looks complete.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

from claimforge.records import Example, Reject


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


def jsonl_file(path: Path, rows: Iterable[dict[str, Any]]) -> int:
    """Write ``rows`` as JSON lines, atomically; returns how many."""
    n = 0
    with atomic_open(path) as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
            n += 1
    return n


def example_row(e: Example) -> dict[str, Any]:
    return e.model_dump(mode="json", exclude=None if e.qa_pairs else {"qa_pairs"})


def write_examples(out: Path, examples: list[Example]) -> None:
    jsonl_file(out / "examples.jsonl", (example_row(e) for e in examples))
    write_parquet(out / "examples.parquet", examples)


PARQUET_ROWS = 10_000  # rows per Parquet row group: the columns of one group are in memory at a time


def write_parquet(path: Path, examples: list[Example]) -> None:
    """``examples.parquet``, one row group of :data:`PARQUET_ROWS` examples at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    with_qa = any(e.qa_pairs for e in examples)  # FACTIFY-5WQA's pairs, as JSON (a list per example)
    first = pa.table(_parquet_columns(examples[:PARQUET_ROWS], with_qa))  # an empty build: one empty group
    with atomic_open(path, "wb") as f, pq.ParquetWriter(f, first.schema) as writer:
        writer.write_table(first)
        for start in range(PARQUET_ROWS, len(examples), PARQUET_ROWS):
            writer.write_table(pa.table(_parquet_columns(examples[start : start + PARQUET_ROWS], with_qa)))


def _parquet_columns(examples: list[Example], with_qa: bool) -> dict[str, list[Any]]:
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
    if with_qa:
        cols["qa_pairs"] = [
            json.dumps([q.model_dump(mode="json") for q in e.qa_pairs], ensure_ascii=False) for e in examples
        ]
    return cols


def write_rejects(out: Path, rejects: list[Reject]) -> None:
    jsonl_file(out / "rejects.jsonl", (r.model_dump(mode="json") for r in rejects))


def write_json(path: Path, data: Any) -> None:
    with atomic_open(path) as f:
        json.dump(data, f, indent=2, ensure_ascii=False, default=str)
        f.write("\n")


def _read_records(path: Path, model: type[Any], what: str) -> list[Any]:
    out: list[Any] = []
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if not line.strip():
                continue
            try:
                out.append(model.model_validate_json(line))
            except ValueError as e:
                raise ValueError(f"{path}:{i}: not a claimforge {what}: {e}") from None
    return out


def read_examples(path: Path) -> list[Example]:
    """Read ``examples.jsonl`` back (errors name the file and line)."""
    return _read_records(path, Example, "example")


def read_rejects(path: Path) -> list[Reject]:
    """Read ``rejects.jsonl`` back (errors name the file and line)."""
    return _read_records(path, Reject, "reject record")
