"""``claimforge quality``: claim-quality measurement (Wright et al. 2022, §5.2–5.3; docs/claim_quality.md).

Mounted by the main CLI as ``app.add_typer(quality_app, name="quality")``.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console

from claimforge.redact import redact

quality_app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Claim quality: automatic Table 2 scores, ROUGE against reference claims, human-evaluation sheets.\n\n"
    "Examples:\n\n"
    "  claimforge quality score out/claimgen --out quality/scores.jsonl\n\n"
    "  claimforge quality rouge --generated out/claimgen --references refs.jsonl\n\n"
    "  claimforge quality sheet export out/claimgen --out sheets/claims.csv --n 100\n\n"
    "  claimforge quality sheet agreement sheets/alice.csv sheets/bob.csv --items sheets/claims.csv.items.jsonl",
)
sheet_app = typer.Typer(no_args_is_help=True, help="Human-evaluation sheets: export, then agreement.")
quality_app.add_typer(sheet_app, name="sheet")
console = Console(stderr=True)


def _setup_env() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


def _fail(msg: str) -> None:
    console.print(f"[red]error:[/red] {redact(msg)}")
    raise typer.Exit(2)


def _read_json_or_jsonl(path: Path) -> Any:
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".jsonl":  # a .jsonl file is always read line by line (one line is also valid JSON)
        try:
            return json.loads(text)
        except json.JSONDecodeError:
            pass
    rows = []
    for i, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{i}: not JSON ({e.msg})") from None
    return rows


def _examples(folder: Path) -> list[Any]:
    from claimforge.io.dataset import read_examples

    path = folder / "examples.jsonl"
    if not path.is_file():
        raise ValueError(f"{folder}: no examples.jsonl (give a dataset folder written by `claimforge build`)")
    return read_examples(path)


def _claims_of(item: Any, include_negations: bool) -> list[str]:
    out = []
    for c in item or ():
        if isinstance(c, str):
            out.append(c)
        elif isinstance(c, dict) and isinstance(c.get("text"), str) and (include_negations or not c.get("is_negation")):
            out.append(c["text"])
    return out


def _claim_mapping(path: Path, what: str, include_negations: bool = False) -> dict[str, list[str]]:
    """source id → claims from a dataset folder (SUPPORTED claims by source_item_id), a JSON mapping, or JSONL
    rows ``{"id", "claims": [...]}`` (claims as strings or ``{"text", "is_negation"}``) or ``{"id", "claim"}``."""
    if path.is_dir():
        out: dict[str, list[str]] = defaultdict(list)
        for e in _examples(path):
            if e.label.value == "SUPPORTED" and e.claim not in out[e.source_item_id]:
                out[e.source_item_id].append(e.claim)
        return dict(out)
    data = _read_json_or_jsonl(path)
    if isinstance(data, dict):
        return {str(k): _claims_of(v, include_negations) for k, v in data.items()}
    if not isinstance(data, list):
        raise ValueError(f"{path}: {what} must be a JSON mapping id → claims or JSONL rows with id and claims")
    out = defaultdict(list)
    for i, row in enumerate(data, 1):
        if not isinstance(row, dict) or "id" not in row or not ("claims" in row or "claim" in row):
            raise ValueError(f"{path}:{i}: {what} rows need 'id' and 'claims' (or 'claim')")
        claims = _claims_of(row["claims"], include_negations) if "claims" in row else [row["claim"]]
        out[str(row["id"])].extend(c for c in claims if c not in out[str(row["id"])])
    return dict(out)


@quality_app.command()
def rouge(
    generated: Annotated[Path, typer.Option(help="dataset folder, JSON mapping id → claims, or JSONL id/claims")],
    references: Annotated[Path, typer.Option(help="JSON mapping id → claims or JSONL rows with id and claims")],
    out: Annotated[Path | None, typer.Option("--out", "-o", help="also write the result as JSON here")] = None,
    include_negations: Annotated[
        bool, typer.Option(help="keep reference claims marked is_negation (dropped by default)")
    ] = False,
) -> None:
    """ROUGE-1/2/L of generated claims against reference claims (Table 5 protocol: max over a source's
    references per generated claim, mean over generated claims; rouge-score with stemming).

    Example: claimforge quality rouge --generated out/claimgen --references refs.jsonl
    """
    from claimforge.evaluate.rouge import rouge_against_references
    from claimforge.io.dataset import write_json

    try:
        gen = _claim_mapping(generated, "--generated")
        refs = _claim_mapping(references, "--references", include_negations)
        result = rouge_against_references(gen, refs)
        if out is not None:
            write_json(out, result)
    except (ValueError, OSError) as e:
        _fail(str(e))
        return
    shown = {k: v for k, v in result.items() if k != "claims_per_source"}
    typer.echo(json.dumps(shown, indent=2))
    if result["n_claims"] == 0:
        console.print("[yellow]warning:[/yellow] no generated claim has references with the same source id")


def _triples(examples: list[Any]) -> tuple[list[dict[str, Any]], int, int]:
    """Distinct (claim, source sentence, context) of the SUPPORTED examples, with their example ids and method;
    also the number of SUPPORTED examples and how many had no source sentence."""
    from claimforge.evaluate.sheets import context_text

    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    n_supported = missing = 0
    for e in examples:
        if e.label.value != "SUPPORTED":
            continue
        n_supported += 1
        details = e.provenance.details
        source = details.get("source_sentence")
        if not source:
            missing += 1
            continue
        ctx = context_text(details.get("context"))
        key = (e.claim, str(source), ctx)
        row = rows.setdefault(
            key,
            {
                "claim": e.claim,
                "source_sentence": str(source),
                "context": ctx,
                "method": e.method,
                "source_item_id": e.source_item_id,
                "example_ids": [],
            },
        )
        row["example_ids"].append(e.id)
    return list(rows.values()), n_supported, missing


@quality_app.command()
def score(
    dataset: Annotated[Path, typer.Argument(help="a dataset folder written by `claimforge build`")],
    out: Annotated[Path, typer.Option("--out", "-o", help="per-claim JSONL; the summary goes next to it")],
    set_: Annotated[
        list[str], typer.Option("--set", help="scorer config, e.g. lm.name=hf-causal, ppl_good=900, lm=null")
    ] = [],  # noqa: B006
    limit: Annotated[int | None, typer.Option(help="score only the first N distinct claims")] = None,
) -> None:
    """Automatic Table 2 scores (fluency 1-3, de-contextualized 0/1, atomicity 0/1, faithfulness 1-5, acceptable)
    for every SUPPORTED claim of a dataset, from its provenance source_sentence and context. Writes OUT (per claim,
    with reasons) and, next to it, NAME.summary.json and NAME.summary.md (Table 3 layout, overall and per method).

    Example: claimforge quality score out/claimgen --out quality/scores.jsonl
    """
    from claimforge.config import apply_overrides
    from claimforge.evaluate.claim_quality import ClaimScorer, ClaimScorerConfig, summarise
    from claimforge.evaluate.sheets import table3_markdown
    from claimforge.io.dataset import atomic_open, jsonl_file, write_json

    _setup_env()
    try:
        base = ClaimScorerConfig().model_dump(exclude={"common_abbreviations"})
        config = ClaimScorerConfig(**apply_overrides(base, set_))
        rows, n_supported, missing = _triples(_examples(dataset))
        if not rows:
            raise ValueError(
                f"{dataset}: none of its {n_supported} SUPPORTED examples has provenance.details.source_sentence "
                "(only sentence-based generators record it)"
            )
        rows = rows[:limit] if limit is not None else rows
        scorer = ClaimScorer(config)
        console.print(f"scoring {len(rows)} distinct claims ({n_supported} SUPPORTED examples)")
        scores = scorer.score([(r["claim"], r["source_sentence"], r["context"]) for r in rows])
        jsonl_file(out, ({**r, **s.model_dump(exclude={"claim"})} for r, s in zip(rows, scores, strict=True)))
        by_method: dict[str, list[Any]] = defaultdict(list)
        for r, s in zip(rows, scores, strict=True):
            by_method[r["method"]].append(s)
        summary = {
            "dataset": str(dataset),
            "components": scorer.components(),
            "config": config.model_dump(exclude={"common_abbreviations"}),
            "n_supported_examples": n_supported,
            "n_without_source_sentence": missing,
            "n_claims": len(rows),
            "overall": summarise(scores),
            "by_method": {m: summarise(v) for m, v in sorted(by_method.items())},
        }
        stem = out.with_suffix("")
        write_json(Path(f"{stem}.summary.json"), summary)
        md = _score_markdown(summary, table3_markdown)
        with atomic_open(Path(f"{stem}.summary.md")) as f:
            f.write(md)
    except (ValueError, OSError, RuntimeError) as e:
        _fail(str(e) if isinstance(e, ValueError) else f"{type(e).__name__}: {e}")
        return
    typer.echo(md)
    console.print(f"wrote {out}, {stem}.summary.json, {stem}.summary.md")


def _score_markdown(summary: dict[str, Any], table3_markdown: Any) -> str:
    rows = {"all": summary["overall"], **summary["by_method"]}
    lines = [
        f"# Automatic claim quality: {summary['dataset']}",
        "",
        f"{summary['n_claims']} distinct SUPPORTED claims ({summary['n_supported_examples']} examples, "
        f"{summary['n_without_source_sentence']} without a source sentence). Components: "
        + ", ".join(f"{k} `{v}`" for k, v in summary["components"].items())
        + ". De-Con. % over claims with fluency > 1; Atomic % and Faithfulness over claims also "
        "de-contextualized (the paper's annotation rule).",
        "",
        table3_markdown(rows),
        "Reasons (claims with the reason):",
        "",
    ]
    for crit, codes in summary["overall"]["reasons"].items():
        if codes:
            lines.append(f"- {crit}: " + ", ".join(f"{k} {v}" for k, v in codes.items()))
    return "\n".join(lines) + "\n"


@sheet_app.command("export")
def sheet_export(
    source: Annotated[Path, typer.Argument(help="a dataset folder, or JSONL rows (claim/source_sentence/context)")],
    out: Annotated[Path, typer.Option("--out", "-o", help="the CSV sheet to write")],
    kind: Annotated[str, typer.Option(help="claims (Table 2 criteria) or negations (Table 7 scale)")] = "claims",
    n: Annotated[int | None, typer.Option(help="sample size (default: all, shuffled)")] = None,
    seed: Annotated[int, typer.Option(help="sampling seed")] = 0,
) -> None:
    """Write an annotation sheet for a seeded random sample, with OUT.guidelines.md (Table 2 definitions and the
    annotation rule) and OUT.items.jsonl (the key: item id → example id and method; not for annotators).

    Example: claimforge quality sheet export out/claimgen --out sheets/claims.csv --n 100 --seed 1
    """
    from claimforge.evaluate.sheets import export_sheet, select_for_sheet

    try:
        if kind not in ("claims", "negations"):
            raise ValueError(f"--kind must be claims or negations, not {kind!r}")
        if source.is_dir():
            rows = select_for_sheet(_examples(source), kind)  # type: ignore[arg-type]
        else:
            data = _read_json_or_jsonl(source)
            rows = data if isinstance(data, list) else [data]
            if rows and all(isinstance(r, dict) and "provenance" in r and "label" in r for r in rows):
                rows = select_for_sheet(rows, kind)  # type: ignore[arg-type]
        if not rows:
            raise ValueError(f"{source}: nothing to put on a {kind} sheet")
        info = export_sheet(rows, out, kind=kind, n=n, seed=seed)  # type: ignore[arg-type]
    except (ValueError, OSError) as e:
        _fail(str(e))
        return
    typer.echo(json.dumps(info, indent=2))
    console.print(f"give each annotator a copy of {out} and {info['guidelines']}; keep {info['items']} back")


@sheet_app.command("agreement")
def sheet_agreement(
    sheets: Annotated[list[Path], typer.Argument(help="filled sheets, one per annotator (same kind)")],
    items: Annotated[Path | None, typer.Option(help="the export's .items.jsonl: results per method too")] = None,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="write the result as JSON (and .md) here")] = None,
    allow_incomplete: Annotated[bool, typer.Option(help="skip rows with no rating instead of failing")] = False,
) -> None:
    """Krippendorff's α per criterion over shared items, fluency agreement, and the Table 3 (claims) or Table 7
    (negations) summary; an invalid cell is an error naming file, row and column.

    Example: claimforge quality sheet agreement sheets/alice.csv sheets/bob.csv --items sheets/claims.csv.items.jsonl
    """
    from claimforge.evaluate.sheets import agreement, agreement_markdown, import_sheets, read_items
    from claimforge.io.dataset import atomic_open, write_json

    try:
        filled = import_sheets(sheets, allow_incomplete=allow_incomplete)
        groups = None
        if items is not None:
            groups = {k: str(v.get("method") or "?") for k, v in read_items(items).items()}
        doc = agreement(filled, groups=groups)
        md = agreement_markdown(doc)
        if out is not None:
            write_json(out, doc)
            with atomic_open(out.with_suffix(".md")) as f:
                f.write(md)
    except (ValueError, OSError, KeyError) as e:
        _fail(str(e))
        return
    typer.echo(md)
