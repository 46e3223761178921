"""Held-out slices that share no text with training: the judge's data splitter."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from claimforge.io.splits import drop_shared, pair_texts, text_key, texts_of
from claimforge.records import Label, Pair

ROOT = Path(__file__).resolve().parents[2]
NLI = ROOT.parent / "shared" / "data" / "nli"


def P(i: str, claim: str, *evidence: str) -> Pair:  # noqa: N802
    return Pair(id=i, claim=claim, evidence=evidence, labels=(Label.SUPPORTED,))


def test_text_key_ignores_case_punctuation_and_spacing() -> None:
    assert (
        text_key("A man  is playing a guitar.") == text_key("a man is playing a Guitar") == "a man is playing a guitar"
    )
    assert text_key("Café") == text_key("CAFÉ")


def test_pairs_sharing_a_claim_or_a_premise_are_dropped() -> None:
    held = [P("h1", "A man plays.", "A man is playing a guitar on stage.")]
    pool = [
        P("t1", "A woman sings.", "A man is playing a guitar on stage"),  # same premise, other punctuation
        P("t2", "a man plays", "Someone is outside."),  # same claim
        P("t3", "A dog runs.", "A dog is running in a field."),  # unrelated: kept
    ]
    kept, dropped = drop_shared(pool, texts_of(held))
    assert [p.id for p in kept] == ["t3"] and [p.id for p in dropped] == ["t1", "t2"]
    assert not texts_of(kept) & texts_of(held)


def test_a_custom_text_function_keeps_only_claims_apart() -> None:
    held = [P("h", "Statement one.", "Shared trial report line.")]
    pool = [P("t", "Statement two.", "Shared trial report line.")]
    claims_only = lambda p: {text_key(p.claim)}  # noqa: E731
    kept, _ = drop_shared(pool, texts_of(held, claims_only), claims_only)
    assert [p.id for p in kept] == ["t"]
    assert pair_texts(pool[0]) == {"statement two", "shared trial report line"}


@pytest.mark.slow
@pytest.mark.skipif(not NLI.is_dir(), reason="../shared/data/nli not present")
def test_the_judge_data_has_no_text_on_both_sides() -> None:
    sys.path.insert(0, str(ROOT / "training" / "nli"))
    from nli_data import _texts, splits

    train, dev, held, counts = splits(NLI, real=NLI.parent)
    held_texts = texts_of((p for ps in held.values() for p in ps), _texts)
    assert not texts_of(train, _texts) & held_texts
    assert not texts_of(dev, _texts) & held_texts
    assert not texts_of(train, _texts) & texts_of(dev, _texts)
    # the held-out slices are the first model's (same sizes), so old and new models compare on them
    assert {k: len(v) for k, v in held.items()} == {
        "vitaminc_real": 2000,
        "vitaminc_synthetic": 1000,
        "anli": 400,
        "fever_nli": 2000,
        "snli": 1000,
        "nli4ct": 500,
        "sick": 1000,
        "citation_integrity": 606,  # its official test split
        "evidence_inference": 600,
    }
    assert all(c["train"] > 0 for c in counts.values())


def test_the_judge_sample_takes_every_over_claim_twice() -> None:
    sys.path.insert(0, str(ROOT / "training" / "nli"))
    from nli_data import OVERCLAIM_REPEAT, sample_sci

    from claimforge.generate.minimal_pairs import edit_kind

    def pair(n: int, label: Label, kind: str) -> Pair:
        return Pair(
            id=f"sci:d{n}:0{label.value[0]}",
            claim=f"claim {n}",
            evidence=(f"evidence {n}",),
            labels=(label,),
            source=f"sci:d{n}#0 {kind} x",
        )

    pool = [pair(n, Label.SUPPORTED, "source") for n in range(100)]
    pool += [pair(n, Label.REFUTED, "negation_added" if n % 2 else "number") for n in range(100)]
    pool += [pair(n, Label.NOT_ENOUGH_INFO, "related_passage") for n in range(100)]
    pool += [pair(n, Label.NOT_ENOUGH_INFO, kind) for n, kind in ((100, "added_item"), (101, "hedge_removed"))]
    sample = sample_sci(pool, 60)
    nei = [p for p in sample if p.labels == (Label.NOT_ENOUGH_INFO,)]
    assert len(sample) == 60 and len(nei) == 20
    assert sorted(edit_kind(p) for p in nei if edit_kind(p) != "related_passage") == sorted(
        ["added_item", "hedge_removed"] * OVERCLAIM_REPEAT
    )
    refuted = [edit_kind(p) for p in sample if p.labels == (Label.REFUTED,)]
    assert refuted.count("negation_added") == 6  # capped at a third of 20
