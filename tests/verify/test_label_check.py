"""The label check: each label's rule, thresholds, reject / flag / off modes in a pipeline, and
``claimforge audit labels`` on a small SciFact-format file, all with a stub judge."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from claimforge.cli import app
from claimforge.evaluate.label_audit import audit_labels
from claimforge.generate.multi2claim import Multi2Claim, Multi2ClaimConfig
from claimforge.records import Label, MCQItem, SourceRef
from claimforge.registry import ComponentConfig, registry
from claimforge.verify.label_check import Thresholds, verdict

from ..generate.test_multi2claim import FakeQA2D, corpus, make

TH = Thresholds(entailment=0.8, contradiction=0.7, nei_entailment=0.3, nei_contradiction=0.4)


class StubJudgeConfig(ComponentConfig):
    # claim word -> (entailment, contradiction, neutral); other claims: neutral
    scores: dict[str, tuple[float, float, float]] = {}


class StubJudge:
    """Scores by a keyword of the claim; counts the pairs it saw."""

    model_id = "stub-judge"

    def __init__(self, config: StubJudgeConfig | None = None, **scores: tuple[float, float, float]) -> None:
        self.scores = dict(config.scores) if config else scores
        self.seen = 0

    def predict_proba(self, pairs: list[Any], progress: Any = None) -> np.ndarray:
        self.seen += len(pairs)
        rows = []
        for p in pairs:
            hit = [v for k, v in self.scores.items() if k in p.claim]
            rows.append(hit[0] if hit else (0.1, 0.1, 0.8))
        return np.array(rows, dtype=np.float32)


registry.register("nli", "stub-judge", StubJudgeConfig)(StubJudge)


@pytest.mark.parametrize(
    ("label", "probs", "passed"),
    [
        (Label.SUPPORTED, (0.80, 0.1, 0.1), True),  # at the threshold
        (Label.SUPPORTED, (0.79, 0.1, 0.11), False),
        (Label.REFUTED, (0.1, 0.70, 0.2), True),
        (Label.REFUTED, (0.6, 0.69, 0.0), False),
        (Label.NOT_ENOUGH_INFO, (0.29, 0.39, 0.32), True),
        (Label.NOT_ENOUGH_INFO, (0.30, 0.1, 0.6), False),  # entailment not below its NEI threshold
        (Label.NOT_ENOUGH_INFO, (0.1, 0.40, 0.5), False),  # contradiction not below its NEI threshold
    ],
)
def test_each_labels_rule(label: Label, probs: tuple[float, float, float], passed: bool) -> None:
    v = verdict(label, probs, TH)
    assert v.passed is passed
    assert (v.margin >= 0) is passed or label == Label.NOT_ENOUGH_INFO
    if not passed:
        assert "P(" in v.explain(TH)


def test_thresholds_are_validated() -> None:
    with pytest.raises(ValueError):
        Thresholds(entailment=1.5)


def judged() -> StubJudge:
    # the nucleus claims are confirmed as SUPPORTED; "ribosome" claims are contradicted; the rest neutral
    return StubJudge(nucleus=(0.95, 0.02, 0.03), ribosome=(0.05, 0.9, 0.05))


def checked(stub: StubJudge, **cfg: Any) -> Multi2Claim:
    """Multi2Claim with fakes and the label check on, judged by ``stub`` (passed to the constructor)."""
    config = Multi2ClaimConfig(**{"embedder": {"name": "hashing"}, "label_check": "reject", **cfg})
    return Multi2Claim(config, qa2d=FakeQA2D(), judge=stub)


def test_the_check_rejects_unconfirmed_labels_with_scores() -> None:
    stub = judged()
    res = checked(stub, balance=False).build(corpus())
    assert stub.seen > 0
    assert all(e.provenance.details["label_check"]["passed"] for e in res.examples)
    lost = [r for r in res.rejects if r.stage == "label check"]
    assert lost and all(r.reason == "label_not_confirmed" and "P(" in r.detail for r in lost)
    kept = {(e.source_item_id, e.label) for e in res.examples}
    assert ("t:0", Label.SUPPORTED) in kept  # "The answer is nucleus." entailed
    assert ("t:2", Label.SUPPORTED) not in kept  # "The answer is ribosome." contradicted: not SUPPORTED
    # every input item is used or rejected, and every lost example is a reject naming its label
    assert len(res.used_item_ids) + res.n_rejected_items == res.n_input
    assert all(r.detail.split(" ", 1)[0] in {lab.value for lab in Label} for r in lost)


def test_flag_mode_keeps_every_example_marked() -> None:
    off = make(balance=False).build(corpus())
    res = checked(judged(), balance=False, label_check="flag").build(corpus())
    assert [e.id for e in res.examples] == [e.id for e in off.examples]
    flags = {e.id: e.provenance.details["label_check"]["passed"] for e in res.examples}
    assert True in flags.values() and False in flags.values()
    assert not [r for r in res.rejects if r.stage == "label check"]


def test_off_loads_no_judge() -> None:
    pipe = make(balance=False, label_check="off", judge={"name": "no-such-judge"})
    res = pipe.build(corpus())
    assert "judge" not in pipe.components
    assert all("label_check" not in e.provenance.details for e in res.examples)


def test_the_check_runs_before_balancing() -> None:
    res = checked(judged(), balance=True).build(corpus())
    counts = {lab: sum(e.label == lab for e in res.examples) for lab in Label}
    assert len(set(counts.values())) == 1  # balanced after the check, so equal counts of checked examples
    assert all(e.provenance.details["label_check"]["passed"] for e in res.examples)


def scifact_files(tmp_path: Path) -> tuple[Path, Path]:
    corpus_rows = [
        {"doc_id": 1, "title": "Nucleus", "abstract": ["The nucleus stores DNA.", "It has a membrane."]},
        {"doc_id": 2, "title": "Ribosome", "abstract": ["Ribosomes make proteins."]},
    ]
    claims = [
        {
            "id": 1,
            "claim": "The nucleus stores DNA.",
            "evidence": {"1": [{"sentences": [0], "label": "SUPPORT"}]},
            "cited_doc_ids": [1],
        },
        {
            "id": 2,
            "claim": "The ribosome stores DNA.",
            "evidence": {"1": [{"sentences": [0], "label": "SUPPORT"}]},
            "cited_doc_ids": [1],
        },
        {"id": 3, "claim": "Cells are small.", "evidence": {}, "cited_doc_ids": [2]},
    ]
    c = tmp_path / "corpus.jsonl"
    c.write_text("".join(json.dumps(r) + "\n" for r in corpus_rows))
    d = tmp_path / "claims_dev.jsonl"
    d.write_text("".join(json.dumps(r) + "\n" for r in claims))
    return d, c


def test_audit_labels_on_a_scifact_format_file(tmp_path: Path) -> None:
    dev, corpus_file = scifact_files(tmp_path)
    spec = {"name": "scifact", "dev": str(dev), "corpus": str(corpus_file)}
    judge = {"name": "stub-judge", "scores": {"nucleus": (0.95, 0.02, 0.03), "ribosome": (0.2, 0.3, 0.5)}}
    summary = audit_labels(spec, judge, TH, tmp_path / "audit", split="dev")
    assert summary["pairs"] == 3 and summary["suspect"] == 1
    (suspect,) = [json.loads(x) for x in (tmp_path / "audit/suspects.jsonl").read_text().splitlines()]
    assert suspect["claim"] == "The ribosome stores DNA." and suspect["label"] == "SUPPORTED"
    assert suspect["why"] == "P(entailment)=0.200 < 0.8" and suspect["margin"] < 0
    assert summary["by_label"]["SUPPORTED"] == {"pairs": 2, "confirmed": 1, "suspect": 1, "suspect_share": 0.5}
    assert summary["by_label"]["NOT_ENOUGH_INFO"]["suspect"] == 0
    assert len((tmp_path / "audit/scores.jsonl").read_text().splitlines()) == 3
    assert "Label audit" in (tmp_path / "audit/summary.md").read_text()


def test_audit_labels_cli_on_a_built_dataset(tmp_path: Path) -> None:
    from claimforge.io.dataset import write_examples

    res = make(balance=False).build(corpus())
    write_examples(tmp_path / "ds", res.examples)
    r = CliRunner().invoke(
        app,
        [
            "audit",
            "labels",
            str(tmp_path / "ds"),
            "--out",
            str(tmp_path / "a"),
            "--set",
            "judge.name=stub-judge",
            "--set",
            "judge.scores={nucleus: [0.95, 0.02, 0.03]}",
        ],
    )
    assert r.exit_code == 0, r.output
    summary = json.loads((tmp_path / "a/summary.json").read_text())
    assert summary["pairs"] == len(res.examples)
    assert set(summary["by_method"]) == {"multi2claim"}
    bad = CliRunner().invoke(
        app, ["audit", "labels", str(tmp_path / "ds"), "--out", str(tmp_path / "b"), "--set", "model.name=x"]
    )
    assert bad.exit_code != 0 and "judge." in bad.output


def test_the_report_counts_what_the_check_kept_flagged_and_rejected() -> None:
    from claimforge.evaluate.report import dataset_stats, render_report

    res = checked(judged(), balance=False).build(corpus())
    stats = dataset_stats(res.examples, res.rejects, res.n_input)
    lost = [r for r in res.rejects if r.stage == "label check"]
    assert sum(c["rejected"] for c in stats["label_check"].values()) == len(lost)
    assert sum(c["confirmed"] for c in stats["label_check"].values()) == len(res.examples)
    assert "## Label check" in render_report("t", stats, res.examples, {})
    flagged = checked(judged(), balance=False, label_check="flag").build(corpus())
    fstats = dataset_stats(flagged.examples, flagged.rejects, flagged.n_input)
    assert sum(c["flagged"] for c in fstats["label_check"].values()) == len(lost)
    off = make(balance=False).build(corpus())
    assert dataset_stats(off.examples, off.rejects, off.n_input)["label_check"] == {}


def test_an_audit_of_a_checked_build_confirms_every_example(tmp_path: Path) -> None:
    """The check and the audit apply the same rule to the same evidence sentences."""
    from claimforge.io.dataset import write_examples

    spec = {"name": "stub-judge", "scores": {"nucleus": (0.95, 0.02, 0.03), "ribosome": (0.05, 0.9, 0.05)}}
    config = Multi2ClaimConfig(embedder={"name": "hashing"}, balance=False, judge=spec, label_thresholds=TH)
    res = Multi2Claim(config, qa2d=FakeQA2D()).build(corpus())
    assert res.examples
    write_examples(tmp_path / "ds", res.examples)
    summary = audit_labels(str(tmp_path / "ds"), spec, TH, tmp_path / "audit")
    assert summary["pairs"] == len(res.examples) and summary["suspect"] == 0


def test_a_balanced_check_scores_only_what_balancing_can_keep() -> None:
    from claimforge.pipeline import CHECK_BATCH, _check_until_balanced

    labels = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
    counts = {Label.SUPPORTED: 3 * CHECK_BATCH, Label.REFUTED: 40, Label.NOT_ENOUGH_INFO: 3 * CHECK_BATCH}
    exs = [
        make(balance=False).build(corpus()).examples[0].model_copy(update={"id": f"x{lab.value}{i}", "label": lab})
        for lab, n in counts.items()
        for i in range(n)
    ]
    passes = {Label.SUPPORTED: lambda i: i % 5 != 0, Label.REFUTED: lambda i: i % 2 == 0, Label.NOT_ENOUGH_INFO: bool}
    seen: list[int] = []

    def check(indices: list[int]) -> int:
        seen.extend(indices)
        return sum(bool(passes[exs[i].label](i + 1)) for i in indices)

    n = _check_until_balanced(exs, labels, 13, check)
    full = min(sum(bool(passes[lab](i + 1)) for i, e in enumerate(exs) if e.label == lab) for lab in labels)
    assert n == full == 20  # REFUTED: half of 40
    assert len(seen) == len(set(seen)) < len(exs)  # every REFUTED, one batch of the others
    assert {exs[i].label for i in seen} == set(labels)


def test_the_lazy_check_writes_what_the_full_check_balances_to() -> None:
    lazy = checked(judged(), balance=True).build(corpus())
    full = checked(judged(), balance=False).build(corpus())
    per_label = min(sum(e.label == lab for e in full.examples) for lab in Label)
    assert all(sum(e.label == lab for e in lazy.examples) == per_label for lab in Label)
    assert len(lazy.used_item_ids) + lazy.n_rejected_items == lazy.n_input


def test_multi2claim_skips_a_distractor_that_means_the_answer() -> None:
    """ "two times a year" / "2 times a year": the answer's claim entails the distractor's, so the next distractor
    makes the REFUTED claim (the synonym is a reject-free skip); with the check off the synonym is used."""
    filler = " ".join(["Cells are the basic units of living things and carry out many processes."] * 5)
    items = [
        *corpus(),
        MCQItem(
            id="t:9",
            question="How often do they molt?",
            options=("two times a year", "2 times a year", "once per decade"),
            answer_index=0,
            explanation="Molting happens two times a year. " + filler,
            ref=SourceRef(dataset="t", path="t.jsonl", line=10, item_id="t:9"),
        ),
    ]
    judge = {"name": "stub-judge", "scores": {"2 times": (0.9, 0.05, 0.05)}}
    on = make(balance=False, judge=judge, synonym_cosine=0.0).build(items)
    refuted = {e.source_item_id: e.claim for e in on.examples if e.label == Label.REFUTED}
    assert refuted["t:9"] == "The answer is once per decade."
    off = make(balance=False, judge=judge, synonym_cosine=1.0).build(items)
    refuted = {e.source_item_id: e.claim for e in off.examples if e.label == Label.REFUTED}
    assert refuted["t:9"] == "The answer is 2 times a year."


def test_confirmed_claims_keep_negatives_of_claims_balancing_left_unjudged() -> None:
    from types import SimpleNamespace

    from claimforge.pipeline import BuildState, Pipeline
    from claimforge.records import Example, Provenance

    def ex(claim_key: str, label: Label, passed: bool | None = None) -> Example:
        details: dict[str, Any] = {"claim_key": claim_key}
        if passed is not None:
            details["label_check"] = {"passed": passed}
        prov = Provenance(
            method="m", method_version="1", source=SourceRef(dataset="d", path="f", item_id="p"), details=details
        )
        return Example(
            id=f"{claim_key}{label.value[0]}", claim="c", evidence="e", evidence_id="x",
            label=label, source_item_id="p", method="m", provenance=prov,
        )  # fmt: skip

    owner = SimpleNamespace(
        config=SimpleNamespace(require_confirmed_claim=True, label_check="reject"),
        item_of=lambda e: e.source_item_id,
    )
    stage = Pipeline.confirmed_claims_stage(owner)  # type: ignore[arg-type]
    state = BuildState(
        units=[],
        examples=[
            ex("a", Label.SUPPORTED, True),
            ex("a", Label.REFUTED, True),  # confirmed claim
            ex("b", Label.REFUTED, True),  # its SUPPORTED was left unjudged by balancing: kept
            ex("c", Label.REFUTED, True),  # its SUPPORTED failed the check: dropped
            ex("d", Label.NOT_ENOUGH_INFO, True),  # no SUPPORTED example at all: dropped
        ],  # fmt: skip
        notes={"label_check_unjudged": [ex("b", Label.SUPPORTED)], "label_check_failed": [ex("c", Label.SUPPORTED)]},
    )
    stage.fn(state)
    assert [e.id for e in state.examples] == ["aS", "aR", "bR"]
    assert sorted(r.detail.split(":")[0] for r in state.rejects) == ["cR", "dN"]
