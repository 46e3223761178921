"""training/nli/average.py: two saved judges' weights interpolated (WiSE-FT)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

SCRIPT = Path(__file__).resolve().parents[2] / "training" / "nli" / "average.py"


def _judge(root: Path, weight: float) -> Path:
    (root / "model").mkdir(parents=True)
    (root / "verifier.json").write_text('{"name": "cross-encoder"}\n')
    (root / "model" / "config.json").write_text("{}\n")
    tensors = {"w": torch.full((2, 3), weight, dtype=torch.float16), "ids": torch.tensor([1, 2])}
    save_file(tensors, str(root / "model" / "model.safetensors"))
    return root


def test_weights_are_interpolated_and_the_rest_copied(tmp_path: Path) -> None:
    a, b = _judge(tmp_path / "a", 1.0), _judge(tmp_path / "b", 3.0)
    out = tmp_path / "avg"
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(a), str(b), "--alpha", "0.25", "--out", str(out)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr
    mixed = load_file(str(out / "model" / "model.safetensors"))
    assert torch.allclose(mixed["w"], torch.full((2, 3), 1.5)) and mixed["w"].dtype == torch.float32
    assert mixed["ids"].tolist() == [1, 2] and mixed["ids"].dtype == torch.int64  # integers taken as they are
    assert (out / "verifier.json").read_text() == (b / "verifier.json").read_text()


def test_judges_of_different_shapes_are_refused(tmp_path: Path) -> None:
    a = _judge(tmp_path / "a", 1.0)
    b = tmp_path / "b"
    (b / "model").mkdir(parents=True)
    save_file({"w": torch.zeros(4), "ids": torch.tensor([1, 2])}, str(b / "model" / "model.safetensors"))
    run = subprocess.run(
        [sys.executable, str(SCRIPT), str(a), str(b), "--out", str(tmp_path / "avg")], capture_output=True, text=True
    )
    assert run.returncode != 0 and "do not have the same weights" in run.stderr
    assert not (tmp_path / "avg").exists()
