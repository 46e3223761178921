"""Human-evaluation sheets of claim quality (Wright et al. 2022): the Table 2 criteria with the annotation and
acceptance rules, sheets to fill (CSV + guidelines), reading them back, agreement between annotators and the
Table 3 / Table 7 summaries. See docs/claim_quality.md.
"""

from __future__ import annotations

import csv
import json
import math
import random
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from claimforge.evaluate.agreement import AlphaLevel, alpha_entry, percent_agreement

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


def negation_details(d: Mapping[str, Any]) -> tuple[str | None, str | None]:
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
    original, negation_method = negation_details(d)
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
            original, _ = negation_details(d)
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
        alpha[c] = alpha_entry(m, ALPHA_LEVELS[c])
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
