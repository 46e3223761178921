"""Natural-language inference behind the ``NLIModel`` interface: (claim, evidence) → probabilities of
SUPPORTED / REFUTED / NOT_ENOUGH_INFO (entailment / contradiction / neutral), batched and cached on disk.

``embedded`` is the project's own MiniLM cross-encoder shipped in the package (docs/models/nli.md);
``hf`` loads any Hugging Face NLI classifier (name or local path) and maps its labels by name;
``run`` loads a verifier trained with ``claimforge train``.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from claimforge.cache import CachedComponentConfig, files_digest, fingerprint
from claimforge.io.benchmarks import label_key, parse_label_map
from claimforge.records import Pair
from claimforge.registry import registry
from claimforge.verify.base import LABELS_3

EMBEDDED_NLI = "nli-minilm"


class NLIModel(Protocol):
    model_id: str

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        """(n, 3) probabilities in the order SUPPORTED, REFUTED, NOT_ENOUGH_INFO."""
        ...


def embedded_model_dir() -> Path:
    path = Path(str(resources.files("claimforge") / "models" / EMBEDDED_NLI))
    if not (path / "verifier.json").is_file():
        raise FileNotFoundError(f"the embedded NLI model is missing from the installation ({path})")
    return path


class NLIConfig(CachedComponentConfig):
    batch_size: int = 64
    # torch: fp32 as trained; onnx: ONNX Runtime fp32, the same probabilities, 1.1-1.8x faster; onnx-int8: int8
    # weights, 3.2x faster than sentence-transformers at -0.08 macro-F1 points; torch-int8: dynamic int8 in torch,
    # 2.2x at -0.78 points; torch-bf16: bf16 autocast, 1.35x onnx on CPUs with native bf16, probabilities within
    # 0.03 (docs/benchmarks.md); auto: torch-bf16 on CPUs with native bf16, else onnx (the label check's judge).
    # Runs saved by `claimforge train` and the embedded model support all; hf models the torch ones.
    runtime: Literal["auto", "torch", "torch-bf16", "torch-int8", "onnx", "onnx-int8"] = "torch"
    threads: int | None = None

    @property
    def resolved_runtime(self) -> str:
        """The runtime that runs: ``auto`` decided for this CPU."""
        from claimforge.backends.embeddings import resolve_runtime

        return resolve_runtime(self.runtime, without_bf16="onnx")


class HFNLIConfig(NLIConfig):
    model: str  # HF name or local path of a sequence-classification NLI model
    max_length: int = 256
    label_map: dict[str, str] | None = None  # the model's label name → SUPPORTED / REFUTED / NOT_ENOUGH_INFO


class RunNLIConfig(NLIConfig):
    path: str  # a verifier directory written by ``claimforge train`` (its best/ folder or the run folder)


class _VerifierNLI:
    """An NLI model backed by a cross-encoder verifier; rows are reordered into LABELS_3."""

    def __init__(self, config: NLIConfig, verifier: Any, columns: list[int | None], model_id: str) -> None:
        self.config = config
        self.verifier = verifier
        self.columns = columns  # for each of LABELS_3, the verifier's column (None: the model has none)
        self.model_id = model_id
        self._runtime = config.resolved_runtime
        self._cache = config.open_cache("nli")

    def predict_proba(self, pairs: Sequence[Pair], progress: Any = None) -> np.ndarray:
        keys = [fingerprint("nli", self.model_id, p.claim, p.evidence) for p in pairs]
        cached = self._cache.get_many(list(dict.fromkeys(keys)))
        todo = list({k: p for k, p in zip(keys, pairs, strict=True) if k not in cached}.items())
        if todo:
            from claimforge.backends.embeddings import bf16_autocast

            if self._runtime == "torch-bf16":  # the evidence it reads is chosen outside autocast, in fp32
                self.verifier.prepare([p for _, p in todo])
            with bf16_autocast(self._runtime):  # the forward pass
                raw = self.verifier.predict_proba([p for _, p in todo], progress=progress)
            rows = np.zeros((len(todo), 3), dtype=np.float32)
            for j, col in enumerate(self.columns):
                if col is not None:
                    rows[:, j] = raw[:, col]
            new = {k: rows[i].tobytes() for i, (k, _) in enumerate(todo)}
            self._cache.put_many(new)
            cached.update(new)
        if not pairs:
            return np.zeros((0, 3), dtype=np.float32)
        return np.stack([np.frombuffer(cached[k], dtype=np.float32) for k in keys])


@functools.lru_cache(maxsize=4)
def _load_run(path: str, batch_size: int, runtime: str, threads: int | None) -> Any:
    from claimforge.verify.base import load_verifier

    directory = Path(path)
    if not (directory / "verifier.json").is_file() and (directory / "best" / "verifier.json").is_file():
        directory = directory / "best"
    overrides: dict[str, Any] = {"batch_size": batch_size}
    if threads:
        overrides["threads"] = threads
    if runtime.startswith("onnx"):
        overrides.update(name="cross-encoder-onnx", int8=runtime == "onnx-int8")
    verifier = load_verifier(directory, **overrides)
    if runtime == "torch-int8":
        verifier.quantize()  # type: ignore[attr-defined]  # the cross-encoder's; the runtime implies it
    return verifier


def _run_nli(config: NLIConfig, path: Path, model_id: str) -> _VerifierNLI:
    runtime = config.resolved_runtime
    verifier = _load_run(str(path), config.batch_size, "torch" if runtime == "torch-bf16" else runtime, config.threads)
    index = {lab: i for i, lab in enumerate(verifier.labels)}
    return _VerifierNLI(config, verifier, [index.get(lab) for lab in LABELS_3], model_id)


@registry.register("nli", "embedded", NLIConfig)
def build_embedded_nli(config: NLIConfig) -> _VerifierNLI:
    """The project's MiniLM NLI cross-encoder (shipped, fp16; docs/models/nli.md)."""
    path = embedded_model_dir()
    return _run_nli(config, path, f"{EMBEDDED_NLI}@{_weights_digest(path)}+{config.resolved_runtime}")


@registry.register("nli", "run", RunNLIConfig)
def build_run_nli(config: RunNLIConfig) -> _VerifierNLI:
    """A cross-encoder trained with ``claimforge train`` used as the NLI model."""
    path = Path(config.path)
    return _run_nli(config, path, f"run:{path.resolve()}@{_weights_digest(path)}+{config.resolved_runtime}")


@registry.register("nli", "hf", HFNLIConfig)
def build_hf_nli(config: HFNLIConfig) -> _VerifierNLI:
    """Any Hugging Face NLI classifier (e.g. roberta-large-mnli), labels mapped by their names."""
    from claimforge.verify.cross_encoder import CrossEncoderConfig, CrossEncoderVerifier

    id2label = _hf_labels(config.model)
    names = parse_label_map(config.label_map or {}, num_labels=3)  # the project's label spellings + overrides
    columns: list[int | None] = [None, None, None]
    for i, name in sorted(id2label.items()):
        target = names.get(label_key(name), ())
        if len(target) != 1:
            raise ValueError(
                f"{config.model}: cannot map its label {name!r} to SUPPORTED/REFUTED/NOT_ENOUGH_INFO; "
                'set label_map, e.g. {"LABEL_0": "REFUTED", ...}'
            )
        columns[LABELS_3.index(target[0])] = i
    if columns[0] is None:
        raise ValueError(f"{config.model}: no label maps to entailment/SUPPORTED ({id2label})")
    verifier = CrossEncoderVerifier(
        CrossEncoderConfig(
            model=config.model,
            num_labels=len(id2label),
            max_length=config.max_length,
            batch_size=config.batch_size,
            threads=config.threads,
            evidence_first=True,  # NLI models read premise (evidence) then hypothesis (claim)
        )
    )
    runtime = config.resolved_runtime
    if runtime.startswith("onnx"):
        if config.runtime == "auto":  # no bf16 here: fp32, as the model was trained
            config, runtime = config.model_copy(update={"runtime": "torch"}), "torch"
        else:
            raise ValueError("hf NLI models run with a torch runtime (save a run for ONNX)")
    verifier.load_pretrained(strict=True)
    if runtime == "torch-int8":
        verifier.quantize()
    model_id = f"hf:{config.model}@{_weights_digest(Path(config.model))}|{config.max_length}|{columns}"
    return _VerifierNLI(config, verifier, columns, f"{model_id}+{runtime}")


def _weights_digest(path: Path) -> str:
    """The identity of a local model's weights (cache keys must change when the weights do); a hub name as is."""
    files = sorted(path.rglob("*.safetensors")) if path.is_dir() else []
    return files_digest(files)[:16] if files else str(path)


def _hf_labels(model: str) -> dict[int, str]:
    from transformers import AutoConfig

    from claimforge.verify.cross_encoder import _hf_env

    _hf_env()
    cfg = AutoConfig.from_pretrained(model)
    return {int(k): str(v) for k, v in cfg.id2label.items()}
