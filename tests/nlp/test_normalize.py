from claimforge.nlp.normalize import contains_phrase, lemma_tokens


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
