"""Splits, cached runs and the papers' experiments (transfer, zero-shot, claim-only audit) end to end on
tiny data: a self-written claimforge dataset as the generated data and the benchmark fixture files as
targets, with a CEM over hashing vectors (no model loads)."""

from __future__ import annotations

import json
import math
import shutil
from collections import defaultdict
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from claimforge.evaluate import experiments as ex
from claimforge.evaluate.experiments import (
    METRICS,
    ExperimentConfig,
    Splits,
    claim_only_audit,
    data_spec,
    split_by_claim,
    summarise,
    task_splits,
    transfer,
    zeroshot,
)
from claimforge.io.benchmarks import DATA_ENV, load_task
from claimforge.records import Label, Pair
from claimforge.verify.metrics import classification_metrics

FIXTURES = Path(__file__).parents[1] / "io" / "fixtures" / "benchmarks"
S, R, N = Label.SUPPORTED, Label.REFUTED, Label.NOT_ENOUGH_INFO
MODEL = {"name": "cem", "embedder": {"name": "hashing", "dim": 64}, "hidden": 32, "heads": 4}
TRAIN = {"epochs": 3, "batch_size": 8}
SEEDS = [1, 2]
COVIDFACT = {
    "name": "covidfact",
    "train": str(FIXTURES / "covidfact" / "rte_train.tsv"),
    "dev": str(FIXTURES / "covidfact" / "rte_dev.tsv"),
}
SCIFACT = {
    "name": "scifact",
    **{s: str(FIXTURES / "scifact" / f"claims_{s}.jsonl") for s in ("train", "dev", "test")},
    "corpus": str(FIXTURES / "scifact" / "corpus.jsonl"),
}


def config(generated: Path, **over: Any) -> ExperimentConfig:
    base: dict[str, Any] = {
        "generated": {"name": "claimforge", "path": str(generated)},
        "targets": [COVIDFACT, SCIFACT],
        "model": MODEL,
        "pretrain": TRAIN,
        "train": TRAIN,
        "seeds": SEEDS,
        "bootstrap": 5,  # a few resamples: enough to check the interval's shape, cheap
    }
    return ExperimentConfig(**{**base, **over})


def run_files(root: Path) -> dict[Path, tuple[int, bytes]]:
    return {p: (p.stat().st_mtime_ns, p.read_bytes()) for p in sorted(root.rglob("run.json"))}


# --------------------------------------------------------------------------------------------------
# Splits and data specs


def _pairs(claims: list[str], per_claim: int = 3) -> list[Pair]:
    return [
        Pair(id=f"p{i}:{k}", claim=c, evidence=("e",), labels=((S, R, N)[k % 3],))
        for i, c in enumerate(claims)
        for k in range(per_claim)
    ]


def test_split_by_claim_keeps_claims_together_and_partitions() -> None:
    claims = [f"Claim number {i}." for i in range(200)]
    pairs = _pairs(claims)
    # the same claim written differently (case, surrounding space) is one claim
    pairs += [Pair(id=f"v{i}", claim=f"  CLAIM NUMBER {i}. ", evidence=("e",), labels=(S,)) for i in range(200)]
    rest, held = split_by_claim(pairs, 0.3, seed=5)
    ids = [p.id for p in pairs]
    assert sorted(p.id for p in rest + held) == sorted(ids)  # a partition: nothing lost, nothing twice
    assert not {p.id for p in rest} & {p.id for p in held}
    assert [p.id for p in rest] == [i for i in ids if i in {p.id for p in rest}]  # input order kept
    side: dict[str, set[str]] = defaultdict(set)
    for name, part in (("rest", rest), ("held", held)):
        for p in part:
            side[p.claim.strip().lower()].add(name)
    assert all(len(s) == 1 for s in side.values())
    held_claims = {p.claim.strip().lower() for p in held}
    assert 0.2 < len(held_claims) / 200 < 0.4
    again = split_by_claim(pairs, 0.3, seed=5)
    assert ([p.id for p in again[0]], [p.id for p in again[1]]) == ([p.id for p in rest], [p.id for p in held])
    assert {p.id for p in split_by_claim(pairs, 0.3, seed=6)[1]} != {p.id for p in held}
    assert split_by_claim(pairs, 0.0, seed=5) == (pairs, [])


def test_task_splits_paper_and_official_on_the_scifact_fixture(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(DATA_ENV, str(FIXTURES))
    task = load_task("scifact")
    labelled = [p for s in ("train", "dev", "test") for p in task.load(s) if p.labels]
    assert len(labelled) == 6  # 5 train pairs + 1 dev pair; the test file is unlabelled

    paper = task_splits(task, Splits(mode="paper"))
    # merged labelled pool, 10% of the claims held out as test (seed 2026: "Sleep loss improves recall.")
    assert [p.id for p in paper["test"]] == ["scifact:train:3:33"]
    assert sorted(p.id for v in paper.values() for p in v) == sorted(p.id for p in labelled)
    assert "scifact:dev:10:11" in {p.id for p in paper["train"]}  # the dev split is pooled in
    assert all(p.labels for v in paper.values() for p in v)
    test_claims = {p.claim.strip().lower() for p in paper["test"]}
    assert not test_claims & {p.claim.strip().lower() for p in paper["train"] + paper["dev"]}

    official = task_splits(task, Splits(mode="official"))
    assert [p.id for p in official["test"]] == [p.id for p in task.load("dev")] == ["scifact:dev:10:11"]
    assert sorted(p.id for p in official["train"] + official["dev"]) == sorted(p.id for p in task.load("train"))
    assert task_splits(task, Splits(mode="official")) == official  # deterministic

    with pytest.raises(ValueError, match="no train split"):
        task_splits(load_task("climate-fever"), Splits(mode="official"))


def test_data_spec(tmp_path: Path, write_toy_dataset) -> None:  # type: ignore[no-untyped-def]
    folder = write_toy_dataset(tmp_path / "gen", n_items=2)
    assert data_spec(str(folder)) == {"name": "claimforge", "path": str(folder)}
    assert data_spec(str(folder / "examples.jsonl")) == {"name": "claimforge", "path": str(folder / "examples.jsonl")}
    assert len(load_task(data_spec(str(folder))).load("all")) == 6
    assert data_spec("scifact") == {"name": "scifact"}
    (tmp_path / "empty").mkdir()
    assert data_spec(str(tmp_path / "empty")) == {"name": str(tmp_path / "empty")}  # not a build folder
    spec = {"name": "covidfact", "dev": "x.tsv"}
    assert data_spec(spec) == spec and data_spec(spec) is not spec


# --------------------------------------------------------------------------------------------------
# Transfer and zero-shot (one experiment folder shared by the tests below)


@pytest.fixture(scope="module")
def experiment(tmp_path_factory: pytest.TempPathFactory, write_toy_dataset) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    root = tmp_path_factory.mktemp("experiment")
    gen = write_toy_dataset(root / "gen")
    cfg = config(gen)
    out = root / "exp"
    first = transfer(cfg, out)
    files = run_files(out)
    logs: list[str] = []
    second = transfer(cfg, out, log=logs.append)
    return {
        "root": root,
        "gen": gen,
        "cfg": cfg,
        "out": out,
        "doc": first,
        "second": second,
        "files_before": files,
        "files_after": run_files(out),
        "second_logs": logs,
    }


def test_transfer_writes_the_table_and_results(experiment: dict[str, Any]) -> None:
    out, doc = experiment["out"], experiment["doc"]
    assert (out / "transfer.json").is_file() and (out / "transfer.md").is_file()
    md = (out / "transfer.md").read_text(encoding="utf-8")
    assert md == experiment["second"]["markdown"]  # the files are from the latest invocation
    assert md.split("wall time")[0] == doc["markdown"].split("wall time")[0]
    saved = json.loads((out / "transfer.json").read_text(encoding="utf-8"))
    assert saved["kind"] == "transfer" and saved["config"]["seeds"] == SEEDS
    assert saved["results"] == json.loads(json.dumps(doc["results"]))
    results = doc["results"]
    assert set(results) == {"covidfact", "scifact"}
    assert results["covidfact"]["num_labels"] == 2 and results["scifact"]["num_labels"] == 3
    # paper splits of the fixtures: 1 test pair each (see test_task_splits_paper_and_official_...)
    assert results["covidfact"]["sizes"] == {"train": 4, "dev": 0, "test": 1}
    assert results["scifact"]["sizes"] == {"train": 5, "dev": 0, "test": 1}
    rows = {line.split("|")[1].strip(): line for line in md.splitlines() if line.startswith("| ")}
    assert "target only wF1" in rows["target"] and "generated → target wF1" in rows["target"]
    for name, r in results.items():
        conds = r["conditions"]
        assert set(conds) == {"target", "generated+target"}
        for stats in conds.values():
            assert len(stats["seeds"]) == len(SEEDS)
            for m in METRICS:
                values = [s[m] for s in stats["seeds"]]
                assert stats[m]["mean"] == pytest.approx(np.mean(values))
                assert stats[m]["std"] == pytest.approx(np.std(values, ddof=1))
                lo, hi = stats[m]["ci95"]
                assert 0.0 <= lo <= hi <= 1.0
        for m in METRICS:
            assert r["delta"][m] == pytest.approx(conds["generated+target"][m]["mean"] - conds["target"][m]["mean"])
        row = rows[name]
        for cond in ("target", "generated+target"):
            for m in ("weighted_f1", "macro_f1"):
                st = conds[cond][m]
                assert f"{st['mean']:.3f} ± {st['std']:.3f}" in row
        cells = [c.strip() for c in row.split("|")[1:-1]]
        assert cells[4] == f"{100 * r['delta']['weighted_f1']:+.1f}"
        assert cells[7] == f"{100 * r['delta']['macro_f1']:+.1f}"
        s = r["sizes"]
        assert cells[1] == f"{s['train']}/{s['dev']}/{s['test']}"


def test_transfer_run_directories_and_initialisation(experiment: dict[str, Any]) -> None:
    out = experiment["out"]
    for seed in SEEDS:
        gen_card = json.loads((out / "generated" / f"seed{seed}" / "run.json").read_text())
        assert gen_card["status"] == "finished" and gen_card["verifier"]["num_labels"] == 3
        assert gen_card["train"]["seed"] == seed and gen_card["data"]["train_pairs"] == 54
        for target in ("covidfact", "scifact"):
            for cond in ("target", "generated+target"):
                run = out / target / "paper" / cond / f"seed{seed}"
                for f in ("run.json", "predictions.jsonl", "test_metrics.json", "confusion.png"):
                    assert (run / f).is_file(), run / f
        # the 2-way target starts from the 3-way generated run: only the output layer is new
        two = json.loads((out / "covidfact" / "paper" / "generated+target" / f"seed{seed}" / "run.json").read_text())
        assert two["verifier"]["num_labels"] == 2
        init = two["data"]["init"]
        assert init["from"] == str(out / "generated" / f"seed{seed}" / "best")
        assert init["reinitialised"] and all(k.startswith("classifier.") for k in init["reinitialised"])
        assert sorted(init["reinitialised"]) == ["classifier.4.bias", "classifier.4.weight"]
        # a 3-way target takes every tensor over; target-only runs start from scratch
        three = json.loads((out / "scifact" / "paper" / "generated+target" / f"seed{seed}" / "run.json").read_text())
        assert three["data"]["init"]["reinitialised"] == []
        alone = json.loads((out / "covidfact" / "paper" / "target" / f"seed{seed}" / "run.json").read_text())
        assert "init" not in alone["data"]
        preds = [
            json.loads(x)
            for x in (out / "covidfact" / "paper" / "target" / f"seed{seed}" / "predictions.jsonl")
            .read_text()
            .splitlines()
        ]
        assert [p["id"] for p in preds] == ["covidfact:dev:0"]
        assert set(preds[0]["probs"]) == {"SUPPORTED", "REFUTED"}


def test_transfer_rerun_reuses_every_run(experiment: dict[str, Any]) -> None:
    before, after = experiment["files_before"], experiment["files_after"]
    assert len(before) == len(SEEDS) * (1 + 2 * 2)  # generated + 2 targets x 2 conditions, per seed
    assert after == before  # no run.json rewritten (same mtime, same bytes)
    logs = experiment["second_logs"]
    assert not any(m.startswith("preparing") for m in logs)  # nothing trained
    assert sum("finished run with the same data and parameters" in m for m in logs) >= len(before)
    assert experiment["second"]["results"] == experiment["doc"]["results"]
    # no wall-time comparison: on a shared CI machine the rerun was once slower (0.93 s vs 0.72 s) although it
    # trained nothing; the reuse is proven by the untouched run files and the logs above


def test_transfer_retrains_the_target_run_when_its_initial_weights_change(
    experiment: dict[str, Any], tmp_path: Path
) -> None:
    out = tmp_path / "exp"
    shutil.copytree(experiment["out"], out)
    cfg = config(experiment["gen"], targets=[COVIDFACT], seeds=[1], pretrain={**TRAIN, "epochs": 2})
    card = out / "covidfact" / "paper" / "generated+target" / "seed1" / "run.json"
    old_gen, old = (out / "generated" / "seed1" / "run.json").read_bytes(), card.read_bytes()
    transfer(cfg, out)
    assert (out / "generated" / "seed1" / "run.json").read_bytes() != old_gen  # pre-training did rerun
    assert card.read_bytes() != old  # ... so the run initialised from it must rerun too


def test_zeroshot_ratio(experiment: dict[str, Any]) -> None:
    out = experiment["out"]  # the same folder: zero-shot reuses the generated runs of the transfer experiment
    gen_before = {p: v for p, v in run_files(out / "generated").items()}
    doc = zeroshot(experiment["cfg"], out)
    assert run_files(out / "generated") == gen_before
    assert (out / "zeroshot.json").is_file() and (out / "zeroshot.md").read_text() == doc["markdown"]
    results = doc["results"]
    # official splits: the fixtures' dev files are the test sets
    assert results["covidfact"]["sizes"]["test"] == 2 and results["scifact"]["sizes"]["test"] == 1
    for r in results.values():
        zs, tg = r["conditions"]["generated"], r["conditions"]["target"]
        for m in METRICS:
            if tg[m]["mean"]:
                assert r["ratio"][m] == pytest.approx(zs[m]["mean"] / tg[m]["mean"])
            else:
                assert math.isnan(r["ratio"][m])
    # the generated-only model is 3-way; on the 2-way target it is read as "supported / not supported"
    preds = (out / "covidfact" / "official" / "generated" / "seed1" / "predictions.jsonl").read_text().splitlines()
    assert len(preds) == 2 and all(set(json.loads(x)["probs"]) == {"SUPPORTED", "REFUTED"} for x in preds)
    assert not (out / "covidfact" / "official" / "generated" / "seed1" / "run.json").exists()  # not trained


def test_summarise_interval_brackets_the_mean() -> None:
    rng = np.random.default_rng(0)
    labels = [S, R, N]
    gold = [labels[i % 3] for i in range(90)]
    runs = []
    for acc in (0.6, 0.7, 0.8):
        pred = [g if rng.random() < acc else labels[(labels.index(g) + 1) % 3] for g in gold]
        runs.append(
            {"metrics": classification_metrics(gold, pred, labels), "gold": gold, "pred": pred, "labels": labels}
        )
    s = summarise(runs, bootstrap=60, seed=3)
    for m in METRICS:
        values = [r["metrics"][m] for r in runs]
        assert s[m]["mean"] == pytest.approx(np.mean(values))
        assert s[m]["std"] == pytest.approx(np.std(values, ddof=1))
        lo, hi = s[m]["ci95"]
        assert lo < s[m]["mean"] < hi
        assert hi - lo < 0.3
    assert [row["accuracy"] for row in s["seeds"]] == [r["metrics"]["accuracy"] for r in runs]
    assert s["confusion_summed"] == np.sum([r["metrics"]["confusion"] for r in runs], axis=0).tolist()
    assert summarise(runs[:2], bootstrap=20, seed=3) == summarise(runs[:2], bootstrap=20, seed=3)  # seeded
    plain = summarise(runs, bootstrap=0)
    assert "ci95" not in plain["accuracy"] and "confusion_summed" not in plain
    one = summarise(runs[:1], bootstrap=0)
    assert one["macro_f1"]["std"] == 0.0


# --------------------------------------------------------------------------------------------------
# Claim-only audit


def test_claim_only_audit_removes_the_evidence(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, write_toy_dataset
) -> None:  # type: ignore[no-untyped-def]
    gen = write_toy_dataset(tmp_path / "gen")
    seen: dict[str, list[Pair]] = {}
    real_train, real_eval = ex.train_run, ex.evaluate_verifier

    def spy_train(model: Any, train_pairs: Any, dev_pairs: Any, *a: Any, **k: Any) -> Any:
        seen.setdefault("train", []).extend(train_pairs)
        seen.setdefault("dev", []).extend(dev_pairs)
        return real_train(model, train_pairs, dev_pairs, *a, **k)

    def spy_eval(verifier: Any, pairs: Any, *a: Any, **k: Any) -> Any:
        seen.setdefault("test", []).extend(pairs)
        return real_eval(verifier, pairs, *a, **k)

    monkeypatch.setattr(ex, "train_run", spy_train)
    monkeypatch.setattr(ex, "evaluate_verifier", spy_eval)
    out = tmp_path / "audit"
    doc = claim_only_audit({"name": "claimforge", "path": str(gen)}, MODEL, out, SEEDS, TRAIN)

    assert (out / "claim_only.json").is_file()
    assert json.loads((out / "claim_only.json").read_text()) == json.loads(json.dumps(doc))
    for seed in SEEDS:
        for f in ("run.json", "predictions.jsonl", "test_metrics.json", "confusion.png"):
            assert (out / f"seed{seed}" / f).is_file()
        assert json.loads((out / f"seed{seed}" / "run.json").read_text())["data"]["claim_only"] is True
    # a generated dataset's audit: its own dev split (by source item) is the test set
    sizes = doc["sizes"]
    task = load_task({"name": "claimforge", "path": str(gen)})
    assert sizes["test"] == len(task.load("dev")) > 0
    assert sizes["train"] + sizes["dev"] == len(task.load("train"))
    for m in METRICS:
        assert set(doc["claim_only"][m]) == {"mean", "std"}
        assert 0.0 <= doc["claim_only"][m]["mean"] <= 1.0
        assert 0.0 <= doc["majority"][m] <= 1.0
    # the models saw claims only, in every split
    assert seen["train"] and seen["test"]
    assert all(p.evidence == () for split in seen.values() for p in split)
    assert len(seen["test"]) == sizes["test"] * len(SEEDS)
    # the three examples of an item share the claim and differ only in evidence: without evidence the
    # model cannot tell them apart, so their probabilities are identical
    preds = [json.loads(x) for x in (out / "seed1" / "predictions.jsonl").read_text().splitlines()]
    by_item: dict[str, list[dict[str, float]]] = defaultdict(list)
    for p in preds:
        by_item[p["id"].split("#")[0]].append(p["probs"])
    assert all(len(v) == 3 and v[0] == v[1] == v[2] for v in by_item.values())
    # so claim-only accuracy is 1/3 on these balanced items, as is the majority baseline's
    assert doc["claim_only"]["accuracy"]["mean"] == pytest.approx(1 / 3)
    assert doc["majority"]["accuracy"] == pytest.approx(1 / 3)
