"""Shared test fixtures: where the real data lives, and a skip when it is absent."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("CLAIMFORGE_SHARED_DATA", REPO.parent / "shared" / "data"))


def _shared_data(*parts: str) -> Path:
    path = SHARED_DATA.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"real data not available: {path} (../shared/data is absent)")
    return path


@pytest.fixture
def shared_data():  # type: ignore[no-untyped-def]
    """``shared_data("sciq", "train.json")``: a path under ../shared/data, or skip with a reason."""
    return _shared_data


@pytest.fixture(autouse=True)
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Each test session gets its own on-disk cache, never the user's; the CLI sets environment variables
    (--cache-dir, --no-cache) for its process, so each test's environment is restored afterwards."""
    saved = dict(os.environ)
    os.environ.pop("CLAIMFORGE_NO_CACHE", None)
    os.environ["CLAIMFORGE_CACHE"] = str(tmp_path_factory.getbasetemp() / "cache")
    yield
    os.environ.clear()
    os.environ.update(saved)
