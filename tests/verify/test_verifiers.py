"""Every trainable verifier on tiny inputs: output shapes, training lowers the loss, save → load gives
the same predictions, heads re-initialised for another label space, and the trainer resumes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from claimforge.records import Label, Pair
from claimforge.registry import registry
from claimforge.verify.base import load_verifier, target_mask
from claimforge.verify.trainer import TrainConfig, epoch_batches, train

from .conftest import N, R, S, toy_pairs

HASHING = {"name": "hashing", "dim": 64}


def specs(tiny_bert: Path) -> dict[str, dict]:
    return {
        "cross-encoder": {"name": "cross-encoder", "model": str(tiny_bert), "max_length": 48, "embedder": HASHING},
        "cem": {"name": "cem", "embedder": HASHING, "hidden": 32, "heads": 4, "dropout": 0.0},
        "gcem": {"name": "gcem", "embedder": HASHING, "hidden": 32, "heads": 4, "dropout": 0.0, "beta": 0.3},
    }


@pytest.fixture(params=["cross-encoder", "cem", "gcem"])
def spec(request: pytest.FixtureRequest, tiny_bert: Path) -> dict:
    return specs(tiny_bert)[request.param]


def _loss(verifier, pairs) -> float:  # type: ignore[no-untyped-def]
    probs = verifier.predict_proba(pairs)
    mask = target_mask(pairs, verifier.labels)
    return float(-np.log((probs * mask).sum(axis=1) + 1e-12).mean())


def test_shapes_training_and_round_trip(spec: dict, tmp_path: Path) -> None:
    pairs = toy_pairs()
    verifier = registry.build("verifier", spec)
    probs = verifier.predict_proba(pairs[:5])
    assert probs.shape == (5, 3)
    assert np.allclose(probs.sum(axis=1), 1.0, atol=1e-5)
    before = _loss(verifier, pairs)
    lr = 2e-3 if spec["name"] == "cross-encoder" else 1e-2
    card = train(
        verifier,
        pairs,
        pairs[:12],
        TrainConfig(epochs=6, batch_size=8, lr=lr, seed=3, patience=99, warmup_ratio=0.0),
        tmp_path / "run",
    )
    after = _loss(verifier, pairs)
    assert after < before - 0.02, (before, after)
    assert card["status"] == "finished" and card["steps"] == 36
    assert json.loads((tmp_path / "run" / "run.json").read_text())["data"]["train_pairs"] == 48
    assert not list((tmp_path / "run").rglob("*.bin")) and not list((tmp_path / "run").rglob("*.pkl"))
    again = load_verifier(tmp_path / "run" / "best")
    np.testing.assert_allclose(again.predict_proba(pairs), verifier.predict_proba(pairs), atol=1e-5)


def test_two_way_head_from_a_three_way_run(spec: dict, tmp_path: Path) -> None:
    """The papers' 'generated first, then target': a 3-way run initialises a 2-way model; only the head is new
    (the cross-encoder maps it)."""
    pairs = toy_pairs(12)
    three = registry.build("verifier", spec)
    three.save(tmp_path / "three")
    two = registry.build("verifier", {**spec, "num_labels": 2})
    fresh = two.load_weights(tmp_path / "three", strict=False)
    assert two.predict_proba(pairs).shape == (12, 2)
    if spec["name"] == "cross-encoder":
        # the 3-way head is mapped, not thrown away: SUPPORTED kept, "not supported" from REFUTED and NEI
        import torch

        assert fresh == []
        w3, b3 = three.module.classifier.weight.detach(), three.module.classifier.bias.detach()
        w2, b2 = two.module.classifier.weight.detach(), two.module.classifier.bias.detach()
        torch.testing.assert_close(w2, torch.stack([w3[0], w3[1:].mean(0)]))
        torch.testing.assert_close(b2, torch.stack([b3[0], torch.logsumexp(b3[1:], 0)]))
        return
    assert fresh and all("classifier" in k for k in fresh)
    with pytest.raises(ValueError, match="missing|shape"):
        registry.build("verifier", {**spec, "num_labels": 2}).load_weights(tmp_path / "three", strict=True)


def test_binary_gold_sets_train_against_both_labels() -> None:
    pair = Pair(id="x", claim="c", evidence=("e",), labels=(R, N))
    assert target_mask([pair], (S, R, N)).tolist() == [[0.0, 1.0, 1.0]]
    assert target_mask([pair], (S, R)).tolist() == [[0.0, 1.0]]
    with pytest.raises(ValueError, match="no gold label"):
        target_mask([Pair(id="y", claim="c", evidence=("e",))], (S, R, N))


def test_cross_encoder_keeps_the_sentences_most_like_the_claim(tiny_bert: Path) -> None:
    v = registry.build(
        "verifier", {"name": "cross-encoder", "model": str(tiny_bert), "max_length": 24, "embedder": HASHING}
    )
    filler = tuple(f"w{i} w{i + 1} w{i + 2} w{i + 3} w{i + 4} w{i + 5}." for i in range(0, 40, 6))
    claim = "the cell is a unit of life"
    pair = Pair(id="p", claim=claim, evidence=(*filler[:3], "the cell is a unit of life.", *filler[3:]))
    text = v.evidence_text(pair)
    assert "the cell is a unit of life." in text
    assert len(v.tokenizer(claim, text)["input_ids"]) <= 24
    short = Pair(id="q", claim=claim, evidence=("yes indeed.", "no never."))
    assert v.evidence_text(short) == "yes indeed. no never."


def test_cross_encoder_embeds_each_sentence_once_across_calls(tiny_bert: Path) -> None:
    # the lazy label check judges in small rounds that meet the same evidence again (SciQ: one explanation for
    # an item's SUPPORTED and REFUTED claims)
    v = registry.build(
        "verifier", {"name": "cross-encoder", "model": str(tiny_bert), "max_length": 24, "embedder": HASHING}
    )
    seen: list[list[str]] = []
    embed = v.embedder.embed
    v.embedder.embed = lambda texts, progress=None: seen.append(list(texts)) or embed(texts, progress)
    evidence = tuple(f"w{i} w{i + 1} w{i + 2} w{i + 3} w{i + 4} w{i + 5}." for i in range(0, 40, 6))
    first = Pair(id="a", claim="the cell is a unit of life", evidence=evidence)
    second = Pair(id="b", claim="the cell is no unit of life", evidence=evidence)
    v.prepare([first])
    v.prepare([second])
    assert seen == [[*sorted(evidence), first.claim], [second.claim]]
    fresh = registry.build(
        "verifier", {"name": "cross-encoder", "model": str(tiny_bert), "max_length": 24, "embedder": HASHING}
    )
    assert v.evidence_text(second) == fresh.evidence_text(second)  # the same choice as from scratch


def test_trainer_resumes_an_interrupted_run_to_the_same_weights(tiny_bert: Path, tmp_path: Path) -> None:
    spec = specs(tiny_bert)["cem"]
    pairs = toy_pairs()
    cfg = TrainConfig(epochs=4, batch_size=8, lr=1e-2, seed=5, eval_every=4, patience=99)
    whole = registry.build("verifier", spec)
    train(whole, pairs, pairs[:12], cfg, tmp_path / "whole")

    class Stop(Exception):
        pass

    def stop_at_10(stage: str, done: int, total: int) -> None:
        if done == 10:
            raise Stop

    with pytest.raises(Stop):
        train(registry.build("verifier", spec), pairs, pairs[:12], cfg, tmp_path / "cut", progress=stop_at_10)
    assert json.loads((tmp_path / "cut" / "checkpoint" / "state.json").read_text())["step"] == 8
    logs: list[str] = []
    resumed = registry.build("verifier", spec)
    card = train(resumed, pairs, pairs[:12], cfg, tmp_path / "cut", log=logs.append)
    assert any("resuming" in m and "step 8/" in m for m in logs)
    assert card["steps"] == 24
    np.testing.assert_allclose(resumed.predict_proba(pairs), whole.predict_proba(pairs), atol=1e-5)
    # a finished run with the same data and parameters is loaded, not retrained
    logs.clear()
    train(registry.build("verifier", spec), pairs, pairs[:12], cfg, tmp_path / "cut", log=logs.append)
    assert any("finished run" in m for m in logs)


def test_epoch_batches_cover_every_pair_once_and_bucket_by_length() -> None:
    lengths = [i % 17 for i in range(100)]
    batches = epoch_batches(lengths, 8, 3, seed=1)
    flat = sorted(i for b in batches for i in b)
    assert flat == list(range(100))
    assert epoch_batches(lengths, 8, 3, seed=1) == batches
    spread = np.mean([max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in batches])
    unbucketed = np.mean(
        [max(lengths[i] for i in b) - min(lengths[i] for i in b) for b in epoch_batches(lengths, 8, 0, seed=1)]
    )
    assert spread < unbucketed


def test_zero_shot_nli_from_a_trained_run(tiny_bert: Path, tmp_path: Path) -> None:
    pairs = toy_pairs()
    v = registry.build("verifier", specs(tiny_bert)["cross-encoder"])
    v.save(tmp_path / "nli")
    run = {"name": "run", "path": str(tmp_path / "nli")}
    three = registry.build("verifier", {"name": "zero-shot-nli", "nli": run, "aggregate": "whole"})
    two = registry.build("verifier", {"name": "zero-shot-nli", "num_labels": 2, "nli": run, "aggregate": "whole"})
    p3, p2 = three.predict_proba(pairs[:6]), two.predict_proba(pairs[:6])
    np.testing.assert_allclose(p3, v.predict_proba(pairs[:6]), atol=1e-5)
    np.testing.assert_allclose(p2[:, 0], p3[:, 0], atol=1e-6)
    np.testing.assert_allclose(p2[:, 1], p3[:, 1] + p3[:, 2], atol=1e-6)
    assert two.labels == (Label.SUPPORTED, Label.REFUTED)


@pytest.mark.parametrize("int8", [False, True])
def test_onnx_runtime_cross_encoder_matches_torch(tiny_bert: Path, tmp_path: Path, int8: bool) -> None:
    """The ONNX Runtime verifier reads the same saved run and predicts what torch does (fp32: to 1e-4;
    int8: the same labels on this toy data, probabilities close)."""
    pairs = toy_pairs(24)
    torch_v = registry.build("verifier", specs(tiny_bert)["cross-encoder"])
    torch_v.save(tmp_path / "run")
    onnx_v = load_verifier(tmp_path / "run", name="cross-encoder-onnx", int8=int8, onnx_cache=str(tmp_path / "c"))
    expected, got = torch_v.predict_proba(pairs), onnx_v.predict_proba(pairs)
    assert got.shape == expected.shape
    if int8:
        assert np.abs(got - expected).max() < 0.1
    else:
        np.testing.assert_allclose(got, expected, atol=1e-4)
    with pytest.raises(ValueError, match="an ONNX verifier cannot be saved"):
        onnx_v.save(tmp_path / "again")


def test_a_prediction_among_several_allowed_gold_labels_scores_as_right() -> None:
    from claimforge.verify.base import gold_label

    either = (R, N)  # a binary "not entailment"
    assert gold_label(either, (S, R, N), N) == N
    assert gold_label(either, (S, R, N), S) == R
    assert gold_label(either, (S, R)) == R
    assert gold_label((N,), (S, R), R) == R


def test_an_interrupted_other_run_never_leaves_a_stale_finished_card(tiny_bert: Path, tmp_path: Path) -> None:
    spec = specs(tiny_bert)["cem"]
    pairs = toy_pairs()
    run = tmp_path / "run"
    cfg_a = TrainConfig(epochs=2, batch_size=8, lr=1e-2, seed=5, patience=99)
    train(registry.build("verifier", spec), pairs, pairs[:12], cfg_a, run)

    class Stop(Exception):
        pass

    def stop(stage: str, done: int, total: int) -> None:
        if done == 2:
            raise Stop

    cfg_b = TrainConfig(epochs=2, batch_size=8, lr=1e-2, seed=6, patience=99)
    with pytest.raises(Stop):
        train(registry.build("verifier", spec), pairs, pairs[:12], cfg_b, run, progress=stop)
    assert not (run / "run.json").exists() and not (run / "best").exists()
    logs: list[str] = []
    train(registry.build("verifier", spec), pairs, pairs[:12], cfg_a, run, log=logs.append)
    assert not any("finished run" in m for m in logs)


def test_lr_factor_warms_up_then_decays() -> None:
    from claimforge.verify.trainer import lr_factor

    factors = [lr_factor(s, 10, 4) for s in range(10)]
    assert factors[:4] == [0.25, 0.5, 0.75, 1.0]
    assert factors[4:] == [1.0, 5 / 6, 4 / 6, 3 / 6, 2 / 6, 1 / 6]
    assert lr_factor(0, 10, 0) == 1.0


def test_early_stopping_keeps_the_best_checkpoint(tiny_bert: Path, tmp_path: Path) -> None:
    """Dev labels are the training rule rotated: the better the model fits train, the worse dev gets, so dev
    macro-F1 peaks early, training stops after ``patience`` evaluations without gain, and best/ is that peak."""
    from claimforge.verify.trainer import dev_scores

    pairs = toy_pairs()
    rotate = {S: R, R: N, N: S}
    dev = [p.model_copy(update={"labels": (rotate[p.labels[0]],)}) for p in toy_pairs(24)]
    verifier = registry.build("verifier", specs(tiny_bert)["cem"])
    cfg = TrainConfig(epochs=20, batch_size=8, lr=2e-2, seed=3, eval_every=3, patience=2, warmup_ratio=0.0)
    card = train(verifier, pairs, dev, cfg, tmp_path / "run")
    history = card["history"]
    assert card["stopped_early"] is True and card["steps"] < card["total_steps"]
    best = max(history, key=lambda h: (h["macro_f1"], -h["loss"]))
    assert card["best"]["step"] == best["step"]
    # the evaluations after the best one are exactly `patience` non-improving ones
    after = [h for h in history if h["step"] > best["step"]]
    assert len(after) == cfg.patience
    # best/ holds the weights of that evaluation, not the last ones
    loaded = load_verifier(tmp_path / "run" / "best")
    assert dev_scores(loaded, dev)["macro_f1"] == pytest.approx(best["macro_f1"], abs=1e-9)
    assert dev_scores(loaded, dev)["loss"] == pytest.approx(best["loss"], rel=1e-4)


def test_max_train_pairs_is_a_seeded_subsample(tiny_bert: Path, tmp_path: Path) -> None:
    from claimforge.verify.trainer import subsample

    pairs = toy_pairs()
    a, b = subsample(pairs, 20, seed=7), subsample(pairs, 20, seed=7)
    assert a == b and len(a) == 20 and a != subsample(pairs, 20, seed=8)
    assert [p.id for p in a] == [p.id for p in pairs if p in a]  # input order kept
    card = train(
        registry.build("verifier", specs(tiny_bert)["cem"]),
        pairs,
        pairs[:6],
        TrainConfig(epochs=1, batch_size=5, lr=1e-2, seed=7, max_train_pairs=20, patience=99),
        tmp_path / "run",
    )
    assert card["data"]["train_pairs"] == 20 and card["steps"] == 4


def test_a_trained_verifier_beats_chance_on_held_out_pairs(tiny_bert: Path, tmp_path: Path) -> None:
    from claimforge.verify.metrics import classification_metrics

    train_pairs = toy_pairs(60)
    held = [p.model_copy(update={"id": f"held:{i}"}) for i, p in enumerate(toy_pairs(150)[90:])]
    assert not {(p.claim, p.evidence) for p in held} & {(p.claim, p.evidence) for p in train_pairs}
    verifier = registry.build("verifier", specs(tiny_bert)["cem"])
    train(
        verifier,
        train_pairs,
        train_pairs[:12],
        TrainConfig(epochs=8, batch_size=8, lr=1e-2, seed=3, patience=99, warmup_ratio=0.0),
        tmp_path / "run",
    )
    probs = verifier.predict_proba(held)
    pred = [verifier.labels[i] for i in probs.argmax(axis=1)]
    m = classification_metrics([p.labels[0] for p in held], pred, labels=verifier.labels)
    assert m["accuracy"] > 0.8  # chance is 1/3


def test_a_cross_encoder_can_start_from_the_judge() -> None:
    """``model: judge``: the embedded NLI model's weights; 3-way as it is, 2-way with the head mapped."""
    from claimforge.verify.nli import embedded_model_dir

    pairs = toy_pairs(4)
    three = registry.build("verifier", {"name": "cross-encoder", "model": "judge", "max_length": 128})
    assert three.model_id.startswith("cross-encoder:judge@")
    judge = load_verifier(embedded_model_dir())
    np.testing.assert_allclose(three.predict_proba(pairs), judge.predict_proba(pairs), atol=2e-3)
    two = registry.build("verifier", {"name": "cross-encoder", "model": "judge", "num_labels": 2, "max_length": 128})
    p2 = two.predict_proba(pairs)
    assert p2.shape == (4, 2)
    # SUPPORTED's logit is the judge's: the ranking of pairs by it is kept
    assert np.argsort(p2[:, 0]).tolist() == np.argsort(judge.predict_proba(pairs)[:, 0]).tolist()


def test_zero_shot_max_aggregation_lets_one_sentence_decide() -> None:
    """``aggregate: max``: a sentence that alone supports (or refutes) the claim raises that label even when the
    whole evidence reads as unrelated; one-sentence evidence is untouched."""

    class FakeNLI:
        model_id = "fake"

        def predict_proba(self, pairs, progress=None):  # type: ignore[no-untyped-def]
            rows = []
            for p in pairs:
                if len(p.evidence) > 1:
                    rows.append([0.1, 0.1, 0.8])  # the whole: unrelated
                else:
                    rows.append([0.9, 0.05, 0.05] if "yes" in p.evidence[0] else [0.05, 0.05, 0.9])
            return np.array(rows)

    v = registry.build("verifier", {"name": "zero-shot-nli", "aggregate": "max"})
    v.nli = FakeNLI()
    pairs = [
        Pair(id="a", claim="c", evidence=("nothing here.", "yes indeed.", "more filler.")),
        Pair(id="b", claim="c", evidence=("nothing here.",)),
    ]
    probs = v.predict_proba(pairs)
    assert probs[0].argmax() == 0 and abs(probs[0].sum() - 1) < 1e-6
    np.testing.assert_allclose(probs[1], [0.05, 0.05, 0.9])
    whole = registry.build("verifier", {"name": "zero-shot-nli", "aggregate": "whole"})
    whole.nli = FakeNLI()
    assert registry.build("verifier", {"name": "zero-shot-nli"}).config.aggregate == "max"  # the default
    assert whole.predict_proba(pairs[:1])[0].argmax() == 2
    assert v.model_id.endswith("|max")


def test_a_foreign_three_way_head_is_not_mapped_into_two_ways(tiny_bert: Path, tmp_path: Path) -> None:
    """Only a head in claimforge's label order is mapped; another project's 3-way head (an MNLI model orders
    its rows otherwise) used as 2-way is an error, never a silently untrained head."""
    import shutil

    spec = specs(tiny_bert)["cross-encoder"]
    three = registry.build("verifier", spec)
    three.save(tmp_path / "three")
    shutil.copytree(tmp_path / "three" / "model", tmp_path / "hf3")  # no verifier.json beside it
    ours = registry.build("verifier", {**spec, "model": str(tmp_path / "three" / "model"), "num_labels": 2})
    assert ours.predict_proba(toy_pairs(2)).shape == (2, 2)
    foreign = registry.build("verifier", {**spec, "model": str(tmp_path / "hf3"), "num_labels": 2})
    with pytest.raises(ValueError, match="another number of labels than 2"):
        foreign.predict_proba(toy_pairs(2))
