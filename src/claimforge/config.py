"""Recipes: YAML files that name a pipeline and its components. One way to configure everything.

A recipe is found by name among the packaged recipes or read from a path; ``--set a.b=value`` overrides
any key (values parsed as YAML scalars) before the pipeline's pydantic config validates it.
"""

from __future__ import annotations

import copy
import datetime
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import yaml

RECIPES_DIR = Path(__file__).resolve().parent / "recipes"


class RecipeError(ValueError):
    pass


def recipe_names() -> list[str]:
    return sorted(p.stem for p in RECIPES_DIR.glob("*.yaml"))


def load_recipe(name_or_path: str) -> dict[str, Any]:
    path = Path(name_or_path)
    if not path.is_file():  # a packaged name, even if a folder of that name exists here (e.g. --out multi2claim)
        path = RECIPES_DIR / f"{name_or_path}.yaml"
    if not path.is_file():
        raise RecipeError(f"no recipe {name_or_path!r}: not a file, and not one of {', '.join(recipe_names())}")
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as e:
        raise RecipeError(f"{path}: invalid YAML: {e}") from None
    if not isinstance(data, dict) or "pipeline" not in data:
        raise RecipeError(f"{path}: a recipe is a mapping with a 'pipeline' key")
    return data


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
