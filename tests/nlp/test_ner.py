"""The NER component (kind "ner", name "spacy"), its BIO helpers and the shipped en_claimforge_bioner model."""

from __future__ import annotations

import functools
from pathlib import Path

import pytest

from claimforge.nlp.entities import (
    Mention,
    SpacyNER,
    _trimmed_chunk,
    bio_to_spans,
    merge_mentions,
    read_bio_tsv,
)
from claimforge.nlp.pipeline import MODELS_DIR
from claimforge.registry import registry

FIXTURE = Path(__file__).parent / "fixtures" / "ner_sample.tsv"
CISPLATIN = "Cisplatin induced nephrotoxicity in rats."


def _ner(tmp_path: Path, **kw: object) -> SpacyNER:
    return registry.build("ner", {"name": "spacy", "cache_dir": str(tmp_path / "cache"), **kw})


# ---------------------------------------------------------------------------------------------- BIO helpers


def test_bio_to_spans_conlleval_rules() -> None:
    assert bio_to_spans(["O", "B-Chemical", "I-Chemical", "O"]) == [(1, 3, "Chemical")]
    # adjacent entities of the same type: B after B starts a new entity
    assert bio_to_spans(["B-Chemical", "B-Chemical"]) == [(0, 1, "Chemical"), (1, 2, "Chemical")]
    # I- without B- starts an entity; I- of another type ends the open one and starts a new one
    assert bio_to_spans(["O", "I-Disease", "I-Disease"]) == [(1, 3, "Disease")]
    assert bio_to_spans(["B-Chemical", "I-Disease"]) == [(0, 1, "Chemical"), (1, 2, "Disease")]
    assert bio_to_spans(["I-Disease"]) == [(0, 1, "Disease")]
    assert bio_to_spans([]) == []
    with pytest.raises(ValueError, match="not a BIO tag: 'X-Disease'"):
        bio_to_spans(["X-Disease"])


def test_read_bio_fixture_to_spans() -> None:
    sents = list(read_bio_tsv(FIXTURE))
    assert [len(w) for w, _ in sents] == [7, 10, 4]  # a double blank line is one boundary; no final newline
    spans = [bio_to_spans(tags) for _, tags in sents]
    assert spans[0] == [(0, 1, "Chemical"), (3, 6, "Disease")]
    assert spans[1] == [(0, 1, "Chemical"), (1, 2, "Chemical"), (3, 5, "Disease"), (6, 10, "Disease")]
    assert spans[2] == [(0, 3, "Chemical"), (3, 4, "Disease")]
    words = sents[1][0]
    assert " ".join(words[6:10]) == "Parkinson ' s disease"


# ------------------------------------------------------------------------------------------ merge and trim


@functools.lru_cache(maxsize=1)
def _vocab():  # type: ignore[no-untyped-def]
    import spacy

    return spacy.blank("en").vocab


def _doc(words: list[str], tags: list[str], pos: list[str]):  # type: ignore[no-untyped-def]
    from spacy.tokens import Doc

    return Doc(_vocab(), words=words, tags=tags, pos=pos)


@pytest.mark.parametrize(
    ("words", "tags", "pos", "expected"),
    [
        (["these", "several", "patients"], ["DT", "JJ", "NNS"], ["DET", "ADJ", "NOUN"], "patients"),
        (["our", "new", "treatment"], ["PRP$", "JJ", "NN"], ["PRON", "ADJ", "NOUN"], "new treatment"),
        (["Both", "the", "rats"], ["CC", "DT", "NNS"], ["CCONJ", "DET", "NOUN"], "rats"),
        (["its", "side", "effects"], ["PRP$", "NN", "NNS"], ["PRON", "NOUN", "NOUN"], "side effects"),
        (["two", "groups"], ["CD", "NNS"], ["NUM", "NOUN"], "two groups"),
        (["it"], ["PRP"], ["PRON"], None),  # only a pronoun
        (["the", "two"], ["DT", "CD"], ["DET", "NUM"], None),  # only a number remains
        (["the", "same"], ["DT", "JJ"], ["DET", "ADJ"], None),  # only stop words remain
        (["many", "of", "them"], ["JJ", "IN", "PRP"], ["ADJ", "ADP", "PRON"], None),
    ],
)
def test_trimmed_chunk(words: list[str], tags: list[str], pos: list[str], expected: str | None) -> None:
    doc = _doc(words, tags, pos)
    span = _trimmed_chunk(doc[:])
    assert (doc.text[span[0] : span[1]] if span else None) == expected


def test_merge_ner_first_then_non_overlapping_chunks() -> None:
    text = "Cisplatin induced acute renal failure in rats."
    ents = [(0, 9, "Chemical"), (18, 37, "Disease")]
    chunks = [(41, 45), (0, 9), (24, 37), (10, 23)]  # rats; same as an entity; inside one; partial overlap
    got = merge_mentions(text, ents, chunks)
    assert got == [
        Mention("Cisplatin", 0, 9, "Chemical", "ner"),
        Mention("acute renal failure", 18, 37, "Disease", "ner"),
        Mention("rats", 41, 45, "NP", "noun_chunk"),
    ]


# ---------------------------------------------------------------------------------------- the shipped model


def test_shipped_model_finds_chemical_and_disease(tmp_path: Path) -> None:
    assert (MODELS_DIR / "en_claimforge_bioner" / "meta.json").is_file()
    ner = _ner(tmp_path, noun_chunks=False)
    assert ner.model_id == "en_claimforge_bioner"
    [mentions] = ner.mentions([CISPLATIN])
    assert [(m.text, m.label, m.source) for m in mentions] == [
        ("Cisplatin", "Chemical", "ner"),
        ("nephrotoxicity", "Disease", "ner"),
    ]
    assert all(CISPLATIN[m.start : m.end] == m.text for m in mentions)


def test_shipped_tokenizer_splits_like_the_corpora(tmp_path: Path) -> None:
    words = [t.text for t in _ner(tmp_path).nlp.make_doc("Parkinson's disease after 5-FU (i.p.)")]
    assert words == ["Parkinson", "'", "s", "disease", "after", "5", "-", "FU", "(", "i", ".", "p", ".", ")"]


def test_noun_chunks_merged_trimmed_and_label_filter(tmp_path: Path) -> None:
    texts = [
        "The drug cisplatin caused severe nephrotoxicity in several of our rats.",
        "Our patients were given cisplatin, and it caused nephrotoxicity in these rats.",
    ]
    first, second = _ner(tmp_path).mentions(texts)
    assert [(m.text, m.label, m.source) for m in first] == [
        # "The drug cisplatin" is one noun phrase (appositive compound): it overlaps the entity, so only the entity
        ("cisplatin", "Chemical", "ner"),
        ("nephrotoxicity", "Disease", "ner"),  # the chunk "severe nephrotoxicity" overlaps it: not added
        ("rats", "NP", "noun_chunk"),  # "our" trimmed
    ]
    got = [(m.text, m.label, m.source) for m in second]
    assert ("patients", "NP", "noun_chunk") in got  # "Our" trimmed
    assert ("rats", "NP", "noun_chunk") in got  # "these" trimmed
    assert not any(m.text.lower() in {"it", "our"} for m in second)  # pronoun-only chunk dropped
    for text, mentions in zip(texts, (first, second), strict=True):
        assert [m.start for m in mentions] == sorted(m.start for m in mentions)
        assert all(text[m.start : m.end] == m.text for m in mentions)

    [diseases] = _ner(tmp_path, labels=("Disease",)).mentions(texts[:1])
    # with Chemicals filtered out, the drug is just a noun phrase
    assert [(m.text, m.label) for m in diseases] == [
        ("drug cisplatin", "NP"),
        ("nephrotoxicity", "Disease"),
        ("rats", "NP"),
    ]
    [only] = _ner(tmp_path, labels=("Disease",), noun_chunks=False).mentions(texts[:1])
    assert [(m.text, m.label, m.source) for m in only] == [("nephrotoxicity", "Disease", "ner")]


def test_results_are_cached(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    texts = [CISPLATIN, "Naloxone reversed the hypotension.", CISPLATIN]
    first = _ner(tmp_path).mentions(texts)
    assert first[0] == first[2]

    def boom(*args: object, **kw: object) -> None:
        raise AssertionError("the model ran although the results were cached")

    monkeypatch.setattr(SpacyNER, "_entities", boom)
    monkeypatch.setattr(SpacyNER, "_noun_chunks", boom)
    seen: list[tuple[int, int]] = []
    again = _ner(tmp_path).mentions(texts, progress=lambda done, total: seen.append((done, total)))
    assert again == first
    assert seen == [(2, 2)]
    with pytest.raises(AssertionError, match="the model ran"):  # a different option is a different key
        _ner(tmp_path, labels=("Chemical",)).mentions(texts[:1])


def test_bc5cdr_test_slice(shared_data, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """Entity-level F1 of the shipped model on the first 300 sentences of the real BC5CDR test split."""
    from spacy.tokens import Doc

    path = shared_data("bc5cdr", "data__BC5CDR-IOB__test.tsv")
    sents = []
    for sent in read_bio_tsv(path):
        sents.append(sent)
        if len(sents) == 300:
            break
    nlp = _ner(tmp_path).nlp
    tp = fp = fn = 0
    for (_, tags), doc in zip(sents, nlp.pipe(Doc(nlp.vocab, words=w) for w, _ in sents), strict=True):
        gold = set(bio_to_spans(tags))
        pred = {(e.start, e.end, e.label_) for e in doc.ents}
        tp, fp, fn = tp + len(gold & pred), fp + len(pred - gold), fn + len(gold - pred)
    f1 = 2 * tp / (2 * tp + fp + fn)
    assert tp + fn > 500
    assert f1 > 0.75, f"F1 {f1:.3f} (tp={tp} fp={fp} fn={fn})"
