"""The map stages on Ray Data (``pip install 'claimforge[ray]'``; ``claimforge build ... --engine ray``).

The driver reads the input, runs the pre-filter and cuts the chunks (as the local engine does); every chunk
not yet stored becomes one row of a Ray dataset, and ``map_batches`` runs the map stages on it in a pool of
actors, each holding one instance of the pipeline's models (built once, in the actor). Finished chunks come
back to the driver, which stores them in the output folder (so an interrupted run resumes) and runs the
global stages. Chunks are made exactly as by the local engine, so the dataset is the same.

On a laptop ``ray.init()`` starts a local Ray; on a cluster pass its address (``--ray-address
ray://head:10001`` or ``auto`` on a cluster node). The workers need claimforge and the recipe's model files
at the same paths; the input is read only by the driver.
"""

from __future__ import annotations

import contextlib
from typing import Any

from claimforge import engine
from claimforge.config import pipeline_spec
from claimforge.registry import registry


class _ChunkWorker:
    """A Ray actor: one pipeline (its models loaded once) running the map stages on chunks."""

    def __init__(self, recipe: dict[str, Any], input_id: dict[str, Any], fingerprints: list[str], threads: int):
        with contextlib.suppress(ImportError):
            import torch

            torch.set_num_threads(max(1, threads))
        self.pipeline = registry.build("pipeline", pipeline_spec(recipe))
        self.plan = engine.plan(self.pipeline, input_id)
        if [fp for _, fp in self.plan.maps] != fingerprints:
            raise engine.EngineError(
                "a Ray worker computes other stage fingerprints than the driver: install the same claimforge "
                "version and model files on every node"
            )
        self.store = engine.ChunkStore([], writable=False)

    def __call__(self, batch: dict[str, Any]) -> dict[str, Any]:
        import numpy as np

        out = []
        for text, start in zip(batch["chunk"], batch["start"], strict=True):
            chunk = engine.run_map_stages(self.plan, engine.chunk_from_json(str(text)), int(start), self.store)
            out.append(engine.chunk_to_json(chunk))
        return {"chunk": np.array(out, dtype=object)}


def ray_map(
    setup: Any,
    the_plan: engine.Plan,
    store: engine.ChunkStore,
    *,
    workers: int,
    address: str | None = None,
    tick: Any = None,
) -> int:
    """Run the map stages of every chunk not yet stored on Ray; returns how many chunks were computed."""
    try:
        import ray
        import ray.data
    except ImportError:
        raise RuntimeError("--engine ray needs Ray Data: pip install 'claimforge[ray]'") from None
    rows: list[dict[str, Any]] = []
    chunk_size = setup.input_id["chunk_size"]
    for chunk in engine.chunks(setup.pipeline, setup.records, chunk_size):
        chunk, start = engine.resume_point(the_plan, store, chunk)
        if start < len(the_plan.maps):
            rows.append({"chunk": engine.chunk_to_json(chunk), "start": start})
    if not rows or not the_plan.maps:
        return 0
    if not ray.is_initialized():
        kwargs: dict[str, Any] = {"address": address} if address else {"num_cpus": workers}
        ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False, **kwargs)
    ctx = ray.data.DataContext.get_current()
    ctx.enable_progress_bars = False
    last_stage, last_fp = the_plan.maps[-1]
    ds = ray.data.from_items(rows, override_num_blocks=len(rows))
    mapped = ds.map_batches(
        _ChunkWorker,
        fn_constructor_kwargs={
            "recipe": setup.recipe,
            "input_id": setup.input_id,
            "fingerprints": [fp for _, fp in the_plan.maps],
            "threads": 1,
        },
        batch_size=1,
        batch_format="numpy",
        compute=ray.data.ActorPoolStrategy(size=workers),
        num_cpus=1,
    )
    done = 0
    for row in mapped.iter_rows():
        store.save(last_stage.name, last_fp, engine.chunk_from_json(str(row["chunk"])))
        done += 1
        if tick is not None:
            tick(done, len(rows))
    return done
