"""The NLI training sources: label mapping, PTB detokenisation, line alignment, NLI4CT evidence lookup,
errors naming the file and line; counts on the real files (../shared/data/README.md)."""

from __future__ import annotations

import csv
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


def test_citation_integrity_claims_are_the_citing_sentence_against_the_cited_evidence(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.jsonl"
    corpus.write_text(
        json.dumps({"doc_id": 7, "title": "", "abstract": ["Drug X lowers blood pressure.", "It was safe."]})
        + "\n"
        + json.dumps({"doc_id": 8, "title": "", "abstract": ["Mice were fed."]})
        + "\n"
    )
    claims = tmp_path / "claims.jsonl"
    rows = [
        {
            "id": 1,
            "claim": "Background here. Drug X lowers blood pressure [<|cit|>].",
            "evidence": {"7": [{"sentences": [0], "label": "SUPPORT"}]},
            "cited_doc_ids": [7],
        },
        {
            "id": 2,
            "claim": "), and drug X cures cancer <|cit|>.",
            "evidence": {"8": [{"sentences": [0], "label": "REFUTE"}]},
            "cited_doc_ids": [8],
        },
        {"id": 3, "claim": "Mice were fed a diet rich in fat <|cit|>.", "evidence": {}, "cited_doc_ids": [8]},
    ]
    claims.write_text("".join(json.dumps(r) + "\n" for r in rows))
    from claimforge.io.nli_sources import citation_integrity

    claims.write_text(claims.read_text() + json.dumps({**rows[2], "id": 4, "claim": "Chen et al.. <|cit|>"}) + "\n")
    a, b, c = citation_integrity("ci", claims, corpus)  # the fragment "Chen et al.." is left out
    assert (a.claim, a.evidence, a.labels) == (
        "Drug X lowers blood pressure.",
        ("Drug X lowers blood pressure.", "It was safe."),
        (S,),
    )
    assert b.claim == "And drug X cures cancer." and b.labels == (R, N)  # NOT_ACCURATE is "not supported"
    assert c.labels == (R, N) and a.id.startswith("ci:1:") and a.source == f"{claims}:1"
    claims.write_text(json.dumps({**rows[0], "cited_doc_ids": [99]}) + "\n")
    with pytest.raises(InputError, match=r"claims.jsonl:1: .*99"):
        citation_integrity("ci", claims, corpus)


def _ei_files(tmp_path: Path) -> tuple[Path, Path]:
    prompts = tmp_path / "prompts.csv"
    prompts.write_text(
        "PromptID,PMCID,Outcome,Intervention,Comparator\n"
        "1,100,The total number of complications,Fluid restriction,usual care\n"
        "2,100,Walking speed,Fluid restriction,usual care\n"
        "3,200,Mortality,Drug Y,placebo\n"
        "4,200,Pain,a very long intervention described in far more than fifteen words which makes any "
        "claim written from it unreadable for everyone,placebo\n"
    )
    cols = "UserID,PromptID,PMCID,Valid Label,Valid Reasoning,Label,Annotations,Label Code"
    fewer = "Complications were fewer in the restriction group (46 vs 99, p = 0.04)."
    rows = [
        ("0", "1", "100", "True", "True", "significantly decreased", fewer, "-1"),
        ("1", "1", "100", "True", "True", "significantly decreased", fewer, "-1"),
        ("0", "2", "100", "True", "True", "no significant difference", "Gait velocity was similar (p = 0.5).", "0"),
        (
            "0",
            "3",
            "200",
            "True",
            "True",
            "significantly increase",
            "Mortality was higher with drug Y (p < 0.01).",
            "1",
        ),
        ("1", "3", "200", "False", "True", "no significant difference", "Mortality did not differ at all here.", "0"),
        ("0", "4", "200", "True", "True", "significantly decreased", "Pain scores fell more with it (p = 0.01).", "-1"),
    ]
    ann = tmp_path / "ann.csv"
    with ann.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(cols.split(","))
        w.writerows(rows)
    return ann, prompts


def test_evidence_inference_recast_as_claims_with_hard_negatives(tmp_path: Path) -> None:
    from claimforge.io.nli_sources import evidence_inference

    ann, prompts = _ei_files(tmp_path)
    pairs = evidence_inference("ei", ann, prompts)
    assert pairs == evidence_inference("ei", ann, prompts)  # deterministic
    by_prompt: dict[str, list] = {}
    for p in pairs:
        by_prompt.setdefault(p.source.rsplit(" ", 1)[1], []).append(p)
    assert set(by_prompt) == {"1", "2", "3"}  # prompt 4's intervention is too long; the rejected annotation unused
    s1, r1, n1 = by_prompt["1"]
    assert s1.labels == (S,) and r1.labels == (R,) and n1.labels == (N,)
    assert "decreased" in s1.claim or "lower" in s1.claim
    assert "higher the" not in r1.claim and s1.evidence == r1.evidence  # same evidence, another verdict
    assert s1.claim[0].isupper() and "fluid restriction" in s1.claim.lower()
    assert n1.claim == s1.claim and n1.evidence == ("Gait velocity was similar (p = 0.5).",)
    assert all(p.id.startswith("ei:100:") for p in by_prompt["1"] + by_prompt["2"])
    s3 = by_prompt["3"][0]
    assert ("increased" in s3.claim or "higher" in s3.claim) and len(by_prompt["3"]) == 2  # no other span for NEI
    assert "no significant" not in s3.claim.lower()  # the doctor-rejected annotation does not vote


def test_evidence_inference_names_the_file_of_a_missing_column(tmp_path: Path) -> None:
    from claimforge.io.nli_sources import evidence_inference

    ann, prompts = _ei_files(tmp_path)
    prompts.write_text("PromptID,PMCID,Outcome\n1,100,Pain\n")
    with pytest.raises(InputError, match=r"prompts.csv:2: missing column 'Intervention'"):
        evidence_inference("ei", ann, prompts)


def test_real_scientific_pairs_are_there(shared_data) -> None:  # type: ignore[no-untyped-def]
    from claimforge.io.nli_sources import sci_sources

    counts = {name: Counter(p.labels for p in load()) for name, load in sci_sources(shared_data(".")).items()}
    assert sum(counts["citation_integrity"].values()) == 2138 + 316 - 3  # 3 fragments ("Chen et al..")
    assert counts["citation_integrity"][(S,)] == 1556
    ei = counts["evidence_inference"]
    assert ei[(S,)] == ei[(R,)] > 2000 and 0 < ei[(N,)] < ei[(S,)]
