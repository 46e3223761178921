"""QA2D with a local seq2seq model (claimforge.generate.qa2d.seq2seq), on the tiny T5 the tests build."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimforge.registry import RegistryError, registry
from claimforge.types import QA2DRequest, QA2DResult


def test_registry_builds_the_qa2d_converter(tiny_t5: Path) -> None:
    qa2d = registry.build("qa2d", {"name": "hf-seq2seq", "model": str(tiny_t5), "max_new_tokens": 5})
    requests = [
        QA2DRequest(question="What do neurons pass to the next neuron?", answer="neurotransmitters"),
        QA2DRequest(question="what is the powerhouse of the cell", answer="mitochondria"),
    ]
    results = qa2d.convert(requests)
    assert len(results) == 2
    assert all(isinstance(r, QA2DResult) for r in results)
    for r in results:
        assert r.text is not None and r.text[-1] in ".!?"
        first = r.text.split()[0]  # capitalised, unless the first word has digits ("p53", "w2")
        assert r.text[0].isupper() or any(ch.isdigit() for ch in first)
    assert qa2d.model_id.startswith("hf-seq2seq:")


def test_qa2d_template_and_empty_output(tiny_t5: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    qa2d = registry.build(
        "qa2d", {"name": "hf-seq2seq", "model": str(tiny_t5), "input_template": "q: {question} a: {answer}"}
    )
    seen: list[str] = []

    def fake_generate(texts: list[str], progress: object = None) -> list[str]:
        seen.extend(texts)
        return ["  mRNA is made in the nucleus ", "   ", "the answer is 42"]

    monkeypatch.setattr(qa2d.backend, "generate", fake_generate)
    results = qa2d.convert([QA2DRequest(question=" Q1? ", answer="A1")] * 3)
    assert seen == ["q: Q1? a: A1"] * 3
    assert results[0].text == "mRNA is made in the nucleus."
    assert results[1] == QA2DResult(text=None, reason="seq2seq_empty_output")
    assert results[2].text == "The answer is 42."


def test_bad_template_is_a_config_error(tiny_t5: Path) -> None:
    with pytest.raises(RegistryError, match="input_template"):
        registry.build("qa2d", {"name": "hf-seq2seq", "model": str(tiny_t5), "input_template": "{context}"})
    with pytest.raises(RegistryError, match="unknown key .temperature."):
        registry.build("qa2d", {"name": "hf-seq2seq", "model": str(tiny_t5), "temperature": 0.7})
