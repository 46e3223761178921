"""Salient-word recall (evaluate/saliency_recall.py) on self-made COVID-Fact-style rows."""

from __future__ import annotations

from pathlib import Path

from claimforge.evaluate.saliency_recall import gold_items, recall_at, replaced_words
from claimforge.generate.saliency import SalientWord

CLAIM = "Vitamin D reduces the risk of infection ."


def _w(text: str) -> SalientWord:
    start = CLAIM.index(text)
    return SalientWord(start, start + len(text), text, "X", "", 0.0)


def test_replaced_words_ignore_case_and_punctuation() -> None:
    gold = replaced_words(CLAIM, ["Vitamin D increases the risk of infection.", "vitamin d reduces the risk of fever"])
    assert gold == {CLAIM.index("reduces"), CLAIM.index("infection")}


def test_gold_items_and_recall(tmp_path: Path) -> None:
    path = tmp_path / "rte.tsv"
    path.write_text(
        "index\tsentence1\tSentence2\tlabel\n"
        f"0\tev one\t{CLAIM}\tentailment\n"
        "1\tev one\tVitamin D increases the risk of infection.\tnot_entailment\n"
        "2\tev two\tAlone without a counter-claim.\tentailment\n"
    )
    ((claim, gold),) = gold_items(path)
    assert claim == CLAIM and gold == {CLAIM.index("reduces")}
    assert recall_at([[_w("Vitamin"), _w("risk"), _w("reduces")]], [gold], 3) == 1.0
    assert recall_at([[_w("Vitamin"), _w("risk"), _w("reduces")]], [gold], 2) == 0.0
    assert recall_at([], [], 3) == 0.0
