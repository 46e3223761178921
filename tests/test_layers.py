"""No module imports a higher layer (function-level imports included): the layering docs/architecture.md
describes, checked on the source."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "claimforge"

# Lowest first; a module may import its own layer and the ones below.
LAYERS: list[set[str]] = [
    {"__init__", "records", "registry", "redact", "progress", "types", "cache", "config"},
    {"nlp", "io"},
    {"kb", "backends"},
    {"verify"},
    {"pipeline", "engine"},
    {"generate"},
    {"evaluate"},
    {"build", "check", "ray_engine", "review", "cli", "cli_quality"},
]
RANK = {name: i for i, layer in enumerate(LAYERS) for name in layer}


def _group(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _imports(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "claimforge":
            if node.module == "claimforge":  # from claimforge import engine
                out.extend((node.lineno, f"claimforge.{a.name}") for a in node.names)
            else:
                out.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            out.extend((node.lineno, a.name) for a in node.names if a.name.split(".")[0] == "claimforge")
    return out


def test_every_module_has_a_layer() -> None:
    groups = {p.relative_to(SRC).parts[0].removesuffix(".py") for p in SRC.rglob("*.py")}
    assert groups - set(RANK) == set(), "add new modules to a layer in tests/test_layers.py"


def test_no_module_imports_a_higher_layer() -> None:
    bad = []
    for path in sorted(SRC.rglob("*.py")):
        own = path.relative_to(SRC).parts[0].removesuffix(".py")
        for line, module in _imports(path):
            target = _group(module)
            if target in RANK and RANK[target] > RANK[own]:
                bad.append(f"{path.relative_to(SRC)}:{line} imports {module} ({own} < {target})")
    assert not bad, "\n".join(bad)
