"""Readers for the general-domain NLI / fact-verification sets the embedded NLI model is trained on
(VitaminC, FEVER-NLI, ANLI, SNLI via e-SNLI, NLI4CT, SICK), each yielding ``Pair`` records.

NLI premise = evidence, hypothesis = claim; entailment → SUPPORTED, contradiction → REFUTED,
neutral → NOT_ENOUGH_INFO; a binary "not entailment" allows REFUTED or NOT_ENOUGH_INFO.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Callable
from pathlib import Path

from claimforge.io.benchmarks import RecordError, label_key, parse_label_map
from claimforge.io.rows import InputError, iter_json_records
from claimforge.records import Label, Pair

# The project's one table of label spellings; a binary "not entailment" allows REFUTED or NOT_ENOUGH_INFO.
LABELS = parse_label_map({}, num_labels=3)


def _labels(raw: str, path: Path, line: int | None) -> tuple[Label, ...]:
    try:
        return LABELS[label_key(raw)]
    except KeyError:
        raise RecordError(path, line, f"unknown label {raw!r}") from None


def _detok(text: str) -> str:
    """Undo the PTB-style spacing of FEVER / e-SNLI text ("word ." → "word.")."""
    text = text.replace("-LRB-", "(").replace("-RRB-", ")")
    for a, b in ((" .", "."), (" ,", ","), (" 's", "'s"), (" n't", "n't"), ("( ", "("), (" )", ")"), (" ;", ";")):
        text = text.replace(a, b)
    return text.strip()


def claim_evidence_jsonl(name: str, path: Path) -> list[Pair]:
    """VitaminC / ANLI fact-verification JSONL: ``{claim, evidence, label}``."""
    out = []
    for rec in iter_json_records(path):
        n, row = rec.line, rec.data
        where = f"{path}:{n}"
        if row is None:
            raise RecordError(path, n, rec.error or "no data")
        try:
            claim, evidence, raw = row["claim"], row["evidence"], row["label"]
        except KeyError as e:
            raise RecordError(path, n, f"missing field {e.args[0]!r}") from None
        group = row.get("case_id") or n  # VitaminC's contrastive pairs share a case: keep them together
        out.append(
            Pair(
                id=f"{name}:{group}:{n}",
                claim=_detok(claim),
                evidence=(_detok(evidence),),
                labels=_labels(raw, path, n),
                source=where,
            )
        )
    return out


def line_aligned(name: str, claims: Path, evidence: Path, labels: Path) -> list[Pair]:
    """Three files with one claim / evidence / label per line (FEVER-NLI, e-SNLI)."""
    rows = [p.read_text(encoding="utf-8").splitlines() for p in (claims, evidence, labels)]
    if len({len(r) for r in rows}) != 1:
        raise InputError(
            labels,
            None,
            f"line counts of {claims.name}, {evidence.name}, {labels.name} differ ({[len(r) for r in rows]})",
        )
    return [
        Pair(
            id=f"{name}:{n}",
            claim=_detok(c),
            evidence=(_detok(e),),
            labels=_labels(lab, labels, n),
            source=f"{claims}:{n}",
        )
        for n, (c, e, lab) in enumerate(zip(*rows, strict=True), 1)
    ]


def nli4ct(name: str, path: Path, trials_dir: Path) -> list[Pair]:
    """NLI4CT statements against the evidence lines of the trial report section(s) they cite."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as e:
        raise RecordError(path, e.lineno, f"not valid JSON ({e.msg})") from None
    out = []
    for sid, row in data.items():
        try:
            evidence = _nli4ct_evidence(row, trials_dir)
            claim, raw = row["Statement"].strip(), row["Label"]
        except (KeyError, OSError, ValueError, IndexError, AttributeError) as e:
            raise RecordError(path, None, f"statement {sid}: {type(e).__name__}: {e}") from None
        out.append(
            Pair(
                id=f"{name}:{sid}",
                claim=claim,
                evidence=tuple(evidence),
                labels=_labels(raw, path, None),
                source=f"{path}:{sid}",
            )
        )
    return out


def _nli4ct_evidence(row: dict, trials_dir: Path) -> list[str]:
    evidence: list[str] = []
    for role in ("Primary", "Secondary"):
        trial = row.get(f"{role}_id")
        if not trial:
            continue
        report = json.loads((trials_dir / f"{trial}.json").read_text(encoding="utf-8"))
        lines = report[row["Section_id"]]
        # an index past the section's end is an error (IndexError), not a silently shorter evidence
        picked = [lines[i].strip() for i in row.get(f"{role}_evidence_index", range(len(lines)))]
        prefix = f"{role} trial: " if row.get("Type") == "Comparison" else ""
        evidence.extend(prefix + line for line in picked if line)
    return evidence


def sick(name: str, path: Path) -> list[Pair]:
    out = []
    with open(path, encoding="utf-8", newline="") as f:
        for n, row in enumerate(csv.DictReader(f, delimiter="\t"), 2):
            try:
                pair_id, claim, evidence, raw = (
                    row["pair_ID"],
                    row["sentence_B"],
                    row["sentence_A"],
                    row["entailment_judgment"],
                )
            except KeyError as e:
                raise RecordError(path, n, f"missing column {e.args[0]!r}") from None
            out.append(
                Pair(
                    id=f"{name}:{pair_id}",
                    claim=claim,
                    evidence=(evidence,),
                    labels=_labels(raw or "", path, n),
                    source=f"{path}:{n}",
                )
            )
    return out


def nli_sources(root: Path) -> dict[str, Callable[[], list[Pair]]]:
    """The NLI training sources under ``root`` (``../shared/data/nli``), by name, loaded lazily."""
    return {
        "vitaminc_real": lambda: claim_evidence_jsonl("vitaminc_real", root / "vitaminc_real/test.jsonl"),
        "vitaminc_synthetic": lambda: claim_evidence_jsonl(
            "vitaminc_synthetic", root / "vitaminc_synthetic/test.jsonl"
        ),
        "anli": lambda: claim_evidence_jsonl("anli", root / "anli/test.jsonl"),
        "fever_nli": lambda: line_aligned(
            "fever_nli", root / "fever_nli/claim.txt", root / "fever_nli/evidence.txt", root / "fever_nli/label.txt"
        ),
        "snli": lambda: [
            p
            for split in ("dev", "test")
            for p in line_aligned(
                f"snli_{split}", root / f"esnli/s2.{split}", root / f"esnli/s1.{split}", root / f"esnli/labels.{split}"
            )
        ],
        "nli4ct": lambda: [
            p
            for split in ("train", "dev")
            for p in nli4ct(f"nli4ct_{split}", root / f"nli4ct/{split}.json", root / "nli4ct/CT_json")
        ],
        "sick": lambda: sick("sick", root / "sick/SICK_semeval2014_format.txt"),
    }
