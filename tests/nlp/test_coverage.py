"""The over-claim check: a claim's content words that its evidence lacks (claimforge.nlp.coverage).

Fixtures are claim / evidence pairs of the kind the ClaimGen readings found (docs/claimgen.md), written here."""

from __future__ import annotations

import pytest

from claimforge.nlp.coverage import Coverage, coverage, evidence_vocabulary, parse_text
from claimforge.registry import registry


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return registry.build("nlp", {"name": "spacy", "use_cache": False})


def check(nlp, claim: str, evidence: str) -> Coverage:  # type: ignore[no-untyped-def]
    claim_doc, evidence_doc = nlp.parse([parse_text(claim), parse_text(evidence)])
    return coverage(claim_doc, evidence_vocabulary(evidence, evidence_doc))


@pytest.mark.parametrize(
    ("claim", "evidence"),
    [
        # the same words in other forms: lemma, stem, number, hyphenated parts, dashes of another kind
        (
            "Parkin promotes the autophagy of damaged mitochondria.",
            "Parkin is recruited to damaged mitochondria to promote their autophagic degradation.",
        ),
        ("Ten loci are associated with LOAD.", "There are now 10 LOAD susceptibility loci."),
        (
            "Aging is a prominent risk factor for severe COVID-19.",
            "Aging itself is a prominent risk factor for severe COVID‐19.",
        ),
        (
            "The intakes of potato chips and sugary drinks increased during the lockdown.",
            "Potato chip, red meat, and sugary drink intakes increased significantly during the lockdown.",
        ),
        ("TNF-α antagonists increase the risk.", "Anti-TNF-alpha antagonists increase the risk of severe disease."),
    ],
)
def test_covered_claims_pass(nlp, claim: str, evidence: str) -> None:  # type: ignore[no-untyped-def]
    cover = check(nlp, claim, evidence)
    assert cover.uncovered == (), cover
    assert cover.passes(0)


@pytest.mark.parametrize(
    ("claim", "evidence", "risky"),
    [
        # a count the evidence does not give (not "eight": number words match exactly)
        (
            "Eighteen studies reported changes in sedentary behaviour.",
            "Participants reported eight unhealthful behaviours and changes in sedentary behaviour.",
            "Eighteen",
        ),
        # a strengthener where the evidence proposes
        ("PINK1 directly phosphorylates Parkin.", "We propose that PINK1 phosphorylates Parkin.", "directly"),
        # a quantifier over studies the evidence does not have
        (
            "Several studies have evaluated the impact of lockdown on lifestyle.",
            "We evaluated the impact of lockdown on lifestyle in one cohort.",
            "Several",
        ),
        # a superlative: "largest" is not "large-scale"
        (
            "The consortium published the largest meta-analysis.",
            "The consortium published a large-scale meta-analysis.",
            "largest",
        ),
        ("The total number of loci rose to 65.", "The number of established loci rose to 63.", "65"),
    ],
)
def test_risky_words_fail_alone(nlp, claim: str, evidence: str, risky: str) -> None:  # type: ignore[no-untyped-def]
    cover = check(nlp, claim, evidence)
    assert risky in cover.risky, cover
    assert not cover.passes(5)
    assert "over-claiming" in cover.describe()


def test_plain_words_count_against_the_limit(nlp) -> None:  # type: ignore[no-untyped-def]
    cover = check(
        nlp,
        "The antiviral efficacy was confirmed in rhesus macaque models of MERS-CoV infection.",
        "Remdesivir shows superior antiviral activity against MERS-CoV in vitro and in vivo.",
    )
    assert not cover.risky
    assert {"rhesus", "macaque"} <= set(cover.uncovered), cover
    assert cover.passes(len(cover.uncovered)) and not cover.passes(1)
    assert cover.describe().startswith("not in the evidence: ")


def test_names_with_digits_are_not_numbers(nlp) -> None:  # type: ignore[no-untyped-def]
    cover = check(nlp, "HIV-1 DNA is digested by TREX1.", "TREX1 digests cytosolic HIV DNA.")
    assert "HIV-1" in cover.uncovered and not cover.risky  # "1" is part of a name, not a count


def test_vocabulary_without_a_parse() -> None:
    vocab = evidence_vocabulary("We enrolled 21,774 patients (COVID‐19) in ten sites.")
    assert {"21774", "21,774", "covid", "19", "10", "ten", "patients"} <= vocab


def test_numbers_match_whole(nlp) -> None:  # type: ignore[no-untyped-def]
    # "4.49" is not "4" and "49"; "1,000" is "1000"
    assert check(nlp, "The odds ratio was 4.49.", "The odds ratio was 4.9 in 49 patients.").risky == ("4.49",)
    assert check(nlp, "The trial enrolled 1,000 patients.", "The trial enrolled 1000 patients.").uncovered == ()
    assert check(nlp, "The odds ratio was 4.49.", "An odds ratio of 4.49 was found.").uncovered == ()


def test_words_that_only_look_risky(nlp) -> None:  # type: ignore[no-untyped-def]
    evidence = "Metformin is a first-line drug that lowered glucose by at least 38% in patients with diabetes."
    for claim in (
        "One of the drugs, metformin, lowered glucose in patients with diabetes.",  # "one" counts nothing
        "Metformin lowered glucose by at least 38%.",  # a bound, not a superlative
        "Metformin is a first-line drug.",
    ):
        assert check(nlp, claim, evidence).risky == (), claim


def test_a_written_out_abbreviation_is_covered_by_either_form(nlp) -> None:  # type: ignore[no-untyped-def]
    assert check(nlp, "Autism spectrum disorder (ASD) is highly heritable.", "ASD is highly heritable.").uncovered == ()
    claim = "Type 2 diabetes (T2D) raises the risk of stroke."
    assert check(nlp, claim, "Type 2 diabetes raises the risk of stroke.").uncovered == ()
    assert check(nlp, claim, "T2D raises the risk of stroke.").uncovered == ()
    assert check(nlp, claim, "Obesity raises the risk of stroke.").risky == ("2",)  # neither form: counted


def test_each_missing_word_once_and_short_stems_do_not_match(nlp) -> None:  # type: ignore[no-untyped-def]
    cover = check(nlp, "Macaque cells and macaque models respond to the protein.", "Cells respond to protection.")
    assert [w.lower() for w in cover.uncovered] == ["macaque", "models", "protein"]
    assert check(nlp, "Aspirin reduces fever.", "").uncovered == ("Aspirin", "fever")  # empty evidence
