"""The shipped word list and the repair of MedMCQA's lost "rt"."""

from __future__ import annotations

import pytest

from claimforge.nlp.words import known_words, restore_lost_rt


def test_known_words_are_the_embedded_lms_vocabulary() -> None:
    words = known_words()
    assert len(words) == 65536 and {"hypertension", "artery", "birth"} <= words


@pytest.mark.parametrize(
    ("text", "expected", "fixed"),
    [
        # real MedMCQA text (validation split)
        ("Fuher examination revealed", "Further examination revealed", ["Fuher->Further"]),
        ("Inferior thyroid aery is a branch of?", "Inferior thyroid artery is a branch of?", ["aery->artery"]),
        ("A known case of HYPEENSION", "A known case of HYPERTENSION", ["HYPEENSION->HYPERTENSION"]),
        ("First sinus to develop at bih is:", "First sinus to develop at birth is:", ["bih->birth"]),
        # known words, short acronyms and words of two letters stay
        ("The heart rate of ASHA workers", "The heart rate of ASHA workers", []),
        ("po", "po", []),
    ],
)
def test_restore_lost_rt(text: str, expected: str, fixed: list[str]) -> None:
    assert restore_lost_rt(text) == (expected, fixed)


def test_a_word_is_repaired_only_in_exactly_one_way() -> None:
    assert restore_lost_rt("They paed.", {"they", "parted"}.__contains__) == ("They parted.", ["paed->parted"])
    # two known words could result ("aaa" -> "artaa" or "aarta"): the word stays
    assert restore_lost_rt("aaa", {"artaa", "aarta"}.__contains__) == ("aaa", [])
