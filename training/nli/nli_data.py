"""The data of the embedded NLI model (the judge): general-domain NLI / fact-verification sets and the
project's own scientific minimal pairs (``training/nli/sci_pairs.py``); never SciFact, HealthVer, COVID-Fact
or Climate-FEVER, which are the benchmarks.

Each source is cut into held-out / dev / train by a seeded hash of each pair's group (a VitaminC case, a
scientific document), so the held-out slices are the same ones the first model was measured on. Then every
dev or train pair whose normalised claim or evidence text also occurs in a held-out pair is dropped, and
every train pair sharing text with a dev pair: no text is on both sides of a split.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from collections import Counter
from pathlib import Path

from claimforge.generate.minimal_pairs import edit_kind
from claimforge.io.nli_sources import citation_integrity, nli4ct, nli_sources, sci_sources
from claimforge.io.splits import drop_shared, pair_texts, text_key, texts_of
from claimforge.records import Pair

# held-out pairs per source (nli4ct: the official Gold_test instead)
HELD_OUT: dict[str, int] = {
    "vitaminc_real": 2000,
    "fever_nli": 2000,
    "vitaminc_synthetic": 1000,
    "snli": 1000,
    "sick": 1000,
    "anli": 400,
    "nli4ct": 0,
    "sci": 1500,
    "citation_integrity": 0,  # held out: its official test split
    "evidence_inference": 600,
}
EXTRA_HELD_OUT = 1000  # held-out pairs of each claimforge-built dataset given with --extra
DEV_PER_SOURCE = 250
SCI_TRAIN = 45000  # a seeded sample of the scientific minimal pairs (of ~200k) joins the general sets
# At most this share of the sampled REFUTED pairs negates the main verb: it is the one edit almost every
# sentence allows, and too many would teach the judge that "not" alone means REFUTED.
SCI_NEGATION_SHARE = 1 / 3
SEED = 2026
# The claims that say more than their evidence (sci_pairs.py --overclaims) are about 1-2.5% of the NOT_ENOUGH_INFO
# pairs made, and the over-claiming citance is the judge's commonest miss: when the scientific pairs are sampled,
# they join the sample first, each repeated, up to a share of the label's sample.
OVERCLAIMS = ("added_item", "hedge_removed")
OVERCLAIM_REPEAT = 2
OVERCLAIM_SHARE = 1 / 3
# The real scientific pairs are few next to the rest (about 7k of 125k train pairs) and are the signal the
# benchmarks' real claims need: each is repeated in the training set (not in dev or held-out).
REAL_REPEAT = 3
REAL = ("citation_integrity", "evidence_inference")
GROUPED = ("vitaminc", "sci", "extra-", *REAL)  # ids "<source>:<group>:<n>": a group's pairs stay on one side


def _bucket(pair: Pair) -> float:
    group = pair.id.rsplit(":", 1)[0] if pair.id.startswith(GROUPED) else pair.id
    return int(hashlib.sha256(f"{SEED}:{group}".encode()).hexdigest()[:8], 16) / 0xFFFFFFFF


def _texts(pair: Pair) -> set[str]:
    """The texts kept apart across splits. NLI4CT's official split shares the trial reports (its evidence)
    between train and Gold_test by design: only its statements are kept apart, or none of it would remain."""
    if pair.id.startswith("nli4ct"):
        return {text_key(pair.claim)}
    return pair_texts(pair)


def read_pairs(path: Path) -> list[Pair]:
    """Pairs written as JSON lines (``Pair.model_dump_json``), e.g. by ``sci_pairs.py``."""
    out = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            if line.strip():
                try:
                    out.append(Pair.model_validate_json(line))
                except ValueError as e:
                    raise ValueError(f"{path}:{n}: not a pair ({e})") from None
    return out


def read_built(name: str, folder: Path) -> list[Pair]:
    """The examples of a ``claimforge build`` (e.g. Multi2Claim on SciQ train) as pairs
    ``extra-<name>:<source item>:<n>``: all claims made from one source record stay on one side of a split."""
    from claimforge.io.benchmarks import ClaimforgeConfig, ClaimforgeTask

    out = []
    for n, p in enumerate(ClaimforgeTask(ClaimforgeConfig(path=str(folder))).load("all")):
        group = p.id.split(":", 1)[1].split("#", 1)[0]
        out.append(p.model_copy(update={"id": f"extra-{name}:{group}:{n}"}))
    return out


def sample_sci(pairs: list[Pair], n: int) -> list[Pair]:
    """A seeded sample of ``n`` scientific pairs, equal per label, with main-verb negations capped among the
    REFUTED ones (``SCI_NEGATION_SHARE``) and the over-claims first among the NOT_ENOUGH_INFO ones, each repeated
    (``OVERCLAIM_REPEAT``), up to ``OVERCLAIM_SHARE`` of the label's sample."""
    rng = random.Random(SEED)
    per_label = n // 3
    out: list[Pair] = []
    for label in ("SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"):
        pool = [p for p in pairs if p.labels[0].value == label]
        rng.shuffle(pool)
        if label == "REFUTED":
            negated = [p for p in pool if edit_kind(p) == "negation_added"]
            other = [p for p in pool if edit_kind(p) != "negation_added"]
            k = min(len(negated), max(int(per_label * SCI_NEGATION_SHARE), per_label - len(other)))
            pool = other[: per_label - k] + negated[:k]
        elif label == "NOT_ENOUGH_INFO":
            over = [p for p in pool if edit_kind(p) in OVERCLAIMS][
                : int(per_label * OVERCLAIM_SHARE) // OVERCLAIM_REPEAT
            ]
            pool = over * OVERCLAIM_REPEAT + [p for p in pool if edit_kind(p) not in OVERCLAIMS]
        out.extend(pool[:per_label])
    rng.shuffle(out)
    return out


def not_benchmark(pairs: list[Pair], benchmark: set[str]) -> list[Pair]:
    """``pairs`` without those whose normalised claim or evidence text occurs in a benchmark."""
    return [p for p in pairs if not pair_texts(p) & benchmark]


def splits(
    root: Path, sci: Path | None = None, extra: dict[str, Path] | None = None, real: Path | None = None
) -> tuple[list[Pair], list[Pair], dict[str, list[Pair]], dict[str, dict[str, int]]]:
    """(train, dev, held-out by source, counts by source). ``extra``: claimforge-built datasets by name;
    ``real``: the shared data folder, to add the real scientific pairs (``sci_sources``) that are not benchmarks."""
    loaders = dict(nli_sources(root))
    if sci is not None:
        loaders["sci"] = lambda: read_pairs(sci)
    for name, folder in (extra or {}).items():
        loaders[f"extra-{name}"] = lambda name=name, folder=folder: read_built(name, folder)
    benchmark: set[str] = set()
    if real is not None:
        from sci_pairs import benchmark_texts

        benchmark = benchmark_texts(real)
        for name, load in sci_sources(real).items():
            loaders[name] = lambda load=load: not_benchmark(load(), benchmark)
    held: dict[str, list[Pair]] = {}
    rest: dict[str, list[Pair]] = {}
    for name, load in loaders.items():
        pairs = sorted(load(), key=_bucket)
        n_held = HELD_OUT.get(name, EXTRA_HELD_OUT)
        held[name], rest[name] = pairs[:n_held], pairs[n_held:]
    held["nli4ct"] = nli4ct("nli4ct_gold", root / "nli4ct/Gold_test.json", root / "nli4ct/CT_json")
    if real is not None:
        ci = real / "citation_integrity"
        held["citation_integrity"] = not_benchmark(
            citation_integrity("citation_integrity_test", ci / "claims_test.jsonl", ci / "corpus.jsonl"), benchmark
        )
    held_texts = texts_of((p for ps in held.values() for p in ps), _texts)
    counts: dict[str, dict[str, int]] = {}
    dev: list[Pair] = []
    for name, pairs in rest.items():
        kept, dropped = drop_shared(pairs, held_texts, _texts)
        dev.extend(kept[:DEV_PER_SOURCE])
        rest[name] = kept[DEV_PER_SOURCE:]
        counts[name] = {"held_out": len(held[name]), "dev": len(kept[:DEV_PER_SOURCE]), "dropped": len(dropped)}
    dev_texts = texts_of(dev, _texts)
    train: list[Pair] = []
    for name, pairs in rest.items():
        kept, dropped = drop_shared(pairs, dev_texts, _texts)
        if name == "sci" and len(kept) > SCI_TRAIN:
            kept = sample_sci(kept, SCI_TRAIN)
        train.extend(kept * (REAL_REPEAT if name in REAL else 1))
        counts[name].update(train=len(kept), dropped=counts[name]["dropped"] + len(dropped))
    random.Random(SEED).shuffle(train)
    return train, dev, held, counts


def add_data_arguments(ap: argparse.ArgumentParser) -> None:
    """The data options every judge script shares (training, held-out scoring, calibration)."""
    ap.add_argument("--data", type=Path, default=Path("../shared/data/nli"))
    ap.add_argument("--sci", type=Path, default=None, help="scientific minimal pairs (training/nli/sci_pairs.py)")
    ap.add_argument(
        "--extra",
        action="append",
        default=[],
        metavar="NAME=FOLDER",
        help="a claimforge-built dataset to use too (e.g. multi2claim on SciQ train); never a benchmark",
    )
    ap.add_argument(
        "--real",
        type=Path,
        default=None,
        metavar="DATA",
        help="add the real scientific claim-evidence pairs under DATA (../shared/data): Citation-Integrity "
        "(its test split held out) and Evidence Inference; benchmark texts are left out",
    )


def extra_datasets(ap: argparse.ArgumentParser, items: list[str]) -> dict[str, Path]:
    out = {}
    for item in items:
        name, sep, folder = item.partition("=")
        if not sep or not name or not folder:
            ap.error(f"--extra wants NAME=FOLDER, got {item!r}")
        out[name] = Path(folder)
    return out


def data_splits(
    ap: argparse.ArgumentParser, args: argparse.Namespace
) -> tuple[list[Pair], list[Pair], dict[str, list[Pair]], dict[str, dict[str, int]]]:
    return splits(args.data, args.sci, extra_datasets(ap, args.extra), args.real)


def label_mix(pairs: list[Pair]) -> dict[str, int]:
    return dict(Counter("/".join(lab.value for lab in p.labels) for p in pairs))


if __name__ == "__main__":
    import sys

    tr, dv, ho, cnt = splits(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps({"counts": cnt, "train": len(tr), "dev": len(dv), "train_labels": label_mix(tr)}, indent=2))
