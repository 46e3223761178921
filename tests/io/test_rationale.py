"""Rationales: the few evidence sentences that decide an example, as sentence indices."""

from __future__ import annotations

from claimforge.io.rationale import key_terms, rationale

EVIDENCE = [
    "Cells are the basic units of life.",
    "The nucleus stores the cell's DNA.",
    "Ribosomes make proteins in the cytoplasm.",
    "Mitochondria release energy for the cell.",
    "The nucleus is surrounded by a double membrane.",
]


def test_the_sentence_stating_the_answer_comes_first() -> None:
    assert rationale("The nucleus stores DNA.", EVIDENCE, ["nucleus"]) == [1]
    # a refuted claim (a distractor in the answer's place) points at the sentence stating the true answer
    assert rationale("The ribosome stores DNA.", EVIDENCE, ["nucleus", "ribosome"]) == [1, 2]


def test_at_most_the_limit_and_only_sentences_that_add_claim_words() -> None:
    claim = "Cells hold DNA in the nucleus, make proteins on ribosomes and get energy from mitochondria."
    # three sentences each add claim words; "Cells are the basic units" adds only "cell", already covered
    assert rationale(claim, EVIDENCE) == [1, 2, 3]
    assert len(rationale(claim, EVIDENCE, limit=1)) == 1
    assert rationale("Whales are mammals.", EVIDENCE) == []


def test_key_terms_from_provenance() -> None:
    details = {"question": "Q?", "answer": "nucleus", "option": "ribosome", "option_role": "distractor"}
    assert key_terms(details) == ["nucleus", "ribosome"]
    assert key_terms({"entity": "aspirin", "replaced": "aspirin", "replacement": "ibuprofen"}) == [
        "aspirin",
        "ibuprofen",
    ]
