"""Fixed builds give the same files as the pre-stages code did (tests/golden/cases.py)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from claimforge.build import run_build
from claimforge.config import apply_overrides, load_recipe

from .golden.cases import CASES, EXPECTED, Case, digest

UPDATE = os.environ.get("CLAIMFORGE_UPDATE_GOLDEN") == "1"


def build_case(case: Case, root: Path, shared_data, **kw) -> Path:  # type: ignore[no-untyped-def]
    out = root / case.name
    fill = {}
    if case.shared:
        fill["shared"] = str(shared_data(*case.shared.split("/")))
    if case.after:
        (prev,) = [c for c in CASES if c.name == case.after]
        if not (root / prev.name / "manifest.json").exists():
            build_case(prev, root, shared_data)
        fill["after"] = prev.name  # relative (the test runs in ``root``): provenance records the path
    recipe = apply_overrides(load_recipe(case.recipe), [s.format(**fill) for s in case.sets])
    run_build(recipe, out, limit=case.limit, skip_bad=case.skip_bad, **kw)
    return out


@pytest.fixture(scope="module")
def golden_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("golden")


@pytest.mark.slow
@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_build_matches_golden(case: Case, golden_root: Path, shared_data, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(golden_root)
    got = digest(build_case(case, golden_root, shared_data))
    expected = json.loads(EXPECTED.read_text()) if EXPECTED.exists() else {}
    if UPDATE:
        expected[case.name] = got
        EXPECTED.write_text(json.dumps(expected, indent=1, sort_keys=True) + "\n")
        return
    assert case.name in expected, "no golden hashes: run with CLAIMFORGE_UPDATE_GOLDEN=1"
    diff = {k: (expected[case.name].get(k), v) for k, v in got.items() if expected[case.name].get(k) != v}
    missing = set(expected[case.name]) - set(got)
    assert not diff and not missing, f"changed: {sorted(diff)} missing: {sorted(missing)}"
