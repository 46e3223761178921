"""The verifier commands: train (and --init into a 2-way target), evaluate, experiment transfer, audit
claim-only, and their errors; on a tiny self-written claimforge dataset and the benchmark fixture files,
with a CEM over hashing vectors (no model loads)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from claimforge.cli import app
from claimforge.evaluate import experiments as ex
from claimforge.io.benchmarks import DATA_ENV

runner = CliRunner()
FIXTURES = Path(__file__).parent / "io" / "fixtures" / "benchmarks"
MODEL_SETS = [
    "model.embedder.name=hashing",
    "model.embedder.dim=64",
    "model.hidden=32",
    "model.heads=4",
]
TRAIN_SETS = ["train.epochs=3", "train.batch_size=8"]


def sets(*items: str) -> list[str]:
    return [a for s in items for a in ("--set", s)]


def one_line(text: str) -> str:
    """Output with rich's line wrapping undone."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def trained(tmp_path_factory: pytest.TempPathFactory, write_toy_dataset) -> dict[str, Any]:  # type: ignore[no-untyped-def]
    """The tiny dataset and one `claimforge train` run on it (3-way)."""
    root = tmp_path_factory.mktemp("cli-verify")
    gen = write_toy_dataset(root / "gen")
    run = root / "run3"
    res = runner.invoke(app, ["train", "--data", str(gen), "--out", str(run), *sets(*MODEL_SETS, *TRAIN_SETS)])
    return {"root": root, "gen": gen, "run": run, "res": res}


@pytest.fixture
def fixture_data(monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv(DATA_ENV, str(FIXTURES))
    return FIXTURES


def test_train_then_init_a_two_way_target(trained: dict[str, Any], fixture_data: Path, tmp_path: Path) -> None:
    res, run = trained["res"], trained["run"]
    assert res.exit_code == 0, res.output
    assert "done" in res.output and "dev macro-F1" in res.output
    card = json.loads((run / "run.json").read_text())
    assert card["status"] == "finished" and card["steps"] == 21  # 54 train pairs / 8 = 7 steps x 3 epochs
    assert card["verifier"]["name"] == "cem" and card["verifier"]["embedder"] == {"name": "hashing", "dim": 64}
    assert card["verifier"]["num_labels"] == 3 and card["train"]["batch_size"] == 8
    assert card["data"]["task"] == {"name": "claimforge", "path": str(trained["gen"])}
    assert (run / "best" / "verifier.json").is_file() and (run / "best" / "weights.safetensors").is_file()
    assert not (run / "checkpoint").exists()

    two = tmp_path / "run2"
    res = runner.invoke(
        app,
        ["train", "--data", "covidfact", "--init", str(run), "--out", str(two), *sets(*MODEL_SETS, *TRAIN_SETS)],
    )
    assert res.exit_code == 0, res.output
    assert "initialised from" in res.output
    card2 = json.loads((two / "run.json").read_text())
    assert card2["verifier"]["num_labels"] == 2
    assert card2["data"]["task"] == {"name": "covidfact"} and card2["data"]["split"] == "paper"
    assert card2["data"]["init"]["from"] == str(run / "best")
    assert sorted(card2["data"]["init"]["reinitialised"]) == ["classifier.4.bias", "classifier.4.weight"]
    assert card2["data"]["train_pairs"] == 4  # the paper split of the covidfact fixture


def test_evaluate_a_run(trained: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "eval"
    res = runner.invoke(
        app,
        ["evaluate", "--run", str(trained["run"]), "--data", str(trained["gen"]), "--split", "dev", "--out", str(out)],
    )
    assert res.exit_code == 0, res.output
    printed = json.loads(res.stdout)
    assert set(printed) == {"n", "accuracy", "macro_f1", "weighted_f1", "ci95"}
    assert printed["n"] == 6  # the dataset's dev split (by source item)
    assert not (out / "test_metrics.json").exists()  # a dev split's metrics are named so
    saved = json.loads((out / "dev_metrics.json").read_text())
    assert saved["n"] == 6 and saved["labels"] == ["SUPPORTED", "REFUTED", "NOT_ENOUGH_INFO"]
    assert saved["accuracy"] == printed["accuracy"] and saved["ci95"] == printed["ci95"]
    for m in ("accuracy", "macro_f1", "weighted_f1"):
        lo, hi = saved["ci95"][m]
        assert 0.0 <= lo <= hi <= 1.0
    preds = [json.loads(x) for x in (out / "predictions.jsonl").read_text().splitlines()]
    assert len(preds) == 6 and all(set(p) == {"id", "claim", "gold", "pred", "probs"} for p in preds)
    assert all(p["id"].startswith("claimforge:toy:") for p in preds)
    assert (out / "confusion.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "wrote" in res.output


@pytest.mark.parametrize("choice", ["both", "neither"])
def test_evaluate_needs_exactly_one_of_run_and_model(choice: str, trained: dict[str, Any], tmp_path: Path) -> None:
    args = ["evaluate", "--data", str(trained["gen"]), "--out", str(tmp_path / "e")]
    if choice == "both":
        args += ["--run", str(trained["run"]), "--model", "zero-shot-nli"]
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert "give exactly one of --run and --model" in one_line(res.output)
    assert not (tmp_path / "e").exists()


def test_evaluate_a_two_way_run_on_a_three_way_dataset(
    trained: dict[str, Any], fixture_data: Path, tmp_path: Path
) -> None:
    two = tmp_path / "run2"
    res = runner.invoke(app, ["train", "--data", "covidfact", "--out", str(two), *sets(*MODEL_SETS, "train.epochs=1")])
    assert res.exit_code == 0, res.output
    res = runner.invoke(
        app,
        ["evaluate", "--run", str(two), "--data", str(trained["gen"]), "--split", "dev", "--out", str(tmp_path / "e")],
    )
    # a 2-way run reads the 3-way gold labels as SUPPORTED vs not (NOT_ENOUGH_INFO counts as REFUTED)
    assert res.exit_code == 0, res.output
    metrics = json.loads(next((tmp_path / "e").glob("*metrics.json")).read_text())
    assert metrics["labels"] == ["SUPPORTED", "REFUTED"] and metrics["n"] > 0


def test_experiment_transfer_prints_the_table(trained: dict[str, Any], fixture_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "exp"
    args = [
        "experiment",
        "transfer",
        "--generated",
        str(trained["gen"]),
        "--targets",
        "covidfact",
        "--seeds",
        "1",
        "--out",
        str(out),
        *sets(*MODEL_SETS, "train.epochs=2", "pretrain.epochs=2", "bootstrap=5"),
    ]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "| target | train/dev/test pairs | target only wF1 |" in res.stdout
    row = next(line for line in res.stdout.splitlines() if line.startswith("| covidfact |"))
    assert row.count("±") == 4
    assert (out / "transfer.md").read_text() in res.stdout
    doc = json.loads((out / "transfer.json").read_text())
    assert doc["config"]["train"] == {"epochs": 2} and doc["config"]["pretrain"] == {"epochs": 2}
    assert doc["config"]["seeds"] == [1] and doc["config"]["model"]["embedder"]["name"] == "hashing"
    assert doc["config"]["generated"] == {"name": "claimforge", "path": str(trained["gen"])}
    assert json.loads((out / "generated" / "seed1" / "run.json").read_text())["train"]["epochs"] == 2


def test_audit_claim_only_prints_both_lines(trained: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "audit"
    args = ["audit", "claim-only", "--data", str(trained["gen"]), "--seeds", "1", "--out", str(out)]
    res = runner.invoke(app, [*args, *sets(*MODEL_SETS, *TRAIN_SETS)])
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("claim-only   macro-F1 ") and "±" in lines[0] and "accuracy" in lines[0]
    assert lines[1].startswith("majority     macro-F1 ") and "weighted-F1" in lines[1]
    doc = json.loads((out / "claim_only.json").read_text())
    assert f"{doc['majority']['accuracy']:.3f}" in lines[1]
    assert f"{doc['claim_only']['macro_f1']['mean']:.3f}" in lines[0]


@pytest.mark.parametrize(
    ("command", "bad", "message"),
    [
        ("train", "trian.epochs=2", "--set keys must start with model., train. or data."),
        ("train", "train.epochz=2", "epochz"),
        ("train", "model.hiddn=3", "hiddn"),
        ("audit", "foo=1", "--set keys must start with model., train. or data."),
        ("transfer", "trian.epochs=2", "trian"),
    ],
)
def test_bad_set_key_is_a_clear_error(
    command: str, bad: str, message: str, trained: dict[str, Any], tmp_path: Path
) -> None:
    gen, out = str(trained["gen"]), str(tmp_path / "o")
    args = {
        "train": ["train", "--data", gen, "--out", out],
        "audit": ["audit", "claim-only", "--data", gen, "--out", out],
        "transfer": ["experiment", "transfer", "--generated", gen, "--out", out],
    }[command]
    res = runner.invoke(app, [*args, *sets(*MODEL_SETS, bad)])
    assert res.exit_code == 2, res.output
    text = one_line(res.output)
    assert "error:" in text and message in text
    assert "Traceback" not in res.output


def test_experiment_config_file_is_used(
    trained: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen: dict[str, Any] = {}

    def fake_transfer(cfg: ex.ExperimentConfig, out: Path, log: Any = None) -> dict[str, Any]:
        seen["cfg"] = cfg
        return {"markdown": "table"}

    monkeypatch.setattr(ex, "transfer", fake_transfer)
    yaml_file = tmp_path / "exp.yaml"
    yaml_file.write_text("model:\n  name: gcem\n  beta: 0.5\ntrain:\n  epochs: 7\n", encoding="utf-8")
    res = runner.invoke(
        app,
        [
            "experiment",
            "transfer",
            "--generated",
            str(trained["gen"]),
            "--config",
            str(yaml_file),
            "--out",
            str(tmp_path),
        ],
    )
    assert res.exit_code == 0, res.output
    cfg = seen["cfg"]
    assert cfg.train == {"epochs": 7}
    assert cfg.model == {"name": "gcem", "beta": 0.5}


def test_evaluate_the_judge_on_every_benchmark_in_one_run(fixture_data: Path, tmp_path: Path) -> None:
    out = tmp_path / "judge"
    res = runner.invoke(
        app,
        [
            "evaluate",
            "--model",
            "zero-shot-nli",
            "--data",
            "benchmarks",
            "--split",
            "dev",
            "--out",
            str(out),
            "--bootstrap",
            "0",
        ],
    )
    assert res.exit_code == 0, res.output
    rows = json.loads((out / "summary.json").read_text())
    assert [r["data"] for r in rows] == ["scifact", "healthver", "covidfact", "climate-fever"]
    table = (out / "summary.md").read_text()
    assert table.splitlines()[0] == "| data | split | ways | pairs | accuracy | macro-F1 |"
    for r in rows:
        if "skipped" in r:
            assert f"skipped: {r['skipped']}" in table
            continue
        assert (out / r["data"] / "dev_metrics.json").is_file() and (out / r["data"] / "predictions.jsonl").is_file()
        saved = json.loads((out / r["data"] / "dev_metrics.json").read_text())
        assert saved["n"] == r["n"] > 0 and saved["macro_f1"] == r["macro_f1"]
        assert f"| {r['data']} | dev | {r['ways']} | {r['n']} | {r['accuracy']:.3f} |" in table
    covid = next(r for r in rows if r["data"] == "covidfact")
    assert covid["ways"] == 2  # the 3-way judge is read SUPPORTED vs not on the binary benchmark
    assert sum("skipped" not in r for r in rows) >= 3
