"""``claimforge audit labels``: score every labelled pair of a dataset with the judge and list the suspect ones.

Works on any dataset claimforge reads: a ``claimforge build`` folder (its examples, with their method) or any
task (SciFact-format claim files, the generic pairs format for FEVER-style files, the benchmarks). A pair is
*suspect* when the label check (:mod:`claimforge.verify.label_check`) does not confirm its label; with two
allowed labels ("REFUTED or NOT_ENOUGH_INFO") it is suspect when it confirms neither.

Writes ``scores.jsonl`` (every pair with its probabilities), ``suspects.jsonl`` (the suspect ones, most
suspect first), ``summary.json`` and ``summary.md`` (counts by label and by method).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from claimforge.io.benchmarks import load_task
from claimforge.io.dataset import atomic_open, jsonl_file, read_examples
from claimforge.records import Label
from claimforge.registry import registry
from claimforge.verify.label_check import Thresholds, Verdict, evidence_sentences, judge, verdict


@dataclass(frozen=True)
class Labelled:
    """One pair to audit: where it came from (split, method) and its allowed labels."""

    id: str
    split: str
    method: str
    claim: str
    evidence: tuple[str, ...]
    labels: tuple[Label, ...]
    source: str


def _dataset_folder(data: str | Mapping[str, Any]) -> Path | None:
    if not isinstance(data, str):
        return None
    path = Path(data)
    if path.is_dir() and (path / "examples.jsonl").is_file():
        return path / "examples.jsonl"
    return path if path.name == "examples.jsonl" and path.is_file() else None


def load_labelled(data: str | Mapping[str, Any], split: str | None = None) -> tuple[list[Labelled], list[str]]:
    """The labelled pairs of ``data`` (a claimforge dataset folder, a task name or a task spec) and the
    notes on what was left out (unlabelled pairs, records the task rejected), each naming its source."""
    notes: list[str] = []
    examples = _dataset_folder(data)
    if examples is None and isinstance(data, Mapping):
        examples = _dataset_folder(str(data.get("name", "")))
        if examples is not None:
            raise ValueError(f"{data['name']}: a claimforge build takes no data.* settings (they are a task's)")
    if examples is not None:
        if split is not None:
            raise ValueError(f"{examples.parent}: a claimforge build has no splits (--split is for tasks)")
        out = [
            Labelled(e.id, "all", e.method, e.claim, evidence_sentences(e.evidence), (e.label,), f"{examples}:{n}")
            for n, e in enumerate(read_examples(examples), 1)
        ]
        return out, notes
    task = load_task({"name": data} if isinstance(data, str) else data)
    splits = [split] if split else [s for s in task.splits() if s != "all"]
    out = []
    for s in splits:
        for p in task.load(s):
            if not p.labels:
                notes.append(f"{p.source or p.id}: unlabelled, not audited")
                continue
            out.append(Labelled(p.id, s, task.name, p.claim, p.evidence, p.labels, p.source))
        notes.extend(f"{source}: {reason}" for source, reason in task.rejects)
    return out, list(dict.fromkeys(notes))  # a bad record is a reject of every split: count it once


def _best(pair: Labelled, probs: Sequence[float], th: Thresholds) -> Verdict:
    """The verdict of the pair's allowed label the judge confirms best."""
    return max((verdict(lab, probs, th) for lab in pair.labels), key=lambda v: v.margin)


def audit_labels(
    data: str | Mapping[str, Any],
    judge_spec: Mapping[str, Any],
    thresholds: Thresholds,
    out: Path,
    split: str | None = None,
    log: Callable[[str], None] = lambda _m: None,
) -> dict[str, Any]:
    """Score ``data`` with the judge, write the audit folder ``out`` and return its summary."""
    pairs, notes = load_labelled(data, split)
    log(f"{len(pairs)} labelled pairs; scoring with the judge")
    model = registry.build("nli", dict(judge_spec))
    probs = judge(model, [p.claim for p in pairs], [p.evidence for p in pairs])
    verdicts = [_best(p, pr, thresholds) for p, pr in zip(pairs, probs, strict=True)]
    rows = []
    for p, pr, v in zip(pairs, probs, verdicts, strict=True):
        rows.append(
            {
                "id": p.id,
                "split": p.split,
                "method": p.method,
                "label": "|".join(lab.value for lab in p.labels),
                "judge": {
                    "entailment": round(float(pr[0]), 4),
                    "contradiction": round(float(pr[1]), 4),
                    "neutral": round(float(pr[2]), 4),
                },
                "confirmed": v.passed,
                "margin": round(v.margin, 4),
                "why": "" if v.passed else v.explain(thresholds),
                "claim": p.claim,
                "evidence": " ".join(p.evidence),
                "source": p.source,
            }
        )
    suspects = sorted((r for r in rows if not r["confirmed"]), key=lambda r: (r["margin"], r["id"]))
    out.mkdir(parents=True, exist_ok=True)
    jsonl_file(out / "scores.jsonl", rows)
    jsonl_file(out / "suspects.jsonl", suspects)
    summary = {
        "data": data if isinstance(data, str) else dict(data),
        "judge": model.model_id,
        "thresholds": thresholds.model_dump(),
        "pairs": len(rows),
        "suspect": len(suspects),
        "by_label": _counts(rows, "label"),
        "by_method": _counts(rows, "method"),
        "by_split": _counts(rows, "split"),
        "left_out": len(notes),
        "left_out_examples": notes[:20],
    }
    with atomic_open(out / "summary.json") as f:
        f.write(json.dumps(summary, indent=2) + "\n")
    with atomic_open(out / "summary.md") as f:
        f.write(render_summary(summary, suspects))
    return summary


def _counts(rows: list[dict[str, Any]], key: str) -> dict[str, dict[str, Any]]:
    total = Counter(r[key] for r in rows)
    bad = Counter(r[key] for r in rows if not r["confirmed"])
    return {
        k: {"pairs": n, "confirmed": n - bad[k], "suspect": bad[k], "suspect_share": round(bad[k] / n, 3)}
        for k, n in sorted(total.items())
    }


def render_summary(summary: dict[str, Any], suspects: list[dict[str, Any]], show: int = 15) -> str:
    th = summary["thresholds"]
    lines = [
        "# Label audit",
        "",
        f"- data: `{summary['data']}`; judge: `{summary['judge']}`",
        f"- gates: SUPPORTED P(entailment) ≥ {th['entailment']}; REFUTED P(contradiction) ≥ {th['contradiction']}; "
        f"NOT_ENOUGH_INFO P(entailment) < {th['nei_entailment']} and P(contradiction) < {th['nei_contradiction']}",
        f"- pairs: **{summary['pairs']}**, suspect (label not confirmed): **{summary['suspect']}**; "
        f"left out (unlabelled or rejected by the reader): {summary['left_out']}",
        "",
        "The judge confirms only labels it is sure of: a suspect pair is one to read, not proof of a wrong label.",
    ]
    for key, title in (("by_label", "label"), ("by_method", "method"), ("by_split", "split")):
        lines += ["", f"| {title} | pairs | confirmed | suspect | suspect share |", "|---|---:|---:|---:|---:|"]
        lines += [
            f"| {k} | {v['pairs']} | {v['confirmed']} | {v['suspect']} | {v['suspect_share']:.1%} |"
            for k, v in summary[key].items()
        ]
    if suspects:
        lines += ["", f"## The {min(show, len(suspects))} most suspect (all in suspects.jsonl)", ""]
        for r in suspects[:show]:
            ev = r["evidence"] if len(r["evidence"]) < 300 else r["evidence"][:300] + " …"
            lines += [f"- `{r['id']}` **{r['label']}** ({r['why']}): {r['claim']}  ", f"  evidence: {ev}"]
    return "\n".join(lines) + "\n"
