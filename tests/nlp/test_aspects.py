"""The 5W aspects on the shipped parser: the role mapping (who / what / when / where / why), the questions, the
claim without each aspect, and the aspect verdicts of ``check`` with a stub verifier."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

from claimforge.check import Checker, claim_item
from claimforge.nlp.aspects import aspects
from claimforge.records import Label, Pair
from claimforge.registry import registry


@pytest.fixture(scope="module")
def nlp():  # type: ignore[no-untyped-def]
    return registry.build("nlp", {"name": "spacy", "use_cache": False})


def _table(nlp, text: str) -> dict[tuple[str, str], Any]:  # type: ignore[no-untyped-def]
    return {(a.kind, a.text): a for a in aspects(nlp.parse([text])[0])}


def test_roles_map_to_the_five_ws(nlp) -> None:  # type: ignore[no-untyped-def]
    t = _table(nlp, "Aspirin reduced the risk of stroke in older adults in 2019 because it thins the blood.")
    assert set(t) >= {
        ("who", "Aspirin"),
        ("what", "reduced"),
        ("what", "the risk of stroke in older adults"),
        ("where", "older adults"),
        ("when", "2019"),
        ("why", "it thins the blood"),
    }
    t = _table(nlp, "The vaccine was approved by the FDA in December to prevent severe disease.")
    assert {k for k, _ in t} == {"who", "what", "when", "why"}
    assert t[("what", "The vaccine")].role == "patient" and t[("why", "prevent severe disease")].role == "purpose"
    assert t[("who", "by the FDA")].role == "agent"


def test_questions_are_wh_questions_about_the_aspect(nlp) -> None:  # type: ignore[no-untyped-def]
    t = _table(nlp, "Aspirin reduced the risk of stroke in older adults in 2019 because it thins the blood.")
    assert t[("when", "2019")].question == (
        "When did Aspirin reduce the risk of stroke in older adults because it thins the blood?"
    )
    assert t[("who", "Aspirin")].question.startswith("What reduced the risk of stroke")
    t = _table(nlp, "In mice, high-fat diets increase insulin resistance after 12 weeks.")
    assert t[("who", "high-fat diets")].question == "What increases insulin resistance after 12 weeks in mice?"
    assert t[("what", "insulin resistance")].question == "What do high-fat diets increase after 12 weeks in mice?"
    t = _table(nlp, "The vaccine was approved by the FDA in December to prevent severe disease.")
    assert t[("when", "December")].question == "When was the vaccine approved by the FDA to prevent severe disease?"
    t = _table(nlp, "Researchers at Harvard found that coffee lowers the risk of diabetes.")
    assert t[("who", "Researchers at Harvard")].question == "Who found that coffee lowers the risk of diabetes?"
    assert ("what", "found") not in t  # a reporting verb is not an aspect of the claim


def test_the_claim_without_an_aspect(nlp) -> None:  # type: ignore[no-untyped-def]
    claim = "The vaccine was approved by the FDA in December to prevent severe disease."
    t = _table(nlp, claim)
    assert t[("when", "December")].without(claim) == "The vaccine was approved by the FDA to prevent severe disease."
    assert t[("who", "by the FDA")].without(claim) == "The vaccine was approved in December to prevent severe disease."
    assert t[("what", "The vaccine")].without(claim).startswith("Something was approved")
    claim = "In mice, high-fat diets increase insulin resistance after 12 weeks."
    t = _table(nlp, claim)
    assert t[("where", "mice")].without(claim) == "High-fat diets increase insulin resistance after 12 weeks."
    assert t[("what", "increase")].without(claim) == "In mice, high-fat diets affect insulin resistance after 12 weeks."


class YearVerifier:
    """REFUTED while the claim says 2019 (the evidence says 2018), else SUPPORTED."""

    labels = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
    model_id = "year"

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        return np.array([[0.05, 0.9, 0.05] if "2019" in p.claim else [0.9, 0.05, 0.05] for p in pairs])


def test_check_marks_the_aspect_whose_removal_undoes_the_verdict(nlp) -> None:  # type: ignore[no-untyped-def]
    item = claim_item("Aspirin reduced the risk of stroke in 2019.", ["Aspirin reduced stroke risk in 2018."])
    (r,) = Checker(YearVerifier(), nlp=nlp).check([item])
    assert r.label == "REFUTED"
    status = {a.kind + ":" + a.text: a.status for a in r.aspects}
    assert status["when:2019"] == "refuted"
    assert {s for k, s in status.items() if k != "when:2019"} == {"not decisive"}
    assert "when-aspect ('2019') is false" in r.explanation
    (plain,) = Checker(YearVerifier()).check([item])
    assert plain.aspects == [] and plain.explanation.startswith("REFUTED (0.90)")
    # two claims with one id keep their own evidence (aspects are scored per claim, not per id)
    other = claim_item("Aspirin reduced the risk of stroke in 2019.", ["Nothing about it."])
    first, second = Checker(YearVerifier(), nlp=nlp).check([item, other])
    assert first.aspects and [a.claim_without for a in first.aspects] == [a.claim_without for a in second.aspects]


class ShrugVerifier:
    """REFUTED for the full claim; without any part, still REFUTED (just less): nothing decides alone."""

    labels = (Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO)
    model_id = "shrug"

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        return np.array(
            [[0.0, 0.95, 0.05] if "2019" in p.claim and "Aspirin" in p.claim else [0.2, 0.7, 0.1] for p in pairs]
        )


def test_an_aspect_decides_only_when_the_claim_without_it_loses_the_verdict(nlp) -> None:  # type: ignore[no-untyped-def]
    item = claim_item("Aspirin reduced the risk of stroke in 2019.", ["Aspirin reduced stroke risk in 2018."])
    (r,) = Checker(ShrugVerifier(), nlp=nlp).check([item])
    assert r.label == "REFUTED" and {a.status for a in r.aspects} == {"not decisive"}
    assert "no single aspect decides it" in r.explanation


@pytest.mark.parametrize(
    ("claim", "expected"),
    [
        # a span never loses "%" or a closing bracket; "by 30%" is a quantity, not an agent
        ("Mortality was reduced by 30% in treated patients.", {("what", "by 30%"), ("where", "treated patients")}),
        ("Mortality fell to 12% after treatment.", {("what", "to 12%"), ("when", "treatment")}),
    ],
)
def test_spans_keep_percent_signs_and_quantities_are_not_agents(nlp, claim, expected) -> None:  # type: ignore[no-untyped-def]
    t = _table(nlp, claim)
    assert expected <= set(t)
    assert all(a.kind != "who" or "%" not in a.text for a in t.values())
    assert t[sorted(expected)[0]].without(claim).count("%") <= claim.count("%")


def test_questions_keep_negation_and_tense(nlp) -> None:  # type: ignore[no-untyped-def]
    t = _table(nlp, "Aspirin did not reduce the risk of stroke in 2019.")
    assert t[("when", "2019")].question == "When did Aspirin not reduce the risk of stroke?"
    t = _table(nlp, "Obesity has increased the risk of diabetes.")
    assert t[("what", "has increased")].question == "What has obesity done?"
    t = _table(nlp, "Coffee lowers the risk of diabetes.")
    assert t[("what", "the risk of diabetes")].question == "What does coffee lower?"
    t = _table(nlp, "There is no association between coffee and cancer.")
    assert [a.question for a in t.values() if a.role == "patient"] == ["What is there?"]


def test_a_sentence_without_a_predicate_has_no_aspects(nlp) -> None:  # type: ignore[no-untyped-def]
    assert aspects(nlp.parse(["Aspirin."])[0]) == []
