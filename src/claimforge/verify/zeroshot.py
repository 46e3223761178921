"""Zero-shot verification with any NLI model: entailment → SUPPORTED, contradiction → REFUTED,
neutral → NOT_ENOUGH_INFO; in a 2-way space "not supported" takes contradiction + neutral.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import VerifierConfig, label_space, two_way


class ZeroShotNLIConfig(VerifierConfig):
    nli: dict[str, Any] | str = {"name": "embedded"}  # an NLI backend spec (embedded, hf, run)


class ZeroShotNLIVerifier:
    """Verifies claims with an NLI model that was never trained on the task."""

    def __init__(self, config: ZeroShotNLIConfig) -> None:
        self.config = config
        self.nli = registry.build("nli", config.nli)
        self.model_id = f"zero-shot-nli:{self.nli.model_id}"

    @property
    def labels(self) -> tuple[Label, ...]:
        return label_space(self.config.num_labels)

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        probs = self.nli.predict_proba(pairs, progress=progress)
        if self.config.num_labels == 3:
            return probs
        return two_way(probs)


@registry.register("verifier", "zero-shot-nli", ZeroShotNLIConfig)
def build_zero_shot(config: ZeroShotNLIConfig) -> ZeroShotNLIVerifier:
    """Any NLI model mapped to the labels, without training (default: the embedded NLI model)."""
    return ZeroShotNLIVerifier(config)
