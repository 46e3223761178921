"""A cross-encoder verifier: any Hugging Face encoder (name or local path) with a 2- or 3-way head
reading "claim [SEP] evidence". The embedded default starts from the all-MiniLM-L6-v2 weights.

Long evidence is not blindly truncated: when claim + evidence exceed ``max_length`` tokens, the
sentences most similar to the claim (sentence embeddings) are kept, in their original order.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from claimforge.records import Pair
from claimforge.registry import registry
from claimforge.verify.base import TorchVerifier, VerifierConfig

MODEL_DIR = "model"


JUDGE = "judge"  # ``model: judge``: start from the embedded NLI model's weights, its 3-way head kept (2-way: mapped)
MAX_VECTORS = 200_000  # evidence sentence vectors a verifier keeps (about 350 MB at 384 dimensions), then anew


class CrossEncoderConfig(VerifierConfig):
    model: str = "all-MiniLM-L6-v2"  # HF name or local path; the bundled MiniLM; or "judge" (the embedded NLI)
    max_length: int = 256
    embedder: dict[str, Any] | str = {"name": "sentence-transformers"}  # ranks sentences of long evidence
    evidence_first: bool = False  # "evidence [SEP] claim": the premise-first order of MNLI-style NLI models
    freeze_embeddings: bool = False  # cheaper training on CPU: the word-embedding matrix stays fixed
    freeze_layers: int = 0  # also freeze the lowest N transformer layers
    threads: int | None = None


def _claimforge_order(model_dir: Path) -> bool:
    """Whether a 3-way head is in claimforge's label order (SUPPORTED, REFUTED, NOT_ENOUGH_INFO): the judge or a
    model saved by claimforge (a ``verifier.json`` beside ``model/``). An MNLI head of another project orders its
    rows otherwise (e.g. contradiction, entailment, neutral) and is not mapped."""
    import json

    spec = model_dir.parent / "verifier.json"
    try:
        return model_dir.name == MODEL_DIR and json.loads(spec.read_text(encoding="utf-8")).get("num_labels") == 3
    except (OSError, ValueError, AttributeError):
        return False


def _hf_env() -> None:
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")


class CrossEncoderVerifier(TorchVerifier):
    """Fine-tuned cross-encoder over claim–evidence pairs."""

    kind: ClassVar[str] = "cross-encoder"
    default_train: ClassVar[dict[str, Any]] = {"lr": 3e-5, "epochs": 3, "batch_size": 16, "patience": 2}

    def __init__(self, config: CrossEncoderConfig) -> None:
        self.config: CrossEncoderConfig = config
        self.source_id = config.model
        if config.model == JUDGE and not Path(JUDGE).exists():  # which judge: its weights change between versions
            from claimforge.cache import files_digest
            from claimforge.verify.nli import embedded_model_dir

            self.source_id = f"judge@{files_digest(sorted(embedded_model_dir().rglob('*.safetensors')))[:16]}"
        self._module: Any = None
        self._tokenizer: Any = None
        self._embedder: Any = None
        self._evidence: dict[tuple[str, tuple[str, ...]], str] = {}
        self._vectors: dict[str, Any] = {}  # evidence sentence vectors, reused across calls
        self._missing: list[str] = []
        if config.threads:
            import torch

            torch.set_num_threads(config.threads)

    # -- model -----------------------------------------------------------------------------------
    def _load(self, path: str, ignore_mismatch: bool = False) -> list[str]:
        _hf_env()
        import transformers
        from transformers import AutoModelForSequenceClassification, AutoTokenizer

        from claimforge.backends.embeddings import resolve_model_path

        if path == JUDGE and not Path(path).exists():
            from claimforge.verify.nli import embedded_model_dir

            resolved = str(embedded_model_dir() / MODEL_DIR)
        else:
            resolved = resolve_model_path(path)
        self._tokenizer = AutoTokenizer.from_pretrained(resolved)
        verbosity = transformers.logging.get_verbosity()
        transformers.logging.set_verbosity_error()  # "newly initialised head" is expected here
        try:
            model, info = AutoModelForSequenceClassification.from_pretrained(
                resolved,
                num_labels=self.config.num_labels,
                ignore_mismatched_sizes=ignore_mismatch,
                output_loading_info=True,
                use_safetensors=True,
            )
        finally:
            transformers.logging.set_verbosity(verbosity)
        self._module = model.float()
        self._apply_freezing()
        mismatched = info.get("mismatched_keys", [])
        mapped = self._two_way_head(Path(resolved), mismatched) if mismatched else set()
        self._missing = list(info.get("missing_keys", []))
        return [*self._missing, *[m[0] for m in mismatched if m[0] not in mapped]]

    def _two_way_head(self, source: Path, mismatched: list[tuple[str, Any, Any]]) -> set[str]:
        """A 3-way head (SUPPORTED, REFUTED, NOT_ENOUGH_INFO, e.g. the judge's) loaded into a 2-way verifier is
        mapped, not thrown away: SUPPORTED keeps its row; "not supported" gets the mean of the REFUTED and
        NOT_ENOUGH_INFO weight rows and log(exp(b_R) + exp(b_N)) as its bias. Returns the keys mapped."""
        import torch
        from safetensors import safe_open

        weights = source / "model.safetensors"
        head = {k for k, old, new in mismatched if tuple(old)[:1] == (3,) and tuple(new)[:1] == (2,)}
        if self.config.num_labels != 2 or not head or not weights.is_file() or not _claimforge_order(source):
            return set()
        params = dict(self._module.named_parameters())
        with safe_open(str(weights), framework="pt") as f:
            stored = set(f.keys())
            for key in head:
                if key not in stored or key not in params:
                    return set()
            with torch.no_grad():
                for key in head:
                    t = f.get_tensor(key).float()
                    rest = torch.logsumexp(t[1:], dim=0) if t.dim() == 1 else t[1:].mean(dim=0)
                    params[key].copy_(torch.stack([t[0], rest]))
        return head

    def _apply_freezing(self) -> None:
        base = getattr(self._module, self._module.base_model_prefix, None)
        if base is None:
            return
        if self.config.freeze_embeddings and hasattr(base, "embeddings"):
            base.embeddings.word_embeddings.weight.requires_grad_(False)
        layers = getattr(getattr(base, "encoder", None), "layer", None)
        if self.config.freeze_layers and layers is not None:
            for layer in list(layers)[: self.config.freeze_layers]:
                for p in layer.parameters():
                    p.requires_grad_(False)

    def _lazy_load(self) -> None:
        """Load ``config.model`` on first use: a bare encoder gets a new head; a head of another size is mapped
        (a claimforge 3-way head into 2 ways) or an error (it would silently become an untrained head)."""
        fresh = self._load(self.config.model, ignore_mismatch=True)
        head = set(fresh) - set(self._missing)
        if head:
            raise ValueError(
                f"{self.config.model}: its classifier has another number of labels than {self.config.num_labels} "
                f"({sorted(head)[:2]}); train from it with --init, or set num_labels to match"
            )

    @property
    def module(self) -> Any:
        if self._module is None:
            self._lazy_load()
        return self._module

    @property
    def tokenizer(self) -> Any:
        if self._tokenizer is None:
            self._lazy_load()
        return self._tokenizer

    def load_pretrained(self, strict: bool = True) -> None:
        """Load ``config.model`` now; with ``strict``, a model without a trained head of this size is an error."""
        fresh = self._load(self.config.model, ignore_mismatch=True)
        if strict and fresh:
            raise ValueError(f"{self.config.model}: not a trained classifier (untrained weights: {fresh[:3]})")

    def quantize(self) -> None:
        """Dynamic int8 quantisation of the Linear layers, for inference on CPU (about 2x faster;
        docs/benchmarks.md). A quantised model cannot be trained or saved."""
        import warnings

        import torch

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self._module = torch.ao.quantization.quantize_dynamic(self.module, {torch.nn.Linear}, dtype=torch.qint8)
        self._quantized = True

    def save_weights(self, directory: Path, half: bool = False) -> None:
        if getattr(self, "_quantized", False):
            raise ValueError("a quantised model cannot be saved; save before quantize()")
        target = directory / MODEL_DIR
        model = self.module
        if half:
            import copy

            model = copy.deepcopy(model).half()
        model.save_pretrained(str(target), safe_serialization=True)
        self.tokenizer.save_pretrained(str(target))

    def load_weights(self, directory: Path, strict: bool = True) -> list[str]:
        fresh = self._load(str(directory / MODEL_DIR), ignore_mismatch=True)
        if strict and fresh:
            raise ValueError(f"{directory}: weights missing or of another shape for {fresh[:5]}")
        return fresh

    # -- inputs ----------------------------------------------------------------------------------
    @property
    def embedder(self) -> Any:
        if self._embedder is None:
            self._embedder = registry.build("embedder", self.config.embedder)
        return self._embedder

    def prepare(self, pairs: Sequence[Pair], progress: Any = None) -> None:
        """Choose the evidence text of every pair whose sentences do not fit next to the claim."""
        todo = [p for p in pairs if (p.claim, p.evidence) not in self._evidence]
        if not todo:
            return
        tok = self.tokenizer
        budget = self.config.max_length - 3
        claim_len = [len(ids) for ids in tok([p.claim for p in todo], add_special_tokens=False)["input_ids"]]
        long: list[tuple[Pair, int]] = []
        for pair, n_claim in zip(todo, claim_len, strict=True):
            if len(pair.evidence) <= 1:
                self._evidence[(pair.claim, pair.evidence)] = " ".join(pair.evidence)
            else:
                long.append((pair, n_claim))
        if not long:
            return
        sent_len = {s: len(ids) for s, ids in _token_lengths(tok, {s for p, _ in long for s in p.evidence})}
        over = [(p, n) for p, n in long if n + sum(sent_len[s] for s in p.evidence) > budget]
        for p, _ in long:
            self._evidence[(p.claim, p.evidence)] = " ".join(p.evidence)
        if not over:
            return
        # each evidence sentence is embedded once by this verifier: a caller that judges in small rounds (the lazy
        # label check) meets the same evidence again in later calls
        sentences = {s for p, _ in over for s in p.evidence}
        if len(self._vectors) + len(sentences) > MAX_VECTORS:
            self._vectors.clear()
        new = sorted(sentences - self._vectors.keys())
        claims = sorted({p.claim for p, _ in over})
        vecs = self.embedder.embed(new + claims, progress=progress)
        self._vectors.update(zip(new, vecs[: len(new)], strict=True))
        claim_vec = dict(zip(claims, vecs[len(new) :], strict=True))
        for pair, n_claim in over:
            sims = np.stack([self._vectors[s] for s in pair.evidence]) @ claim_vec[pair.claim]
            keep: list[int] = []
            used = n_claim
            for i in np.argsort(-sims, kind="stable"):
                if used + sent_len[pair.evidence[i]] <= budget or not keep:
                    keep.append(int(i))
                    used += sent_len[pair.evidence[i]]
            self._evidence[(pair.claim, pair.evidence)] = " ".join(pair.evidence[i] for i in sorted(keep))

    def evidence_text(self, pair: Pair) -> str:
        key = (pair.claim, pair.evidence)
        if key not in self._evidence:
            self.prepare([pair])
        return self._evidence[key]

    def length(self, pair: Pair) -> int:
        return len(pair.claim) + len(self.evidence_text(pair))

    def collate(self, pairs: Sequence[Pair]) -> dict[str, Any]:
        claims, evidence = [p.claim for p in pairs], [self.evidence_text(p) for p in pairs]
        first, second = (evidence, claims) if self.config.evidence_first else (claims, evidence)
        return dict(
            self.tokenizer(
                first,
                second,
                truncation="longest_first",
                max_length=self.config.max_length,
                padding=True,
                return_tensors="pt",
            )
        )

    def forward(self, batch: dict[str, Any]) -> Any:
        return self.module(**batch).logits


def _token_lengths(tokenizer: Any, sentences: set[str]) -> list[tuple[str, list[int]]]:
    ordered = sorted(sentences)
    ids = tokenizer(ordered, add_special_tokens=False)["input_ids"] if ordered else []
    return list(zip(ordered, ids, strict=True))


@registry.register("verifier", "cross-encoder", CrossEncoderConfig)
def build_cross_encoder(config: CrossEncoderConfig) -> CrossEncoderVerifier:
    """Cross-encoder fine-tuned from any HF encoder (default: bundled all-MiniLM-L6-v2 weights)."""
    return CrossEncoderVerifier(config)
