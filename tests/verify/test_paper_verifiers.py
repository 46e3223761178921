"""The whole-paper verifiers (SciClaimHunt ER and RAG) and CEM/GCEM on full-paper evidence, on tiny inputs:
hashing vectors for retrieval, the tiny BERT as the inner cross-encoder, a local fake OpenAI-compatible server
for the LLM summarizer (no real model is loaded)."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

from claimforge.evaluate.experiments import train_run
from claimforge.records import Pair
from claimforge.registry import RegistryError, registry
from claimforge.verify.base import VERIFIER_FILE, load_verifier, target_mask, two_way
from claimforge.verify.cross_encoder import CrossEncoderVerifier
from claimforge.verify.paper_retrieval import (
    DEFAULT_SUMMARY_PROMPT,
    INNER_DIR,
    ERVerifier,
    RAGVerifier,
    build_inner,
    passage_windows,
    sentences_of,
    summary_sentences,
    top_passages,
)
from claimforge.verify.trainer import TrainConfig, train

from .conftest import N, R, S
from .test_llm_judge import FakeServer

HASHING = {"name": "hashing", "dim": 64}
SECRET = "sk-test-rag-9fQ2mZ7xW4"
KEY_ENV = "CLAIMFORGE_TEST_RAG_KEY"
FILLER = ("zebra quokka yak", "violin tuba oboe", "granite basalt shale", "tundra steppe taiga", "comet meteor nova")
CUES = {S: "yes indeed true", R: "no never false", N: "unrelated weather report"}


def filler(i: int) -> str:
    return f"{FILLER[i % len(FILLER)]} {FILLER[(i * 3 + 1) % len(FILLER)]} item {i}."


def paper(n: int, inserts: dict[int, str]) -> tuple[str, ...]:
    """``n`` filler sentences with ``inserts`` (index → sentence) in their places."""
    return tuple(inserts.get(i, filler(i)) for i in range(n))


def er_spec(tiny_bert: Path, **kw: Any) -> dict[str, Any]:
    inner = {"name": "cross-encoder", "model": str(tiny_bert), "max_length": 64, "embedder": HASHING}
    return {"name": "er", "embedder": HASHING, "inner": inner, **kw}


def long_toy_pairs(n: int = 36, sentences: int = 12) -> list[Pair]:
    """Toy pairs whose evidence is a 'paper' of fillers with one sentence about the claim's topic (holding the
    label cue) at a position that varies: only retrieval brings the cue next to the claim."""
    out = []
    for i in range(n):
        lab = (S, R, N)[i % 3]
        where = (i * 5) % sentences
        ev = paper(sentences, {where: f"mitochondria membrane number {i % 7}: {CUES[lab]}."})
        out.append(Pair(id=f"long:{i}", claim=f"mitochondria membrane number {i % 7}.", evidence=ev, labels=(lab,)))
    return out


class Recorder:
    """An inner verifier that records the pairs it is given."""

    labels = (S, R, N)
    model_id = "recorder"

    def __init__(self) -> None:
        self.seen: list[Pair] = []

    def predict_proba(self, pairs: list[Pair], progress: Any = None) -> np.ndarray:
        self.seen.extend(pairs)
        return np.tile(np.array([[0.5, 0.3, 0.2]], dtype=np.float32), (len(pairs), 1))


class CountingEmbedder:
    """Hashing vectors, counting the texts asked for."""

    model_id = "counting"

    def __init__(self) -> None:
        self.inner = registry.build("embedder", HASHING)
        self.calls: list[list[str]] = []

    def embed(self, texts: list[str], progress: Any = None) -> np.ndarray:
        self.calls.append(list(texts))
        return self.inner.embed(texts)


# -- passages and selection -------------------------------------------------------------------------


def test_passage_windows() -> None:
    assert passage_windows(10) == [(0, 3), (3, 6), (6, 9), (7, 10)]  # the last window ends at the last sentence
    assert passage_windows(9) == [(0, 3), (3, 6), (6, 9)]
    assert passage_windows(7, 3, 2) == [(0, 3), (2, 5), (4, 7)]
    assert passage_windows(2) == [(0, 2)] and passage_windows(0) == []
    assert passage_windows(265, 3)[-1] == (262, 265) and len(passage_windows(265, 3)) == 89
    with pytest.raises(ValueError):
        passage_windows(5, 0)


def test_top_passages_in_paper_order() -> None:
    assert top_passages([0.1, 0.9, 0.3, 0.8], 2) == [1, 3]
    assert top_passages([0.5, 0.5, 0.5], 2) == [0, 1]  # ties: the earlier passage
    assert top_passages([0.2, 0.1], 5) == [0, 1]
    assert sentences_of([(7, 10), (0, 3), (2, 5)]) == [0, 1, 2, 3, 4, 7, 8, 9]  # overlaps once, paper order


@pytest.mark.parametrize(
    "retrieval,vectors", [("dense", "text"), ("dense", "mean"), ("bm25", "text"), ("hybrid", "text")]
)
def test_top_k_passages_in_paper_order(tiny_bert: Path, retrieval: str, vectors: str) -> None:
    ev = paper(30, {22: "Mitochondria produce ATP in the cell.", 10: "ATP synthase in mitochondria makes ATP."})
    pair = Pair(id="p", claim="Mitochondria produce ATP.", evidence=ev)
    er = registry.build("verifier", er_spec(tiny_bert, k=2, retrieval=retrieval, passage_vectors=vectors))
    assert er.retrieve([(pair.claim, pair.evidence)]) == [[(9, 12), (21, 24)]]
    (reduced,) = er.reduce([pair])
    assert reduced.evidence == ev[9:12] + ev[21:24]  # paper order, though sentence 22 scores higher
    assert reduced.id == pair.id and reduced.claim == pair.claim


def test_overlapping_windows_share_sentences(tiny_bert: Path) -> None:
    ev = paper(20, {8: "Mitochondria produce ATP in the cell.", 9: "Mitochondria produce ATP quickly."})
    er = registry.build("verifier", er_spec(tiny_bert, k=2, passage_sentences=4, stride=2))
    (reduced,) = er.reduce([Pair(id="p", claim="Mitochondria produce ATP.", evidence=ev)])
    assert reduced.evidence == ev[6:12]  # windows (6, 10) and (8, 12): sentences 8 and 9 once


def test_short_evidence_is_kept_whole_without_embedding(tiny_bert: Path) -> None:
    er = registry.build("verifier", er_spec(tiny_bert))
    er._embedder = counting = CountingEmbedder()
    ev = paper(9, {})  # three passages = k
    assert er.reduce([Pair(id="p", claim="c", evidence=ev)])[0].evidence == ev
    assert er.reduce([Pair(id="q", claim="c", evidence=())])[0].evidence == ()
    assert er.reduce([Pair(id="r", claim="c", evidence=("", ev[0], ""))])[0].evidence == (ev[0],)
    assert counting.calls == []


def test_empty_sentences_are_neither_passages_nor_evidence(tiny_bert: Path) -> None:
    ev = ("",) * 6 + paper(12, {7: "Mitochondria produce ATP in the cell.", 8: ""})
    er = registry.build("verifier", er_spec(tiny_bert, k=1))
    assert er.retrieve([("Mitochondria produce ATP.", ev)]) == [[(12, 15)]]
    (reduced,) = er.reduce([Pair(id="p", claim="Mitochondria produce ATP.", evidence=ev)])
    assert ev[14] == "" and reduced.evidence == ev[12:14]


def test_each_paper_is_embedded_once_per_batch_and_reductions_are_cached(tiny_bert: Path) -> None:
    er = registry.build("verifier", er_spec(tiny_bert, batch_size=8))
    er._embedder = counting = CountingEmbedder()
    ev = paper(30, {})
    other = tuple(f"Other: {s}" for s in paper(31, {}))
    pairs = [Pair(id=f"p{i}", claim=f"claim {i % 3}", evidence=ev if i % 2 else other) for i in range(6)]
    er.reduce(pairs)
    assert len(counting.calls) == 1
    (texts,) = counting.calls
    assert len(texts) == len(set(texts)) == 3 + 10 + 11  # claims + the passages of each paper, each once
    er.reduce(pairs[::-1])
    assert len(counting.calls) == 1


# -- the inner verifier -----------------------------------------------------------------------------


def test_inner_verifier_receives_the_reduced_pair(tiny_bert: Path) -> None:
    ev = paper(30, {22: "Mitochondria produce ATP in the cell."})
    pair = Pair(id="p", claim="Mitochondria produce ATP.", evidence=ev, labels=(S,), source="x:1")
    er = registry.build("verifier", er_spec(tiny_bert, k=1))
    er.inner = recorder = Recorder()
    probs = er.predict_proba([pair])
    assert probs.shape == (1, 3) and np.allclose(probs, [[0.5, 0.3, 0.2]])
    (seen,) = recorder.seen
    assert seen == pair.model_copy(update={"evidence": ev[21:24]})  # id, claim, labels and source kept


def test_training_collates_the_reduced_pairs(tiny_bert: Path) -> None:
    er = registry.build("verifier", er_spec(tiny_bert, k=1, passage_sentences=2))
    pairs = long_toy_pairs(4)
    batch = er.collate(pairs)
    expected = er.inner.collate(er.reduce(pairs))
    assert batch.keys() == expected.keys()
    assert all(bool((batch[k] == expected[k]).all()) for k in batch)
    assert er.length(pairs[0]) == er.inner.length(er.reduce(pairs[:1])[0])


def test_er_trains_saves_and_loads_through_the_trainer(tiny_bert: Path, tmp_path: Path) -> None:
    spec = er_spec(tiny_bert, k=1, passage_sentences=2)
    pairs = long_toy_pairs()
    before_er = registry.build("verifier", spec)
    assert before_er.default_train == CrossEncoderVerifier.default_train  # the inner model's settings
    er, card = train_run(
        spec,
        pairs,
        pairs[:9],
        tmp_path / "run",
        3,
        {"epochs": 12, "batch_size": 6, "lr": 2e-3, "warmup_ratio": 0.0, "patience": 99, "seed": 3},
    )
    assert isinstance(er, ERVerifier) and card["status"] == "finished" and card["steps"] == 72
    mask = target_mask(pairs, er.labels)

    def loss(v: Any) -> float:
        return float(-np.log((v.predict_proba(pairs) * mask).sum(axis=1) + 1e-12).mean())

    assert loss(er) < min(loss(before_er), np.log(3)) - 0.3  # the cue is only in the retrieved passage
    best = tmp_path / "run" / "best"
    saved = json.loads((best / VERIFIER_FILE).read_text())
    assert saved["name"] == "er" and saved["k"] == 1 and saved["inner"]["name"] == "cross-encoder"
    assert json.loads((best / INNER_DIR / VERIFIER_FILE).read_text())["name"] == "cross-encoder"
    assert (best / INNER_DIR / "model" / "model.safetensors").is_file()
    assert not list(best.rglob("*.bin")) and not list(best.rglob("*.pkl"))
    again = load_verifier(best)
    assert isinstance(again, ERVerifier) and again.config == er.config
    np.testing.assert_allclose(again.predict_proba(pairs), er.predict_proba(pairs), atol=1e-5)
    # the same command on the finished run loads it instead of training again
    _, card2 = train_run(spec, pairs, pairs[:9], tmp_path / "run", 3, card["train"])
    assert card2["run_id"] == card["run_id"]


def test_init_from_a_run_of_the_inner_kind(tiny_bert: Path, tmp_path: Path) -> None:
    spec = er_spec(tiny_bert, k=1)
    plain = build_inner(spec["inner"], 3)
    plain.save(tmp_path / "ce")
    er = registry.build("verifier", spec)
    assert er.load_weights(tmp_path / "ce") == []
    pairs = long_toy_pairs(6)
    np.testing.assert_allclose(er.predict_proba(pairs), plain.predict_proba(er.reduce(pairs)), atol=1e-5)
    cem = registry.build("verifier", {**spec, "inner": {"name": "cem", "embedder": HASHING, "heads": 4}})
    with pytest.raises(ValueError, match="cannot initialise"):
        cem.load_weights(tmp_path / "ce")


def test_a_two_way_wrapper_reads_a_three_way_inner_as_supported_vs_rest(tiny_bert: Path) -> None:
    spec = er_spec(tiny_bert, k=1, num_labels=2)
    spec["inner"]["num_labels"] = 3
    er = registry.build("verifier", spec)
    assert er.labels == (S, R) and er.inner.labels == (S, R, N)
    pairs = long_toy_pairs(6)
    probs = er.predict_proba(pairs)
    np.testing.assert_allclose(probs, two_way(er.inner.predict_proba(er.reduce(pairs))), atol=1e-5)
    import torch

    er.module.eval()
    with torch.inference_mode():
        logits = er.forward(er.collate(pairs))  # what the trainer's loss reads
    np.testing.assert_allclose(torch.softmax(logits, -1).numpy(), probs, atol=1e-5)
    with pytest.raises(ValueError, match="2-way inner"):
        registry.build("verifier", {**er_spec(tiny_bert), "inner": {**spec["inner"], "num_labels": 2}, "num_labels": 3})


def test_untrainable_inner_predicts_but_does_not_train(tiny_bert: Path, tmp_path: Path) -> None:
    judge = {"name": "llm-judge", "model": "m", "base_url": "http://127.0.0.1:9/v1", "cache_dir": str(tmp_path)}
    spec = {**er_spec(tiny_bert), "inner": judge}
    er = registry.build("verifier", spec)
    er.inner = Recorder()  # predicts (the judge would ask its server)
    assert er.predict_proba(long_toy_pairs(2)).shape == (2, 3)
    with pytest.raises(ValueError, match="not trainable"):
        er.collate(long_toy_pairs(2))
    with pytest.raises(ValueError, match="not trainable"):
        train_run(spec, long_toy_pairs(6), [], tmp_path / "run", 3)


def test_embedded_inner_is_the_shipped_nli_cross_encoder() -> None:
    inner = build_inner("embedded-nli", 2)
    assert isinstance(inner, CrossEncoderVerifier) and inner.labels == (S, R, N)
    assert Path(inner.config.model).parts[-2:] == ("nli-minilm", "model")
    assert inner.config.max_length == 128 and inner.config.freeze_embeddings  # the shipped settings
    assert build_inner({"max_length": 256, "batch_size": 8}, 3).config.max_length == 256  # no name: embedded
    with pytest.raises(ValueError, match="3-way"):
        build_inner({"name": "embedded-nli", "num_labels": 2}, 2)
    with pytest.raises(ValueError, match="own weights"):
        build_inner({"model": "bert-base-uncased"}, 3)
    er = registry.build("verifier", {"name": "er", "embedder": HASHING})  # the default: nothing loaded yet
    assert isinstance(er.inner, CrossEncoderVerifier) and er.inner._module is None
    assert "er(dense,p3/3,k3,text:hashing-64-3)>cross-encoder:" in er.model_id


def test_config_errors() -> None:
    with pytest.raises(RegistryError, match="llm settings"):
        registry.build("verifier", {"name": "rag", "summarizer": "llm"})
    with pytest.raises(RegistryError, match="k"):
        registry.build("verifier", {"name": "er", "k": 0})
    with pytest.raises(RegistryError, match=r"unknown key 'top_k' \(known keys: .*\bk\b"):
        registry.build("verifier", {"name": "er", "top_k": 3})


# -- RAG --------------------------------------------------------------------------------------------


def test_rag_extractive_summary(tiny_bert: Path) -> None:
    ev = paper(30, {22: "Mitochondria produce ATP in the cell.", 10: "ATP synthase in mitochondria makes ATP."})
    pair = Pair(id="p", claim="Mitochondria produce ATP.", evidence=ev)
    rag = registry.build("verifier", {**er_spec(tiny_bert, k=2, summary_sentences=2), "name": "rag"})
    assert isinstance(rag, RAGVerifier)
    (reduced,) = rag.reduce([pair])
    assert reduced.evidence == (ev[10], ev[22])  # the two most similar retrieved sentences, paper order
    few = registry.build("verifier", {**er_spec(tiny_bert, k=2, summary_sentences=9), "name": "rag"})
    assert few.reduce([pair])[0].evidence == ev[9:12] + ev[21:24]  # fewer than asked: all retrieved
    assert "extractive9:hashing-64-3" in few.model_id


def test_summary_sentences_parsing() -> None:
    reply = "Here is a summary of the facts:\n- **Mitochondria** produce ATP. They are in cells.\n2. ATP is energy."
    assert summary_sentences(reply) == ("Mitochondria produce ATP.", "They are in cells.", "ATP is energy.")
    assert summary_sentences("<think>hm</think>Summary: Cells divide.") == ("Cells divide.",)
    assert summary_sentences("<think>unfinished") == () and summary_sentences("  \n") == ()


@pytest.fixture
def server(serve) -> FakeServer:  # type: ignore[no-untyped-def]
    return serve(FakeServer(), KEY_ENV, SECRET)


def rag_llm_spec(tiny_bert: Path, server: FakeServer, tmp_path: Path, **kw: Any) -> dict[str, Any]:
    llm = {
        "base_url": server.base_url,
        "model": "gemma-mini",
        "api_key_env": KEY_ENV,
        "backoff": 0.01,
        "timeout": 5.0,
        "cache_dir": str(tmp_path / "llm-cache"),
    }
    return {**er_spec(tiny_bert, k=2, **kw), "name": "rag", "summarizer": "llm", "llm": llm}


def test_rag_llm_summarizer_against_a_local_server(
    tiny_bert: Path, server: FakeServer, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    ev = paper(30, {22: "Mitochondria produce ATP in the cell.", 10: "ATP synthase in mitochondria makes ATP."})
    good = Pair(id="good", claim="Mitochondria produce ATP.", evidence=ev)
    empty = Pair(id="empty", claim="Mitochondria store ATP.", evidence=ev)
    summary = "Summary:\n- ATP synthase in mitochondria makes ATP.\n- Mitochondria produce it."
    server.script({good.claim: summary, empty.claim: " "})
    spec = rag_llm_spec(tiny_bert, server, tmp_path)
    caplog.set_level(logging.DEBUG)
    rag = registry.build("verifier", spec)
    a, b = rag.reduce([good, empty])
    assert a.evidence == ("ATP synthase in mitochondria makes ATP.", "Mitochondria produce it.")
    assert b.evidence == ev[9:12] + ev[21:24]  # an empty reply falls back to the retrieved sentences
    assert rag.fallbacks == [(empty.claim, "empty reply")]
    assert server.count == 2
    request = next(r for r in server.requests if good.claim in r["body"]["messages"][-1]["content"])
    system, user = request["body"]["messages"]
    assert system == {"role": "system", "content": DEFAULT_SUMMARY_PROMPT}
    passages = [" ".join(ev[9:12]), " ".join(ev[21:24])]
    assert user["content"] == f"Claim: {good.claim}\n\nPassages:\n[1] {passages[0]}\n\n[2] {passages[1]}"
    assert request["body"]["model"] == "gemma-mini"
    assert request["headers"]["Authorization"] == f"Bearer {SECRET}"  # the key comes from the environment only
    # summaries are cached: the same pairs again, and a new verifier with the same cache, ask only for the
    # reply that was empty (never cached)
    rag.reduce([good, empty])
    assert server.count == 2
    registry.build("verifier", spec).reduce([good, empty])
    assert server.count == 3
    nothing = Pair(id="nothing", claim="Mitochondria produce ATP.", evidence=("",))
    assert rag.reduce([nothing])[0].evidence == () and server.count == 3  # no evidence: no request
    dumped = json.dumps(rag.config.model_dump(mode="json"))
    assert SECRET not in dumped and SECRET not in rag.model_id and SECRET not in caplog.text
    assert "llm:gemma-mini@" in rag.model_id


def test_rag_llm_trains_with_one_summary_per_pair(tiny_bert: Path, server: FakeServer, tmp_path: Path) -> None:
    server.responder = lambda body: "Mitochondria membranes are described. " + body["messages"][-1]["content"][-40:]
    pairs = long_toy_pairs(12)
    spec = rag_llm_spec(tiny_bert, server, tmp_path, passage_sentences=2)
    rag = registry.build("verifier", spec)
    card = train(rag, pairs, pairs[:3], TrainConfig(epochs=2, batch_size=4, lr=1e-3), tmp_path / "run")
    assert card["status"] == "finished"
    distinct = {(p.claim, p.evidence) for p in pairs}
    assert server.count == len(distinct)  # each pair summarised once across epochs and dev evaluations
    again = load_verifier(tmp_path / "run" / "best")
    np.testing.assert_allclose(again.predict_proba(pairs), rag.predict_proba(pairs), atol=1e-5)
    assert server.count == len(distinct)  # the reloaded verifier reads the cached summaries


# -- CEM / GCEM over whole papers -------------------------------------------------------------------


@pytest.mark.parametrize("name", ["cem", "gcem"])
def test_heads_read_a_300_sentence_paper(name: str, tmp_path: Path) -> None:
    spec = {"name": name, "embedder": HASHING, "hidden": 16, "heads": 4, "dropout": 0.0, "max_sentences": 300}
    if name == "gcem":
        spec["beta"] = 0.6
    pairs = [
        Pair(id=f"big:{i}", claim=f"claim {i}", evidence=paper(300, {i * 7: f"claim {i} {CUES[lab]}."}), labels=(lab,))
        for i, lab in enumerate([S, R, N, S, R, N])
    ]
    verifier = registry.build("verifier", spec)
    batch = verifier.collate(pairs[:2])
    if name == "cem":
        assert tuple(batch["sentences"].shape) == (2, 300, 64) and bool(batch["mask"].all())
    else:
        assert tuple(batch["nodes"].shape) == (600, 64) and int(batch["graph"].max()) == 1
    card = train(verifier, pairs, pairs[:2], TrainConfig(epochs=1, batch_size=3, lr=1e-2), tmp_path / "run")
    assert card["steps"] == 2
    assert verifier.predict_proba(pairs).shape == (6, 3)
    default = registry.build("verifier", {**spec, "max_sentences": 64})
    assert verifier.length(pairs[0]) == 300 and default.length(pairs[0]) == 64  # the default keeps 64


def test_gcem_prediction_batches_stay_under_the_edge_budget() -> None:
    spec = {"name": "gcem", "embedder": HASHING, "hidden": 16, "heads": 4, "max_sentences": 300, "beta": -1.0}
    pairs = [Pair(id=f"g{i}", claim=f"claim {i}", evidence=paper(120 + 30 * i, {})) for i in range(4)]
    gcem = registry.build("verifier", spec)
    assert gcem.edge_count(pairs[0]) == 120 * 120  # beta -1: every sentence pair is an edge
    whole = gcem.predict_proba(pairs)
    assert len(gcem.batches(list(range(4)), pairs)) == 1
    gcem.max_batch_edges = 40_000
    order = list(range(4))
    batches = gcem.batches(order, pairs)
    assert [len(b) for b in batches] == [2, 1, 1]  # 14,400 + 22,500; 32,400; 44,100 (over the budget: alone)
    np.testing.assert_allclose(gcem.predict_proba(pairs), whole, atol=1e-5)


# -- the command line -------------------------------------------------------------------------------


def test_cli_trains_and_evaluates_er(tmp_path: Path, write_toy_dataset) -> None:  # type: ignore[no-untyped-def]
    from claimforge.cli import app

    data = write_toy_dataset(tmp_path / "gen", n_items=12)
    sets = [
        "model.k=1",
        "model.passage_sentences=1",
        "model.embedder.name=hashing",
        "model.inner.name=cem",
        "model.inner.embedder.name=hashing",
        "model.inner.heads=4",
        "model.inner.hidden=16",
        "train.epochs=2",
        "train.batch_size=8",
    ]
    args = [a for s in sets for a in ("--set", s)]
    runner = CliRunner()
    res = runner.invoke(app, ["train", "--data", str(data), "--model", "er", "--out", str(tmp_path / "run"), *args])
    assert res.exit_code == 0, res.output
    card = json.loads((tmp_path / "run" / "run.json").read_text())
    assert card["verifier"]["name"] == "er" and card["verifier"]["inner"]["name"] == "cem"
    assert card["train"]["lr"] == 1e-3  # CEM's training defaults, from the inner verifier
    run, out = str(tmp_path / "run"), str(tmp_path / "eval")
    res = runner.invoke(app, ["evaluate", "--run", run, "--data", str(data), "--out", out, "--bootstrap", "0"])
    assert res.exit_code == 0, res.output
    assert json.loads((tmp_path / "eval" / "test_metrics.json").read_text())["n"] > 0
