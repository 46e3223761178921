"""Fixed builds whose output files must not change when the pipeline machinery changes (issue 10: the move
to stages had to give byte-identical files). ``expected.json`` holds the sha256 of every output file but
the manifest and the reports (they hold times; report.html also the plot); the hashes were recorded with the
pre-stages code.

When a change is meant to alter a pipeline's output, regenerate them and say so in the commit:

    CLAIMFORGE_UPDATE_GOLDEN=1 .venv/bin/python -m pytest -q tests/test_golden_builds.py
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

FIXTURES = Path(__file__).resolve().parents[1] / "io" / "fixtures"
CITATION_FIXTURE = FIXTURES / "sentences" / "citation_integrity" / "claims_train.jsonl"
EXPECTED = Path(__file__).with_name("expected.json")
# The embedder as the pre-stages code ran it (fp32 torch): the default runtime "auto" picks bf16 on CPUs that
# have it, which moves embeddings' low bits, so the cases pin fp32 to stay comparable with the recorded hashes.
TORCH = "embedder.runtime=torch"
# KBIN ranks siblings by embedding too (doubled braces: the sets go through str.format)
KBIN_TORCH = "negator.embedder={{name: sentence-transformers, runtime: torch}}"
# The label check (issue 11) came after the recording: the cases turn it off, so what they pin is the machinery.
NO_CHECK = "label_check=off"
# The judge (Multi2Claim's synonym check) as recorded, ONNX fp32: its default runtime "auto" picks bf16 where the CPU
# has it, so the hashes would depend on the machine.
JUDGE_ONNX = "judge.runtime=onnx"
CITED = "evidence=cited"  # ClaimGen's evidence as the paper chose it (the cited abstract, unchecked)
SKIP_FILES = {"manifest.json", "report.md", "report.html", "lengths.png", "examples.parquet"}


@dataclass(frozen=True)
class Case:
    name: str
    recipe: str
    sets: tuple[str, ...]
    limit: int | None = None
    shared: str | None = None  # a path under ../shared/data the case reads (skips without it)
    after: str | None = None  # a case whose output folder is this case's input
    skip_bad: bool = False


CASES = (
    Case(
        "multi2claim-sciq", "multi2claim", ("reader.path={shared}", TORCH, NO_CHECK, JUDGE_ONNX), 300, "sciq/valid.json"
    ),
    Case(
        "multi2claim-sciq-hashing",
        "multi2claim",
        (
            "reader.path={shared}",
            "embedder.name=hashing",
            "unique_evidence=drop_all",
            "balance=false",
            NO_CHECK,
            JUDGE_ONNX,
        ),
        500,
        "sciq/train.json",
    ),
    Case(
        "claimgen-citation-integrity",
        "claimgen",
        ("reader.path={shared}", TORCH, "negator.name=kbin", KBIN_TORCH, NO_CHECK, CITED),
        80,
        "citation_integrity/claims_train.jsonl",
    ),
    Case(
        "claimgen-fixture",
        "claimgen",
        (f"reader.path={CITATION_FIXTURE}", "negator.name=not-insertion", TORCH, NO_CHECK, CITED),
        skip_bad=True,
    ),
    Case(
        "kbin-after-claimgen",
        "kbin",
        ("reader.path={after}", KBIN_TORCH, NO_CHECK),
        None,
        None,
        "claimgen-citation-integrity",
    ),
)


REPO = FIXTURES.parents[2]


def _placeholders() -> list[tuple[bytes, bytes]]:
    """Absolute paths that provenance and rejects record (this checkout, ../shared/data), longest first."""
    shared = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", REPO.parent / "shared" / "data"))
    pairs = {
        str(REPO): "<repo>",
        str(REPO.resolve()): "<repo>",
        str(shared): "<shared>",
        str(shared.resolve()): "<shared>",
    }
    return sorted(((k.encode(), v.encode()) for k, v in pairs.items()), key=lambda kv: -len(kv[0]))


FLOAT_DIGITS = 4  # floats in JSON lines are compared at this many decimals (see _rounded)


def _rounded(x: object) -> object:
    if isinstance(x, float):
        return round(x, FLOAT_DIGITS)
    if isinstance(x, dict):
        return {k: _rounded(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_rounded(v) for v in x]
    return x


def _canonical_jsonl(data: bytes) -> bytes:
    """JSON lines with floats rounded: an embedding's last bit differs between two installs of the same
    packages (a cosine of 0.23103964 written as 0.231039 in one clone, 0.23104 in another), which is not a
    change of the pipeline."""
    lines = [json.dumps(_rounded(json.loads(x)), ensure_ascii=False) for x in data.decode("utf-8").splitlines()]
    return "".join(x + "\n" for x in lines).encode("utf-8")


def digest(out: Path) -> dict[str, str]:
    """sha256 of each output file (relative path -> hex), but the ones that hold times or are binary. Absolute
    paths of the checkout and of the shared data are replaced by placeholders first, so the hashes hold in any
    clone, and floats in JSON lines are rounded (``_canonical_jsonl``)."""
    subs = _placeholders()
    hashes = {}
    for p in sorted(out.rglob("*")):
        if not p.is_file() or p.name in SKIP_FILES or any(x.startswith(".") for x in p.relative_to(out).parts):
            continue
        data = p.read_bytes()
        for old, new in subs:
            data = data.replace(old, new)
        if p.suffix == ".jsonl":
            data = _canonical_jsonl(data)
        hashes[str(p.relative_to(out))] = hashlib.sha256(data).hexdigest()
    return hashes
