"""NLI backends: the shipped embedded model, any HF classifier mapped by its label names, a trained run;
rows always in the order SUPPORTED, REFUTED, NOT_ENOUGH_INFO, and cached on disk."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from claimforge.records import Pair
from claimforge.registry import registry
from claimforge.verify.nli import embedded_model_dir


def _pair(claim: str, evidence: str) -> Pair:
    return Pair(id=claim, claim=claim, evidence=(evidence,))


def test_embedded_nli_is_shipped_small_and_reads_plain_cases() -> None:
    directory = embedded_model_dir()
    size = sum(p.stat().st_size for p in directory.rglob("*") if p.is_file())
    assert size < 60 * 2**20  # fp16; all shipped models together stay under 100 MB
    nli = registry.build("nli", {"name": "embedded", "use_cache": False})
    pairs = [
        _pair("Paris is the capital of France.", "Paris is the capital and largest city of France."),
        _pair("Paris is the capital of Germany.", "Paris is the capital and largest city of France."),
    ]
    probs = nli.predict_proba(pairs)
    assert probs.shape == (2, 3)
    np.testing.assert_allclose(probs.sum(axis=1), 1.0, atol=1e-4)
    assert probs[0, 0] > probs[0, 1] and probs[1, 1] > probs[1, 0]


def _tiny_nli(tiny_bert: Path, out: Path, names: dict[int, str]) -> Path:
    from transformers import AutoTokenizer, BertConfig, BertForSequenceClassification

    cfg = BertConfig.from_pretrained(
        str(tiny_bert), num_labels=len(names), id2label=names, label2id={v: k for k, v in names.items()}
    )
    BertForSequenceClassification(cfg).save_pretrained(str(out), safe_serialization=True)
    AutoTokenizer.from_pretrained(str(tiny_bert)).save_pretrained(str(out))
    return out


def test_hf_nli_columns_follow_the_models_label_names(tiny_bert: Path, tmp_path: Path) -> None:
    model = _tiny_nli(tiny_bert, tmp_path / "m", {0: "CONTRADICTION", 1: "NEUTRAL", 2: "ENTAILMENT"})
    nli = registry.build("nli", {"name": "hf", "model": str(model), "cache_dir": str(tmp_path / "c")})
    pairs = [_pair("a cell", "the cell is a unit of life."), _pair("b", "c")]
    probs = nli.predict_proba(pairs)
    raw = nli.verifier.predict_proba(pairs)  # the model's own column order
    np.testing.assert_allclose(probs, raw[:, [2, 0, 1]], atol=1e-6)
    # cached: a second call never reaches the model
    nli.verifier.predict_proba = None  # type: ignore[assignment]
    np.testing.assert_allclose(nli.predict_proba(pairs), probs)


def test_hf_nli_with_unknown_label_names_needs_a_label_map(tiny_bert: Path, tmp_path: Path) -> None:
    model = _tiny_nli(tiny_bert, tmp_path / "m", {0: "LABEL_0", 1: "LABEL_1"})
    with pytest.raises(ValueError, match="set label_map"):
        registry.build("nli", {"name": "hf", "model": str(model), "use_cache": False})
    nli = registry.build(
        "nli",
        {
            "name": "hf",
            "model": str(model),
            "use_cache": False,
            "label_map": {"LABEL_0": "SUPPORTED", "LABEL_1": "REFUTED"},
        },
    )
    probs = nli.predict_proba([_pair("x", "y")])
    assert probs[0, 2] == 0.0 and abs(probs[0, :2].sum() - 1.0) < 1e-5


def test_an_untrained_hf_encoder_is_refused_as_an_nli_model(tiny_bert: Path) -> None:
    with pytest.raises(ValueError, match="cannot map its label 'LABEL_0' to SUPPORTED"):
        registry.build("nli", {"name": "hf", "model": str(tiny_bert), "use_cache": False})


@pytest.mark.parametrize("runtime", ["torch-int8", "torch-bf16", "onnx", "onnx-int8"])
def test_faster_runtimes_of_a_run_agree_with_torch(tiny_bert: Path, tmp_path: Path, runtime: str) -> None:
    from claimforge.verify.cross_encoder import CrossEncoderConfig, CrossEncoderVerifier

    run = tmp_path / "run"
    CrossEncoderVerifier(CrossEncoderConfig(model=str(tiny_bert), embedder={"name": "hashing"})).save(run)
    pairs = [_pair(f"claim {i} about cells", f"the cell is a unit of life {i}.") for i in range(6)]
    ref = registry.build("nli", {"name": "run", "path": str(run), "use_cache": False}).predict_proba(pairs)
    fast = registry.build("nli", {"name": "run", "path": str(run), "runtime": runtime, "use_cache": False})
    assert runtime in fast.model_id
    np.testing.assert_allclose(fast.predict_proba(pairs), ref, atol=1e-4 if runtime == "onnx" else 0.1)


@pytest.mark.parametrize(("native", "expected"), [(True, "torch-bf16"), (False, "onnx")])
def test_auto_runtime_is_bf16_where_the_cpu_has_it_else_onnx(
    tiny_bert: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, native: bool, expected: str
) -> None:
    from claimforge.backends import embeddings
    from claimforge.verify.cross_encoder import CrossEncoderConfig, CrossEncoderVerifier

    monkeypatch.setattr(embeddings, "native_bf16", lambda: native)
    run = tmp_path / "run"
    CrossEncoderVerifier(CrossEncoderConfig(model=str(tiny_bert), embedder={"name": "hashing"})).save(run)
    nli = registry.build("nli", {"name": "run", "path": str(run), "runtime": "auto", "use_cache": False})
    assert nli.model_id.endswith("+" + expected)  # cached scores of one runtime are not read as the other's
    assert nli.predict_proba([_pair("claim about cells", "the cell is a unit of life.")]).shape == (1, 3)
