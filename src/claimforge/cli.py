"""The ``claimforge`` command line: build datasets from recipes, run the demo, convert single questions."""

from __future__ import annotations

import os
import shlex
import sys
from enum import Enum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from claimforge import __version__
from claimforge.cli_quality import quality_app
from claimforge.config import RecipeError, apply_overrides, load_recipe, recipe_names
from claimforge.redact import redact
from claimforge.registry import RegistryError, registry

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Build, audit and use scientific fact-checking datasets, offline.\n\n"
    "Examples:\n\n"
    "  claimforge demo\n\n"
    "  claimforge build multi2claim --input sciq:../shared/data/sciq/train.json --out out/gsci\n\n"
    "  claimforge build multi2claim --input medbullets:../shared/data/mcq_medbullets/medbullets_op4.csv --out out/med "
    "--set min_evidence_words=30\n\n"
    '  claimforge qa2d "What do neurons pass to the next neuron?" neurotransmitters\n\n'
    "  claimforge review out/gsci",
)
console = Console(stderr=True)


def _version(value: bool) -> None:
    if value:
        typer.echo(__version__)
        raise typer.Exit()


_OUTPUT = {"quiet": False}


@app.callback()
def _main(
    version: Annotated[
        bool | None, typer.Option("--version", callback=_version, is_eager=True, help="print the version and exit")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="no progress bars; errors and the summary only")] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="log what each step does (to stderr), progress as usual")
    ] = False,
) -> None:
    """Build, audit and use scientific fact-checking datasets, offline."""
    import logging

    if quiet and verbose:
        raise typer.BadParameter("--quiet and --verbose exclude each other")
    _OUTPUT["quiet"] = quiet
    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(asctime)s %(name)s: %(message)s",
        force=True,
    )


def _progress() -> Any:
    """The progress display of a long command: rich bars, or none with --quiet."""
    from claimforge.progress import RichProgress, SilentProgress

    if _OUTPUT["quiet"]:
        from contextlib import nullcontext

        return nullcontext(SilentProgress())
    return RichProgress()


DEMO_SAMPLE = Path(__file__).resolve().parent / "data" / "demo_sciq.json"


def _setup_env(cache_dir: Path | None, no_cache: bool) -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # transformers' "Loading weights" bars, in our output
    if cache_dir is not None:
        os.environ["CLAIMFORGE_CACHE"] = str(cache_dir)
    if no_cache:
        os.environ["CLAIMFORGE_NO_CACHE"] = "1"


def _parse_input(spec: str, default: str | None = None) -> tuple[str, str]:
    """``NAME:PATH`` -> (reader name, path), with an error that lists the reader names; a bare existing PATH
    takes the recipe's reader (``default``)."""
    name, sep, path = spec.partition(":")
    names = registry.names("reader")
    if default and (not sep or name not in names) and Path(spec).exists():
        return default, spec
    if not sep or name not in names or not path:
        raise RecipeError(f"--input expects NAME:PATH with NAME one of {', '.join(names)}; got {spec!r}")
    return name, path


def _fail(msg: str) -> None:
    console.print(f"[red]error:[/red] {redact(msg)}")
    raise typer.Exit(2)


def _build(
    recipe_name: str,
    input_spec: str | None,
    out: Path,
    limit: int | None,
    sets: list[str],
    skip_bad: bool,
    force: bool = False,
    shard: str | None = None,
    chunk_size: int | None = None,
    workers: int = 1,
    engine_name: str = "local",
    ray_address: str | None = None,
    allow_empty: bool = False,
) -> None:
    from claimforge import engine
    from claimforge.build import run_build

    try:
        recipe = load_recipe(recipe_name)
        if input_spec:
            old = recipe.get("reader") or {}
            name, path = _parse_input(input_spec, old.get("name"))
            # --input replaces the recipe's reader (keeping its options if it is the same reader);
            # --set reader.* then applies on top, like any other override.
            recipe["reader"] = {**(old if old.get("name") == name else {}), "name": name, "path": path}
        recipe = apply_overrides(recipe, sets)
        part = _parse_shard(shard) if shard else None
        command = "claimforge " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        with _progress() as progress:
            manifest = run_build(
                recipe,
                out,
                limit=limit,
                skip_bad=skip_bad,
                progress=progress,
                command=command,
                force=force,
                chunk_size=chunk_size or engine.CHUNK_SIZE,
                shard=part,
                workers=workers,
                engine_name=engine_name,  # type: ignore[arg-type]  # checked by run_build
                ray_address=ray_address,
            )
    except (ValueError, OSError, RuntimeError) as e:  # RecipeError, RegistryError, InputError, model errors
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    if "shard" in manifest:
        i, n = manifest["shard"]
        console.print(
            f"[green]done[/green] in {manifest['seconds']} s: shard {i}/{n}, {len(manifest['computed'])} of "
            f"{manifest['chunks']} chunks computed here; join the shards with: claimforge merge --out OUT SHARD_DIR..."
        )
        return
    if not manifest["counts"]["examples"] and not allow_empty:
        _empty_build(manifest, out)
    _done(manifest, out)


def _empty_build(manifest: dict, out: Path) -> None:
    """A build that made nothing is a failure (exit 1) that says why: the commonest reject reasons."""
    import json
    from collections import Counter

    reasons: Counter[str] = Counter()
    path = out / "rejects.jsonl"
    if path.is_file():
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    reasons[json.loads(line).get("reason", "?")] += 1
    c = manifest["counts"]
    if not c["items_in"]:
        why = "the input held no records"
    elif reasons:
        why = "reject reasons: " + ", ".join(f"{r} ({n})" for r, n in reasons.most_common(5))
    else:
        why = f"{c['items_used']} items were used and none gave an example"
    console.print(f"[red]error:[/red] the build made no examples; {why}. (--allow-empty accepts an empty build.)")
    raise typer.Exit(1)


def _parse_shard(text: str) -> tuple[int, int]:
    """``I/N`` (1-based, as people count) -> (I - 1, N)."""
    i, sep, n = text.partition("/")
    if not sep or not i.strip().isdigit() or not n.strip().isdigit() or not 1 <= int(i) <= int(n):
        raise ValueError(f"--shard expects I/N with 1 <= I <= N, e.g. 2/4; got {text!r}")
    return int(i) - 1, int(n)


def _done(manifest: dict, out: Path) -> None:
    c = manifest["counts"]
    console.print(
        f"[green]done[/green] in {manifest['timings_s']['total']} s: {c['examples']} examples "
        f"{c['labels']} from {c['items_in']} items ({c['items_used']} used, {c['items_rejected']} rejected)"
    )
    console.print(
        f"wrote {out}/examples.jsonl, rejects.jsonl, report.md, report.html, scifact/, multivers/, fever/, nli/, "
        "manifest.json"
    )


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
    force: Annotated[
        bool, typer.Option("--force", help="write into a folder that holds files of something else")
    ] = False,
    shard: Annotated[
        str | None, typer.Option(help="build part I of N (e.g. 2/4) for claimforge merge; same command otherwise")
    ] = None,
    chunk_size: Annotated[
        int | None, typer.Option(help="records per chunk: the unit of resume and of shards (default 1000)")
    ] = None,
    workers: Annotated[int, typer.Option(help="processes (or Ray actors) running the map stages")] = 1,
    engine_name: Annotated[
        str, typer.Option("--engine", help="local, or ray (pip install 'claimforge[ray]'; docs/scale.md)")
    ] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="with --engine ray: a cluster's address (default: start a local Ray)")
    ] = None,
    allow_empty: Annotated[
        bool, typer.Option("--allow-empty", help="exit 0 even when the build makes no examples")
    ] = False,
) -> None:
    """Build a dataset from a recipe. Interrupted? Run the same command again: finished chunks are kept.

    Example: claimforge build multi2claim --input sciq:../shared/data/sciq/train.json --out out/gsci
    """
    _setup_env(cache_dir, no_cache)
    _build(
        recipe,
        input,
        out,
        limit,
        set_,
        skip_bad,
        force,
        shard,
        chunk_size,
        workers,
        engine_name,
        ray_address,
        allow_empty,
    )


@app.command()
def merge(
    out: Annotated[Path, typer.Option("--out", "-o", help="output directory of the joined dataset")],
    shards: Annotated[list[Path], typer.Argument(help="the output folders of claimforge build --shard 1/N ... N/N")],
    cache_dir: Annotated[Path | None, typer.Option(help="cache directory (default ~/.cache/claimforge)")] = None,
    force: Annotated[
        bool, typer.Option("--force", help="write into a folder that holds files of something else")
    ] = False,
) -> None:
    """Join the shards of a build into the dataset one run gives (NEI pairing and balancing run here).

    Example: claimforge merge --out out/gsci out/gsci-1 out/gsci-2
    """
    from claimforge.build import run_merge

    _setup_env(cache_dir, False)
    try:
        command = "claimforge " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        with _progress() as progress:
            manifest = run_merge(shards, out, progress=progress, command=command, force=force)
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    _done(manifest, out)


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
    question: Annotated[str | None, typer.Argument(help="the question (or --input for a file of them)")] = None,
    answer: Annotated[list[str] | None, typer.Argument(help="one or more answers")] = None,
    input_: Annotated[
        Path | None,
        typer.Option("--input", "-i", help="JSONL / JSON / CSV / TSV with question and answer (or answers) columns"),
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="with --input: write JSON lines here")] = None,
    recipe: Annotated[str, typer.Option(help="recipe whose qa2d component to use")] = "multi2claim",
    set_: Annotated[list[str], typer.Option("--set", help="override a recipe key, e.g. qa2d.name=llm")] = [],  # noqa: B006
) -> None:
    """Convert a question and answer(s) into declarative claims; or every row of a file (--input), one JSON line
    per (question, answer): the claim, or why there is none.

    Example: claimforge qa2d "What do neurons pass to the next neuron?" neurotransmitters

    Example: claimforge qa2d --input questions.csv --out claims.jsonl
    """
    import json

    from claimforge.types import QA2DRequest

    _setup_env(None, False)
    try:
        if (input_ is None) == (question is None):
            raise RecipeError("give a question and its answers, or --input with a file of them (not both)")
        if question is not None and not answer:
            raise RecipeError("give at least one answer after the question")
        if input_ is None and out is not None:
            raise RecipeError("--out goes with --input")
        if out is not None and (out.is_dir() or not out.parent.is_dir()):
            raise RecipeError(f"--out {out}: must be a file in an existing folder")
        rows = _qa2d_rows(input_) if input_ is not None else [(None, question or "", a) for a in answer or []]
        spec = apply_overrides(load_recipe(recipe), set_)["qa2d"]
        conv = registry.build("qa2d", spec)
        results = conv.convert([QA2DRequest(question=q, answer=a) for _, q, a in rows])
    except (ValueError, OSError, RegistryError) as e:
        _fail(str(e))
        return
    if input_ is None:
        for (_, _, a), r in zip(rows, results, strict=True):
            if r.text is None:
                typer.echo(f"{a}\t(rejected: {r.reason})")
            else:
                flag = "\t(inverted stem: false for the keyed answer)" if r.polarity == "inverted" else ""
                typer.echo(f"{a}\t{r.text}{flag}")
        return
    docs = [
        {"line": line, "question": q, "answer": a, "claim": r.text, "polarity": r.polarity, "reason": r.reason}
        for (line, q, a), r in zip(rows, results, strict=True)
    ]
    text = "".join(json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
    if out is None:
        typer.echo(text, nl=False)
    else:
        from claimforge.io.dataset import atomic_open

        with atomic_open(out) as f:
            f.write(text)
    made = sum(1 for d in docs if d["claim"])
    console.print(f"{made} claims from {len(docs)} question-answer pairs ({len(docs) - made} without a claim)")


def _qa2d_rows(path: Path) -> list[tuple[int | None, str, str]]:
    """(line, question, answer) of every question-answer pair in a table or JSON file; errors name the line."""
    from claimforge.io.rows import InputError, check_file, iter_csv_records, iter_json_records

    check_file(path)
    csv_like = path.suffix.lower() in (".csv", ".tsv", ".txt")
    records = iter_csv_records(path) if csv_like else iter_json_records(path)
    rows: list[tuple[int | None, str, str]] = []
    for rec in records:
        if rec.error is not None or rec.data is None:
            raise InputError(path, rec.where, rec.error or "not a record")
        q = rec.data.get("question")
        raw = rec.data.get("answers", rec.data.get("answer"))
        answers = [raw] if isinstance(raw, str) else raw
        if not isinstance(q, str) or not q.strip():
            raise InputError(path, rec.where, "no 'question' text")
        if not isinstance(answers, list) or not answers or not all(isinstance(a, str) and a.strip() for a in answers):
            raise InputError(path, rec.where, "no 'answer' (a string) or 'answers' (a list of strings)")
        rows.extend((rec.line, q.strip(), a.strip()) for a in answers)
    if not rows:
        raise InputError(path, None, "no question-answer pairs in the file")
    return rows


def _log(msg: str) -> None:
    console.print(f"[dim]{msg}[/dim]")


def _model_spec(model: str, sets: list[str]) -> tuple[dict, dict, dict, list[str]]:
    """(model spec, train overrides, data overrides, remaining --set items) from --model and --set."""
    spec = apply_overrides(
        {"model": {"name": model}, "train": {}, "data": {}},
        [s for s in sets if s.split("=", 1)[0].split(".")[0] in ("model", "train", "data")],
    )
    rest = [s for s in sets if s.split("=", 1)[0].split(".")[0] not in ("model", "train", "data")]
    return spec["model"], spec["train"], spec["data"], rest


def _dump(doc: object) -> str:
    import json

    return json.dumps(doc, indent=2, default=str)


class SplitMode(str, Enum):
    paper = "paper"
    official = "official"


@app.command()
def train(
    data: Annotated[str, typer.Option("--data", "-d", help="a claimforge dataset folder or a task name")],
    out: Annotated[Path, typer.Option("--out", "-o", help="run directory")],
    model: Annotated[str, typer.Option("--model", "-m", help="verifier kind: cem, gcem, cross-encoder")] = "cem",
    init: Annotated[Path | None, typer.Option(help="start from an earlier run's weights")] = None,
    split: Annotated[
        SplitMode, typer.Option(help="benchmarks: paper (merged, 10% test) or official")
    ] = SplitMode.paper,
    set_: Annotated[list[str], typer.Option("--set", help="model.KEY=V, train.KEY=V or data.KEY=V")] = [],  # noqa: B006
) -> None:
    """Train a verifier; early stopping on dev, safetensors checkpoints, run card in OUT/run.json.

    Example: claimforge train --data out/gsci --model cem --out runs/gsci-cem
    """
    from claimforge.evaluate.experiments import Splits, data_spec, generated_splits, task_splits, train_run
    from claimforge.io.benchmarks import load_task

    _setup_env(None, False)
    try:
        model_spec, train_over, data_over, rest = _model_spec(model, set_)
        if rest:
            raise RecipeError(f"--set keys must start with model., train. or data.: {rest}")
        task_spec = {**data_spec(data), **data_over}
        task = load_task(task_spec)
        splits = generated_splits(task) if task.name == "claimforge" else task_splits(task, Splits(mode=split.value))
        _, card = train_run(
            model_spec,
            splits["train"],
            splits["dev"],
            out,
            task.num_labels,
            train_over,
            init=init,
            data_info={"task": task_spec, "split": split},
            log=_log,
        )
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    best = card.get("best", {})
    console.print(
        f"[green]done[/green]: dev macro-F1 {best.get('macro_f1', 0):.4f}, accuracy "
        f"{best.get('accuracy', 0):.4f} after {card['steps']} steps ({card['train_seconds']} s); "
        f"model in {out}/best, card {out}/run.json"
    )


@app.command()
def evaluate(
    data: Annotated[str, typer.Option("--data", "-d", help="a claimforge dataset folder or a task name")],
    out: Annotated[Path, typer.Option("--out", "-o", help="folder for metrics, predictions, confusion.png")],
    run: Annotated[Path | None, typer.Option(help="a run directory from `claimforge train`")] = None,
    model: Annotated[
        str | None, typer.Option("--model", "-m", help="an untrained verifier: zero-shot-nli, llm-judge")
    ] = None,
    split: Annotated[str, typer.Option(help="a split of the task, or train/dev/test of the paper split")] = "test",
    bootstrap: Annotated[int, typer.Option(help="bootstrap resamples for the 95% intervals (0: none)")] = 1000,
    set_: Annotated[list[str], typer.Option("--set", help="model.KEY=V or data.KEY=V")] = [],  # noqa: B006
) -> None:
    """Score a verifier on a dataset: accuracy, macro/weighted F1, per class, bootstrap 95% intervals.
    Several datasets (comma-separated, or ``benchmarks`` for all of them) give one folder each and a
    Markdown table, ``summary.md``.

    Example: claimforge evaluate --run runs/gsci-cem --data scifact --split dev --out eval/scifact

    Example: claimforge evaluate --model zero-shot-nli --data benchmarks --split dev --out eval/judge
    """
    import json

    from claimforge.evaluate.experiments import data_list, data_spec, evaluate_many, evaluate_verifier, evaluation_pairs
    from claimforge.io.benchmarks import load_task
    from claimforge.verify.base import Verifier, load_verifier

    _setup_env(None, False)
    try:
        if (run is None) == (model is None):
            raise RecipeError("give exactly one of --run and --model")
        model_spec, _, data_over, rest = _model_spec(model or "", set_)
        if rest:
            raise RecipeError(f"--set keys must start with model. or data.: {rest}")
        datas = data_list(data)
        if len(datas) > 1:

            def make(num_labels: int) -> object:
                if run is not None:
                    return load_verifier(run / "best" if (run / "best").is_dir() else run)
                return registry.build("verifier", {**model_spec, "num_labels": num_labels})

            rows = evaluate_many(make, datas, split, out, data_over, bootstrap, log=_log)  # type: ignore[arg-type]
            typer.echo((out / "summary.md").read_text(encoding="utf-8"))
            if all("skipped" in r for r in rows):
                _fail("no dataset could be evaluated (see the table)")
            return
        task = load_task({**data_spec(data), **data_over})
        pairs = evaluation_pairs(task, split)
        verifier: Verifier
        if run is not None:
            verifier = load_verifier(run / "best" if (run / "best").is_dir() else run)
        else:
            verifier = registry.build("verifier", {**model_spec, "num_labels": task.num_labels})
        if len(verifier.labels) == 3 and task.num_labels == 2:
            from claimforge.verify.base import TwoWay

            verifier = TwoWay(verifier)  # (a 2-way model on 3-way data needs no wrapper: gold NEI reads as REFUTED)
        with _progress() as progress, progress.stage(f"{task.name} {split}") as tick:
            metrics = evaluate_verifier(
                verifier, pairs, out, title=f"{task.name} {split}", bootstrap=bootstrap, split=split, progress=tick
            )
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    typer.echo(json.dumps({k: metrics.get(k) for k in ("n", "accuracy", "macro_f1", "weighted_f1", "ci95")}, indent=2))
    console.print(f"wrote {out}/{split}_metrics.json, predictions.jsonl, confusion.png")


def _yaml_mapping(path: Path) -> dict:
    import yaml

    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except yaml.YAMLError as e:
        raise RecipeError(f"{path}: not valid YAML ({e})") from None
    if not isinstance(data, dict):
        raise RecipeError(f"{path}: expected a mapping of ExperimentConfig keys")
    return data


class ExperimentKind(str, Enum):
    transfer = "transfer"
    zeroshot = "zeroshot"


@app.command()
def experiment(
    kind: Annotated[ExperimentKind, typer.Argument(help="transfer (Multi2Claim Table 3) or zeroshot (Wright et al.)")],
    generated: Annotated[str, typer.Option(help="the generated dataset (a claimforge build folder)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="experiment folder (runs are reused on rerun)")],
    targets: Annotated[str | None, typer.Option(help="comma-separated tasks [scifact,healthver,covidfact]")] = None,
    model: Annotated[str | None, typer.Option("--model", "-m", help="verifier kind [cem]")] = None,
    seeds: Annotated[int | None, typer.Option(help="number of seeds, 1..N [3]")] = None,
    config: Annotated[Path | None, typer.Option(help="YAML with ExperimentConfig keys")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="KEY=V, e.g. train.epochs=20, splits.mode=official")] = [],  # noqa: B006
) -> None:
    """The papers' experiments. transfer: target-only vs generated-then-target on each target, mean ± std over
    seeds. zeroshot: trained on generated data only, tested on each target, ratio to the target-trained model.

    Example: claimforge experiment transfer --generated out/gsci --targets scifact,healthver,covidfact --out exp/t
    """
    from claimforge.evaluate import experiments as ex

    kind_name = kind.value

    _setup_env(None, False)
    try:
        base = _yaml_mapping(config) if config else {}
        base["generated"] = ex.data_spec(generated)
        if targets is not None:
            base["targets"] = [t for t in targets.split(",") if t]
        if seeds is not None:
            base["seeds"] = list(range(1, seeds + 1))
        if model is not None and (base.get("model") or {}).get("name") != model:
            base["model"] = {"name": model}
        base.setdefault("model", {"name": "cem"})  # --set model.* then refines it
        cfg = ex.ExperimentConfig(**apply_overrides(base, set_))
        doc = (ex.transfer if kind_name == "transfer" else ex.zeroshot)(cfg, out, log=_log)
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    typer.echo(doc["markdown"])
    console.print(f"wrote {out}/{kind_name}.md and {out}/{kind_name}.json")


@app.command()
def claims(
    input: Annotated[
        str, typer.Option("--input", "-i", help="NAME:PATH of a sentence reader, e.g. scifact-citances:F")
    ],
    out: Annotated[Path, typer.Option("--out", "-o", help="output JSONL (one row per sentence)")],
    generator: Annotated[str, typer.Option("--generator", "-g", help="entity | seq2seq | llm")] = "entity",
    limit: Annotated[int | None, typer.Option(help="read only the first N records")] = None,
    set_: Annotated[list[str], typer.Option("--set", help="generator.KEY=V, e.g. generator.mentions=ner")] = [],  # noqa: B006
) -> None:
    """Generate supported claims for sentences (no evidence pairing) and, when the input has reference claims
    (SciFact's citance rewrites), score them with ROUGE as in Wright et al.'s Table 5.

    Example: claimforge claims --input scifact-citances:../shared/data/claimgen/scifact_citances_train.jsonl
    --out out/claims.jsonl
    """
    import itertools
    import json

    from claimforge.evaluate.rouge import rouge_against_references
    from claimforge.io.dataset import write_json
    from claimforge.records import SentenceItem

    _setup_env(None, False)
    try:
        name, path = _parse_input(input)
        spec = apply_overrides({"generator": {"name": generator}}, set_)
        gen = registry.build("generator", spec["generator"])
        reader = registry.build("reader", {"name": name, "path": path})
        with _progress() as progress:
            with progress.stage("read") as tick:
                records = list(itertools.islice(reader.read(skip_bad=True), limit))
                tick(len(records), len(records))
            items = [r for r in records if isinstance(r, SentenceItem)]
            with progress.stage("generate claims") as tick:
                n = len(items)  # the generator reports shares of its work; the bar counts sentences
                result = gen.generate(items, lambda done, total: tick(round(n * done / total) if total else n, n))
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    by_item: dict[str, list] = {}
    for c in result.claims:
        by_item.setdefault(c.item_id, []).append({"text": c.text, "entity": c.entity, "path": c.details.get("path")})
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", encoding="utf-8") as f:
        for it in items:
            row = {
                "id": it.id,
                "sentence": it.sentence,
                "claims": by_item.get(it.id, []),
                "references": list(it.references),
            }
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    rejects = [r.model_dump(mode="json") for r in result.rejects] + [
        r.model_dump(mode="json") for r in records if not isinstance(r, SentenceItem)
    ]
    summary: dict = {
        "generator": gen.model_id,
        "sentences": len(records),
        "sentences_with_claims": len(by_item),
        "sentences_rejected": len(rejects),
        "claims": len(result.claims),
        "reject_reasons": {},
    }
    for r in rejects:
        summary["reject_reasons"][r["reason"]] = summary["reject_reasons"].get(r["reason"], 0) + 1
    if any(it.references for it in items):
        rouge = rouge_against_references(
            {k: [c["text"] for c in v] for k, v in by_item.items()}, {it.id: it.references for it in items}
        )
        rouge.pop("claims_per_source", None)
        summary["rouge"] = rouge
        typer.echo(
            f"ROUGE-1 {rouge['rouge1']:.2f}  ROUGE-2 {rouge['rouge2']:.2f}  ROUGE-L {rouge['rougeL']:.2f} "
            f"over {rouge['n_claims']} claims of {rouge['n_sources']} sentences"
        )
    write_json(out.with_suffix(".summary.json"), summary)
    console.print(
        f"wrote {out} ({len(result.claims)} claims for {len(by_item)} of {len(records)} sentences) "
        f"and {out.with_suffix('.summary.json')}"
    )


@app.command("train-claimgen")
def train_claimgen(
    data: Annotated[Path, typer.Option("--data", "-d", help="SciFact citances JSONL, or context/claims pairs JSONL")],
    model: Annotated[str, typer.Option("--model", "-m", help="HF seq2seq name or local path to start from")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output model directory")],
    set_: Annotated[
        list[str], typer.Option("--set", help="KEY=V: epochs, batch_size, lr, dev_fraction, seed, ...")
    ] = [],  # noqa: B006
) -> None:
    """Fine-tune a seq2seq model on citance -> claim rewrites (CLAIMGEN-BART); use it with the recipe's
    ``generator: {name: seq2seq, model: {name: hf, model: OUT}}``.

    Example: claimforge train-claimgen --data ../shared/data/claimgen/scifact_citances_train.jsonl
    --model facebook/bart-base --out models/claimgen-bart
    """
    from claimforge.generate.claimgen_train import ClaimGenTrainConfig, finetune, load_pairs

    _setup_env(None, False)
    try:
        cfg = ClaimGenTrainConfig(**apply_overrides({"model": model}, set_))
        pairs = load_pairs(data)
        card = finetune(cfg, pairs, out, log=_log)
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    console.print(f"wrote {out} ({card['train_pairs']} training pairs, best dev loss {card['best_dev_loss']})")


audit_app = typer.Typer(no_args_is_help=True, help="Dataset audits.")


class ExportFormat(str, Enum):
    scifact = "scifact"
    multivers = "multivers"
    fever = "fever"
    nli = "nli"
    hf = "hf"


@app.command()
def export(
    fmt: Annotated[ExportFormat, typer.Argument(help="scifact | multivers | fever | nli | hf (Hugging Face datasets)")],
    build_dir: Annotated[Path, typer.Argument(help="a claimforge build folder")],
    out: Annotated[Path, typer.Option("--out", "-o", help="output folder")],
    rationale: Annotated[str, typer.Option(help="lexical (at most 3 sentences) or passage (all)")] = "lexical",
    nei_duplicates: Annotated[
        str, typer.Option(help="scifact: drop or keep NEI claims whose text is also a labelled claim")
    ] = "drop",
) -> None:
    """Write a built dataset in a format other tools read unchanged (docs/formats.md).

    Example: claimforge export hf out/gsci --out out/gsci_hf
    """
    import json

    from claimforge.io import exports
    from claimforge.io.dataset import read_examples
    from claimforge.io.outdir import check_output_dir

    try:
        if rationale not in ("lexical", "passage"):
            raise RecipeError(f"--rationale must be lexical or passage, not {rationale!r}")
        if nei_duplicates not in ("drop", "keep"):
            raise RecipeError(f"--nei-duplicates must be drop or keep, not {nei_duplicates!r}")
        if not (build_dir / "examples.jsonl").is_file():
            raise RecipeError(f"{build_dir}: not a claimforge build (no examples.jsonl)")
        check_output_dir(out)
        examples = read_examples(build_dir / "examples.jsonl")
        manifest_path = build_dir / "manifest.json"
        manifest = json.loads(manifest_path.read_text(encoding="utf-8")) if manifest_path.is_file() else {}
        mode = rationale  # validated above
        if fmt == ExportFormat.scifact:
            counts = exports.write_scifact(out, examples, mode, nei_duplicates)  # type: ignore[arg-type]
        elif fmt == ExportFormat.multivers:
            counts = exports.write_multivers(out, examples, mode)  # type: ignore[arg-type]
        elif fmt == ExportFormat.fever:
            counts = exports.write_fever(out, examples, mode)  # type: ignore[arg-type]
        elif fmt == ExportFormat.nli:
            counts = exports.write_nli(out, examples)
        else:
            counts = exports.export_hf(out, examples, manifest)
    except (ValueError, OSError, ImportError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    console.print(f"wrote {out} ({fmt.value}): {counts}")


cache_app = typer.Typer(no_args_is_help=True, help="Inspect and clean the on-disk cache.")
app.add_typer(cache_app, name="cache")


@cache_app.command("prune")
def cache_prune(
    cache_dir: Annotated[Path | None, typer.Option(help="cache directory (default ~/.cache/claimforge)")] = None,
) -> None:
    """Drop cached LLM replies that hold no answer (empty, whitespace only, reasoning cut off inside <think>),
    which older versions cached; the next run asks the server again for those items.

    Example: claimforge cache prune
    """
    from claimforge.backends.llm import usable_reply
    from claimforge.cache import DiskCache, default_cache_dir

    _setup_env(cache_dir, False)
    folder = default_cache_dir()
    if not (folder / "llm.sqlite").is_file():
        console.print(f"no LLM cache in {folder}: nothing to prune")
        return
    cache = DiskCache(folder, "llm")
    before = len(cache)
    dropped = cache.prune(lambda v: usable_reply(v.decode("utf-8", errors="replace")))
    cache.close()
    console.print(f"{folder}/llm.sqlite: dropped {dropped} of {before} cached replies (empty or unfinished)")


app.add_typer(audit_app, name="audit")
app.add_typer(quality_app, name="quality")


papers_app = typer.Typer(
    no_args_is_help=True,
    help="Full papers (JATS, GROBID TEI, S2ORC, SciREX, LaTeX, PDF) in one document model (docs/papers.md).",
)
app.add_typer(papers_app, name="papers")


class PaperFormat(str, Enum):
    auto = "auto"
    jats = "jats"
    tei = "tei"
    s2orc = "s2orc"
    scirex = "scirex"
    latex = "latex"
    pdf = "pdf"


@papers_app.command("convert")
def papers_convert(
    inputs: Annotated[list[Path], typer.Argument(help="paper files, folders or tar archives (.tar, .tar.gz, .tar.xz)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="the JSON Lines file of Papers to write")],
    fmt: Annotated[
        PaperFormat, typer.Option("--format", "-f", help="auto finds each file's format; else read every file as this")
    ] = PaperFormat.auto,
    rejects: Annotated[
        Path | None, typer.Option("--rejects", help="where the rejects go (default: <out>.rejects.jsonl)")
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="overwrite --out and --rejects if they exist")] = False,
    limit: Annotated[int | None, typer.Option("--limit", min=1, help="at most this many papers per input")] = None,
    min_sections: Annotated[int, typer.Option(min=0, help="fewer body sections: a reject")] = 1,
    min_typed_sections: Annotated[
        int, typer.Option(min=0, help="fewer sections typed other than 'other': a reject")
    ] = 0,
) -> None:
    """Convert paper files to one JSON Lines file of Papers (one paper a line) and one of rejects; prints the
    counts per format (files = papers + rejects) and the section types. Exits with 1 when no paper came out.

    Example: claimforge papers convert ../shared/data/papers/plos_jats --out out/plos.jsonl
    """
    from claimforge.io.papers.convert import convert_papers, default_rejects_path

    rejects_path = rejects if rejects is not None else default_rejects_path(out)
    try:
        stats = convert_papers(
            inputs,
            out,
            rejects_path,
            fmt.value,
            force=force,
            limit=limit,
            min_sections=min_sections,
            min_typed_sections=min_typed_sections,
        )
    except (ValueError, OSError) as e:  # InputError (paths), a broken reader config
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    for row in stats.table():
        typer.echo(row)
    console.print(f"wrote {out} ({stats.total_papers} papers) and {rejects_path} ({stats.total_rejects} rejects)")
    if stats.total_papers == 0:
        console.print("[red]no paper was converted[/red]")
        raise typer.Exit(1)


@audit_app.command("claim-only")
def audit_claim_only(
    data: Annotated[str, typer.Option("--data", "-d", help="a claimforge dataset folder or a task name")],
    out: Annotated[Path, typer.Option("--out", "-o", help="audit folder")],
    model: Annotated[str, typer.Option("--model", "-m", help="verifier kind")] = "cem",
    seeds: Annotated[int, typer.Option(help="number of seeds (1..N)")] = 3,
    set_: Annotated[list[str], typer.Option("--set", help="model.KEY=V, train.KEY=V or data.KEY=V")] = [],  # noqa: B006
) -> None:
    """Train and test on claims without evidence, against the majority baseline (label artefacts).

    Example: claimforge audit claim-only --data out/gsci --out audit/gsci
    """
    from claimforge.evaluate.experiments import claim_only_audit, data_spec

    _setup_env(None, False)
    try:
        model_spec, train_over, data_over, rest = _model_spec(model, set_)
        if rest:
            raise RecipeError(f"--set keys must start with model., train. or data.: {rest}")
        doc = claim_only_audit(
            {**data_spec(data), **data_over}, model_spec, out, list(range(1, seeds + 1)), train_over, log=_log
        )
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    c, m = doc["claim_only"], doc["majority"]
    typer.echo(
        f"claim-only   macro-F1 {c['macro_f1']['mean']:.3f} ± {c['macro_f1']['std']:.3f}  weighted-F1 "
        f"{c['weighted_f1']['mean']:.3f} ± {c['weighted_f1']['std']:.3f}  accuracy {c['accuracy']['mean']:.3f}"
    )
    typer.echo(
        f"majority     macro-F1 {m['macro_f1']:.3f}          weighted-F1 {m['weighted_f1']:.3f}          "
        f"accuracy {m['accuracy']:.3f}"
    )
    console.print(f"wrote {out}/claim_only.json")


@audit_app.command("labels")
def audit_labels_cmd(
    data: Annotated[str, typer.Argument(help="a claimforge dataset folder, a task name (scifact, pairs, ...)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="audit folder")],
    split: Annotated[str | None, typer.Option(help="one split of a task (default: every split it has)")] = None,
    set_: Annotated[
        list[str], typer.Option("--set", help="judge.KEY=V, thresholds.KEY=V or data.KEY=V (the task's config)")
    ] = [],  # noqa: B006
) -> None:
    """Score every labelled example with the judge and list the ones whose label it does not confirm.

    Examples: claimforge audit labels out/claimgen --out audit/claimgen;
    claimforge audit labels scifact --set data.dev=claims_dev.jsonl --set data.corpus=corpus.jsonl --out audit/sf
    """
    from claimforge.evaluate.label_audit import audit_labels
    from claimforge.verify.label_check import DEFAULT_JUDGE, Thresholds

    _setup_env(None, False)
    try:
        spec = apply_overrides({"judge": dict(DEFAULT_JUDGE), "thresholds": {}, "data": {}}, set_)
        extra = set(spec) - {"judge", "thresholds", "data"}
        if extra:
            raise RecipeError(f"--set keys must start with judge., thresholds. or data.: {sorted(extra)}")
        thresholds = Thresholds(**spec["thresholds"])
        task: str | dict = {"name": data, **spec["data"]} if spec["data"] else data
        summary = audit_labels(task, spec["judge"], thresholds, out, split, log=_log)
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    for label, c in summary["by_label"].items():
        typer.echo(f"{label:<28} {c['pairs']:>7} pairs  {c['suspect']:>7} suspect ({c['suspect_share']:.1%})")
    console.print(f"wrote {out}/summary.md and {out}/suspects.jsonl ({summary['suspect']} of {summary['pairs']})")


@app.command()
def check(
    claim: Annotated[str | None, typer.Argument(help="the claim to check (or --input for a batch)")] = None,
    evidence: Annotated[
        str | None, typer.Option("--evidence", "-e", help="evidence text, or a text / JATS file holding it")
    ] = None,
    corpus: Annotated[
        Path | None, typer.Option(help="retrieve the evidence from this corpus (file or folder: JSONL, .txt, JATS)")
    ] = None,
    input_: Annotated[
        Path | None, typer.Option("--input", "-i", help="claims to check: JSON lines {claim, evidence?, id?} or text")
    ] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the batch's results here (JSON lines)")] = None,
    model: Annotated[
        str, typer.Option("--model", "-m", help="a verifier name (zero-shot-nli, llm-judge) or a saved model/run")
    ] = "zero-shot-nli",
    retriever: Annotated[str, typer.Option(help="with --corpus: bm25, dense or hybrid")] = "bm25",
    unit: Annotated[str, typer.Option(help="with --corpus: retrieve sentences, passages or documents")] = "sentence",
    k: Annotated[int, typer.Option(help="with --corpus: how many units to retrieve")] = 5,
    aspects: Annotated[
        bool, typer.Option(help="explain the verdict by the claim's 5W aspects (who, what, when, where, why)")
    ] = True,
    qa: Annotated[
        str,
        typer.Option(
            help="answer each aspect's question from the evidence: embedded, none, or a QA model's path / HF name"
        ),
    ] = "embedded",
    as_json: Annotated[bool, typer.Option("--json", help="print JSON instead of a table")] = False,
    set_: Annotated[list[str], typer.Option("--set", help="model.KEY=V for a verifier by name")] = [],  # noqa: B006
) -> None:
    """Check a claim against evidence, or against what a corpus holds: the verdict with its probabilities, the
    evidence sentences that decided it (each scored alone), and the claim's 5W aspects, each scored by taking it
    out of the claim (the aspect whose removal undoes the verdict is the one that decides it).

    Example: claimforge check "Aspirin lowers the risk of stroke." --evidence abstract.txt

    Example: claimforge check --input claims.jsonl --corpus ../shared/data/scifact/corpus.jsonl --out results.jsonl
    """
    import json

    from claimforge.check import build_checker, claim_item, evidence_from_argument
    from claimforge.check import read_items as read_check_items

    _setup_env(None, False)
    try:  # everything cheap first: input, evidence, corpus, output; then the models
        if (claim is None) == (input_ is None):
            raise RecipeError("give a claim, or --input with a file of claims (not both)")
        if unit not in ("sentence", "passage", "document"):
            raise RecipeError(f"--unit must be sentence, passage or document, got {unit!r}")
        if k < 1:
            raise RecipeError(f"--k must be at least 1, got {k}")
        if corpus is not None and not corpus.exists():
            raise RecipeError(f"--corpus {corpus}: no such file or folder")
        if out is not None and (out.is_dir() or not out.parent.is_dir()):
            raise RecipeError(f"--out {out}: must be a file in an existing folder")
        model_spec, _, _, rest = _model_spec(model, set_)
        if rest or any(not s.startswith("model.") for s in set_):
            raise RecipeError(f"--set keys must start with model.: {rest or set_}")
        shared = evidence_from_argument(evidence) if evidence is not None else ()
        if claim is not None:
            items = [claim_item(claim, shared)]
        else:
            assert input_ is not None
            items = [
                it if it.evidence or not shared else type(it)(it.id, it.claim, shared, it.where)
                for it in read_check_items(input_)
            ]
            if not items:
                raise RecipeError(f"--input {input_}: no claims in the file")
        if corpus is None and any(not it.evidence for it in items):
            first = next(it for it in items if not it.evidence)
            raise RecipeError(f"{first.where or 'the claim'}: no evidence; give --evidence or --corpus")
        documents = None
        if corpus is not None and any(not it.evidence for it in items):  # read (and check) it before any model
            from claimforge.backends.retrieval import read_corpus

            registry.config("retriever", {"name": retriever})
            documents = read_corpus(corpus)
            if not documents:
                raise RecipeError(f"--corpus {corpus}: no documents in it")
        overrides = {k2: v for k2, v in model_spec.items() if k2 != "name"}
        checker = build_checker(model, overrides, aspects, qa, documents, retriever, k, unit)
        results = checker.check(items)
    except (ValueError, OSError, RuntimeError, RegistryError) as e:
        _fail(str(e) if isinstance(e, (ValueError, RegistryError)) else f"{type(e).__name__}: {e}")
        return
    if out is not None:
        from claimforge.io.dataset import atomic_open

        with atomic_open(out) as f:
            for r in results:
                f.write(json.dumps(r.to_json(), ensure_ascii=False) + "\n")
        console.print(f"wrote {len(results)} results to {out}")
        return
    if as_json:
        docs = [r.to_json() for r in results]
        typer.echo(json.dumps(docs[0] if claim is not None else docs, indent=2, ensure_ascii=False))
        return
    _print_checks(results)


def _print_checks(results: list) -> None:  # type: ignore[type-arg]
    from rich.markup import escape
    from rich.table import Table

    out = Console()
    colour = {"SUPPORTED": "green", "REFUTED": "red", "NOT_ENOUGH_INFO": "yellow"}
    for r in results:
        probs = "  ".join(f"{lab} {p:.2f}" for lab, p in r.probabilities.items())
        out.print(f"[bold]{escape(r.claim)}[/bold]")
        out.print(f"  verdict: [bold {colour.get(r.label, 'white')}]{r.label}[/]   ({probs})")
        table = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
        table.add_column("#", justify="right")
        table.add_column("evidence sentence" + (" (retrieved)" if r.retrieved else ""), overflow="fold")
        for lab in r.probabilities:
            table.add_column(lab[:3] if lab != "NOT_ENOUGH_INFO" else "NEI", justify="right")
        for n, e in enumerate(r.evidence, 1):
            mark = "*" if e.supports_verdict else ""
            text = escape(e.text) if e.doc_id is None else f"{escape(e.text)} [dim]({escape(e.doc_id)})[/dim]"
            table.add_row(f"{n}{mark}", text, *(f"{e.probabilities[lab]:.2f}" for lab in r.probabilities))
        out.print(table)
        out.print("  [dim]* this sentence alone gives the verdict[/dim]")
        if r.aspects:
            at = Table(show_header=True, header_style="bold", box=None, padding=(0, 1))
            with_qa = any(a.qa_status for a in r.aspects)
            cols = ("aspect", "claim part", "question", *(("evidence answer", "QA") if with_qa else ()))
            for col in (*cols, "without it", "status"):
                at.add_column(col, overflow="fold")
            styles = {"refuted": "red", "not enough info": "yellow", "supported": "green"}
            for a in r.aspects:
                short = {"SUPPORTED": "SUP", "REFUTED": "REF"}.get(r.label, "NEI")
                shown = f"{short} {a.probabilities_without[r.label]:.2f}"
                qa_cells = (
                    (escape(a.answer) or "[dim]-[/dim]", f"[{styles.get(a.qa_status, 'dim')}]{a.qa_status}[/]")
                    if with_qa
                    else ()
                )
                status = f"[{styles.get(a.status, 'dim')}]{a.status}[/]"
                at.add_row(a.kind, escape(a.text), escape(a.question), *qa_cells, shown, status)
            out.print(at)
        if r.explanation:
            out.print(f"  {escape(r.explanation)}")
        out.print()


@app.command()
def review(
    datasets: Annotated[list[Path], typer.Argument(help="one or more dataset folders (the --out of claimforge build)")],
    port: Annotated[int, typer.Option(help="port on 127.0.0.1 (0: any free port)")] = 8765,
    check_model: Annotated[
        str, typer.Option(help="the verifier of POST /check and the sentence scores (name or saved model)")
    ] = "zero-shot-nli",
    no_check: Annotated[bool, typer.Option("--no-check", help="no POST /check and no judge scores")] = False,
    import_sheet: Annotated[
        list[Path],
        typer.Option(help="first read grades from a filled sheet (claimforge quality sheet format); repeatable"),
    ] = [],  # noqa: B006
    annotator: Annotated[
        str | None, typer.Option(help="with --import-sheet: the grader (default: from the file name)")
    ] = None,
) -> None:
    """Open a local web page to browse, grade (blind or open) and fix built datasets; grades and fixes are saved
    in DIR/review/ as they are made. The page listens on 127.0.0.1 only; open the URL it prints (it holds the
    access token). docs/review.md.

    Example: claimforge review out/gsci
    """
    from claimforge.check import build_checker, load_check_verifier
    from claimforge.review.app import serve
    from claimforge.review.store import ReviewError, ReviewStore, load_datasets
    from claimforge.review.store import import_sheet as import_grades

    _setup_env(None, False)
    try:
        if not no_check and not Path(check_model).is_dir() and check_model not in registry.names("verifier"):
            names = ", ".join(registry.names("verifier"))
            raise ReviewError(f"--check-model {check_model!r} is neither a saved model folder nor a verifier ({names})")
        store = ReviewStore(load_datasets(datasets))
        if import_sheet and len(store.datasets) != 1:
            raise ReviewError("--import-sheet: give exactly one dataset folder to import into")
        for sheet in import_sheet:
            n = import_grades(store, next(iter(store.datasets)), sheet, annotator)
            console.print(f"imported {n} grades from {sheet}")
        for w in store.warnings:
            console.print(f"[yellow]warning:[/yellow] {w}")
        n_ex = sum(len(d.examples) for d in store.datasets.values())
        loaded: list[Any] = []  # the verifier, loaded once for both checkers

        def factory(full: bool) -> Any:
            if not loaded:
                loaded.append(load_check_verifier(check_model))
            return build_checker(verifier=loaded[0], aspects=full)

        def announce(url: str) -> None:
            console.print(f"reviewing {n_ex} examples of {', '.join(store.datasets)}")
            console.print(f"open [bold]{url}[/bold]  (Ctrl-C stops the server; grades are already saved)")

        serve(store, port, None if no_check else factory, announce)
    except (ValueError, OSError) as e:
        _fail(str(e))


@app.command("apply-review")
def apply_review_cmd(
    dataset: Annotated[Path, typer.Argument(help="the reviewed dataset folder (with review/patch.jsonl)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="a new folder for the corrected dataset")],
    force: Annotated[
        bool, typer.Option("--force", help="write into a folder that holds files of something else")
    ] = False,
) -> None:
    """Write a corrected copy of a reviewed dataset: the relabels and rejects made on the review page applied,
    each with its provenance (who, when, the label before). The reviewed folder is not changed.

    Example: claimforge apply-review out/gsci --out out/gsci-reviewed
    """
    from claimforge.review.apply import apply_review

    try:
        command = "claimforge " + " ".join(shlex.quote(a) for a in sys.argv[1:])
        manifest = apply_review(dataset, out, force=force, command=command)
    except (ValueError, OSError) as e:
        _fail(str(e))
        return
    r = manifest["review"]
    for w in r.get("warnings", []):
        console.print(f"[yellow]warning:[/yellow] {w}")
    console.print(
        f"[green]done[/green]: {r['examples_in']} examples in, {manifest['counts']['examples']} out "
        f"({r.get('relabelled', 0)} relabelled, {r.get('rejected', 0)} rejected in review); wrote {out}"
    )


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
