"""Claim quality as in Wright et al. (2022, §5.2–5.3): ROUGE against reference claims (Table 5), Krippendorff's
α, human-evaluation sheets for the Table 2 criteria and the Table 7 negation scale (with the Table 3 / Table 7
summaries), and automatic per-claim scores on the same scales (``ClaimScorer``). See docs/claim_quality.md.
"""

from __future__ import annotations

import csv
import json
import math
import random
import re
import zlib
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from claimforge.nlp.normalize import finite_verb_form
from claimforge.nlp.normalize import noun_reading as _noun_reading
from claimforge.registry import ComponentConfig, registry

# ----------------------------------------------------------------------------------------------------------------
# ROUGE (Table 5)

ROUGE_TYPES = ("rouge1", "rouge2", "rougeL")


def rouge_against_references(
    generated: Mapping[str, Sequence[str]], references: Mapping[str, Sequence[str]]
) -> dict[str, Any]:
    """The paper's Table 5 protocol: for every generated claim of a source, the best ROUGE F-measure over that
    source's reference claims (each ROUGE type maximised on its own), averaged over all generated claims.

    Scores come from the PyPI ``rouge-score`` package (Google's reimplementation of Lin 2004) with
    ``use_stemmer=True`` (Porter stemming, lower-cased alphanumeric tokens) and are reported in percent.
    Sources with no (non-empty) references cannot be scored: their claims are counted and excluded, and the
    source ids are listed. Reference sources with no generated claim do not enter the mean (the protocol
    averages over generated claims) and are counted as ``references_without_generated``.
    """
    from rouge_score import rouge_scorer

    scorer = rouge_scorer.RougeScorer(list(ROUGE_TYPES), use_stemmer=True)
    sums = dict.fromkeys(ROUGE_TYPES, 0.0)
    per_source: dict[str, int] = {}
    unscored: dict[str, int] = {}
    for sid, claims in generated.items():
        claims = [c for c in claims if isinstance(c, str)]
        refs = [r for r in references.get(sid, ()) if isinstance(r, str) and r.strip()]
        if not refs:
            unscored[sid] = len(claims)
            continue
        per_source[sid] = len(claims)
        for claim in claims:
            scores = [scorer.score(ref, claim) for ref in refs]  # score(target, prediction)
            for t in ROUGE_TYPES:
                sums[t] += max(s[t].fmeasure for s in scores)
    n_claims = sum(per_source.values())
    out: dict[str, Any] = {t: (round(100 * sums[t] / n_claims, 4) if n_claims else None) for t in ROUGE_TYPES}
    out.update(
        {
            "n_sources": sum(1 for v in per_source.values() if v),
            "n_claims": n_claims,
            "claims_per_source": per_source,
            "sources_without_references": sorted(unscored),
            "claims_without_references": sum(unscored.values()),
            "references_without_generated": sum(
                1 for sid, refs in references.items() if refs and not generated.get(sid)
            ),
            "scorer": "rouge-score, use_stemmer=True, F-measure, max over references, mean over generated claims",
        }
    )
    return out


# ----------------------------------------------------------------------------------------------------------------
# Krippendorff's alpha

AlphaLevel = Literal["nominal", "ordinal", "interval", "ratio"]


def _missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    return isinstance(v, str) and not v.strip()


def _pairable(data: Iterable[Iterable[Any]]) -> list[list[Any]]:
    """Each unit's non-missing values, for units with at least two (the only ones that carry information)."""
    units = [[v for v in row if not _missing(v)] for row in data]
    return [u for u in units if len(u) >= 2]


def krippendorff_alpha(data: Iterable[Iterable[Any]], level: AlphaLevel = "nominal") -> float:
    """Krippendorff's α for a units × coders matrix (rows are units; ``None``, NaN or "" mark a missing value).

    The coincidence-matrix form of Krippendorff (2011, "Computing Krippendorff's alpha-reliability"):
    o_ck = Σ_u (number of c-k pairs of values in u) / (m_u − 1) over units with m_u ≥ 2 values; n_c = Σ_k o_ck;
    α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck with δ² nominal (c ≠ k), ordinal
    ((Σ_{g=c..k} n_g − (n_c + n_k)/2)²), interval ((c − k)²) or ratio (((c − k)/(c + k))²).
    Returns NaN when α is undefined: no unit with two values, or no variation at all (expected disagreement 0).
    """
    if level not in ("nominal", "ordinal", "interval", "ratio"):
        raise ValueError(f"unknown level {level!r} (nominal, ordinal, interval or ratio)")
    units = _pairable(data)
    if not units:
        return math.nan
    if level != "nominal":
        try:
            units = [[float(v) for v in u] for u in units]
        except (TypeError, ValueError):
            raise ValueError(f"{level} α needs numeric values") from None
    values = sorted({v for u in units for v in u}, key=(lambda v: (str(type(v)), v)) if level == "nominal" else None)
    index = {v: i for i, v in enumerate(values)}
    k = len(values)
    o = np.zeros((k, k))
    for u in units:
        counts = Counter(index[v] for v in u)
        w = 1.0 / (len(u) - 1)
        for c, nc in counts.items():
            for d, nd in counts.items():
                o[c, d] += w * (nc * (nc - 1) if c == d else nc * nd)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    delta = _delta2(values, n_c, level)
    expected = float((np.outer(n_c, n_c) * delta).sum())
    if expected == 0:
        return math.nan
    return float(1.0 - (n - 1) * float((o * delta).sum()) / expected)


def _delta2(values: Sequence[Any], n_c: np.ndarray, level: str) -> np.ndarray:
    k = len(values)
    if level == "nominal":
        return 1.0 - np.eye(k)
    v = np.asarray(values, dtype=float)
    if level == "interval":
        return (v[:, None] - v[None, :]) ** 2
    if level == "ratio":
        s = v[:, None] + v[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(s == 0, 0.0, ((v[:, None] - v[None, :]) / np.where(s == 0, 1, s)) ** 2)
        return out
    cum = np.concatenate([[0.0], np.cumsum(n_c)])  # ordinal: ranks from the marginal frequencies
    out = np.zeros((k, k))
    for c in range(k):
        for d in range(k):
            lo, hi = min(c, d), max(c, d)
            out[c, d] = (cum[hi + 1] - cum[lo] - (n_c[c] + n_c[d]) / 2) ** 2
    return out


def percent_agreement(data: Iterable[Iterable[Any]]) -> float:
    """Share of units (with at least two values) on which every coder gave the same value: the paper's
    agreement for fluency, where almost all ratings are 3 and α is dominated by the few disagreements."""
    units = _pairable(data)
    if not units:
        return math.nan
    return sum(1 for u in units if len(set(u)) == 1) / len(units)


# ----------------------------------------------------------------------------------------------------------------
# Table 2 criteria, the annotation rule and the acceptance rule

CLAIM_CRITERIA = ("fluency", "decontextualized", "atomicity", "faithfulness")
NEGATION_CRITERIA = ("entailment",)
SCALES: dict[str, tuple[Any, ...]] = {
    "fluency": (1, 2, 3),
    "decontextualized": (0, 1),
    "atomicity": (0, 1),
    "faithfulness": (1, 2, 3, 4, 5),
    "entailment": (3, 2, 1, "SKIP"),
}
ALPHA_LEVELS: dict[str, AlphaLevel] = {
    "fluency": "ordinal",
    "decontextualized": "nominal",
    "atomicity": "nominal",
    "faithfulness": "ordinal",
    "entailment": "ordinal",
    "negation_fluency": "nominal",
}
SheetKind = Literal["claims", "negations"]


def annotated_criteria(fluency: int | None, decontextualized: int | None) -> tuple[str, ...]:
    """The criteria the paper's rule asks for: fluency always; de-contextualized only if fluency > 1; atomicity
    and faithfulness only if also de-contextualized = 1."""
    out: tuple[str, ...] = ("fluency",)
    if fluency is not None and fluency > 1:
        out += ("decontextualized",)
        if decontextualized == 1:
            out += ("atomicity", "faithfulness")
    return out


def is_acceptable(
    fluency: int | None, decontextualized: int | None, atomicity: int | None, faithfulness: int | None
) -> bool:
    """Fluency > 1 AND De-Contextualized = 1 AND Atomicity = 1 AND Faithfulness > 3 (Wright et al. 2022, §5.2)."""
    return (
        fluency is not None
        and fluency > 1
        and decontextualized == 1
        and atomicity == 1
        and faithfulness is not None
        and faithfulness > 3
    )


def table3_summary(records: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """Table 3 columns over per-claim records ``{fluency, decontextualized, atomicity, faithfulness, accepted}``
    (criteria not annotated under the rule are None; values may be means over annotators): Fluency mean,
    De-Con. % of claims with fluency > 1, Atomic % and Faithfulness mean of claims also de-contextualized,
    # Gen, # Accept and P = # Accept / # Gen (%)."""

    def mean(key: str) -> float | None:
        vals = [float(r[key]) for r in records if r.get(key) is not None]
        return round(sum(vals) / len(vals), 4) if vals else None

    n = len(records)
    n_accept = sum(1 for r in records if r.get("accepted"))
    decon, atomic = mean("decontextualized"), mean("atomicity")
    return {
        "fluency": mean("fluency"),
        "decontextualized_pct": None if decon is None else round(100 * decon, 2),
        "atomicity_pct": None if atomic is None else round(100 * atomic, 2),
        "faithfulness": mean("faithfulness"),
        "n_generated": n,
        "n_accepted": n_accept,
        "precision_pct": round(100 * n_accept / n, 2) if n else None,
        "n_rated": {k: sum(1 for r in records if r.get(k) is not None) for k in CLAIM_CRITERIA},
    }


def table3_markdown(rows: Mapping[str, Mapping[str, Any]]) -> str:
    """Table 3 layout, one line per name (method or group)."""

    def f(v: Any, nd: int = 2) -> str:
        return "–" if v is None else (f"{v:.{nd}f}" if isinstance(v, float) else str(v))

    lines = [
        "| | Fluency | De-Con. (%) | Atomic (%) | Faithfulness | # Gen | # Accept | P |",
        "|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, s in rows.items():
        lines.append(
            f"| {name} | {f(s['fluency'])} | {f(s['decontextualized_pct'])} | {f(s['atomicity_pct'])} | "
            f"{f(s['faithfulness'])} | {s['n_generated']} | {s['n_accepted']} | {f(s['precision_pct'])} |"
        )
    return "\n".join(lines) + "\n"


# ----------------------------------------------------------------------------------------------------------------
# Human-evaluation sheets

CLAIM_HEADERS = {
    "item_id": "item_id",
    "source_sentence": "source_sentence",
    "context": "context",
    "claim": "generated_claim",
    "fluency": "fluency (1-3)",
    "decontextualized": "decontextualized (0/1)",
    "atomicity": "atomicity (0/1)",
    "faithfulness": "faithfulness (1-5)",
    "comment": "comment",
}
NEGATION_HEADERS = {
    "item_id": "item_id",
    "original_claim": "original_claim (premise)",
    "negation": "negation (hypothesis)",
    "entailment": "entailment (3/2/1/SKIP)",
    "comment": "comment",
}
_HEADERS: dict[str, dict[str, str]] = {"claims": CLAIM_HEADERS, "negations": NEGATION_HEADERS}

CLAIM_GUIDELINES = """# Claim quality annotation guidelines

Sheet: `{sheet}` ({n} claims). Criteria and labels from Wright et al. (2022), Table 2. Rate each row in order:
fluency first, then de-contextualized, then atomicity, then faithfulness. Use only the values listed; leave a
cell **empty** when the rule below says it is not annotated. Do not add, remove or reorder columns or rows;
write free text only in `comment`.

## Which criteria to rate (the paper's rule)

- **fluency**: always.
- **decontextualized**: only if fluency > 1 (the claim is legible). Leave empty if fluency = 1.
- **atomicity** and **faithfulness**: only if fluency > 1 **and** decontextualized = 1 (one can discern the
  claim's meaning). Leave both empty otherwise.

## Fluency (1-3)

- **3** – The claim contains no grammatical errors and its meaning can be understood.
- **2** – The claim contains some grammatical errors but is still understandable.
- **1** – The claim contains many grammatical errors and cannot be understood.

## Decontextualized (0/1)

- **1** – The claim is interpretable on its own and requires no context; the addition of the original context
  does not alter the meaning of the claim.
- **0** – The claim cannot be interpreted in a meaningful way without the original context (for example an
  unresolved pronoun such as "it" or "these", "we"/"our study", a citation marker, an abbreviation that needs
  the source to be understood).

## Atomicity (0/1)

- **1** – The claim is about a single entity/process (atomic).
- **0** – The claim is non-atomic and can be broken down into multiple claims.

## Faithfulness (1-5), judged against the source sentence and its context

- **5** – The claim is correct and fully supported and complete with respect to the original sentence and
  context.
- **4** – The claim is correct with respect to the original sentence and context but leaves out information
  from the original sentence and context.
- **3** – The claim is related to the original sentence and does not contain incorrect information but is not
  explicitly stated in the original sentence.
- **2** – The claim contains explicitly incorrect information relative to the original sentence and context.
- **1** – The claim has nothing to do with the original sentence.

## Acceptable claims

A claim is acceptable when Fluency > 1 AND De-Contextualized = 1 AND Atomicity = 1 AND Faithfulness > 3:
legible, meaningful, about a single aspect of a scientific entity or process, and accurately reflecting the
information in the original sentence. (Computed from your ratings; you do not rate it.)
"""

NEGATION_GUIDELINES = """# Negation annotation guidelines

Sheet: `{sheet}` ({n} negations). From Wright et al. (2022), §5.3 / Table 7, following the SNLI annotation
definitions (Bowman et al., 2015): the **original claim is the premise**, the **generated negation is the
hypothesis**. Write exactly one of these values in `entailment (3/2/1/SKIP)`; write free text only in `comment`.

- **3** – The hypothesis is DEFINITELY FALSE given the premise.
- **2** – The hypothesis MIGHT BE TRUE given the premise.
- **1** – The hypothesis is DEFINITELY TRUE given the premise.
- **SKIP** – The hypothesis contains a lot of grammatical errors and cannot be understood.

A good negation is fluent and rated 3. Negations from several methods are mixed in random order; judge each
row on its own.
"""


class SheetError(ValueError):
    """A filled sheet that cannot be read: the message names the file, the row and the column."""


def context_text(ctx: Any) -> str:
    """Context as one string: a string as is, a list of sentences joined, a {before, after} mapping joined."""
    if ctx is None:
        return ""
    if isinstance(ctx, str):
        return ctx.strip()
    if isinstance(ctx, Mapping):
        parts = [ctx.get(k) for k in ("before", "context_before", "after", "context_after")]
        return " ".join(context_text(p) for p in parts if p).strip()
    if isinstance(ctx, Iterable):
        return " ".join(context_text(c) for c in ctx if c).strip()
    return str(ctx).strip()


def _as_example_dict(row: Any) -> dict[str, Any]:
    """A plain dict view of an Example (or an example row read from examples.jsonl)."""
    if hasattr(row, "model_dump"):
        return row.model_dump(mode="json")
    return dict(row)


def _negation_details(d: Mapping[str, Any]) -> tuple[str | None, str | None]:
    """(original claim, negation method) of a negation example: ``details.original_claim``, or as the KBIN /
    ClaimGen pipelines record it, ``details.negation.{original_claim, method}`` (ClaimGen also keeps the
    supported claim as ``details.supported_claim``)."""
    details = (d.get("provenance") or {}).get("details") or {}
    raw = details.get("negation")
    neg: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    original = details.get("original_claim") or neg.get("original_claim")
    if not original and neg:
        original = details.get("supported_claim")
    return original, neg.get("method") or details.get("method")


def sheet_item(row: Any, kind: SheetKind) -> dict[str, Any]:
    """The fields a sheet row needs, from a claimforge Example (its ``provenance.details``) or a dict with
    ``claim``/``source_sentence``/``context`` (claims) or ``original_claim``/``negation`` (negations); also
    the metadata kept out of the annotators' sheet (example id, method, source item)."""
    d = _as_example_dict(row)
    details = (d.get("provenance") or {}).get("details") or {}
    ident = str(d.get("id") or "")
    meta = {
        "example_id": ident or None,
        "method": d.get("method") or d.get("group"),
        "source_item_id": d.get("source_item_id"),
    }
    if kind == "claims":
        claim = d.get("claim") or d.get("generated_claim")
        source = d.get("source_sentence") or details.get("source_sentence")
        context = d.get("context", details.get("context"))
        if not claim or not source:
            raise ValueError(f"row {ident or d!r}: a claims sheet needs a claim and a source_sentence")
        return {"claim": str(claim), "source_sentence": str(source), "context": context_text(context), **meta}
    original, negation_method = _negation_details(d)
    original = d.get("original_claim") or original
    negation = d.get("negation") if isinstance(d.get("negation"), str) else d.get("claim")
    if not original or not negation:
        raise ValueError(f"row {ident or d!r}: a negations sheet needs an original_claim and a negation")
    if negation_method and "provenance" in d:
        meta["method"] = str(negation_method)  # Table 7 compares negation methods
    return {"original_claim": str(original), "negation": str(negation), **meta}


def select_for_sheet(examples: Iterable[Any], kind: SheetKind) -> list[Any]:
    """Examples of a built dataset that belong on a sheet: SUPPORTED examples with a source sentence (claims),
    or REFUTED examples with an original claim (negations); one per distinct text (a claim paired with several
    abstracts is rated once)."""
    seen: set[tuple[str, ...]] = set()
    out: list[Any] = []
    for e in examples:
        d = _as_example_dict(e)
        details = (d.get("provenance") or {}).get("details") or {}
        if kind == "claims":
            if d.get("label") != "SUPPORTED" or not details.get("source_sentence"):
                continue
            key: tuple[str, ...] = (d["claim"], details["source_sentence"], context_text(details.get("context")))
        else:
            original, _ = _negation_details(d)
            if d.get("label") != "REFUTED" or not original:
                continue
            key = (original, d["claim"])
        if key not in seen:
            seen.add(key)
            out.append(e)
    return out


def guidelines_path(path: str | Path) -> Path:
    return Path(f"{path}.guidelines.md")


def items_path(path: str | Path) -> Path:
    return Path(f"{path}.items.jsonl")


def export_sheet(
    rows: Sequence[Any], path: str | Path, kind: SheetKind = "claims", n: int | None = None, seed: int = 0
) -> dict[str, Any]:
    """Write an annotation sheet (CSV, UTF-8 with BOM so spreadsheet programs show non-ASCII text) for a seeded
    random sample of ``n`` rows (all rows, shuffled, when ``n`` is None), with

    - ``<path>.guidelines.md``: the Table 2 definitions and the annotation rule (or the Table 7 scale);
    - ``<path>.items.jsonl``: the key kept from annotators (item id → example id, method, source item), so
      results can be split by method although the sheet is blind and in random order.

    Item ids are neutral (``c0001``, ``n0001``, in sheet order). Give every annotator a copy of the CSV.
    """
    if kind not in _HEADERS:
        raise ValueError(f"kind must be 'claims' or 'negations', not {kind!r}")
    items = [sheet_item(r, kind) for r in rows]
    rng = random.Random(seed)
    sample = rng.sample(items, len(items) if n is None else min(n, len(items)))
    headers = _HEADERS[kind]
    prefix = kind[0]
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    key_rows = []
    with open(out, "w", encoding="utf-8-sig", newline="") as f:
        w = csv.writer(f)
        w.writerow(list(headers.values()))
        for i, item in enumerate(sample, 1):
            item_id = f"{prefix}{i:04d}"
            w.writerow([item_id if k == "item_id" else item.get(k, "") for k in headers])
            key_rows.append({"item_id": item_id, **item})
    text = CLAIM_GUIDELINES if kind == "claims" else NEGATION_GUIDELINES
    guidelines_path(out).write_text(text.format(sheet=out.name, n=len(sample)), encoding="utf-8")
    items_path(out).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in key_rows), encoding="utf-8")
    return {
        "sheet": str(out),
        "guidelines": str(guidelines_path(out)),
        "items": str(items_path(out)),
        "kind": kind,
        "n": len(sample),
        "available": len(items),
        "seed": seed,
    }


@dataclass
class Sheet:
    """One annotator's filled sheet: ``ratings[item_id][criterion]`` (None where not annotated)."""

    path: Path
    kind: SheetKind
    annotator: str
    ratings: dict[str, dict[str, Any]] = field(default_factory=dict)
    comments: dict[str, str] = field(default_factory=dict)


def _header_key(h: str) -> str:
    return h.split("(")[0].strip().lower().replace(" ", "_")


def _parse_value(raw: str, criterion: str) -> Any:
    s = raw.strip()
    if criterion == "entailment" and s.upper() == "SKIP":
        return "SKIP"
    try:
        f = float(s)
    except ValueError:
        return None
    if not f.is_integer() or int(f) not in SCALES[criterion]:
        return None
    return int(f)


def _allowed(criterion: str) -> str:
    return "/".join(str(v) for v in SCALES[criterion])


def read_sheet(path: str | Path, allow_incomplete: bool = False) -> Sheet:
    """Read one filled sheet, validating every rating; errors name the file, the row (as a spreadsheet numbers
    it: the header is row 1) and the column. Rows with no rating at all are an error unless
    ``allow_incomplete`` (then they are skipped as not yet annotated)."""
    p = Path(path)
    with open(p, encoding="utf-8-sig", newline="") as f:
        reader = csv.reader(f)
        try:
            header = next(reader)
        except StopIteration:
            raise SheetError(f"{p}: empty file (no header row)") from None
        records = list(reader)
    keys = [_header_key(h) for h in header]
    kind: SheetKind
    if "entailment" in keys:
        kind = "negations"
    elif "fluency" in keys:
        kind = "claims"
    else:
        raise SheetError(f"{p}: row 1: no 'fluency' or 'entailment' column; is this an annotation sheet?")
    headers = _HEADERS[kind]
    criteria = CLAIM_CRITERIA if kind == "claims" else NEGATION_CRITERIA
    for k in ("item_id", *criteria):
        if k not in keys:
            raise SheetError(f"{p}: row 1: column {headers[k]!r} is missing")
    col = {k: keys.index(k) for k in keys if k in headers or k == "generated_claim"}
    col.setdefault("claim", col.get("generated_claim", -1))
    sheet = Sheet(path=p, kind=kind, annotator=p.stem)

    def cell(rec: list[str], key: str) -> str:
        i = col.get(key, -1)
        return rec[i] if 0 <= i < len(rec) else ""

    for r, rec in enumerate(records, 2):
        if not any(c.strip() for c in rec):
            continue
        where = f"{p}: row {r}"
        item = cell(rec, "item_id").strip()
        if not item:
            raise SheetError(f"{where}, column 'item_id': empty")
        if item in sheet.ratings:
            raise SheetError(f"{where}, column 'item_id': {item!r} appears twice")
        raw = {c: cell(rec, c).strip() for c in criteria}
        if not any(raw.values()):
            if allow_incomplete:
                continue
            raise SheetError(f"{where}, column {headers[criteria[0]]!r}: not annotated (empty)")
        values: dict[str, Any] = {}
        for c in criteria:
            if raw[c]:
                v = _parse_value(raw[c], c)
                if v is None:
                    raise SheetError(f"{where}, column {headers[c]!r}: {raw[c]!r} is not one of {_allowed(c)}")
                values[c] = v
        if kind == "claims":
            expected = annotated_criteria(values.get("fluency"), values.get("decontextualized"))
            for c in criteria:
                if c in expected and c not in values:
                    raise SheetError(f"{where}, column {headers[c]!r}: empty, but {_rule_reason(c, values)}")
                if c not in expected and c in values:
                    raise SheetError(
                        f"{where}, column {headers[c]!r}: must be empty, since {_rule_skip_reason(c, values)}"
                    )
        elif "entailment" not in values:
            raise SheetError(f"{where}, column {headers['entailment']!r}: empty")
        sheet.ratings[item] = {c: values.get(c) for c in criteria}
        comment = cell(rec, "comment").strip()
        if comment:
            sheet.comments[item] = comment
    return sheet


def _rule_reason(criterion: str, values: Mapping[str, Any]) -> str:
    if criterion == "fluency":
        return "fluency is rated for every claim"
    if criterion == "decontextualized":
        return f"fluency = {values.get('fluency')} > 1 (rate 0 or 1)"
    return "fluency > 1 and decontextualized = 1"


def _rule_skip_reason(criterion: str, values: Mapping[str, Any]) -> str:
    if criterion == "decontextualized" or values.get("fluency") is None or values["fluency"] <= 1:
        return f"fluency = {values.get('fluency')} (rated only when fluency > 1)"
    return f"decontextualized = {values.get('decontextualized')} (rated only when decontextualized = 1)"


def import_sheets(paths: Sequence[str | Path], allow_incomplete: bool = False) -> list[Sheet]:
    """Read filled sheets (see ``read_sheet``); annotators are named by file stem (made unique with the parent
    folder when two files share a stem)."""
    sheets = [read_sheet(p, allow_incomplete=allow_incomplete) for p in paths]
    stems = Counter(s.annotator for s in sheets)
    for s in sheets:
        if stems[s.annotator] > 1:
            s.annotator = f"{s.path.parent.name}/{s.path.stem}"
    return sheets


def read_items(path: str | Path) -> dict[str, dict[str, Any]]:
    """The key written next to a sheet (``<sheet>.items.jsonl``): item id → metadata."""
    out: dict[str, dict[str, Any]] = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                row = json.loads(line)
                out[row["item_id"]] = row
    return out


_NEGATION_ORDER = {"SKIP": 0, 1: 1, 2: 2, 3: 3}  # ties go to the less favourable value


def _consensus(values: Sequence[Any]) -> Any:
    counts = Counter(values)
    top = max(counts.values())
    return min((v for v, c in counts.items() if c == top), key=lambda v: _NEGATION_ORDER[v])


def agreement(sheets: Sequence[Sheet], groups: Mapping[str, str] | None = None) -> dict[str, Any]:
    """Inter-annotator agreement and the paper's summaries over filled sheets of one kind.

    - ``alpha``: per criterion Krippendorff's α over the units rated by ≥ 2 annotators (ordinal for fluency,
      faithfulness and entailment; nominal for the 0/1 criteria and, for negations, fluent vs SKIP); None
      when no unit is shared. ``fluency_agreement``: the share of shared units on which all annotators gave
      the same fluency (the paper's fluency agreement).
    - ``summary`` (claims, Table 3): per claim the mean of its annotators' ratings of each criterion, then the
      Table 3 means; a claim is accepted when more than half of its annotators' ratings pass the acceptance rule.
    - ``summary`` (negations, Table 7): per negation the majority value (ties go to the less favourable value,
      SKIP < 1 < 2 < 3); ``fluent`` = negations not SKIP, then the counts of 3 / 2 / 1; also the counts over
      all annotations.
    - ``by_group``: the same summary per group when ``groups`` maps item ids to a group (e.g. the method, from
      the sheet's items key).
    """
    if not sheets:
        raise ValueError("no sheets")
    kinds = {s.kind for s in sheets}
    if len(kinds) > 1:
        raise ValueError(f"sheets of different kinds: {', '.join(f'{s.path} ({s.kind})' for s in sheets)}")
    kind = sheets[0].kind
    units = sorted({u for s in sheets for u in s.ratings})
    by_unit: dict[str, list[dict[str, Any]]] = {u: [s.ratings[u] for s in sheets if u in s.ratings] for u in units}
    shared = [u for u in units if len(by_unit[u]) >= 2]
    doc: dict[str, Any] = {
        "kind": kind,
        "annotators": [s.annotator for s in sheets],
        "n_units": len(units),
        "n_annotations": sum(len(s.ratings) for s in sheets),
        "n_shared_units": len(shared),
    }
    criteria = CLAIM_CRITERIA if kind == "claims" else NEGATION_CRITERIA
    matrices: dict[str, list[list[Any]]] = {
        c: [[s.ratings.get(u, {}).get(c) for s in sheets] for u in shared] for c in criteria
    }
    if kind == "negations":
        matrices["negation_fluency"] = [
            [None if (v := s.ratings.get(u, {}).get("entailment")) is None else int(v != "SKIP") for s in sheets]
            for u in shared
        ]
        matrices["entailment"] = [[None if v == "SKIP" else v for v in row] for row in matrices["entailment"]]
    alpha: dict[str, Any] = {}
    for c, m in matrices.items():
        level = ALPHA_LEVELS[c]
        pairable = _pairable(m)
        value = krippendorff_alpha(m, level) if pairable else math.nan
        alpha[c] = {
            "alpha": None if math.isnan(value) else round(value, 4),
            "level": level,
            "units": len(pairable),
            "values": sum(len(u) for u in pairable),
        }
    doc["alpha"] = alpha
    if kind == "claims":
        agree = percent_agreement(matrices["fluency"])
        doc["fluency_agreement"] = None if math.isnan(agree) else round(agree, 4)
    summarise = _claims_summary if kind == "claims" else _negations_summary
    doc["summary"] = summarise({u: by_unit[u] for u in units})
    if groups:
        names = sorted({groups.get(u, "?") or "?" for u in units})
        doc["by_group"] = {
            g: summarise({u: by_unit[u] for u in units if (groups.get(u, "?") or "?") == g}) for g in names
        }
    return doc


def _claims_summary(by_unit: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    records = []
    for ratings in by_unit.values():
        rec: dict[str, Any] = {}
        for c in CLAIM_CRITERIA:
            vals = [r[c] for r in ratings if r.get(c) is not None]
            rec[c] = sum(vals) / len(vals) if vals else None
        votes = [is_acceptable(*(r.get(c) for c in CLAIM_CRITERIA)) for r in ratings]
        rec["accepted"] = sum(votes) > len(votes) / 2
        records.append(rec)
    return table3_summary(records)


def _negations_summary(by_unit: Mapping[str, list[dict[str, Any]]]) -> dict[str, Any]:
    unit_values = [_consensus([r["entailment"] for r in ratings]) for ratings in by_unit.values()]
    counts = Counter(unit_values)
    ann = Counter(r["entailment"] for ratings in by_unit.values() for r in ratings)
    return {
        "n_negations": len(unit_values),
        "fluent": sum(v for k, v in counts.items() if k != "SKIP"),
        "entailment": {str(k): counts.get(k, 0) for k in (3, 2, 1)},
        "skip": counts.get("SKIP", 0),
        "annotations": {str(k): ann.get(k, 0) for k in (3, 2, 1, "SKIP")},
    }


def agreement_markdown(doc: Mapping[str, Any]) -> str:
    """The agreement report: α per criterion, then the Table 3 (claims) or Table 7 (negations) summary."""
    lines = [
        f"# Human evaluation: {doc['kind']}",
        "",
        f"{len(doc['annotators'])} annotators ({', '.join(doc['annotators'])}), {doc['n_units']} items, "
        f"{doc['n_annotations']} annotations, {doc['n_shared_units']} items rated by ≥ 2 annotators.",
        "",
        "| criterion | Krippendorff's α | level | items | values |",
        "|---|---:|---|---:|---:|",
    ]
    for c, a in doc["alpha"].items():
        v = "–" if a["alpha"] is None else f"{a['alpha']:.4f}"
        lines.append(f"| {c} | {v} | {a['level']} | {a['units']} | {a['values']} |")
    if doc.get("fluency_agreement") is not None:
        lines += ["", f"Fluency agreement (all annotators agree): {100 * doc['fluency_agreement']:.2f}%"]
    lines.append("")
    rows = {"all": doc["summary"], **(doc.get("by_group") or {})}
    if doc["kind"] == "claims":
        lines.append(table3_markdown(rows))
    else:
        lines += ["| | Fluency (not SKIP) | Entailment 3 | 2 | 1 | # negations |", "|---|---:|---:|---:|---:|---:|"]
        for name, s in rows.items():
            e = s["entailment"]
            lines.append(f"| {name} | {s['fluent']} | {e['3']} | {e['2']} | {e['1']} | {s['n_negations']} |")
        lines.append("")
    return "\n".join(lines)


# ----------------------------------------------------------------------------------------------------------------
# Automatic per-claim scores on the Table 2 scales

# Abbreviations a biomedical reader understands without a definition, so a claim that uses them undefined is
# still interpretable on its own. A hand-made list (not taken from an authority), in the spirit of the "may be
# used without expansion" lists in biomedical journals' author instructions: (1) molecules, techniques and
# diseases whose abbreviation is their usual name (DNA, mRNA, ATP, HIV, AIDS, PCR, ELISA, CRISPR, MRI, CT, ECG,
# GWAS, SNP, COPD, ADHD); (2) statistics reported in abstracts (CI, OR, HR, RR, SD); (3) countries and agencies
# (US, UK, EU, WHO, FDA, NIH); (4) cell types, designs and drug classes that abstracts use undefined (iPSC, ESC,
# HSC, MSC, RCT, NSAID, SSRI, ACE as in "ACE inhibitor", CRP). Ambiguous short forms (MS, ALS, PD, AD, RA, OA,
# MI, ART, ...) are left out on purpose: they are the source-dependent abbreviations the paper's annotators had
# to resolve ("OA ... (MIA)" in Table 4). Extend it with ClaimScorerConfig.extra_abbreviations.
COMMON_ABBREVIATIONS: tuple[str, ...] = tuple(
    """
    DNA RNA mRNA tRNA rRNA miRNA siRNA shRNA lncRNA ncRNA snRNA cDNA mtDNA ssDNA dsDNA gDNA
    ATP ADP AMP GTP GDP cAMP cGMP NAD NADH NADP NADPH FAD
    HIV AIDS HPV HBV HCV HSV EBV CMV RSV SARS MERS COVID SARS-CoV SARS-CoV-2 TB
    PCR qPCR RT-PCR ELISA CRISPR MRI fMRI CT PET SPECT ECG EKG EEG EMG GWAS SNP SNPs RNAi RNA-seq ChIP ChIP-seq
    iPSC ESC HSC MSC RCT NSAID SSRI ACE CRP
    BMI ICU ER IQ UV HDL LDL VLDL ROS GFP YFP RFP IgA IgD IgE IgG IgM HLA MHC NK CNS PNS GI
    COPD ADHD PTSD OCD CVD CHD IVF
    CI OR HR RR SD SE
    US USA UK EU WHO FDA NIH CDC
    pH
    """.split()  # noqa: SIM905
)

_START_PRONOUNS = frozenset("it its they their them this these those that such he she his her".split())  # noqa: SIM905
_SUBJECT_PRONOUNS = frozenset("it they this these those he she".split())  # noqa: SIM905
_DEMONSTRATIVES = frozenset("this these those".split())  # noqa: SIM905
_EXPLETIVE_IT = re.compile(  # "It is known that ...", "it has recently been shown that ...": no referent needed
    r"^it\s+(?:(?:has|have|had|may|might|can|could|will|would|should|also|now|not|\w+ly)\s+){0,3}"
    r"(?:is|was|be|been|remains|remained|appears|appeared|seems|seemed)\b.*?\b(?:that|to|whether|if|how|why)\b",
    re.I,
)
_ANAPHORS = re.compile(r"\b(?:aforementioned|above-mentioned|the\s+above)\b", re.I)
_DEICTIC = re.compile(
    r"\b(?:we|our|ours|us|here|herein|hereby)\b"
    r"|\b(?:this|the\s+present|the\s+current|the\s+presented)\s+(?:study|studies|paper|work|article|review|report|"
    r"trial|analysis|investigation|experiment|experiments|manuscript|cohort|series|survey|meta-analysis)\b"
    r"|\bthe\s+authors\b"
    r"|\b(?:fig(?:ure)?s?\.?|tables?|supplementary\s+(?:fig(?:ure)?|table|material)s?)\s+[S]?\d+[A-Za-z]?\b",
    re.I,
)
_FIRST_PERSON_CASE = re.compile(r"\b(?:We|we|Our|our|Ours|ours|us)\b")  # "US" (the country) is not "us"
_CITATIONS = re.compile(
    r"\[\s*\d+(?:\s*[-–,]\s*\d+)*\s*\]"  # [12], [3, 4], [5-7]
    r"|\[\s*<\|[^\]]*\|>\s*\]"  # dataset citation tokens
    r"|\(\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+(?:19|20)\d\d[a-z]?"
    r"(?:\s*[;,]\s*(?:[A-Z][\w'\-]+(?:\s+(?:et\s+al\.?|and|&)\s*(?:[A-Z][\w'\-]+)?)?,?\s+)?(?:19|20)\d\d[a-z]?)*\s*)\)"
    r"|\bet\s+al\b\.?"
    r"|\(\s*(?:refs?\.?\s*)?\d{1,3}(?:\s*[-–,]\s*\d{1,3})*\s*\)"  # (12), (1, 2), (ref. 4)
)
_ABBREV_TOKEN = re.compile(r"[^\s,;:()\[\]{}\"'“”‘’.]+")
_ROMAN = re.compile(r"^(?=[IVXLC]+$)M*(?:C[MD]|D?C{0,3})(?:X[CL]|L?X{0,3})(?:I[XV]|V?I{0,3})$")
_GREEK = re.compile(r"[\u0370-\u03ff]")
_DANGLING = frozenset(
    """
    and or but nor of by for with from to into than via between among the a an whereas while that which whose
    its their including such
    """.split()  # noqa: SIM905
)
_VERBAL_TAGS = frozenset({"VBZ", "VBP", "VBD", "MD"})
_NOT_BEFORE_VERB = frozenset({"DET", "ADP", "CCONJ", "SCONJ", "PART", "AUX"})
_LIST_ITEM = r"[\w\-']+(?: [\w\-']+){0,2}"
_COMMA_LIST = re.compile(rf"\b{_LIST_ITEM}(?:, {_LIST_ITEM})+,? (?:and|or) {_LIST_ITEM}")  # A, B(,) and C
_DISCOURSE = frozenset(
    """
    however though thus therefore furthermore moreover interestingly additionally which when where that who
    whereas while but also then indeed finally first second respectively including such like
    """.split()  # noqa: SIM905
)
_PREPOSITIONS = frozenset("in on at for with by from of to into after before during among between under".split())  # noqa: SIM905
_NOMINAL = frozenset({"NOUN", "PROPN", "ADJ", "NUM", "X"})
_SUBJECTS = frozenset({"nsubj", "nsubj:pass", "csubj", "csubj:pass", "expl"})
_OBJECTS = frozenset({"obj", "iobj", "dobj", "attr", "ROOT"})


def _reason(code: str, detail: str = "") -> str:
    return f"{code}: {detail}" if detail else code


def fluency_checks(text: str, doc: Any) -> list[str]:
    """Surface and parse checks of fluency (each failed check lowers the LM-based level by one): a finite verb
    in the main clause (the parse, or — since the parser misses verbs in scientific text — a verb form right
    after a noun), no dangling conjunction/preposition/determiner at the end, no doubled word, balanced
    brackets."""
    reasons = []
    words = text.split()
    if len(words) < 3:
        reasons.append(_reason("too_short", f"{len(words)} words"))
    if not _has_main_finite(doc):
        reasons.append("no_finite_verb")
    toks = [t for t in doc if not t.is_punct]
    if toks and toks[-1].lower_ in _DANGLING:
        reasons.append(_reason("dangling_end", repr(toks[-1].text)))
    for a, b in zip(toks, toks[1:], strict=False):
        if a.lower_ == b.lower_ and a.is_alpha and a.lower_ not in ("that", "had"):
            reasons.append(_reason("repeated_word", repr(f"{a.text} {b.text}")))
            break
    if text.count("(") != text.count(")") or text.count("[") != text.count("]"):
        reasons.append("unbalanced_brackets")
    return reasons


def _has_main_finite(doc: Any) -> bool:
    for t in doc:
        if t.dep_ == "ROOT":
            if t.tag_ in _VERBAL_TAGS or t.tag_ == "VB" or "VerbForm=Fin" in str(t.morph):
                return True
            if any(c.dep_ in ("cop", "aux", "aux:pass") and c.tag_ in _VERBAL_TAGS for c in t.children):
                return True
    # Fallback for the parser's misses ("The herbicide inhibits EPSPS": "inhibits" tagged NNS): a finite verb
    # tagged as such anywhere, or an inflected verb form that does not follow a determiner, preposition,
    # conjunction or auxiliary (where a noun would stand).
    toks = list(doc)
    for i, t in enumerate(toks):
        if t.tag_ in _VERBAL_TAGS and t.pos_ in ("VERB", "AUX"):
            return True
        if i > 0 and finite_verb_form(t.text):
            prev = toks[i - 1]
            if prev.pos_ not in _NOT_BEFORE_VERB and prev.lower_ not in ("a", "an", "the", "to", "of"):
                return True
    return False


def decontextualization_reasons(
    text: str,
    doc: Any,
    known: frozenset[str] | None,
    digit_symbols_ok: bool = True,
    max_caps: int | None = 3,
) -> list[str]:
    """Why a claim may need its source to be understood: an unresolved pronoun or demonstrative (at the start,
    as the main clause's subject, or a demonstrative determiner), first-person or deictic reference ("we", "our",
    "here", "this study", "Figure 2"), a citation marker, an abbreviation neither defined in the claim nor in
    ``known`` (``known=None``: no abbreviation check). Empty when none is found."""
    reasons: list[str] = []
    toks = [t for t in doc if not t.is_space]
    first = toks[0].lower_ if toks else ""
    deictic = [m for m in _DEICTIC.finditer(text)]
    in_deictic = {i for m in deictic for i in range(m.start(), m.end())}
    expletive = first == "it" and _EXPLETIVE_IT.match(text.strip())
    such_as = first == "such" and len(toks) > 1 and toks[1].lower_ == "as"
    if first in _START_PRONOUNS and not expletive and not such_as:
        reasons.append(_reason("pronoun_start", repr(toks[0].text)))
    m = _ANAPHORS.search(text)
    if m:
        reasons.append(_reason("anaphor", repr(m.group(0))))
    for t in toks[1:]:
        low = t.lower_
        if low in _SUBJECT_PRONOUNS and t.dep_ in ("nsubj", "nsubj:pass", "expl") and t.head.dep_ == "ROOT":
            if low == "it" and _EXPLETIVE_IT.match(text[t.idx :]):
                continue  # "In particular, it was shown that ..."
            if not any(p.pos_ in ("NOUN", "PROPN") for p in toks[: t.i]):  # an antecedent earlier in the claim
                reasons.append(_reason("pronoun_subject", repr(t.text)))
        elif low in ("former", "latter") and t.i > 0 and doc[t.i - 1].lower_ == "the":
            nxt = doc[t.i + 1] if t.i + 1 < len(doc) else None
            if nxt is None or nxt.pos_ not in ("NOUN", "PROPN", "ADJ"):  # "the former communist countries" is not
                reasons.append(_reason("anaphor", repr(f"{doc[t.i - 1].text} {t.text}")))
        elif (
            low in _DEMONSTRATIVES
            and t.i + 1 < len(doc)
            and doc[t.i + 1].is_alpha
            and t.dep_ == "det"
            and t.idx not in in_deictic  # "this study" is reported as deictic
        ):
            reasons.append(_reason("demonstrative", repr(f"{t.text} {doc[t.i + 1].text}")))
    for m in deictic:
        word = m.group(0)
        if word.lower() in ("we", "our", "ours", "us") and not _FIRST_PERSON_CASE.fullmatch(word):
            continue
        reasons.append(_reason("deictic", repr(word)))
    for m in _CITATIONS.finditer(text):
        reasons.append(_reason("citation_marker", repr(m.group(0).strip())))
    for abbr in [] if known is None else undefined_abbreviations(text, known, digit_symbols_ok, max_caps):
        reasons.append(_reason("undefined_abbreviation", repr(abbr)))
    return list(dict.fromkeys(reasons))


def undefined_abbreviations(
    text: str, known: frozenset[str], digit_symbols_ok: bool = True, max_caps: int | None = 3
) -> list[str]:
    """Short forms that are not defined in the text — by "osteoarthritis (OA)" or "OA (osteoarthritis)" — and
    not in ``known``: all-capital tokens of 2 to ``max_caps`` letters ("OA", "MIA", "ART"; plural "RCTs" →
    "RCT") and lower-case-prefixed ones ("iPSC", "mTOR", "cRCT").

    Not taken as abbreviations: Roman numerals; capital-lower-capital names ("PrP", "RalB", "BiP"); longer
    all-capital tokens when ``max_caps`` is set ("KRAS", "EGFR", "MTHFR": gene and protein symbols, which are
    names rather than short forms, dominate them in biomedical text); and, with ``digit_symbols_ok``, tokens with
    digits or Greek letters (BRCA1, IL-6, CD4+, TNF-α, CO2)."""
    out: list[str] = []
    for m in _ABBREV_TOKEN.finditer(text):
        tok = m.group(0).strip("-–/+")
        if not tok or tok in known:
            continue
        if digit_symbols_ok and (any(ch.isdigit() for ch in tok) or _GREEK.search(tok)):
            continue
        for part in re.split(r"[-/]", tok):
            part = re.sub(r"\d+[a-z]?\+?$", "", part)  # only reached without digit_symbols_ok: BRCA1 -> BRCA
            core = part[:-1] if part.endswith("s") and sum(ch.isupper() for ch in part[:-1]) >= 2 else part
            if not core.isalpha() or core in known or _ROMAN.match(core):
                continue
            caps = sum(ch.isupper() for ch in core)
            prefixed = bool(re.fullmatch(r"[a-z]{1,2}[A-Z]{2,}", core))
            if not prefixed and not (core.isupper() and caps >= 2 and (max_caps is None or caps <= max_caps)):
                continue
            if re.search(rf"\(\s*{re.escape(core)}s?\s*[),;]", text) or re.search(rf"\b{re.escape(core)}s?\s*\(", text):
                continue  # defined by a parenthetical in the claim
            if core not in out:
                out.append(core)
    return out


def atomicity_reasons(text: str, doc: Any) -> list[str]:
    """Why a claim may not be atomic: coordinated clauses (a conjunct verb with its own subject), more than one
    main predicate (coordinated verbs sharing a subject, parataxis, a semicolon, a "whereas"/"while"/"but"
    clause), a list of ≥ 3 coordinated noun phrases (in the subject or object when the parse says where), or
    "respectively". Empty when none is found."""
    reasons: list[str] = []
    toks = list(doc)
    for t in toks:
        if t.dep_ == "conj" and _predicate(t.head) and _finite(t):
            if any(c.dep_ in ("nsubj", "nsubj:pass") for c in t.children):
                reasons.append(_reason("coordinated_clauses", repr(f"{t.head.text} … {t.text}")))
            else:
                reasons.append(_reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
        elif t.dep_ == "parataxis" and _finite(t) and _predicate(t.head) and t.head.dep_ == "ROOT":
            reasons.append(_reason("multiple_predicates", repr(f"{t.head.text} … {t.text}")))
    # Lexical backups for parser misses: "and/or/but [adverb] VBZ-verb" with no noun reading ("and reduces").
    for i, t in enumerate(toks[:-1]):
        if t.lower_ in ("and", "or", "but"):
            j = i + 1
            if toks[j].tag_ == "RB" or toks[j].lower_ in ("also", "thereby", "then", "not"):
                j += 1
            if (
                j < len(toks)
                and finite_verb_form(toks[j].text, third_person_only=True)
                and not _noun_reading(toks[j].text)
            ):
                reasons.append(_reason("multiple_predicates", repr(f"{t.text} {toks[j].text}")))

    def verb_like(u: Any) -> bool:
        return (u.tag_ in _VERBAL_TAGS and u.pos_ in ("VERB", "AUX")) or (
            finite_verb_form(u.text, third_person_only=True) and not _noun_reading(u.text)
        )

    for i, t in enumerate(toks[:-2]):  # "X reduces pain, and ibuprofen lowers fever": a second clause
        if t.text == "," and toks[i + 1].lower_ in ("and", "or", "but") and any(verb_like(u) for u in toks[:i]):
            for u in toks[i + 3 : i + 7]:
                if u.is_punct:
                    break
                if verb_like(u):
                    reasons.append(_reason("coordinated_clauses", repr(f", {toks[i + 1].text} … {u.text}")))
                    break
    if ";" in text:
        reasons.append(_reason("multiple_predicates", "';'"))
    m = re.search(r"\bwhereas\b|,\s*(?:while|but)\b", text, re.I)
    if m:
        reasons.append(_reason("coordinated_clauses", repr(m.group(0).strip(", "))))
    for t in toks:
        conjs = [c for c in t.children if c.dep_ == "conj" and c.pos_ in _NOMINAL]
        if len(conjs) >= 2 and t.pos_ in _NOMINAL:
            span = doc[t.i : conjs[-1].i]
            if not any(x.text == "," for x in span) or not any(x.dep_ == "cc" for x in conjs[-1].children):
                continue  # "A, B and C" has a comma and a conjunction; parser noise has not
            where = _np_position(t)
            reasons.append(_reason("list", f"{len(conjs) + 1} coordinated items{where}: {t.text}, …, {conjs[-1].text}"))
    if not any(r.startswith("list") for r in reasons):
        for m in _COMMA_LIST.finditer(text):
            words = re.findall(r"[\w\-']+", m.group(0).lower())
            if (
                _DISCOURSE.isdisjoint(words)
                and words[0] not in _PREPOSITIONS
                and not any(finite_verb_form(w, third_person_only=True) for w in words)
            ):
                reasons.append(_reason("list", f"comma-separated items: {m.group(0)!r}"))
                break
    if re.search(r"\brespectively\b", text, re.I):
        reasons.append("respectively")
    return list(dict.fromkeys(reasons))


def _finite(t: Any) -> bool:
    """A finite verb by the parse (tag and UPOS agree), or a verb with its own subject or auxiliary."""
    if t.pos_ not in ("VERB", "AUX"):
        return False
    return t.tag_ in _VERBAL_TAGS or any(c.dep_ in ("nsubj", "nsubj:pass", "aux", "aux:pass") for c in t.children)


def _predicate(t: Any) -> bool:
    """A verb, or a nominal/adjectival predicate with a copula."""
    return t.pos_ in ("VERB", "AUX") or any(c.dep_ == "cop" for c in t.children)


def _np_position(t: Any) -> str:
    node = t
    for _ in range(6):
        if node.dep_ in _SUBJECTS:
            return " in the subject"
        if node.dep_ in _OBJECTS:
            return " in the object" if node.dep_ != "ROOT" else " in the predicate"
        if node.head is node:
            break
        node = node.head
    return ""


def content_overlap(claim: str, premise: str) -> float:
    """Share of the claim's content lemmas that occur in the premise (0 for a claim with no content word)."""
    from claimforge.nlp.normalize import content_lemmas

    words = set(content_lemmas(claim))
    if not words:
        return 0.0
    return len(words & set(content_lemmas(premise))) / len(words)


class ClaimScorerConfig(ComponentConfig):
    """What ``ClaimScorer`` runs and the thresholds that map model outputs onto the Table 2 scales."""

    nlp: dict[str, Any] = Field(default_factory=lambda: {"name": "spacy"})
    lm: dict[str, Any] | None = Field(default_factory=lambda: {"name": "ngram"})  # None: parse checks only
    nli: dict[str, Any] = Field(default_factory=lambda: {"name": "embedded"})
    # Fluency from the LM (docs/claim_quality.md; defaults measured by bench/claim_quality_calibration.py on the
    # SciFact train claims with the shipped lm-ngram): "perplexity", and "ratio" = the claim's perplexity divided
    # by the geometric mean perplexity of `shuffles` random orders of its own words (rare terms cancel out).
    # Per measure ≤ good → 3, ≤ bad → 2, above → 1; "both" takes the lower level; then −1 per failed parse check.
    fluency_measure: Literal["both", "ratio", "perplexity"] = "both"
    shuffles: int = Field(default=5, ge=1)
    ratio_good: float = 0.51
    ratio_bad: float = 1.0
    ppl_good: float = 1670.0
    ppl_bad: float = 6120.0
    # Faithfulness from NLI (premise = source sentence + context, hypothesis = claim).
    # Defaults calibrated for the embedded NLI model on SciFact citances and their expert rewrites (see
    # faithfulness_score for the order in which they apply; another NLI model needs its own calibration).
    # Calibrated for the embedded judge of 2026-11-24 (bench/claim_quality_calibration.py; docs/claim_quality.md)
    entail_high: float = 0.92  # P(entailment) ≥ → 5
    entail_low: float = 0.0  # P(entailment) ≥ → 4 (this judge is bimodal: its 10th percentile of faithful is 0.002)
    contradiction: float = 0.76  # P(contradiction) ≥ → 2
    unrelated_overlap: float = 0.4  # content-word overlap with the premise < (and not entailed ≥ entail_high) → 1
    use_context: bool = True  # put the context into the NLI premise after the source sentence
    check_abbreviations: bool = True  # false: undefined abbreviations do not make a claim context-dependent
    common_abbreviations: tuple[str, ...] = COMMON_ABBREVIATIONS
    extra_abbreviations: tuple[str, ...] = ()
    abbreviation_max_caps: int | None = 3  # longer all-capital tokens are taken as gene/protein symbols
    digit_symbols_ok: bool = True


class ClaimScores(BaseModel):
    """Automatic scores of one claim on the Table 2 scales, each with the reasons behind it."""

    model_config = ConfigDict(frozen=True)

    claim: str
    fluency: int
    decontextualized: int
    atomicity: int
    faithfulness: int
    acceptable: bool
    reasons: dict[str, list[str]]
    perplexity: float | None = None
    perplexity_ratio: float | None = None  # perplexity / geometric mean perplexity of shuffled word orders
    nli: dict[str, float] | None = None
    overlap: float = 0.0


def faithfulness_score(probs: Sequence[float], overlap: float, config: ClaimScorerConfig) -> tuple[int, str]:
    """Map NLI probabilities (entailment, contradiction, neutral) of premise (source sentence + context) → claim,
    and the claim's content-word overlap with the premise, onto the 1–5 scale, in this order:

    1. overlap < unrelated_overlap and P(ent) < entail_high → 1 (nothing to do with the sentence). Not "neutral":
       the embedded NLI model rarely predicts neutral for unrelated scientific sentences (docs/claim_quality.md);
    2. P(ent) ≥ entail_high → 5 (fully supported);
    3. P(con) ≥ contradiction → 2 (explicitly incorrect information);
    4. P(ent) ≥ entail_low → 4 (supported, less certain: the model cannot tell "leaves out information");
    5. otherwise → 3 (related, not explicitly stated).
    """
    ent, con, _neu = (float(p) for p in probs)
    c = config
    if overlap < c.unrelated_overlap and ent < c.entail_high:
        return 1, _reason(
            "unrelated", f"content overlap {overlap:.2f} < {c.unrelated_overlap}, P(entailment) {ent:.2f}"
        )
    if ent >= c.entail_high:
        return 5, _reason("entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_high}")
    if con >= c.contradiction:
        return 2, _reason("contradicted", f"P(contradiction) {con:.2f} ≥ {c.contradiction}")
    if ent >= c.entail_low:
        return 4, _reason("probably_entailed", f"P(entailment) {ent:.2f} ≥ {c.entail_low}")
    return 3, _reason("related_not_stated", f"P(entailment) {ent:.2f}, content overlap {overlap:.2f}")


def shuffled_orders(text: str, k: int) -> list[str]:
    """``k`` random orders of the words of ``text`` (final punctuation kept last), seeded by the text itself so
    a claim always gets the same shuffles."""
    words = text.strip().split()
    end = ""
    if words and words[-1][-1:] in ".!?":
        end = words[-1][-1]
        words[-1] = words[-1][:-1] or words[-1]
    rng = random.Random(zlib.crc32(text.encode("utf-8")))
    out = []
    for _ in range(k):
        w = words[:]
        rng.shuffle(w)
        out.append(" ".join(w) + end)
    return out


def lm_fluency_stats(lm: Any, texts: Sequence[str], shuffles: int) -> tuple[np.ndarray, np.ndarray]:
    """Perplexity of each text and its ratio to the geometric mean perplexity of ``shuffles`` random orders of
    the same words — one LM call for texts and shuffles together. The ratio is about 1 for word salad and well
    below 1 for a well-formed sentence, whatever the rarity of its terms."""
    variants = [v for t in texts for v in shuffled_orders(t, shuffles)]
    ppl = np.asarray(lm.perplexity(list(texts) + variants), dtype=float)
    own, shuf = ppl[: len(texts)], ppl[len(texts) :].reshape(len(texts), shuffles)
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.exp(np.log(own) - np.log(shuf).mean(axis=1))
    return own, ratio


def fluency_score(
    perplexity: float | None,
    checks: Sequence[str],
    config: ClaimScorerConfig,
    ratio: float | None = None,
) -> tuple[int, list[str]]:
    """The LM level — 3 / 2 / 1 by the thresholds of the measure(s) in ``config.fluency_measure``, the lower level
    when both are used, 3 without an LM — minus one per failed parse/surface check, at least 1."""
    reasons: list[str] = []
    measures = []
    if config.fluency_measure in ("both", "perplexity"):
        measures.append(("perplexity", perplexity, config.ppl_good, config.ppl_bad))
    if config.fluency_measure in ("both", "ratio"):
        measures.append(("perplexity_ratio", ratio, config.ratio_good, config.ratio_bad))
    level = 3
    for name, value, good, bad in measures:
        if value is None:
            continue
        if not math.isfinite(value) or value > bad:
            level = 1
            reasons.append(_reason(f"{name}_very_high", f"{value:.3g} > {bad:g}"))
        elif value > good:
            level = min(level, 2)
            reasons.append(_reason(f"{name}_high", f"{value:.3g} > {good:g}"))
    reasons.extend(checks)
    return max(1, level - len(checks)), reasons


Triple = tuple[str, str, "str | Sequence[str] | None"]


class ClaimScorer:
    """Automatic scores of (claim, source sentence, context) triples on the paper's Table 2 scales.

    Components are built from the config on first use (kind "nlp", "lm", "nli" of the registry); tests and
    callers may pass ready objects instead (``nlp=``, ``lm=``, ``nli=``) with the same interfaces.
    """

    def __init__(self, config: ClaimScorerConfig | None = None, *, nlp: Any = None, lm: Any = None, nli: Any = None):
        self.config = config or ClaimScorerConfig()
        self._nlp, self._lm, self._nli = nlp, lm, nli
        self.known = frozenset(self.config.common_abbreviations) | frozenset(self.config.extra_abbreviations)

    @property
    def nlp(self) -> Any:
        if self._nlp is None:
            self._nlp = registry.build("nlp", self.config.nlp)
        return self._nlp

    @property
    def lm(self) -> Any:
        if self._lm is None and self.config.lm is not None:
            self._lm = registry.build("lm", self.config.lm)
        return self._lm

    @property
    def nli(self) -> Any:
        if self._nli is None:
            self._nli = registry.build("nli", self.config.nli)
        return self._nli

    def components(self) -> dict[str, str]:
        """Model ids of the components used (for the summary)."""
        out = {"nlp": str(getattr(self.nlp, "model_id", self.config.nlp.get("name")))}
        if self.lm is not None:
            out["lm"] = str(getattr(self.lm, "model_id", ""))
        out["nli"] = str(getattr(self.nli, "model_id", ""))
        return out

    def score(self, claims: Sequence[Triple], progress: Any = None) -> list[ClaimScores]:
        """Scores of each (claim, source_sentence, context) in order: one parse batch, one LM call, one NLI call."""
        from claimforge.records import Pair

        if not claims:
            return []
        texts = [c[0].strip() for c in claims]
        premises = []
        for _, source, context in claims:
            ctx = context_text(context) if self.config.use_context else ""
            premises.append((source.strip(), ctx) if ctx else (source.strip(),))
        docs = self.nlp.parse(texts)
        ppl: list[float | None] = [None] * len(texts)
        ratio: list[float | None] = [None] * len(texts)
        if self.lm is not None:
            if self.config.fluency_measure != "perplexity":
                own, rel = lm_fluency_stats(self.lm, texts, self.config.shuffles)
                ppl, ratio = [float(p) for p in own], [float(r) for r in rel]
            else:
                ppl = [float(p) for p in np.asarray(self.lm.perplexity(texts), dtype=float)]
        pairs = [Pair(id=str(i), claim=t, evidence=p) for i, (t, p) in enumerate(zip(texts, premises, strict=True))]
        probs = np.asarray(self.nli.predict_proba(pairs), dtype=float)
        out = []
        for i, (text, doc) in enumerate(zip(texts, docs, strict=True)):
            overlap = content_overlap(text, " ".join(premises[i]))
            fl, fl_reasons = fluency_score(ppl[i], fluency_checks(text, doc), self.config, ratio[i])
            dc_reasons = decontextualization_reasons(
                text,
                doc,
                self.known if self.config.check_abbreviations else None,
                self.config.digit_symbols_ok,
                self.config.abbreviation_max_caps,
            )
            at_reasons = atomicity_reasons(text, doc)
            fa, fa_reason = faithfulness_score(probs[i], overlap, self.config)
            dc, at = int(not dc_reasons), int(not at_reasons)
            out.append(
                ClaimScores(
                    claim=text,
                    fluency=fl,
                    decontextualized=dc,
                    atomicity=at,
                    faithfulness=fa,
                    acceptable=is_acceptable(fl, dc, at, fa),
                    reasons={
                        "fluency": fl_reasons,
                        "decontextualized": dc_reasons,
                        "atomicity": at_reasons,
                        "faithfulness": [fa_reason],
                    },
                    perplexity=_round(ppl[i], 3),
                    perplexity_ratio=_round(ratio[i], 4),
                    nli={
                        k: round(float(v), 4)
                        for k, v in zip(("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"), probs[i], strict=True)
                    },
                    overlap=round(overlap, 4),
                )
            )
        return out


def _round(v: float | None, nd: int) -> float | None:
    return None if v is None or not math.isfinite(v) else round(v, nd)


def summarise(scores: Sequence[ClaimScores]) -> dict[str, Any]:
    """Table 3 over automatic scores, with the paper's annotation rule applied as if the scorer were an annotator
    (De-Con. % over claims with fluency > 1; Atomic % and Faithfulness over claims also de-contextualized), plus
    the unconditional rates and how often each reason code fired."""
    records = []
    for s in scores:
        rated = annotated_criteria(s.fluency, s.decontextualized)
        rec: dict[str, Any] = {c: (getattr(s, c) if c in rated else None) for c in CLAIM_CRITERIA}
        rec["accepted"] = s.acceptable
        records.append(rec)
    out = table3_summary(records)
    n = len(scores)
    out["all_claims"] = {
        "decontextualized_pct": round(100 * sum(s.decontextualized for s in scores) / n, 2) if n else None,
        "atomicity_pct": round(100 * sum(s.atomicity for s in scores) / n, 2) if n else None,
        "faithfulness": round(sum(s.faithfulness for s in scores) / n, 4) if n else None,
        "fluency_distribution": {str(v): sum(1 for s in scores if s.fluency == v) for v in (3, 2, 1)},
        "faithfulness_distribution": {str(v): sum(1 for s in scores if s.faithfulness == v) for v in (5, 4, 3, 2, 1)},
    }
    codes: dict[str, Counter[str]] = defaultdict(Counter)
    for s in scores:
        for crit, reasons in s.reasons.items():
            for r in dict.fromkeys(r.split(":")[0] for r in reasons):
                codes[crit][r] += 1
    out["reasons"] = {c: dict(cnt.most_common()) for c, cnt in sorted(codes.items())}
    return out
