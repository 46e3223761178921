"""Classification metrics for verifiers (scikit-learn): accuracy, macro/weighted F1, per-class P/R/F1,
confusion matrices (and their PNG), bootstrap 95% intervals, and mean ± std over seeds.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np


def _names(labels: Sequence[Any]) -> list[str]:
    return [getattr(lab, "value", str(lab)) for lab in labels]


def classification_metrics(gold: Sequence[Any], pred: Sequence[Any], labels: Sequence[Any]) -> dict[str, Any]:
    """Scores of predictions against gold labels over the label set ``labels`` (all classes count in the
    macro average, also ones absent from gold, as scikit-learn does when ``labels`` is given)."""
    from sklearn.metrics import accuracy_score, confusion_matrix, precision_recall_fscore_support

    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    names = _names(labels)
    g, p = _names(gold), _names(pred)
    if not g:
        raise ValueError("no examples to score")
    prec, rec, f1, support = precision_recall_fscore_support(g, p, labels=names, zero_division=0)
    _, _, macro, _ = precision_recall_fscore_support(g, p, labels=names, average="macro", zero_division=0)
    _, _, weighted, _ = precision_recall_fscore_support(g, p, labels=names, average="weighted", zero_division=0)
    return {
        "n": len(g),
        "accuracy": float(accuracy_score(g, p)),
        "macro_f1": float(macro),
        "weighted_f1": float(weighted),
        "per_class": {
            name: {"precision": float(prec[i]), "recall": float(rec[i]), "f1": float(f1[i]), "support": int(support[i])}
            for i, name in enumerate(names)
        },
        "labels": names,
        "confusion": confusion_matrix(g, p, labels=names).tolist(),  # rows gold, columns predicted
    }


def bootstrap_ci(
    gold: Sequence[Any],
    pred: Sequence[Any],
    labels: Sequence[Any],
    metric: str = "macro_f1",
    n_resamples: int = 1000,
    seed: int = 0,
    level: float = 0.95,
) -> tuple[float, float]:
    """Percentile bootstrap interval of ``metric`` (accuracy, macro_f1 or weighted_f1) over examples."""
    from sklearn.metrics import f1_score

    if len(gold) != len(pred):
        raise ValueError(f"{len(gold)} gold labels but {len(pred)} predictions")
    names = _names(labels)
    g = np.array(_names(gold))
    p = np.array(_names(pred))
    n = len(g)
    if n == 0:
        raise ValueError("no examples to score")
    rng = np.random.default_rng(seed)
    score: Callable[[np.ndarray, np.ndarray], float]
    if metric == "accuracy":
        score = lambda a, b: float(np.mean(a == b))  # noqa: E731
    elif metric in ("macro_f1", "weighted_f1"):
        avg = metric.split("_")[0]
        score = lambda a, b: float(f1_score(a, b, labels=names, average=avg, zero_division=0))  # noqa: E731
    else:
        raise ValueError(f"unknown metric {metric!r}")
    values = np.empty(n_resamples)
    for r in range(n_resamples):
        idx = rng.integers(0, n, n)
        values[r] = score(g[idx], p[idx])
    alpha = (1 - level) / 2
    return float(np.quantile(values, alpha)), float(np.quantile(values, 1 - alpha))


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1; 0 for a single value)."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return math.nan, math.nan
    return float(arr.mean()), float(arr.std(ddof=1)) if arr.size > 1 else 0.0


def majority_baseline(train_gold: Sequence[Any], test_gold: Sequence[Any], labels: Sequence[Any]) -> dict[str, Any]:
    """Scores of always predicting the most frequent training label."""
    names = _names(train_gold)
    top = max(sorted(set(names)), key=names.count)
    return classification_metrics(test_gold, [top] * len(test_gold), labels)


def save_confusion_png(metrics: dict[str, Any], path: str | Path, title: str = "") -> Path:
    """Draw the confusion matrix of ``classification_metrics`` output (counts and row shares)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    cm = np.asarray(metrics["confusion"], dtype=float)
    names = metrics["labels"]
    rows = cm.sum(axis=1, keepdims=True)
    share = np.divide(cm, rows, out=np.zeros_like(cm), where=rows > 0)
    fig, ax = plt.subplots(figsize=(1.6 + 1.3 * len(names), 1.2 + 1.1 * len(names)))
    ax.imshow(share, cmap="Blues", vmin=0, vmax=1)
    ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("predicted")
    ax.set_ylabel("gold")
    for i in range(len(names)):
        for j in range(len(names)):
            ax.text(
                j,
                i,
                f"{int(cm[i, j])}\n{share[i, j]:.0%}",
                ha="center",
                va="center",
                color="white" if share[i, j] > 0.5 else "black",
                fontsize=8,
            )
    if title:
        ax.set_title(title, fontsize=9)
    fig.tight_layout()
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(out, dpi=110)
    plt.close(fig)
    return out
