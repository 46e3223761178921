from pathlib import Path

import pytest

from claimforge.evaluate.qa2d_quality import claim_checks, rouge_l
from claimforge.registry import registry


def test_claim_checks_flag_questions_missing_answers_and_non_sentences() -> None:
    nlp = registry.build("nlp", {"name": "spacy", "use_cache": False})
    good, q, noverb = nlp.parse(["Neurons pass signals to muscles.", "What do neurons pass?", "Neurons and signals."])
    assert claim_checks("Neurons pass signals to muscles.", "signals", good)["ok"]
    assert not claim_checks("Neurons pass signals to muscles.", "hormones", good)["contains_answer"]
    assert not claim_checks("What do neurons pass?", "signals", q)["declarative"]
    assert not claim_checks("Neurons and signals.", "signals", noverb)["finite_verb"]
    assert claim_checks("When ice melts, water forms.", "water", good)["declarative"]
    assert claim_checks(None, "x", None) == {
        "produced": False,
        "contains_answer": False,
        "declarative": False,
        "finite_verb": False,
        "ok": False,
    }


def test_rouge_l_identity_and_disjoint() -> None:
    assert rouge_l(["the cat sat"], ["the cat sat"])["f1"] == 100.0
    assert rouge_l(["dogs bark"], ["the cat sat"])["f1"] == 0.0


DATA = Path(__file__).resolve().parents[2].parent / "shared" / "data"


@pytest.mark.slow
@pytest.mark.skipif(not (DATA / "sciq").is_dir(), reason="../shared/data not present")
def test_rules_do_not_regress_on_the_sample_they_were_fixed_against() -> None:
    """The seed-2026 sample of bench/qa2d_quality.py is the one the rules were written against (its figures are
    history, not a measurement: docs/qa2d_quality.md reports a fresh sample); it stays as a regression guard."""
    from claimforge.evaluate.qa2d_quality import claim_checks, sample, summarise
    from claimforge.registry import registry
    from claimforge.types import QA2DRequest

    conv = registry.build("qa2d", {"name": "rules"})
    nlp = registry.build("nlp", {"name": "spacy"})
    check = registry.build("claim_check", {"name": "wellformed"})
    # issue 12 (2026-11-25, en_claimforge_sci): ok 95.0 / 90.5, converted and passing the claim check 96.5 / 88.5;
    # 96.0 and 88.0 since the claim check wellformed-v4 (2026-11-27) rejects one broken conversion each that it let
    # pass ("... have limited amounts of this.", "This is seen because.")
    # 87.5 for MedMCQA since rules-v20 (session 36): an adjective answer no longer takes a noun phrase's place in
    # place of "which of the following" ("This is used to assess extrinsic", "corresponds to pre operational": two
    # awkward claims rejected, one stem gained)
    floors = {"sciq": (95.0, 96.0), "medmcqa": (90.5, 87.5)}
    for name, items in sample(DATA, 200, 2026).items():
        res = conv.convert([QA2DRequest(question=q, answer=a) for _, q, a in items])
        docs = nlp.parse([r.text or "" for r in res])
        rows = [
            {"checks": claim_checks(r.text, a, d), "polarity": r.polarity, "reason": r.reason}
            for (_, _, a), r, d in zip(items, res, docs, strict=True)
        ]
        assert summarise(rows)["ok"] >= floors[name][0], name
        why = check.check([r.text or "" for r in res])
        passed = sum(bool(r.text) and not w for r, w in zip(res, why, strict=True))
        assert 100 * passed / len(res) >= floors[name][1], name
