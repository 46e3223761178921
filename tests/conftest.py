"""Shared test fixtures: where the real data lives, and a skip when it is absent."""

from __future__ import annotations

import os
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
def _isolated_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test session gets its own on-disk cache, never the user's."""
    monkeypatch.setenv("CLAIMFORGE_CACHE", str(tmp_path_factory.getbasetemp() / "cache"))
