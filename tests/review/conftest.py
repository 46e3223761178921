"""A small built dataset written by the tests themselves (no shared data): what ``claimforge review`` reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimforge.records import Example, Label, Provenance, QAPair, Reject, SourceRef

EVIDENCE = (
    "Aspirin lowers the risk of a second stroke in adults. The effect was seen at 75 mg a day (Fig. 2). "
    "Bleeding was more common with aspirin."
)


def _example(i: int, label: Label, claim: str, details: dict, method: str = "claimgen-entity") -> Example:
    ref = SourceRef(dataset="toy", path="toy/claims.jsonl", line=i + 1, item_id=f"toy:{i}")
    prov = Provenance(method=method, method_version="1", source=ref, details=details)
    suffix = {"SUPPORTED": "S", "REFUTED": "R", "NOT_ENOUGH_INFO": "N"}[label.value]
    return Example(
        id=f"toy:{i}#1{suffix}",
        claim=claim,
        evidence=EVIDENCE,
        evidence_id=f"doc{i % 3}",
        label=label,
        source_item_id=ref.item_id,
        method=method,
        provenance=prov,
    )


def toy_examples(n: int = 12) -> list[Example]:
    out = []
    for i in range(n):
        source = f"Aspirin lowers the risk of a second stroke in adults, as trial {i} showed."
        kind = i % 3
        if kind == 0:
            out.append(
                _example(
                    i,
                    Label.SUPPORTED,
                    f"Aspirin lowers the risk of stroke number {i}.",
                    {
                        "source_sentence": source,
                        "context": "Trials ran for a year.",
                        "entity_source": "ner",
                        "label_check": {"entailment": 0.91, "contradiction": 0.02, "neutral": 0.07},
                    },
                )  # fmt: skip
            )
        elif kind == 1:
            original = f"Aspirin lowers the risk of stroke number {i}."
            out.append(
                _example(
                    i,
                    Label.REFUTED,
                    f"Aspirin raises the risk of stroke number {i}.",
                    {
                        "source_sentence": source,
                        "entity_source": "noun_chunk",
                        "negation": {
                            "method": "minimal-edit",
                            "original_claim": original,
                            "replaced": "lowers",
                            "replacement": "raises",
                        },
                    },
                )  # fmt: skip
            )
        else:
            out.append(
                _example(
                    i,
                    Label.NOT_ENOUGH_INFO,
                    f"Statins cure migraine in trial {i}.",
                    {"entity_source": "ner"},
                    method="claimgen-nei",
                )  # fmt: skip
            )
    qa = QAPair(kind="what", role="agent", claim_span="Aspirin", start=0, end=7, question="What lowers the risk?",
                answer="Aspirin", answer_score=0.9, evidence_sentence="Aspirin lowers the risk of a second stroke in "
                "adults.", verdict="supported")  # fmt: skip
    out[0] = out[0].model_copy(update={"qa_pairs": (qa,)})
    return out


def write_toy_build(folder: Path, n: int = 12) -> Path:
    """A folder as ``claimforge build`` leaves it: examples.jsonl, rejects.jsonl, manifest.json."""
    folder.mkdir(parents=True, exist_ok=True)
    examples = toy_examples(n)
    with open(folder / "examples.jsonl", "w", encoding="utf-8") as f:
        for e in examples:
            f.write(e.model_dump_json(exclude=None if e.qa_pairs else {"qa_pairs"}) + "\n")
    rejects = [
        Reject(item_id="toy:100", stage="generate", reason="no_claims_generated"),
        Reject(item_id="toy:101", stage="label check", reason="label_not_confirmed", scope="example"),
    ]
    (folder / "rejects.jsonl").write_text("".join(r.model_dump_json() + "\n" for r in rejects), encoding="utf-8")
    manifest = {"pipeline": "claimgen", "started": "2026-11-26T00:00:00+00:00", "files": ["examples.jsonl"],
                "counts": {"items_in": n + 1, "items_used": n, "items_rejected": 1, "examples": n}}  # fmt: skip
    (folder / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return folder


@pytest.fixture
def toy_build(tmp_path: Path) -> Path:
    return write_toy_build(tmp_path / "toybuild")
