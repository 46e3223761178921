"""The data of the embedded NLI model: general-domain NLI / fact-verification sets only (never the
benchmarks SciFact, HealthVer, COVID-Fact, Climate-FEVER), split into train / dev / held-out by a
seeded hash of each pair's group (VitaminC keeps a case's contrastive pairs together).
"""

from __future__ import annotations

import hashlib
import random
from pathlib import Path

from claimforge.io.nli_sources import nli4ct, nli_sources
from claimforge.records import Pair

# pairs per source: (train budget, held-out slice); None = all that is left
MIX: dict[str, tuple[int | None, int]] = {
    "vitaminc_real": (None, 2000),
    "fever_nli": (None, 2000),
    "vitaminc_synthetic": (10000, 1000),
    "snli": (8000, 1000),
    "sick": (4000, 1000),
    "anli": (None, 400),
    "nli4ct": (None, 0),  # its held-out slice is the official Gold_test (500)
}
DEV_PER_SOURCE = 250
SEED = 2026


def _bucket(pair: Pair) -> float:
    group = pair.id.rsplit(":", 1)[0] if pair.id.startswith("vitaminc") else pair.id
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def splits(root: Path) -> tuple[list[Pair], list[Pair], dict[str, list[Pair]]]:
    """(train, dev, held-out by source)."""
    train: list[Pair] = []
    dev: list[Pair] = []
    heldout: dict[str, list[Pair]] = {}
    for name, load in nli_sources(root).items():
        budget, n_held = MIX[name]
        pairs = sorted(load(), key=_bucket)
        heldout[name] = pairs[:n_held]
        rest = pairs[n_held:]
        dev.extend(rest[:DEV_PER_SOURCE])
        rest = rest[DEV_PER_SOURCE:]
        if budget is not None and len(rest) > budget:
            rest = random.Random(SEED).sample(rest, budget)
        train.extend(rest)
    heldout["nli4ct"] = nli4ct("nli4ct_gold", root / "nli4ct/Gold_test.json", root / "nli4ct/CT_json")
    random.Random(SEED).shuffle(train)
    return train, dev, heldout
