import pytest

from claimforge.nlp.normalize import contains_phrase, finish_sentence, lemma_tokens


def test_lemma_tokens_fold_case_plural_and_accents() -> None:
    assert lemma_tokens("The Nuclei of CELLS") == ("the", "nucleus", "of", "cell")
    assert lemma_tokens("café résumé") == ("cafe", "resume")


def test_contains_phrase_on_lemmas_not_substrings() -> None:
    hay = lemma_tokens("Mitochondria produce energy; the nuclei store DNA.")
    assert contains_phrase(hay, lemma_tokens("nucleus"))
    assert contains_phrase(hay, lemma_tokens("a DNA"))
    assert contains_phrase(hay, lemma_tokens("stores"))
    # a raw substring match would say "ion" is in "mitochondria"; lemma matching does not
    assert not contains_phrase(hay, lemma_tokens("ion"))
    # stopword-only answers never match
    assert not contains_phrase(hay, lemma_tokens("the"))


def test_hyphens_split_and_unknown_plurals() -> None:
    assert lemma_tokens("carbon-to-carbon bonds") == ("carbon", "to", "carbon", "bond")
    assert lemma_tokens("exoskeletons") == ("exoskeleton",)
    assert lemma_tokens("gas") == ("gas",)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("a physicist. his name is Bohr", "A physicist. His name is Bohr."),
        # before a comma too ("however,"): a fill-in stem's second sentence
        ("they move actively. however, after that they stop", "They move actively. However, after that they stop."),
        # not inside abbreviations, nor before words with inner capitals or digits
        ("grown in E. coli cells", "Grown in E. coli cells."),
        ("levels rose. mRNA levels fell", "Levels rose. mRNA levels fell."),
        ("levels rose. p53, however, fell", "Levels rose. p53, however, fell."),
    ],
)
def test_finish_sentence_capitals_after_inner_full_stops(text: str, expected: str) -> None:
    assert finish_sentence(text) == expected
