"""Fill-mask backends: the interface contract on tiny masked LMs built here (a WordPiece BERT and a byte-level BPE
RoBERTa, no download), the piece classification, the shipped embedded model, and errors for missing models."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claimforge.backends.fillmask import (
    EmbeddedFillMask,
    HFFillMask,
    Infill,
    _proper_filler,
    apply_case,
    classify_pieces,
    piece_scheme,
)
from claimforge.backends.seq2seq import ModelLoadError
from claimforge.registry import registry

WORDS = [
    *[
        "the",
        "patients",
        "were",
        "randomly",
        "assigned",
        "to",
        "two",
        "groups",
        "blood",
        "pressure",
        "was",
        "measured",
        "aspirin",
        "reduced",
        "risk",
    ],
    *[
        "of",
        "stroke",
        "in",
        "adults",
        "with",
        "diabetes",
        "trial",
        "drug",
        "dose",
        "treatment",
        "placebo",
        "control",
        "outcome",
    ],
]
PIECES = ["##s", "##ed", "##ing", "##ly", "##er"]


@pytest.fixture(scope="module")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from transformers import AutoTokenizer, BertConfig, BertForMaskedLM

    out = tmp_path_factory.mktemp("tiny-bert")
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", ".", ",", "-", "%", *WORDS, *PIECES]
    (out / "vocab.txt").write_text("\n".join(dict.fromkeys(vocab)) + "\n", encoding="utf-8")
    (out / "tokenizer_config.json").write_text('{"tokenizer_class": "BertTokenizer", "do_lower_case": true}')
    tok = AutoTokenizer.from_pretrained(str(out))
    config = BertConfig(
        vocab_size=len(tok),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=64,
    )
    torch.manual_seed(0)
    model = BertForMaskedLM(config)
    with torch.no_grad():  # make "aspirin", "##s" and "." the model's favourites whatever the context
        bias = model.cls.predictions.bias
        for word, value in (("aspirin", 8.0), ("##s", 9.0), (".", 10.0), ("placebo", 6.0)):
            bias[tok.convert_tokens_to_ids(word)] = value
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


@pytest.fixture(scope="module")
def tiny_roberta(tmp_path_factory: pytest.TempPathFactory) -> Path:
    import torch
    from tokenizers import ByteLevelBPETokenizer
    from transformers import AutoTokenizer, RobertaConfig, RobertaForMaskedLM

    out = tmp_path_factory.mktemp("tiny-roberta")
    bpe = ByteLevelBPETokenizer()
    text = [" ".join(WORDS), "Aspirin reduced the risk of stroke.", "The patients were randomly assigned."] * 20
    bpe.train_from_iterator(
        text, vocab_size=1000, min_frequency=1, special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"]
    )
    bpe.save_model(str(out))
    (out / "tokenizer_config.json").write_text('{"tokenizer_class": "RobertaTokenizer"}')
    tok = AutoTokenizer.from_pretrained(str(out))
    config = RobertaConfig(
        vocab_size=len(tok),
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=80,
        pad_token_id=tok.pad_token_id,
    )
    torch.manual_seed(0)
    model = RobertaForMaskedLM(config)
    assert "\u0120aspirin" in tok.get_vocab()
    with torch.no_grad():
        model.lm_head.bias[tok.convert_tokens_to_ids("\u0120aspirin")] = 8.0
    model.save_pretrained(out)
    tok.save_pretrained(out)
    return out


def _hf(path: Path, tmp_path: Path, **kw: object) -> HFFillMask:
    return registry.build("fillmask", {"name": "hf", "model": str(path), "cache_dir": str(tmp_path), **kw})


def _whole_words(text: str) -> bool:
    return bool(re.fullmatch(r"[a-z0-9]+( [a-z0-9]+)*", text.lower())) and "#" not in text


def test_hf_bert_contract(tiny_bert: Path, tmp_path: Path) -> None:
    fm = _hf(tiny_bert, tmp_path, max_span_tokens=2)
    text = "Aspirin reduced the risk of stroke in adults with diabetes."
    reqs = [(text, 0, 7), (text, 28, 34), (text, 20, 34)]  # "Aspirin", "stroke", "risk of stroke"
    assert [text[s:e] for _, s, e in reqs] == ["Aspirin", "stroke", "risk of stroke"]
    out = fm.fill(reqs, k=5)
    assert [len(c) for c in out] == [5, 5, 5]
    for (t, s, e), cands in zip(reqs, out, strict=True):
        assert all(isinstance(c, Infill) for c in cands)
        assert [c.score for c in cands] == sorted((c.score for c in cands), reverse=True)
        assert all(c.text.lower() != t[s:e].lower() for c in cands), "the original span is never returned"
        assert all(_whole_words(c.text) for c in cands), cands
        assert len({c.text.lower() for c in cands}) == len(cands)
    # the biased model's favourite word is the original here, so it is excluded; casing follows the span
    assert all(c.text[0].isupper() for c in out[0])
    assert "Aspirin" not in [c.text for c in out[0]]
    assert out[1][0].text == "aspirin"  # lower case where the span was lower case
    # "##s" is the model's favourite token but never starts a filler; as a continuation it makes whole words
    assert any(c.text.endswith("s") for c in out[1])
    # a filler has at most as many words as its span: one word (of 1-2 pieces) for "stroke", up to 3 for the phrase
    assert all(" " not in c.text for c in out[0] + out[1])
    assert all(len(c.text.split()) <= 3 for c in out[2]) and any(" " in c.text for c in out[2])
    # cached: the same request gives the same answer without the model
    again = _hf(tiny_bert, tmp_path, max_span_tokens=2)
    again._engine = None
    assert again.fill(reqs[:1], k=5) == out[:1]


def test_hf_bert_multi_token_fillers(tiny_bert: Path, tmp_path: Path) -> None:
    import torch

    fm = _hf(tiny_bert, tmp_path, max_span_tokens=3, use_cache=False)
    text = "The patients were randomly assigned to two groups."
    out = fm.engine().candidates([(text, 18, 35)], k=30)[0]  # "randomly assigned"
    lengths = {len(fm.engine().tokenizer.tokenize(c.text)) for c in out}
    assert lengths - {1} and 1 in lengths, "one- and multi-token fillers compete in one ranking"
    assert all(_whole_words(c.text) for c in out)
    # the head applied at the read positions only equals the full model's logits there
    engine = fm.engine()
    rows = [([2, 9, 4, 12, 3], 2), ([2, 4, 4, 3], 1)]
    fast = engine._log_probs(rows)
    split, engine._split = engine._split, None
    try:
        full = engine._log_probs(rows)
    finally:
        engine._split = split
    assert split is not None and all(torch.allclose(a, b, atol=1e-5) for a, b in zip(fast, full, strict=True))
    # the original is kept only on request (accuracy measurements)
    kept = fm.engine().candidates([(text, 0, 3)], k=200, exclude_original=False)[0]
    assert "the" in [c.text.lower() for c in kept]
    assert "the" not in [c.text.lower() for c in fm.fill([(text, 0, 3)], k=200)[0]]


def test_hf_roberta_bpe(tiny_roberta: Path, tmp_path: Path) -> None:
    fm = _hf(tiny_roberta, tmp_path, max_span_tokens=2, use_cache=False)
    assert fm.engine().scheme == "bpe"
    text = "Aspirin reduced the risk of stroke."
    out = fm.fill([(text, 16, 19), (text, 0, 7)], k=4)  # "the", "Aspirin" (text start: no space before)
    assert [len(c) for c in out] == [4, 4]
    assert out[0][0].text == "aspirin"  # the biased word, with its "Ġ" marker decoded away
    for cands in out:
        assert all(_whole_words(c.text) and "\u0120" not in c.text for c in cands), cands
    assert all(c.text[0].isupper() and c.text.lower() != "aspirin" for c in out[1])


def test_stuttering_multi_word_fillers_are_refused() -> None:
    assert _proper_filler("allocated", "assigned", ("randomly", "to"))
    assert _proper_filler("blood flow", "heart rate", ("the", "was"))
    assert not _proper_filler("assigned assigned", "", ("", ""))
    assert not _proper_filler("randomly allocated", "assigned", ("randomly", "to"))  # copies the word before
    assert not _proper_filler("assigned randomly", "assigned", ("were", "to"))  # the original with a word added
    assert _proper_filler("assigned randomly", "", ("were", "to"))  # kept when the original may be returned


def test_piece_classification_and_casing() -> None:
    toks = ["[CLS]", "blood", "##s", ".", "Ġblood", "blood", "▁x"]
    assert piece_scheme(toks) == "wordpiece"
    assert classify_pieces(toks[:4], "wordpiece", {0}) == ([False, True, False, False], [False, False, True, False])
    assert piece_scheme(["Ġa", "Ġb", "c"]) == "bpe"
    assert classify_pieces(["Ġblood", "s", "Ġ.", "."], "bpe", set()) == (
        [True, False, False, False],
        [False, True, False, False],
    )
    assert piece_scheme(["▁a", "▁b", "c"]) == "sentencepiece"
    assert apply_case("blood pressure", "Stroke") == "Blood pressure"
    assert apply_case("il", "TNF") == "IL"
    assert apply_case("Smith", "stroke") == "Smith"


def test_missing_models_fail_clearly(tmp_path: Path) -> None:
    with pytest.raises(ModelLoadError, match="nowhere"):
        registry.build("fillmask", {"name": "embedded", "path": str(tmp_path / "nowhere")})
    fm = _hf(tmp_path / "no-such-model", tmp_path)
    with pytest.raises(ModelLoadError, match="no-such-model"):
        fm.fill([("A text.", 0, 1)], k=3)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ModelLoadError, match="safetensors"):
        _hf(empty, tmp_path).fill([("A text.", 0, 1)], k=3)
    with pytest.raises(ValueError, match="bad span"):
        _hf(empty, tmp_path).fill([("A text.", 3, 2)], k=3)


EMBEDDED_CASES = [
    ("The patients were randomly assigned to two groups.", "assigned", {"allocated", "randomized", "divided"}),
    ("Blood pressure was measured every hour.", "pressure", {"flow", "volume", "pulse", "glucose"}),
    ("Vitamin D supplementation did not improve bone density.", "improve", {"increase", "reduce", "affect"}),
    ("Smoking increases the risk of lung cancer.", "lung cancer", {"smoking", "tobacco", "diabetes", "obesity"}),
]


def test_embedded_model(tmp_path: Path) -> None:
    fm = registry.build("fillmask", {"name": "embedded", "cache_dir": str(tmp_path)})
    assert isinstance(fm, EmbeddedFillMask)
    reqs = [(t, t.index(w), t.index(w) + len(w)) for t, w, _ in EMBEDDED_CASES]
    out = fm.fill(reqs, k=10)
    for (_, word, good), cands in zip(EMBEDDED_CASES, out, strict=True):
        texts = [c.text.lower() for c in cands]
        assert len(cands) == 10 and word not in texts
        assert good & set(texts), (word, texts)
