"""Running a recipe end to end: read the source, run the pipeline, write the dataset, report and manifest.

Shared by ``claimforge build`` and ``claimforge demo``; the CLI only parses options.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import platform
import time
from collections.abc import Iterable
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any

from claimforge import __version__, engine
from claimforge.config import pipeline_spec
from claimforge.evaluate.report import write_report
from claimforge.io.dataset import write_examples, write_json, write_rejects
from claimforge.io.exports import write_exports
from claimforge.io.outdir import check_output_dir
from claimforge.progress import Progress, SilentProgress
from claimforge.records import MCQItem, Reject
from claimforge.redact import redact, redact_tree
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


def run_build(
    recipe: dict[str, Any],
    out: Path,
    *,
    limit: int | None = None,
    skip_bad: bool = False,
    progress: Progress | None = None,
    command: str = "",
    force: bool = False,
    chunk_size: int = engine.CHUNK_SIZE,
) -> dict[str, Any]:
    """Build the dataset a recipe describes into ``out``; returns the manifest.

    The output folder is checked first (:func:`claimforge.io.outdir.check_output_dir`: not the root or home
    folder, no foreign files unless ``force``); the manifest lists only the files this build wrote, and no
    credential reaches it or the report (:func:`claimforge.redact.redact`)."""
    progress = progress or SilentProgress()
    started = time.time()
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive number of records (got {limit})")
    target = check_output_dir(out, force=force)
    spec = pipeline_spec(recipe)
    reader_spec = spec.get("reader")
    if not reader_spec:
        raise ValueError("the recipe has no reader: give --input NAME:PATH")
    reader = registry.build("reader", reader_spec)
    pipeline = registry.build("pipeline", spec)
    timings: dict[str, float] = {}
    input_id = {
        "reader": reader_spec,
        "sha256": _file_sha256(str(reader_spec.get("path", ""))),
        "limit": limit,
        "skip_bad": skip_bad,
    }
    target.mark()  # the stored stage outputs live in the output folder, so it is claimed before they are written

    def records() -> Iterable[MCQItem | Reject]:
        return itertools.islice(reader.read(skip_bad=skip_bad), limit)

    t0 = time.time()
    result = engine.run(pipeline, records, input_id, engine.ChunkStore([out]), chunk_size=chunk_size, progress=progress)
    timings["generate"] = time.time() - t0

    t0 = time.time()
    target.start()  # marks the folder as a claimforge build; removes the previous build's outputs
    # manifest.json marks a finished build: removed before writing, written last.
    (out / "manifest.json").unlink(missing_ok=True)
    with progress.stage("write") as tick:
        write_examples(out, result.examples)
        write_rejects(out, result.rejects)
        exports = write_exports(out, result.examples)
        tick(1, 1)
    manifest: dict[str, Any] = {
        "command": redact(command),
        "pipeline": spec["name"],
        "recipe": recipe,
        "input": input_id,
        "chunk_size": chunk_size,
        "components": result.components,
        "exports": exports,
        "versions": _versions(),
        "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
    }
    if target.replaced is not None:
        manifest["replaced_build"] = {k: target.replaced.get(k) for k in ("pipeline", "started", "command")}
    manifest = redact_tree(manifest)
    stats = write_report(out, f"{spec['name']} dataset", result.examples, result.rejects, result.n_input, manifest)
    timings["write"] = time.time() - t0
    timings["total"] = time.time() - started
    manifest["counts"] = {k: stats[k] for k in ("items_in", "items_used", "items_rejected", "examples", "labels")}
    manifest["timings_s"] = {k: round(v, 2) for k, v in timings.items()}
    manifest["files"] = sorted(set(target.written()) | {"manifest.json"})
    write_json(out / "manifest.json", manifest)
    return manifest
