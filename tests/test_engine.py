"""The stage engine: stored stages resume a killed build to identical files, a changed config reruns only the
stages it touches, shards + merge equal one run, stored outputs round-trip exactly and run no code."""

from __future__ import annotations

import hashlib
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from claimforge import engine
from claimforge.build import run_build, run_merge
from claimforge.cli import DEMO_SAMPLE
from claimforge.config import apply_overrides, load_recipe
from claimforge.generate.kbin import Negation
from claimforge.generate.multi2claim import OptionClaim
from claimforge.pipeline import Chunk, Pipeline, Stage, Unit
from claimforge.records import Label, MCQItem, SourceRef
from claimforge.registry import ComponentConfig, registry
from claimforge.types import QA2DResult


class CountingQA2DConfig(ComponentConfig):
    pass


CALLS: list[int] = []  # the number of requests of each convert call
# convert calls per chunk: the answers, then each item's closest distractor (every conversion succeeds here, so
# Multi2Claim needs no later round)
PER_CHUNK = 2
KILL_AT = [0]  # raise on this call (1-based; 0: never), as a killed process stops (not part of the config)


class CountingQA2D:
    """A deterministic QA2D stand-in that counts its calls and can die on the n-th one."""

    model_id = "counting-qa2d"

    def __init__(self, config: CountingQA2DConfig) -> None:
        self.config = config

    def convert(self, requests):  # type: ignore[no-untyped-def]
        CALLS.append(len(requests))
        if len(CALLS) == KILL_AT[0]:
            raise KeyboardInterrupt("killed")
        return [QA2DResult(text=f"{r.question.rstrip('?')} is {r.answer}.") for r in requests]


registry.register("qa2d", "test-counting", CountingQA2DConfig)(CountingQA2D)


def recipe(*sets: str) -> dict[str, Any]:
    base = [f"reader.path={DEMO_SAMPLE}", "qa2d.name=test-counting", "embedder.name=hashing", "balance=false"]
    return apply_overrides(load_recipe("multi2claim"), [*base, *sets])


def digest(out: Path) -> dict[str, str]:
    skip = {"manifest.json", "report.md", "lengths.png", "examples.parquet"}
    return {
        str(p.relative_to(out)): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(out.rglob("*"))
        if p.is_file() and p.name not in skip and not any(x.startswith(".") for x in p.relative_to(out).parts)
    }


def build(out: Path, *sets: str, **kw: Any) -> dict[str, Any]:
    CALLS.clear()
    return run_build(recipe(*sets), out, chunk_size=7, **kw)


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("ref") / "one-run"
    build(out)
    assert len(CALLS) == 7 * PER_CHUNK  # 48 records in chunks of 7
    return digest(out)


def test_chunked_build_equals_a_single_chunk_build(tmp_path: Path, reference: dict[str, str]) -> None:
    CALLS.clear()
    run_build(recipe(), tmp_path / "whole", chunk_size=1000)
    assert digest(tmp_path / "whole") == reference


@pytest.mark.parametrize("seed", [1, 2])
def test_killed_build_resumes_to_identical_files(tmp_path: Path, reference: dict[str, str], seed: int) -> None:
    kill_at = random.Random(seed).randint(1, 7)
    out = tmp_path / "b"
    KILL_AT[0] = (kill_at - 1) * PER_CHUNK + 1  # in the first convert call of chunk kill_at
    try:
        with pytest.raises(KeyboardInterrupt):
            build(out)
    finally:
        KILL_AT[0] = 0
    assert not (out / "manifest.json").exists()
    build(out)  # the same command again
    assert len(CALLS) == (7 - (kill_at - 1)) * PER_CHUNK  # the chunks finished before the kill were not redone
    assert digest(out) == reference


def test_a_rerun_of_a_finished_build_computes_nothing(tmp_path: Path, reference: dict[str, str]) -> None:
    out = tmp_path / "c"
    build(out)
    manifest = build(out)
    assert CALLS == [] and manifest["stages_computed"] == 0
    assert digest(out) == reference


def test_changed_config_reruns_only_the_stages_it_touches(tmp_path: Path) -> None:
    out = tmp_path / "d"
    build(out)
    stored = {p.name: {q.name for q in p.iterdir()} for p in (out / ".stages").iterdir()}
    build(out, "nei_top_k=3")  # a global stage's field: no map stage reruns
    assert CALLS == []
    build(out, "max_claim_words=12")  # the qa2d stage's field: qa2d and later stages rerun, options do not
    assert len(CALLS) >= 7  # every chunk's answers again (fewer distractor rounds: long claims now fail)
    now = {p.name: {q.name for q in p.iterdir()} for p in (out / ".stages").iterdir()}
    assert now["embed_options"] == stored["embed_options"]
    assert now["qa2d"] != stored["qa2d"] and now["embed_explanations"] != stored["embed_explanations"]
    fresh = tmp_path / "fresh"
    build(fresh, "max_claim_words=12")
    assert digest(out) == digest(fresh)


def test_shards_and_merge_equal_one_run(tmp_path: Path, reference: dict[str, str]) -> None:
    parts = [tmp_path / f"s{i}" for i in range(1, 4)]
    for i, d in enumerate(parts):
        info = build(d, shard=(i, 3))
        assert info["shard"] == [i + 1, 3] and not (d / "examples.jsonl").exists()
    assert sorted(
        c for d in parts for c in __import__("json").loads((d / "shard.json").read_text())["computed"]
    ) == list(range(7))
    CALLS.clear()
    manifest = run_merge(parts, tmp_path / "merged")
    assert CALLS == [] and manifest["counts"]["items_in"] == 48
    assert digest(tmp_path / "merged") == reference
    with pytest.raises(ValueError, match=r"shards 1..3 of 3 exactly once"):
        run_merge(parts[:2], tmp_path / "m2")


def test_merge_refuses_shards_of_different_builds(tmp_path: Path) -> None:
    build(tmp_path / "a", shard=(0, 2))
    build(tmp_path / "b", "nei_top_k=3", shard=(1, 2))
    with pytest.raises(ValueError, match="another recipe"):
        run_merge([tmp_path / "a", tmp_path / "b"], tmp_path / "m")


def test_bad_shard_and_chunk_size_fail_before_work(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="--shard"):
        build(tmp_path / "x", shard=(3, 3))
    with pytest.raises(ValueError, match="--chunk-size"):
        run_build(recipe(), tmp_path / "y", chunk_size=0)
    assert CALLS == []


def test_stored_values_round_trip_exactly() -> None:
    ref = SourceRef(dataset="t", path="t.json", line=3, item_id="t:1")
    item = MCQItem(id="t:1", question="Q?", options=("a", "b"), answer_index=0, ref=ref, meta={"k": [1, 2]})
    value = {
        "vec": np.arange(6, dtype=np.float32).reshape(2, 3) / 7,
        "scalar": np.float32(0.1),
        "pair": ("x", 1.0000000000000002),
        "item": item,
        "label": Label.REFUTED,
        "neg": Negation("not x", None, {"relation": "sibling"}),
        "nested": [OptionClaim("b", "distractor", 0.25, QA2DResult(text=None, reason="why"))],
        "tuple": (1, "a", {"x": (2.5,)}),
    }
    back = engine.decode(__import__("json").loads(__import__("json").dumps(engine.encode(value))))
    assert np.array_equal(back["vec"], value["vec"]) and back["vec"].dtype == np.float32
    assert type(back["scalar"]) is np.float32 and back["scalar"] == value["scalar"]
    assert {k: v for k, v in back.items() if k not in ("vec", "scalar")} == {
        k: v for k, v in value.items() if k not in ("vec", "scalar")
    }


def test_stored_values_never_name_classes_outside_claimforge() -> None:
    with pytest.raises(engine.EngineError, match="outside claimforge"):
        engine.decode({"__dc": "os:system", "v": {}})


class _Cfg(ComponentConfig):
    reader: dict[str, Any] | None = None
    size: int = 1
    forgotten: int = 2


class _Toy(Pipeline):
    method = "toy"
    item_type = MCQItem

    def prefilter(self) -> Any:
        return None

    def stages(self) -> list[Stage]:
        return [Stage("m", "map", lambda chunk: None, config=("size",))]


def test_every_config_field_must_belong_to_a_stage() -> None:
    with pytest.raises(engine.EngineError, match=r"\['forgotten'\] belong to no stage"):
        engine.plan(_Toy(_Cfg()), {})


def test_units_rejected_by_a_stage_skip_the_later_ones() -> None:
    ref = SourceRef(dataset="t", path="t", line=1, item_id="a")
    units = [Unit(0, MCQItem(id="a", question="q", options=("x",), answer_index=0, ref=ref))]
    chunk = Chunk(0, units, step=105)
    chunk.reject(units[0], "qa2d", "no_question_form")
    assert chunk.live() == [] and units[0].rejected == 105 and chunk.rejects[0][0] == 105


def _real_recipe(*sets: str) -> dict[str, Any]:
    """Components every worker process can build (registered by claimforge itself, not by this test)."""
    base = [f"reader.path={DEMO_SAMPLE}", "embedder.name=hashing", "balance=false"]
    return apply_overrides(load_recipe("multi2claim"), [*base, *sets])


@pytest.fixture(scope="module")
def real_reference(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    out = tmp_path_factory.mktemp("real") / "local"
    run_build(_real_recipe(), out, chunk_size=7)
    return digest(out)


@pytest.mark.slow
def test_two_worker_processes_equal_one(tmp_path: Path, real_reference: dict[str, str]) -> None:
    manifest = run_build(_real_recipe(), tmp_path / "w2", chunk_size=7, workers=2)
    assert manifest["workers"] == 2 and manifest["stages_computed"] == 7
    assert digest(tmp_path / "w2") == real_reference


@pytest.mark.slow
def test_ray_engine_equals_the_local_engine(tmp_path: Path, real_reference: dict[str, str]) -> None:
    ray = pytest.importorskip("ray", reason="ray is not installed (pip install 'claimforge[ray]')")
    pytest.importorskip("ray.data", reason="Ray Data is not installed (pip install 'claimforge[ray]')")
    try:
        manifest = run_build(_real_recipe(), tmp_path / "ray", chunk_size=7, workers=2, engine_name="ray")
    finally:
        ray.shutdown()
    assert manifest["engine"] == "ray" and manifest["stages_computed"] == 7
    assert digest(tmp_path / "ray") == real_reference


def _children(pid: int) -> set[int]:
    out = set()
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.add(int(p.name))
    return out


def _alive(pid: int) -> bool:
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc (Linux)")
def test_worker_processes_end_when_the_build_is_killed(tmp_path: Path) -> None:
    import os
    import signal
    import subprocess
    import sys
    import time

    cmd = [sys.executable, "-m", "claimforge.cli", "build", "multi2claim", "--input", f"sciq:{DEMO_SAMPLE}"]
    cmd += ["--set", "embedder.name=hashing", "--workers", "2", "--chunk-size", "2", "--out", str(tmp_path / "o")]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ})
    deadline = time.time() + 60
    kids: set[int] = set()
    while time.time() < deadline and len(kids) < 2:
        kids = {k for k in _children(proc.pid) if "spawn_main" in (Path("/proc") / str(k) / "cmdline").read_text()}
        time.sleep(0.1)
    assert len(kids) >= 2, "the workers did not start"
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    deadline = time.time() + 20
    while time.time() < deadline and any(_alive(k) for k in kids):
        time.sleep(0.2)
    assert not any(_alive(k) for k in kids), "worker processes outlived the killed build"


def test_a_components_defaults_are_part_of_its_stage_fingerprint() -> None:
    """A component spec is fingerprinted with its defaults filled in: writing a default out changes nothing,
    another value reruns the stage (and a changed default in a new release would too)."""
    from claimforge.engine import plan
    from claimforge.registry import registry

    def negate_fp(negator: dict) -> str:  # type: ignore[type-arg]
        pipe = registry.build("pipeline", {"name": "claimgen", "negator": negator, "label_check": "off"})
        (fp,) = [fp for s, fp in plan(pipe, {"x": 1}).maps if s.name == "negate"]
        return fp

    base = negate_fp({"name": "kbin"})
    assert negate_fp({"name": "kbin", "min_contradiction": 0.65}) == base
    assert negate_fp({"name": "kbin", "min_contradiction": 0.5}) != base


def test_a_folder_inputs_files_are_part_of_the_input_fingerprint(tmp_path: Path) -> None:
    from claimforge.build import _input_sha256

    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.xml").write_text("<a/>")
    first = _input_sha256(str(folder))
    assert first is not None and first == _input_sha256(str(folder))  # stable
    (folder / "sub" / "b.xml").write_text("<b/>")  # a file added: the stored chunks no longer line up
    second = _input_sha256(str(folder))
    assert second != first
    (folder / "sub" / "b.xml").write_text("<bb/>")  # rewritten
    assert _input_sha256(str(folder)) != second
    assert _input_sha256(str(tmp_path / "missing")) is None


def test_an_output_folder_inside_a_folder_input_is_refused(tmp_path: Path) -> None:
    from claimforge.build import _check_not_inside_input

    folder = tmp_path / "papers"
    folder.mkdir()
    with pytest.raises(ValueError, match="inside the input folder"):
        _check_not_inside_input(folder / "out", {"name": "papers", "path": str(folder)})
    with pytest.raises(ValueError, match="inside the input folder"):
        _check_not_inside_input(folder, {"name": "papers", "path": str(folder)})
    _check_not_inside_input(tmp_path / "out", {"name": "papers", "path": str(folder)})  # beside it: fine
    _check_not_inside_input(tmp_path / "x" / "out", {"name": "sciq", "path": str(tmp_path / "x.json")})  # a file


class _Ticking(Pipeline):
    """A map stage that reports half its chunk done, then a global stage that reports its own progress."""

    method = "toy"
    item_type = MCQItem

    def prefilter(self) -> Any:
        class _Pass:
            def check(self, rec: Any) -> None:
                return None

        return _Pass()

    def stages(self) -> list[Stage]:
        def half(chunk: Chunk) -> None:
            assert chunk.progress is not None
            chunk.progress(1, 2)

        def judge(state: Any) -> None:
            assert state.progress is not None
            state.progress(3, 4)

        return [Stage("m", "map", half, config=("size", "forgotten")), Stage("g", "global", judge)]


def test_stages_report_progress_within_a_chunk_and_in_global_stages() -> None:
    from contextlib import contextmanager

    seen: list[tuple[str, int, int]] = []

    class Recorder:
        @contextmanager
        def stage(self, name: str) -> Any:
            yield lambda done, total: seen.append((name, done, total))

    ref = SourceRef(dataset="t", path="t", line=1, item_id="a")
    items = [MCQItem(id=f"a{i}", question="q", options=("x",), answer_index=0, ref=ref) for i in range(10)]
    engine.run_in_memory(_Ticking(_Cfg()), items, Recorder())
    assert ("m", 5, 0) in seen  # half of the 10-unit chunk, while the stage runs
    assert ("m", 10, 0) in seen and ("g", 3, 4) in seen
