"""The ``claimforge`` command line: build datasets from recipes, run the demo, convert single questions."""

from __future__ import annotations

import os
import shlex
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from claimforge import __version__
from claimforge.config import RecipeError, apply_overrides, load_recipe, recipe_names
from claimforge.registry import RegistryError, registry

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Build, audit and use scientific fact-checking datasets, offline.\n\n"
    "Examples:\n\n"
    "  claimforge demo\n\n"
    "  claimforge build multi2claim --input sciq:../shared/data/sciq/train.json --out out/gsci\n\n"
    "  claimforge build multi2claim --input medbullets:data/medbullets_op4.csv --out out/med "
    "--set min_evidence_words=30\n\n"
    '  claimforge qa2d "What do neurons pass to the next neuron?" neurotransmitters',
)
console = Console(stderr=True)
DEMO_SAMPLE = Path(__file__).resolve().parent / "data" / "demo_sciq.json"


def _setup_env(cache_dir: Path | None, no_cache: bool) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    if cache_dir is not None:
        os.environ["CLAIMFORGE_CACHE"] = str(cache_dir)
    if no_cache:
        os.environ["CLAIMFORGE_NO_CACHE"] = "1"


def _parse_input(spec: str) -> tuple[str, str]:
    """``NAME:PATH`` -> (reader name, path), with an error that lists the reader names."""
    name, sep, path = spec.partition(":")
    names = registry.names("reader")
    if not sep or name not in names or not path:
        raise RecipeError(f"--input expects NAME:PATH with NAME one of {', '.join(names)}; got {spec!r}")
    return name, path


def _fail(msg: str) -> None:
    console.print(f"[red]error:[/red] {msg}")
    raise typer.Exit(2)


def _build(
    recipe_name: str,
    input_spec: str | None,
    out: Path,
    limit: int | None,
    sets: list[str],
    skip_bad: bool,
) -> None:
    from claimforge.build import run_build
    from claimforge.progress import RichProgress

    try:
        recipe = load_recipe(recipe_name)
        if input_spec:
            name, path = _parse_input(input_spec)
            old = recipe.get("reader") or {}
            # --input replaces the recipe's reader (keeping its options if it is the same reader);
            # --set reader.* then applies on top, like any other override.
            recipe["reader"] = {**(old if old.get("name") == name else {}), "name": name, "path": path}
        recipe = apply_overrides(recipe, sets)
        command = "claimforge " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        with RichProgress() as progress:
            manifest = run_build(recipe, out, limit=limit, skip_bad=skip_bad, progress=progress, command=command)
    except (ValueError, OSError, RuntimeError) as e:  # RecipeError, RegistryError, InputError, model errors
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    c = manifest["counts"]
    console.print(
        f"[green]done[/green] in {manifest['timings_s']['total']} s: {c['examples']} examples "
        f"{c['labels']} from {c['items_in']} items ({c['items_used']} used, {c['items_rejected']} rejected)"
    )
    console.print(f"wrote {out}/examples.jsonl, rejects.jsonl, report.md, scifact/, fever/, nli/, manifest.json")


@app.command()
def build(
    recipe: Annotated[str, typer.Argument(help=f"recipe name ({', '.join(recipe_names())}) or YAML path")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")],
    input: Annotated[str | None, typer.Option("--input", "-i", help="NAME:PATH, e.g. sciq:train.json")] = None,
    limit: Annotated[int | None, typer.Option(help="read only the first N records")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="override a recipe key: key.sub=value")] = [],  # noqa: B006
    skip_bad: Annotated[bool, typer.Option("--skip-bad", help="malformed records become rejects")] = False,
    cache_dir: Annotated[Path | None, typer.Option(help="cache directory (default ~/.cache/claimforge)")] = None,
    no_cache: Annotated[bool, typer.Option("--no-cache", help="do not read or write the cache")] = False,
) -> None:
    """Build a dataset from a recipe.

    Example: claimforge build multi2claim --input sciq:../shared/data/sciq/train.json --out out/gsci
    """
    _setup_env(cache_dir, no_cache)
    _build(recipe, input, out, limit, set_, skip_bad)


@app.command()
def demo(
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory")] = Path("claimforge-demo"),
    cache_dir: Annotated[Path | None, typer.Option(help="cache directory")] = None,
) -> None:
    """Build a small Multi2Claim dataset from the sample shipped with the package (offline, < 1 minute)."""
    _setup_env(cache_dir, False)
    _build("multi2claim", f"sciq:{DEMO_SAMPLE}", out, None, [], False)


@app.command()
def qa2d(
    question: Annotated[str, typer.Argument(help="the question")],
    answer: Annotated[list[str], typer.Argument(help="one or more answers")],
    recipe: Annotated[str, typer.Option(help="recipe whose qa2d component to use")] = "multi2claim",
    set_: Annotated[list[str], typer.Option("--set", help="override a recipe key, e.g. qa2d.name=llm")] = [],  # noqa: B006
) -> None:
    """Convert a question and answer(s) into declarative claims.

    Example: claimforge qa2d "What do neurons pass to the next neuron?" neurotransmitters
    """
    from claimforge.generate.base import QA2DRequest

    _setup_env(None, False)
    try:
        spec = apply_overrides(load_recipe(recipe), set_)["qa2d"]
        conv = registry.build("qa2d", spec)
    except (RecipeError, RegistryError) as e:
        _fail(str(e))
        return
    for a, r in zip(answer, conv.convert([QA2DRequest(question=question, answer=a) for a in answer]), strict=True):
        if r.text is None:
            typer.echo(f"{a}\t(rejected: {r.reason})")
        else:
            flag = "\t(inverted stem: false for the keyed answer)" if r.polarity == "inverted" else ""
            typer.echo(f"{a}\t{r.text}{flag}")


@app.command()
def components() -> None:
    """List the registered components by kind."""
    for kind in registry.kinds():
        typer.echo(f"{kind}:")
        for name in registry.names(kind):
            typer.echo(f"  {name:<24} {registry.entry(kind, name).help}")


@app.command()
def version() -> None:
    """Print the version."""
    typer.echo(__version__)


if __name__ == "__main__":  # pragma: no cover
    app()
