"""Inter-annotator agreement: Krippendorff's alpha (nominal, ordinal, interval) and percent agreement."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, Literal

import numpy as np

# ----------------------------------------------------------------------------------------------------------------
# Krippendorff's alpha

AlphaLevel = Literal["nominal", "ordinal", "interval", "ratio"]


def _missing(v: Any) -> bool:
    if v is None:
        return True
    if isinstance(v, float) and math.isnan(v):
        return True
    return isinstance(v, str) and not v.strip()


def pairable_units(data: Iterable[Iterable[Any]]) -> list[list[Any]]:
    """Each unit's non-missing values, for units with at least two (the only ones that carry information)."""
    units = [[v for v in row if not _missing(v)] for row in data]
    return [u for u in units if len(u) >= 2]


def krippendorff_alpha(data: Iterable[Iterable[Any]], level: AlphaLevel = "nominal") -> float:
    """Krippendorff's α for a units × coders matrix (rows are units; ``None``, NaN or "" mark a missing value).

    The coincidence-matrix form of Krippendorff (2011, "Computing Krippendorff's alpha-reliability"):
    o_ck = Σ_u (number of c-k pairs of values in u) / (m_u − 1) over units with m_u ≥ 2 values; n_c = Σ_k o_ck;
    α = 1 − (n − 1) Σ o_ck δ²_ck / Σ n_c n_k δ²_ck with δ² nominal (c ≠ k), ordinal
    ((Σ_{g=c..k} n_g − (n_c + n_k)/2)²), interval ((c − k)²) or ratio (((c − k)/(c + k))²).
    Returns NaN when α is undefined: no unit with two values, or no variation at all (expected disagreement 0).
    """
    if level not in ("nominal", "ordinal", "interval", "ratio"):
        raise ValueError(f"unknown level {level!r} (nominal, ordinal, interval or ratio)")
    units = pairable_units(data)
    if not units:
        return math.nan
    if level != "nominal":
        try:
            units = [[float(v) for v in u] for u in units]
        except (TypeError, ValueError):
            raise ValueError(f"{level} α needs numeric values") from None
    values = sorted({v for u in units for v in u}, key=(lambda v: (str(type(v)), v)) if level == "nominal" else None)
    index = {v: i for i, v in enumerate(values)}
    k = len(values)
    o = np.zeros((k, k))
    for u in units:
        counts = Counter(index[v] for v in u)
        w = 1.0 / (len(u) - 1)
        for c, nc in counts.items():
            for d, nd in counts.items():
                o[c, d] += w * (nc * (nc - 1) if c == d else nc * nd)
    n_c = o.sum(axis=1)
    n = n_c.sum()
    delta = _delta2(values, n_c, level)
    expected = float((np.outer(n_c, n_c) * delta).sum())
    if expected == 0:
        return math.nan
    return float(1.0 - (n - 1) * float((o * delta).sum()) / expected)


def _delta2(values: Sequence[Any], n_c: np.ndarray, level: str) -> np.ndarray:
    k = len(values)
    if level == "nominal":
        return 1.0 - np.eye(k)
    v = np.asarray(values, dtype=float)
    if level == "interval":
        return (v[:, None] - v[None, :]) ** 2
    if level == "ratio":
        s = v[:, None] + v[None, :]
        with np.errstate(divide="ignore", invalid="ignore"):
            out = np.where(s == 0, 0.0, ((v[:, None] - v[None, :]) / np.where(s == 0, 1, s)) ** 2)
        return out
    cum = np.concatenate([[0.0], np.cumsum(n_c)])  # ordinal: ranks from the marginal frequencies
    out = np.zeros((k, k))
    for c in range(k):
        for d in range(k):
            lo, hi = min(c, d), max(c, d)
            out[c, d] = (cum[hi + 1] - cum[lo] - (n_c[c] + n_c[d]) / 2) ** 2
    return out


def percent_agreement(data: Iterable[Iterable[Any]]) -> float:
    """Share of units (with at least two values) on which every coder gave the same value: the paper's
    agreement for fluency, where almost all ratings are 3 and α is dominated by the few disagreements."""
    units = pairable_units(data)
    if not units:
        return math.nan
    return sum(1 for u in units if len(set(u)) == 1) / len(units)


def alpha_entry(data: list[list[Any]], level: AlphaLevel, digits: int = 4) -> dict[str, Any]:
    """Krippendorff's α of a units × annotators matrix as the agreement reports give it: ``{alpha (None when no
    unit has two values), level, units (pairable), values (in those units)}``."""
    pairable = pairable_units(data)
    value = krippendorff_alpha(data, level) if pairable else math.nan
    return {
        "alpha": None if math.isnan(value) else round(value, digits),
        "level": level,
        "units": len(pairable),
        "values": sum(len(u) for u in pairable),
    }
