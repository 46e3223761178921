"""ONNX Runtime on CPU, shared by the models that can run on it (the embedder, the cross-encoder verifier):
exporting a torch module once into a cache folder, dynamic int8 quantisation, publishing an export atomically,
and a session that stands in for the torch module. Needs ``onnxruntime`` and ``onnx``.
"""

from __future__ import annotations

import shutil
import warnings
from collections.abc import Sequence
from pathlib import Path
from typing import Any

OPSET = 17
FP32_FILE, INT8_FILE = "model.onnx", "model.int8.onnx"


def runtime() -> Any:
    try:
        import onnxruntime
    except ImportError as e:  # pragma: no cover - optional dependency
        raise RuntimeError("the ONNX verifier needs 'onnxruntime' and 'onnx' (pip install onnxruntime onnx)") from e
    return onnxruntime


def export(module: Any, inputs: dict[str, Any], target: Path, outputs: Sequence[str]) -> list[str]:
    """Export ``module`` (called with ``inputs``' tensors in order) to ``target`` with dynamic batch and
    sequence axes on the inputs and a dynamic batch axis on the outputs; returns the input names."""
    import torch

    names = list(inputs)
    axes: dict[str, dict[int, str]] = {n: {0: "batch", 1: "sequence"} for n in names}
    axes.update({o: {0: "batch"} for o in outputs})
    with warnings.catch_warnings(), torch.inference_mode():
        warnings.simplefilter("ignore")
        torch.onnx.export(
            module,
            tuple(inputs[n] for n in names),
            str(target),
            input_names=names,
            output_names=list(outputs),
            dynamic_axes=axes,
            opset_version=OPSET,
            dynamo=False,  # the dynamo exporter needs onnxscript
        )
    return names


def quantize_onnx(source: Path, target: Path) -> None:
    """Dynamic int8 quantisation of the graph's MatMul weights (activations are quantised at run time)."""
    import logging

    from onnxruntime.quantization import QuantType, quantize_dynamic

    level = logging.getLogger().level
    logging.getLogger().setLevel(logging.ERROR)  # "consider pre-processing" is about static quantisation
    try:
        quantize_dynamic(str(source), str(target), weight_type=QuantType.QInt8)
    finally:
        logging.getLogger().setLevel(level)


def publish(tmp: Path, graphs: Path) -> None:
    """Move a finished export into place; another process may have published the same graphs meanwhile."""
    try:
        tmp.rename(graphs)
    except OSError:
        if (graphs / FP32_FILE).is_file():
            shutil.rmtree(tmp, ignore_errors=True)
        else:  # a leftover without the fp32 graph
            shutil.rmtree(graphs, ignore_errors=True)
            tmp.rename(graphs)


class Session:
    """An ONNX Runtime session in the place of the torch module: ``eval()`` and a call returning logits."""

    def __init__(self, path: Path, threads: int) -> None:
        ort = runtime()
        options = ort.SessionOptions()
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        self.session = ort.InferenceSession(str(path), options, providers=["CPUExecutionProvider"])
        self.inputs = [i.name for i in self.session.get_inputs()]
        self.path = path

    def eval(self) -> Session:
        return self

    def train(self, mode: bool = True) -> Session:
        raise ValueError("an ONNX verifier cannot be trained; train the torch cross-encoder")

    def parameters(self) -> Any:
        raise ValueError("an ONNX verifier cannot be trained; train the torch cross-encoder")

    def run(self, feeds: dict[str, Any]) -> Any:
        """The first output for numpy inputs (names the graph does not take are ignored)."""
        return self.session.run(None, {n: feeds[n] for n in self.inputs})[0]

    def __call__(self, batch: dict[str, Any]) -> Any:
        import torch

        return torch.from_numpy(self.run({n: batch[n].numpy() for n in self.inputs}))
