"""Running a pipeline (:mod:`claimforge.pipeline`) over an input: chunks, stored stage outputs, shards.

The input is read as a stream and cut into chunks of ``chunk_size`` records (chunk ``c`` holds records
``c*chunk_size ...``). Every record passes the pre-filter in input order; then each chunk runs the map stages,
and each finished (stage, chunk) is stored under ``<out>/.stages/<stage>/<fingerprint>/chunk-NNNNN.json``.
A rerun of the same build finds the stored chunks and redoes only the missing ones, so a build killed at any
point and restarted gives the same files. A stage's fingerprint covers the input, the pre-filter's config and,
stage by stage, each stage's config fields: changing a field reruns that stage and the ones after it.

``shard=(i, n)`` runs the map stages of the chunks ``c`` with ``c % n == i`` only; :func:`run` with
``compute=False`` and the shards' stores then finds every chunk stored and runs the global stages (the merge).
Chunks are the same whichever process makes them, so shards + merge give exactly the single run's files.

Stored chunks hold claimforge records, numbers, strings, numpy arrays and claimforge dataclasses, in JSON
with type tags (no pickle: a folder someone hands you cannot run code when resumed); only classes from
``claimforge`` modules are rebuilt.
"""

from __future__ import annotations

import base64
import dataclasses
import enum
import hashlib
import importlib
import json
import shutil
import time
from collections.abc import Callable, Iterable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel

from claimforge import __version__
from claimforge.cache import weights_stamp
from claimforge.io.dataset import atomic_open
from claimforge.pipeline import MAP_STEP, BuildResult, BuildState, Chunk, Pipeline, Stage, Unit, observes
from claimforge.progress import Progress, SilentProgress
from claimforge.records import Example, Reject, SourceRef
from claimforge.registry import registry

CHUNK_SIZE = 1000
STAGES_DIR = ".stages"


class EngineError(RuntimeError):
    """A build cannot go on (a missing shard chunk, a mismatched store)."""


# ---------------------------------------------------------------------------------------------------
# Encoding stage outputs


def _qualname(cls: type) -> str:
    return f"{cls.__module__}:{cls.__qualname__}"


def _class(name: str) -> Any:
    module, _, qual = name.partition(":")
    if module != "claimforge" and not module.startswith("claimforge."):
        raise EngineError(f"stored stage output names a class outside claimforge: {name}")
    obj: Any = importlib.import_module(module)
    for part in qual.split("."):
        obj = getattr(obj, part)
    return obj


def encode(x: Any) -> Any:
    """A JSON-able form of ``x`` that :func:`decode` turns back into an equal value of the same type."""
    if x is None or isinstance(x, (bool, int, float, str)) and not isinstance(x, enum.Enum):
        return x
    if isinstance(x, list):
        return [encode(v) for v in x]
    if isinstance(x, tuple):
        return {"__t": [encode(v) for v in x]}
    if isinstance(x, dict):
        if not all(isinstance(k, str) for k in x):
            raise TypeError(f"stage data: dict keys must be strings ({list(x)[:3]})")
        return {"__d": {k: encode(v) for k, v in x.items()}}
    if isinstance(x, np.ndarray):
        return {"__nd": [x.dtype.str, list(x.shape), base64.b64encode(np.ascontiguousarray(x).tobytes()).decode()]}
    if isinstance(x, np.generic):
        return {"__ng": [x.dtype.str, base64.b64encode(x.tobytes()).decode()]}
    if isinstance(x, BaseModel):
        return {"__pm": _qualname(type(x)), "v": x.model_dump(mode="json")}
    if isinstance(x, enum.Enum):
        return {"__e": _qualname(type(x)), "v": x.value}
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {"__dc": _qualname(type(x)), "v": {f.name: encode(getattr(x, f.name)) for f in dataclasses.fields(x)}}
    raise TypeError(f"stage data: cannot store a {type(x).__name__}")


def decode(x: Any) -> Any:
    if isinstance(x, list):
        return [decode(v) for v in x]
    if not isinstance(x, dict):
        return x
    if "__t" in x:
        return tuple(decode(v) for v in x["__t"])
    if "__d" in x:
        return {k: decode(v) for k, v in x["__d"].items()}
    if "__nd" in x:
        dtype, shape, data = x["__nd"]
        return np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype)).reshape(shape).copy()
    if "__ng" in x:
        dtype, data = x["__ng"]
        return np.frombuffer(base64.b64decode(data), dtype=np.dtype(dtype))[0]
    if "__pm" in x:
        return _class(x["__pm"]).model_validate(x["v"])
    if "__e" in x:
        return _class(x["__e"])(x["v"])
    if "__dc" in x:
        return _class(x["__dc"])(**{k: decode(v) for k, v in x["v"].items()})
    raise EngineError(f"stored stage output: unknown value {str(x)[:80]}")


def _chunk_json(chunk: Chunk) -> dict[str, Any]:
    return {
        "number": chunk.number,
        "units": [[u.index, encode(u.item), encode(u.data), u.rejected] for u in chunk.units],
        "examples": [e.model_dump(mode="json") for e in chunk.examples],
        "rejects": [[step, r.model_dump(mode="json")] for step, r in chunk.rejects],
    }


def _chunk_from_json(data: dict[str, Any]) -> Chunk:
    return Chunk(
        number=data["number"],
        units=[Unit(i, decode(item), decode(d), rej) for i, item, d, rej in data["units"]],
        examples=[Example.model_validate(e) for e in data["examples"]],
        rejects=[(step, Reject.model_validate(r)) for step, r in data["rejects"]],
    )


# ---------------------------------------------------------------------------------------------------
# Fingerprints and the store


def digest(obj: Any) -> str:
    """A short stable hash of a JSON-able value."""
    return hashlib.sha256(json.dumps(obj, sort_keys=True, default=str).encode()).hexdigest()[:16]


def _path_tags(value: Any, out: list[Any]) -> None:
    """The identity of local files a config names (a model retrained in place changes it)."""
    if isinstance(value, dict):
        for v in value.values():
            _path_tags(v, out)
    elif isinstance(value, (list, tuple)):
        for v in value:
            _path_tags(v, out)
    elif isinstance(value, str) and value and len(value) < 4096:
        stamp = weights_stamp(value)
        if stamp:
            out.append([value, stamp])


@dataclass(frozen=True)
class Plan:
    """The map stages with their fingerprints, and the global stages."""

    maps: list[tuple[Stage, str]]
    globals: list[Stage]
    input_fingerprint: str


def _resolved(pipeline: Pipeline, field_name: str, value: Any) -> Any:
    """A config value as the stage uses it: a component's spec with its defaults filled in, so a changed
    default (a new KBIN gate, say) changes the fingerprint even when the user's spec does not."""
    kind = pipeline.component_kinds.get(field_name)
    if kind is None or value is None or not pipeline.uses(field_name):
        return value
    return registry.config(kind, value)[1].model_dump(mode="json")


def plan(pipeline: Pipeline, input_id: dict[str, Any]) -> Plan:
    """Fingerprint the stages; the config fields must all belong to the reader, the pre-filter or a stage."""
    cfg = pipeline.config
    stages = pipeline.stages()
    kinds = [s.kind for s in stages]
    if "global" in kinds and "map" in kinds[kinds.index("global") :]:
        raise EngineError(f"{pipeline.method}: map stages must come before the global stages ({kinds})")
    names = [s.name for s in stages]
    if len(set(names)) != len(names):
        raise EngineError(f"{pipeline.method}: stage names repeat ({names})")
    fields = set(type(cfg).model_fields)
    covered = {"reader", *pipeline.prefilter_fields, *(f for s in stages for f in s.config)}
    if fields - covered:
        raise EngineError(
            f"{pipeline.method}: config fields {sorted(fields - covered)} belong to no stage; "
            "add them to the pre-filter's or a stage's config so stored stage outputs stay correct"
        )
    dump = cfg.model_dump(mode="json")
    fp = digest(["input", __version__, pipeline.method, input_id, {k: dump[k] for k in pipeline.prefilter_fields}])
    input_fp = fp
    maps = []
    for s in stages:
        if s.kind != "map":
            continue
        part = {k: _resolved(pipeline, k, dump[k]) for k in s.config}
        tags: list[Any] = []
        _path_tags(part, tags)
        fp = digest([fp, s.name, s.version, part, tags])
        maps.append((s, fp))
    return Plan(maps, [s for s in stages if s.kind == "global"], input_fp)


class ChunkStore:
    """Stored stage outputs: found in any of ``roots`` (the first is written to, when writable)."""

    def __init__(self, roots: list[Path], writable: bool = True) -> None:
        self.roots = [Path(r) / STAGES_DIR for r in roots]
        self.writable = writable

    def _name(self, stage: str, fp: str, number: int) -> str:
        return f"{stage.replace(' ', '_')}/{fp}/chunk-{number:05d}.json"

    def load(self, stage: str, fp: str, number: int) -> Chunk | None:
        for root in self.roots:
            path = root / self._name(stage, fp, number)
            if path.is_file():
                try:
                    return _chunk_from_json(json.loads(path.read_text(encoding="utf-8")))
                except (ValueError, KeyError, TypeError) as e:
                    raise EngineError(f"{path}: unreadable stored stage output ({e}); delete it to redo") from None
        return None

    def save(self, stage: str, fp: str, chunk: Chunk) -> None:
        if not self.writable or not self.roots:
            return
        with atomic_open(self.roots[0] / self._name(stage, fp, chunk.number)) as f:
            json.dump(_chunk_json(chunk), f, ensure_ascii=False)

    def prune(self, keep: Plan) -> None:
        """Remove stored outputs of other fingerprints (an earlier config) from the written store."""
        if not self.writable or not self.roots or not self.roots[0].is_dir():
            return
        root = self.roots[0]
        wanted = {(s.name.replace(" ", "_"), fp) for s, fp in keep.maps}
        for stage_dir in root.iterdir():
            for fp_dir in stage_dir.iterdir() if stage_dir.is_dir() else ():
                if (stage_dir.name, fp_dir.name) not in wanted:
                    shutil.rmtree(fp_dir, ignore_errors=True)
            if stage_dir.is_dir() and not any(stage_dir.iterdir()):
                stage_dir.rmdir()


# ---------------------------------------------------------------------------------------------------
# Running


@dataclass(frozen=True)
class ItemStub:
    """What accounting needs of a record no global stage reads."""

    id: str
    ref: SourceRef


@dataclass
class MapOutcome:
    """The map phase's result: slim units, examples and keyed rejects of every chunk this process saw."""

    units: list[Unit]
    examples: list[Example]
    rejects: list[tuple[tuple[int, int, int], Reject]]
    n_chunks: int
    computed: list[int]  # chunks this run computed (not found stored)
    seconds: dict[str, float] = dataclasses.field(default_factory=dict)  # per stage, summed over chunks


def chunks(pipeline: Pipeline, records: Callable[[], Iterable[Any]], chunk_size: int) -> Iterable[Chunk]:
    """The input in chunks, every record through the pre-filter in input order."""
    pre = pipeline.prefilter()
    if observes(pre):
        for rec in records():
            if not isinstance(rec, Reject):
                pre.observe(rec)  # type: ignore[attr-defined]
    chunk = Chunk(0, [])
    for index, rec in enumerate(records()):
        if len(chunk.units) == chunk_size:
            yield chunk
            chunk = Chunk(chunk.number + 1, [])
        if isinstance(rec, Reject):
            chunk.units.append(Unit(index, None, rejected=0))
            chunk.rejects.append((0, rec))
        else:
            unit = Unit(index, rec)
            chunk.units.append(unit)
            problem = pre.check(rec)
            if problem is not None:
                step, reason, detail = problem
                chunk.step = step
                chunk.reject(unit, "filter", reason, detail)
    if chunk.units:
        yield chunk


def map_phase(
    pipeline: Pipeline,
    records: Callable[[], Iterable[Any]],
    the_plan: Plan,
    store: ChunkStore,
    *,
    chunk_size: int = CHUNK_SIZE,
    shard: tuple[int, int] = (0, 1),
    compute: bool = True,
    progress: Progress | None = None,
) -> MapOutcome:
    progress = progress or SilentProgress()
    i_shard, n_shards = shard
    reads = {k for s in the_plan.globals for k in s.reads}
    outcome = MapOutcome([], [], [], 0, [])
    with ExitStack() as bars:
        ticks = [bars.enter_context(progress.stage(s.name)) for s, _ in the_plan.maps]
        done = 0
        per_stage = [0] * len(the_plan.maps)  # units each map stage has finished

        def stage_progress(k: int, chunk: Chunk) -> Callable[[int, int], None]:
            def tick(finished: int, total: int) -> None:  # within the chunk: its share of the chunk's units
                part = finished / total if total else 1.0
                ticks[k](per_stage[k] + round(part * len(chunk.units)), 0)

            return tick

        def stage_done(k: int, chunk: Chunk) -> None:
            per_stage[k] += len(chunk.units)
            ticks[k](per_stage[k], 0)

        for chunk in chunks(pipeline, records, chunk_size):
            outcome.n_chunks = chunk.number + 1
            if chunk.number % n_shards != i_shard:
                continue
            chunk, start = resume_point(the_plan, store, chunk)
            if start < len(the_plan.maps):
                if not compute:
                    stage, fp = the_plan.maps[start]
                    raise EngineError(
                        f"chunk {chunk.number} has no stored output of stage {stage.name!r} ({fp}) in "
                        f"{', '.join(map(str, store.roots))}: a shard is missing or was built with another "
                        "recipe, input or claimforge version"
                    )
                outcome.computed.append(chunk.number)
            for k in range(start):  # stages stored by an earlier run
                stage_done(k, chunk)
            run_map_stages(the_plan, chunk, start, store, outcome.seconds, stage_progress, stage_done)
            done += len(chunk.units)
            _collect(chunk, reads, outcome)
        for tick in ticks:
            tick(done, done)
    return outcome


def resume_point(the_plan: Plan, store: ChunkStore, chunk: Chunk) -> tuple[Chunk, int]:
    """The chunk as the last stored stage left it, and the index of the first map stage still to run."""
    for k in range(len(the_plan.maps) - 1, -1, -1):
        stage, fp = the_plan.maps[k]
        stored = store.load(stage.name, fp, chunk.number)
        if stored is not None:
            return stored, k + 1
    return chunk, 0


def run_map_stages(
    the_plan: Plan,
    chunk: Chunk,
    start: int,
    store: ChunkStore,
    seconds: dict[str, float] | None = None,
    progress_of: Callable[[int, Chunk], Callable[[int, int], None]] | None = None,
    on_done: Callable[[int, Chunk], None] | None = None,
) -> Chunk:
    """Run the map stages from ``start`` on, storing the chunk after each (``seconds`` adds up each stage's time;
    ``progress_of(k, chunk)`` gives stage k its within-chunk progress callback, ``on_done(k, chunk)`` hears when it
    has finished the chunk)."""
    for k in range(start, len(the_plan.maps)):
        stage, fp = the_plan.maps[k]
        chunk.step = MAP_STEP + k
        chunk.progress = progress_of(k, chunk) if progress_of is not None else None
        t0 = time.perf_counter()
        if chunk.live():
            stage.fn(chunk)
        chunk.progress = None
        store.save(stage.name, fp, chunk)
        if seconds is not None:
            seconds[stage.name] = seconds.get(stage.name, 0.0) + time.perf_counter() - t0
        if on_done is not None:
            on_done(k, chunk)
    return chunk


def chunk_to_json(chunk: Chunk) -> str:
    return json.dumps(_chunk_json(chunk), ensure_ascii=False)


def chunk_from_json(text: str) -> Chunk:
    return _chunk_from_json(json.loads(text))


def _collect(chunk: Chunk, reads: set[str], outcome: MapOutcome) -> None:
    for u in chunk.units:
        item = u.item
        if item is not None and "item" not in reads:
            item = ItemStub(item.id, item.ref)
        outcome.units.append(Unit(u.index, item, {k: v for k, v in u.data.items() if k in reads}, u.rejected))
    outcome.examples.extend(chunk.examples)
    outcome.rejects.extend(((step, chunk.number, seq), r) for seq, (step, r) in enumerate(chunk.rejects))


def global_phase(
    pipeline: Pipeline, the_plan: Plan, outcome: MapOutcome, progress: Progress | None = None
) -> BuildResult:
    """Run the global stages on everything the map phase made; account for every input record."""
    progress = progress or SilentProgress()
    state = BuildState(outcome.units, outcome.examples)
    for stage in the_plan.globals:
        t0 = time.perf_counter()
        with progress.stage(stage.name) as tick:
            state.progress = tick
            stage.fn(state)
            state.progress = None
        outcome.seconds[stage.name] = time.perf_counter() - t0
    ordered = [r for _, r in sorted(outcome.rejects, key=lambda kr: kr[0])]
    item_rejects = [r for r in ordered if r.scope == "item"] + [r for r in state.rejects if r.scope == "item"]
    example_rejects = [r for r in ordered if r.scope == "example"] + [r for r in state.rejects if r.scope == "example"]
    used = {pipeline.item_of(e) for e in state.examples}
    rejected = {r.item_id for r in item_rejects}
    lost: dict[str, list[Reject]] = {}
    for r in example_rejects:
        lost.setdefault(r.item_id, []).append(r)
    dropped = []
    for u in outcome.units:
        if u.item is None or u.rejected is not None or u.item.id in used or u.item.id in rejected:
            continue
        rejected.add(u.item.id)
        why = ",".join(sorted({r.reason for r in lost.get(u.item.id, [])})) or "no_examples"
        dropped.append(
            Reject(item_id=u.item.id, stage="assemble", reason="all_examples_dropped", detail=why, ref=u.item.ref)
        )
    result = BuildResult(
        examples=state.examples,
        rejects=item_rejects + dropped + example_rejects,
        n_input=len(outcome.units),
        used_item_ids=used,
        components=pipeline.components,
        config=pipeline.config.model_dump(mode="json"),
    )
    if len(used) + result.n_rejected_items != result.n_input:
        raise EngineError(
            f"accounting does not add up: {len(used)} used + {result.n_rejected_items} rejected "
            f"!= {result.n_input} read"
        )
    return result


def run_in_memory(pipeline: Pipeline, records: Iterable[Any], progress: Progress | None = None) -> BuildResult:
    """A build of ``records`` (read or made in memory) in one chunk, storing nothing: ``Pipeline.build``."""
    rows = list(records)
    size = max(len(rows), 1)
    the_plan = plan(pipeline, {"in_memory": True, "chunk_size": size})
    store = ChunkStore([], writable=False)
    outcome = map_phase(pipeline, lambda: rows, the_plan, store, chunk_size=size, progress=progress)
    return global_phase(pipeline, the_plan, outcome, progress)
