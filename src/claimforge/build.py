"""Running a recipe end to end: read the source, run the pipeline, write the dataset, report and manifest.

Shared by ``claimforge build`` and ``claimforge demo``; the CLI only parses options.
"""

from __future__ import annotations

import contextlib
import hashlib
import itertools
import json
import platform
import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib import metadata
from pathlib import Path
from typing import Any, Literal

from claimforge import __version__, engine
from claimforge.config import pipeline_spec
from claimforge.evaluate.report import write_report
from claimforge.io.dataset import write_examples, write_json, write_rejects
from claimforge.io.exports import write_exports
from claimforge.io.outdir import OutputDir, check_output_dir
from claimforge.io.rows import files_under
from claimforge.nlp.sentences import SPLITTER_VERSION
from claimforge.pipeline import BuildResult
from claimforge.progress import Progress, SilentProgress
from claimforge.records import MCQItem, Reject
from claimforge.redact import redact, redact_tree
from claimforge.registry import registry

SHARD_FILE = "shard.json"


def _versions() -> dict[str, str]:
    out = {"claimforge": __version__, "python": platform.python_version()}
    for pkg in ("spacy", "torch", "sentence-transformers", "transformers", "numpy"):
        with contextlib.suppress(metadata.PackageNotFoundError):
            out[pkg] = metadata.version(pkg)
    return out


def _input_sha256(path: str) -> str | None:
    """What the stored chunks of a build depend on in its input: a file's bytes; for a folder, the list of its
    files (walked as the readers walk it, symbolic links followed) with their sizes and modification times, so
    a file added, removed or rewritten recomputes the chunks instead of resuming with records that moved."""
    p = Path(path)
    h = hashlib.sha256()
    if p.is_dir():
        for f in files_under(p):
            try:
                st = f.stat()
                entry = f"{st.st_size}\0{st.st_mtime_ns}"
            except OSError:  # a dangling link: the reader rejects it; it still belongs to the list
                entry = "unreadable"
            h.update(f"{f.relative_to(p).as_posix()}\0{entry}\n".encode())
        return "folder:" + h.hexdigest()
    if not p.is_file():
        return None
    with open(p, "rb") as stream:
        for chunk in iter(lambda: stream.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _check_not_inside_input(out: str | Path, reader_spec: dict[str, Any]) -> None:
    """An output folder inside a folder input would be read back as input (and change the input's fingerprint,
    so the build could never resume)."""
    src = reader_spec.get("path")
    if not src or not Path(src).is_dir():
        return
    inp, dest = Path(src).resolve(), Path(out).expanduser().resolve()
    if dest == inp or dest.is_relative_to(inp):
        raise ValueError(
            f"--out {out} is inside the input folder {src}: the build would read its own files; "
            "choose an output folder outside it"
        )


@dataclass
class _Setup:
    """A recipe checked and its components named (nothing loaded): what builds, shards and merges share."""

    recipe: dict[str, Any]
    spec: dict[str, Any]
    reader: Any
    pipeline: Any
    input_id: dict[str, Any]
    limit: int | None
    skip_bad: bool

    def records(self) -> Iterable[MCQItem | Reject]:
        return itertools.islice(self.reader.read(skip_bad=self.skip_bad), self.limit)


def _setup(recipe: dict[str, Any], limit: int | None, skip_bad: bool, chunk_size: int) -> _Setup:
    if limit is not None and limit < 1:
        raise ValueError(f"--limit must be a positive number of records (got {limit})")
    if chunk_size < 1:
        raise ValueError(f"--chunk-size must be a positive number of records (got {chunk_size})")
    spec = pipeline_spec(recipe)
    reader_spec = spec.get("reader")
    if not reader_spec:
        raise ValueError("the recipe has no reader: give --input NAME:PATH")
    reader = registry.build("reader", reader_spec)  # nothing read or loaded yet
    pipeline = registry.build("pipeline", spec)
    _check_reader_fits(reader_spec, reader, spec["name"], pipeline)  # before the input is hashed or read
    input_id = {
        "reader": reader_spec,
        "sha256": _input_sha256(str(reader_spec.get("path", ""))),
        "limit": limit,
        "skip_bad": skip_bad,
        "chunk_size": chunk_size,
        "splitter": SPLITTER_VERSION,  # readers split text: stored chunks of another splitter are not reused
        "reader_version": getattr(reader, "version", "1"),  # nor chunks a reader's older code read
    }
    return _Setup(recipe, spec, reader, pipeline, input_id, limit, skip_bad)


def _check_reader_fits(reader_spec: dict[str, Any], reader: Any, pipeline_name: str, pipeline: Any) -> None:
    """A pipeline reads one kind of record (multiple-choice questions, sentences, papers): a reader of another
    kind is refused before anything is read or loaded, naming the readers that fit."""
    made, wanted = getattr(reader, "item_type", None), pipeline.item_type
    if made is None or issubclass(made, wanted):
        return
    fits = []
    for name in registry.names("reader"):
        cls = registry.entry("reader", name).factory
        if isinstance(cls, type) and issubclass(getattr(cls, "item_type", object), wanted):
            fits.append(name)
    raise ValueError(
        f"reader {reader_spec.get('name')!r} gives {made.__name__} records, but the {pipeline_name} pipeline reads "
        f"{wanted.__name__} records; its readers: {', '.join(fits) or 'none'}"
    )


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
    shard: tuple[int, int] | None = None,
    workers: int = 1,
    engine_name: Literal["local", "ray"] = "local",
    ray_address: str | None = None,
) -> dict[str, Any]:
    """Build the dataset a recipe describes into ``out``; returns the manifest.

    The output folder is checked first (:func:`claimforge.io.outdir.check_output_dir`: not the root or home
    folder, no foreign files unless ``force``); the manifest lists only the files this build wrote, and no
    credential reaches it or the report (:func:`claimforge.redact.redact`). Every finished stage of every chunk
    is stored under ``out/.stages``: the same command after an interruption redoes only what is missing.

    ``shard=(i, n)`` (0-based) runs the map stages of this shard's chunks only and writes ``shard.json``
    instead of a dataset; :func:`run_merge` joins the shards. ``workers > 1`` runs the map stages in that many
    processes (each with its own models) and the global stages here; ``engine_name="ray"`` runs them as Ray Data
    ``map_batches`` on a local Ray or the cluster at ``ray_address`` (:mod:`claimforge.ray_engine`)."""
    progress = progress or SilentProgress()
    started = time.time()
    target = check_output_dir(out, force=force)
    if shard is not None and not (shard[1] >= 1 and 0 <= shard[0] < shard[1]):
        raise ValueError(f"--shard must be I/N with 1 <= I <= N (got {shard[0] + 1}/{shard[1]})")
    if workers < 1:
        raise ValueError(f"--workers must be at least 1 (got {workers})")
    if engine_name not in ("local", "ray"):
        raise ValueError(f"--engine must be local or ray (got {engine_name!r})")
    setup = _setup(recipe, limit, skip_bad, chunk_size)
    _check_not_inside_input(out, setup.spec.get("reader") or {})
    target.mark()  # the stored stage outputs live in the output folder, so it is claimed before they are written
    store = engine.ChunkStore([out])
    plan = engine.plan(setup.pipeline, setup.input_id)
    if shard is not None and shard[1] > 1:
        outcome = engine.map_phase(
            setup.pipeline, setup.records, plan, store, chunk_size=chunk_size, shard=shard, progress=progress
        )
        info = redact_tree(
            {
                "shard": [shard[0] + 1, shard[1]],
                "command": redact(command),
                "recipe": recipe,
                "input": setup.input_id,
                "fingerprints": {s.name: fp for s, fp in plan.maps},
                "chunks": outcome.n_chunks,
                "computed": outcome.computed,
                "versions": _versions(),
                "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
                "seconds": round(time.time() - started, 2),
            }
        )
        write_json(out / SHARD_FILE, info)
        return info
    t0 = time.time()
    extra: dict[str, Any] = {"engine": engine_name, "workers": workers}
    if engine_name == "ray":
        from claimforge.ray_engine import ray_map

        with progress.stage(f"map stages (ray, {workers} actors)") as tick:
            extra["stages_computed"] = ray_map(setup, plan, store, workers=workers, address=ray_address, tick=tick)
    elif workers > 1:
        with progress.stage(f"map stages ({workers} worker processes)") as tick:
            extra["stages_computed"] = _parallel_map(recipe, out, limit, skip_bad, chunk_size, workers)
            tick(1, 1)
    outcome = engine.map_phase(
        setup.pipeline, setup.records, plan, store, chunk_size=chunk_size, progress=progress, compute=True
    )
    result = engine.global_phase(setup.pipeline, plan, outcome, progress)
    store.prune(plan)
    extra.setdefault("stages_computed", len(outcome.computed))
    extra["chunks"] = outcome.n_chunks
    extra["stage_seconds"] = {k: round(v, 2) for k, v in outcome.seconds.items()}
    return _write(setup, out, target, result, started, {"generate": time.time() - t0}, command, progress, extra)


def _map_shard(
    recipe: dict[str, Any],
    out: Path,
    limit: int | None,
    skip_bad: bool,
    chunk_size: int,
    shard: tuple[int, int],
    parent: int | None = None,
) -> int:
    """One worker process: the map stages of one shard's chunks, stored in ``out``; returns how many chunks
    it computed. Each worker gets an equal share of the CPU threads."""
    import os

    if parent is not None:
        _exit_with_parent(parent)
    threads = max(1, (os.cpu_count() or 1) // shard[1])
    with contextlib.suppress(ImportError):
        import torch

        torch.set_num_threads(threads)
    setup = _setup(recipe, limit, skip_bad, chunk_size)
    plan = engine.plan(setup.pipeline, setup.input_id)
    outcome = engine.map_phase(
        setup.pipeline, setup.records, plan, engine.ChunkStore([out]), chunk_size=chunk_size, shard=shard
    )
    return len(outcome.computed)


def _exit_with_parent(parent: int) -> None:
    """A worker process ends when the build that started it (process ``parent``) is gone (killed, even by
    SIGKILL), instead of running on unseen: a thread watches the parent process id."""
    import os
    import threading

    if os.getppid() != parent:
        os._exit(3)

    def watch() -> None:
        while True:
            time.sleep(1.0)
            if os.getppid() != parent:
                os._exit(3)

    threading.Thread(target=watch, daemon=True, name="claimforge-parent-watch").start()


def _parallel_map(
    recipe: dict[str, Any], out: Path, limit: int | None, skip_bad: bool, chunk_size: int, workers: int
) -> int:
    """The map stages in ``workers`` processes (spawned: no state shared with this one), chunk ``c`` in worker
    ``c % workers``; the caller then finds every chunk stored."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    ctx = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as pool:
        me = os.getpid()
        jobs = [
            pool.submit(_map_shard, recipe, out, limit, skip_bad, chunk_size, (i, workers), me) for i in range(workers)
        ]
        return sum(j.result() for j in jobs)


def run_merge(
    shards: list[Path],
    out: Path,
    *,
    progress: Progress | None = None,
    command: str = "",
    force: bool = False,
) -> dict[str, Any]:
    """Join the shard folders of one sharded build into the dataset a single run gives: every chunk's stored
    stages are found in the shards, the global stages (NEI pairing, balancing) run here. The input file must
    be readable here too (the pre-filter reads it again, cheaply)."""
    progress = progress or SilentProgress()
    started = time.time()
    target = check_output_dir(out, force=force)
    infos = []
    for d in shards:
        try:
            infos.append(json.loads((Path(d) / SHARD_FILE).read_text(encoding="utf-8")))
        except (OSError, ValueError) as e:
            raise ValueError(f"{d}: not a shard folder of claimforge build --shard ({e})") from None
    first = infos[0]
    n = first["shard"][1]
    for d, info in zip(shards, infos, strict=True):
        for key in ("recipe", "input", "fingerprints"):
            if info[key] != first[key]:
                raise ValueError(f"{d}: built with another {key} than {shards[0]}; shards must come from one command")
    got = sorted(info["shard"][0] for info in infos)
    if got != list(range(1, n + 1)):
        raise ValueError(f"merge needs shards 1..{n} of {n} exactly once; got {', '.join(map(str, got))}")
    inp = first["input"]
    setup = _setup(first["recipe"], inp["limit"], inp["skip_bad"], inp["chunk_size"])
    if setup.input_id["sha256"] != inp["sha256"]:
        raise ValueError(f"{inp['reader'].get('path')}: the input changed since the shards were built")
    plan = engine.plan(setup.pipeline, setup.input_id)
    if {s.name: fp for s, fp in plan.maps} != first["fingerprints"]:
        raise ValueError("the shards were built with another claimforge version or changed model files")
    store = engine.ChunkStore([Path(d) for d in shards], writable=False)
    t0 = time.time()
    outcome = engine.map_phase(
        setup.pipeline, setup.records, plan, store, chunk_size=inp["chunk_size"], compute=False, progress=progress
    )
    result = engine.global_phase(setup.pipeline, plan, outcome, progress)
    target.mark()
    extra = {"merged_shards": [str(d) for d in shards], "chunks": outcome.n_chunks}
    return _write(setup, out, target, result, started, {"merge": time.time() - t0}, command, progress, extra)


def _write(
    setup: _Setup,
    out: Path,
    target: OutputDir,
    result: BuildResult,
    started: float,
    timings: dict[str, float],
    command: str,
    progress: Progress,
    extra: dict[str, Any],
) -> dict[str, Any]:
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
        "pipeline": setup.spec["name"],
        "recipe": setup.recipe,
        "input": setup.input_id,
        "components": result.components,
        "exports": exports,
        "versions": _versions(),
        "started": datetime.fromtimestamp(started, timezone.utc).isoformat(timespec="seconds"),
        **extra,
    }
    if target.replaced is not None:
        manifest["replaced_build"] = {k: target.replaced.get(k) for k in ("pipeline", "started", "command")}
    manifest = redact_tree(manifest)
    title = f"{setup.spec['name']} dataset"
    stats = write_report(
        out, title, result.examples, result.rejects, result.n_input, manifest, len(result.used_item_ids)
    )
    timings["write"] = time.time() - t0
    timings["total"] = time.time() - started
    manifest["counts"] = {k: stats[k] for k in ("items_in", "items_used", "items_rejected", "examples", "labels")}
    manifest["timings_s"] = {k: round(v, 2) for k, v in timings.items()}
    manifest["files"] = sorted(set(target.written()) | {"manifest.json"})
    write_json(out / "manifest.json", manifest)
    return manifest
