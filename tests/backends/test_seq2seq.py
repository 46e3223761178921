"""The Hugging Face seq2seq backend on a tiny random T5 built here (no download)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from claimforge.backends.seq2seq import HFSeq2Seq, HFSeq2SeqConfig, ModelLoadError
from claimforge.registry import registry

# Mixed lengths (so a batch needs padding), and a duplicate.
TEXTS = [
    "what do neurons pass to the next neuron neurotransmitters",
    "mitochondria",
    "which gas w1 w2 w3",
    "w5 w77 carbon dioxide w40 w41 w42 w43 w44 w45",
    "w9",
    "mitochondria",
]


def _backend(path: Path, **kw: object) -> HFSeq2Seq:
    params: dict[str, object] = {"model": str(path), "max_new_tokens": 6, "use_cache": False, **kw}
    return HFSeq2Seq(HFSeq2SeqConfig(**params))  # type: ignore[arg-type]


@pytest.mark.parametrize("num_beams", [1, 4])
def test_batched_equals_one_by_one(tiny_t5: Path, num_beams: int) -> None:
    batched = _backend(tiny_t5, batch_size=4, num_beams=num_beams).generate(TEXTS)
    single = _backend(tiny_t5, batch_size=1, num_beams=num_beams)
    one_by_one = [single.generate([t])[0] for t in TEXTS]
    assert len(batched) == len(TEXTS)
    assert batched == one_by_one
    assert batched[1] == batched[5]
    assert len(set(batched)) > 1, "the tiny model should not answer every input the same way"
    assert all(out for out in batched)


def test_deterministic_and_empty_batch(tiny_t5: Path) -> None:
    backend = _backend(tiny_t5)
    assert backend.generate(TEXTS) == backend.generate(TEXTS)
    assert backend.generate([]) == []


def test_disk_cache_skips_the_model(tiny_t5: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    backend = _backend(tiny_t5, use_cache=True, cache_dir=str(tmp_path))
    seen: list[tuple[int, int]] = []
    first = backend.generate(TEXTS, progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (5, 5)  # five distinct texts

    _, model = backend.components

    def boom(*args: object, **kwargs: object) -> None:
        raise AssertionError("the model ran although every text was cached")

    monkeypatch.setattr(model, "generate", boom)
    again = _backend(tiny_t5, use_cache=True, cache_dir=str(tmp_path))  # a fresh object, same disk cache
    assert again.generate(list(reversed(TEXTS))) == list(reversed(first))
    # Different generation settings are a different cache entry, so they do run the model.
    with pytest.raises(AssertionError, match="cached"):
        _backend(tiny_t5, use_cache=True, cache_dir=str(tmp_path), num_beams=2).generate(TEXTS[:1])


def test_refuses_pickled_weights(tiny_t5: Path, tmp_path: Path) -> None:
    pickled = tmp_path / "pickled"
    pickled.mkdir()
    for f in tiny_t5.iterdir():
        if not f.name.endswith(".safetensors"):
            (pickled / f.name).write_bytes(f.read_bytes())
    (pickled / "pytorch_model.bin").write_bytes(b"not really a checkpoint; must never be opened")
    with pytest.raises(ModelLoadError, match=r"no safetensors weights.*pytorch_model\.bin"):
        _backend(pickled).generate(["hello"])

    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ModelLoadError, match="no safetensors weights"):
        _backend(empty).generate(["hello"])


def test_importing_the_backends_loads_no_model() -> None:
    code = (
        "import sys, claimforge.backends.seq2seq, claimforge.backends.llm; "
        "print([m for m in ('torch', 'transformers') if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_registry_builds_the_backend(tiny_t5: Path) -> None:
    assert isinstance(registry.build("seq2seq", {"name": "hf", "model": str(tiny_t5)}), HFSeq2Seq)
