"""Recipes: YAML files that name a pipeline and its components. One way to configure everything.

A recipe is found by name among the packaged recipes or read from a path; ``--set a.b=value`` overrides
any key (values parsed as YAML scalars) before the pipeline's pydantic config validates it.
"""

from __future__ import annotations

import copy
import datetime
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

RECIPES_DIR = Path(__file__).resolve().parent / "recipes"
DATA_ENV = "CLAIMFORGE_DATA"
SHARED_PREFIX = "../shared/data/"  # how the packaged recipes name the shared data folder


class RecipeError(ValueError):
    pass


def recipe_names() -> list[str]:
    return sorted(p.stem for p in RECIPES_DIR.glob("*.yaml"))


def default_data_dir() -> Path | None:
    """``$CLAIMFORGE_DATA`` if set, else the first existing ``../shared/data`` (from the working directory,
    then from the source checkout holding this module), else None."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env).expanduser()
    candidates = [Path.cwd() / ".." / "shared" / "data"]
    root = _repo_root()
    if root is not None:
        candidates.append(root.parent / "shared" / "data")
    for folder in candidates:
        if folder.is_dir():
            return folder.resolve()
    return None


def _repo_root() -> Path | None:
    """The checkout holding ``src/claimforge/config.py``; None when installed (a site-packages tree has no
    pyproject.toml of ours, and guessing from an unrelated one would find the wrong data)."""
    src = Path(__file__).resolve().parents[1]
    if src.name == "src" and (src.parent / "pyproject.toml").is_file():
        return src.parent
    return None


def resolve_data_paths(value: Any) -> Any:
    """A packaged recipe's ``../shared/data/...`` paths, resolved: against ``$CLAIMFORGE_DATA`` when it is set,
    else as written when that exists (run from the checkout), else against the data folder next to the checkout;
    so a recipe works from any folder."""
    if isinstance(value, dict):
        return {k: resolve_data_paths(v) for k, v in value.items()}
    if isinstance(value, list):
        return [resolve_data_paths(v) for v in value]
    moved = isinstance(value, str) and value.startswith(SHARED_PREFIX)
    if moved and (os.environ.get(DATA_ENV) or not Path(value).exists()):
        base = default_data_dir()
        if base is not None:
            return str(base / value[len(SHARED_PREFIX) :])
    return value


def load_recipe(name_or_path: str) -> dict[str, Any]:
    path = Path(name_or_path)
    packaged = not path.is_file()
    if packaged:  # a packaged name, even if a folder of that name exists here (e.g. --out multi2claim)
        path = RECIPES_DIR / f"{name_or_path}.yaml"
    if not path.is_file():
        raise RecipeError(f"no recipe {name_or_path!r}: not a file, and not one of {', '.join(recipe_names())}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise RecipeError(f"{path}: invalid YAML: {e}") from None
    if not isinstance(data, dict) or "pipeline" not in data:
        raise RecipeError(f"{path}: a recipe is a mapping with a 'pipeline' key")
    return resolve_data_paths(data) if packaged else data


def apply_overrides(recipe: Mapping[str, Any], overrides: Iterable[str]) -> dict[str, Any]:
    """Apply ``key.sub=value`` strings in order; values are YAML scalars (``10``, ``true``, ``[a, b]``).
    Setting a component's ``name`` to a different component clears that component's other keys."""
    out = copy.deepcopy(dict(recipe))
    for item in overrides:
        if "=" not in item:
            raise RecipeError(f"--set expects key=value, got {item!r}")
        key, raw = item.split("=", 1)
        parts = [p for p in key.strip().split(".") if p]
        if not parts:
            raise RecipeError(f"--set: empty key in {item!r}")
        node: dict[str, Any] = out
        for p in parts[:-1]:
            nxt = node.get(p)
            if nxt is None:
                nxt = node[p] = {}
            if not isinstance(nxt, dict):
                raise RecipeError(f"--set {key}: {p!r} is not a mapping")
            node = nxt
        value = _scalar(raw)
        if parts[-1] == "name" and len(parts) > 1 and node.get("name") not in (None, value):
            # Switching a component (embedder.name=hashing) drops the old component's parameters;
            # give the new one's parameters after this --set.
            node.clear()
        node[parts[-1]] = value
    return out


def _scalar(raw: str) -> Any:
    """A --set value: YAML for numbers, true/false, null, lists and mappings; anything else stays the string
    it is ("no", "2020-01-01", "on" are not turned into booleans or dates)."""
    if not raw.strip():
        return ""
    value = yaml.safe_load(raw)
    if isinstance(value, bool) and raw.strip().lower() not in ("true", "false"):
        return raw
    if isinstance(value, (datetime.date, datetime.datetime)):
        return raw
    return value


def pipeline_spec(recipe: Mapping[str, Any]) -> dict[str, Any]:
    """The registry spec for a recipe: ``{"name": <pipeline>, **params}``."""
    spec = dict(recipe)
    spec["name"] = spec.pop("pipeline")
    return spec
