"""Running a recipe end to end: read the source, run the pipeline, write the dataset, report and manifest.

Shared by ``claimforge build`` and ``claimforge demo``; the CLI only parses options.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import platform
import time
from collections.abc import Iterable, Iterator
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from claimforge import __version__
from claimforge.config import pipeline_spec
from claimforge.evaluate.report import write_report
from claimforge.io.dataset import write_examples, write_fever, write_json, write_rejects, write_scifact
from claimforge.progress import Progress, SilentProgress
from claimforge.records import MCQItem, Reject
from claimforge.registry import registry


def _versions() -> dict[str, str]:
    out = {"claimforge": __version__, "python": platform.python_version()}
    for pkg in ("spacy", "torch", "sentence-transformers", "transformers", "numpy"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[pkg] = metadata.version(pkg)
    return out


def _file_sha256(path: str) -> str | None:
    p = Path(path)
    if not p.is_file():
        return None
    h = hashlib.sha256()
    with open(p, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _counted(records: Iterable[MCQItem | Reject], tick: Any) -> Iterator[MCQItem | Reject]:
    n = 0
    for r in records:
        n += 1
        if n % 500 == 0:
            tick(n, 0)
        yield r
    tick(n, n)


def run_build(
    recipe: dict[str, Any],
    out: Path,
    *,
    limit: int | None = None,
    skip_bad: bool = False,
    progress: Progress | None = None,
    command: str = "",
) -> dict[str, Any]:
    """Build the dataset a recipe describes into ``out``; returns the manifest."""
    progress = progress or SilentProgress()
    started = time.time()
    spec = pipeline_spec(recipe)
    reader_spec = spec.get("reader")
    if not reader_spec:
        raise ValueError("the recipe has no reader: give --input NAME:PATH")
    reader = registry.build("reader", reader_spec)
    pipeline = registry.build("pipeline", spec)
    timings: dict[str, float] = {}

    t0 = time.time()
    with progress.stage("read") as tick:
        records = list(_counted(itertools.islice(reader.read(skip_bad=skip_bad), limit), tick))
    timings["read"] = time.time() - t0

    t0 = time.time()
    result = pipeline.build(records, progress=progress)
    timings["generate"] = time.time() - t0

    t0 = time.time()
    out.mkdir(parents=True, exist_ok=True)
    # manifest.json marks a finished build: removed before writing, written last.
    (out / "manifest.json").unlink(missing_ok=True)
    with progress.stage("write") as tick:
        write_examples(out, result.examples)
        write_rejects(out, result.rejects)
        write_fever(out, result.examples)
        write_scifact(out, result.examples)
        tick(1, 1)
    manifest: dict[str, Any] = {
        "command": command,
        "pipeline": spec["name"],
        "recipe": _redacted(recipe),
        "input": {
            "reader": reader_spec,
            "sha256": _file_sha256(str(reader_spec.get("path", ""))),
            "limit": limit,
            "skip_bad": skip_bad,
        },
        "components": result.components,
        "versions": _versions(),
        "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
    }
    stats = write_report(out, f"{spec['name']} dataset", result.examples, result.rejects, result.n_input, manifest)
    timings["write"] = time.time() - t0
    timings["total"] = time.time() - started
    manifest["counts"] = {k: stats[k] for k in ("items_in", "items_used", "items_rejected", "examples", "labels")}
    manifest["timings_s"] = {k: round(v, 2) for k, v in timings.items()}
    written = {str(p.relative_to(out)) for p in out.rglob("*") if p.is_file() and not p.name.startswith(".")}
    manifest["files"] = sorted(written | {"manifest.json"})
    write_json(out / "manifest.json", manifest)
    return manifest


def _redacted(node: Any) -> Any:
    """The recipe as it goes into the manifest: server URLs without ``user:password@``."""
    from claimforge.backends.llm import safe_url

    if isinstance(node, dict):
        return {k: safe_url(v) if k == "base_url" and isinstance(v, str) else _redacted(v) for k, v in node.items()}
    if isinstance(node, list):
        return [_redacted(v) for v in node]
    return node
