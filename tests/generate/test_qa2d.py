"""Rule-based QA2D on the shipped parser: the question forms exam datasets use."""

from __future__ import annotations

import pytest

from claimforge.generate.qa2d import finish, prepare_question
from claimforge.registry import registry
from claimforge.types import QA2DRequest


@pytest.fixture(scope="module")
def conv():  # type: ignore[no-untyped-def]
    return registry.build("qa2d", {"name": "rules", "nlp": {"name": "spacy", "use_cache": False}})


CASES = [
    # wh-subject, agreement with a plural answer
    (
        "What helps cells take up glucose from the blood?",
        "insulin",
        "Insulin helps cells take up glucose from the blood.",
    ),
    (
        "What makes up most of the mass of an atom?",
        "protons and neutrons",
        "Protons and neutrons make up most of the mass of an atom.",
    ),
    # do-support: subject-aux inversion undone, verb inflected from "do"
    (
        "What do neurons pass to the next neuron?",
        "neurotransmitters",
        "Neurons pass neurotransmitters to the next neuron.",
    ),
    ("What does the heart pump through the body?", "blood", "The heart pumps blood through the body."),
    # copular wh-predicate
    (
        "What is the study of chemical processes in living things?",
        "biochemistry",
        "The study of chemical processes in living things is biochemistry.",
    ),
    # passive naming: "... called?" / "known as"
    (
        "What is the process of the fusion of a sperm and an egg called?",
        "fertilization",
        "The process of the fusion of a sperm and an egg is called fertilization.",
    ),
    ("What are alloys of mercury known as?", "amalgams", "Alloys of mercury are known as amalgams."),
    # in-situ wh and declarative stems
    (
        "Vertebrates with four limbs are also called what?",
        "tetrapods",
        "Vertebrates with four limbs are also called tetrapods.",
    ),
    (
        "Plants that live in the desert are called?",
        "xerophytes",
        "Plants that live in the desert are called xerophytes.",
    ),
    ("All living things need air and this to survive?", "water", "All living things need air and water to survive."),
    # fill in the blank
    ("The _____ is the powerhouse of the cell.", "mitochondrion", "The mitochondrion is the powerhouse of the cell."),
    # which of the following
    (
        "Which of the following is the largest planet in the solar system?",
        "jupiter",
        "Jupiter is the largest planet in the solar system.",
    ),
    # stranded preposition
    ("What are cells made of?", "molecules", "Cells are made of molecules."),
    # where / how many / imperative
    ("Where do plants store starch?", "in the roots", "Plants store starch in the roots."),
    ("How many chambers does the human heart have?", "four", "The human heart has four chambers."),
    (
        "Name the gas that plants release during photosynthesis.",
        "oxygen",
        "The gas that plants release during photosynthesis is oxygen.",
    ),
]


@pytest.mark.parametrize(("question", "answer", "expected"), CASES)
def test_question_forms(conv, question: str, answer: str, expected: str) -> None:  # type: ignore[no-untyped-def]
    [res] = conv.convert([QA2DRequest(question=question, answer=answer)])
    assert res.text == expected, res


def test_batch_order_and_determinism(conv) -> None:  # type: ignore[no-untyped-def]
    reqs = [QA2DRequest(question=q, answer=a) for q, a, _ in CASES]
    first = conv.convert(reqs)
    second = conv.convert(list(reversed(reqs)))
    assert [r.text for r in first] == [r.text for r in reversed(second)]


def test_negative_stems_are_inverted(conv) -> None:  # type: ignore[no-untyped-def]
    [r] = conv.convert([QA2DRequest(question="All of the following are noble gases EXCEPT:", answer="oxygen")])
    assert r.polarity == "inverted"
    assert r.text is not None and "except" not in r.text.lower()
    [r2] = conv.convert([QA2DRequest(question="Which of the following is not a mammal?", answer="shark")])
    # "shark" alone is tagged an adjective; since rules-v8 its article comes from its countability
    assert r2.polarity == "inverted" and r2.text == "The shark is a mammal."


def test_negative_stems_rejected_when_configured() -> None:
    conv = registry.build("qa2d", {"name": "rules", "negative_stems": "reject", "nlp": {"name": "spacy"}})
    [r] = conv.convert([QA2DRequest(question="Which of the following is not a mammal?", answer="shark")])
    assert r.text is None and r.reason == "negative_stem"


def test_empty_inputs_become_reasons(conv) -> None:  # type: ignore[no-untyped-def]
    res = conv.convert([QA2DRequest(question="", answer="x"), QA2DRequest(question="What is it?", answer=" ")])
    assert [r.reason for r in res] == ["empty_question", "empty_answer"]


def test_yes_no_and_alternatives(conv) -> None:  # type: ignore[no-untyped-def]
    res = conv.convert(
        [
            QA2DRequest(question="Is a tomato a fruit?", answer="yes"),
            QA2DRequest(question="Is a whale a fish?", answer="no"),
            QA2DRequest(question="Are chloroplasts found in plant or animal cells?", answer="plant cells"),
        ]
    )
    assert [r.text for r in res] == [
        "A tomato is a fruit.",
        "A whale is not a fish.",
        "Chloroplasts are found in plant cells.",
    ]


def test_prepare_question() -> None:
    assert prepare_question("What's   the answer?").text == "what is the answer"
    p = prepare_question("All of the following are causes of anemia EXCEPT:")
    assert p.inverted and p.text == "which of the following are causes of anemia"
    p = prepare_question("Which statement is false about enzymes?")
    assert p.inverted and "true" in p.text
    # "what is NOT x" asks for an exception too: the positive statement is false for the keyed answer
    p = prepare_question("What is not soluble in water?")
    assert p.inverted and p.text == "What is soluble in water"


def test_finish() -> None:
    assert finish("the cell  is small ,") == "The cell is small."
    assert finish("mRNA carries codons") == "mRNA carries codons."
    assert finish("x is y .") == "X is y."
    assert finish("  ,; ") == ""


def test_question_context_can_be_dropped() -> None:
    from claimforge.generate.qa2d import last_sentence

    q = "A 64-year-old man presents with a headache. He is 5.5 ft tall. What is the best initial treatment?"
    assert last_sentence(q) == "What is the best initial treatment?"
    conv = registry.build("qa2d", {"name": "rules", "question_context": "drop", "nlp": {"name": "spacy"}})
    [r] = conv.convert([QA2DRequest(question=q, answer="Acetazolamide")])
    assert r.text == "The best initial treatment is Acetazolamide."


def test_exception_stems_in_place_and_negated_coordination(conv) -> None:  # type: ignore[no-untyped-def]
    p = prepare_question("Antischkow cells are present in all of the following conditions except")
    assert p.inverted and p.text == "Antischkow cells are present in which of the following conditions"
    # the "not" of a negative stem is gone, and so is the "do" that carried it
    p = prepare_question("What type of respiration does not use oxygen?")
    assert p.inverted and p.dropped_not and p.text == "What type of respiration does use oxygen"
    [r] = conv.convert([QA2DRequest(question="What type of respiration does not use oxygen?", answer="fermentation")])
    assert (r.text, r.polarity) == ("Fermentation uses oxygen.", "inverted")
    # the removed "not" covered one of two verbs: the positive stem would be true of no option
    [r] = conv.convert(
        [
            QA2DRequest(
                question="What type of bacteria does not need oxygen for growth and dies in its presence?",
                answer="anaerobic",
            )
        ]
    )
    assert r.text is None and r.reason == "negated_coordination"
    # two negations: no exception stem
    assert not prepare_question("What organisms cannot make their own food and do not technically eat?").inverted
