"""CLAIMGEN-BART's path on the tiny T5 built in conftest: top-k sampling, the seq2seq generator, fine-tuning
on citance -> claim pairs (both input layouts) and the train-claimgen command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimforge.backends.seq2seq import HFSeq2Seq, HFSeq2SeqConfig
from claimforge.generate.claimgen import seq2seq_input
from claimforge.generate.claimgen_train import ClaimGenTrainConfig, finetune, load_pairs
from claimforge.io.rows import InputError
from claimforge.records import Document, SentenceItem, SourceRef
from claimforge.registry import ComponentConfig, registry


class NoNERConfig(ComponentConfig):
    noun_chunks: bool = True


class NoNER:
    """No mentions: k falls back to 1 sample per citance."""

    model_id = "no-ner"

    def __init__(self, config: NoNERConfig) -> None:
        pass

    def mentions(self, texts: list[str], progress: Any = None) -> list[list[Any]]:
        return [[] for _ in texts]


registry.register("ner", "no-ner", NoNERConfig)(NoNER)


def _item(n: int) -> SentenceItem:
    return SentenceItem(
        id=f"s:{n}",
        sentence=f"w{n} w{n + 1} w{n + 2} neurons pass neurotransmitters",
        context_before=("mitochondria",),
        cited=(Document(id="d", sentences=("w1 w2.",)),),
        ref=SourceRef(dataset="s", path="s", line=n, item_id=f"s:{n}"),
    )


def test_seq2seq_input_is_the_papers_format() -> None:
    assert seq2seq_input(_item(1)) == "mitochondria || w1 w2 w3 neurons pass neurotransmitters ||"


def test_sampling_gives_k_outputs_independent_of_batching_and_cached(tiny_t5: Path, tmp_path: Path) -> None:
    cfg = {"model": str(tiny_t5), "max_new_tokens": 5, "cache_dir": str(tmp_path)}
    model = HFSeq2Seq(HFSeq2SeqConfig(**cfg))  # type: ignore[arg-type]
    texts = ["w1 w2 w3", "w4 w5", "w1 w2 w3"]
    out = model.sample(texts, [3, 2, 3], top_k=5, seed=7)
    assert [len(o) for o in out] == [3, 2, 3]
    assert out[0] == out[2]  # seeded per text
    assert model.sample(texts[1:2], [2], top_k=5, seed=7) == [out[1]]
    fresh = HFSeq2Seq(HFSeq2SeqConfig(**cfg))  # type: ignore[arg-type]
    fresh._generate_batch = None  # type: ignore[method-assign]  # the cache answers
    assert fresh.sample(texts, [3, 2, 3], top_k=5, seed=7) == out


def test_seq2seq_generator_makes_claims_per_item(tiny_t5: Path) -> None:
    gen = registry.build(
        "generator",
        {
            "name": "seq2seq",
            "model": {"name": "hf", "model": str(tiny_t5), "max_new_tokens": 5},
            "ner": {"name": "no-ner"},
        },
    )
    out = gen.generate([_item(1), _item(2)])
    assert {c.item_id for c in out.claims} | {r.item_id for r in out.rejects} == {"s:1", "s:2"}
    for c in out.claims:
        assert c.generator == "seq2seq" and c.text.endswith(".") and c.details["k"] == 1


def _pairs_file(tmp_path: Path) -> Path:
    path = tmp_path / "pairs.jsonl"
    rows = [{"context": f"w{i} || w{i + 1} w{i + 2} ||", "claims": [f"w{i + 1} w{i + 2}"]} for i in range(1, 8)]
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n", encoding="utf-8")
    return path


def test_load_pairs_both_layouts_and_errors(tmp_path: Path) -> None:
    pairs = load_pairs(_pairs_file(tmp_path))
    assert pairs[0] == ("pairs:1", "w1 || w2 w3 ||", "w2 w3") and len(pairs) == 7
    cit = tmp_path / "cit.jsonl"
    row = {
        "s2orc_id": 1,
        "title": "T",
        "abstract": "A b c.",
        "citation_paragraph": "w1 w2 w3.",
        "citance": "w1 w2 w3.",
        "claims": [
            {"text": "w1 w2.", "subject": "w1", "is_negation": False},
            {"text": "no", "is_negation": True, "subject": ""},
        ],
    }
    cit.write_text(json.dumps(row) + "\n", encoding="utf-8")
    (only,) = load_pairs(cit)
    assert only[1].endswith("|| w1 w2 w3. ||") and only[2] == "w1 w2."
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"sentence": "x"}\n', encoding="utf-8")
    with pytest.raises(InputError, match="bad.jsonl"):
        load_pairs(bad)


def test_finetune_lowers_the_loss_and_saves_safetensors(tiny_t5: Path, tmp_path: Path) -> None:
    out = tmp_path / "model"
    cfg = ClaimGenTrainConfig(model=str(tiny_t5), epochs=3, batch_size=4, lr=5e-3, dev_fraction=0.3)
    card = finetune(cfg, load_pairs(_pairs_file(tmp_path)), out, log=lambda _m: None)
    losses = [h["train_loss"] for h in card["history"]]
    assert losses[-1] < losses[0]
    assert card["train_pairs"] + card["dev_pairs"] == 7 and card["dev_pairs"] > 0
    assert list(out.glob("*.safetensors")) and not list(out.glob("*.bin"))
    # the fine-tuned model is usable by the generator's backend
    assert HFSeq2Seq(HFSeq2SeqConfig(model=str(out), max_new_tokens=3, use_cache=False)).generate(["w1 w2"])  # type: ignore[call-arg]


def test_train_claimgen_command(tiny_t5: Path, tmp_path: Path) -> None:
    from claimforge.cli import app

    out = tmp_path / "m"
    args = ["train-claimgen", "--data", str(_pairs_file(tmp_path)), "--model", str(tiny_t5), "--out", str(out)]
    result = CliRunner().invoke(app, [*args, "--set", "epochs=1", "--set", "dev_fraction=0"])
    assert result.exit_code == 0, result.output
    assert (out / "claimgen_train.json").is_file()
    bad = CliRunner().invoke(app, [*args, "--set", "epochs=0"])
    assert bad.exit_code == 2


def test_llm_generator_prompt_and_reply_parsing() -> None:
    gen = registry.build(
        "generator",
        {
            "name": "llm",
            "llm": {"name": "openai-compatible", "base_url": "http://127.0.0.1:9/v1", "model": "m"},
            "ner": {"name": "no-ner"},
        },
    )
    seen: list[list[dict[str, str]]] = []

    def complete(convs: list[list[dict[str, str]]]) -> list[str]:
        seen.extend(convs)
        return ["<think>x</think>\n1. W1 binds w2.\n- W1 binds w2.\nClaims:\n", '* "Neurons pass neurotransmitters."']

    gen.llm.complete = complete
    out = gen.generate([_item(1), _item(2)])
    assert [(c.item_id, c.text) for c in out.claims] == [
        ("s:1", "W1 binds w2."),
        ("s:2", "Neurons pass neurotransmitters."),
    ]
    msgs = seen[0]
    assert msgs[0]["role"] == "system" and msgs[-1]["content"].startswith("Context: mitochondria\nSentence: w1")
    assert msgs[-1]["content"].endswith("At most 1 claims.") and len(msgs) == 2 + 2 * len(gen.shots)
