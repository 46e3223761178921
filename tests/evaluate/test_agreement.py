"""Annotator agreement (claimforge.evaluate.agreement): Krippendorff's α against the textbook example and a brute-force
count, percent agreement."""

from __future__ import annotations

import math
from collections import Counter

import pytest

from claimforge.evaluate.agreement import krippendorff_alpha, percent_agreement

# Krippendorff (2011), "Computing Krippendorff's alpha-reliability", section C: 4 coders x 12 units with missing
# values; published: nominal .743, ordinal .815, interval .849 (ratio .797).
_N = None
TEXTBOOK = [
    [1, 1, _N, 1],
    [2, 2, 3, 2],
    [3, 3, 3, 3],
    [3, 3, 3, 3],
    [2, 2, 2, 2],
    [1, 2, 3, 4],
    [4, 4, 4, 4],
    [1, 1, 2, 1],
    [2, 2, 2, 2],
    [_N, 5, 5, 5],
    [_N, _N, 1, 1],
    [_N, 3, _N, _N],
]


def _brute_alpha(data: list[list[object]], level: str) -> float:
    """α = 1 - D_o / D_e from all ordered pairs of values, written independently of the coincidence matrix."""
    units = [[v for v in row if v is not None] for row in data]
    units = [u for u in units if len(u) >= 2]
    values = [v for u in units for v in u]
    n = len(values)
    freq = Counter(values)
    order = sorted(freq)

    def delta(a: float, b: float) -> float:
        if level == "nominal":
            return float(a != b)
        if level == "interval":
            return float((a - b) ** 2)
        if level == "ratio":
            return float(((a - b) / (a + b)) ** 2)
        lo, hi = sorted((a, b))
        between = sum(freq[g] for g in order if lo <= g <= hi)
        return float((between - (freq[a] + freq[b]) / 2) ** 2)

    d_o = (
        sum(sum(delta(a, b) for i, a in enumerate(u) for j, b in enumerate(u) if i != j) / (len(u) - 1) for u in units)
        / n
    )
    d_e = sum(delta(a, b) for i, a in enumerate(values) for j, b in enumerate(values) if i != j) / (n * (n - 1))
    return 1 - d_o / d_e


@pytest.mark.parametrize(("level", "published"), [("nominal", 0.743), ("ordinal", 0.815), ("interval", 0.849)])
def test_alpha_textbook_example(level: str, published: float) -> None:
    a = krippendorff_alpha(TEXTBOOK, level)  # type: ignore[arg-type]
    assert round(a, 3) == published
    assert a == pytest.approx(_brute_alpha(TEXTBOOK, level), abs=1e-12)


def test_alpha_ratio_and_small_examples() -> None:
    assert krippendorff_alpha(TEXTBOOK, "ratio") == pytest.approx(_brute_alpha(TEXTBOOK, "ratio"), abs=1e-12)
    assert round(krippendorff_alpha(TEXTBOOK, "ratio"), 3) == 0.797
    # units x coders of the `krippendorff` package's dict example: 3 coders, u1 missing one value -> interval .883
    assert round(krippendorff_alpha([[1, 1, None], [2, 2, 2], [3, 4, 3]], "interval"), 3) == 0.883
    # nominal on labels, NaN and "" as missing
    data = [["a", "a", float("nan")], ["b", "b", "b"], ["a", "b", ""]]
    assert krippendorff_alpha(data, "nominal") == pytest.approx(
        _brute_alpha([["a", "a"], ["b", "b", "b"], ["a", "b"]], "nominal")
    )
    # perfect agreement, no variation (undefined), nothing pairable (undefined)
    assert krippendorff_alpha([[1, 1], [2, 2]], "ordinal") == 1.0
    assert math.isnan(krippendorff_alpha([[3, 3], [3, 3]], "ordinal"))
    assert math.isnan(krippendorff_alpha([[1, None], [None, 2]], "nominal"))
    with pytest.raises(ValueError, match="numeric"):
        krippendorff_alpha([["a", "b"]], "interval")


def test_percent_agreement_counts_units_with_two_values() -> None:
    assert percent_agreement([[3, 3, 3], [3, 2, None], [1, None, None], [2, 2, None]]) == pytest.approx(2 / 3)
    assert math.isnan(percent_agreement([[1, None]]))
