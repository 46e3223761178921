"""Classification metrics against values computed by hand (the arithmetic is in the comments), the
bootstrap interval, mean ± std over seeds, the majority baseline and the confusion-matrix PNG."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from claimforge.records import Label
from claimforge.verify.metrics import (
    bootstrap_ci,
    classification_metrics,
    majority_baseline,
    mean_std,
    save_confusion_png,
)

S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO
LABELS = (S, R, N)

# 10 examples, 3 classes.
GOLD = [S, S, S, S, R, R, R, N, N, N]
PRED = [S, S, S, R, R, R, S, N, N, R]
# Confusion (rows gold S/R/N, columns predicted S/R/N):
#   gold S (4): predicted S, S, S, R  -> [3, 1, 0]
#   gold R (3): predicted R, R, S     -> [1, 2, 0]
#   gold N (3): predicted N, N, R     -> [0, 1, 2]
# accuracy = (3 + 2 + 2) / 10 = 0.7
# precision = TP / column sum: S 3/4 = 0.75, R 2/4 = 0.5, N 2/2 = 1.0
# recall    = TP / row sum:    S 3/4 = 0.75, R 2/3,       N 2/3
# F1 = 2PR / (P + R): S 0.75; R 2*0.5*(2/3) / (0.5 + 2/3) = (2/3) / (7/6) = 4/7; N 2*(2/3) / (5/3) = 0.8
# macro-F1    = (0.75 + 4/7 + 0.8) / 3            = 0.7071428...
# weighted-F1 = (4*0.75 + 3*(4/7) + 3*0.8) / 10   = (3 + 12/7 + 2.4) / 10 = 0.7114285...
HAND_F1 = {"SUPPORTED": 0.75, "REFUTED": 4 / 7, "NOT_ENOUGH_INFO": 0.8}


def test_three_class_example_by_hand() -> None:
    m = classification_metrics(GOLD, PRED, LABELS)
    assert m["n"] == 10
    assert m["labels"] == ["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]
    assert m["accuracy"] == pytest.approx(0.7)
    assert m["confusion"] == [[3, 1, 0], [1, 2, 0], [0, 1, 2]]
    pc = m["per_class"]
    assert pc["SUPPORTED"]["precision"] == pytest.approx(0.75)
    assert pc["REFUTED"]["precision"] == pytest.approx(0.5)
    assert pc["NOT_ENOUGH_INFO"]["precision"] == pytest.approx(1.0)
    assert pc["SUPPORTED"]["recall"] == pytest.approx(0.75)
    assert pc["REFUTED"]["recall"] == pytest.approx(2 / 3)
    assert pc["NOT_ENOUGH_INFO"]["recall"] == pytest.approx(2 / 3)
    for name, f1 in HAND_F1.items():
        assert pc[name]["f1"] == pytest.approx(f1)
    assert [pc[k]["support"] for k in m["labels"]] == [4, 3, 3]
    assert m["macro_f1"] == pytest.approx((0.75 + 4 / 7 + 0.8) / 3)
    assert m["macro_f1"] == pytest.approx(0.7071428571)
    assert m["weighted_f1"] == pytest.approx((4 * 0.75 + 3 * 4 / 7 + 3 * 0.8) / 10)
    assert m["weighted_f1"] == pytest.approx(0.7114285714)


def test_labels_as_strings_or_enums_give_the_same_scores() -> None:
    as_enum = classification_metrics(GOLD, PRED, LABELS)
    as_text = classification_metrics([g.value for g in GOLD], [p.value for p in PRED], [x.value for x in LABELS])
    assert as_enum == as_text


def test_class_absent_from_gold_and_predictions_counts_as_zero_in_macro() -> None:
    # gold S S R R, predicted S R R R; N never occurs.
    # S: P 1/1 = 1, R 1/2 -> F1 = 2*1*0.5 / 1.5 = 2/3
    # R: P 2/3, R 2/2 = 1 -> F1 = 2*(2/3)*1 / (5/3) = 0.8
    # N: no gold, no prediction: P = R = F1 = 0 (zero_division=0), support 0
    # macro    = (2/3 + 0.8 + 0) / 3 = 0.488888...  (N counts, because it is in `labels`)
    # weighted = (2*(2/3) + 2*0.8 + 0*0) / 4 = 0.733333...  (N has no weight)
    m = classification_metrics([S, S, R, R], [S, R, R, R], LABELS)
    assert m["accuracy"] == pytest.approx(0.75)
    assert m["per_class"]["NOT_ENOUGH_INFO"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "support": 0}
    assert m["per_class"]["SUPPORTED"]["f1"] == pytest.approx(2 / 3)
    assert m["per_class"]["REFUTED"]["f1"] == pytest.approx(0.8)
    assert m["macro_f1"] == pytest.approx((2 / 3 + 0.8) / 3)
    assert m["weighted_f1"] == pytest.approx((2 * 2 / 3 + 2 * 0.8) / 4)
    assert m["confusion"] == [[1, 1, 0], [0, 2, 0], [0, 0, 0]]


def test_class_predicted_but_never_gold() -> None:
    # gold S S R, predicted S N R: N has precision 0/1 = 0 and recall 0/0 -> 0 (zero_division=0).
    # S: P 1/1, R 1/2 -> F1 2/3; R: P 1/1, R 1/1 -> F1 1. macro = (2/3 + 1 + 0) / 3 = 5/9
    m = classification_metrics([S, S, R], [S, N, R], LABELS)
    assert m["per_class"]["NOT_ENOUGH_INFO"]["precision"] == 0.0
    assert m["per_class"]["NOT_ENOUGH_INFO"]["recall"] == 0.0
    assert m["macro_f1"] == pytest.approx(5 / 9)


def test_confusion_rows_are_gold_and_columns_predicted() -> None:
    # every gold S predicted R: the count sits in row S (0), column R (1)
    m = classification_metrics([S, S, S], [R, R, R], LABELS)
    assert m["confusion"] == [[0, 3, 0], [0, 0, 0], [0, 0, 0]]
    assert m["per_class"]["SUPPORTED"]["recall"] == 0.0 and m["per_class"]["REFUTED"]["precision"] == 0.0


def test_mismatched_lengths_and_empty_input_raise() -> None:
    with pytest.raises(ValueError, match="2 gold labels but 3 predictions"):
        classification_metrics([S, R], [S, R, N], LABELS)
    with pytest.raises(ValueError, match="no examples"):
        classification_metrics([], [], LABELS)
    with pytest.raises(ValueError, match="no examples"):
        bootstrap_ci([], [], LABELS)
    with pytest.raises(ValueError, match="unknown metric"):
        bootstrap_ci([S], [S], LABELS, metric="recall")


def test_bootstrap_ci_rejects_mismatched_lengths() -> None:
    with pytest.raises(ValueError, match="3 gold labels but 5 predictions"):
        bootstrap_ci([S, S, S], [S, S, S, R, R], LABELS, n_resamples=10)
    with pytest.raises(ValueError, match="5 gold labels but 3 predictions"):
        bootstrap_ci([S, S, S, R, R], [S, S, S], LABELS, n_resamples=10)


def _balanced(n_per_class: int) -> list[Label]:
    return [lab for _ in range(n_per_class) for lab in LABELS]


def test_bootstrap_ci_of_perfect_predictions_is_one() -> None:
    gold = _balanced(30)  # 90 examples: every resample holds every class, so no 0/0 class drags macro down
    for metric in ("accuracy", "macro_f1", "weighted_f1"):
        assert bootstrap_ci(gold, gold, LABELS, metric, n_resamples=100) == (1.0, 1.0)


def test_bootstrap_ci_contains_the_point_estimate_and_is_seeded() -> None:
    gold = GOLD * 4
    pred = PRED * 4  # accuracy 0.7, macro-F1 0.707 as above (repeating the data keeps the scores)
    m = classification_metrics(gold, pred, LABELS)
    for metric in ("accuracy", "macro_f1", "weighted_f1"):
        lo, hi = bootstrap_ci(gold, pred, LABELS, metric, n_resamples=150, seed=7)
        assert lo < m[metric] < hi, (metric, lo, m[metric], hi)
        assert 0.0 <= lo <= hi <= 1.0
    a = bootstrap_ci(gold, pred, LABELS, "accuracy", n_resamples=300, seed=7)
    assert bootstrap_ci(gold, pred, LABELS, "accuracy", n_resamples=300, seed=7) == a
    assert bootstrap_ci(gold, pred, LABELS, "accuracy", n_resamples=300, seed=8) != a


def test_bootstrap_ci_narrows_with_more_data() -> None:
    small = bootstrap_ci(GOLD * 2, PRED * 2, LABELS, "accuracy", n_resamples=400, seed=1)  # 20 examples
    large = bootstrap_ci(GOLD * 40, PRED * 40, LABELS, "accuracy", n_resamples=400, seed=1)  # 400 examples
    assert large[1] - large[0] < (small[1] - small[0]) / 2  # width shrinks ~ 1/sqrt(n): sqrt(20) ≈ 4.5 times
    assert large[0] < 0.7 < large[1]


def test_mean_std_uses_the_sample_standard_deviation() -> None:
    # values 1, 2, 3, 4: mean 2.5; squared deviations 2.25 + 0.25 + 0.25 + 2.25 = 5;
    # ddof=1 -> variance 5/3, std sqrt(5/3) = 1.2909944 (ddof=0 would give sqrt(1.25) = 1.118)
    mean, std = mean_std([1.0, 2.0, 3.0, 4.0])
    assert mean == pytest.approx(2.5)
    assert std == pytest.approx(math.sqrt(5 / 3))
    # two values 0.6 and 0.8: mean 0.7, std = sqrt(((0.1)^2 + (0.1)^2) / 1) = 0.1414...
    assert mean_std([0.6, 0.8]) == pytest.approx((0.7, math.sqrt(0.02)))
    assert mean_std([0.42]) == (0.42, 0.0)
    empty = mean_std([])
    assert math.isnan(empty[0]) and math.isnan(empty[1])


def test_majority_baseline_predicts_the_most_frequent_training_label() -> None:
    train = [R, R, R, S, N]  # R is the training majority
    test = [S, S, S, R]  # ... though S is the majority of the test set
    # always R on the test set: accuracy 1/4; R: P 1/4, recall 1 -> F1 2*(1/4)*1 / (5/4) = 0.4; S, N: 0
    # macro = 0.4 / 3; weighted = (3*0 + 1*0.4) / 4 = 0.1
    m = majority_baseline(train, test, LABELS)
    assert m["accuracy"] == pytest.approx(0.25)
    assert m["confusion"] == [[0, 3, 0], [0, 1, 0], [0, 0, 0]]
    assert m["macro_f1"] == pytest.approx(0.4 / 3)
    assert m["weighted_f1"] == pytest.approx(0.1)
    # a tie is broken the same way every time (the alphabetically first label name)
    tie = majority_baseline([S, R], [S, R], LABELS)
    assert tie["confusion"] == [[0, 1, 0], [0, 1, 0], [0, 0, 0]]  # "REFUTED" < "SUPPORTED"


def test_save_confusion_png(tmp_path: Path) -> None:
    m = classification_metrics(GOLD, PRED, LABELS)
    out = save_confusion_png(m, tmp_path / "nested" / "cm.png", title="toy")
    assert out == tmp_path / "nested" / "cm.png"
    data = out.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) > 5_000  # a drawn figure, not an empty stub
    # a matrix with an empty gold row (no division by zero)
    empty_row = classification_metrics([S, S, R, R], [S, R, R, R], LABELS)
    assert save_confusion_png(empty_row, tmp_path / "cm2.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
