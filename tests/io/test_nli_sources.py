"""The NLI training sources: label mapping, PTB detokenisation, line alignment, NLI4CT evidence lookup,
errors naming the file and line; counts on the real files (../shared/data/README.md)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from claimforge.io.nli_sources import claim_evidence_jsonl, line_aligned, nli4ct, nli_sources, sick
from claimforge.io.rows import InputError
from claimforge.records import Label

S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


def test_claim_evidence_jsonl_maps_labels_and_keeps_vitaminc_cases_together(tmp_path: Path) -> None:
    f = tmp_path / "v.jsonl"
    rows = [
        {
            "case_id": "c1",
            "claim": "X had over 3 sales .",
            "evidence": "X sold 4 ( four ) copies .",
            "label": "SUPPORTS",
        },
        {"case_id": "c1", "claim": "X had under 3 sales .", "evidence": "X sold 4 copies .", "label": "REFUTES"},
        {"claim": "Y is red .", "evidence": "Y is a city .", "label": "NOT ENOUGH INFO"},
    ]
    f.write_text("\n".join(json.dumps(r) for r in rows) + "\n\n", encoding="utf-8")
    pairs = claim_evidence_jsonl("vit", f)
    assert [p.labels for p in pairs] == [(S,), (R,), (N,)]
    assert pairs[0].claim == "X had over 3 sales." and pairs[0].evidence == ("X sold 4 (four) copies.",)
    assert [p.id for p in pairs] == ["vit:c1:1", "vit:c1:2", "vit:3:3"]
    assert pairs[2].source == f"{f}:3"
    f.write_text(json.dumps(rows[0]) + "\n" + json.dumps({**rows[1], "label": "MAYBE"}) + "\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"v\.jsonl:2: unknown label 'MAYBE'"):
        claim_evidence_jsonl("vit", f)
    f.write_text("{not json\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"v\.jsonl:1: invalid JSON"):
        claim_evidence_jsonl("vit", f)


def test_line_aligned_files_and_binary_labels(tmp_path: Path) -> None:
    (tmp_path / "c.txt").write_text("A is B .\nC is D .\n", encoding="utf-8")
    (tmp_path / "e.txt").write_text("A is B indeed .\nC is E .\n", encoding="utf-8")
    (tmp_path / "l.txt").write_text("entailment\nnot_entailment\n", encoding="utf-8")
    pairs = line_aligned("f", tmp_path / "c.txt", tmp_path / "e.txt", tmp_path / "l.txt")
    assert [p.labels for p in pairs] == [(S,), (R, N)]
    assert pairs[1].label is None  # ambiguous gold: REFUTED or NOT_ENOUGH_INFO
    (tmp_path / "l.txt").write_text("entailment\n", encoding="utf-8")
    with pytest.raises(InputError, match=r"line counts of c.txt, e.txt, l.txt differ \(\[2, 2, 1\]\)"):
        line_aligned("f", tmp_path / "c.txt", tmp_path / "e.txt", tmp_path / "l.txt")


def test_nli4ct_reads_the_cited_section_lines(tmp_path: Path) -> None:
    trials = tmp_path / "CT_json"
    trials.mkdir()
    (trials / "NCT1.json").write_text(json.dumps({"Results": ["r0", "  r1  ", "r2"]}), encoding="utf-8")
    (trials / "NCT2.json").write_text(json.dumps({"Results": ["s0", "s1"]}), encoding="utf-8")
    data = {
        "a": {
            "Type": "Single",
            "Section_id": "Results",
            "Primary_id": "NCT1",
            "Statement": "One.",
            "Label": "Entailment",
            "Primary_evidence_index": [1, 2],
        },
        "b": {
            "Type": "Comparison",
            "Section_id": "Results",
            "Primary_id": "NCT1",
            "Secondary_id": "NCT2",
            "Statement": "Two.",
            "Label": "Contradiction",
            "Primary_evidence_index": [0],
            "Secondary_evidence_index": [1],
        },
    }
    (tmp_path / "train.json").write_text(json.dumps(data), encoding="utf-8")
    a, b = nli4ct("n", tmp_path / "train.json", trials)
    assert a.evidence == ("r1", "r2") and a.labels == (S,)
    assert b.evidence == ("Primary trial: r0", "Secondary trial: s1") and b.labels == (R,)


def test_sick_rows(tmp_path: Path) -> None:
    f = tmp_path / "sick.txt"
    f.write_text(
        "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_judgment\n"
        "1\tA dog runs\tAn animal runs\t4.5\tENTAILMENT\n",
        encoding="utf-8",
    )
    (p,) = sick("sick", f)
    assert (p.claim, p.evidence, p.labels, p.source) == ("An animal runs", ("A dog runs",), (S,), f"{f}:2")


def test_real_nli_sources_match_the_data_readme(shared_data) -> None:  # type: ignore[no-untyped-def]
    root = shared_data("nli")
    counts = {name: Counter(p.labels for p in load()) for name, load in nli_sources(root).items()}
    assert counts["vitaminc_real"] == {(S,): 17306, (R,): 9907, (N,): 7268}
    assert sum(counts["vitaminc_synthetic"].values()) == 20716
    assert counts["fever_nli"] == {(S,): 6666, (R, N): 6666}
    assert sum(counts["anli"].values()) == 3200
    assert sum(counts["snli"].values()) == 9842 + 9824
    assert sum(counts["nli4ct"].values()) == 1700 + 200
    assert sum(counts["sick"].values()) == 9927
