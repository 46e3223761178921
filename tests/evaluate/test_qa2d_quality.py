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
