"""COVID-Fact end to end with the shipped models (parser, saliency, fill-mask, judge, embedder) on self-made
articles: titles as claims, their abstracts as sources, through ``run_build`` as the CLI runs it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimforge.build import run_build
from claimforge.config import apply_overrides, load_recipe

ARTICLES = [
    (
        "Vitamin D supplementation reduces the risk of respiratory infections in children",
        [
            "Respiratory infections are a major cause of illness in children.",
            "We randomised 400 children to vitamin D or placebo for one winter.",
            "Vitamin D supplementation reduced the risk of respiratory infections in children by 40%.",
            "No serious adverse events were seen.",
        ],
    ),
    (
        "Regular exercise improves sleep quality in older adults",
        [
            "Poor sleep is common in older adults.",
            "In this trial, 120 older adults exercised three times a week for six months.",
            "Regular exercise improved sleep quality compared with the control group.",
        ],
    ),
    (
        "Smoking increases the risk of lung cancer in women",
        [
            "We followed 50,000 women for twenty years.",
            "Women who smoked had a higher risk of lung cancer than women who never smoked.",
            "The risk rose with the number of cigarettes per day.",
        ],
    ),
    (
        "A survey of hospital pharmacists in Spain",  # a headline fragment: rejected
        ["We surveyed pharmacists.", "Most answered."],
    ),
]


@pytest.mark.slow
def test_covidfact_build_with_the_shipped_models(tmp_path: Path) -> None:
    corpus = tmp_path / "articles.jsonl"
    corpus.write_text(
        "".join(json.dumps({"doc_id": i, "title": t, "abstract": a}) + "\n" for i, (t, a) in enumerate(ARTICLES, 1))
    )
    recipe = apply_overrides(
        load_recipe("covidfact"),
        [
            f"reader.path={corpus}",
            f"retriever.index_dir={tmp_path / 'index'}",
            "label_check=flag",  # keep what the judge doubts, marked (the counts below need the examples)
        ],
    )
    out = tmp_path / "out"
    manifest = run_build(recipe, out)
    c = manifest["counts"]
    assert c["items_in"] == 4 == c["items_used"] + c["items_rejected"]
    rejects = [json.loads(x) for x in (out / "rejects.jsonl").read_text().splitlines()]
    assert {r["item_id"]: r["reason"] for r in rejects if r["scope"] == "item"} == {"articles:4": "not_wellformed"}
    rows = [json.loads(x) for x in (out / "examples.jsonl").read_text().splitlines()]
    sup = {r["source_item_id"]: r for r in rows if r["label"] == "SUPPORTED"}
    assert set(sup) == {"articles:1", "articles:2", "articles:3"}
    assert sup["articles:2"]["claim"] == "Regular exercise improves sleep quality in older adults."
    for r in rows:
        d = r["provenance"]["details"]
        assert d["sources"][0]["how"] == "linked" and d["sources"][0]["rank"] < 5
        assert len(d["salient_words"]) == 3 and 1 <= len(d["evidence_sentences"]) <= 5
        if r["label"] == "REFUTED":
            s = sup[r["source_item_id"]]
            cc = d["counter_claim"]
            start, end = cc["span"]
            assert r["evidence"] == s["evidence"]
            assert r["claim"] == s["claim"][:start] + cc["substitute"] + s["claim"][end:]
            assert min(cc["contradiction"].values()) >= 0.75
    assert any(r["label"] == "REFUTED" for r in rows)
