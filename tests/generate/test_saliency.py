"""Salient words (generate/saliency.py): candidates from the parse, the word-piece arithmetic of attention scores,
and each method's ranking on hand-made claims."""

from __future__ import annotations

import numpy as np
import pytest

from claimforge.generate.saliency import SalientWord, word_scores
from claimforge.registry import registry

CLAIM = "High dose vitamin D improves survival in critically ill patients."


def _words(ranked: list[SalientWord]) -> list[str]:
    return [w.text for w in ranked]


def test_word_scores_sum_the_pieces_inside_each_word() -> None:
    # pieces: [CLS] vit ##amin improves [SEP]
    offsets = np.array([[0, 0], [0, 3], [3, 7], [8, 16], [0, 0]])
    weights = np.array([0.5, 0.1, 0.2, 0.15, 0.05])
    words = [SalientWord(0, 7, "vitamin", "NOUN", "NN", 0), SalientWord(8, 16, "improves", "VERB", "VBZ", 0)]
    assert word_scores(weights, offsets, words) == pytest.approx([0.3, 0.15])


def test_candidates_are_content_and_flip_words() -> None:
    sal = registry.build("saliency", {"name": "pos", "lm": None})
    (ranked,) = sal.rank(["Masks may not reduce the spread of two viruses in schools."])
    words = set(_words(ranked))
    assert {"Masks", "reduce", "spread", "viruses", "schools", "may", "not", "two"} <= words
    assert not words & {"the", "of", "in", "."}
    # the prior: the verb first
    assert ranked[0].text == "reduce"


def test_yake_and_pos_rank_every_candidate_once() -> None:
    for name in ("yake", "pos"):
        (ranked,) = registry.build("saliency", {"name": name}).rank([CLAIM])
        assert len(set(_words(ranked))) == len(ranked) >= 5
        assert all(CLAIM[w.start : w.end] == w.text for w in ranked)
        assert [w.score for w in ranked] == sorted((w.score for w in ranked), reverse=True)


@pytest.mark.slow
def test_attention_and_learned_use_the_judge() -> None:
    att = registry.build("saliency", {"name": "attention"})
    learned = registry.build("saliency", {"name": "learned"})
    for sal in (att, learned):
        ranked, empty = sal.rank([CLAIM, "Yes."])
        assert empty == [] and len(ranked) >= 5 and all(CLAIM[w.start : w.end] == w.text for w in ranked)
    assert "head=9" in att.model_id and learned.model_id.startswith("learned-saliency@1")
    # the learned ranker puts the main verb among the top three here (it flips the claim)
    assert "improves" in _words(learned.rank([CLAIM])[0][:3])


def test_learned_weights_must_exist(tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(FileNotFoundError, match="no saliency weights"):
        registry.build("saliency", {"name": "learned", "path": str(tmp_path / "none.json")})
