"""ROUGE under the papers' protocol (claimforge.evaluate.rouge)."""

from __future__ import annotations

import pytest

from claimforge.evaluate.rouge import rouge_against_references


def test_rouge_protocol_max_over_references_mean_over_claims() -> None:
    generated = {
        "s1": ["the cat sat on the mat", "a dog"],
        "s2": ["cats running"],
        "s3": ["no reference for this one"],
    }
    references = {"s1": ["the cat lay on the mat", "a dog barked"], "s2": ["cat runs"], "s4": ["unused"]}
    r = rouge_against_references(generated, references)
    # By hand (rouge-score tokens, Porter stemming of tokens longer than 3 characters):
    # "the cat sat on the mat" vs "the cat lay on the mat": R1 F = 5/6, R2 F = 3/5, RL F = 5/6 (vs "a dog barked": 0)
    # "a dog" vs "a dog barked": R1 P 1, R 2/3 -> F 0.8; R2 P 1, R 1/2 -> F 2/3; RL F 0.8
    # "cats running" vs "cat runs": stems cat, run = cat, run -> 1.0 everywhere
    assert r["rouge1"] == pytest.approx(100 * (5 / 6 + 0.8 + 1) / 3, abs=1e-3)
    assert r["rouge2"] == pytest.approx(100 * (3 / 5 + 2 / 3 + 1) / 3, abs=1e-3)
    assert r["rougeL"] == pytest.approx(100 * (5 / 6 + 0.8 + 1) / 3, abs=1e-3)
    assert r["n_sources"] == 2 and r["n_claims"] == 3
    assert r["claims_per_source"] == {"s1": 2, "s2": 1}
    assert r["sources_without_references"] == ["s3"] and r["claims_without_references"] == 1
    assert r["references_without_generated"] == 1


def test_rouge_no_overlap_of_ids() -> None:
    r = rouge_against_references({"a": ["x y"]}, {"b": ["x y"]})
    assert r["rouge1"] is None and r["n_claims"] == 0 and r["sources_without_references"] == ["a"]
